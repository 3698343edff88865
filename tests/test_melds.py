"""Honor melds (JJ-MELD-1…15, JJ-DECK-5): what may be declared, who wins each class, what is scored;
every case of §21 Example 8; the options OP-16, OP-17 and OP-18."""

from __future__ import annotations

import pytest
from jj_helpers import C, D, H, S, action, deal_state, full_hand, mask, melds, rules_with, run

from jojotte_records.cards import parse_card
from jojotte_records.rules.base import Action
from jojotte_records.rules.jojotte import JojotteRules
from jojotte_records.rules.jojotte_cards import NO_TRUMP, Meld, check_melds, parse_meld

A, B = 0, 1


def compared(a: str, b: str, denomination: str = "suit", trump: int = S, declarer: int = A, variant: str = "",
             nullo_bidder: int = -1):
    """compare_melds for a hand in play where A declared ``a`` and B declared ``b``."""
    rules = rules_with(variant)
    s = deal_state(rules, 1, (0, 0), -1)._replace(
        phase="play", bidder=declarer, denomination=denomination,
        trump=trump if denomination == "suit" else NO_TRUMP, melds=(melds(a), melds(b)), nullo_bidder=nullo_bidder)
    return rules.compare_melds(s)


# --- §21 Example 8, every case ----------------------------------------------------------------

EXAMPLE_8 = [
    # id, A's melds, B's melds, denomination, trump, (class A winner, class B winner), (A points, B points)
    ("8.1 suit: four 9s beat four aces, A scores both fours", "49 4K", "4A", "suit", S, (A, -1), (200, 0)),
    ("8.2 NT: four kings lose to four aces", "4K", "4A", "nt", -1, (B, -1), (0, 100)),
    ("8.3 higher top card wins at equal length", "TH-7H KC-JC", "AD-JD", "suit", S, (-1, B), (0, 40)),
    ("8.4 length decides first", "TH-7H", "AC-QC", "suit", S, (-1, A), (40, 0)),
    ("8.5 hearts trump: trump sequence wins the tie", "KS-TS", "KH-TH", "suit", H, (-1, B), (0, 40)),
    ("8.5 clubs trump: nobody scores", "KS-TS", "KH-TH", "suit", C, (-1, -1), (0, 0)),
    ("8.5 NT: nobody scores", "KS-TS", "KH-TH", "nt", -1, (-1, -1), (0, 0)),
    ("8.6 A's longer best sequence scores both his sequences", "AH-TH 9C-7C", "AS-JS", "suit", D, (-1, A), (70, 0)),
    ("8.7 a seven-card run is one sequence of 50", "AD-8D", "KS-8S", "suit", H, (-1, A), (50, 0)),
    ("8.8 a card in a four and a sequence: both count", "4J KH-JH", "", "suit", S, (A, A), (120, 0)),
    ("8.9 each player scores his own class", "4A", "KD-TD", "suit", S, (A, B), (100, 40)),
]


@pytest.mark.parametrize("a, b, denom, trump, winners, points", [r[1:] for r in EXAMPLE_8], ids=[r[0] for r in EXAMPLE_8])
def test_example_8_meld_comparisons(a, b, denom, trump, winners, points):
    # JJ-MELD-6 (one winner per class), JJ-MELD-7, JJ-MELD-8, JJ-MELD-10
    r = compared(a, b, denom, trump)
    assert (r.class_a, r.class_b) == winners
    assert r.points == points


def test_example_8_2_four_nines_are_no_meld_at_nt():
    # JJ-MELD-2: at NT four 9s cannot even be declared
    v = check_melds(melds("49 4K"), mask("9S 9H 9D 9C KS KH KD KC"), True, "nt")
    assert v is not None and v[0] == "JJ-MELD-2"


def test_example_8_7_splitting_a_run_is_not_allowed():
    # JJ-MELD-15: A's seven-card run may not be declared as 50 + 20
    hand = mask("AD KD QD JD TD 9D 8D")
    assert check_melds(melds("AD-8D"), hand, True, "suit") is None
    for split in ("AD-JD TD-8D", "AD-QD JD-8D", "AD-TD 9D-7D"):
        v = check_melds(melds(split), hand | mask("7D"), True, "suit")
        assert v is not None and v[0] == "JJ-MELD-15", split


def test_example_8_8_card_in_a_four_and_a_sequence_is_valid():
    # JJ-MELD-5: JH belongs to four jacks and to KH-QH-JH
    assert check_melds(melds("4J KH-JH"), mask("JS JH JD JC KH QH"), True, "suit") is None


