"""Jo-Jotte irregularities written as data (issue 15): a late dix, an irregular meld, an unshown meld.

Each is read without a syntax error, written back in one canonical form, and ruled on by the validator with
the rule the act fails (spec §0.3 "Which rule to cite") and the place of the offending call. The hands are
the spec's Example 1 (section 21, ``examples/spec-rubber.jjt`` hand 1) and Example 2 (hand 2) with one
thing changed; the rule IDs and places below are read off the spec and the text by hand.
"""

from __future__ import annotations

import pytest

from conftest import session, validate_text
from jojotte_records.notation.json_form import RecordFile, to_record_file, to_session
from jojotte_records.notation.text import read_sessions, write_session
from jojotte_records.replay.jojotte import validate_stream
from jojotte_records.rules.jojotte_cards import check_melds, parse_meld

# Example 1: A accepts the turned 9H; A holds the seven of hearts (the dix) and K-Q-J of hearts.
EXAMPLE_1 = """hand 1 dealer B
deal A: JH KH QH 7H AS TS 8S KD QD; B: AH TH 8H AC TC KC 9D 8D 7D
turned 9H
info 8C
auction A accept, B pass
after {AFTER}
{TRICK1}
trick 2: A QH jotte, B TH
trick 3: B TC, A 9H
trick 4: A JH, B 8H
trick 5: A AS, B AH
trick 6: B KC, A 8S
trick 7: B 9D, A KD
trick 8: A TS, B 7D
trick 9: A QD, B 8D
score A below 110 above 20, B above 40
"""
# the session's tags take lines 1-3, a blank line 4: the hand line is line 5, ``after`` line 10, trick 1 line 11
AFTER_LINE, TRICK1_LINE = 10, 11

# Example 2: B bids NT over his own diamonds; B declares four kings and K-Q-J-T of diamonds, A the 3-card T-9-8 of spades.
EXAMPLE_2 = """hand 1 dealer A
deal A: AS TS 9S 8S AH TH 9H AD TC; B: KS KH KD KC QD JD TD AC 7D
turned 7C
info JH
auction B pass, A pass, B name D, A nt, B pass
after {AFTER}
trick 1: B KD, A AD
trick 2: A AS, B KS
trick 3: A TS, B 7D
trick 4: A AH, B KH
trick 5: A TH, B JD
trick 6: A TC, B AC
trick 7: B KC, A 9S
trick 8: B QD, A 8S
trick 9: B TD, A 9H
"""


def example_1(after: str = "B melds 9D-7D, A pass, A melds KH-JH, A dix", trick1: str = "trick 1: B AC, A KH jo") -> str:
    return session(EXAMPLE_1.format(AFTER=after, TRICK1=trick1))


def example_2(after: str) -> str:
    return session(EXAMPLE_2.format(AFTER=after), first_dealer="A")


def errors(text: str):
    _, verdicts = validate_text(text)
    return [i for v in verdicts for i in v.issues if i.is_error]


def assert_round_trip(text: str) -> str:
    """No syntax issue; the canonical text reads back to itself, in the text and in the JSON form."""
    sessions = read_sessions(text)
    assert not [i for s in sessions for h in s.hands for i in h.issues], "read with a syntax issue"
    canonical = write_session(sessions[0])
    again = read_sessions(canonical)
    assert write_session(again[0]) == canonical
    doc = to_record_file(again).model_dump_json()
    back = to_session(RecordFile.model_validate_json(doc).sessions[0])
    assert write_session(back) == canonical
    return canonical


def json_rules(text: str) -> list[str]:
    """The rules cited when the record is read from its JSON form (which has no lines or columns)."""
    doc = to_record_file(read_sessions(text)).model_dump_json()
    from jojotte_records.notation.json_form import iter_json_records

    return [i.rule for _, hands in validate_stream(iter_json_records(doc)) for v in hands for i in v.issues if i.is_error]


def test_the_base_hands_are_legal():
    assert errors(example_1()) == []
    assert errors(example_2("B melds 4K KD-TD, A pass, A melds TS-8S")) == []


# --- a dix exchanged after the first card of trick 1 (JJ-DIX-3) ----------------------------------------

LATE_DIX = "trick 1: B AC, A dix, A KH jo"


