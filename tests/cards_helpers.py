"""Card shorthands shared by the Pitch and Baloot tests (no tests here): ``C("KH")``, ``M("AS KH")``, ``names(mask)``."""

from __future__ import annotations

from jojotte_records.cards import card_name, iter_cards, mask_of, parse_card


def C(text: str) -> int:
    """One card's code: ``C("X1")``."""
    return parse_card(text)


def M(text: str) -> int:
    """The mask of the cards written: ``M("AS KH 7D")``."""
    return mask_of(parse_card(t) for t in text.split())


def names(mask: int) -> str:
    """The cards of a mask, written in card-code order."""
    return " ".join(card_name(c) for c in iter_cards(mask))
