"""The Baloot rules core (spec `baloot.md`): cards, the deal, both bidding rounds, doubling and the lock, play
per position in Hokum and Sun, Ekka, projects, the Baloot, the worked examples of §14 that concern play and
calls, every option of §13 that changes a check, the notation round trip and random playouts.
Scoring and the calculator are in test_baloot_calc.py."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_baloot_helpers import CLUBS, DIAMONDS, HEARTS, SPADES, C, E, M, N, S, W, deal_for, merge, names, replay, rules

from jojotte_records.cards import SUIT_MASKS, iter_cards, make_card
from jojotte_records.errors import IllegalActionError
from jojotte_records.rules.baloot import (
    AUCTION,
    COMPLETE,
    DONE,
    GAHWA,
    BalootOptions,
    BalootRules,
    complete_action,
    deal_action,
    play_random_hand,
    sim_choice,
)
from jojotte_records.rules.baloot_cards import (
    BALOOT_PACK,
    HAND_TOTAL,
    PLAIN_ORDER,
    TRUMP_ORDER,
    can_ekka,
    card_points,
    has_baloot,
    iter_projects,
    legal_plays,
    mask_points,
    project_key,
    project_of,
    strength,
    trick_winner,
)
from jojotte_records.rules.base import CHANCE, VARIANTS, Action, EventRules, Violation


def dealt(r: BalootRules, dealer: int, up: str = "7C", hands: dict | None = None, taker: int = 0):
    """The state after a deal (hands: the five first cards per seat, the rest filled)."""
    deal, _ = deal_for(r, dealer, hands or {}, up, taker)
    return r.apply(r.initial_state(dealer), deal)


def to_play(r: BalootRules, dealer: int, hands: dict, up: str, calls: str, doubling: str = ""):
    """A hand through the auction, the completion and the doubling calls: ``calls`` are bids lines."""
    text = calls
    s = r.initial_state(dealer)
    probe = replay(r, dealt(r, dealer, up), calls)
    assert not isinstance(probe, Violation), probe
    deal, comp = deal_for(r, dealer, hands, up, probe.declarer)
    s = r.apply(s, deal)
    s = replay(r, s, text)
    assert not isinstance(s, Violation), s
    assert s.phase == COMPLETE
    s = r.apply(s, comp)
    if doubling:
        s = replay(r, s, doubling)
        assert not isinstance(s, Violation), s
    return s


# --- cards (BAL-DECK) -------------------------------------------------------------------------

def test_bal_deck_1_pack_of_32():
    assert len(BALOOT_PACK) == 32
    assert {c & 15 for c in BALOOT_PACK.cards} == {7, 8, 9, 10, 11, 12, 13, 14}


def test_bal_deck_2_3_orders():
    # BAL-DECK-2: J 9 A T K Q 8 7 in trumps; BAL-DECK-3: A T K Q J 9 8 7 elsewhere and in Sun
    hearts = [make_card(HEARTS, r) for r in TRUMP_ORDER]
    for i in range(7):
        assert trick_winner([hearts[i + 1], hearts[i]], trump=HEARTS) == 1
    plain = [make_card(SPADES, r) for r in PLAIN_ORDER]
    for i in range(7):
        assert trick_winner([plain[i + 1], plain[i]], trump=HEARTS) == 1
        assert trick_winner([plain[i + 1], plain[i]], trump=-1) == 1


def test_bal_deck_4_sequence_order_for_projects():
    # BAL-DECK-4 / BAL-PROJ-2: A-K-Q is a sira, A-T-K is not; consecutive even in trumps
    assert project_of(M("AH KH QH"), sun=False).kind == "sira"
    assert project_of(M("AH TH KH"), sun=False) is None
    assert project_of(M("JC TC 9C 8C"), sun=False).kind == "fifty"


def test_a_project_read_again_is_the_project_of_its_contract():
    # `project_of` is memoised: four aces are a four hundred in Sun, a hundred in Hokum (BAL-PROJ-1), whichever
    # contract read them first
    aces = M("AS AH AD AC")
    assert [project_of(aces, sun).kind for sun in (False, True, False, True)] == ["hundred", "fourhundred"] * 2


def test_bal_deck_5_points_and_bal_deck_7_totals():
    assert [card_points(make_card(HEARTS, r), HEARTS) for r in TRUMP_ORDER] == [20, 14, 11, 10, 4, 3, 0, 0]
    assert [card_points(make_card(SPADES, r), HEARTS) for r in PLAIN_ORDER] == [11, 10, 4, 3, 2, 0, 0, 0]
    # BAL-DECK-7 with BAL-DECK-6 (the last trick's 10)
    assert mask_points(BALOOT_PACK.mask, HEARTS) + 10 == HAND_TOTAL["hokum"] == 162
    assert mask_points(BALOOT_PACK.mask, -1) + 10 == HAND_TOTAL["sun"] == 130
    assert mask_points(SUIT_MASKS[HEARTS] & BALOOT_PACK.mask, HEARTS) == 62


def test_bal_deck_6_last_trick_bonus_and_totals_in_random_hands():
    r = BalootRules()
    rng = random.Random(5)
    for i in range(60):
        s, _ = play_random_hand(r, i % 4, rng)
        if s.annulled:
            continue
        assert sum(s.points) == HAND_TOTAL[s.contract]  # BAL-DECK-7
        last_team = s.history[-1][2] % 2
        won = sum(card_points(c, s.trump) for _, plays, w in s.history if w % 2 == last_team for _, c in plays)
        assert s.points[last_team] == won + 10  # BAL-DECK-6


# --- seating and dealing (BAL-DEAL) -----------------------------------------------------------

def test_bal_deal_1_2_four_seats_anticlockwise():
    r = BalootRules()
    assert r.seats == 4 and r.seat_labels == ("N", "W", "S", "E")  # BAL-DEAL-1: partners opposite (N-S, W-E)
    assert [r.seat_labels[(i + 1) % 4] for i in range(4)] == ["W", "S", "E", "N"]  # BAL-DEAL-2: next(N)=W …
    assert r.check(r.initial_state(0), Action(5, "pass")) is not None


def test_bal_deal_3_dealer_passes_on_after_every_hand():
    r = BalootRules()
    assert [r.next_dealer(d) for d in range(4)] == [1, 2, 3, 0]


def test_bal_deal_4_cut_variant_changes_no_check():
    # BAL-DEAL-4: the cut is not recorded; with opt.cut_variant only the resulting hands are checked
    for r in (rules(), rules("cut_variant")):
        deal, _ = deal_for(r, N, {}, "JD", W)
        assert r.check(r.initial_state(N), deal) is None
    assert rules("cut_variant").options.cut_variant is True


def test_bal_deal_5_6_five_cards_each_and_the_face_up_card():
    r = BalootRules()
    s = r.initial_state(N)
    deal, _ = deal_for(r, N, {}, "JD", W)
    short = deal._replace(cards=(deal.cards[0] & (deal.cards[0] - 1),) + deal.cards[1:])
    assert r.check(s, short).rule == "BAL-DEAL-5"
    assert r.check(s, deal._replace(info=-1)).rule == "BAL-DEAL-6"
    assert r.check(s, deal._replace(info=next(iter_cards(deal.cards[0])))).rule == "BAL-DECK-1"
    twice = deal._replace(cards=(deal.cards[0], deal.cards[1] | (deal.cards[0] & -deal.cards[0])) + deal.cards[2:])
    assert r.check(s, twice).rule == "BAL-DECK-1"


def test_bal_deal_7_deck_order_packets():
    order = list(BALOOT_PACK.cards)
    a = deal_action(order, dealer=N)  # p1 = W
    assert a.cards[W] == sum(1 << c for c in order[0:3] + order[12:14])
    assert a.cards[N] == sum(1 << c for c in order[9:12] + order[18:20])
    assert a.info == order[20]
    r = BalootRules()
    s = replay(r, r.apply(r.initial_state(N), a), "bids 1: W hokum, S pass, E pass, N pass, W pass")
    comp = complete_action(s, order[21:])
    assert comp.cards[W] == sum(1 << c for c in order[21:23])  # W, p1 and the declarer, gets 2
    assert comp.cards[S] == sum(1 << c for c in order[23:26])


def test_bal_deal_8_9_completion_and_bal_bid_21_taker_gets_the_face_up_card():
    r = BalootRules()
    deal, comp = deal_for(r, N, {}, "JD", S)
    s = replay(r, r.apply(r.initial_state(N), deal), "bids 1: W pass, S hokum, E pass, N pass, W pass, S pass")
    assert s.phase == COMPLETE and s.declarer == S
    wrong = comp._replace(cards=(comp.cards[0], comp.cards[1], comp.cards[2] | (comp.cards[0] & -comp.cards[0]), comp.cards[3]))
    assert r.check(s, wrong).rule == "BAL-DEAL-9"  # a card twice
    three = list(comp.cards)
    moved = three[W] & -three[W]
    three[W] ^= moved
    three[S] |= moved
    assert r.check(s, comp._replace(cards=tuple(three))).rule == "BAL-DEAL-8"  # the taker gets 2, not 3
    s = r.apply(s, comp)
    assert all(h.bit_count() == 8 for h in s.hands)  # BAL-DEAL-9
    assert s.hands[S] >> C("JD") & 1  # BAL-BID-21
    union = 0
    for h in s.hands:
        union |= h
    assert union == BALOOT_PACK.mask


def test_bal_deal_10_all_pass_abandons_the_hand():
    r = BalootRules()
    s = replay(r, dealt(r, N, "JD"), "bids 1: W pass, S pass, E pass, N pass\nbids 2: W pass, S pass, E pass, N pass")
    assert s.phase == DONE and s.annulled == "pass" and r.is_terminal(s)
    score = r.hand_score(s, r.new_sheet())
    assert score.delta == (0, 0) and score.credits[0].rule == "BAL-DEAL-10"
    assert r.next_dealer(N) == W


# --- bidding (BAL-BID) ------------------------------------------------------------------------

def calls_of(r, s):
    return sorted({(a.seat, a.kind, a.suit) for a in r.legal_actions(s)})


def test_bal_bid_1_round_one_calls():
    r = BalootRules()
    s = dealt(r, N)
    assert {a.kind for a in r.legal_actions(s)} == {"pass", "hokum", "sun"}  # p1: no Ashkal (BAL-BID-4)
    s = replay(r, s, "bids 1: W pass, S pass")
    assert {a.kind for a in r.legal_actions(s)} == {"pass", "hokum", "sun", "ashkal"}  # p3


def test_bal_bid_2_opening_circuit_order_and_bal_bid_13_round_two():
    r = BalootRules()
    s = dealt(r, N)
    v = replay(r, s, "bids 1: S pass")
    assert v.rule == "BAL-BID-2"
    s = replay(r, s, "bids 1: W pass, S pass, E pass, N pass")
    assert s.round == 2 and s.phase == AUCTION  # BAL-BID-13


def test_bal_bid_3_hokum_only_as_first_bid_in_the_face_up_suit():
    r = BalootRules()
    s = dealt(r, N, "JD")
    assert replay(r, s, "bids 1: W hokum, S hokum").rule == "BAL-BID-3"
    assert replay(r, s, "bids 1: W hokum spades").rule == "BAL-BID-3"
    ok = replay(r, s, "bids 1: W hokum diamonds")  # the face-up suit may be said
    assert not isinstance(ok, Violation) and ok.bid == "hokum"


def test_bal_bid_4_ashkal_only_p3_p4_after_passes():
    r = BalootRules()
    s = dealt(r, N)
    assert replay(r, s, "bids 1: W ashkal").rule == "BAL-BID-4"
    assert replay(r, s, "bids 1: W hokum, S pass, E ashkal").rule == "BAL-BID-4"
    s2 = replay(r, s, "bids 1: W pass, S pass, E ashkal")
    assert s2.bid == "ashkal" and s2.circuit


def test_bal_bid_5_6_sun_over_hokum_in_the_circuit():
    r = BalootRules()
    s = replay(r, dealt(r, N), "bids 1: W hokum, S sun")
    assert s.bid == "sun" and s.bidder == S  # BAL-BID-6: a SUN replaces a standing HOKUM
    assert s.circuit  # BAL-BID-7: the circuit stopped at the SUN


def test_bal_bid_7_lower_priority_players_are_out():
    r = BalootRules()
    s = replay(r, dealt(r, N), "bids 1: W pass, S sun")
    assert replay(r, s, "bids 1: E pass").rule == "BAL-BID-7"
    assert replay(r, s, "bids 1: N sun").rule == "BAL-BID-7"
    assert calls_of(r, s) == [(W, "pass", -1), (W, "sun", -1)]


def test_bal_bid_8_sun_overcall_and_no_ashkal_overcall():
    r = BalootRules()
    s = replay(r, dealt(r, N), "bids 1: W pass, S pass, E sun")
    assert replay(r, s, "bids 1: W ashkal").rule == "BAL-BID-8"
    s2 = replay(r, s, "bids 1: S sun")
    assert s2.bid == "sun" and s2.bidder == S
    s3 = replay(r, s2, "bids 1: W pass")
    assert s3.phase == COMPLETE and s3.declarer == S


def test_bal_bid_9_hokum_window_counts_later_passes_and_lets_h_switch():
    r = BalootRules()
    s = replay(r, dealt(r, N), "bids 1: W pass, S hokum, E pass, N pass")
    assert s.circuit and s.passed == (1 << E) | (1 << N)
    assert {a.seat for a in r.legal_actions(s)} == {W, S}
    s2 = replay(r, s, "bids 1: S sun")  # the Hokum bidder himself switches (default)
    assert s2.bid == "sun" and s2.bidder == S and {a.seat for a in r.legal_actions(s2)} == {W}


def test_bal_bid_10_any_order_but_one_pass_per_standing_bid():
    r = BalootRules()
    s = replay(r, dealt(r, N), "bids 1: W pass, S hokum, E pass, N pass")
    s2 = replay(r, s, "bids 1: S pass")  # S before W: any order
    assert not isinstance(s2, Violation)
    assert replay(r, s2, "bids 1: S pass").rule == "BAL-BID-10"
    assert r.current_player(s2) == W


def test_bal_bid_11_round_one_closes_only_when_all_eligible_passed():
    r = BalootRules()
    s = replay(r, dealt(r, N), "bids 1: W pass, S hokum, E pass, N pass, W pass")
    assert s.phase == AUCTION
    s = replay(r, s, "bids 1: S pass")
    assert s.phase == COMPLETE
    assert r.check(s, Action(W, "sun")).rule == "BAL-BID-11"  # "no round-1 call after closure" (BAL-BID-11)


def test_bal_bid_11_no_completion_before_closure():
    r = BalootRules()
    deal, comp = deal_for(r, N, {}, "JD", S)
    s = replay(r, r.apply(r.initial_state(N), deal), "bids 1: W pass, S hokum, E pass, N pass, W pass")
    v = r.check(s, comp)
    assert v.rule == "BAL-BID-11" and "{p2}" in v.text  # S has still to confirm his HOKUM
    s2 = replay(r, r.apply(r.initial_state(N), deal), "bids 1: W pass, S pass, E pass, N pass\nbids 2: W pass")
    assert r.check(s2, comp).rule == "BAL-BID-15"


def test_bal_bid_12_results_and_ashkal_declarer_is_partner():
    r = BalootRules()
    s = replay(r, dealt(r, N, "JD"), "bids 1: W hokum, S pass, E pass, N pass, W pass")
    assert (s.contract, s.trump, s.declarer) == ("hokum", DIAMONDS, W)
    s = replay(r, dealt(r, N), "bids 1: W pass, S pass, E ashkal, W pass, S pass")
    assert (s.contract, s.trump, s.declarer) == ("sun", -1, W)


def test_bal_bid_14_15_round_two_no_ashkal_one_call_each():
    r = BalootRules()
    s = replay(r, dealt(r, N, "JD"), "bids 1: W pass, S pass, E pass, N pass")
    assert replay(r, s, "bids 2: W pass, S pass, E ashkal").rule == "BAL-BID-14"
    assert replay(r, s, "bids 2: S pass").rule == "BAL-BID-15"


def test_bal_bid_16_to_19_round_two():
    r = BalootRules()
    s = replay(r, dealt(r, N, "JD"), "bids 1: W pass, S pass, E pass, N pass")
    assert replay(r, s, "bids 2: W hokum diamonds").rule == "BAL-BID-16"
    assert replay(r, s, "bids 2: W hokum").rule == "BAL-BID-16"
    s2 = replay(r, s, "bids 2: W hokum spades")
    assert replay(r, s2, "bids 2: S hokum clubs").rule == "BAL-BID-18"
    done = replay(r, s2, "bids 2: S pass, E sun")  # BAL-BID-17: SUN ends the auction at once
    assert (done.phase, done.contract, done.declarer) == (COMPLETE, "sun", E)
    h = replay(r, s2, "bids 2: S pass, E pass, N pass")  # BAL-BID-19
    assert (h.contract, h.trump, h.declarer) == ("hokum", SPADES, W)


def test_bal_bid_20_all_pass_in_round_two():
    r = BalootRules()
    s = replay(r, dealt(r, N, "AD"), "bids 1: W pass, S pass, E pass, N pass\nbids 2: W pass, S pass, E pass, N pass")
    assert s.phase == DONE and s.annulled == "pass"


def test_example_14_round_one_auctions():
    r = BalootRules()
    # (a) dealer W: p1 S, p2 E, p3 N, p4 W
    s = replay(r, dealt(r, W), "bids 1: S pass, E hokum, N pass, W pass, S sun")
    assert (s.phase, s.contract, s.declarer) == (COMPLETE, "sun", S)
    # (b)
    s = replay(r, dealt(r, W), "bids 1: S pass, E pass, N ashkal")
    assert replay(r, s, "bids 1: W pass").rule == "BAL-BID-7"
    s2 = replay(r, s, "bids 1: S pass, E sun, S pass")
    assert (s2.contract, s2.declarer) == ("sun", E)
    s3 = replay(r, s, "bids 1: S pass, E pass")
    assert (s3.contract, s3.declarer) == ("sun", S)
    # (c)
    s = replay(r, dealt(r, W, "9H"), "bids 1: S pass, E pass, N pass, W hokum, S pass, E pass, N pass, W pass")
    assert (s.contract, s.trump, s.declarer) == ("hokum", HEARTS, W)
    s = replay(r, dealt(r, W), "bids 1: S pass, E pass, N pass, W hokum, S pass, E pass, N pass, W sun")
    assert s.bid == "sun" and s.phase == AUCTION  # legal; now S, E and N may overcall (BAL-BID-8)
    s = replay(r, s, "bids 1: N pass, S pass, E pass")
    assert (s.contract, s.declarer) == ("sun", W)


def test_example_15_round_two_auctions():
    r = BalootRules()
    s = replay(r, dealt(r, W, "JH"), "bids 1: S pass, E pass, N pass, W pass")
    assert replay(r, s, "bids 2: S pass, E hokum hearts").rule == "BAL-BID-16"
    a = replay(r, s, "bids 2: S pass, E hokum spades, N sun")
    assert (a.contract, a.declarer) == ("sun", N)
    b = replay(r, s, "bids 2: S pass, E hokum spades, N pass, W pass")
    assert (b.contract, b.trump, b.declarer) == ("hokum", SPADES, E)
    assert r.check(b, Action(S, "sun")) is not None


# --- doubling (BAL-DBL) -----------------------------------------------------------------------

def hokum_s(r=None, doubling=""):
    r = r or BalootRules()
    return r, to_play(r, W, {}, "9H", "bids 1: S hokum, E pass, N pass, W pass, S pass", doubling)


def test_bal_dbl_1_no_doubling_after_the_first_card():
    r, s = hokum_s()
    lead = next(a for a in r.legal_actions(s) if a.kind == "play")
    s = r.apply(s, lead)
    assert r.check(s, Action(W, "double")).rule == "BAL-DBL-1"
    r2 = BalootRules()
    s2 = replay(r2, dealt(r2, N), "bids 1: W hokum")
    assert r2.check(s2, Action(S, "double")).rule == "BAL-DBL-1"  # not during the auction


def test_bal_dbl_1_doubling_before_or_after_the_completion():
    r = BalootRules()
    deal, comp = deal_for(r, W, {}, "9H", S)
    s = replay(r, r.apply(r.initial_state(W), deal), "bids 1: S hokum, E pass, N pass, W pass, S pass")
    assert s.phase == COMPLETE and {a.kind for a in r.legal_actions(s)} == {"double"}
    s = replay(r, s, "doubling W double")
    assert s.level == 2 and s.phase == COMPLETE
    assert r.check(s, Action(W, "double")).rule == "BAL-DBL-2"
    s = r.apply(s, comp)
    assert replay(r, s, "doubling S triple").level == 3


def test_bal_dbl_2_to_5_ladder_and_example_16():
    r, s = hokum_s()
    assert r.check(s, Action(N, "double")).rule == "BAL-DBL-2"  # N is S's partner
    assert r.check(s, Action(S, "triple")).rule == "BAL-DBL-3"  # before DOUBLE
    s = replay(r, s, "doubling W double locked")
    assert s.level == 2 and s.locked  # BAL-DBL-7
    assert r.check(s, Action(N, "triple")).rule == "BAL-DBL-3"
    s = replay(r, s, "doubling S triple")
    assert s.level == 3 and not s.locked
    assert r.check(s, Action(E, "four")).rule == "BAL-DBL-4"
    s4 = replay(r, s, "doubling W four open")
    assert s4.level == 4 and not s4.locked
    assert r.check(s4, Action(N, "gahwa")).rule == "BAL-DBL-5"
    g = replay(r, s4, "doubling S gahwa")
    assert g.level == GAHWA and not g.locked
    locked = replay(r, s, "doubling W four locked")
    assert locked.locked  # S stops: the hand is locked


def test_bal_dbl_6_lock_choice_and_unspecified_default():
    r, s = hokum_s()
    assert not replay(r, s, "doubling W double").locked
    r2, s2 = hokum_s(rules("lock_unspecified=LOCKED"))
    assert replay(r2, s2, "doubling W double").locked
    assert r.check(replay(r, s, "doubling W double"), Action(S, "triple", announce="locked")).rule == "BAL-DBL-6"


def test_bal_dbl_7_locked_hand_no_trump_lead_with_non_trumps():
    r = BalootRules()
    hands = {W: "AH KH QH 9C 8C", S: "JH 9H 7H AS AD", E: "TS 7S 8S 7D 8D", N: "AC KC QC JC TC"}
    s = to_play(r, W, hands, "TH", "bids 1: S hokum, E pass, N pass, W pass, S pass", "doubling W double locked")
    assert s.locked and s.leader == S  # p1 leads
    plays = {a.card for a in r.legal_actions(s) if a.kind == "play"}
    assert plays and all(c >> 4 != HEARTS for c in plays)
    v = r.check(s, Action(S, "play", card=C("JH")))
    assert v.rule == "BAL-PLAY-7"
    # level 3 reopens the hand
    s3 = replay(r, s, "doubling S triple")
    assert r.check(s3, Action(S, "play", card=C("JH"))) is None


def test_bal_dbl_8_9_sun_double_condition():
    r = BalootRules()
    calls = "bids 1: S sun"
    hands: dict = {}
    for scores, ok in (((112, 87), True), ((87, 112), True), ((100, 87), False), ((120, 130), False), ((0, 0), False)):
        deal, comp = deal_for(r, W, hands, "9H", S)
        s = r.apply(r.initial_state(W, scores), deal)
        s = r.apply(replay(r, s, calls), comp)
        v = r.check(s, Action(E, "double"))
        assert (v is None) == ok, (scores, v)
        if not ok:
            assert v.rule == "BAL-DBL-8"
    deal, comp = deal_for(r, W, hands, "9H", S)
    s = r.apply(replay(r, r.apply(r.initial_state(W, (112, 87)), deal), calls), comp)
    s = replay(r, s, "doubling E double")
    assert s.level == 2 and not s.locked
    assert r.check(s, Action(S, "triple")).rule == "BAL-DBL-9"
    assert r.check(replay(r, r.apply(replay(r, r.apply(r.initial_state(W, (112, 87)), deal), calls), comp), ""),
                   Action(E, "double", announce="locked")).rule == "BAL-DBL-9"
    # opt.sun_double_condition=declarers_above: only declarers > 100 and defenders < 100
    r2 = rules("sun_double_condition=DECLARERS_ABOVE")
    for scores, ok in (((112, 87), True), ((87, 112), False)):
        s = r2.apply(replay(r2, r2.apply(r2.initial_state(W, scores), deal), calls), comp)
        assert (r2.check(s, Action(E, "double")) is None) == ok


def test_bal_dbl_10_final_level():
    r, s = hokum_s()
    assert s.level == 1
    assert replay(r, s, "doubling W double, S triple").level == 3


# --- play (BAL-PLAY) --------------------------------------------------------------------------

# (hand, cards in the trick, trump, locked, ekka) -> legal cards; trump -1 is Sun
PLAY_TABLE = [
    # leads
    ("AH 7S 9C", "", HEARTS, False, False, "AH 7S 9C", "BAL-PLAY-1"),
    ("AH 7S 9C", "", HEARTS, True, False, "7S 9C", "BAL-PLAY-7"),
    ("AH KH", "", HEARTS, True, False, "AH KH", "BAL-PLAY-1"),  # only trumps: he may lead one (BAL-PLAY-7)
    # Sun
    ("AS 7S KH", "9S", -1, False, False, "AS 7S", "BAL-PLAY-5"),
    ("KH QD", "9S", -1, False, False, "KH QD", "BAL-PLAY-6"),
    # Hokum, trump led
    ("JH 7H AS", "9H", HEARTS, False, False, "JH", "BAL-PLAY-9"),  # 2nd must beat
    ("8H 7H AS", "9H", HEARTS, False, False, "8H 7H", "BAL-PLAY-9"),  # cannot beat: any trump
    ("AS KD", "9H", HEARTS, False, False, "AS KD", "BAL-PLAY-8"),
    ("JH 7H", "9H 8H", HEARTS, False, False, "JH 7H", "BAL-PLAY-9"),  # 3rd, partner (1st) winning
    ("JH 7H", "8H 9H", HEARTS, False, False, "JH", "BAL-PLAY-9"),  # 3rd, 2nd winning
    ("JH 7H", "8H 9H 7C", HEARTS, False, False, "JH 7H", "BAL-PLAY-9"),  # 4th, partner winning
    ("JH 7H", "9H 8H AH", HEARTS, False, False, "JH", "BAL-PLAY-9"),  # 4th, 1st winning
    # Hokum, plain led
    ("AS 7S JH", "9S", HEARTS, False, False, "AS 7S", "BAL-PLAY-5"),
    ("7H KD", "9S", HEARTS, False, False, "7H", "BAL-PLAY-10"),  # 2nd void: a trump
    ("KD QC", "9S", HEARTS, False, False, "KD QC", "BAL-PLAY-10"),
    ("9H 7H KD", "9S 8H", HEARTS, False, False, "9H", "BAL-PLAY-10"),  # 3rd void, 2nd winning with a trump
    ("7H KD", "9S JH", HEARTS, False, False, "7H KD", "BAL-PLAY-10"),  # cannot overtrump: any card
    ("7H KD", "AS 8S", HEARTS, False, False, "7H KD", "BAL-PLAY-11"),  # partner led an ace
    ("7H KD", "KS 8S", HEARTS, False, False, "7H", "BAL-PLAY-11"),  # partner's king, no Ekka
    ("7H KD", "KS 8S", HEARTS, False, True, "7H KD", "BAL-PLAY-11"),  # with Ekka (BAL-EKKA-4)
    ("KD QC", "KS 8S", HEARTS, False, False, "KD QC", "BAL-PLAY-11"),
    ("7H KD", "8S KS 7S", HEARTS, False, False, "7H KD", "BAL-PLAY-12"),  # 4th, partner (2nd) winning
    ("7H KD", "KS 8S 7S", HEARTS, False, False, "7H", "BAL-PLAY-10"),  # 4th, 1st winning
    ("7H JH KD", "9S 7S 8H", HEARTS, False, False, "JH", "BAL-PLAY-10"),  # 4th, 3rd winning with a trump
]


@pytest.mark.parametrize("hand, trick, trump, locked, ekka, legal, rule", PLAY_TABLE)
def test_bal_play_5_to_12_per_position(hand, trick, trump, locked, ekka, legal, rule):
    r = legal_plays(M(hand), tuple(C(t) for t in trick.split()), trump, locked, ekka)
    assert names(r.mask) == names(M(legal))
    assert r.rule == rule


@pytest.mark.parametrize("hand, trick, why", [
    ("JH 7H AS", "9H", "trumps were led: he must beat 9H with a higher trump"),
    ("JH 7H", "8H 9H", "trumps were led: he must beat 9H with a higher trump"),
    ("8H 7H AS", "9H", "trumps were led: a player who holds trumps must play one"),
    ("AS 7S JH", "9S", "a player who holds the led suit must follow it"),
    ("7H KD", "9S", "void in the led suit with an opponent winning (9S): he must win the trick with a trump"),
    ("9H 7H KD", "9S 8H", "void in the led suit with an opponent winning (8H): he must win the trick with a trump"),
    ("7H KD", "KS 8S", "void in the led suit, his partner leading KS (neither an ace nor Ekka): he must play a trump"),
    ("7H KD", "AS 8S", ""),
    ("7H KD", "8S KS 7S", ""),
])
def test_bal_play_sentences_name_the_winning_card_and_the_lead(hand, trick, why):
    # the sentence of each case (`baloot_cards.PLAY_REASONS`) with the card it names: the trick's winner so far, or
    # the card led (BAL-PLAY-9…11)
    assert legal_plays(M(hand), tuple(C(t) for t in trick.split()), HEARTS).why == why


def test_bal_play_1_2_3_turns():
    r, s = hokum_s()
    assert s.leader == S  # BAL-PLAY-2: dealer W, p1 = S
    assert r.check(s, Action(E, "play", card=next(iter_cards(s.hands[E])))).rule == "BAL-PLAY-2"
    rng = random.Random(1)
    for _ in range(4):
        s = r.apply(s, sim_choice(tuple(a for a in r.legal_actions(s) if a.kind == "play"), rng))
    winner = s.history[0][2]
    assert s.leader == winner  # BAL-PLAY-3
    other = (winner + 1) % 4
    assert r.check(s, Action(other, "play", card=next(iter_cards(s.hands[other])))).rule == "BAL-PLAY-3"
    assert r.check(s, Action(winner, "play", card=C("7S") if not s.hands[winner] >> C("7S") & 1 else C("AS"))).rule in (
        "BAL-PLAY-1", "BAL-DECK-1")  # BAL-PLAY-1: a card he does not hold


def test_bal_play_4_trick_winner():
    assert trick_winner([C("AS"), C("TS"), C("7H"), C("KS")], HEARTS) == 2
    assert trick_winner([C("AS"), C("TS"), C("7H"), C("KS")], -1) == 0
    assert trick_winner([C("8D"), C("AS"), C("7D"), C("9D")], -1) == 3


def test_example_12_trump_lead():
    h = HEARTS
    assert names(legal_plays(M("AH 7S"), (C("8H"),), h).mask) == "AH"
    assert names(legal_plays(M("9H 7H"), (C("8H"), C("AH")), h).mask) == "9H"
    assert names(legal_plays(M("KH QH"), (C("8H"), C("AH"), C("9H")), h).mask) == names(M("KH QH"))
    assert names(legal_plays(M("KH 7H"), (C("8H"), C("AH")), h).mask) == names(M("KH 7H"))
    assert names(legal_plays(M("KH QH 7S"), (C("8H"), C("AH"), C("7H")), h).mask) == names(M("KH QH"))


# --- Ekka (BAL-EKKA) --------------------------------------------------------------------------

def test_example_11_ekka():
    d = DIAMONDS
    assert can_ekka(C("KS"), d, M("AS TS"))  # BAL-EKKA-2
    assert not can_ekka(C("KS"), d, M("AS"))
    assert can_ekka(C("AS"), d, 0)  # BAL-EKKA-3: on an ace, legal and without effect
    assert not can_ekka(C("KD"), d, M("JD 9D AD TD"))  # BAL-EKKA-1: never on a trump
    assert not can_ekka(C("KS"), -1, M("AS TS"))  # nor in Sun
    assert names(legal_plays(M("9D QC"), (C("KS"), C("8S")), d, ekka=True).mask) == names(M("9D QC"))
    assert names(legal_plays(M("9D QC"), (C("KS"), C("8S")), d, ekka=False).mask) == "9D"


def test_bal_ekka_1_2_in_a_hand():
    r = BalootRules()
    hands = {S: "AS KS 7C 8C 9C", W: "TS 8S 7S AH KH", E: "QS JS 9S QH JH", N: "AD KD QD JD TD"}
    s = to_play(r, W, hands, "7D", "bids 1: S hokum, E pass, N pass, W pass, S pass")
    ekka = Action(S, "play", card=C("KS"), announce="ekka")
    assert r.check(s, ekka).rule == "BAL-EKKA-2"  # AS (his own) and TS still out
    assert r.check(s, Action(S, "play", card=C("AS"), announce="ekka")) is None
    assert r.check(s, Action(S, "play", card=C("7D"), announce="ekka")).rule == "BAL-EKKA-1"
    s = r.apply(s, Action(S, "play", card=C("AS")))
    assert r.check(s, Action(E, "play", card=C("QS"), announce="ekka")).rule == "BAL-EKKA-1"  # not the leader


# --- projects (BAL-PROJ) ----------------------------------------------------------------------

def test_bal_proj_1_values_and_kinds():
    assert project_of(M("AS KS QS"), False).kind == "sira"
    assert project_of(M("AS KS QS JS"), True).kind == "fifty"
    assert project_of(M("AS KS QS JS TS"), False).kind == "hundred"
    assert project_of(M("KS KH KD KC"), False).kind == "hundred"
    assert project_of(M("AS AH AD AC"), False).kind == "hundred"  # Hokum: 10
    assert project_of(M("AS AH AD AC"), True).kind == "fourhundred"  # Sun: 40
    from jojotte_records.rules.baloot_cards import kind_value
    assert [kind_value(k, False) for k in ("sira", "fifty", "hundred")] == [2, 5, 10]
    assert [kind_value(k, True) for k in ("sira", "fifty", "hundred", "fourhundred")] == [4, 10, 20, 40]
    assert kind_value("fourhundred", False) is None


def test_bal_proj_3_no_nines_eights_sevens():
    for rank in "987":
        assert project_of(M(" ".join(rank + s for s in "SHDC")), False) is None


def test_bal_proj_4_long_runs_split_or_one_hundred():
    hand = M("AS KS QS JS TS 9S 7H 8D")
    kinds = sorted(p.kind for p in iter_projects(hand, False) if p.mask == M("AS KS QS JS TS 9S"))
    assert kinds == ["hundred"]  # the run of six as one hundred
    assert any(p.mask == M("AS KS QS") for p in iter_projects(hand, False))  # or split (SPLIT)


def test_bal_proj_9_comparison():
    sun = False
    fifty_q = project_of(M("QH JH TH 9H"), sun)
    fifty_k = project_of(M("KS QS JS TS"), sun)
    assert project_key(fifty_k, sun, 2) > project_key(fifty_q, sun, 0)  # (3) higher top card: p3 wins
    fifty_k2 = project_of(M("KH QH JH TH"), sun)
    assert project_key(fifty_k2, sun, 0) > project_key(fifty_k, sun, 2)  # (4) priority: p1 wins
    quad = project_of(M("TS TH TD TC"), sun)
    run = project_of(M("AC KC QC JC TC"), sun)
    assert project_key(quad, sun, 3) > project_key(run, sun, 0)  # (2) four of a kind beats a run
    assert project_key(project_of(M("AS AH AD AC"), sun), sun, 3) > project_key(project_of(M("KS KH KD KC"), sun), sun, 0)
    # opt.project_tie_trump_priority: a trump run wins between otherwise equal runs
    assert project_key(fifty_k, sun, 2, trump=SPADES, trump_priority=True) > project_key(fifty_k2, sun, 0, SPADES, True)


EX10 = {W: "AH KH QH 9H 8C 9C JC", S: "AS KS QS JS 7H 8D 9D QC", E: "AD KD QD 8H 7D 8S 9S KC",
        N: "TS TH TD TC JH JD 7S AC"}


def ex10_state(r: BalootRules, contract: str = "hokum"):
    calls = "bids 1: W hokum, S pass, E pass, N pass, W pass" if contract == "hokum" else "bids 1: W sun"
    return to_play(r, N, EX10, "7C", calls)


def test_example_10_projects():
    r = BalootRules()
    s = ex10_state(r)
    assert (s.contract, s.trump, s.declarer, s.leader) == ("hokum", CLUBS, W, W)
    s = replay(r, s, "trick 1: W sira, W 9H, S fifty, S 7H")
    assert replay(r, s, "trick 1: E sira").rule == "BAL-PROJ-8"
    s = replay(r, s, "trick 1: E 8H, N hundred, N JH")
    assert s.tricks_done == 1 and s.best == N
    # BAL-PROJ-11: N must show before his trick-2 card; the other team may not show
    assert r.check(s, Action(N, "play", card=C("AC"))).rule == "BAL-PROJ-11"
    assert r.check(s, Action(N, "show", melds=(M("TS TH TD TC"),))) is None
    s = replay(r, s, "trick 2: N show TS TH TD TC, N 7S")
    assert r.check(s, Action(W, "show", melds=(M("AH KH QH"),))).rule == "BAL-PROJ-11"
    s = replay(r, s, "trick 2: W 7C, S show AS KS QS JS")
    rng = random.Random(3)
    while not r.is_terminal(s):
        s = r.apply(s, sim_choice(tuple(a for a in r.legal_actions(s) if a.kind == "play"), rng))
    h = r.summary(s)
    assert h.projects == ((("hundred", "fifty")), ())
    score = r.hand_score(s, r.new_sheet())
    assert score.project_points == (15, 0)  # 10 + 5; W's sira is void
    from jojotte_records.rules.baloot import project_value
    assert project_value(("hundred", "fifty"), True) == 30  # in Sun


def test_bal_proj_5_6_7_12_declaration_and_show_checks():
    r = BalootRules()
    s = ex10_state(r)
    assert r.check(s, Action(W, "declare", announce="fifty")).rule == "BAL-PROJ-6"  # W holds no fifty
    assert r.check(s, Action(S, "declare", announce="sira")).rule == "BAL-PROJ-7"  # not his turn
    assert r.check(s, Action(W, "declare", announce="fourhundred")).rule == "BAL-PROJ-1"  # not in Hokum
    s = replay(r, s, "trick 1: W sira")
    assert r.check(s, Action(W, "declare", announce="sira")).rule == "BAL-PROJ-7"  # one each
    s = replay(r, s, "trick 1: W 9H, S fifty, S 7H, E 8H, N JH")
    assert r.check(s, Action(E, "declare", announce="sira")).rule == "BAL-PROJ-7"  # after trick 1
    # S's fifty beats W's sira: N-S are the project team
    assert s.best == S
    assert r.check(s, Action(N, "show", melds=(M("TS TH TD TC"),))) is None  # partner, undeclared: fine
    s2 = replay(r, s, "trick 2: N show TS TH TD TC")
    assert r.check(s2, Action(N, "show", melds=(M("TS TH TD"),))).rule == "BAL-PROJ-2"  # no run
    assert r.check(s2, Action(N, "show", melds=(M("TS TH TD TC"),))).rule == "BAL-PROJ-5"  # a card twice
    assert r.check(s2, Action(N, "show", melds=(M("KH QH JH"),))).rule == "BAL-PROJ-6"  # not held
    s3 = replay(r, s2, "trick 2: N 7S, W 7C")
    assert r.check(s3, Action(S, "show", melds=(M("KS QS JS"),))).rule == "BAL-PROJ-12"  # a sira, not the fifty
    assert r.check(s3, Action(S, "play", card=C("8D"))).rule == "BAL-PROJ-11"


def test_bal_proj_8_equal_kinds_allowed():
    r = BalootRules()
    s = ex10_state(r)
    s = replay(r, s, "trick 1: W sira, W 9H, S sira, S 7H, E sira")
    assert not isinstance(s, Violation)
    s = replay(r, s, "trick 1: E 8H, N JH")
    assert s.best == W  # three siras, each topped by an ace: W played first in trick 1 (BAL-PROJ-9 (4))


def test_bal_proj_10_13_no_declaration_no_show():
    r = BalootRules()
    s = replay(r, ex10_state(r), "trick 1: W 9H, S 7H, E 8H, N JH")
    assert s.best == -1
    assert r.check(s, Action(N, "show", melds=(M("TS TH TD TC"),))).rule == "BAL-PROJ-10"


# --- the Baloot (BAL-BALOOT) ------------------------------------------------------------------

BAL_HANDS = {S: "KH QH AS 7C 8C", W: "JH 9H AD 7D 8D", E: "AH TH KS QS JS", N: "AC KC QC JC TC"}


def baloot_state(r: BalootRules):
    return to_play(r, W, BAL_HANDS, "7H", "bids 1: S hokum, E pass, N pass, W pass, S pass")


def test_bal_baloot_1_3_declared_with_the_second_card():
    r = BalootRules()
    s = baloot_state(r)
    assert has_baloot(s.full[S], HEARTS) and not any(has_baloot(s.full[x], HEARTS) for x in (N, W, E))
    assert r.check(s, Action(S, "play", card=C("KH"), announce="baloot")).rule == "BAL-BALOOT-3"  # first card
    bm = M("KH QH")
    rng = random.Random(1)
    offered = 0
    while not r.is_terminal(s):
        acts = r.legal_actions(s)
        for b in acts:
            if b.announce == "baloot":
                offered += 1
                assert b.seat == S and s.hands[S] & bm == 1 << b.card  # the second of KH, QH
        said = [b for b in acts if b.announce == "baloot"]
        s = r.apply(s, said[0] if said else rng.choice([b for b in acts if b.kind == "play" and not b.announce]))
    assert offered == 1 and s.baloot == S


def test_bal_baloot_1_not_in_sun_and_bal_baloot_8_once():
    r = BalootRules()
    s = to_play(r, W, BAL_HANDS, "7H", "bids 1: S sun")
    assert r.check(s, Action(S, "play", card=C("KH"), announce="baloot")).rule == "BAL-BALOOT-1"
    assert r.baloot_team(s._replace(phase=DONE)) == -1


def finish(r, s, seed=1, prefer=None):
    rng = random.Random(seed)
    while not r.is_terminal(s):
        acts = [a for a in r.legal_actions(s) if a.kind == "play" and not a.announce]
        pick = [a for a in r.legal_actions(s) if prefer and prefer(a)]
        s = r.apply(s, pick[0] if pick else rng.choice(acts))
    return s


def test_bal_baloot_2_4_scores_for_either_team():
    r = BalootRules()
    s = baloot_state(r)
    s = finish(r, s, prefer=lambda a: a.announce == "baloot")
    assert s.baloot == S and r.baloot_team(s) == 0  # BAL-BALOOT-4: no project precedence needed
    score = r.hand_score(s, r.new_sheet())
    assert score.summary.baloot == 0
    assert score.totals[0] == score.game[0] + score.project_points[0] + 2
    undeclared = finish(r, baloot_state(r))
    assert undeclared.baloot == -1 and r.baloot_team(undeclared) == -1


def test_bal_baloot_5_6_7_with_projects():
    # BAL-BALOOT-5, BAL-BALOOT-6, BAL-BALOOT-7
    r = BalootRules()
    hands = {S: "KH QH JH 7C 8C", W: "AH 9H AD 7D 8D", E: "TH 8H KS QS JS", N: "AC KC QC JC TC"}
    s = to_play(r, W, hands, "7H", "bids 1: S hokum, E pass, N pass, W pass, S pass")
    s = replay(r, s, "trick 1: S sira")
    s = finish(r, s, prefer=lambda a: a.kind == "show")
    assert r.baloot_team(s) == 0  # BAL-BALOOT-5: scored with the shown sira KH-QH-JH, no declaration
    r2 = rules("baloot_in_project=MUST_DECLARE")
    s2 = replay(r2, to_play(r2, W, hands, "7H", "bids 1: S hokum, E pass, N pass, W pass, S pass"), "trick 1: S sira")
    s2 = finish(r2, s2, prefer=lambda a: a.kind == "show")
    assert r2.baloot_team(s2) == -1
    # BAL-BALOOT-6/7: a shown hundred with K+Q of trumps, or four kings/queens, forbids it
    from jojotte_records.rules.baloot_cards import blocks_baloot, carries_baloot
    assert blocks_baloot(project_of(M("AH KH QH JH TH"), False), HEARTS)
    assert blocks_baloot(project_of(M("KS KH KD KC"), False), HEARTS)
    assert blocks_baloot(project_of(M("QS QH QD QC"), False), HEARTS)
    assert not blocks_baloot(project_of(M("JS JH JD JC"), False), HEARTS)
    assert carries_baloot(project_of(M("AH KH QH JH"), False), HEARTS)


def test_opt_baloot_in_project_declare_forbidden():
    hands = {S: "JH 9H KH QH 7C 8C 9C", N: "AH TH 8H AS KS QS JS TS", E: "AD KD QD JD TD 9D 8D 7D",
             W: "AC KC QC JC TC 9S 8S 7S"}
    tricks = """trick 1: S sira, S JH, E 7D, N 8H, W 7S
                trick 2: S show KH QH JH, S 9H, E 8D, N TH, W 8S
                trick 3: S KH, E 9D, N AH, W 9S
                trick 4: N AS, W TC"""
    for text, allowed in (("", True), ("baloot_in_project=DECLARE_FORBIDDEN", False)):
        r = rules(text)
        s = replay(r, to_play(r, W, hands, "7H", "bids 1: S hokum, E pass, N pass, W pass, S pass"), tricks)
        assert r.baloot_team(s._replace(phase=DONE)) == 0  # BAL-BALOOT-5: the shown sira carries it
        v = r.check(s, Action(S, "play", card=C("QH"), announce="baloot"))
        assert r.check(s, Action(S, "play", card=C("QH"))) is None
        if allowed:
            assert v is None  # auto: a separate declaration is optional, counted once
        else:
            assert v.rule == "BAL-BALOOT-5" and "declare_forbidden" in v.text
        s = finish(r, r.apply(s, Action(S, "play", card=C("QH"), announce="baloot" if allowed else "")))
        score = r.hand_score(s, r.new_sheet())
        assert score.summary.baloot == 0 and score.summary.projects[0] == ("sira",)


def test_bal_baloot_6_declaration_refused_after_the_hundred():
    r = BalootRules()
    hands = {S: "AH KH QH JH TH", W: "9H 8H AD 7D 8D", E: "AS TS KS QS JS", N: "AC KC QC JC TC"}
    s = to_play(r, W, hands, "7H", "bids 1: S hokum, E pass, N pass, W pass, S pass")
    s = replay(r, s, "trick 1: S hundred, S JH")  # the highest trump wins trick 1
    s = finish_trick(r, s)
    assert s.best == S and s.leader == S
    v = replay(r, s, "trick 2: S show AH KH QH JH TH, S QH baloot")
    assert v.rule == "BAL-BALOOT-6"
    s = replay(r, s, "trick 2: S show AH KH QH JH TH")
    s = finish(r, s, prefer=lambda a: a.announce == "baloot")
    assert s.baloot == -1 and r.baloot_team(s) == -1


def finish_trick(r, s, seed=2):
    rng = random.Random(seed)
    n = s.tricks_done
    while s.tricks_done == n:
        s = r.apply(s, rng.choice([a for a in r.legal_actions(s) if a.kind == "play" and not a.announce]))
    return s


def test_baloot_timing_any_time_option():
    r = rules("baloot_timing=ANY_TIME")
    s = baloot_state(r)
    assert r.check(s, Action(S, "play", card=C("AS"), announce="baloot")) is None


# --- options that change a check (§13) --------------------------------------------------------

def test_opt_kawesh():
    hands = {W: "7S 8S 9S 7H 8H"}
    r = rules("kawesh")
    s = dealt(r, N, "AD", hands)
    s = replay(r, s, "bids 1: W kawesh")
    assert s.phase == DONE and s.annulled == "kawesh"
    assert r.hand_score(s, r.new_sheet()).delta == (0, 0)
    r0 = BalootRules()
    assert replay(r0, dealt(r0, N, "AD", hands), "bids 1: W kawesh").rule == "BAL-BID-1"


def test_opt_first_lead_declarer():
    r = rules("first_lead=DECLARER")
    s = to_play(r, W, {}, "9H", "bids 1: S pass, E hokum, N pass, W pass, S pass, E pass")
    assert s.leader == E


def test_opt_no_doubling():
    r, s = hokum_s(rules("no_doubling"))
    assert r.check(s, Action(W, "double")).text.endswith("(no_doubling)")


def test_opt_riyadh_ashkal():
    r = rules("riyadh_ashkal")
    s = replay(r, dealt(r, N, "JD"), "bids 1: W pass, S pass, E pass, N pass")
    assert replay(r, s, "bids 2: W ashkal").text.endswith("every earlier player passed")
    s2 = replay(r, s, "bids 2: W pass, S pass, E ashkal")
    assert (s2.contract, s2.declarer) == ("sun", W)


def test_opt_third_round_ace():
    r = rules("third_round_ace")
    two = "bids 1: W pass, S pass, E pass, N pass\nbids 2: W pass, S pass, E pass, N pass"
    s = replay(r, dealt(r, N, "AD"), two)
    assert s.phase == AUCTION and s.round == 3
    assert replay(r, s, "bids 3: S sun").rule == "BAL-BID-20"  # only p1
    h = replay(r, s, "bids 3: W hokum diamonds")  # any suit, even the face-up one
    assert (h.contract, h.trump, h.declarer) == ("hokum", DIAMONDS, W)
    assert replay(r, s, "bids 3: W pass").annulled == "pass"
    assert replay(r, dealt(r, N, "KD"), two).phase == DONE  # not an ace


def test_opt_hokum_bidder_may_switch_false():
    r = rules("hokum_bidder_may_switch=false")
    s = replay(r, dealt(r, N), "bids 1: W pass, S hokum, E pass, N pass")
    assert replay(r, s, "bids 1: S sun").text.endswith("(hokum_bidder_may_switch=false)")
    assert replay(r, s, "bids 1: W pass").phase == COMPLETE


def test_opt_sun_overcall_by_opponents_only():
    r = rules("sun_overcall_by=OPPONENTS_ONLY")
    s = replay(r, dealt(r, N), "bids 1: W pass, S pass, E sun")
    assert replay(r, s, "bids 1: W sun").text.endswith("(sun_overcall_by=opponents_only)")  # W is E's partner
    s2 = replay(r, s, "bids 1: S pass")  # S, an opponent, was the only one eligible
    assert (s2.phase, s2.contract, s2.declarer) == (COMPLETE, "sun", E)


def test_opt_raise_callers_team():
    r, s = hokum_s(rules("raise_callers=TEAM"))
    s = replay(r, s, "doubling W double, N triple, E four")
    assert s.level == 4
    assert not isinstance(replay(r, s, "doubling N gahwa"), Violation)


def test_opt_long_runs_five_max():
    hands = {W: "AH 9H AD 7D 8D", E: "TH 8H KH QH JH", N: "AC KC QC TC 7H"}
    for text, can_split in (("", True), ("long_runs=FIVE_MAX", False)):
        r = rules(text)
        s = to_play(r, W, {**hands, S: "AS KS QS JS TS 9S JC"}, "8C", "bids 1: S hokum, E pass, N pass, W pass, S pass")
        s = replay(r, s, "trick 1: S hundred, S JC")
        s = finish_trick(r, s)
        assert s.leader == S and s.best == S
        shows = [a for a in r.legal_actions(s) if a.kind == "show"]
        assert any(a.melds[0] == M("AS KS QS JS TS 9S") for a in shows)
        assert any(a.melds[0] == M("AS KS QS JS TS") for a in shows) == can_split
        s = replay(r, s, "trick 2: S show AS KS QS JS TS 9S")
        assert not any(a.kind == "show" and a.melds[0] == M("TS 9S") for a in r.legal_actions(s))


def test_options_parse_and_text():
    o = BalootOptions.parse("first_lead=DECLARER; kawesh; project_multiplier=full")
    assert o.first_lead == "declarer" and o.kawesh and o.project_multiplier == "full"
    assert BalootOptions.parse(o.text()) == o
    with pytest.raises(ValueError):
        BalootOptions.parse("first_lead=nobody")
    with pytest.raises(ValueError):
        BalootOptions.parse("no_such_option")


# --- the protocol, the notation, random playouts ---------------------------------------------

def test_registered_as_an_event_game():
    assert VARIANTS["baloot"] is BalootRules and issubclass(BalootRules, EventRules)
    r = BalootRules()
    assert r.sheet_labels == ("NS", "WE") and r.rule_prefix == "BAL" and "complete" in r.list_lines


def test_apply_raises_on_illegal():
    r = BalootRules()
    with pytest.raises(IllegalActionError):
        r.apply(dealt(r, N), Action(S, "pass"))


def test_notation_reads_typed_forms():
    r = BalootRules()
    s = dealt(r, N, "JD")
    assert r.read_item(s, "bids", 1, "W", ("P",)) == Action(W, "pass")
    assert r.read_item(s, "bids", 1, "W", ("hokum", "D")) == Action(W, "hokum")
    assert isinstance(r.read_item(s, "bids", 1, "X", ("pass",)), Violation)
    assert r.read_item(s, "bids", 1, "W", ("double",)).rule == "NOTATION"
    assert r.read_item(s, "trick", 1, "W", ("10h", "ekka")) == Action(W, "play", card=C("TH"), announce="ekka")
    assert r.read_item(s, "trick", 2, "W", ("show", "KS-QS-JS")) == Action(W, "show", melds=(M("KS QS JS"),))
    assert r.read_item(s, "trick", 1, "W", ("400",)) == Action(W, "declare", announce="fourhundred")
    assert r.read_item(s, "deal", -1, "up", ("JD",)).info == C("JD")
    assert r.read_item(s, "deal", -1, "up", ("JD", "QD")).rule == "NOTATION"
    assert r.read_item(s, "deal", -1, "N", ("2S",)).rule == "NOTATION"
    assert r.read_item(s, "nonsense", -1, "N", ()).rule == "NOTATION"
    assert r.read_item(s, "doubling", -1, "N", ("double", "maybe")).rule == "NOTATION"


def walk(r: BalootRules, seed: int, dealer: int, scores=(0, 0)):
    """A random hand: every state with the action taken there."""
    rng = random.Random(seed)
    s = r.initial_state(dealer, scores)
    while not r.is_terminal(s):
        a = r.chance_action(s, rng) if r.current_player(s) == CHANCE else sim_choice(r.legal_actions(s), rng)
        yield s, a
        s = r.advance(s, a)


VARIANT_TEXTS = ["", "first_lead=DECLARER; lock_unspecified=LOCKED", "riyadh_ashkal; third_round_ace; kawesh",
                 "raise_callers=TEAM; long_runs=FIVE_MAX; baloot_timing=ANY_TIME",
                 "hokum_bidder_may_switch=false; sun_overcall_by=OPPONENTS_ONLY; baloot_in_project=DECLARE_FORBIDDEN",
                 "no_doubling; project_tie_trump_priority"]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10 ** 6), dealer=st.integers(0, 3), variant=st.sampled_from(VARIANT_TEXTS),
       scores=st.sampled_from([(0, 0), (112, 87), (60, 130)]))
def test_property_legal_actions_agree_with_check_and_the_notation_round_trips(seed, dealer, variant, scores):
    r = rules(variant)
    rng = random.Random(seed + 1)
    steps = 0
    for s, a in walk(r, seed, dealer, scores):
        steps += 1
        assert steps < 200
        if a.seat == CHANCE:
            assert r.check(s, a) is None
            assert merge([r.read_item(s, *it) for it in r.items_of(s, a)]) == a
            for b in r.legal_actions(s):  # doubling calls before the completion deal
                assert b.kind in ("double", "triple", "four", "gahwa") and r.check(s, b) is None
                assert r.read_item(s, *r.item_of(s, b)) == b
            continue
        acts = r.legal_actions(s)
        assert a in acts and acts
        for b in acts:
            assert r.check(s, b) is None
            assert r.read_item(s, *r.item_of(s, b)) == b
        for _ in range(6):
            b = Action(rng.randrange(4), rng.choice(["play", "pass", "sun", "hokum", "ashkal", "double", "triple", "four",
                                                     "gahwa", "declare", "show"]),
                       card=rng.choice(BALOOT_PACK.cards), suit=rng.randrange(-1, 4),
                       announce=rng.choice(["", "ekka", "baloot", "sira", "fifty", "hundred", "locked"]),
                       melds=(rng.choice([m for _, m in iter_proj_masks(s, rng)] or [0]),) if rng.random() < 0.3 else ())
            if b not in acts:
                v = r.check(s, b)
                assert isinstance(v, Violation) and v.rule, b


def iter_proj_masks(s, rng):
    for seat in range(4):
        for p in iter_projects(s.full[seat] | s.hands[seat], False):
            yield seat, p.mask


def test_random_hands_terminate_in_every_variant():
    rng = random.Random(11)
    for text in VARIANT_TEXTS:
        r = rules(text)
        for i in range(40):
            s, actions = play_random_hand(r, i % 4, rng)
            assert r.is_terminal(s) and len(actions) < 120
            if not s.annulled:
                assert s.tricks_done == 8 and all(h == 0 for h in s.hands)
                assert len(r.tricks(s)) == 8


def test_contract_text():
    r, s = hokum_s()
    assert r.contract_text(s) == "S hokum hearts"
    assert r.contract_text(replay(r, s, "doubling W double locked")) == "S hokum hearts, doubled (locked)"
    s = replay(r, dealt(r, N), "bids 1: W pass, S pass, E ashkal, W pass, S pass")
    assert r.contract_text(s) == "W ashkal"
    s = replay(r, dealt(r, N, "JD"), "bids 1: W pass, S pass, E pass, N pass\nbids 2: W pass, S pass, E pass, N pass")
    assert r.contract_text(s) == "no contract (all passed)"


def test_written_score_captures_and_card_points():
    r = BalootRules()
    sheet = r.new_sheet().add(r.written_score((16, 0)))
    assert sheet.scores == (16, 0) and not sheet.over
    rng = random.Random(8)
    for i in range(20):
        s, _ = play_random_hand(r, i % 4, rng)
        if s.annulled:
            continue
        caught = r.captures(s)
        for t in (0, 1):
            last = 10 if s.history[-1][2] % 2 == t else 0
            assert sum(p for _, seat, p in caught if seat % 2 == t) + last == s.points[t]
        assert all(p == r.card_points(s, c) > 0 for c, _, p in caught)
        score = r.hand_score(s, r.new_sheet())
        assert score.bidding_columns == (s.declarer % 2,)


def test_hand_facts():
    r = BalootRules()
    rng = random.Random(4)
    seen = set()
    for i in range(150):
        s, _ = play_random_hand(r, i % 4, rng)
        score = r.hand_score(s, r.new_sheet())
        f = r.hand_facts(s, score)
        seen.add(f["contract"])
        assert set(f) >= {"contract", "trump", "declarer", "level", "projects"}
        if f["contract"]:
            assert f["contract"] in (s.contract, "ashkal") and (f["contract"] == "ashkal") == (
                [k for _, _, k, _ in s.calls if k != "pass"][-1] == "ashkal")
            assert f["card_points_ns"] + f["card_points_we"] == HAND_TOTAL[s.contract]
            assert f["made"] == (score.winner == s.declarer % 2)
            assert (f["trump"] is None) == (s.contract == "sun")
        for v in f.values():
            assert v is None or isinstance(v, (str, int, bool))
    assert {None, "hokum", "sun", "ashkal"} <= seen


WORDS = ["pass", "hokum", "sun", "ashkal", "kawesh", "double", "triple", "four", "gahwa", "locked", "open", "sira",
         "fifty", "hundred", "400", "show", "ekka", "baloot", "AS", "10h", "JD", "KS-QS-JS", "QC", "7H", "x", "-", "2S",
         "spades", "H", ""]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10 ** 6), steps=st.integers(0, 60),
       keyword=st.sampled_from(["deal", "bids", "complete", "doubling", "trick", "score", "junk"]),
       label=st.sampled_from(["N", "W", "S", "E", "up", "X"]),
       words=st.lists(st.sampled_from(WORDS), max_size=4))
def test_property_any_written_item_reads_to_an_action_or_a_violation(seed, steps, keyword, label, words):
    r = BalootRules()
    s = r.initial_state(seed % 4)
    for k, (state, _) in enumerate(walk(r, seed, seed % 4)):
        s = state
        if k == steps:
            break
    got = r.read_item(s, keyword, 1, label, tuple(w for w in words if w))
    assert isinstance(got, (Action, Violation))
    if isinstance(got, Action) and got.seat != CHANCE:
        v = r.check(s, got)
        assert v is None or (isinstance(v, Violation) and v.rule.startswith("BAL-") and v.text)
        if v is None:
            assert got in r.legal_actions(s)


def test_example_match_validates():
    from jojotte_records.replay.files import check_file

    path = Path(__file__).resolve().parent.parent / "examples" / "baloot-match.jjt"
    result = check_file(str(path))
    assert result.ok
    (summary, hands), = result.sessions
    assert len(hands) == 4 and all(v.ok for v in hands)
    assert summary.sheet.scores == (14, 152) and summary.sheet.winners == (1,)
    r = BalootRules()
    kinds = {r.hand_facts(v.state, v.score)["contract"] for v in hands}
    assert kinds == {"hokum", "sun"}


def test_bal_proj_12_any_project_of_the_declared_kind_may_be_shown():
    # N holds two hundreds: four kings (KS KH KD KC) and the run KD QD JD TD 9D; he declares "hundred".
    # BAL-PROJ-12: he may show either of them, not only his best (four of a kind beats a run, BAL-PROJ-9)
    r = BalootRules()
    hands = {W: "AH QH 9H 8C 9C JC 8S", S: "AS QS 9S 7H 8D QC TC JH", E: "JS TS 7S TH 8H AD 7D AC",
             N: "KS KH KD KC QD JD TD 9D"}
    s = to_play(r, N, hands, "7C", "bids 1: W hokum, S pass, E pass, N pass, W pass")
    s = replay(r, s, "trick 1: W 9H, S 7H, E 8H, N hundred, N KH")  # N's KH wins: he leads trick 2
    assert s.best == N and s.leader == N
    assert r.check(s, Action(N, "show", melds=(M("KD QD JD TD 9D"),))) is None
    assert r.check(s, Action(N, "show", melds=(M("KS KH KD KC"),))) is None
    assert Action(N, "show", melds=(M("KD QD JD TD 9D"),)) in r.legal_actions(s)
    # a project of another kind is still refused, and the message names the declared kind and the shown cards only
    v = r.check(s, Action(N, "show", melds=(M("QD JD TD"),)))
    assert v.rule == "BAL-PROJ-12" and "hundred" in v.text and "KS" not in v.text


def test_opt_qaid_the_offending_team_loses_the_hand():
    # opt.qaid (§13): a hand with an irregularity of play is scored as lost by the offender's team; the other team
    # receives the contract's full game points plus its own shown projects, multiplied as in BAL-SCORE-12.
    r = BalootRules(BalootOptions.parse("qaid"))
    s = ex10_state(r)  # W hokum (WE declare), undoubled
    s = replay(r, s, "trick 1: W sira, W 9H, S fifty, S 7H, E 8H, N hundred, N JH")
    s = replay(r, s, "trick 2: N show TS TH TD TC")  # NS are the project team: a hundred (10 in Hokum)
    bad = Action(W, "play", card=C("AS"))  # W does not hold AS
    v = r.check(s, bad)
    assert v is not None and v.rule.startswith("BAL-PLAY-")
    score = r.irregularity_score(s, v, W)
    # WE (W's team) offended: NS receive 16 (Hokum) + 10 (their shown hundred), at level 1 multiplied by 1
    assert score.delta == (26, 0) and score.winner == 0 and not score.made
    assert {c.rule for c in score.credits} == {"opt.qaid"}
    # an error that is not an irregularity of play (a doubling call) is not scored by qaid
    assert r.irregularity_score(s, Violation("BAL-DBL-1", "x"), W) is None
    # off (the default): no score from the core, the sheet takes the written figures
    assert BalootRules().irregularity_score(s, v, W) is None


@pytest.mark.parametrize("variant", VARIANT_TEXTS)
def test_every_card_play_is_checked_legal_exactly_when_listed(variant):
    """`check`'s way for a card (`_card_legal`, without listing the actions) against `legal_actions`: every seat, every
    card of the pack, with no word, Ekka or Baloot, in every state of random hands (Ekka and Baloot included)."""
    r = rules(variant)
    seen = set()
    for seed in range(12):
        for s, _ in walk(r, seed, seed % 4):
            if s.phase != "play":
                continue
            acts = set(r.legal_actions(s))
            for seat in range(4):
                for c in BALOOT_PACK.cards:
                    for word in ("", "ekka", "baloot"):
                        b = Action(seat, "play", card=c, announce=word)
                        assert (r.check(s, b) is None) == (b in acts), b
                        if b in acts:
                            seen.add(word)
            seat = r.current_player(s)
            for c in iter_cards(s.hands[seat]):  # a field no card play has
                assert r.check(s, Action(seat, "play", card=c, suit=c >> 4)) is not None
    assert "" in seen and ("ekka" in seen or "baloot" in seen)


def test_trick_winner_is_the_first_strongest_card():
    """BAL-PLAY-4 through `strength`: the winner is the first card of the highest strength (trumps above the led suit,
    other suits nothing), for every trump and random tricks of one to four cards."""
    rng = random.Random(4)
    for _ in range(20000):
        cards = rng.sample(BALOOT_PACK.cards, rng.randint(1, 4))
        trump = rng.randrange(-1, 4)
        st_ = [strength(c, trump, cards[0] >> 4) for c in cards]
        assert trick_winner(cards, trump) == st_.index(max(st_))