def test_late_dix_is_read_inside_its_trick_and_round_trips():
    text = example_1(after="B melds 9D-7D, A pass, A melds KH-JH", trick1=LATE_DIX)
    canonical = assert_round_trip(text)
    assert LATE_DIX in canonical
    hand = read_sessions(text)[0].hands[0]
    assert [c.kind for c in hand.after] == ["melds", "pass", "melds"]  # not moved to the after line


def test_late_dix_is_refused_with_jj_dix_3_at_its_place():
    text = example_1(after="B melds 9D-7D, A pass, A melds KH-JH", trick1=LATE_DIX)
    [e] = errors(text)
    # JJ-DIX-3: the window closes with the first card of trick 1; B led AC, then A exchanged.
    # "trick 1: B AC, A dix": A is at column 16; the dix came at the second card of trick 1
    assert (e.rule, e.kind, e.loc.line, e.loc.column, e.loc.trick, e.loc.card) == ("JJ-DIX-3", "illegal", TRICK1_LINE, 16, 1, 2)
    assert "Alice" in e.message
    assert json_rules(text) == ["JJ-DIX-3"]


def test_dix_written_in_trick_1_before_its_first_card_is_legal():
    # JJ-DIX-3: before the first card of trick 1 the exchange is in time, wherever it is written
    text = example_1(after="B melds 9D-7D, A pass, A melds KH-JH", trick1="trick 1: A dix, B AC, A KH jo")
    assert_round_trip(text)
    assert errors(text) == []


def test_dix_after_the_first_trick_is_jj_dix_3_too():
    # the seven of hearts never played: A keeps it until trick 3 and exchanges it there
    text = example_1(after="B melds 9D-7D, A pass, A melds KH-JH")
    text = text.replace("trick 3: B TC, A 9H", "trick 3: B TC, A dix, A 9H")
    [e] = errors(text)
    assert (e.rule, e.loc.line, e.loc.trick, e.loc.card) == ("JJ-DIX-3", 13, 3, 2)


# --- irregular melds: read as declared, refused with the rule they fail -----------------------------

@pytest.mark.parametrize("after, meld, rule, column", [
    # K-Q-J-9 of hearts (the dix gave A the nine): no ten, so not consecutive (JJ-MELD-3)
    ("A dix, B melds 9D-7D, A pass, A melds KH-QH-JH-9H", "KH-QH-JH-9H", "JJ-MELD-3", 37),
    # K-Q of diamonds with the jack of hearts: a sequence is of one suit (JJ-MELD-3)
    ("B melds 9D-7D, A pass, A melds KD-QD-JH, A dix", "JH-KD-QD", "JJ-MELD-3", 30),  # canonical: pack order
    # two kings: a four of a kind is all four cards of one rank (JJ-MELD-2)
    ("B melds 9D-7D, A pass, A melds KH-KD, A dix", "KH-KD", "JJ-MELD-2", 30),
])
def test_irregular_meld_in_example_1(after, meld, rule, column):
    text = example_1(after=after)
    canonical = assert_round_trip(text)
    assert f"A melds {meld}" in canonical
    [e] = errors(text)
    assert (e.rule, e.kind, e.loc.line, e.loc.column, e.loc.trick) == (rule, "illegal", AFTER_LINE, column, None)
    assert "Alice" in e.message
    assert json_rules(text) == [rule]


def test_three_of_a_kind_is_jj_meld_2():
    # B, the defender, holds the four kings of Example 2 but shows three of them as his four
    text = example_2("B melds KS-KH-KD, A pass, A melds TS-8S")
    canonical = assert_round_trip(text)
    assert "B melds KS-KH-KD" in canonical
    [e] = errors(text)
    assert (e.rule, e.loc.line, e.loc.column) == ("JJ-MELD-2", AFTER_LINE, 7)


def test_four_of_an_ineligible_rank_written_card_by_card_is_the_four():
    # four nines at NT (spec Example 8.2) written out: read as the four 9s, refused by JJ-MELD-2
    text = session("""hand 1 dealer A
deal A: 9S 9H 9D 9C AS KS AH 8D 7C; B: TS QS TH KH QH AD TD KC AC
turned 7H
info 8C
auction B pass, A pass, B nt, A pass
after A melds 9S-9H-9D-9C, B pass, B pass
""", first_dealer="A")
    canonical = assert_round_trip(text)
    assert "after A melds 49, B pass, B pass" in canonical
    [e] = errors(text)
    assert (e.rule, e.loc.line, e.loc.column) == ("JJ-MELD-2", AFTER_LINE, 7)


