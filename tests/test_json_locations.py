"""Findings in JSON records point to where they are in the JSON file (issue 16, item 11: they pointed to line 0).

What a user expects: the same ``file:line:column`` as for a text record, pointing at the JSON element the finding
is about (the ``{`` of the play object of the card, of the call, of the ``score`` object; the hand's object for a
finding about the whole hand), so that an editor jumps to it; the hand, trick and card stay in the message. The
expected positions below are found in the JSON text itself, independently of the reader (the line holding the
element's unique ``"card": "8S"``, and the ``{`` opening its object one or two lines above, as ``indent=2`` lays
it out)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jojotte_records.errors import NotationError
from jojotte_records.notation.json_form import iter_json_records, json_positions, to_record_file
from jojotte_records.notation.text import read_sessions
from jojotte_records.replay.files import check_file

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _json_of(name: str) -> str:
    path = EXAMPLES / name
    return to_record_file(read_sessions(path.read_text(encoding="utf-8"), str(path))).model_dump_json(indent=2)


def _object_opening_above(lines: list[str], i: int) -> tuple[int, int]:
    """(line, column), 1-based, of the nearest ``{`` alone on a line at or above line index ``i``."""
    while lines[i].strip() != "{":
        i -= 1
    return i + 1, lines[i].index("{") + 1


def test_an_illegal_card_points_at_its_play_object(tmp_path):
    # 04: trick 1, card 2, Alice's 8S breaks JJ-PLAY-5 (examples/disputes/expected.json)
    doc = _json_of("disputes/04-void-did-not-trump.jjt")
    lines = doc.splitlines()
    at = [i for i, ln in enumerate(lines) if ln.strip().startswith('"card": "8S"')]
    assert len(at) == 1
    want = _object_opening_above(lines, at[0])
    f = tmp_path / "04.json"
    f.write_text(doc, encoding="utf-8")
    r = check_file(str(f))
    (issue,) = [i for _, hs in r.sessions for h in hs for i in h.issues]
    assert (issue.rule, issue.loc.trick, issue.loc.card) == ("JJ-PLAY-5", 1, 2)
    assert (issue.loc.line, issue.loc.column) == want
    assert str(issue).startswith(f"{f}:{want[0]}:{want[1]}: hand 1, trick 1, card 2:")


def test_a_wrong_written_score_points_at_the_score_object(tmp_path):
    doc = _json_of("disputes/35-score-double-forgotten.jjt")
    lines = doc.splitlines()
    at = [i for i, ln in enumerate(lines) if ln.strip().startswith('"score": {')]
    assert len(at) == 1
    want = (at[0] + 1, lines[at[0]].index("{") + 1)
    f = tmp_path / "35.json"
    f.write_text(doc, encoding="utf-8")
    issues = [i for _, hs in check_file(str(f)).sessions for h in hs for i in h.issues]
    assert issues and all(i.kind == "score" and i.rule == "JJ-SCORE-5" for i in issues)
    assert {(i.loc.line, i.loc.column) for i in issues} == {want}


def test_an_event_log_finding_points_at_its_item(tmp_path):
    # p07 (Pitch): trick 4, card 1, Ed leads instead of Sue (PIT-PLAY-6); the item is the first of the 4th trick line
    doc = _json_of("disputes/p07-pitch-wrong-leader-when-winner-is-out.jjt")
    data = json.loads(doc)
    lines_ = data["sessions"][0]["hands"][0]["lines"]
    k = next(n for n, ln in enumerate(lines_) if ln["keyword"] == "trick" and ln["number"] == 4)
    pos = json_positions(doc)
    f = tmp_path / "p07.json"
    f.write_text(doc, encoding="utf-8")
    (issue,) = [i for _, hs in check_file(str(f)).sessions for h in hs for i in h.issues if i.is_error]
    assert (issue.rule, issue.loc.trick, issue.loc.card) == ("PIT-PLAY-6", 4, 1)
    assert issue.loc.line > 0
    assert (issue.loc.line, issue.loc.column) == pos[("sessions", 0, "hands", 0, "lines", k, "items", 0)]


def test_json_positions_by_hand():
    text = '{"a": [1, {"b": "x"},\n  [ ]], "c": {}}'
    pos = json_positions(text)
    assert pos[()] == (1, 1)
    assert pos[("a",)] == (1, 7)
    assert pos[("a", 1)] == (1, 11)
    assert pos[("a", 1, "b")] == (1, 17)
    assert pos[("a", 2)] == (2, 3)
    assert pos[("c",)] == (2, 14)  # line 2 is '  [ ]], "c": {}}': two spaces, "[ ]]," (5), a space, '"c":' (4), a space


def test_a_json_value_the_reader_cannot_read_is_a_located_error():
    doc = _json_of("disputes/04-void-did-not-trump.jjt").replace('"card": "8S"', '"card": "8X"')
    lines = doc.splitlines()
    at = next(i for i, ln in enumerate(lines) if '"card": "8X"' in ln)
    with pytest.raises(NotationError) as e:
        list(iter_json_records(doc, "r.json"))
    issue = e.value.issue
    assert issue.kind == "syntax" and "8X" in issue.message
    assert (issue.loc.line, issue.loc.column) == (at + 1, lines[at].index('"8X"') + 1)


def test_validate_reports_the_located_error_of_an_unreadable_json_value(tmp_path):
    doc = _json_of("spec-rubber.jjt").replace('"seat": "B"', '"seat": "Z"', 1)
    f = tmp_path / "z.json"
    f.write_text(doc, encoding="utf-8")
    r = check_file(str(f))
    assert r.read_error is not None and "'Z'" in r.read_error.message
    assert r.read_error.loc.line and r.read_error.loc.line > 1


@pytest.mark.parametrize("old,new,path_end", [
    ('"number": 1,', f'"number": {2**63},', ()),  # the first hand's number (and the first trick's, the same text)
    ('"aside": 0', f'"aside": {10**12}', ("score",)),
])
def test_a_json_number_above_the_bound_is_a_located_error(old, new, path_end):
    # issue 16 item 3: every number the notation reads is bounded (errors.MAX_NUMBER); a JSON hand number of 2**63
    # passed the reader and crashed the importer (OverflowError in pyarrow)
    from jojotte_records.archive.store import MemoryArchive

    doc = _json_of("spec-rubber.jjt").replace(old, new, 1)
    with pytest.raises(NotationError) as e:
        list(iter_json_records(doc, "n.json"))
    issue = e.value.issue
    assert issue.kind == "syntax" and "too large" in issue.message
    assert (issue.loc.line, issue.loc.column) == json_positions(doc)[("sessions", 0, "hands", 0, *path_end)]
    archive = MemoryArchive()
    try:
        rows = archive.file_rows("n.json", doc.encode())
    finally:
        archive.close()
    assert rows.result.status == "error" and "too large" in rows.result.error.message


def test_a_json_schema_error_points_at_the_element(tmp_path):
    # a trick without its plays: the schema's finding is placed at the trick's object (the nearest placed element)
    doc = _json_of("spec-rubber.jjt")
    data = json.loads(doc)
    del data["sessions"][0]["hands"][1]["tricks"][2]["plays"]
    doc = json.dumps(data, indent=2)
    want = json_positions(doc)[("sessions", 0, "hands", 1, "tricks", 2)]
    f = tmp_path / "s.json"
    f.write_text(doc, encoding="utf-8")
    err = check_file(str(f)).read_error
    assert err is not None and "does not follow the schema at sessions.0.hands.1" in err.message
    assert (err.loc.line, err.loc.column) == want


def test_json_that_is_not_json_points_at_where_it_stops(tmp_path):
    f = tmp_path / "t.json"
    f.write_text('{"sessions": [\n  {"tags": [}\n', encoding="utf-8")
    err = check_file(str(f)).read_error
    assert err is not None and err.loc.line == 2  # the '}' that closes nothing is on line 2



def _event_doc_with_winner(name: str, winner) -> tuple[str, str]:
    """(the JSON form of example ``name`` with its first trick written as won by ``winner(seat)``, where ``seat`` is
    the seat that leads the second trick: the first trick's real winner, a trick's winner leading the next)."""
    doc = json.loads(_json_of(name))
    lines = doc["sessions"][0]["hands"][0]["lines"]
    k = next(i for i, ln in enumerate(lines) if ln["keyword"] == "trick")
    seat = lines[k + 1]["items"][0]["label"]
    lines[k]["winner"] = winner(seat)
    return json.dumps(doc, indent=2), seat


@pytest.mark.parametrize("name", ["disputes/b04-baloot-failed-declarers-kept-points.jjt", "event-pitch/r3t2.jjt"])
def test_an_event_trick_written_as_won_by_no_seat_is_a_located_error(name, tmp_path):
    # fuzz (bench/fuzz.py, seed 6002, inputs 23551 and 149311): a JSON event line whose "winner" is not one of the
    # game's seats ("A" in a Baloot or Pitch record, whose seats are N E S W) raised ValueError in the replay
    text, _ = _event_doc_with_winner(name, lambda seat: "A")
    with pytest.raises(NotationError) as e:
        list(iter_json_records(text, "w.json"))
    issue = e.value.issue
    assert issue.kind == "syntax" and "unknown seat 'A'" in issue.message
    lines = text.splitlines()
    at = next(i for i, ln in enumerate(lines) if '"winner": "A"' in ln)
    assert (issue.loc.line, issue.loc.column) == (at + 1, lines[at].index('"A"') + 1)
    f = tmp_path / "w.json"
    f.write_text(text, encoding="utf-8")
    assert check_file(str(f)).read_error is not None


def test_an_event_trick_winner_in_lower_case_is_read_as_its_seat(tmp_path):
    # seats are read in any case in JSON (as for plays); the trick-winner check then compares the canonical label,
    # so the lower-case record has exactly the findings of the original (no "written as won by" finding, no crash)
    name = "disputes/b04-baloot-failed-declarers-kept-points.jjt"
    lower, seat = _event_doc_with_winner(name, str.lower)
    same, _ = _event_doc_with_winner(name, lambda s: s)
    assert seat != seat.lower()
    found = []
    for text in (lower, same):
        f = tmp_path / "w.json"
        f.write_text(text, encoding="utf-8")
        r = check_file(str(f))
        assert r.read_error is None
        found.append([str(i) for s in r.sessions for h in s[1] for i in h.issues])
    assert found[0] == found[1]