# --- JJ-MELD-2 / JJ-DECK-5: fours and their eligibility, by contract ------------------------------

@pytest.mark.parametrize("rank, suit_ok, nt_ok", [
    ("J", True, True), ("9", True, False), ("A", True, True), ("T", True, True), ("K", True, True),
    ("Q", True, True), ("8", False, False), ("7", False, False),
])
@pytest.mark.parametrize("kind", ["suit", "nt", "nullo"])
def test_jj_meld_2_four_of_a_kind_eligibility(rank, suit_ok, nt_ok, kind):
    # JJ-DECK-5: the four lists depend on the contract (suit: J 9 A T K Q; NT and Nullo: A T K Q J)
    hand = mask(" ".join(rank + s for s in "SHDC"))
    v = check_melds((parse_meld("4" + rank),), hand, True, kind)
    allowed = suit_ok if kind == "suit" else nt_ok
    if allowed:
        assert v is None
    else:
        assert v is not None and v[0] == "JJ-MELD-2"


def test_jj_meld_2_four_is_worth_100():
    assert parse_meld("4K").value == 100
    assert parse_meld("4T") == parse_meld("410")


@pytest.mark.parametrize("kind, order", [("suit", "J 9 A T K Q"), ("nt", "A T K Q J"), ("nullo", "A T K Q J")])
def test_jj_meld_7_class_a_order(kind, order):
    # JJ-MELD-7: every higher four in the list beats every lower one, whoever holds it
    ranks = order.split()
    for i, high in enumerate(ranks):
        for low in ranks[i + 1:]:
            r = compared("4" + high, "4" + low, kind, S)
            assert r.class_a == A and r.points == (100, 0), (high, low)
            r = compared("4" + low, "4" + high, kind, S)
            assert r.class_a == B and r.points == (0, 100), (high, low)


# --- JJ-MELD-3: sequences ----------------------------------------------------------------------

@pytest.mark.parametrize("meld, length, value", [
    ("KH-JH", 3, 20), ("AS-JS", 4, 40), ("TD-7D", 4, 40), ("AC-TC", 5, 50), ("AH-9H", 6, 50), ("AH-8H", 7, 50),
    ("AH-7H", 8, 50),
])
def test_jj_meld_3_sequence_values(meld, length, value):
    m = parse_meld(meld)
    assert (m.length, m.value) == (length, value)


@pytest.mark.parametrize("text", ["KH-QH", "AS-KS", "8C-7C"])
def test_jj_meld_3_two_cards_are_no_sequence(text):
    # and JJ-MELD-14: the King and Queen of trumps (Jo-Jotte) are not an honor meld either
    hand = mask(" ".join(text.split("-")))
    v = check_melds((parse_meld(text),), hand, True, "suit")
    assert v is not None and v[0] == "JJ-MELD-3"


@pytest.mark.parametrize("bad", ["4X", "K", "4", "XX-YY", "?"])
def test_parse_meld_rejects_what_is_no_meld_at_all(bad):
    with pytest.raises(ValueError):
        parse_meld(bad)


@pytest.mark.parametrize("text, rule", [("KH-QS-JH", "JJ-MELD-3"), ("AH-QH-JH", "JJ-MELD-3")])
def test_cards_that_make_no_meld_are_read_and_refused(text, rule):
    # issue 15: an irregular meld is data (read as declared), refused by the rule it fails, never a syntax error
    m = parse_meld(text)
    assert m.text() == "-".join(sorted(text.split("-"), key=lambda c: ("SHDC".index(c[1]), -"789TJQKA".index(c[0]))))
    bad = check_melds((m,), (1 << 64) - 1, True, "suit")
    assert bad is not None and bad[0] == rule


# --- JJ-MELD-4: the cards must be in the declaring hand -------------------------------------------

@pytest.mark.parametrize("declared, hand, ok", [
    ("KH-JH", "KH QH JH 7S", True),
    ("KH-JH", "KH QH 7S JD", False),
    ("4A", "AS AH AD 7C", False),
    ("4A KH-JH", "AS AH AD AC KH QH JH", True),
])
def test_jj_meld_4_cards_held(declared, hand, ok):
    v = check_melds(melds(declared), mask(hand), True, "suit")
    assert (v is None) == ok
    if not ok:
        assert v[0] == "JJ-MELD-4"


