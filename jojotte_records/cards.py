"""Cards, suits, ranks and packs shared by every game of the family.

A card is a small integer ``suit * 16 + rank`` so that a set of cards is a
bitmask (``1 << card``). Ranks run 2..14 (``T`` = 10, ``A`` = 14); the two
jokers of Pitch sit in a fifth pseudo-suit. Which cards make the pack and how
they rank is a property of each game (`Pack`, and the orders in ``rules/``),
never of this module.

>>> card_name(parse_card("j♠"))
'JS'
>>> card_name(parse_card("10h"))
'TH'
"""

from __future__ import annotations

from enum import IntEnum
from typing import Iterable, Iterator


class Suit(IntEnum):
    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3
    JOKER = 4

    @property
    def letter(self) -> str:
        return SUIT_LETTERS[self]

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]


SUIT_LETTERS = "SHDCX"
SUIT_SYMBOLS = "♠♥♦♣★"
PLAIN_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)

# rank letters by rank number; jokers use ranks 1 and 2 of Suit.JOKER
RANK_LETTERS = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
                10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_FROM_TEXT = {v: k for k, v in RANK_LETTERS.items()}
_RANK_FROM_TEXT["10"] = 10
_SUIT_FROM_TEXT = {"S": 0, "H": 1, "D": 2, "C": 3,
                   "♠": 0, "♥": 1, "♦": 2, "♣": 3, "♤": 0, "♡": 1, "♢": 2, "♧": 3}

ACE, KING, QUEEN, JACK, TEN, NINE, EIGHT, SEVEN = 14, 13, 12, 11, 10, 9, 8, 7


def make_card(suit: int, rank: int) -> int:
    return suit * 16 + rank


def suit_of(card: int) -> int:
    return card >> 4


def rank_of(card: int) -> int:
    return card & 15


def card_name(card: int) -> str:
    """Canonical name of a card: rank then suit letter (``TH``, ``X1`` for a joker)."""
    return _NAMES[card]


def card_symbol_name(card: int) -> str:
    """Name with a suit symbol, for reports (``10♥``)."""
    suit, rank = card >> 4, card & 15
    if suit == Suit.JOKER:
        return f"★{rank}"
    return ("10" if rank == 10 else RANK_LETTERS[rank]) + SUIT_SYMBOLS[suit]


_NAMES: dict[int, str] = {}
_FROM_NAME: dict[str, int] = {}
for _s in range(4):
    for _r, _l in RANK_LETTERS.items():
        _c = make_card(_s, _r)
        _NAMES[_c] = _l + SUIT_LETTERS[_s]
        _FROM_NAME[_l + SUIT_LETTERS[_s]] = _c
for _r in (1, 2):
    _c = make_card(Suit.JOKER, _r)
    _NAMES[_c] = f"X{_r}"
    _FROM_NAME[f"X{_r}"] = _c


def parse_card(text: str) -> int:
    """Read a card as people type it: ``JS``, ``js``, ``J♠``, ``10h``, ``x1``.

    Raises:
        ValueError: the text is not a card name.
    """
    key = text.strip().upper()
    card = _FROM_NAME.get(key)
    if card is not None:
        return card
    if len(key) >= 2:
        rank = _RANK_FROM_TEXT.get(key[:-1])
        suit = _SUIT_FROM_TEXT.get(key[-1])
        if rank is not None and suit is not None:
            return make_card(suit, rank)
    raise ValueError(f"invalid card '{text}' (expected a rank A K Q J T 9 8 7 … then a suit S H D C)")


# --- card sets as bitmasks -------------------------------------------------

SUIT_MASKS = tuple(0xFFFF << (16 * s) for s in range(5))


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def iter_cards(mask: int) -> Iterator[int]:
    """Cards of a bitmask, lowest code first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_of(mask: int) -> tuple[int, ...]:
    return tuple(iter_cards(mask))


def count(mask: int) -> int:
    return mask.bit_count()


class Pack:
    """The cards a game is played with, and how a hand of them is written.

    ``display_order`` fixes the canonical order in which a hand is written
    (suits in ``suit_order``, then rank high to low).
    """

    __slots__ = ("name", "cards", "mask", "suit_order")

    def __init__(self, name: str, cards: Iterable[int], suit_order: tuple[int, ...] = (0, 1, 2, 3, 4)):
        self.name = name
        self.cards = tuple(sorted(cards))
        self.mask = mask_of(self.cards)
        self.suit_order = suit_order

    def __contains__(self, card: int) -> bool:
        return bool(self.mask >> card & 1)

    def __len__(self) -> int:
        return len(self.cards)

    def sort_key(self, card: int) -> tuple[int, int]:
        return (self.suit_order.index(card >> 4), -(card & 15))

    def sorted(self, cards: Iterable[int]) -> list[int]:
        return sorted(cards, key=self.sort_key)

    def __repr__(self) -> str:
        return f"Pack({self.name!r}, {len(self.cards)} cards)"


PIQUET_PACK = Pack("piquet-32", (make_card(s, r) for s in range(4) for r in range(7, 15)))
FULL_PACK_WITH_JOKERS = Pack(
    "standard-54",
    [make_card(s, r) for s in range(4) for r in range(2, 15)] + [make_card(Suit.JOKER, 1), make_card(Suit.JOKER, 2)],
)
