"""Pitch's trump sets, trump orders and point cards for every point-count variant (PIT-DECK, PIT-PTS, PIT-VAR).

Everything here is a pure function of the variant (``points``), the named
trump suit and a few options, and is computed once into a `TrumpTable`: the
trump set as a bitmask, a strength per card (higher wins), the point value of
each card and the mask of automatic cards.

>>> t = trump_table(10, 1)
>>> " ".join(card_name(c) for c in t.order)
'AH KH QH JH JD X1 X2 TH 9H 8H 7H 6H 5H 4H 3H 2H'
>>> t.total
10
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from ..cards import ACE, FULL_PACK_WITH_JOKERS, JACK, KING, QUEEN, TEN, Pack, Suit, card_name, make_card, mask_of

POINT_VARIANTS = (5, 7, 8, 10, 11, 13, 14, 15, 16)  # PIT-VAR-1
OTHER_SUIT = {0: 3, 3: 0, 1: 2, 2: 1}  # the other suit of the same colour: spades-clubs, hearts-diamonds
JOKERS = (make_card(Suit.JOKER, 1), make_card(Suit.JOKER, 2))
X1, X2 = JOKERS

NAT, OFF, JOKER = "nat", "off", "joker"

# PIT-DECK-3 / PIT-VAR-2: the trump set high to low as (kind, rank); the two jokers are equal in rank
_BASE = [(NAT, ACE), (NAT, KING), (NAT, QUEEN), (NAT, JACK), (OFF, JACK), (JOKER, 1), (JOKER, 2), (NAT, TEN),
         (NAT, 9), (NAT, 8), (NAT, 7), (NAT, 6), (NAT, 5), (NAT, 4), (NAT, 3), (NAT, 2)]


def _insert_after(order: list, after: tuple, item: tuple) -> list:
    i = order.index(after)
    return order[:i + 1] + [item] + order[i + 1:]


_ORDER_16 = _BASE
_ORDER_17 = _insert_after(_BASE, (NAT, 3), (OFF, 3))
_ORDER_20 = _ORDER_17
for _after, _item in (((NAT, ACE), (OFF, ACE)), ((NAT, TEN), (OFF, TEN)), ((NAT, 2), (OFF, 2))):
    _ORDER_20 = _insert_after(_ORDER_20, _after, _item)

_ONE = {(NAT, ACE): 1, (NAT, JACK): 1, (OFF, JACK): 1, (NAT, TEN): 1, (NAT, 2): 1}
_JOKERS = {(JOKER, 1): 1, (JOKER, 2): 1}
_THREE = {(NAT, 3): 3}
_VALUES_16 = {**_ONE, **_JOKERS, **_THREE, (OFF, ACE): 1, (OFF, TEN): 1, (OFF, 2): 1, (OFF, 3): 3}

# PIT-VAR-1: (trump set high to low, point values); a card of the set missing from the values is worth 0
VARIANT_CARDS: dict[int, tuple[list, dict]] = {
    10: (_ORDER_16, {**_ONE, **_JOKERS, **_THREE}),
    5: (_ORDER_16, dict(_ONE)),
    7: (_ORDER_16, {**_ONE, **_JOKERS}),
    8: (_ORDER_16, {**_ONE, **_THREE}),
    13: (_ORDER_17, {**_ONE, **_JOKERS, **_THREE, (OFF, 3): 3}),
    11: (_ORDER_17, {**_ONE, **_THREE, (OFF, 3): 3}),
    16: (_ORDER_20, _VALUES_16),
    15: (_ORDER_20, {k: v for k, v in _VALUES_16.items() if k != (OFF, 2)}),
    14: (_ORDER_20, {k: v for k, v in _VALUES_16.items() if k[0] != JOKER}),
}

AUTO_CHOICES = ("two_and_three", "two_only", "three_only", "two_three_and_off")


def entry_card(entry: tuple[str, int], trump: int) -> int:
    kind, rank = entry
    if kind == JOKER:
        return JOKERS[rank - 1]
    return make_card(trump if kind == NAT else OTHER_SUIT[trump], rank)


def jokers_removed(points: int, uncounted: str = "keep_rank") -> bool:
    """Whether the jokers leave the pack (``opt.uncounted = REMOVE`` in a variant where they are worth 0)."""
    values = VARIANT_CARDS[points][1]
    return uncounted == "remove" and (JOKER, 1) not in values


@lru_cache(maxsize=None)
def pitch_pack(points: int = 10, uncounted: str = "keep_rank") -> Pack:
    """The pack of a variant: 54 cards (PIT-DECK-1), or 52 when uncounted jokers are removed."""
    if jokers_removed(points, uncounted):
        return Pack("standard-52", [c for c in FULL_PACK_WITH_JOKERS.cards if c not in JOKERS])
    return FULL_PACK_WITH_JOKERS


class TrumpTable(NamedTuple):
    """The trump set of one variant for one named suit."""

    trump: int
    order: tuple[int, ...]  # high to low in the natural order (jokers X1 then X2)
    mask: int  # every trump (live-able card)
    strength: tuple[int, ...]  # by card code; 0 for a non-trump; equal jokers under ORDER_OF_PLAY
    points: tuple[int, ...]  # by card code
    auto: int  # mask of automatic cards (PIT-PTS-3, PIT-VAR-4, PIT-VAR-6)
    total: int  # N
    reverse: bool  # PIT-VAR-7: on a tie between jokers the later one wins
    counted: int = 0  # mask of the cards worth points

    def is_trump(self, card: int) -> bool:
        return bool(self.mask >> card & 1)

    def mask_points(self, mask: int) -> int:
        pts = self.points
        mask &= self.counted
        total = 0
        while mask:
            low = mask & -mask
            total += pts[low.bit_length() - 1]
            mask ^= low
        return total

    def credited(self, who: int, card: int, win: int) -> int:
        """The seat a trick's card counts for: the trick's winner ``win``, or for an automatic point (the two, the three)
        the card's own player ``who`` (PIT-PTS-2/3)."""
        return who if self.auto >> card & 1 else win

    def winner_index(self, cards: tuple[int, ...]) -> int:
        """Index in play order of the card that wins a trick (PIT-PLAY-5, PIT-DECK-4, PIT-VAR-7)."""
        strength = self.strength
        best, best_i = -1, 0
        for i, c in enumerate(cards):
            v = strength[c]
            if v > best or (v == best and self.reverse):
                best, best_i = v, i
        return best_i


