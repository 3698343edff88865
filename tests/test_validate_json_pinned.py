"""`jojotte validate --json` and the plain report are pinned, taken with the version before the validators were
made one (issue 13): one validator for every game must give every game's document byte for byte as before.

Three documents are kept whole (a Jo-Jotte rubber, a Pitch game, a Baloot match) so a change can be read; every
other example (disputes included) is pinned by the digest of its ``validate --json`` document and of its plain
``validate -v`` text. A change that alters them on purpose must say so and regenerate them with
``python tests/test_validate_json_pinned.py``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from jojotte_records.cli.main import app
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
DATA = Path(__file__).with_name("data") / "validate_json"
WHOLE = ("spec-rubber.jjt", "pitch-game.jjt", "baloot-match.jjt")


def example_files() -> list[Path]:
    return sorted(EXAMPLES.rglob("*.jjt"), key=lambda p: str(p.relative_to(EXAMPLES)))


def run(*args: str) -> str:
    result = CliRunner().invoke(app, ["validate", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.stdout


def outputs(path: Path) -> tuple[str, str]:
    rel = str(path.relative_to(ROOT))
    return run(rel, "--json"), run(rel, "-v")


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.fixture(autouse=True)
def _from_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # the documents name their files relative to the repository


@pytest.mark.parametrize("name", WHOLE)
def test_whole_document_unchanged(name):
    assert outputs(EXAMPLES / name)[0] == (DATA / (name + ".json")).read_text(encoding="utf-8")


def test_every_example_is_pinned():
    pinned = json.loads((DATA / "digests.json").read_text())
    assert sorted(pinned) == [str(p.relative_to(EXAMPLES)) for p in example_files()]


@pytest.mark.parametrize("path", example_files(), ids=lambda p: str(p.relative_to(EXAMPLES)))
def test_json_and_text_unchanged(path):
    pinned = json.loads((DATA / "digests.json").read_text())[str(path.relative_to(EXAMPLES))]
    js, text = outputs(path)
    assert {"json": digest(js), "text": digest(text)} == pinned


if __name__ == "__main__":
    import os

    os.chdir(ROOT)
    for name in WHOLE:
        (DATA / (name + ".json")).write_text(outputs(EXAMPLES / name)[0], encoding="utf-8")
    pins = {}
    for p in example_files():
        js, text = outputs(p)
        pins[str(p.relative_to(EXAMPLES))] = {"json": digest(js), "text": digest(text)}
    (DATA / "digests.json").write_text(json.dumps(pins, indent=1, sort_keys=True) + "\n")
