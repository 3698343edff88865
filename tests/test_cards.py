"""Cards of Jo-Jotte: parsing, the pack (JJ-DECK-1), the three rank orders (JJ-DECK-2/3/4),
card points (JJ-PTS-1, JJ-PTS-5) and the trick winner (JJ-PLAY-8)."""

from __future__ import annotations

from itertools import combinations

import pytest
from jj_helpers import C, D, H, S, cards, check_deal, deal_state, mask, melds

from jojotte_records.cards import PIQUET_PACK, card_name, make_card, parse_card
from jojotte_records.rules.jojotte import JojotteRules
from jojotte_records.rules.jojotte_cards import NO_TRUMP, card_points, check_melds, mask_points, parse_meld, trick_winner

# --- parsing ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text, name", [
    ("JS", "JS"), ("js", "JS"), ("jS", "JS"), ("j♠", "JS"), ("J♠", "JS"), ("J♤", "JS"),
    ("10h", "TH"), ("10H", "TH"), ("10♥", "TH"), ("th", "TH"), ("T♡", "TH"),
    ("ad", "AD"), ("A♦", "AD"), ("q♢", "QD"), ("7c", "7C"), ("9♣", "9C"), ("8♧", "8C"),
    ("  ks ", "KS"),
])
def test_parse_card_accepts_usual_spellings(text, name):
    assert card_name(parse_card(text)) == name


@pytest.mark.parametrize("bad", [
    "", "   ", "J", "S", "10", "1H", "11S", "0S", "JZ", "ZS", "JSS", "J S", "♠J", "T10", "AA", "HJ", "10HH", "jack",
])
def test_parse_card_rejects_bad_tokens(bad):
    with pytest.raises(ValueError):
        parse_card(bad)


def test_every_card_name_round_trips():
    for card in PIQUET_PACK.cards:
        assert parse_card(card_name(card)) == card
        assert parse_card(card_name(card).lower()) == card


# --- JJ-DECK-1: the 32-card pack -------------------------------------------------------------


def test_jj_deck_1_pack_has_32_distinct_cards_A_to_7_in_four_suits():
    assert len(PIQUET_PACK) == 32
    assert len(set(PIQUET_PACK.cards)) == 32
    expected = {r + s for r in "AKQJT987" for s in "SHDC"}
    assert {card_name(c) for c in PIQUET_PACK.cards} == expected


@pytest.mark.parametrize("outsider", ["6S", "2H", "5D", "X1"])
def test_jj_deck_1_cards_outside_the_pack_are_rejected_in_a_deal(outsider):
    # JJ-DECK-1 (and JJ-INV-1): a dealt card must be one of the 32
    rules = JojotteRules()
    v = check_deal(rules, (mask("AS KS QS JS TS") | (1 << parse_card(outsider)), mask("AH KH QH JH TH 9H")), parse_card("7C"))
    assert v is not None and v.rule == "JJ-DECK-1"


# --- JJ-DECK-2 / JJ-DECK-3: trick orders ------------------------------------------------------

TRUMP_ORDER = "J 9 A T K Q 8 7".split()  # JJ-DECK-2
PLAIN_ORDER = "A T K Q J 9 8 7".split()  # JJ-DECK-3


@pytest.mark.parametrize("high, low", list(combinations(TRUMP_ORDER, 2)))
def test_jj_deck_2_trump_order(high, low):
    # hearts trump: the higher trump in J 9 A T K Q 8 7 wins, whoever plays it first
    assert trick_winner(tuple(cards(f"{low}H {high}H")), H) == 1
    assert trick_winner(tuple(cards(f"{high}H {low}H")), H) == 0


@pytest.mark.parametrize("high, low", list(combinations(PLAIN_ORDER, 2)))
@pytest.mark.parametrize("trump", [H, NO_TRUMP])
def test_jj_deck_3_plain_order_in_a_non_trump_suit_and_in_nt(high, low, trump):
    # spades led, spades not trump (or no trump at all): A T K Q J 9 8 7
    assert trick_winner(tuple(cards(f"{low}S {high}S")), trump) == 1
    assert trick_winner(tuple(cards(f"{high}S {low}S")), trump) == 0


# --- JJ-DECK-4: sequence order A K Q J T 9 8 7 ----------------------------------------------


@pytest.mark.parametrize("meld, members", [
    ("AS-QS", "AS KS QS"),  # K sits between A and Q (not T as in the plain order)
    ("KH-JH", "KH QH JH"),
    ("JD-9D", "JD TD 9D"),  # T sits between J and 9 (not below Q as in the plain order)
    ("TC-7C", "TC 9C 8C 7C"),
    ("AH-7H", "AH KH QH JH TH 9H 8H 7H"),
])
def test_jj_deck_4_sequence_order(meld, members):
    m = parse_meld(meld)
    assert m.mask == mask(members)
    assert check_melds((m,), mask(members), True, "suit") is None


