"""Every example's canonical text and JSON form are pinned by digest (issue 13: nothing a user has changes).

The archive's content hashes are taken over the canonical text, so a restructuring that changed one byte of it
would make re-importing an existing archive's files change rows. The digests were taken with the version
before the restructuring; a change that alters them on purpose must say so and regenerate them with
``python tests/test_canonical_digests.py > tests/data/canonical_digests.json``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from jojotte_records.notation.json_form import to_record_file
from jojotte_records.notation.text import read_sessions, write_sessions

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
DIGESTS = Path(__file__).with_name("data") / "canonical_digests.json"


def example_files() -> list[Path]:
    return sorted(EXAMPLES.rglob("*.jjt"), key=lambda p: str(p.relative_to(EXAMPLES)))


def digests_of(path: Path) -> dict[str, str]:
    sessions = read_sessions(path.read_text(encoding="utf-8-sig"), path.name)
    text = write_sessions(sessions)
    js = to_record_file(sessions).model_dump_json(indent=2, exclude_defaults=False)
    return {"text": hashlib.sha256(text.encode()).hexdigest(), "json": hashlib.sha256(js.encode()).hexdigest()}


def test_every_example_is_pinned():
    pinned = json.loads(DIGESTS.read_text())
    assert sorted(pinned) == [str(p.relative_to(EXAMPLES)) for p in example_files()]


@pytest.mark.parametrize("path", example_files(), ids=lambda p: str(p.relative_to(EXAMPLES)))
def test_canonical_text_and_json_unchanged(path):
    pinned = json.loads(DIGESTS.read_text())[str(path.relative_to(EXAMPLES))]
    assert digests_of(path) == pinned


if __name__ == "__main__":
    json.dump({str(p.relative_to(EXAMPLES)): digests_of(p) for p in example_files()}, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
