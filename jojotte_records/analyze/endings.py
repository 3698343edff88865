"""Exact analysis of Baloot hands: the card points each team can force from each card on, and the cost of each card.

From the point where at most `ENDGAME_CARDS` cards are left in the players' hands (every card: from the first
lead), every card is known to a recorder of the whole deal, and the rest of the hand is a game of perfect
information between the two teams (the projects declared and shown in tricks 1 and 2, BAL-PROJ, taken as the
record has them: the solver's script). `solve_ending`
computes, by the one solver (`solver.Solver`, over the rules core's own legal plays and transitions; no rule
is written again here), the card points the declaring team takes from that point on with best play by both
teams; `analyze_ending` gives each card played from that point its cost for its team (the forced value
before minus after, from the team's side) and marks it: ``inaccuracy`` (costs card points), ``mistake`` (10
card points or more: a game point after the conversion), and writes after it the value of every legal card the
player had (``alts``).
"""

from __future__ import annotations

from typing import NamedTuple

from .marks import card_marks

ENDGAME_CARDS = 24  # from the third trick: six tricks of four cards (from the first lead: 32, see bench/analyze.py)
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
    alts: tuple[tuple[int, str, int], ...] = ()  # every legal card (card, word) and the value after it (as ``after``)


class EndingAnalysis(NamedTuple):
    start_trick: int  # the trick the analysis starts at
    team: int  # the declaring team (0: N-S, 1: W-E); values are its card points
    value: int  # its forced card points from the start to the end
    cards: tuple[EndingCard, ...]
    label: str = ""  # the team's seats, "N+S"
    unit: str = "card points"  # what the values count (Pitch: "points")


def solve_ending(rules, state, team: int, solver=None) -> int:
    """The card points ``team`` (the declaring team) takes from ``state`` to the end of the hand with best play by
    both teams: the one solver (`solver.Solver` over `solver.BalootView`); ``solver``: one to reuse."""
    if solver is None:
        solver = _solver(rules, state)
    assert solver.view.team == team, "the values are the declaring team's"
    return solver.rest(state)


def _solver(rules, state):
    from .solver import BalootView, Solver

    return Solver(BalootView(rules, state))


def ending_start(rules, state, cards: int = ENDGAME_CARDS) -> bool:
    """Whether ``state`` is in the card play with at most ``cards`` cards left."""
    return state.phase == "play" and sum(h.bit_count() for h in state.hands) <= cards


def analyze_ending(rules, verdict, cards: int = ENDGAME_CARDS) -> EndingAnalysis | None:
    """A replayed Baloot hand from the point where ``cards`` (`ENDGAME_CARDS`) cards are left (the first lead: 32),
    card by card; None when its play does not reach it. The declarations and shows of projects (tricks 1 and 2) are taken where the
    record has them (the solver's script, `solver.script_of`)."""
    from .solver import Solver, script_of, view_for

    actions = list(verdict.actions)
    if not actions or verdict.state is None or verdict.state.declarer < 0:
        return None
    team = verdict.state.declarer % 2
    s = rules.initial_state(verdict.record.dealer, None)
    # the sheet does not change the play: replay the hand's actions to the first card of the ending
    k = 0
    first = None  # the first card of the hand: the script counts tricks from it
    while k < len(actions) and not (ending_start(rules, s, cards) and not s.trick and actions[k].kind == "play"):
        if first is None and s.phase == "play" and actions[k].kind == "play":
            first = k
        s = rules.advance(s, actions[k])
        k += 1
    if k >= len(actions) or not ending_start(rules, s, cards):
        return None
    solver = Solver(view_for(rules, s, script_of(actions[k if first is None else first:])))
    cards = _judge(rules, solver, s, actions[k:], MISTAKE, lambda x: x.tricks_done)
    return EndingAnalysis(s.tricks_done + 1, team, solver.rest(s), tuple(cards), _label(rules, team))


def analyze_pitch(rules, verdict) -> EndingAnalysis | None:
    """A replayed four-handed Pitch hand from its first lead (after the refill and burn), card by card: the values
    are the points of the bidding side (`solver.PitchView`: high, low, jack, off-jack, jokers, game, PIT-PTS); every
    point a card gives away is a mistake (a point of the game). None without a card play. Five-handed Pitch: the
    sides of the hand as the call made them (`solver.PitchFiveView`), the team 0 and the label the bidding side's."""
    from .solver import Solver, view_for

    actions = list(verdict.actions)
    if verdict.state is None or not any(a.kind == "play" for a in actions):
        return None
    s = rules.initial_state(verdict.record.dealer, None)
    k = 0
    while not (s.phase == "play" and actions[k].kind == "play"):
        s, k = rules.advance(s, actions[k]), k + 1
    view = view_for(rules, s)
    solver = Solver(view)
    team = 0 if rules.five else rules.bidding_seats(s)[0] % 2
    cards = _judge(rules, solver, s, actions[k:], 1, lambda x: len(rules.tricks(x)))
    label = view.label() if rules.five else _label(rules, team)
    return EndingAnalysis(1, team, solver.rest(s), tuple(cards), label, "points")