def test_jj_meld_4_hand_as_changed_by_the_dix_exchange():
    # clubs turned (8C) and accepted by A, who holds 7C JC TC 9C: before the dix he cannot declare JC-8C
    # (J T 9 8); after exchanging 7C for the turned 8C he can
    rules = JojotteRules()
    s = full_hand(rules, a9="7C JC TC 9C AS KS QS 7D 8D", b9="AH KH QH 9S 8S 7S AD KD QD", turned="8C", info="7H",
                  dealer="B", auction="A accept, B pass")
    # B passes at step 1, A passes on Slam; now A declares
    s = run(rules, s, "B pass, A pass")
    before = rules.check(s, action("A melds JC-8C"))
    assert before is not None and before.rule == "JJ-MELD-4"
    s = run(rules, s, "A dix")  # JJ-POST-8: the exchange may come between the steps
    assert rules.check(s, action("A melds JC-8C")) is None


# --- JJ-MELD-1: declaring is optional, any subset, at the right time ------------------------------

def test_jj_meld_1_a_player_may_declare_less_than_he_holds():
    hand = mask("AS AH AD AC KH QH JH TH")
    assert check_melds(melds("KH-JH"), hand, True, "suit") is None  # part of the run K-Q-J-T
    assert check_melds(melds("4A"), hand, True, "suit") is None  # only the four
    assert check_melds(melds("AH-JH"), hand, True, "suit") is None


def test_jj_meld_1_a_declaration_names_a_meld():
    rules = JojotteRules()
    s = full_hand(rules, a9="JH KH QH 7H AS TS 8S KD QD", b9="AH TH 8H AC TC KC 9D 8D 7D", turned="9H", info="8C",
                  dealer="B", auction="A accept, B pass")
    v = rules.check(s, Action(B, "melds", melds=()))
    assert v is not None and v.rule == "JJ-MELD-1"


def test_jj_meld_1_no_declaration_after_the_first_card():
    # melds are declared after the draw and before the first card of trick 1
    rules = JojotteRules()
    s = full_hand(rules, a9="JH KH QH 7H AS TS 8S KD QD", b9="AH TH 8H AC TC KC 9D 8D 7D", turned="9H", info="8C",
                  dealer="B", auction="A accept, B pass", after="B pass, A pass, A pass")
    s = rules.apply(s, Action(B, "play", card=parse_card("AC")))
    v = rules.check(s, Action(A, "melds", melds=melds("KH-JH")))
    assert v is not None and v.rule in {"JJ-MELD-1", "JJ-POST-9"}, f"{v.rule}: {v.text}"


# --- JJ-MELD-5 and OP-18 -------------------------------------------------------------------------

@pytest.mark.parametrize("variant, ok", [("", True), ("card_in_one_meld_only", False)])
def test_jj_meld_5_card_in_one_four_and_one_sequence(variant, ok):
    o = rules_with(variant).options
    v = check_melds(melds("4J KH-JH"), mask("JS JH JD JC KH QH"), True, "suit", o.card_in_one_meld_only,
                    o.sequence_must_be_maximal)
    if ok:
        assert v is None
    else:
        assert v is not None and v[0] == "JJ-MELD-5"


@pytest.mark.parametrize("variant, declared, ok", [
    ("", "KH-JH", True),  # default: a shorter part of the run A-K-Q-J may be declared (OP-18)
    ("sequence_must_be_maximal", "KH-JH", False),
    ("sequence_must_be_maximal", "AH-JH", True),
    ("sequence_must_be_maximal", "9C-7C", True),
])
def test_op_18_sequence_must_be_maximal(variant, declared, ok):
    o = rules_with(variant).options
    v = check_melds(melds(declared), mask("AH KH QH JH 9C 8C 7C"), True, "suit", o.card_in_one_meld_only,
                    o.sequence_must_be_maximal)
    assert (v is None) == ok
    if not ok:
        assert v[0] == "JJ-MELD-15"


# --- JJ-MELD-15: one run, one sequence -------------------------------------------------------------

@pytest.mark.parametrize("declared, hand, ok", [
    ("AD-QD 9D-7D", "AD KD QD 9D 8D 7D", True),  # JD/TD missing: two separate sequences
    ("AD-QD TD-8D", "AD KD QD TD 9D 8D", True),  # JD missing
    ("AD-QD JD-9D", "AD KD QD JD TD 9D", False),  # adjacent: one run of six
    ("AD-QD QD-TD", "AD KD QD JD TD", False),  # QD in two sequences
    ("AD-JD KD-TD", "AD KD QD JD TD", False),  # overlap
    ("AS-QS AH-QH", "AS KS QS AH KH QH", True),  # two suits
])
def test_jj_meld_15_no_overlap_no_adjacent_sequences(declared, hand, ok):
    v = check_melds(melds(declared), mask(hand), True, "suit")
    assert (v is None) == ok
    if not ok:
        assert v[0] == "JJ-MELD-15"


