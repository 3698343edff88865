"""What the simulator's plausible players of every trick game share: judging a trick and choosing a card.

Used by `policy_jojotte`, `policy_baloot` and `policy_pitch`; `policy` picks among them by game.
"""

from __future__ import annotations

from typing import Callable

# --- what every trick game shares: judging and choosing a card -----------------------------

def bits(mask: int) -> int:
    return mask.bit_count()


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

