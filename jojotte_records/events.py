"""Replaying and simulating the games recorded as a log of events (Pitch, Baloot).

`EventSessionValidator` is the validator of these games: for each hand it turns every written item
into an action (`EventRules.read_item`), stops at the first illegal one with its rule ID and place,
scores the finished hand (`EventRules.hand_score`), adds it to the game's sheet and compares the
figures written at the table. `simulate_events` writes random legal games through the same core.
"""

from __future__ import annotations

import random
from typing import Iterator, NamedTuple

from .errors import Issue, Location
from .games import first_dealer, rules_for
from .record import EventHand, EventItem, EventLine, EventScore, SessionHeader
from .rules.base import CHANCE, Action, EventRules, Violation, format_message, violation_message


class EventVerdict(NamedTuple):
    """What the validator found in one hand of an event-log game."""

    number: int
    record: EventHand
    issues: tuple[Issue, ...]
    unchecked: tuple[Issue, ...]
    score: object | None  # the game's hand score (``delta``, ``credits``), None if the hand could not be scored
    state: object | None  # the last state the replay reached
    sheet: object  # the sheet after this hand
    used_written_score: bool = False
    actions: tuple[Action, ...] = ()  # the legal actions replayed, in order

    @property
    def ok(self) -> bool:
        return not self.issues

    @property
    def first_illegal(self) -> Issue | None:
        return next((i for i in self.issues if i.kind == "illegal"), None)


class EventSummary(NamedTuple):
    header: SessionHeader
    hands: int
    bad_hands: int
    sheet: object
    issues: tuple[Issue, ...]
    winners: tuple[int, ...]  # the columns that won the game, () while it goes on
    labels: tuple[str, ...]  # the sheet's columns
    names: tuple[str, ...]
    seat_labels: tuple[str, ...]
    seat_names: tuple[str, ...]
    rules: EventRules

    @property
    def winner(self) -> int:
        return self.winners[0] if len(self.winners) == 1 else -1


def column_names(rules: EventRules, names: tuple[str, ...]) -> tuple[str, ...]:
    """The names of the sheet's columns: the players', or each team's players joined (``Ann & Bob``)."""
    labels = tuple(rules.seat_labels)
    if tuple(rules.sheet_labels) == labels:
        return names
    out = []
    for col in rules.sheet_labels:
        members = [names[i] for i, lab in enumerate(labels) if lab in col]
        out.append(" & ".join(members) if members else col)
    return tuple(out)


def merge_chance(parts: list[Action]) -> Action:
    """One chance action from the items of one line (`EventRules`): masks OR-ed seat by seat, ``info`` kept."""
    first = parts[0]
    width = max(len(p.cards) for p in parts)
    cards = [0] * width
    info = -1
    for p in parts:
        for i, m in enumerate(p.cards):
            cards[i] |= m
        if p.info >= 0:
            info = p.info
    return first._replace(cards=tuple(cards), info=info)


