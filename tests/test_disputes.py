"""Dispute records: every file in ``examples/disputes`` holds exactly one fault, and the validator must name it.

Each ``*.jjt`` file there is a small session built from legal hands into which one illegal
event (a call or a card that breaks a rule) or one wrong written score was introduced; its
opening comment describes the dispute. ``expected.json`` gives, per file, the finding an
arbiter expects: rule ID, kind, hand, trick, card, and the line and column of the offending
token (the card, the seat letter of the call, the dealer's seat letter, or the ``score``
keyword).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from jojotte_records.cli.main import app
from typer.testing import CliRunner

from jojotte_records.replay.files import FileResult, check_file

DISPUTES = Path(__file__).resolve().parent.parent / "examples" / "disputes"
EXPECTED: dict[str, dict] = json.loads((DISPUTES / "expected.json").read_text(encoding="utf-8"))
FILES = sorted(p.name for p in DISPUTES.glob("*.jjt"))
FIELDS = ("rule", "kind", "hand", "trick", "card", "line", "column")


def errors_of(result: FileResult) -> list:
    """Every error of a file: session-level issues and the issues of every hand (not the 'unchecked' notes)."""
    found = [result.read_error] if result.read_error is not None else []
    for summary, hands in result.sessions:
        found.extend(i for i in summary.issues if i.is_error)
        for verdict in hands:
            found.extend(i for i in verdict.issues if i.is_error)
    return found


def finding(issue) -> dict:
    return {"rule": issue.rule, "kind": issue.kind, "hand": issue.loc.hand, "trick": issue.loc.trick,
            "card": issue.loc.card, "line": issue.loc.line, "column": issue.loc.column}


def player_names(name: str) -> list[str]:
    """The names of the [Players] tag, read from the file itself."""
    m = re.search(r'^\[Players\s+"([^"]*)"\]', (DISPUTES / name).read_text(encoding="utf-8"), re.M)
    assert m, f"{name} has no [Players] tag"
    names = [n.strip() for n in m.group(1).split(";")]
    assert len(names) in (2, 3, 4, 5) and all(names)  # two players, three, four (§18–20); five at Pitch
    return names


@pytest.fixture(scope="module")
def results() -> dict[str, FileResult]:
    return {name: check_file(str(DISPUTES / name)) for name in FILES}


def test_there_are_enough_disputes():
    assert len(FILES) >= 18


def test_expected_json_lists_exactly_the_dispute_files():
    assert sorted(EXPECTED) == FILES


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_expected_entry_is_well_formed(name):
    e = EXPECTED[name]
    assert set(e) == set(FIELDS)
    assert re.fullmatch(r"JJ-[A-Z]+-\d+|JJ3-[A-Z]+-\d+|JJ4P-[A-Z]+-\d+|JJ4S-\d+|PIT-[A-Z]+-\d+|BAL-[A-Z]+-\d+", e["rule"])
    assert e["kind"] in ("illegal", "score", "consistency")  # consistency: the record contradicts itself
    assert isinstance(e["hand"], int) and e["hand"] >= 1
    assert isinstance(e["line"], int) and e["line"] >= 1
    assert isinstance(e["column"], int) and e["column"] >= 1
    # a card position only for a card played to a trick; none for calls, deals and scores
    assert (e["trick"] is None) == (e["card"] is None)
    if e["trick"] is not None:
        assert e["kind"] in ("illegal", "consistency") and 1 <= e["trick"] <= 9 and e["card"] in (1, 2, 3, 4)
    if e["kind"] == "score":
        assert e["trick"] is None and e["column"] == 1


@pytest.mark.parametrize("name", FILES)
def test_each_dispute_starts_with_a_comment(name):
    text = (DISPUTES / name).read_text(encoding="utf-8")
    assert text.startswith("{")
    comment = text[1:text.index("}")].strip()
    assert len(comment.split()) >= 15, "the opening comment explains the dispute in plain words"


@pytest.mark.parametrize("name", FILES)
def test_exactly_one_error_in_the_file(name, results):
    result = results[name]
    assert result.read_error is None
    errors = errors_of(result)
    assert len(errors) == 1, "\n".join(str(i) for i in errors) or "no error found"
    assert not result.ok


@pytest.mark.parametrize("name", FILES)
def test_the_error_is_the_expected_finding(name, results):
    errors = errors_of(results[name])
    assert errors, "no error found"
    assert finding(errors[0]) == EXPECTED[name], str(errors[0])


@pytest.mark.parametrize("name", FILES)
def test_the_message_is_a_sentence_naming_a_player(name, results):
    errors = errors_of(results[name])
    assert errors, "no error found"
    message = errors[0].message
    assert isinstance(message, str) and message == message.strip() and message
    assert message[0].isalnum() or message[0] == '"'
    assert len(re.findall(r"[A-Za-z]+", message)) >= 4
    assert not re.search(r"\{p\d+\}|\bNone\b|Action\(|Violation\(", message), "unformatted text in the message"
    names = player_names(name)
    assert any(re.search(rf"\b{re.escape(n)}\b", message) for n in names), \
        f"the message names none of {', '.join(names)}: {message!r}"


@pytest.mark.parametrize("name", FILES)
def test_cli_validate_exits_with_code_1(name):
    runner = CliRunner()
    path = str(DISPUTES / name)
    out = runner.invoke(app, ["validate", path])
    assert out.exit_code == 1, out.output
    assert "1 with errors" in out.output
    out = runner.invoke(app, ["validate", "--json", path])
    assert out.exit_code == 1, out.output
    doc = json.loads(out.output)
    assert doc["exit_code"] == 1 and doc["ok"] is False
    errors = [e for f in doc["files"] for s in f["sessions"] for x in (s["errors"], *(h["errors"] for h in s["hands"])) for e in x]
    assert len(errors) == 1
