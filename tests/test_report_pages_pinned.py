"""Every page of ``jojotte report examples/`` pinned by digest (issue 13: one report builder, the same pages).

The site is built from the examples folder; the folder's absolute path is replaced by ``EXAMPLES`` before
hashing (it is the only part of a page that depends on where the checkout lives), and the manifest (a list
of the pages' own hashes) is left out. A change that moves a page on purpose must say so in its commit and
regenerate the digests with ``python tests/test_report_pages_pinned.py > tests/data/report_pages.json``.
"""

from __future__ import annotations

import hashlib
import json
import sys
import tempfile
from pathlib import Path

from jojotte_records.report.site import MANIFEST_NAME, build_site

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
DIGESTS = Path(__file__).with_name("data") / "report_pages.json"


def page_digests(out: Path) -> dict[str, str]:
    build_site([str(EXAMPLES)], out)
    digests = {}
    for f in sorted(out.rglob("*")):
        if not f.is_file() or f.name == MANIFEST_NAME:
            continue
        text = f.read_text(encoding="utf-8").replace(str(EXAMPLES), "EXAMPLES")
        digests[f.relative_to(out).as_posix()] = hashlib.sha256(text.encode()).hexdigest()
    return digests


def test_every_page_of_the_examples_report_is_pinned(tmp_path):
    pinned = json.loads(DIGESTS.read_text(encoding="utf-8"))
    now = page_digests(tmp_path / "site")
    assert sorted(now) == sorted(pinned), "pages added or gone: " + ", ".join(sorted(set(now) ^ set(pinned)))
    moved = sorted(rel for rel in now if now[rel] != pinned[rel])
    assert not moved, f"{len(moved)} page(s) changed: {', '.join(moved[:20])}"


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        json.dump(page_digests(Path(tmp) / "site"), sys.stdout, indent=1, sort_keys=True)
        print()
