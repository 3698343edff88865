"""Replaying and simulating the games recorded as a log of events (Pitch, Baloot).

`EventCodec` is these games' record codec for the one validator (`replay.SessionValidator`): every
written item becomes an action (`EventRules.read_item`) read in the state it is written in.
`simulate_events` writes random legal games through the same core.
"""

from __future__ import annotations

import random
from typing import Iterator

from ..games import rules_for
from ..notation.model import EventHand, EventItem, EventLine, EventScore, SessionHeader
from ..rules.base import CHANCE, Action, EventRules, Violation
from .engine import Codec, HandRun


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

    keep_actions = True

    def __init__(self, rules: EventRules):
        self.rules = rules
        self.uses_written = (rules.rule_prefix, "the session sheet uses the written score of this hand")
        self.skips = (rules.rule_prefix, "the hand could not be scored; the sheet skips it")
        from .fast_events import EventFast  # Baloot's and Pitch's rules: imported for a session of those games

        self._fast = EventFast(rules, merge_chance)

    def fast(self, hand: EventHand, run: HandRun, dealer: int, sheet):
        done = self._fast.hand(hand, dealer, sheet)
        if done is None:
            return None
        run.actions = done[1]
        return done[0]

    def score(self, hand: EventHand, state, run: HandRun, sheet):
        if self.rules.is_terminal(state):
            return self.rules.hand_score(state, sheet)
        run.note(self.rules.rule_prefix, "the record stops before the end of the hand, so it cannot be scored from its events",
                 "unchecked", phase="play", line=hand.line, column=1)
        return None

    def written_values(self, hand: EventHand) -> tuple[int, ...] | None:
        return None if hand.score is None else tuple(hand.score.values)

    def written_score(self, hand: EventHand):
        return None if hand.score is None else self.rules.written_score(hand.score.values)

    def steps(self, hand: EventHand, run: HandRun):
        rules = self.rules
        read_item = rules.read_item
        labels = rules.seat_labels
        names = run.names
        misnumbered = False  # the first item written under another number than its own is noted, not the rest
        for line in hand.lines:
            keyword, number = line.keyword, line.number
            if keyword not in rules.line_keywords:  # with or without items: at the keyword
                run.illegal(rules.unknown_line(keyword), keyword, "syntax", phase=keyword, line=line.line,
                            column=line.column)
                return
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
                off = None if misnumbered else rules.check_number(run.state, keyword, number, a, item.words)
                yield a, _item_where, (line, item, trick, played)
                if off is not None:  # the act was legal (the replay went on), but not where the record writes it
                    misnumbered = True
                    at, _ = _item_where((line, item, trick, played), a, off)
                    run.note(off.rule, run.msg(off), "consistency", **at)
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
    from ..play.policy import policy_of

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
    from ..play.policy import policy_of
    from ..rules.base import find_variant

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