def _label(rules, team: int) -> str:
    return "+".join(rules.seat_labels[x] for x in range(4) if x % 2 == team)


def _judge(rules, solver, s, actions, mistake: int, tricks_done) -> list[EndingCard]:
    """Each card of ``actions`` from ``s``: its value before and after for the maximising team (the points it takes
    from that card to the end), the best cards, its cost for its team, its marks, every legal card's value."""
    view = solver.view
    cards = []
    guess = None  # the value of the position reached, found with the card before: MTD(f)'s first guess
    for a in actions:
        if a.kind != "play":
            s = rules.advance(s, a)
            continue
        if rules.is_terminal(s):
            break
        base = view.score(s)
        # every legal card (with its word: an Ekka changes what the others must play, BAL-EKKA) and its value
        options = {(o.card, o.announce): v - base for o, v in solver.options(s, guess)}
        own = view.side_of(a.seat) == 0
        before = max(options.values()) if own else min(options.values())
        nxt = rules.advance(s, a)
        after = options.get((a.card, a.announce), solver.value(nxt) - base)
        cost = before - after if own else after - before
        best = tuple(sorted({c for (c, _), v in options.items() if v == before}))
        marks = card_marks(cost, mistake)
        alts = tuple((c, w, v) for (c, w), v in options.items())
        cards.append(EndingCard(tricks_done(s) + 1, len(s.trick) + 1, a.seat, a.card, before, after, best, cost, marks,
                                alts))
        s, guess = nxt, base + after
    return cards


def annotate_ending(hand, analysis: EndingAnalysis):
    """The `record.EventHand` with a ``[%dd eval=… cost=… best=… mark=… vs=…]`` comment on each analysed card
    (``eval``: the declaring team's forced card points from that card on; ``vs``: that team), earlier ones replaced."""
    from ..cards import card_name
    from ..notation.dd_comment import format_dd_comment, without_dd
    from ..notation.model import EventItem

    by_place = {(c.trick, c.index): c for c in analysis.cards}
    team = analysis.label or ("N+S", "W+E")[analysis.team]
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
                alts = [(card_name(x) + (f"+{w}" if w else ""), v) for x, w, v in c.alts]
                text = format_dd_comment(c.after, c.cost, [card_name(b) for b in c.best], c.marks[0] if c.marks else "",
                                         team, alts)
                item = EventItem(item.label, item.words, item.line, item.column, without_dd(item.comments) + (text,))
            items.append(item)
        lines.append(line._replace(items=tuple(items)))
    return hand._replace(lines=tuple(lines))


# --- what-if and restore from any card (issue 17): the one solver (`solver`) from the first card on -----------

class EventWhatIf(NamedTuple):
    """A hand of Baloot or Pitch with a card put at one point and best play by both sides afterwards."""

    trick: int
    card_index: int
    seat: int  # who plays there
    team: str  # whose value ``value`` is: the declaring team (Baloot) or the bidding side (Pitch), as labels
    sub: object  # `solver.Substitution`
    score: object  # the game's hand score of the hand so finished (``delta`` per column, ``made``)
    actual: object  # the hand's score as replayed, when it was finished
    columns: tuple[str, ...] = ()  # the score sheet's columns
    made: bool | None = None  # Pitch: whether the bid is made (PIT-PTS); None in Baloot

    def _line(self) -> list[str]:
        from ..cards import card_name

        return [card_name(a.card) + (f" {a.announce}" if a.announce else "") if a.kind == "play" else a.kind
                for a in self.sub.line]

    def document(self, hand: int, at: str, play: str, names: tuple[str, ...]) -> dict:
        """The JSON document of ``analyze --hand N --at T.C --play CARD --json``: the hand's points by column."""
        cols = self.columns
        return {"hand": hand, "at": at, "play": play, "line": self._line(), "value_of": self.team,
                "value": self.sub.value, "score": dict(zip(cols, self.score.delta)), "made": self.made,
                "as_played": dict(zip(cols, self.actual.delta)) if self.actual else None}

    def text(self, hand: int, at: str, play: str, names: tuple[str, ...]) -> list[str]:
        """The lines ``analyze --hand N --at T.C --play CARD`` prints."""
        made = self.made
        out = [f"hand {hand}, {at}: {play} then best play: {self.team} take {self.sub.value} points; the hand scores "
               + ", ".join(f"{c} {d}" for c, d in zip(self.columns, self.score.delta))
               + ("" if made is None else f" ({'made' if made else 'not made'})")]
        if self.actual is not None:
            out.append("as played: " + ", ".join(f"{c} {d}" for c, d in zip(self.columns, self.actual.delta)))
        return out

    def as_json(self, rules, names: tuple[str, ...]) -> dict:
        from ..cards import card_name

        def word(a):
            return card_name(a.card) + (f" {a.announce}" if a.announce else "") if a.kind == "play" else a.kind

        cols = rules.sheet_labels
        return {"trick": self.trick, "card": self.card_index, "seat": names[self.seat], "value_of": self.team,
                "value": self.sub.value, "best": [word(a) for a in self.sub.best],
                "options": {word(a): v for a, v in self.sub.options},
                "line": [word(a) for a in self.sub.line],
                "score": {"delta": dict(zip(cols, self.score.delta)), "made": getattr(self.score, "made", None)},
                "as_played": None if self.actual is None else dict(zip(cols, self.actual.delta))}


