"""Regression tests for what `bench/fuzz.py` found (issue 16, "Fuzzing as a figure"): each input that raised an
exception other than the project's own error value, minimized, in ``tests/data/fuzz/``."""

from __future__ import annotations

from pathlib import Path

import pytest

from jojotte_records.errors import NotationError
from jojotte_records.rules.base import Violation, format_message, violation_message
from jojotte_records.table.recorder import Recorder, Refusal

DATA = Path(__file__).parent / "data" / "fuzz"


def test_a_typed_word_with_a_brace_is_quoted_not_formatted():
    # the rules quote what was typed ('Q{H' is not a card); only {pN} is a player's name
    assert format_message("'Q{H' is not a card; {p1} to play", ("Ann", "Bob")) == "'Q{H' is not a card; Bob to play"
    assert format_message("'}}' {p0}", ("Ann",)) == "'}}' Ann"
    assert violation_message(Violation("BAL-DECK-1", "'{x' {p0}"), ("Ann",)) == "'{x' Ann"


def test_recorder_refuses_a_card_with_a_brace(tmp_path):
    rec = Recorder(tmp_path / "b.jjt", game="baloot")
    assert rec.answer("N").text == "dealer N"
    out = rec.answer("Q{H")
    assert isinstance(out, Refusal)
    assert "Q{H" in out.message


def test_json_name_call_without_its_suit_is_a_located_error():
    # fuzz seed 3 input 3007: a JSON "name" call without "suit" reached the rules as a suit of -1 (KeyError in JJ-BID-5's
    # message); the text notation cannot write it (`name H`), so the reader refuses it, at the call
    from jojotte_records.notation.json_form import iter_json_records, json_positions
    from jojotte_records.replay.files import check_file

    path = DATA / "name-call-without-suit.json"
    text = path.read_text(encoding="utf-8")
    with pytest.raises(NotationError) as e:
        list(iter_json_records(text, str(path)))
    issue = e.value.issue
    assert issue.kind == "syntax" and "suit" in issue.message
    assert (issue.loc.line, issue.loc.column) == json_positions(text)[("sessions", 0, "hands", 0, "auction", 2)]
    r = check_file(str(path))
    assert r.read_error == issue


def test_json_call_in_a_trick_after_a_huge_number_of_cards_is_a_schema_error(tmp_path):
    # fuzz seed 3000 input 9389: "after_cards" of 10**30 reached the writer's list.insert (OverflowError in convert);
    # a trick has at most four cards, so a call in it comes after 0 to 4 of them
    import json

    from jojotte_records.cli.main import app
    from typer.testing import CliRunner

    from jojotte_records.notation.text import read_session

    text = (Path(__file__).resolve().parent.parent / "examples" / "disputes" / "70-dix-after-first-card.jjt").read_text()
    runner = CliRunner()
    doc = json.loads(runner.invoke(app, ["convert", "-", "--to", "json"], input=text).stdout)
    calls = [c for h in doc["sessions"][0]["hands"] for t in h["tricks"] for c in t.get("calls", [])]
    assert calls, "the example has a call written in its trick"
    assert read_session(text).hands  # the text itself reads
    calls[0]["after_cards"] = 10**30
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    result = runner.invoke(app, ["convert", str(bad), "--to", "text"])
    assert result.exit_code == 2 and not isinstance(result.exception, OverflowError)
    assert "after_cards" in result.output + (result.stderr or "")