class EventSessionValidator:
    """Checks one session of an event-log game hand by hand (the same use as `replay.SessionValidator`)."""

    def __init__(self, header: SessionHeader, session_index: int = 1):
        from .replay import player_names

        self.header = header
        self.session_index = session_index
        self.source = header.source
        rules, issues = rules_for(header)
        self.session_issues: list[Issue] = list(header.issues) + issues
        self.rules: EventRules = rules  # type: ignore[assignment]
        self.labels = tuple(rules.seat_labels)
        self.names = player_names(header, self.labels)
        self.sheet_labels = tuple(rules.sheet_labels)
        self.sheet_names = column_names(rules, self.names)
        self.sheet = rules.new_sheet()
        self.hands = 0
        self.bad_hands = 0
        self.expected_dealer = self._first_dealer()
        self.prefix = rules.rule_prefix

    def _first_dealer(self) -> int:
        return first_dealer(self.header, self.labels, self.names, self.session_issues)

    def wrong_dealer(self, dealer: int) -> Violation | None:
        """Why ``dealer`` may not deal the next hand (the deal passes on by the game's rule, e.g. PIT-DEAL-3), or None."""
        exp = self.expected_dealer
        if exp < 0 or dealer == exp:
            return None
        return Violation(getattr(self.rules, "dealer_rule", self.prefix), f"{{p{dealer}}} deals, but it is {{p{exp}}}'s deal")

    def check_hand(self, hand: EventHand) -> EventVerdict:
        self.hands += 1
        rules = self.rules
        issues: list[Issue] = list(hand.issues)
        unchecked: list[Issue] = []
        n = hand.number

        def loc(**kw) -> Location:
            return Location(source=self.source, session=self.session_index, hand=n, **kw)

        if self.sheet.over:
            issues.append(Issue(getattr(rules, "game_rule", self.prefix), "the game was already over before this hand "
                                f"({self._winner_text()} won)", loc(phase="deal", line=hand.line, column=1), "consistency"))
        if hand.dealer >= 0:
            v = self.wrong_dealer(hand.dealer)
            if v is not None:
                issues.append(Issue(v.rule, violation_message(v, self.names),
                                    loc(phase="deal", line=hand.line, column=hand.column), "illegal", see_also=v.see_also))
            self.expected_dealer = rules.next_dealer(hand.dealer)
        fault: list = []
        state, actions = self._replay(hand, issues, loc, fault)
        score = None
        if state is not None and rules.is_terminal(state) and not any(i.kind in ("illegal", "syntax") for i in issues):
            score = rules.hand_score(state, self.sheet)
        elif (fault and state is not None and hasattr(rules, "irregularity_score")
              and not any(i.kind == "syntax" for i in issues)
              and sum(i.kind == "illegal" for i in issues) == 1):
            # a game whose option scores a hand with an irregularity (Baloot's opt.qaid): still reported, and scored
            score = rules.irregularity_score(state, *fault[0], self.sheet)
        used_written = False
        if score is not None:
            if hand.score is not None:
                self._compare(hand, score, issues, loc)
            if not self.sheet.over:
                self.sheet = self.sheet.add(score)
        else:
            if state is not None and not rules.is_terminal(state) and not any(i.kind in ("illegal", "syntax") for i in issues):
                unchecked.append(Issue(self.prefix, "the record stops before the end of the hand, so it cannot be scored from its events",
                                       loc(phase="play", line=hand.line, column=1), "unchecked"))
            if hand.score is not None and hasattr(rules, "written_score") and not self.sheet.over:
                used_written = True
                self.sheet = self.sheet.add(rules.written_score(hand.score.values))
                unchecked.append(Issue(self.prefix, "the session sheet uses the written score of this hand",
                                       loc(phase="score", line=hand.score.line, column=hand.score.column), "unchecked"))
            else:
                unchecked.append(Issue(self.prefix, "the hand could not be scored; the sheet skips it",
                                       loc(phase="score", line=hand.line, column=1), "unchecked"))
        if issues:
            self.bad_hands += 1
        return EventVerdict(n, hand, tuple(issues), tuple(unchecked), score, state, self.sheet, used_written, tuple(actions))

    def _replay(self, hand: EventHand, issues: list[Issue], loc, fault: list | None = None):
        """Replay the hand's items; on the first illegal player's action, ``fault`` gets ``(violation, seat)``."""
        rules = self.rules
        if hand.dealer < 0:
            return None, []
        state = rules.initial_state(hand.dealer, self.sheet)
        actions: list[Action] = []
        for line in hand.lines:
            trick = line.number if line.keyword == "trick" and line.number >= 0 else None
            chance: list[Action] = []
            played = 0  # cards played so far in this line: a trick line may also hold declarations (Baloot)
            for item in line.items:
                a = rules.read_item(state, line.keyword, line.number, item.label, item.words)
                if isinstance(a, Violation) or a.seat != CHANCE:
                    where = dict(phase=line.keyword, line=item.line, column=item.column, trick=trick,
                                 card=played + 1 if trick is not None else None)
                    if not isinstance(a, Violation) and a.kind == "play":
                        played += 1
                if isinstance(a, Violation):
                    issues.append(Issue(a.rule, violation_message(a, self.names), loc(**where),
                                        "syntax" if a.rule == "NOTATION" else "illegal", " ".join((item.label, *item.words)),
                                        see_also=a.see_also))
                    return state, actions
                if a.seat == CHANCE:
                    chance.append(a)
                    continue
                v = rules.check(state, a)
                if v is not None:
                    issues.append(Issue(v.rule, violation_message(v, self.names), loc(**where), "illegal",
                                        " ".join((item.label, *item.words)), see_also=v.see_also))
                    if fault is not None:
                        fault.append((v, a.seat))
                    return state, actions
                state = rules._next(state, a)
                actions.append(a)
            if chance:
                a = merge_chance(chance)
                v = rules.check(state, a)
                if v is not None:
                    issues.append(Issue(v.rule, violation_message(v, self.names),
                                        loc(phase=line.keyword, line=line.line, column=line.column), "illegal", line.keyword,
                                        see_also=v.see_also))
                    return state, actions
                state = rules._next(state, a)
                actions.append(a)
            if line.winner and trick is not None:
                done = rules.tricks(state)
                if len(done) >= trick:
                    real = self.labels[done[trick - 1][2]]
                    if real != line.winner:
                        issues.append(Issue(getattr(rules, "trick_rule", self.prefix),
                                            f"trick {trick} is written as won by {self.names[self.labels.index(line.winner)]}, "
                                            f"but {self.names[self.labels.index(real)]} won it",
                                            loc(phase="trick", line=line.line, column=line.column, trick=trick), "consistency"))
        return state, actions

    def _compare(self, hand: EventHand, score, issues: list[Issue], loc) -> None:
        w = hand.score
        for col, (written, real) in enumerate(zip(w.values, score.delta)):
            if written == real:
                continue
            parts = [c for c in score.credits if c.column == col]
            # the credit the difference is made of (a forgotten award), else the one the whole figure is (a wrong amount)
            rule = next((c.rule for c in parts if c.amount in (real - written, written - real)),
                        next((c.rule for c in parts if c.amount == real), parts[0].rule if parts else self.prefix))
            why = " + ".join(f"{c.amount} for {c.why} [{c.rule}]" for c in parts) or "nothing scores"
            issues.append(Issue(rule, f"{self.sheet_names[col]}'s score is written {written}, but is {real}: {why}",
                                loc(phase="score", line=w.line, column=w.column), "score"))

    def _winner_text(self) -> str:
        return " and ".join(self.sheet_names[c] for c in self.sheet.winners) or "nobody"

    def finish(self) -> EventSummary:
        return EventSummary(self.header, self.hands, self.bad_hands, self.sheet, tuple(self.session_issues),
                            tuple(self.sheet.winners), self.sheet_labels, self.sheet_names, self.labels, self.names, self.rules)


