"""Exact endings of Baloot hands: the card points each team can force over the last tricks, and the cost of each card.

Once at most `ENDGAME_CARDS` cards are left in the players' hands, every card is known to a recorder of the
whole deal, and the rest of the hand is a game of perfect information between the two teams. `solve_ending`
computes, by minimax over the rules core's own legal plays and transitions (`legal_actions`, ``advance``; no rule
is written again here), the card points the declaring team takes from that point on with best play by both
teams; `analyze_ending` gives each card played from that point its cost for its team (the forced value
before minus after, from the team's side) and marks it: ``inaccuracy`` (costs card points), ``mistake`` (10
card points or more: a game point after the conversion). Positions are remembered by the cards still held,
the trick in progress, whether its lead was an Ekka and who is to play, which is all the future of the play
depends on.
"""

from __future__ import annotations

from typing import NamedTuple

from .rules.base import Action

ENDGAME_CARDS = 16  # from the fifth trick: four tricks of four cards
MISTAKE = 10  # card points: one game point once converted (BAL-SCORE-3)


class EndingCard(NamedTuple):
    trick: int
    index: int  # 1-based place in the trick
    seat: int
    card: int
    before: int  # the declaring team's forced card points from here to the end, before the card
    after: int  # … after it
    best: tuple[int, ...]  # the cards that keep the forced value
    cost: int  # card points the card gave away, for its team
    marks: tuple[str, ...]


class EndingAnalysis(NamedTuple):
    start_trick: int  # the trick the analysis starts at
    team: int  # the declaring team (0: N-S, 1: W-E); values are its card points
    value: int  # its forced card points from the start to the end
    cards: tuple[EndingCard, ...]


def _plays(rules, state) -> list[Action]:
    """The cards the player to act may play, each with the words that may go with it: an Ekka changes what the others
    must play (BAL-EKKA), so a card led with and without it are two moves."""
    return [a for a in rules.legal_actions(state) if a.kind == "play"]


def _key(rules, s) -> tuple:
    """What the rest of the play depends on: the cards held, the trick so far, whether its lead was an Ekka, and
    who is to play (with the same cards left, another trick winner leads the next trick)."""
    return s.hands, s.trick, getattr(s, "ekka", False), rules.current_player(s)


def solve_ending(rules, state, team: int, memo: dict | None = None) -> int:
    """The card points ``team`` takes from ``state`` to the end of the hand with best play by both teams."""
    memo = {} if memo is None else memo
    return _value(rules, state, team, memo)


def _value(rules, s, team: int, memo: dict) -> int:
    if rules.is_terminal(s):
        return 0
    key = _key(rules, s)
    got = memo.get(key)
    if got is not None:
        return got
    mover = key[3]
    base = s.points[team]
    values = [_value(rules, n, team, memo) + n.points[team] - base for n in (rules.advance(s, a) for a in _plays(rules, s))]
    best = max(values) if mover % 2 == team else min(values)
    memo[key] = best
    return best


def ending_start(rules, state) -> bool:
    """Whether ``state`` is in the card play with at most `ENDGAME_CARDS` cards left and no declaration to come."""
    return state.phase == "play" and sum(h.bit_count() for h in state.hands) <= ENDGAME_CARDS and state.tricks_done >= 2


def analyze_ending(rules, verdict) -> EndingAnalysis | None:
    """The last tricks of a replayed Baloot hand, card by card; None when its play does not reach them."""
    actions = verdict.actions
    if not actions or verdict.state is None or verdict.state.declarer < 0:
        return None
    team = verdict.state.declarer % 2
    s = rules.initial_state(verdict.record.dealer, None)
    # the sheet does not change the play: replay the hand's actions to the first state of the ending
    k = 0
    while k < len(actions) and not (ending_start(rules, s) and not s.trick):
        s = rules.advance(s, actions[k])
        k += 1
    if k >= len(actions) or not ending_start(rules, s):
        return None
    memo: dict = {}
    start_trick = s.tricks_done + 1
    value = solve_ending(rules, s, team, memo)
    cards = []
    for a in actions[k:]:
        if a.kind != "play":
            s = rules.advance(s, a)
            continue
        options = {}
        base = s.points[team]
        for o in _plays(rules, s):
            n = rules.advance(s, o)
            options[(o.card, o.announce)] = solve_ending(rules, n, team, memo) + n.points[team] - base
        before = max(options.values()) if a.seat % 2 == team else min(options.values())
        nxt = rules.advance(s, a)
        after = options.get((a.card, a.announce), solve_ending(rules, nxt, team, memo) + nxt.points[team] - base)
        cost = before - after if a.seat % 2 == team else after - before
        best = tuple(sorted({c for (c, _), v in options.items() if v == before}))
        marks = ("inaccuracy",) if 0 < cost < MISTAKE else ("mistake",) if cost >= MISTAKE else ()
        cards.append(EndingCard(s.tricks_done + 1, len(s.trick) + 1, a.seat, a.card, before, after, best, cost, marks))
        s = nxt
    return EndingAnalysis(start_trick, team, value, tuple(cards))


def annotate_ending(hand, analysis: EndingAnalysis):
    """The `record.EventHand` with a ``[%dd eval=… cost=… best=… mark=… vs=…]`` comment on each analysed card
    (``eval``: the declaring team's forced card points from that card on; ``vs``: that team), earlier ones replaced."""
    from .cards import card_name
    from .dd_comment import format_dd_comment, without_dd
    from .record import EventItem

    by_place = {(c.trick, c.index): c for c in analysis.cards}
    team = ("N+S", "W+E")[analysis.team]
    lines = []
    for line in hand.lines:
        if line.keyword != "trick" or line.number < analysis.start_trick:
            lines.append(line)
            continue
        items, place = [], 0
        for item in line.items:
            words = [w.lower() for w in item.words]
            is_card = bool(words) and words[0] not in ("show", "sira", "fifty", "hundred", "fourhundred")
            c = by_place.get((line.number, place + 1)) if is_card else None
            if is_card:
                place += 1
            if c is not None:
                text = format_dd_comment(c.after, c.cost, [card_name(b) for b in c.best], c.marks[0] if c.marks else "", team)
                item = EventItem(item.label, item.words, item.line, item.column, without_dd(item.comments) + (text,))
            items.append(item)
        lines.append(line._replace(items=tuple(items)))
    return hand._replace(lines=tuple(lines))
