"""The one replay engine: every game's hand is replayed by the same loop.

A game's *record codec* turns one recorded hand into located steps: ``(action, where, ctx)`` triples, yielded
in the order of play from the state before the deal (`Rules.initial_state`). The engine checks each action
(`Rules.check`), stops at the first illegal one with its rule and place, and advances otherwise
(`Rules.advance`). The codec reads ``run.state`` (the state reached so far) between steps, so what it yields
may depend on it (an event-log item is read in the state it is written in); what the record itself says
wrongly (a call written after the end of the bidding, a trick short of cards, a wrong winner) the codec
reports through the `HandRun` and ends, which ends the replay.

Locations cost nothing on a legal hand: ``where(ctx, action, violation)`` is called only when an action is
illegal, and returns the `Location` fields (and, for an event-log item, its text).

The fast path (issue 14) plugs in at `replay_hand`: a codec may offer ``fast(hand, run, dealer, sheet)``, a replay of the
whole hand that returns the final state when it vouches for the hand (no issue of any kind) and None when it
is not sure; the explaining loop then runs from the start, and its verdict is the reference.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

from ..errors import Issue, Location
from ..rules.base import CHANCE, Action, Rules, Violation, violation_message

# the fast path's switch (tests and benchmarks turn it off to compare) and how many hands took each path
FAST = True
COUNTS = {"fast": 0, "explained": 0}

Where = Callable[[Any, Action, Violation], "tuple[dict, str | None]"]
Step = tuple  # (action, where, ctx)


class HandRun:
    """One hand being replayed: the state reached, and what was found (the codec and the engine append)."""

    __slots__ = ("rules", "state", "issues", "unchecked", "names", "source", "session", "hand", "actions", "fault")

    def __init__(self, rules: Rules, names: tuple[str, ...], issues: list[Issue], unchecked: list[Issue],
                 source: str | None, session: int, hand: int):
        self.rules = rules
        self.state = None
        self.issues = issues
        self.unchecked = unchecked
        self.names = names
        self.source = source
        self.session = session
        self.hand = hand
        self.actions: list[Action] = []  # the legal actions replayed, in order
        self.fault: tuple[Violation, int] | None = None  # the first illegal player's action: (violation, seat)

    def loc(self, **kw) -> Location:
        return Location(source=self.source, session=self.session, hand=self.hand, **kw)

    def msg(self, v: Violation) -> str:
        return violation_message(v, self.names)

    def illegal(self, v: Violation, text: str | None = None, kind: str = "illegal", **where) -> None:
        """An illegal event (or, with ``kind``, an unreadable item) at ``where``."""
        if text is None:
            self.issues.append(Issue(v.rule, self.msg(v), self.loc(**where), kind, see_also=v.see_also))
        else:
            self.issues.append(Issue(v.rule, self.msg(v), self.loc(**where), kind, text, see_also=v.see_also))

    def note(self, rule: str, message: str, kind: str, **where) -> None:
        """A finding that is not a rules violation: ``consistency`` (the record contradicts itself) or
        ``unchecked`` (a check the record's information did not allow)."""
        (self.unchecked if kind == "unchecked" else self.issues).append(Issue(rule, message, self.loc(**where), kind))


class Codec:
    """A game's record codec: one recorded hand as located steps (see the module's docstring), and what the
    validator reads of the record besides its actions (where the dealer is written, the written score)."""

    keep_actions = False  # the verdict keeps the legal actions replayed (an event-log record is written from them)
    # the findings (rule, message) of a hand the sheet takes as written, and of one it skips
    uses_written: tuple[str, str]
    skips: tuple[str, str]

    def __init__(self, rules: Rules):
        self.rules = rules

    def steps(self, hand, run: HandRun) -> Iterator[Step]:
        raise NotImplementedError

    def dealer_at(self, hand) -> tuple[int, int]:
        """The line and column where the hand's dealer is written."""
        return hand.line, hand.column

    def end_state(self, state):
        """The state the verdict shows of a replay that reached ``state`` (None: nothing to show)."""
        return state

    def score(self, hand, state, run: HandRun, sheet):
        """The score of a replayed hand on ``sheet`` (`Rules.hand_score`), None when it cannot be scored (with a
        finding in ``run`` saying why)."""
        raise NotImplementedError

    def written_values(self, hand) -> tuple[int, ...] | None:
        """The figures written at the table as `Rules.written_differences` reads them, None when none are."""
        return None

    def written_score(self, hand):
        """The hand score the sheet takes from the written figures (`Rules.written_score`), None when none."""
        return None

    def fast(self, hand, run: HandRun, dealer: int, sheet):
        """The final state of a hand replayed fast from ``dealer``'s deal on ``sheet`` when the codec vouches for
        it (legal, complete, nothing to note; a codec that keeps the actions puts them in ``run.actions``), None
        when it is not sure. None here: every hand takes the explaining loop."""
        return None


def replay_steps(rules: Rules, run: HandRun, steps: Iterator[Step], keep_actions: bool = False):
    """The one loop: check each step's action, stop at the first illegal one, advance otherwise. Returns the
    last state reached (also in ``run.state``)."""
    check, advance = rules.check, rules.advance
    state = run.state
    kept = run.actions
    for action, where, ctx in steps:
        v = check(state, action)
        if v is not None:
            at, text = where(ctx, action, v)
            run.illegal(v, text, **at)
            if action.seat != CHANCE:
                run.fault = (v, action.seat)
            break
        state = run.state = advance(state, action)
        if keep_actions:
            kept.append(action)
    return run.state  # the codec may end the hand on a state of its own (None: nothing to score)


def replay_hand(rules: Rules, codec, hand, run: HandRun, dealer: int, sheet=None, keep_actions: bool = False):
    """Replay one hand from the state before its deal: the codec's fast path first, when it has one and the
    hand vouches for itself, else the explaining loop. Returns the last state reached."""
    if FAST and not run.issues:
        state = codec.fast(hand, run, dealer, sheet)
        if state is not None:
            COUNTS["fast"] += 1
            run.state = state
            return state
    COUNTS["explained"] += 1
    run.state = rules.initial_state(dealer, sheet)
    return replay_steps(rules, run, codec.steps(hand, run), keep_actions)