@lru_cache(maxsize=None)
def trump_table(points: int, trump: int, *, reverse: bool = False, dirty: bool = False,
                auto: str = "two_and_three", jokers: str = "order_of_play", uncounted: str = "keep_rank") -> TrumpTable:
    """The trump set, order and point values of a variant with ``trump`` named.

    Raises:
        ValueError: an unknown variant, suit or option value.
    """
    if points not in VARIANT_CARDS:
        raise ValueError(f"unknown point-count variant '{points}' (known: {', '.join(map(str, POINT_VARIANTS))})")
    if trump not in (0, 1, 2, 3):
        raise ValueError(f"invalid trump suit '{trump}'")
    if auto not in AUTO_CHOICES:
        raise ValueError(f"invalid automatic cards '{auto}'")
    order_entries, values = VARIANT_CARDS[points]
    entries = []
    for e in order_entries:
        if uncounted == "remove" and e not in values and e[0] in (OFF, JOKER):
            continue  # opt.uncounted = REMOVE: uncounted jokers leave the pack, uncounted off-cards stay in their suit
        entries.append(e)
    n = len(entries)
    strength = [0] * 80
    pts = [0] * 80
    order = []
    level = n + 1
    for e in entries:
        c = entry_card(e, trump)
        order.append(c)
        if not (e == (JOKER, 2) and jokers == "order_of_play"):
            level -= 1  # the two jokers share a level under ORDER_OF_PLAY (PIT-DECK-4)
        strength[c] = level
        pts[c] = values.get(e, 0)
    if reverse:  # PIT-VAR-7: the order turned upside down
        top = max(strength) + 1
        strength = [top - v if v else 0 for v in strength]
    wanted = {"two_and_three": ((NAT, 2), (NAT, 3)), "two_only": ((NAT, 2),), "three_only": ((NAT, 3),),
              "two_three_and_off": ((NAT, 2), (NAT, 3), (OFF, 2), (OFF, 3))}[auto]
    auto_mask = 0
    if not dirty:
        for e in wanted:
            if e in entries and values.get(e, 0):
                auto_mask |= 1 << entry_card(e, trump)
    total = sum(pts)
    counted = mask_of(c for c in range(80) if pts[c])
    return TrumpTable(trump, tuple(order), mask_of(order), tuple(strength), tuple(pts), auto_mask, total, reverse, counted)


def describe_order(table: TrumpTable) -> str:
    """The order as a player would say it, high to low in the winning sense (jokers as ``X``)."""
    cards = sorted(table.order, key=lambda c: -table.strength[c])
    return " ".join("X" if c in JOKERS else card_name(c) for c in cards)