def test_jj_meld_15_two_separate_sequences_of_one_suit_score_together():
    r = compared("AD-QD 9D-7D", "", "suit", S)
    assert r.class_b == A and r.points == (40, 0)


# --- JJ-MELD-8: the class B comparison, step by step; OP-16 and OP-17 ------------------------------

CLASS_B = [
    # id, A, B, denomination, trump, winner
    ("step 1: longer wins", "JC-8C", "AS-QS", "suit", H, A),
    ("step 1: 6 beats 5 (both worth 50)", "KD-8D", "AS-TS", "suit", H, A),
    ("step 2: higher top card", "QC-TC", "KS-JS", "suit", H, B),
    ("step 2: top card before trump", "QH-TH", "KS-JS", "suit", H, B),
    ("step 3: trump wins at equal length and top", "KC-JC", "KS-JS", "suit", C, A),
    ("step 3: no trump tie-break at NT", "KC-JC", "KS-JS", "nt", -1, -1),
    ("step 3: no trump tie-break in Nullo", "KC-JC", "KS-JS", "nullo", -1, -1),
    ("step 4: equal, neither trump", "KC-JC", "KS-JS", "suit", D, -1),
    ("only the best sequences are compared", "KC-JC 9H-7H", "AS-QS", "suit", D, B),
]


@pytest.mark.parametrize("a, b, denom, trump, winner", [r[1:] for r in CLASS_B], ids=[r[0] for r in CLASS_B])
def test_jj_meld_8_class_b_comparison(a, b, denom, trump, winner):
    assert compared(a, b, denom, trump).class_b == winner


@pytest.mark.parametrize("tie, declarer, winner", [
    ("none", A, -1), ("defender", A, B), ("declarer", A, A), ("defender", B, A), ("declarer", B, B),
])
def test_op_16_sequence_tie(tie, declarer, winner):
    # Example 8.5 with clubs trump: equal best sequences, neither in trump
    r = compared("KS-TS", "KH-TH", "suit", C, declarer=declarer, variant=f"sequence_tie={tie}")
    assert r.class_b == winner
    if winner >= 0:
        assert r.points[winner] == 40 and r.points[1 - winner] == 0


def test_op_16_sequence_tie_declarer_in_nullo_is_the_nullo_bidder():
    # JJ-NULLO-4: in a Nullo the Nullo bidder becomes declarer. B bid Nullo over A's contract; with
    # nullo_bidder_may_meld both declared equal sequences; sequence_tie=declarer gives class B to B.
    r = compared("KS-TS", "KH-TH", "nullo", declarer=A, nullo_bidder=B,
                 variant="sequence_tie=declarer; nullo_bidder_may_meld")
    assert r.class_b == B


@pytest.mark.parametrize("variant, winner", [("", A), ("sequence_compare_by_value", B)])
def test_op_17_six_against_five(variant, winner):
    # A: six cards topped by K; B: five cards topped by A. Default: length counts (6 beats 5);
    # by value both are 50, so the higher top card (A) wins.
    r = compared("KD-8D", "AS-TS", "suit", H, variant=variant)
    assert r.class_b == winner
    assert r.points[winner] == 50


@pytest.mark.parametrize("variant, winner", [("", A), ("sequence_compare_by_value", A)])
def test_op_17_four_still_beats_three_by_value(variant, winner):
    assert compared("JC-8C", "AS-QS", "suit", H, variant=variant).class_b == winner


# --- JJ-MELD-9 / JJ-MELD-10 / JJ-MELD-11 -------------------------------------------------------------

@pytest.mark.parametrize("a, b, winners, points", [
    ("", "", (-1, -1), (0, 0)),  # nobody declared: nobody wins
    ("4Q", "", (A, -1), (100, 0)),  # only one declared: he wins even with the lowest four
    ("", "9C-7C", (-1, B), (0, 20)),
    ("4Q 9C-7C", "", (A, A), (120, 0)),
])
def test_jj_meld_9_a_class_nobody_else_declared(a, b, winners, points):
    r = compared(a, b, "suit", S)
    assert (r.class_a, r.class_b) == winners and r.points == points