# --- writing actions as lines, and simulating -----------------------------------------------

def hand_lines(rules: EventRules, dealer: int, actions: list[Action], sheet=None) -> tuple[EventLine, ...]:
    """The canonical lines of a hand's actions from the state before the deal (consecutive items of one
    keyword and number share a line); ``sheet`` is the game's sheet before the hand."""
    state = rules.initial_state(dealer, sheet)
    lines: list[EventLine] = []
    for a in actions:
        for keyword, number, label, words in rules.items_of(state, a):
            item = EventItem(label, tuple(words))
            if lines and lines[-1].keyword == keyword and lines[-1].number == number:
                lines[-1] = lines[-1]._replace(items=lines[-1].items + (item,))
            else:
                lines.append(EventLine(keyword, number, (item,)))
        state = rules._next(state, a)
    return tuple(lines)


def play_hand(rules: EventRules, dealer: int, rng: random.Random, sheet=None):
    """One random legal hand (``sheet``: the game's sheet before it): the final state and the actions."""
    choose = getattr(rules, "sim_choice", None) or (lambda acts, r: r.choice(acts))
    state = rules.initial_state(dealer, sheet)
    actions: list[Action] = []
    while not rules.is_terminal(state):
        if rules.current_player(state) == CHANCE:
            a = rules.chance_action(state, rng)
        else:
            a = choose(rules.legal_actions(state), rng)
        actions.append(a)
        state = rules._next(state, a)
    return state, actions


def simulate_events(game: str, hands: int, seed: int, variant: str = "") -> Iterator:
    """Random legal games, each a session (header, then hands) until the game ends, ``hands`` hands in all."""
    from .rules.base import find_variant

    cls = find_variant(game)
    rng = random.Random(seed)
    done = 0
    index = 0
    while done < hands:
        index += 1
        probe = cls(cls.options_class.parse(variant) if variant else None)
        labels = tuple(probe.seat_labels)
        dealer = rng.randrange(len(labels))
        tags = [("Event", f"Simulated {cls.name} (seed {seed}, game {index})"), ("Site", "jojotte simulate"),
                ("Date", "????.??.??"), ("Game", cls.name), ("Players", "; ".join(f"Player {lab}" for lab in labels)),
                ("FirstDealer", labels[dealer])]
        if variant:
            tags.append(("Variant", probe.options.text() or variant))
        header = SessionHeader(tuple(tags))
        rules, _ = rules_for(header)
        yield header
        sheet = rules.new_sheet()
        number = 0
        while not sheet.over and done < hands:
            number += 1
            state, actions = play_hand(rules, dealer, rng, sheet)
            score = rules.hand_score(state, sheet)
            lines = hand_lines(rules, dealer, actions, sheet)
            sheet = sheet.add(score)
            yield EventHand(number, dealer, lines, EventScore(tuple(score.delta)))
            dealer = rules.next_dealer(dealer)
            done += 1