@pytest.mark.parametrize("not_a_sequence", ["AS TS KS", "JH 9H 8H", "TD JD QD AD"])
def test_jj_deck_4_cards_consecutive_in_another_order_are_no_sequence(not_a_sequence):
    # A T K is consecutive in the plain order, J 9 8 in the trump order, but not in sequence order
    hand = mask(not_a_sequence)
    # written card by card they are read as the sequence declared and refused (issue 15: data, not a syntax error)
    written = parse_meld("-".join(not_a_sequence.split()))
    assert written.cards and check_melds((written,), hand, True, "suit")[0] == "JJ-MELD-3"
    # a declaration covering the span needs cards the player does not hold
    top, *_, low = sorted(cards(not_a_sequence), key=lambda c: -(c & 15))
    assert check_melds((parse_meld(f"{card_name(top)}-{card_name(low)}"),), hand, True, "suit")[0] == "JJ-MELD-4"


def test_jj_deck_4_higher_top_card_is_judged_in_sequence_order():
    # J-T-9 against T-9-8, no trump involved: in sequence order J is above T (in plain order T is above J)
    rules = JojotteRules()
    s = deal_state(rules, 1, (0, 0), -1)._replace(phase="play", bidder=0, denomination="nt", trump=NO_TRUMP,
                                                     melds=(melds("TD-8D"), melds("JS-9S")))
    assert rules.compare_melds(s).class_b == 1


# --- JJ-PTS-1 / JJ-PTS-5: card values ----------------------------------------------------------

@pytest.mark.parametrize("rank, as_trump, plain", [
    ("J", 20, 0), ("9", 15, 0), ("A", 10, 10), ("T", 10, 10), ("K", 5, 5), ("Q", 5, 5), ("8", 0, 0), ("7", 0, 0),
])
def test_jj_pts_1_card_values(rank, as_trump, plain):
    for suit_letter, suit in (("S", S), ("H", H), ("D", D), ("C", C)):
        card = parse_card(rank + suit_letter)
        assert card_points(card, suit) == as_trump  # this suit is trump
        assert card_points(card, (suit + 1) % 4) == plain  # another suit is trump
        assert card_points(card, NO_TRUMP) == plain  # NT and Nullo: J and 9 worth 0


@pytest.mark.parametrize("game", ["jojotte", "jojotte-3", "jojotte-4p", "jojotte-4s"])
def test_jj_pts_1_card_points_through_the_protocol(game):
    # `Rules.card_points(state, card)` answers for the state's trump (JJ-PTS-1): hearts trump, JH 20, 9H 15, JS 0,
    # AS and AH 10, KS 5; in NT and Nullo (no trump) the J and 9 count 0 whatever their suit
    from jojotte_records.rules.base import find_variant

    rules = find_variant(game)()
    s = rules.initial_state(0)
    trumps = {"JH": 20, "9H": 15, "JS": 0, "9S": 0, "AS": 10, "AH": 10, "KS": 5, "7H": 0}
    assert {n: rules.card_points(s._replace(trump=H), parse_card(n)) for n in trumps} == trumps
    plain = {"JH": 0, "9H": 0, "AH": 10, "TC": 10, "QD": 5}
    assert {n: rules.card_points(s._replace(trump=NO_TRUMP), parse_card(n)) for n in plain} == plain


@pytest.mark.parametrize("trump, total", [(S, 155), (H, 155), (D, 155), (C, 155), (NO_TRUMP, 120)])
def test_jj_pts_5_whole_pack_card_points(trump, total):
    assert mask_points(PIQUET_PACK.mask, trump) == total


def test_jj_pts_1_example_1_values_in_play():
    # §21 Example 1 check: A's nine cards (after the dix) 75, B's nine 45, hearts trump
    assert mask_points(mask("JH 9H KH QH AS TS 8S KD QD"), H) == 75
    assert mask_points(mask("AH TH 8H AC TC KC 9D 8D 7D"), H) == 45


# --- JJ-PLAY-8: the trick winner --------------------------------------------------------------

@pytest.mark.parametrize("trick, trump, winner", [
    ("AS KS", H, 0),  # same suit, plain order
    ("KS AS", H, 1),
    ("7S AD", H, 0),  # a card of another non-trump suit never wins
    ("TS AC", NO_TRUMP, 0),  # NT: off-suit ace loses
    ("AS 7H", H, 1),  # any trump beats the plain suit led
    ("7H AS", H, 0),  # trump led, plain card discarded
    ("9H JH", H, 1),  # trump order
    ("AH 9H", H, 1),
    ("TH AH", H, 1),
    ("KH TH", H, 1),
    ("QH KH", H, 1),
    ("8H QH", H, 1),
    ("JS 9S", S, 0),
    ("JS 9S", NO_TRUMP, 0),  # plain order: J above 9 too
    ("9S JS", NO_TRUMP, 1),
    ("TS JS", NO_TRUMP, 0),  # plain order: T above J
    ("TS JS", S, 1),  # trump order: J above T
    ("JD JS", NO_TRUMP, 0),  # equal rank, other suit: led suit wins
    # four-player tricks (§21 Example 10.3, hearts trump)
    ("AS 8H 7H KD", H, 1),  # E's 8H beats S's 7H
    ("AS 8H JH KD", H, 2),
    ("KH 9H JH AH", H, 2),
    ("AS KS QS JH", H, 3),
    ("7C AS AD AH", H, 3),
    ("7C AS AD KC", NO_TRUMP, 3),
])
def test_jj_play_8_trick_winner(trick, trump, winner):
    assert trick_winner(tuple(cards(trick)), trump) == winner


def test_make_card_and_parse_card_agree():
    assert parse_card("QD") == make_card(D, 12)
    assert parse_card("7C") == make_card(C, 7)