def test_jj_meld_10_winner_scores_all_his_melds_loser_nothing():
    # A: four jacks and four 9s (trump list) against B's four aces; sequences 50 + 20 against B's 40
    r = compared("4J 49 AH-TH 9C-7C", "4A AS-JS", "suit", D)
    assert (r.class_a, r.class_b) == (A, A)
    assert r.points == (200 + 70, 0)


def test_jj_meld_11_only_the_winner_shows_his_scoring_melds():
    r = compared("4A TH-7H", "49 AD-JD KC-JC", "suit", S)
    # class A: B's four 9s beat A's four aces (trump list); class B: equal length, B's top A beats T
    assert (r.class_a, r.class_b) == (B, B)
    assert r.shown[A] == ()
    assert set(r.shown[B]) == set(melds("49 AD-JD KC-JC"))
    assert r.points == (0, 100 + 40 + 20)


def test_jj_meld_11_example_2_shown_melds_share_a_card():
    # Example 2: B shows four kings and KD-TD; KD is in both (JJ-MELD-5)
    r = compared("TS-8S", "4K KD-TD", "nt")
    assert set(r.shown[B]) == set(melds("4K KD-TD"))
    assert r.points == (0, 140)


# --- JJ-MELD-13 / JJ-NULLO-9: which list in a Nullo, and after a Slam voids it --------------------------

NULLO_HAND = dict(a9="9S 9H 9D 9C AS KS QS 7D 8D", b9="7S 8S JS AC AD 7H 8H TH KH", turned="QC", info="TC",
                  dealer="A", auction="B pass, A pass, B pass, A name S, B pass")


def test_jj_meld_13_four_nines_invalid_once_nullo_stands():
    rules = JojotteRules()
    s = full_hand(rules, **NULLO_HAND, after="B nullo, A pass")
    v = rules.check(s, action("A melds 49"))
    assert v is not None and v.rule == "JJ-MELD-2"
    assert rules.check(s, action("A melds AS-QS")) is None


def test_jj_meld_13_four_nines_valid_when_slam_voids_the_nullo():
    rules = JojotteRules()
    s = full_hand(rules, **NULLO_HAND, after="B nullo, A slam")
    assert rules.check(s, action("A melds 49")) is None
    s = run(rules, s, "A melds 49")
    assert s.denomination == "suit" and s.slam
    assert rules.compare_melds(s).points == (100, 0)


def test_jj_nullo_9_melds_in_nullo_use_the_nt_list_and_no_trump_tie_break():
    # declarer A (spades were trump) and the Nullo bidder B both declared K-Q-J (nullo_bidder_may_meld):
    # in Nullo spades are no longer trump, so nobody scores class B
    r = compared("KS-JS", "KH-JH", "nullo", declarer=A, nullo_bidder=B, variant="nullo_bidder_may_meld")
    assert r.class_b == -1
    # and four kings (NT list) lose to four aces
    r = compared("4K", "4A", "nullo", declarer=A, nullo_bidder=B, variant="nullo_bidder_may_meld")
    assert r.class_a == B


# --- JJ-INV-5: meld credits are multiples of 100 (class A) and sums of 20/40/50 (class B) ------------------

@pytest.mark.parametrize("a, b, denom, trump", [(r[1], r[2], r[3], r[4]) for r in EXAMPLE_8])
def test_jj_inv_5_meld_credit_shapes(a, b, denom, trump):
    r = compared(a, b, denom, trump)
    for seat in (A, B):
        fours = [m for m in r.shown[seat] if m.kind == "four"]
        seqs = [m for m in r.shown[seat] if m.kind == "seq"]
        assert all(m.value in (20, 40, 50) for m in seqs)
        assert r.points[seat] == 100 * len(fours) + sum(m.value for m in seqs)


def test_jj_meld_14_jo_jotte_is_not_counted_as_a_meld():
    # Example 1: A holds KH QH of trumps (Jo-Jotte) and declares KH-JH: his meld points are 20, not 40
    rules = JojotteRules()
    s = full_hand(rules, a9="JH KH QH 7H AS TS 8S KD QD", b9="AH TH 8H AC TC KC 9D 8D 7D", turned="9H", info="8C",
                  dealer="B", auction="A accept, B pass", after="B melds 9D-7D, A pass, A melds KH-JH, A dix")
    assert rules.compare_melds(s).points == (20, 0)
    assert Meld("seq", 13, H, 2) not in s.melds[A]
