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
from .games import first_dealer, player_names, rules_for
from .record import EventHand, EventItem, EventLine, EventScore, SessionHeader
from .engine import Codec, HandRun, replay_hand
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
        self.codec = EventCodec(rules)

    def _first_dealer(self) -> int:
        return first_dealer(self.header, self.labels, self.names, self.session_issues)

    def wrong_dealer(self, dealer: int) -> Violation | None:
        """Why ``dealer`` may not deal the next hand (the deal passes on by the game's rule, e.g. PIT-DEAL-3), or None."""
        exp = self.expected_dealer
        if exp < 0 or dealer == exp:
            return None
        return Violation(self.rules.dealer_rule or self.prefix, f"{{p{dealer}}} deals, but it is {{p{exp}}}'s deal")

    def check_hand(self, hand: EventHand) -> EventVerdict:
        self.hands += 1
        rules = self.rules
        issues: list[Issue] = list(hand.issues)
        unchecked: list[Issue] = []
        n = hand.number

        def loc(**kw) -> Location:
            return Location(source=self.source, session=self.session_index, hand=n, **kw)

        if self.sheet.over:
            issues.append(Issue(rules.game_rule or self.prefix, "the game was already over before this hand "
                                f"({self._winner_text()} won)", loc(phase="deal", line=hand.line, column=1), "consistency"))
        if hand.dealer >= 0:
            v = self.wrong_dealer(hand.dealer)
            if v is not None:
                issues.append(Issue(v.rule, violation_message(v, self.names),
                                    loc(phase="deal", line=hand.line, column=hand.column), "illegal", see_also=v.see_also))
            self.expected_dealer = rules.next_dealer(hand.dealer)
        state, actions, fault = self._replay(hand, issues, unchecked)
        score = None
        if state is not None and rules.is_terminal(state) and not any(i.kind in ("illegal", "syntax") for i in issues):
            score = rules.hand_score(state, self.sheet)
        elif (fault is not None and state is not None and not any(i.kind == "syntax" for i in issues)
              and sum(i.kind == "illegal" for i in issues) == 1):
            # a game whose option scores a hand with an irregularity (Baloot's opt.qaid): still reported, and scored
            score = rules.irregularity_score(state, *fault, self.sheet)
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
            written = rules.written_score(hand.score.values) if hand.score is not None and not self.sheet.over else None
            if written is not None:
                used_written = True
                self.sheet = self.sheet.add(written)
                unchecked.append(Issue(self.prefix, "the session sheet uses the written score of this hand",
                                       loc(phase="score", line=hand.score.line, column=hand.score.column), "unchecked"))
            else:
                unchecked.append(Issue(self.prefix, "the hand could not be scored; the sheet skips it",
                                       loc(phase="score", line=hand.line, column=1), "unchecked"))
        if issues:
            self.bad_hands += 1
        return EventVerdict(n, hand, tuple(issues), tuple(unchecked), score, state, self.sheet, used_written, tuple(actions))

    def _replay(self, hand: EventHand, issues: list[Issue], unchecked: list[Issue]):
        if hand.dealer < 0:
            return None, [], None
        run = HandRun(self.rules, self.names, issues, unchecked, self.source, self.session_index, hand.number)
        state = replay_hand(self.rules, self.codec, hand, run, hand.dealer, self.sheet, keep_actions=True)
        return state, run.actions, run.fault

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


# --- the event-log record codec: an EventHand as located steps ----------------------------

def _item_where(ctx, a, v):
    line, item, trick, played = ctx
    return (dict(phase=line.keyword, line=item.line, column=item.column, trick=trick,
                 card=played + 1 if trick is not None else None), " ".join((item.label, *item.words)))


def _line_where(line, a, v):
    return dict(phase=line.keyword, line=line.line, column=line.column), line.keyword


class EventCodec(Codec):
    """The lines of an `EventHand` as located steps: each player's item is one action read in the state it is
    written in (`EventRules.read_item`); the chance items of one line are merged into one chance action."""

    def __init__(self, rules: EventRules):
        self.rules = rules

    def steps(self, hand: EventHand, run: HandRun):
        rules = self.rules
        read_item = rules.read_item
        labels = rules.seat_labels
        names = run.names
        for line in hand.lines:
            keyword, number = line.keyword, line.number
            trick = number if keyword == "trick" and number >= 0 else None
            chance: list[Action] = []
            played = 0  # cards played so far in this line: a trick line may also hold declarations (Baloot)
            for item in line.items:
                a = read_item(run.state, keyword, number, item.label, item.words)
                if isinstance(a, Violation):
                    at, text = _item_where((line, item, trick, played), a, a)
                    run.illegal(a, text, "syntax" if a.rule == "NOTATION" else "illegal", **at)
                    return
                if a.seat == CHANCE:
                    chance.append(a)
                    continue
                yield a, _item_where, (line, item, trick, played)
                if a.kind == "play":
                    played += 1
            if chance:
                yield merge_chance(chance), _line_where, line
            if line.winner and trick is not None:
                done = rules.tricks(run.state)
                if len(done) >= trick:
                    real = labels[done[trick - 1][2]]
                    if real != line.winner:
                        run.note(rules.trick_rule or rules.rule_prefix,
                                 f"trick {trick} is written as won by {names[labels.index(line.winner)]}, "
                                 f"but {names[labels.index(real)]} won it", "consistency",
                                 phase="trick", line=line.line, column=line.column, trick=trick)


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
        state = rules.advance(state, a)
    return tuple(lines)


def play_hand(rules: EventRules, dealer: int, rng: random.Random, sheet=None, policy: str = "uniform"):
    """One legal hand played by ``policy`` (``sheet``: the game's sheet before it): the final state and the actions."""
    from .policy import policy_of

    choose = policy_of(policy)
    state = rules.initial_state(dealer, sheet)
    actions: list[Action] = []
    while not rules.is_terminal(state):
        if rules.current_player(state) == CHANCE:
            a = rules.chance_action(state, rng)
        else:
            a = choose(rules, state, rules.legal_actions(state), rng)
        actions.append(a)
        state = rules.advance(state, a)
    return state, actions


def simulate_events(game: str, hands: int, seed: int, variant: str = "", policy: str = "plausible") -> Iterator:
    """Legal games played by ``policy``, each a session (header, then hands) until the game ends, ``hands`` hands in all."""
    from .policy import policy_of
    from .rules.base import find_variant

    policy_of(policy)
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
            state, actions = play_hand(rules, dealer, rng, sheet, policy)
            score = rules.hand_score(state, sheet)
            lines = hand_lines(rules, dealer, actions, sheet)
            sheet = sheet.add(score)
            yield EventHand(number, dealer, lines, EventScore(tuple(score.delta)))
            dealer = rules.next_dealer(dealer)
            done += 1