def _side_label(rules, view) -> str:
    return "+".join(rules.seat_labels[x] for x in range(rules.seats) if view.side_of(x) == 0)


class NoSuchPoint(ValueError):
    """The replay of a hand does not reach the point asked for (a usage error, where an illegal card is a finding)."""


def event_position(rules, verdict, trick: int, index: int):
    """(state, script) at card ``index`` of trick ``trick`` of a replayed Baloot or Pitch hand.

    Raises:
        NoSuchPoint: the replay does not reach that point.
    """
    from .solver import script_of

    actions = list(verdict.actions)
    s = rules.initial_state(verdict.record.dealer, None)
    start = None
    for k, a in enumerate(actions):
        if s.phase == "play" and start is None:
            start = k
        if (s.phase == "play" and a.kind == "play"
                and (len(rules.tricks(s)) + 1, len(s.trick) + 1) == (trick, index)):
            break
        s = rules.advance(s, a)
    if s.phase != "play" or (len(rules.tricks(s)) + 1, len(s.trick) + 1) != (trick, index):
        raise NoSuchPoint(f"the replay does not reach trick {trick}, card {index}")
    rest = actions[start:] if start is not None else []
    return s, script_of(rest) if rules.name == "baloot" else {}


def what_if_event(verdict, rules, trick: int, index: int, card: int | None, word: str = "", sheet=None) -> EventWhatIf:
    """Card ``card`` (None: the best legal card) at card ``index`` of trick ``trick``, then best play by both sides
    to the end, scored by the game (``sheet``: the sheet before the hand, for Pitch's moon; empty if None).

    Raises:
        NoSuchPoint: no such point in the replay.
        ValueError: the card is not legal there.
    """
    from .solver import substitute, view_for

    s, script = event_position(rules, verdict, trick, index)
    view = view_for(rules, s, script)
    sub = substitute(view, s, card, word)
    sheet = sheet if sheet is not None else rules.new_sheet()
    actual = verdict.score if verdict.state is not None and verdict.state.phase == "done" else None
    score = rules.hand_score(sub.end, sheet)
    return EventWhatIf(trick, index, sub.seat, _side_label(rules, view), sub, score, actual, tuple(rules.sheet_labels),
                       score.made if rules.name == "pitch" else None)


def faulty_card(rules, verdict):
    """(trick, card index, offender seat, card, word) of the first illegal event of a hand when it is a card.

    Raises:
        ValueError: no illegal event, or it is not a card (a call, a declaration).
    """
    from ..cards import parse_card

    issue = verdict.first_illegal
    if issue is None:
        raise ValueError("the hand has no illegal event")
    loc = issue.loc
    if loc.trick is None or loc.card is None:
        raise ValueError(f"the illegal event is not a card ({issue.rule}), so there is no card to restore")
    for line in verdict.record.lines:
        if line.keyword != "trick" or line.number != loc.trick:
            continue
        for item in line.items:
            if (item.line, item.column) != (loc.line, loc.column):
                continue
            words = tuple(w.lower() for w in item.words)
            try:
                card = parse_card(item.words[0]) if item.words else -1
            except ValueError:
                card = -1
            if card < 0:
                raise ValueError(f"the illegal event is not a card ({issue.rule}), so there is no card to restore")
            seat = rules.seat_labels.index(item.label) if item.label in rules.seat_labels else -1
            return loc.trick, loc.card, seat, card, " ".join(words[1:])
    raise ValueError(f"the record has no trick {loc.trick}, card {loc.card}")


def restore_event(verdict, rules, sheet=None) -> tuple[EventWhatIf, tuple]:
    """What a Baloot or Pitch hand would have scored had its first illegal card been the best legal card there,
    with best play by both sides afterwards; also (offender seat, card played, word said).

    Raises:
        ValueError: no illegal card, or the replay does not reach it.
    """
    trick, index, offender, card, word = faulty_card(rules, verdict)
    return what_if_event(verdict, rules, trick, index, None, "", sheet), (offender, card, word)
