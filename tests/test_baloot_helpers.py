"""Helpers of the Baloot tests (no tests here): cards from text, deals from hands, hands replayed from notation lines."""

from __future__ import annotations

from cards_helpers import C, M, names  # noqa: F401  (used here and re-exported to the Baloot tests)

from jojotte_records.rules.baloot import BalootOptions, BalootRules, BalootState
from jojotte_records.rules.base import CHANCE, Action, Violation

N, W, S, E = 0, 1, 2, 3
SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3


def rules(text: str = "") -> BalootRules:
    return BalootRules(BalootOptions.parse(text))


def deal_for(r: BalootRules, dealer: int, hands: dict[int, str], up: str, taker: int) -> tuple[Action, Action]:
    """The deal and the completion giving each seat its eight cards (the taker's seven plus the face-up card);
    the first five listed are dealt first. Seats not given get the cards left over, in pack order."""
    upc = C(up)
    lists = {seat: [C(t) for t in text.split()] for seat, text in hands.items()}
    used = {upc} | {c for cs in lists.values() for c in cs}
    spare = [c for c in r.pack.cards if c not in used]
    for seat in range(4):
        want = 7 if seat == taker else 8
        cs = lists.setdefault(seat, [])
        while len(cs) < want:
            cs.append(spare.pop(0))
        assert len(cs) == want, (seat, cs)
    deal = tuple(sum(1 << c for c in lists[s][:5]) for s in range(4))
    rest = tuple(sum(1 << c for c in lists[s][5:]) for s in range(4))
    return Action(CHANCE, "deal", cards=deal, info=upc), Action(CHANCE, "complete", cards=rest)


def parse_lines(text: str):
    """``keyword [N:] LABEL words, LABEL words`` lines (``;`` and ``LABEL:`` in deal/complete) as tuples."""
    out = []
    for raw in text.strip().splitlines():
        raw = raw.strip()
        if not raw or raw.startswith("#"):
            continue
        keyword, _, rest = raw.partition(" ")
        number = -1
        head, colon, tail = rest.partition(":")
        if colon and head.strip().isdigit():
            number, rest = int(head), tail
        listed = keyword in ("deal", "complete")
        items = []
        for chunk in rest.split(";" if listed else ","):
            chunk = chunk.strip()
            if not chunk:
                continue
            if listed:
                label, _, words = chunk.partition(":")
            else:
                label, _, words = chunk.partition(" ")
            items.append((label.strip(), tuple(words.split())))
        out.append((keyword, number, items))
    return out


def replay(r: BalootRules, state: BalootState, text: str) -> BalootState | Violation:
    """Replay notation lines from ``state`` through ``read_item``/``check``: the state reached, or the first violation."""
    for keyword, number, items in parse_lines(text):
        chance = []
        for label, words in items:
            lab = label.upper() if label.upper() in r.seat_labels else label.lower()
            a = r.read_item(state, keyword, number, lab, words)
            if isinstance(a, Violation):
                return a
            if a.seat == CHANCE:
                chance.append(a)
                continue
            v = r.check(state, a)
            if v is not None:
                return v
            state = r.advance(state, a)
        if chance:
            a = merge(chance)
            v = r.check(state, a)
            if v is not None:
                return v
            state = r.advance(state, a)
    return state


def merge(parts) -> Action:
    """One chance action from the items of one line: masks OR-ed seat by seat, the face-up card kept (the
    `EventRules` protocol)."""
    masks = [0, 0, 0, 0]
    info = -1
    for a in parts:
        masks = [x | y for x, y in zip(masks, a.cards)]
        info = a.info if a.info >= 0 else info
    return parts[0]._replace(cards=tuple(masks), info=info)


def run(r: BalootRules, state: BalootState, actions) -> BalootState:
    for a in actions:
        state = r.apply(state, a)
    return state
