"""A deal's identity: `deal_hash`, the same for two tables that played the same board.

The archive stores it (``hands.deal_hash``) and an event (`tournament.duplicate_boards`) compares the results
of the tables that share it.
"""

from __future__ import annotations

import hashlib

from ..replay.event_log import merge_chance
from ..rules.base import CHANCE, EventRules, Violation, find_variant
from .model import UNKNOWN_CARD, EventHand, HandRecord


def deal_hash(record: HandRecord, game: str = "jojotte", rules=None) -> str | None:
    """A hash of a hand's deal (the game, the dealer, the cards dealt to each seat, the turned card), or
    None when the deal was not recorded in full. Two tables that played the same board have the same hash.
    ``rules`` (the game's rules object) saves looking the game up for every hand.

    A hand of Pitch or Baloot (`record.EventHand`): the hash of its first chance event (the deal: each seat's
    cards, and Baloot's face-up card), None when it is not written in full and legal."""
    if isinstance(record, EventHand):
        return _event_deal_hash(record, game, rules)
    if record.dealer < 0 or record.turned is None or record.turned < 0 or not hasattr(record, "dealt"):
        return None
    if rules is None:
        try:
            rules = find_variant(game)()
        except ValueError:
            return None
    if rules.notation != "jojotte":
        return None
    parts = [rules.name, str(record.dealer), str(record.turned)]
    dealer = record.dealer
    for seat, cards in enumerate(record.dealt):
        n = rules.dealt_to(seat, dealer)
        if n == 0:
            parts.append("-")
            continue
        if cards is None or len(cards) != n or UNKNOWN_CARD in cards:
            return None  # not recorded, or the hand after the draw (the first cards are not known)
        mask = 0
        for c in cards:
            mask |= 1 << c
        parts.append(str(mask))
    return hashlib.blake2b("|".join(parts).encode("utf-8"), digest_size=8).hexdigest()


def _event_deal_hash(record: EventHand, game: str, rules=None) -> str | None:
    if rules is None:
        try:
            rules = find_variant(game)()
        except ValueError:
            return None
    if record.dealer < 0 or not record.lines or not isinstance(rules, EventRules):
        return None
    try:
        state = rules.initial_state(record.dealer)
        line = record.lines[0]
        parts = [rules.read_item(state, line.keyword, line.number, i.label, i.words) for i in line.items]
        if not parts or any(isinstance(a, Violation) or a.seat != CHANCE for a in parts):
            return None
        deal = merge_chance(parts)
        if rules.check(state, deal) is not None:
            return None
    except Exception:  # a line the rules cannot read: no hash
        return None
    text = "|".join([rules.name, str(len(rules.seat_labels)), str(record.dealer), *map(str, deal.cards), str(deal.info)])
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()