@pytest.mark.parametrize("text, rule", [("KH-QH-JH-9H", "JJ-MELD-3"), ("KD-QD-JH", "JJ-MELD-3"), ("KH-QS", "JJ-MELD-3"),
                                        ("KS-KH-KD", "JJ-MELD-2"), ("8S-8H-8D-8C", "JJ-MELD-2")])
def test_check_melds_names_the_rule_of_an_irregular_meld(text, rule):
    every_card = (1 << 64) - 1  # the cards are held: only the shape of the meld is wrong
    bad = check_melds((parse_meld(text),), every_card, True, "suit")
    assert bad is not None and bad[0] == rule


# --- a meld announced by its class and length, not shown (JJ-MELD-11) -------------------------------

def test_loser_may_leave_his_sequence_unshown():
    # JJ-MELD-11: "The loser shows nothing." A's T-9-8 of spades (3 cards) loses to B's K-Q-J-T of
    # diamonds (4 cards, JJ-MELD-8 step 1), so announcing "a sequence of three" is enough.
    text = example_2("B melds 4K KD-TD, A pass, A melds ?-?-?")
    canonical = assert_round_trip(text)
    assert "A melds ?-?-?" in canonical
    assert errors(text) == []
    _, [v] = validate_text(text)
    shown = validate_text(example_2("B melds 4K KD-TD, A pass, A melds TS-8S"))[1][0]
    assert v.score.meld_points == shown.score.meld_points  # B's 100 + 40 either way, A nothing
    assert json_rules(text) == []


def test_winner_must_show_the_sequence_he_scores():
    # B declares nothing: A's announced sequence of three wins class B (JJ-MELD-9) and must be shown
    text = example_1(after="B pass, A pass, A melds ?-?-?, A dix")
    assert_round_trip(text)
    [e] = errors(text)
    # "after B pass, A pass, A melds": the second A is at column 23
    assert (e.rule, e.kind, e.loc.line, e.loc.column) == ("JJ-MELD-11", "illegal", AFTER_LINE, 23)
    assert "Alice" in e.message
    assert json_rules(text) == ["JJ-MELD-11"]


def test_equal_length_needs_the_deciding_detail():
    # both sequences have three cards: the top card decides (JJ-MELD-8 step 2), and the record does not give A's
    text = example_1(after="B melds 9D-7D, A pass, A melds ?-?-?, A dix")
    [e] = errors(text)
    assert (e.rule, e.loc.column) == ("JJ-MELD-11", 30)


def test_unshown_four_that_wins_its_class_must_be_shown():
    # B announces "a four" (he holds the four kings); A declares no four, so B wins class A (JJ-MELD-9)
    text = example_2("B melds 4? KD-TD, A pass, A melds TS-8S")
    canonical = assert_round_trip(text)
    assert "B melds 4? KD-TD" in canonical
    [e] = errors(text)
    assert (e.rule, e.loc.column) == ("JJ-MELD-11", 7)
    assert "Bob" in e.message


def test_unshown_four_must_be_held_when_the_hand_is_known():
    # JJ-MELD-4: A's hand of Example 2 holds no four of a kind
    [e] = errors(example_2("B melds 4K KD-TD, A pass, A melds 4?"))
    # "after B melds 4K KD-TD, A pass, A melds": the second A is at column 33
    assert (e.rule, e.loc.column) == ("JJ-MELD-4", 33)


def test_unshown_sequence_must_be_held_when_the_hand_is_known():
    # JJ-MELD-4: A's hand of Example 2 holds no run of five cards (its longest is T-9-8 of spades)
    text = example_2("B melds 4K KD-TD, A pass, A melds ?-?-?-?-?")
    [e] = errors(text)
    assert (e.rule, e.loc.column) == ("JJ-MELD-4", 33)


def test_melds_declared_during_the_play_are_jj_meld_1():
    # JJ-MELD-1: melds are declared before the first card of trick 1; written in trick 1 after B's lead
    text = example_1(after="B melds 9D-7D, A pass, A pass, A dix", trick1="trick 1: B AC, A melds KH-JH, A KH jo")
    canonical = assert_round_trip(text)
    assert "trick 1: B AC, A melds KH-JH, A KH jo" in canonical
    [e] = errors(text)
    assert (e.rule, e.loc.line, e.loc.column, e.loc.trick, e.loc.card) == ("JJ-MELD-1", TRICK1_LINE, 16, 1, 2)
