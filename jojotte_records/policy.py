"""The simulator's players: one interface, ``choose(rules, state, legal, rng) -> Action``, for every game.

A policy only *chooses* among the actions the rules core offers (``legal_actions(state)``); it never
decides what is legal. To judge a hand it reads the state's public fields (the hand, the trump, the
trick so far, the cards already played) and the card tables of the rules core.

* ``uniform``: today's random player: a uniformly random legal action in Jo-Jotte; in Pitch and Baloot
  the game's own random player (`PitchRules.sim_choice`, `BalootRules.sim_choice`: uniform card play, an
  auction damped so that games end). It reaches corners of the rules the tests need.
* ``plausible`` (the default): bids and doubles on hand strength, Slam and Nullo only with hands that can
  make them, declares the melds and projects it holds, takes the dix, and plays its cards by a club
  player's habits (win cheaply, lose with the lowest card, lead winners, draw trumps as declarer, give
  points to a partner who is winning the trick). Ties are broken by the card's code, so the policy is a
  function of the state: the ``rng`` is only used by ``uniform``.
"""

from __future__ import annotations

import random
from typing import Callable

from .cards import ACE, JACK, KING, NINE, QUEEN, SEVEN, TEN, iter_cards, make_card
from .rules.base import Action, EventRules

POLICIES = ("plausible", "uniform")

Policy = Callable[[object, object, tuple, random.Random], Action]


def choose_uniform(rules, state, legal: tuple[Action, ...], rng: random.Random) -> Action:
    sim = getattr(rules, "sim_choice", None) if isinstance(rules, EventRules) else None
    return sim(legal, rng) if sim is not None else rng.choice(legal)


def choose_plausible(rules, state, legal: tuple[Action, ...], rng: random.Random) -> Action:
    name = rules.name
    if name == "pitch":
        from .policy_pitch import choose as pitch_choose

        return pitch_choose(rules, state, legal)
    if name == "baloot":
        from .policy_baloot import choose as baloot_choose

        return baloot_choose(rules, state, legal)
    from .policy_jojotte import choose as jojotte_choose

    return jojotte_choose(rules, state, legal)


def policy_of(name: str) -> Policy:
    """The policy called ``name`` ("plausible" or "uniform").

    Raises:
        ValueError: no policy of that name.
    """
    if name == "plausible":
        return choose_plausible
    if name == "uniform":
        return choose_uniform
    raise ValueError(f"unknown policy '{name}' (known: {', '.join(POLICIES)})")


# --- what every trick game shares: judging and choosing a card -----------------------------

def bits(mask: int) -> int:
    return mask.bit_count()


def suit_mask(suit: int) -> int:
    return sum(1 << make_card(suit, r) for r in range(2, 15))


class TrickView:
    """One trick seen by the player to act: the cards so far as (seat, card), how strong each card is for
    this trick (``key(card, led)``: 0 when it cannot win), what it is worth, and who is on whose side."""

    def __init__(self, me: int, plays: list[tuple[int, int]], key, points, same_side, last: bool):
        self.me = me
        self.plays = plays
        self.key = key
        self.points = points
        self.same_side = same_side
        self.last = last
        self.led = plays[0][1] >> 4 if plays else -1
        self.best_seat, self.best_card = -1, -1
        best = -1
        for seat, card in plays:
            k = key(card, self.led)
            if k > best:
                best, self.best_seat, self.best_card = k, seat, card
        self.best = best

    def wins(self, card: int) -> bool:
        led = self.led if self.plays else card >> 4
        return self.key(card, led) > self.best

    def value(self) -> int:
        return sum(self.points(c) for _, c in self.plays)


def cheapest(cards, view: TrickView):
    """The card that costs least to give away: fewest points, then the weakest."""
    return min(cards, key=lambda c: (view.points(c), view.key(c, c >> 4), c))


def follow_card(cards: list[int], view: TrickView, is_master: Callable[[int], bool], trump: int) -> int:
    """A card to a trick already led, for a player who wants tricks and points."""
    winners = [c for c in cards if view.wins(c)]
    losers = [c for c in cards if c not in winners]
    partner_winning = view.best_seat >= 0 and view.same_side(view.best_seat, view.me)
    if partner_winning:
        holds = view.last or is_master(view.best_card)
        if holds and losers:
            # give points to the partner's trick, but keep trumps and winners for later
            plain = [c for c in losers if c >> 4 != trump and not is_master(c)] or losers
            return max(plain, key=lambda c: (view.points(c), -view.key(c, c >> 4), -c))
        return cheapest(losers or cards, view)
    if winners:
        low_win = min(winners, key=lambda c: (view.key(c, view.led), c))
        if view.last or is_master(low_win):
            if view.value() == 0 and view.points(low_win) >= 15 and losers and not view.last:
                return cheapest(losers, view)
            return low_win
        if view.value() >= 10:
            top = max(winners, key=lambda c: (view.key(c, view.led), c))
            return top if is_master(top) else low_win
    return cheapest(losers or cards, view)


def lead_card(cards: list[int], view: TrickView, is_master: Callable[[int], bool], trump: int,
              draw_trumps: bool) -> int:
    """A card to lead: trumps first for a declarer who holds the best one, then winners, then a low card."""
    trumps = [c for c in cards if c >> 4 == trump]
    plain = [c for c in cards if c >> 4 != trump]
    if draw_trumps and trumps:
        masters = [c for c in trumps if is_master(c)]
        if masters:
            return max(masters, key=lambda c: (view.key(c, trump), c))
        if len(trumps) >= 3:
            return min(trumps, key=lambda c: (view.key(c, trump), c))
    winners = [c for c in plain if is_master(c)]
    if winners:
        return max(winners, key=lambda c: (view.points(c), view.key(c, c >> 4), c))
    if plain:
        return min(plain, key=lambda c: (view.points(c), view.key(c, c >> 4), c))
    return min(trumps, key=lambda c: (view.key(c, trump), c))


def losing_card(cards: list[int], view: TrickView) -> int:
    """For a player who must take no trick (Nullo): the highest card that loses, else the highest card."""
    if not view.plays:
        return min(cards, key=lambda c: (view.key(c, c >> 4), c))
    losers = [c for c in cards if not view.wins(c)]
    pool = losers or cards
    return max(pool, key=lambda c: (view.key(c, c >> 4), c))


def lowest_card(cards: list[int], view: TrickView) -> int:
    return min(cards, key=lambda c: (view.key(c, c >> 4), c))


__all__ = ["POLICIES", "policy_of", "choose_plausible", "choose_uniform", "TrickView", "follow_card", "lead_card",
           "losing_card", "lowest_card", "cheapest", "bits", "suit_mask",
           "ACE", "JACK", "KING", "NINE", "QUEEN", "SEVEN", "TEN", "iter_cards", "make_card"]
