"""The Pitch rules core (spec `pitch.md`): cards and orders, the deal, bidding, the draw, play, scoring,
the game to 52, every point-count variant, dirty, reverse and the five-handed game.

Every ``PIT-…`` rule ID of the spec is cited here (`test_every_pit_rule_id_is_cited`); the worked
examples of §15 are reproduced; a random playout per variant holds ``check`` to ``legal_actions``.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from cards_helpers import C, M, names

from jojotte_records.cards import FULL_PACK_WITH_JOKERS, card_name, iter_cards, mask_of
from jojotte_records.errors import IllegalActionError
from jojotte_records.rules.base import CHANCE, VARIANTS, Action, find_variant
from jojotte_records.rules.pitch import (
    AUCTION,
    BURN,
    CALL,
    DISCARD,
    DONE,
    MOON,
    PLAY,
    REFILL,
    REMAINDER,
    TRUMP,
    PitchOptions,
    PitchRules,
    PitchSheet,
    PitchState,
    deal_action,
    modest_choice,
    play_random_hand,
    refill_action,
    simulate_game,
)
from jojotte_records.rules.pitch_cards import POINT_VARIANTS, X1, X2, describe_order, pitch_pack, trump_table

SPEC = Path(__file__).resolve().parent.parent.parent / "shared" / "rules" / "pitch.md"
N, E, S, W = 0, 1, 2, 3
SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3


def rules(text: str = "") -> PitchRules:
    return PitchRules(PitchOptions.parse(text))


def fill_deal(r: PitchRules, wanted: dict[int, str], avoid: int = 0) -> Action:
    """A deal giving each seat the named cards, completed with other cards in pack order (none from ``avoid``)."""
    hands = [M(wanted.get(seat, "")) for seat in range(r.seats)]
    used = 0
    for h in hands:
        used |= h
    spare = [c for c in r.pack.cards if not (used | avoid) >> c & 1]
    for seat in range(r.seats):
        while hands[seat].bit_count() < r.dealt_per_seat:
            hands[seat] |= 1 << spare.pop(0)
    return Action(CHANCE, "deal", cards=tuple(hands))


def run(r: PitchRules, s: PitchState, *acts: Action) -> PitchState:
    for a in acts:
        s = r.apply(s, a)
    return s


def play_state(r: PitchRules, live: dict[int, str], trump: int, bidder: int, contract: int = 4) -> PitchState:
    """A state at the first lead: the live cards given, everything else dead."""
    hands = tuple(M(live.get(i, "")) for i in range(r.seats))
    union = 0
    for h in hands:
        union |= h
    s = r.initial_state(dealer=(bidder - 1) % r.seats)
    s = s._replace(phase=PLAY, hands=hands, dead=r.pack.mask & ~union, high=contract, contract=contract, bidder=bidder,
                   trump=trump, partner=(bidder + 2) % 4 if r.seats == 4 else -1)
    return r._after_draw(s)


def plays(r: PitchRules, s: PitchState, cards: str) -> PitchState:
    for t in cards.split():
        s = r.apply(s, Action(r.current_player(s), "play", card=C(t)))
    return s


def violation(r: PitchRules, s: PitchState, a: Action) -> str | None:
    v = r.check(s, a)
    return v.rule if v else None


# --- §2 cards and ranking -----------------------------------------------------------------

def test_pit_deck_1_the_pack_has_54_cards_with_two_jokers():
    r = rules()
    assert len(r.pack) == 54 and r.pack is FULL_PACK_WITH_JOKERS
    assert X1 in r.pack and X2 in r.pack


def test_pit_deck_2_and_3_the_base_trump_set_and_order():
    t = trump_table(10, HEARTS)
    assert names(t.mask) and len(t.order) == 16
    assert describe_order(t) == "AH KH QH JH JD X X TH 9H 8H 7H 6H 5H 4H 3H 2H"
    assert t.is_trump(C("JD")) and not t.is_trump(C("JC")) and not t.is_trump(C("QD"))
    for suit in range(4):  # jokers are trumps whatever suit is named
        assert trump_table(10, suit).is_trump(X1) and trump_table(10, suit).is_trump(X2)
    assert [card_name(c) for c in trump_table(10, SPADES).order[3:5]] == ["JS", "JC"]  # the off-jack of spades


@pytest.mark.parametrize("trick, winner", [
    ("X1 X2", 0), ("X2 X1", 0),  # PIT-DECK-4: the earlier joker wins
    ("TH X2", 1), ("JD X1", 0), ("JH JD", 0), ("2H 3H", 1), ("KH AH", 1),
])
def test_pit_deck_4_trick_winners_base_order(trick, winner):
    t = trump_table(10, HEARTS)
    assert t.winner_index(tuple(C(x) for x in trick.split())) == winner


def test_pit_deck_4_marked_jokers():
    t = trump_table(10, HEARTS, jokers="marked")
    assert t.winner_index((X2, X1)) == 1 and t.winner_index((X1, X2)) == 0


@pytest.mark.parametrize("points, suit, order", [
    (13, SPADES, "AS KS QS JS JC X X TS 9S 8S 7S 6S 5S 4S 3S 3C 2S"),
    (11, HEARTS, "AH KH QH JH JD X X TH 9H 8H 7H 6H 5H 4H 3H 3D 2H"),
    (16, SPADES, "AS AC KS QS JS JC X X TS TC 9S 8S 7S 6S 5S 4S 3S 3C 2S 2C"),
    (15, DIAMONDS, "AD AH KD QD JD JH X X TD TH 9D 8D 7D 6D 5D 4D 3D 3H 2D 2H"),
    (14, CLUBS, "AC AS KC QC JC JS X X TC TS 9C 8C 7C 6C 5C 4C 3C 3S 2C 2S"),
])
def test_pit_deck_5_and_pit_var_2_variant_orders(points, suit, order):
    assert describe_order(trump_table(points, suit)) == order


# --- §11 the point-count variants ------------------------------------------------------------

VARIANT_TABLE = [
    # N, trump-set size, point cards with hearts trump (value)
    (10, 16, {"AH": 1, "JH": 1, "JD": 1, "X1": 1, "X2": 1, "TH": 1, "2H": 1, "3H": 3}),
    (5, 16, {"AH": 1, "JH": 1, "JD": 1, "TH": 1, "2H": 1}),
    (7, 16, {"AH": 1, "JH": 1, "JD": 1, "X1": 1, "X2": 1, "TH": 1, "2H": 1}),
    (8, 16, {"AH": 1, "JH": 1, "JD": 1, "TH": 1, "2H": 1, "3H": 3}),
    (13, 17, {"AH": 1, "JH": 1, "JD": 1, "X1": 1, "X2": 1, "TH": 1, "2H": 1, "3H": 3, "3D": 3}),
    (11, 17, {"AH": 1, "JH": 1, "JD": 1, "TH": 1, "2H": 1, "3H": 3, "3D": 3}),
    (16, 20, {"AH": 1, "AD": 1, "JH": 1, "JD": 1, "X1": 1, "X2": 1, "TH": 1, "TD": 1, "2H": 1, "2D": 1, "3H": 3, "3D": 3}),
    (15, 20, {"AH": 1, "AD": 1, "JH": 1, "JD": 1, "X1": 1, "X2": 1, "TH": 1, "TD": 1, "2H": 1, "3H": 3, "3D": 3}),
    (14, 20, {"AH": 1, "AD": 1, "JH": 1, "JD": 1, "TH": 1, "TD": 1, "2H": 1, "2D": 1, "3H": 3, "3D": 3}),
]


@pytest.mark.parametrize("points, size, values", VARIANT_TABLE)
def test_pit_var_1_point_cards_of_every_variant(points, size, values):
    t = trump_table(points, HEARTS)
    assert len(t.order) == size and t.total == points
    got = {card_name(c): t.points[c] for c in range(80) if t.points[c]}
    assert got == values
    assert all(t.is_trump(C(n)) for n in values)


def test_pit_var_1_uncounted_remove():
    # jokers worth 0 leave the pack; an off-card worth 0 stays in its own suit (opt.uncounted = REMOVE)
    assert len(pitch_pack(5, "remove")) == 52 and len(pitch_pack(7, "remove")) == 54
    t = trump_table(15, HEARTS, uncounted="remove")
    assert not t.is_trump(C("2D")) and t.is_trump(C("3D")) and t.total == 15
    t = trump_table(14, HEARTS, uncounted="remove")
    assert not t.is_trump(X1) and len(t.order) == 18
    r = rules("points=8; uncounted=REMOVE")
    s = r.initial_state(0)
    bad = fill_deal(rules("points=8"), {N: "X1"})
    assert violation(r, s, bad) == "PIT-DECK-1"


def test_pit_var_3_other_off_cards_are_not_trumps():
    t = trump_table(13, HEARTS)
    for n in ("AD", "TD", "2D", "KD"):
        assert not t.is_trump(C(n))
    assert not trump_table(10, HEARTS).is_trump(C("3D"))


@pytest.mark.parametrize("points, auto, expected", [
    (10, "two_and_three", "3H 2H"), (5, "two_and_three", "2H"), (7, "two_and_three", "2H"),
    (16, "two_and_three", "3H 2H"), (16, "two_only", "2H"), (16, "three_only", "3H"),
    (16, "two_three_and_off", "3H 2H 3D 2D"), (15, "two_three_and_off", "3H 2H 3D"),
])
def test_pit_var_4_and_pit_pts_3_automatic_cards(points, auto, expected):
    t = trump_table(points, HEARTS, auto=auto)
    assert t.auto == M(expected)


@pytest.mark.parametrize("points", POINT_VARIANTS)
def test_pit_var_5_bidding_limits(points):
    r = rules(f"points={points}")
    s = run(r, r.initial_state(3), r.chance_action(r.initial_state(3), random.Random(1)))
    bids = [a.info for a in r.legal_actions(s) if a.kind == "bid"]
    assert bids == list(range(4, points + 1)) and r.legal_actions(s)[-1].kind == "moon"
    assert violation(r, s, Action(N, "bid", info=points + 1)) == "PIT-BID-2"
    assert violation(r, s, Action(N, "bid", info=3)) == "PIT-BID-2"
    assert [a.info for a in rules(f"points={points}; min_bid=2").legal_actions(s) if a.kind == "bid"][0] == 2


def test_pit_var_7_reverse_order():
    t = trump_table(10, HEARTS, reverse=True)
    assert describe_order(t) == "2H 3H 4H 5H 6H 7H 8H 9H TH X X JD JH QH KH AH"
    assert t.winner_index((C("AH"), C("2H"))) == 1
    assert t.winner_index((X1, X2)) == 1 and t.winner_index((X2, X1)) == 1  # the later joker wins
    assert t.points[C("3H")] == 3  # point values unchanged
    m = trump_table(10, HEARTS, reverse=True, jokers="marked")
    assert m.winner_index((X1, X2)) == 1


# --- §3 the deal -----------------------------------------------------------------------------

def test_pit_deal_4_nine_each_and_a_stock_of_18():
    r = rules()
    s0 = r.initial_state(W)
    s = r.apply(s0, r.chance_action(s0, random.Random(3)))
    assert s.phase == AUCTION and [h.bit_count() for h in s.hands] == [9] * 4 and s.stock.bit_count() == 18
    a = r.chance_action(s0, random.Random(3))
    short = a._replace(cards=(a.cards[0] & (a.cards[0] - 1),) + a.cards[1:])
    assert violation(r, s0, short) == "PIT-DEAL-4"
    twice = a._replace(cards=(a.cards[0], a.cards[1] ^ (a.cards[1] & -a.cards[1]) | (a.cards[0] & -a.cards[0])) + a.cards[2:])
    assert violation(r, s0, twice) == "PIT-DEAL-4"
    assert violation(r, s0, Action(N, "bid", info=5)) == "PIT-DEAL-4"


def test_pit_deal_1_and_2_partnerships_and_clockwise_calls():
    r = rules()
    s = run(r, r.initial_state(W), fill_deal(r, {}))
    assert [r.current_player(s)] == [N]  # left of the dealer W
    s = run(r, s, Action(N, "pass"), Action(E, "bid", info=5))
    assert r.current_player(s) == S
    s = run(r, s, Action(S, "pass"), Action(W, "pass"), Action(E, "name", suit=SPADES))
    assert r.bidding_seats(s) == (E, W) and r.columns() == 2 and r.column_of(W) == r.column_of(E) == 1


def test_pit_deal_3_the_deal_passes_left():
    r = rules()
    assert [r.next_dealer(d) for d in (N, E, S, W)] == [E, S, W, N]
    assert rules("players=5").next_dealer(4) == 0


# --- §4 bidding and trump --------------------------------------------------------------------

def auction(r: PitchRules, dealer: int = W) -> PitchState:
    return run(r, r.initial_state(dealer), fill_deal(r, {}))


@pytest.mark.parametrize("calls, bad, rule", [
    ([], Action(E, "bid", info=5), "PIT-BID-1"),  # N speaks first
    ([], Action(N, "double"), "PIT-BID-2"),
    ([], Action(N, "bid", info=11), "PIT-BID-2"),
    ([], Action(N, "bid", info=3), "PIT-BID-2"),
    ([Action(N, "bid", info=6)], Action(E, "bid", info=6), "PIT-BID-3"),  # no equal bid
    ([Action(N, "bid", info=6)], Action(E, "bid", info=5), "PIT-BID-3"),
    ([Action(N, "moon")], Action(E, "moon"), "PIT-BID-3"),
    ([Action(N, "moon")], Action(E, "bid", info=10), "PIT-BID-3"),  # MOON ranks above N
    ([Action(N, "pass")] * 1, Action(N, "pass"), "PIT-BID-1"),  # each player speaks exactly once
])
def test_pit_bid_illegal_calls(calls, bad, rule):
    r = rules()
    s = run(r, auction(r), *calls)
    assert violation(r, s, bad) == rule
    with pytest.raises(IllegalActionError):
        r.apply(s, bad)


def test_pit_bid_1_dealer_speaks_last_and_pit_bid_5_highest_bidder_wins():
    r = rules()
    s = run(r, auction(r), Action(N, "bid", info=5), Action(E, "pass"), Action(S, "bid", info=6))
    assert r.current_player(s) == W
    s = r.apply(s, Action(W, "pass"))
    assert s.phase == TRUMP and s.bidder == S and s.contract == 6


def test_pit_bid_4_the_dealer_is_stuck():
    # worked example 4: N, E, S pass; W (dealer) records PASS -> W's contract is 4
    r = rules()
    s = run(r, auction(r), Action(N, "pass"), Action(E, "pass"), Action(S, "pass"))
    assert {a.kind for a in r.legal_actions(s)} == {"pass", "bid", "moon"}
    passed = r.apply(s, Action(W, "pass"))
    bid4 = r.apply(s, Action(W, "bid", info=4))
    assert (passed.bidder, passed.contract) == (bid4.bidder, bid4.contract) == (W, 4)
    assert r.apply(s, Action(W, "bid", info=7)).contract == 7  # he may bid higher


def test_pit_bid_6_the_bidder_names_any_suit():
    r = rules()
    s = run(r, auction(r), Action(N, "bid", info=5), *[Action(p, "pass") for p in (E, S, W)])
    assert s.phase == TRUMP and len(r.legal_actions(s)) == 4
    assert violation(r, s, Action(E, "name", suit=HEARTS)) == "PIT-BID-6"
    assert violation(r, s, Action(N, "name", suit=7)) == "PIT-BID-6"
    assert violation(r, s, Action(N, "name", suit=CLUBS)) is None


# --- §5 discard, refill, remainder, burn -----------------------------------------------------

def to_discard(r: PitchRules, deal: Action, trump: int = HEARTS, bidder: int = S, contract: int = 6) -> PitchState:
    s = run(r, r.initial_state(W), deal)
    for p in (N, E, S, W):
        s = r.apply(s, Action(p, "bid", info=contract) if p == bidder else Action(p, "pass"))
    return r.apply(s, Action(bidder, "name", suit=trump))


def test_pit_draw_1_and_2_discards():
    r = rules()
    s = to_discard(r, fill_deal(r, {N: "AH 2H JD X1", S: "KH"}))
    assert s.phase == DISCARD and r.current_player(s) == N
    nontrumps = s.hands[N] & ~M("AH 2H JD X1")
    assert r.legal_actions(s) == (Action(N, "discard", cards=(nontrumps,)),)
    keep_one = nontrumps & (nontrumps - 1)
    assert violation(r, s, Action(N, "discard", cards=(keep_one,))) == "PIT-DRAW-1"
    assert violation(r, s, Action(N, "discard", cards=(nontrumps | M("2H"),))) == "PIT-DRAW-2"
    assert violation(r, s, Action(E, "discard", cards=(s.hands[E],))) == "PIT-DRAW-1"
    assert violation(r, s, Action(N, "discard", cards=(M("KH"),))) == "PIT-DRAW-1"  # not in his hand
    r2 = rules("trump_discard=ALLOWED_DEAD")
    s2 = to_discard(r2, fill_deal(r2, {N: "AH 2H JD X1"}))
    assert violation(r2, s2, Action(N, "discard", cards=(nontrumps | M("2H"),))) is None
    assert len(r2.legal_actions(s2)) == 16
    after = r2.apply(s2, Action(N, "discard", cards=(nontrumps | M("2H"),)))
    assert after.dead >> C("2H") & 1 and after.hands[N] == M("AH JD X1")


def test_pit_draw_1_after_discard_moves_the_cards_to_the_dead_and_passes_the_turn():
    # PIT-DRAW-1, PIT-PTS-4: the discarded cards leave the discarder's hand (the others' hands untouched), join the
    # dead cards, and one more discard is made; the same answer `advance` gives for that discard
    hands = (M("AH 2H JD 4C 5D"), M("KH 3S"), M("QH"), M("9C"))
    out = PitchRules.after_discard(hands, M("7S"), 1, N, M("4C 5D"))
    assert out == ((M("AH 2H JD"), M("KH 3S"), M("QH"), M("9C")), M("7S 4C 5D"), 2)
    r = rules()
    s = to_discard(r, fill_deal(r, {N: "AH 2H JD X1", S: "KH"}))
    a = r.legal_actions(s)[0]
    after = r.apply(s, a)
    assert (after.hands, after.dead, after.step) == PitchRules.after_discard(s.hands, s.dead, s.step, N, a.cards[0])
    assert after.hands[N] == M("AH 2H JD X1") and after.dead == s.dead | a.cards[0] and after.step == 1


def discard_all(r: PitchRules, s: PitchState) -> PitchState:
    while s.phase == DISCARD:
        s = r.apply(s, r.legal_actions(s)[0])
    return s


def test_pit_draw_3_and_4_refill_to_six():
    r = rules()
    # N 2 live, E 0, S 7, W 1 live after the discard; the stock holds the remaining 6 trumps
    deal = fill_deal(r, {N: "AH KH", S: "QH JH TH 9H 8H 7H 6H", W: "5H"},
                     avoid=M("4H 3H 2H JD X1 X2"))
    stock_trumps = M("4H 3H 2H JD X1 X2")
    s = discard_all(r, to_discard(r, deal))
    assert s.phase == REFILL and r.current_player(s) == CHANCE and s.stock & stock_trumps == stock_trumps
    assert r._refill_counts(s) == [4, 6, 0, 5]  # from the dealer's left: N, E, S, W
    order = list(iter_cards(stock_trumps)) + [c for c in iter_cards(s.stock & ~stock_trumps)]
    a = refill_action(r, s, order)
    assert [m.bit_count() for m in a.cards] == [4, 6, 0, 5]
    wrong = a._replace(cards=(a.cards[0] & (a.cards[0] - 1),) + a.cards[1:])
    assert violation(r, s, wrong) == "PIT-DRAW-3"
    stolen = a._replace(cards=(a.cards[0] ^ (a.cards[0] & -a.cards[0]) | M("AH"),) + a.cards[1:])
    assert violation(r, s, stolen) == "PIT-DRAW-3"  # AH is not in the stock
    s2 = r.apply(s, a)
    assert s2.hands[N] == M("AH KH") | (a.cards[N] & stock_trumps)
    assert s2.dead & a.cards[E] == a.cards[E] & ~stock_trumps  # non-trumps drawn are dead at once
    assert s2.phase == REMAINDER


def test_pit_draw_3_stock_runs_out():
    r = rules()
    s = discard_all(r, to_discard(r, fill_deal(r, {})))
    s = s._replace(stock=M("2S 3S 4S 5S 6S"))  # only five cards left: later players get fewer
    counts = r._refill_counts(s)
    assert sum(counts) == 5 and counts[N] == 5 and counts[W] == 0


def test_pit_draw_5_and_6_the_remainder():
    r = rules()
    s = discard_all(r, to_discard(r, fill_deal(r, {S: "AH KH QH JH TH 9H"}, avoid=M("2H 3H"))))
    s = r.apply(s, r.chance_action(s, random.Random(0)))
    assert s.phase == REMAINDER and r.current_player(s) == S
    assert {a.info for a in r.legal_actions(s)} == {S, N}
    assert violation(r, s, Action(S, "remainder", info=E)) == "PIT-DRAW-5"
    assert violation(r, s, Action(S, "remainder", info=-1)) == "PIT-DRAW-5"
    assert violation(r, s, Action(N, "remainder", info=N)) == "PIT-DRAW-5"
    rest = s.stock
    t = r.table(HEARTS)
    to_partner = r.apply(s, Action(S, "remainder", info=N))
    assert to_partner.remainder_to == N and to_partner.stock == 0
    assert to_partner.hands[N] & rest == rest & t.mask  # PIT-DRAW-6: he keeps the trumps
    assert to_partner.dead & rest == rest & ~t.mask


def burn_state(r: PitchRules) -> PitchState:
    s = discard_all(r, to_discard(r, fill_deal(r, {S: "AH KH QH JH TH 9H 8H 2H"})))
    s = r.apply(s, r.chance_action(s, random.Random(0)))
    if s.phase == REMAINDER:
        s = r.apply(s, Action(S, "remainder", info=N))
    return s


def test_pit_draw_7_and_8_burning():
    r = rules()
    s = burn_state(r)
    assert s.phase == BURN and r.current_player(s) == S and s.hands[S].bit_count() == 8
    assert violation(r, s, Action(S, "play", card=C("AH"))) == "PIT-DRAW-8"
    assert violation(r, s, Action(S, "burn", card=C("5S"))) == "PIT-DRAW-7"
    other = next(p for p in (N, E, W) if s.hands[p].bit_count() <= 6)
    assert violation(r, s, Action(other, "burn", card=next(iter_cards(s.hands[other] or 1)))) == "PIT-DRAW-7"
    assert violation(r, s, Action(S, "burn", card=C("AH"))) is None  # point cards included (opt.burn ANY)
    s = run(r, s, Action(S, "burn", card=C("AH")), Action(S, "burn", card=C("2H")))
    assert s.phase == PLAY and all(h.bit_count() <= 6 for h in s.hands)  # PIT-DRAW-8
    assert s.dead & M("AH 2H") == M("AH 2H")
    r2 = rules("burn=NON_POINT_FIRST")
    s2 = burn_state(r2)
    assert violation(r2, s2, Action(S, "burn", card=C("AH"))) == "PIT-DRAW-7"
    assert {card_name(a.card) for a in r2.legal_actions(s2)} == {"KH", "QH", "9H", "8H"}


# --- §6 play -----------------------------------------------------------------------------------

def test_pit_play_1_only_live_cards():
    r = rules()
    s = play_state(r, {S: "AH KH", W: "QH", N: "JH", E: "9H"}, HEARTS, S)
    assert violation(r, s, Action(S, "play", card=C("AS"))) == "PIT-PLAY-1"  # a non-trump is dead
    assert violation(r, s, Action(S, "play", card=C("QH"))) == "PIT-PLAY-1"  # W holds it
    r.check(s, Action(S, "play", card=C("AH")))


@pytest.mark.parametrize("live, leader", [
    ({S: "AH", W: "QH"}, S),
    ({W: "QH", N: "JH"}, W),  # the bidder S is out: first active clockwise from him
    ({N: "JH"}, N),
])
def test_pit_play_2_first_lead(live, leader):
    r = rules()
    s = play_state(r, live, HEARTS, S)
    assert r.current_player(s) == leader
    wrong = next(p for p in (N, E, S, W) if p != leader)
    assert violation(r, s, Action(wrong, "play", card=C("QH"))) == "PIT-PLAY-2"


def test_pit_play_3_out_players_are_skipped():
    r = rules()
    s = play_state(r, {S: "AH KH", N: "JH 9H", E: "8H"}, HEARTS, S)
    s = plays(r, s, "AH")
    assert r.current_player(s) == N  # W is out
    assert violation(r, s, Action(W, "play", card=C("QH"))) == "PIT-PLAY-3"
    s = plays(r, s, "JH 8H")
    assert len(s.history) == 1 and len(s.history[0][1]) == 3  # PIT-PLAY-7: three cards


def test_pit_play_4_any_live_card_is_legal():
    r = rules()
    s = play_state(r, {S: "AH 2H X1", W: "QH 5H"}, HEARTS, S)
    s = plays(r, s, "2H")
    assert {card_name(a.card) for a in r.legal_actions(s)} == {"QH", "5H"}  # no obligation to beat


@pytest.mark.parametrize("trump, cards, winner", [
    (HEARTS, "AH QH 7H 4H", 0), (HEARTS, "KH 2H X1 X2", 0), (HEARTS, "JD JH 9H", 1),
    (SPADES, "JC X2 TS 2S", 0), (SPADES, "2S 3S", 1), (CLUBS, "X1 TC", 0),
])
def test_pit_play_5_highest_trump_wins(trump, cards, winner):
    assert trump_table(10, trump).winner_index(tuple(C(x) for x in cards.split())) == winner


def test_pit_play_6_and_7_the_lead_passes_to_the_left_of_an_out_winner():
    r = rules()
    s = play_state(r, {S: "AH 5H", W: "KH", N: "2H", E: "3H 4H"}, HEARTS, S)
    s = plays(r, s, "5H KH 2H 3H")  # W wins with his last card and is out
    assert s.history[-1][2] == W and s.leader == E and r.current_player(s) == E
    assert violation(r, s, Action(S, "play", card=C("AH"))) == "PIT-PLAY-6"
    s = plays(r, s, "4H AH")
    assert s.phase == DONE and r.is_terminal(s) and r.legal_actions(s) == ()
    assert violation(r, s, Action(S, "play", card=C("AH"))) == "PIT-PLAY-7"


# --- §7 points, §8 scoring -----------------------------------------------------------------------

def test_pit_pts_1_to_5_points_and_their_owners():
    r = rules()
    s = play_state(r, {S: "AH 3H", W: "JH", N: "2H", E: "KH"}, HEARTS, S)
    # trick 1: S AH, W JH, N 2H, E KH: S wins A and J (PIT-PTS-2); 2H is automatic for N (PIT-PTS-3)
    s = plays(r, s, "AH JH 2H KH 3H")
    assert s.taken == (1, 0, 5, 0)  # PIT-PTS-1: 3H alone in trick 2 -> S, 3 points
    score = r.score_hand(s)
    assert (score.bidding_points, score.other_points) == (6, 0)  # N and S are partners


def test_pit_pts_5_conservation_with_dead_points():
    r = rules()
    s = play_state(r, {S: "AH 3H", W: "JH", N: "2H", E: "KH"}, HEARTS, S)
    s = plays(r, s, "AH JH 2H KH 3H")
    score = r.score_hand(s)
    assert score.dead_points == r.table(HEARTS).mask_points(M("JD X1 X2 TH")) == 4  # PIT-PTS-4
    assert score.bidding_points + score.other_points + score.dead_points == 10  # PIT-PTS-5


@pytest.mark.parametrize("contract, tb, to, made_score, opponents, delta", [
    (6, 6, 4, "bid", "points_won", (6, 4)),  # PIT-SCORE-1: T_b >= b is made; PIT-SCORE-2
    (6, 9, 1, "bid", "points_won", (6, 1)),
    (6, 9, 1, "points_won", "points_won", (9, 1)),
    (7, 6, 4, "bid", "points_won", (-7, 4)),  # PIT-SCORE-3, PIT-SCORE-4
    (7, 6, 4, "bid", "none", (-7, 0)),
    (4, 0, 10, "bid", "points_won", (-4, 10)),
])
def test_pit_score_1_to_4(contract, tb, to, made_score, opponents, delta):
    r = rules(f"made_score={made_score}; opponents_score={opponents}")
    h = r.hand_result(contract, N, (N, S), tb, to)
    assert h.delta == delta and h.made == (tb >= contract)
    rules_cited = {c.rule for c in h.credits}
    assert ("PIT-SCORE-2" if h.made else "PIT-SCORE-3") in rules_cited


def test_pit_score_5_scores_may_go_negative_and_worked_example_2():
    r = rules()
    h = r.hand_result(7, N, (N, S), 6, 4, before=(47, 10))
    sheet = PitchSheet((47, 10)).add(h)
    assert sheet.scores == (40, 14) and not sheet.over  # example 2: N–S 47 − 7 = 40; E–W +4
    neg = PitchSheet.empty(2).add(r.hand_result(5, E, (E, W), 2, 8))
    assert neg.scores == (8, -5)


# --- §9 moon, §10 game ---------------------------------------------------------------------------

@pytest.mark.parametrize("before, tb, option, after, over, winners", [
    (31, 10, "stay_zero", 52, True, (0,)),  # example 3: 31 -> 52, game won
    (-8, 10, "stay_zero", 0, False, ()),  # -8 -> 0
    (0, 10, "stay_zero", 0, False, ()),  # 0 stays 0
    (0, 10, "to_52", 52, True, (0,)),
    (45, 9, "stay_zero", 45, True, (1,)),  # PIT-MOON-4: any failure loses the game
])
def test_pit_moon_1_to_4(before, tb, option, after, over, winners):
    r = rules(f"moon_at_zero={option}")
    h = r.hand_result(MOON, N, (N, S), tb, 10 - tb, before=(before, 20))
    assert h.moon and h.delta[1] == 0  # the other team scores nothing in a moon hand
    sheet = PitchSheet((before, 20)).add(h)
    assert sheet.scores[0] == after and sheet.over == over and sheet.winners == winners
    assert h.moon_failed == (tb != 10)


def test_pit_moon_2_fails_when_a_point_card_is_dead():
    r = rules()
    s = play_state(r, {N: "AH JH JD TH 3H 2H"}, HEARTS, N, MOON)  # the jokers are dead
    s = plays(r, s, "AH JH JD TH 3H 2H")
    h = r.score_hand(s, (10, 0))
    assert h.bidding_points == 8 and h.dead_points == 2 and h.moon_failed


def test_pit_game_1_to_4():
    assert PitchSheet.empty(2).scores == (0, 0)  # PIT-GAME-1
    r = rules()
    sheet = PitchSheet((48, 40)).add(r.hand_result(4, N, (N, S), 5, 5))  # PIT-GAME-2
    assert sheet.over and sheet.winners == (0,)
    both = PitchSheet((50, 50)).add(r.hand_result(4, E, (E, W), 4, 6))  # PIT-GAME-3: both reach 52
    assert both.scores == (56, 54) and both.winners == (1,)
    lost = PitchSheet((51, 0)).add(r.hand_result(MOON, N, (N, S), 9, 1))  # PIT-GAME-4
    assert lost.winners == (1,) and lost.over
    with pytest.raises(ValueError):
        lost.add(r.hand_result(4, N, (N, S), 5, 5))


# --- §15 worked example 1, the full hand ------------------------------------------------------------

EXAMPLE_1_LIVE = {S: "AH KH TH 5H 3H JD", W: "QH 2H", N: "JH X1 7H", E: "X2 9H 8H 6H 4H"}


def example_1(r: PitchRules) -> PitchState:
    trumps = M("AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H JD X1 X2")
    deal = fill_deal(r, EXAMPLE_1_LIVE, avoid=trumps)
    s = run(r, r.initial_state(W), deal)
    s = run(r, s, Action(N, "bid", info=5), Action(E, "pass"), Action(S, "bid", info=6), Action(W, "pass"))
    assert (s.bidder, s.contract) == (S, 6)
    s = r.apply(s, Action(S, "name", suit=HEARTS))
    s = discard_all(r, s)
    s = r.apply(s, r.chance_action(s, random.Random(7)))
    s = r.apply(s, Action(S, "remainder", info=S))
    assert s.phase == PLAY and s.hands == tuple(M(EXAMPLE_1_LIVE[p]) for p in (N, E, S, W))
    s = plays(r, s, "AH QH 7H 4H")  # T1
    s = plays(r, s, "KH 2H X1 X2")  # T2
    assert s.hands[W] == 0
    s = plays(r, s, "JD JH 9H")  # T3
    assert s.history[-1][2] == N and r.current_player(s) == E  # T4: N is out, E leads
    s = plays(r, s, "8H 3H")  # T4
    s = plays(r, s, "6H TH")  # T5
    s = plays(r, s, "5H")  # T6, S alone
    assert s.phase == DONE and [w for _, _, w in s.history] == [S, S, N, E, S, S]
    return s


def test_worked_example_1_full_hand():
    r = rules()
    h = r.score_hand(example_1(r))
    assert (h.bidding_points, h.other_points) == (9, 1) and h.made and h.delta == (6, 1)
    assert rules("made_score=POINTS_WON").score_hand(example_1(rules("made_score=POINTS_WON"))).delta == (9, 1)


def test_worked_example_1_dirty_pit_var_6():
    r = rules("dirty")
    h = r.score_hand(example_1(r))
    assert (h.bidding_points, h.other_points) == (7, 3) and h.made


# --- §15 example 5: the 16-point game, spades trump ---------------------------------------------------

def test_worked_example_5_sixteen_point_ranking():
    t = trump_table(16, SPADES)
    assert {card_name(c) for c in t.order} >= {"AC", "JC", "TC", "3C", "2C"}
    assert t.winner_index((C("TS"), C("TC"), C("KS"))) == 2
    assert t.winner_index((C("TC"), C("9S"))) == 0
    assert t.points[C("3C")] == 3


# --- §13 the five-handed game -----------------------------------------------------------------------

def five_after_bid(r: PitchRules, deal: Action, bidder: int = 0, contract: int = 5) -> PitchState:
    s = run(r, r.initial_state(4), deal)  # dealer seat 4 (E): seat 0 speaks first
    for p in range(5):
        s = r.apply(s, Action(p, "bid", info=contract) if p == bidder else Action(p, "pass"))
    return r.apply(s, Action(bidder, "name", suit=HEARTS))


def test_pit_five_1_2_3_deal_of_ten_and_bidding():
    r = rules("players=5")
    s0 = r.initial_state(4)
    s = r.apply(s0, r.chance_action(s0, random.Random(2)))
    assert [h.bit_count() for h in s.hands] == [10] * 5 and s.stock.bit_count() == 4  # PIT-FIVE-2
    assert r.columns() == 5 and r.column_of(3) == 3  # PIT-FIVE-1: each for himself
    assert r.current_player(s) == 0
    assert violation(r, s, Action(1, "pass")) == "PIT-FIVE-3"
    a = r.chance_action(s0, random.Random(2))
    assert violation(r, s0, a._replace(cards=a.cards[:4] + (a.cards[4] & (a.cards[4] - 1),))) == "PIT-FIVE-2"
    s = run(r, s, *[Action(p, "pass") for p in range(5)])
    assert (s.bidder, s.contract) == (4, 4)


def test_pit_five_4_called_card_and_secret_partner():
    r = rules("players=5")
    s = five_after_bid(r, fill_deal(r, {0: "KH", 2: "AH"}))
    assert s.phase == CALL
    assert violation(r, s, Action(0, "call", card=C("KH"))) == "PIT-FIVE-4"  # in his own hand
    assert violation(r, s, Action(1, "call", card=C("AH"))) == "PIT-FIVE-4"
    s = r.apply(s, Action(0, "call", card=C("AH")))
    assert s.partner == 2 and r.bidding_seats(s) == (0, 2)


def test_pit_five_5_and_6_called_card_in_the_blind_worked_example_6():
    r = rules("players=5")
    deal = fill_deal(r, {0: "KH QH"}, avoid=M("AH"))
    blind_free = deal.cards
    # put AH in the blind: the four cards no seat holds
    s = five_after_bid(r, Action(CHANCE, "deal", cards=blind_free))
    assert s.stock >> C("AH") & 1
    s = r.apply(s, Action(0, "call", card=C("AH")))
    assert s.partner == -1 and r.bidding_seats(s) == (0,) and s.hands[0] >> C("AH") & 1 and s.stock == 0
    assert violation(r, s, Action(CHANCE, "draw", cards=(0,) * 5)) == "PIT-FIVE-6"  # no refill
    s = discard_all(r, s)
    assert s.phase in (BURN, PLAY)
    while s.phase == BURN:
        if r.current_player(s) == 0:
            assert violation(r, s, Action(0, "burn", card=C("AH"))) == "PIT-FIVE-5"
        s = r.apply(s, r.legal_actions(s)[0])
    assert r.current_player(s) == 0
    assert r.legal_actions(s) == (Action(0, "play", card=C("AH")),)
    assert violation(r, s, Action(0, "play", card=C("KH"))) == "PIT-FIVE-5"


def test_pit_five_7_and_8_scores_by_side():
    r = rules("players=5")
    h = r.hand_result(6, 0, (0, 2), 7, 3, before=(0,) * 5)
    assert h.delta == (6, 3, 6, 3, 3)  # each member receives his side's score
    alone = r.hand_result(6, 0, (0,), 4, 6)
    assert alone.delta == (-6, 6, 6, 6, 6)
    sheet = PitchSheet((50, 50, 50, 20, 20)).add(h)
    assert sheet.winners == (0, 2)  # several reach 52: the bidding side's qualifying players
    sheet = PitchSheet((40, 51, 10, 49, 20)).add(h)
    assert sheet.winners == (1,)  # only non-bidders qualify: the highest
    tie = PitchSheet((40, 49, 10, 49, 20)).add(h)
    assert tie.winners == (1, 3)  # ties share


# --- options ----------------------------------------------------------------------------------------

def test_options_parse_and_text():
    o = PitchOptions.parse("points=16; dirty; made_score=POINTS_WON; opt.players=5")
    assert (o.points, o.dirty, o.made_score, o.players) == (16, True, "points_won", 5)
    assert PitchOptions.parse(o.text()) == o
    for bad in ("points=12", "players=3", "auto=everything", "colour=red", "min_bid=0"):
        with pytest.raises(ValueError):
            PitchOptions.parse(bad)


def test_registered_as_pitch():
    assert find_variant("pitch") is PitchRules and VARIANTS["pitch"] is PitchRules


# --- random playouts: every variant ---------------------------------------------------------------

PLAYOUT_OPTIONS = [f"points={n}" for n in POINT_VARIANTS] + [
    "dirty", "reverse", "reverse; jokers=MARKED", "players=5", "players=5; points=16; dirty",
    "players=5; points=5; uncounted=REMOVE", "points=14; uncounted=REMOVE", "points=15; uncounted=REMOVE",
    "trump_discard=ALLOWED_DEAD", "burn=NON_POINT_FIRST", "auto=TWO_THREE_AND_OFF; points=16",
    "made_score=POINTS_WON; opponents_score=NONE; moon_at_zero=TO_52", "min_bid=2; points=5",
]


def candidate_actions(r: PitchRules, s: PitchState) -> set[Action]:
    """A universe of actions around the legal ones: every seat with every card, bid, suit and recipient."""
    seats = range(r.seats)
    out: set[Action] = set(r.legal_actions(s))
    cards = list(r.pack.cards)
    if s.phase == AUCTION:
        out |= {Action(p, k) for p in seats for k in ("pass", "moon")}
        out |= {Action(p, "bid", info=n) for p in seats for n in range(0, r.total + 2)}
    elif s.phase == TRUMP:
        out |= {Action(p, "name", suit=su) for p in seats for su in range(-1, 5)}
    elif s.phase == CALL:
        out |= {Action(p, "call", card=c) for p in seats for c in cards}
    elif s.phase == DISCARD:
        for a in r.legal_actions(s):
            m = a.cards[0]
            for p in seats:
                out.add(Action(p, "discard", cards=(m,)))
                for c in iter_cards(s.hands[p]):
                    out.add(Action(p, "discard", cards=(m ^ (1 << c),)))
    elif s.phase == REMAINDER:
        out |= {Action(p, "remainder", info=q) for p in seats for q in range(-1, r.seats)}
    elif s.phase in (BURN, PLAY):
        out |= {Action(p, k, card=c) for p in seats for c in cards for k in ("burn", "play")}
    return out


@pytest.mark.parametrize("opts", PLAYOUT_OPTIONS)
def test_random_playouts(opts):
    r = rules(opts)
    rng = random.Random(opts)
    for hand in range(12):
        s = r.initial_state(hand % r.seats)
        choose = modest_choice if hand % 2 else (lambda acts, g: g.choice(acts))
        steps = 0
        while not r.is_terminal(s):
            steps += 1
            assert steps < 500
            if r.current_player(s) == CHANCE:
                assert r.legal_actions(s) == ()
                s = r.apply(s, r.chance_action(s, rng))
                continue
            legal = r.legal_actions(s)
            assert legal, f"no legal action in phase {s.phase}"
            assert all(a.seat == r.current_player(s) for a in legal)
            for a in candidate_actions(r, s):
                v = r.check(s, a)
                assert (v is None) == (a in legal), (s.phase, a, v)
                if v is not None:
                    assert re.fullmatch(r"PIT-[A-Z]+-\d+", v.rule) and v.rule.replace("PIT-", "") and v.text
            s = r.apply(s, choose(legal, rng))
        # points conserved (PIT-PTS-5) and every card accounted for
        union = s.dead
        for h in s.hands:
            assert h == 0
        for _, trick, _ in s.history:
            for _, c in trick:
                assert not union >> c & 1
                union |= 1 << c
        assert union == r.pack.mask
        score = r.score_hand(s)
        assert score.bidding_points + score.other_points + score.dead_points == r.total
        assert sum(s.taken) + score.dead_points == r.total


@pytest.mark.parametrize("opts", ["", "players=5", "points=16", "points=5"])
def test_random_games_to_52(opts):
    r = rules(opts)
    for seed in range(5):
        sheet, hands = simulate_game(r, random.Random(seed))
        assert sheet.over and sheet.winners and sheet.hands == len(hands)
        for _, h in hands:
            assert sum(c.amount for c in h.credits if c.column == 0) == h.delta[0]


def test_play_random_hand_returns_the_actions():
    r = rules()
    s, acts = play_random_hand(r, 0, random.Random(5))
    replayed = run(r, r.initial_state(0), *acts)
    assert replayed == s and acts[0].kind == "deal"


def test_deal_action_starts_left_of_the_dealer():
    r = rules()
    order = list(r.pack.cards)
    a = deal_action(r, order, W)
    assert [a.cards[p] for p in (N, E, S, W)] == [mask_of(order[k * 9:(k + 1) * 9]) for k in range(4)]


def test_malformed_actions_are_violations_not_crashes():
    r = rules()
    s = play_state(r, {S: "AH KH", W: "QH"}, HEARTS, S)
    assert violation(r, s, Action(S, "play", card=-1)) == "PIT-DECK-1"
    assert violation(r, s, Action(S, "play", card=79)) == "PIT-DECK-1"
    assert violation(r, s, Action(9, "play", card=C("AH"))) == "PIT-DEAL-1"
    assert violation(rules("players=5"), s, Action(7, "play", card=C("AH"))) == "PIT-FIVE-1"
    s5 = five_after_bid(rules("players=5"), fill_deal(rules("players=5"), {}))
    assert violation(rules("players=5"), s5, Action(0, "call", card=-3)) == "PIT-DECK-1"


# --- every rule ID is cited -----------------------------------------------------------------------

def test_every_pit_rule_id_is_cited():
    if not SPEC.is_file():
        pytest.skip(f"the Pitch spec is not at {SPEC}")
    ids = list(dict.fromkeys(re.findall(r"\*\*(PIT-[A-Z]+-\d+)\*\*", SPEC.read_text(encoding="utf-8"))))
    assert len(ids) > 50
    text = Path(__file__).read_text(encoding="utf-8")
    cited = set(re.findall(r"PIT-[A-Z]+-\d+(?!\d)", text))
    # test names spell IDs as pit_play_6, pit_draw_7_and_8 or pit_score_1_to_4
    for fam, first, more in re.findall(r"(?<![a-z0-9])pit_([a-z]+)_(\d+)((?:_(?:and|to)_\d+)*)(?!\d)", text):
        nums = [int(first)]
        for word, n in re.findall(r"_(and|to)_(\d+)", more):
            nums += list(range(nums[-1] + 1, int(n) + 1)) if word == "to" else [int(n)]
        cited.update(f"PIT-{fam.upper()}-{i}" for i in nums)
    missing = [i for i in ids if i not in cited]
    assert not missing, f"PIT rule IDs cited by no test: {', '.join(missing)}"


def test_pit_draw_5_a_remainder_of_nothing_is_not_an_error():
    # PIT-DRAW-5: when the refill has used up the stock there is no remainder; a record may still name a
    # recipient (of nothing). Here only five cards are left in the stock: the refill takes all of them.
    r = rules()
    s = discard_all(r, to_discard(r, fill_deal(r, {})))
    five = [c for c in iter_cards(s.stock)][:5]
    s = s._replace(stock=sum(1 << c for c in five), dead=s.dead | (s.stock & ~sum(1 << c for c in five)))
    s = r.apply(s, r.chance_action(s, random.Random(0)))
    assert s.stock == 0 and s.phase in (BURN, PLAY)
    hands = s.hands
    for to in (S, N):  # the bidder S keeps it, or gives it to his partner N
        assert violation(r, s, Action(S, "remainder", info=to)) is None
        after = r.apply(s, Action(S, "remainder", info=to))
        assert after.hands == hands and after.phase == s.phase and after.remainder_to == to
    # still the bidder's word, to his own side, and once
    assert violation(r, s, Action(S, "remainder", info=E)) == "PIT-DRAW-5"
    assert violation(r, s, Action(N, "remainder", info=N)) == "PIT-DRAW-5"
    once = r.apply(s, Action(S, "remainder", info=S))
    assert violation(r, once, Action(S, "remainder", info=S)) == "PIT-DRAW-5"


def test_hand_results_from_the_memo_are_those_of_fresh_rules():
    # `hand_result` memoises its credits on (contract, side, T_b, T_o, the sheet before only for a moon, why a moon
    # failed), shared by the rules of one options: each call's result with the memo emptied first, against the same
    # calls in a row on one warm rules object; moons from every score before, bids from any
    from jojotte_records.rules import pitch

    rng = random.Random(3)
    for variant in ("", "points=16; players=5", "made_score=points_won; opponents_score=none; moon_at_zero=to_52"):
        options = PitchOptions.parse(variant) if variant else None
        r = PitchRules(options)
        n, cols, calls = r.total, r.columns(), []
        for _ in range(600):
            contract = rng.choice((MOON, MOON, r.options.min_bid, n, rng.randint(r.options.min_bid, n)))
            bidder = rng.randrange(r.seats)
            partner = rng.choice((-1, (bidder + 2) % r.seats))
            side = r.bidding_seats(r.initial_state(0)._replace(bidder=bidder, partner=partner))
            tb = rng.randint(0, n)
            before = tuple(rng.choice((-20, -1, 0, 0, 1, 30, 51)) for _ in range(cols))
            calls.append((contract, bidder, side, tb, n - tb, rng.randint(0, 3), before, (0,) * r.seats,
                          rng.choice(("", "X1 (1 point) went to E"))))
        fresh = []
        for args in calls:
            pitch._RESULTS.clear()
            fresh.append(PitchRules(options).hand_result(*args))
        pitch._RESULTS.clear()
        warm = PitchRules(options)
        assert [warm.hand_result(*args) for args in calls] == fresh
