"""Lazy start-up (issue 14, item 2): a command imports only what it uses.

Not timed (timed tests are forbidden; `bench/startup.py` prints the figures): these tests hold the import graph.
Each runs the command in a fresh interpreter, through the Typer app as the `jojotte` script does, and lists
the modules loaded. What validate truly needs: the notation's text reader, the rules, the replay engine and
the file checks (`replay.files`); not the JSON form's pydantic models (`notation.json_form`, only for *.json
records), the archive (duckdb, pyarrow), the report (jinja2), the analyzer (only for --restore), the
recorder and events (`table`), the simulator (`play`), nor rich (only for a progress bar on a terminal).
Typer itself imports pydantic to convert a command's arguments (typer >= 0.16), so pydantic is not in the list
of what validate must not load; it is for the bare import of the application.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

CHILD = r"""
import json, sys
before = set(sys.modules)
from jojotte_records.cli.main import app
imported = sorted(set(sys.modules) - before)
code = None
if sys.argv[1:]:
    try:
        app(sys.argv[1:])
    except SystemExit as e:
        code = e.code
sys.stdout.flush()
print("\n@@" + json.dumps({"imported": imported, "modules": sorted(sys.modules), "code": code}))
"""

# Nothing of these on the validate path (a prefix names the package and every module under it).
NOT_FOR_VALIDATE = (
    "duckdb", "pyarrow", "jinja2", "markupsafe", "rich",
    "jojotte_records.analyze", "jojotte_records.archive", "jojotte_records.table", "jojotte_records.play",
    "jojotte_records.report.site", "jojotte_records.report.views", "jojotte_records.report.event_pages",
    "jojotte_records.notation.json_form", "jojotte_records.notation.schema", "jojotte_records.spark",
)
# ... nor, for the bare import of the application, pydantic, the rules or the replay (the commands' bodies).
NOT_AT_IMPORT = NOT_FOR_VALIDATE + ("pydantic", "pydantic_core", "jojotte_records.rules", "jojotte_records.replay",
                                    "jojotte_records.notation")


def run_child(*args: str) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, *args], capture_output=True, text=True, cwd=ROOT,
                          stdin=subprocess.DEVNULL, timeout=300)
    out, _, doc = done.stdout.rpartition("\n@@")
    assert doc, done.stderr
    result = json.loads(doc)
    result["stdout"] = out
    return result


def loaded(modules: list[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


def test_importing_the_application_loads_no_command_body():
    r = run_child()
    assert loaded(r["imported"], NOT_AT_IMPORT) == []
    # every command module is imported (Typer needs their signatures and help), and they are light
    assert "jojotte_records.cli.archive" in r["imported"] and "jojotte_records.cli.report" in r["imported"]


@pytest.mark.parametrize("args", [
    ["validate", str(EXAMPLES / "disputes" / "01-revoke-follow-suit.jjt")],
    ["validate", str(EXAMPLES), "-v"],
    ["validate", str(EXAMPLES), "--json"],
    ["validate", "--quiet", str(EXAMPLES / "pitch-game.jjt"), str(EXAMPLES / "baloot-match.jjt")],
], ids=["one-hand", "examples-v", "examples-json", "events"])
def test_validate_loads_only_what_it_uses(args):
    r = run_child(*args)
    assert r["code"] in (0, 1)  # the command ran: its verdicts (1: the disputes' findings)
    assert "hand(s)" in r["stdout"] or '"summary"' in r["stdout"]
    assert "jojotte_records.replay.files" in r["modules"] and "jojotte_records.rules.jojotte" in r["modules"]
    assert loaded(r["modules"], NOT_FOR_VALIDATE) == []


@pytest.mark.parametrize("args", [["--help"], ["validate", "--help"], ["--version"]])
def test_help_and_version_load_no_library_floor(args):
    r = run_child(*args)
    assert r["code"] == 0 and r["stdout"].strip()
    # Typer draws the help with rich and converts with pydantic: only the project's floors are held here
    floors = tuple(n for n in NOT_AT_IMPORT if n not in ("rich", "pydantic", "pydantic_core"))
    assert loaded(r["modules"], floors) == []


def test_validate_of_a_json_record_loads_the_json_form_only(tmp_path):
    text = subprocess.run([sys.executable, "-m", "jojotte_records", "convert", str(EXAMPLES / "spec-rubber.jjt"),
                           "--to", "json"], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    path = tmp_path / "spec-rubber.json"
    path.write_text(text, encoding="utf-8")
    r = run_child("validate", str(path))
    assert r["code"] == 0 and "4 hand(s)" in r["stdout"]
    assert "jojotte_records.notation.json_form" in r["modules"]
    assert loaded(r["modules"], tuple(n for n in NOT_FOR_VALIDATE if n != "jojotte_records.notation.json_form")) == []
