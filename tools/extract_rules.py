"""Extract the rule sentences of a rules spec into the JSON file the HTML reports ship with.

    python tools/extract_rules.py                       # ../shared/rules/jojotte.md -> jojotte_records/data/rules_jojotte.json
    python tools/extract_rules.py SPEC.md OUT.json
    python tools/extract_rules.py --check               # exit 1 when the shipped file is stale

The installed package must work without the repository's ``shared/`` folder, so
the report reads the rule texts from ``jojotte_records/data/rules_jojotte.json``;
``tests/test_report.py`` fails when that file no longer matches the spec.

A rule is a top-level bullet ``* **JJ-PLAY-3** text``; its text runs on over
indented lines (nested lists and tables included) until the next top-level
line. Markdown emphasis is removed; `code` spans keep their text.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SPEC = ROOT.parent / "shared" / "rules" / "jojotte.md"
DEFAULT_OUT = ROOT / "jojotte_records" / "data" / "rules_jojotte.json"

_RULE = re.compile(r"^\* \*\*([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)\*\*\s*(.*)$")
_SECTION = re.compile(r"^##\s+(.*?)\s*$")


def _plain(text: str) -> str:
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text)
    text = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"\1", text)
    return text.replace("`", "")


def extract(markdown: str) -> dict[str, dict[str, str]]:
    """``{rule_id: {"section": "10. Trick play (JJ-PLAY)", "text": "A player who holds …"}}`` in spec order."""
    rules: dict[str, dict[str, str]] = {}
    section = ""
    current: list[str] | None = None
    rule_id = ""

    def close() -> None:
        if current is not None:
            lines = [ln for ln in current]
            while lines and not lines[-1]:
                lines.pop()
            # one paragraph per block: join wrapped lines, keep nested list items and table rows on their own line
            out: list[str] = []
            for ln in lines:
                block = ln.startswith(("* ", "- ", "|")) or not ln
                if out and not block and out[-1] and not out[-1].startswith("|"):
                    out[-1] += " " + ln
                elif ln:
                    out.append(("– " + ln[2:]) if ln.startswith(("* ", "- ")) else ln)
            rules[rule_id] = {"section": _plain(section), "text": _plain("\n".join(out))}

    for raw in markdown.splitlines():
        m = _SECTION.match(raw)
        if m:
            close()
            current = None
            section = m.group(1)
            continue
        m = _RULE.match(raw)
        if m:
            close()
            rule_id = m.group(1)
            current = [m.group(2).strip()]
            continue
        if current is not None:
            if raw.startswith("  ") or not raw.strip():
                current.append(raw.strip())
            else:
                close()
                current = None
    close()
    return rules


def render(rules: dict[str, dict[str, str]]) -> str:
    return json.dumps({"format": 1, "source": "shared/rules/jojotte.md", "rules": rules},
                      ensure_ascii=False, indent=1) + "\n"


def main(argv: list[str]) -> int:
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    spec = Path(args[0]) if args else DEFAULT_SPEC
    out = Path(args[1]) if len(args) > 1 else DEFAULT_OUT
    rules = extract(spec.read_text(encoding="utf-8"))
    text = render(rules)
    if check:
        if not out.exists() or out.read_text(encoding="utf-8") != text:
            print(f"{out} is stale: run python tools/extract_rules.py", file=sys.stderr)
            return 1
        return 0
    out.write_text(text, encoding="utf-8")
    print(f"{out}: {len(rules)} rules")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
