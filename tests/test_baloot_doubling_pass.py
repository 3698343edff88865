"""A "pass" on a Baloot doubling line: a step of the doubling ladder not taken (BAL-DBL-5: "Every step of the
chain is optional; the chain stops at the first step not taken"; BAL-DBL-10: the level is 1 without a DOUBLE).

A table may write it (`doubling N pass, S pass`: neither defender doubled; `doubling S double open, W pass`: the
declarer did not triple); it was a syntax error (NOTATION). It is read as what it means, changes nothing in the
hand, and is kept in the canonical text as written, like every other item of an event line (docs/baloot.md).
"""

from __future__ import annotations

from pathlib import Path

from jojotte_records.notation.json_form import RecordFile, to_record_file, to_session
from jojotte_records.notation.text import iter_records, read_sessions, write_session
from jojotte_records.replay.jojotte import validate_stream

MATCH = (Path(__file__).resolve().parent.parent / "examples" / "baloot-match.jjt").read_text(encoding="utf-8")
HAND_1_COMPLETE = "complete S: AS 8H AC; E: 9S AD; N: KH 9H 8C; W: QS 8D 9C\n"  # hand 1: E's Sun, at 0-0
HAND_2_DOUBLE = "doubling S double open\n"  # hand 2: W's Hokum, S doubles (open)


def _hands(text: str):
    [(summary, hands)] = list(validate_stream(iter_records(text, "b.jjt")))
    return summary, hands


def test_defenders_passing_is_no_double():
    # hand 1 is a Sun at a match score of 0-0: no DOUBLE is legal there (BAL-DBL-8), and N and S, the defenders,
    # say so; the hand scores as written (NS 14, WE 20: undoubled)
    text = MATCH.replace(HAND_1_COMPLETE, HAND_1_COMPLETE + "doubling N pass, S pass\n")
    assert text != MATCH
    summary, hands = _hands(text)
    assert summary.bad_hands == 0 and not summary.issues, [i.message for h in hands for i in h.issues]
    assert hands[0].state.level == 1 and not hands[0].state.doubling
    _, before = _hands(MATCH)
    assert [h.score.delta for h in hands] == [h.score.delta for h in before]


def test_the_declarer_passing_on_the_double_keeps_level_two():
    # hand 2: S doubles (open), W (the declarer) does not triple: level 2, open (BAL-DBL-7), WE 38 as written
    for words in ("pass", "p", "-"):
        text = MATCH.replace(HAND_2_DOUBLE, f"doubling S double open, W {words}\n")
        summary, hands = _hands(text)
        assert summary.bad_hands == 0 and not summary.issues, (words, [i.message for h in hands for i in h.issues])
        st = hands[1].state
        assert st.level == 2 and not st.locked and [k for _, k, _ in st.doubling] == ["double"]


def test_a_pass_after_the_first_card_is_refused_with_the_doubling_rule():
    # the doubling line written after trick 1 of hand 2: BAL-DBL-1 (no doubling call after the first card)
    first_trick = "trick 1: E KD, N 8D, W sira, W TD, S sira, S 9D\n"
    text = MATCH.replace(first_trick, first_trick + "doubling W pass\n")
    _, hands = _hands(text)
    assert [i.rule for i in hands[1].issues] == ["BAL-DBL-1"]
    assert hands[1].issues[0].kind == "illegal"


def test_a_pass_is_still_no_double_without_doubling():
    text = MATCH.replace(HAND_1_COMPLETE, HAND_1_COMPLETE + "doubling N pass\n").replace(
        '[FirstDealer "W"]', '[FirstDealer "W"]\n[Variant "no_doubling"]').replace(HAND_2_DOUBLE, "")
    _, hands = _hands(text)
    assert not hands[0].issues


def test_a_pass_round_trips_through_the_canonical_text_and_json():
    text = MATCH.replace(HAND_2_DOUBLE, "doubling S double open, W pass\n")
    canonical = write_session(read_sessions(text)[0])
    assert "doubling S double open, W pass\n" in canonical  # kept, where it was written
    assert write_session(read_sessions(canonical)[0]) == canonical
    doc = to_record_file(read_sessions(text)).model_dump_json()
    assert write_session(to_session(RecordFile.model_validate_json(doc).sessions[0])) == canonical
