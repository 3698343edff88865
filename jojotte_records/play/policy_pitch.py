"""The plausible Pitch player (every point-count variant, dirty, reverse, five-handed).

It bids the points it expects to take in its best suit (the point cards it holds that no card can capture:
a master, or an automatic card, PIT-PTS-3; part of the others; and what the partner and the stock bring),
shoots the moon only with a hand that holds every point, names that suit, keeps the stock unless its hand is
already full, burns the cheapest cards, and plays by `policy.follow_card` / `policy.lead_card` with all
cards trumps (PIT-PLAY-1).
"""

from __future__ import annotations

from ..cards import iter_cards
from ..rules.base import Action
from .policy_common import TrickView, follow_card, lead_card

PARTNER_SHARE = 1.5  # what a partner and the stock add to a bid, on average (a player's judgement)


def expected_points(rules, hand: int, suit: int) -> float:
    """The points ``hand`` expects to take with ``suit`` as trump."""
    t = rules.table(suit)
    mine = [c for c in iter_cards(hand) if t.mask >> c & 1]
    above_all = True
    est = 0.0
    for c in sorted(mine, key=lambda c: -t.strength[c]):
        higher = [x for x in t.order if t.strength[x] > t.strength[c] and not hand >> x & 1]
        master = not higher
        if t.auto >> c & 1:
            est += t.points[c]
        elif master and above_all:
            est += t.points[c] + 0.6  # wins a trick, and what the others put on it
        else:
            est += 0.4 * t.points[c]
            above_all = False
        if higher:
            above_all = False
    return est + 0.3 * len(mine)


def _best_suit(rules, hand: int) -> tuple[int, float]:
    return max(((su, expected_points(rules, hand, su)) for su in range(4)), key=lambda x: (x[1], -x[0]))


def choose(rules, s, legal: tuple[Action, ...]) -> Action:
    kinds = {a.kind for a in legal}
    seat = legal[0].seat
    hand = s.hands[seat]
    if s.phase == "auction":
        su, est = _best_suit(rules, hand)
        total = rules.options.points
        t = rules.table(su)
        held = sum(t.points[c] for c in iter_cards(hand) if t.mask >> c & 1)
        if "moon" in kinds and held == total and est >= total:
            return next(a for a in legal if a.kind == "moon")  # every point in hand (PIT-MOON-1)
        share = PARTNER_SHARE if rules.options.players == 4 else 1.0
        want = int(est + share)
        bids = [a for a in legal if a.kind == "bid" and a.info <= want]
        if bids:
            return max(bids, key=lambda a: a.info)
        return next(a for a in legal if a.kind == "pass")
    if s.phase == "trump":
        su, _ = _best_suit(rules, hand)
        return next(a for a in legal if a.suit == su)
    t = rules.table(s.trump) if s.trump >= 0 else None
    if s.phase == "call":
        # the partner is the holder of the best trump the bidder lacks (PIT-FIVE-4)
        trumps = [a for a in legal if t.mask >> a.card & 1]
        return max(trumps or legal, key=lambda a: (t.strength[a.card], -a.card))
    if s.phase == "discard":
        return min(legal, key=lambda a: (a.cards[0].bit_count(), a.cards[0]))
    if s.phase == "remainder":
        live = (s.hands[s.bidder] & t.mask).bit_count()
        want = s.partner if live >= 6 and s.partner >= 0 else s.bidder
        return next((a for a in legal if a.info == want), legal[0])
    if s.phase == "burn":
        return min(legal, key=lambda a: (t.points[a.card] > 0, t.points[a.card], t.strength[a.card], a.card))
    if s.phase == "play":
        return _play(rules, s, legal, t)
    return legal[0]


def _play(rules, s, legal, t) -> Action:
    me = legal[0].seat
    cards = sorted(a.card for a in legal)
    five = rules.options.players == 5

    def same_side(a: int, b: int) -> bool:
        if not five:
            return a % 2 == b % 2
        side = {s.bidder, s.partner}
        return (a in side) == (b in side)

    def key(card: int, led: int) -> int:
        return 2 * t.strength[card]

    plays = list(s.trick)
    # equal jokers: the one played first wins (PIT-DECK-4), or under reverse the later one (PIT-VAR-7)
    to_play = [x for x in range(rules.seats) if s.hands[x] and x not in {p for p, _ in plays}]
    view = TrickView(me, plays, key, lambda c: t.points[c] if not t.auto >> c & 1 else 0, same_side,
                     to_play == [me])
    if t.reverse and plays:
        view.best -= 1  # keys are even, so only an equal joker played later now beats the best card
    gone = 0
    for _, done, _ in s.history:
        for _, c in done:
            gone |= 1 << c
    for _, c in plays:
        gone |= 1 << c
    unseen = t.mask & ~gone & ~s.hands[me] & ~s.dead

    def is_master(card: int) -> bool:
        return not any(t.strength[c] > t.strength[card] for c in iter_cards(unseen))

    if not plays:
        card = lead_card(cards, view, is_master, -1, False)
        masters = [c for c in cards if is_master(c)]
        if masters:
            card = max(masters, key=lambda c: t.strength[c])
    else:
        card = follow_card(cards, view, is_master, -1)
    return next(a for a in legal if a.card == card)
