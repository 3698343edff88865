"""The shape every game shares: actions, violations, the `Rules` base class and the registry.

A game is a `Rules` subclass. Its states are immutable values; the three
functions at the heart of it are

* ``legal_actions(state)``: every action the player (or chance) may take now,
* ``check(state, action)``: ``None`` when the action is legal, else the
  `Violation` that says which rule it breaks and why,
* ``apply(state, action)``: the next state (raises `IllegalActionError`).

``check`` and ``legal_actions`` are written from the same rule functions, and a
property test holds them to each other. Every random event is a chance action
(``seat == CHANCE``, and ``current_player(state) == CHANCE`` before it): the
deal of every game (``initial_state`` is the state before it), Jo-Jotte's draw,
Pitch's refill, Baloot's completion. ``advance`` is the unchecked transition
(for callers that checked already, or that only take legal actions).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from typing import Any, ClassVar, NamedTuple

from ..errors import IllegalActionError, shown

CHANCE = -1


class Action(NamedTuple):
    """One call, declaration, exchange or card.

    ``kind`` is one of: pass accept name nt double redouble nullo slam melds
    dix play draw (and, in other games, their own call words). ``card`` is a
    card code or -1, ``suit`` a suit or -1, ``melds`` the melds declared,
    ``announce`` the word said with a card (``jo``, ``jotte``), ``cards`` the
    cards of a chance event, one mask per seat, and ``info`` its face-up card.
    A deal recorded in part also gives ``unknown``: how many more cards each
    seat holds that nobody recorded (empty: the rest of its share), and
    ``drawn``: the cards the record already gives each seat later (Jo-Jotte's
    draw), checked only against who may hold cards at all.
    """

    seat: int
    kind: str
    card: int = -1
    suit: int = -1
    melds: tuple = ()
    announce: str = ""
    cards: tuple = ()
    info: int = -1
    unknown: tuple = ()
    drawn: tuple = ()


class Violation(NamedTuple):
    """Why an action is illegal: the spec's rule ID and a sentence.

    The sentence names players as ``{p0}``, ``{p1}`` … so that the caller can
    put the players' names in (`format_message`). ``rule`` is the rule that states
    the check the act fails (the spec's §0.3, "Which rule to cite"); ``see_also``
    names other rules the same act breaks. ``at`` is empty when the violation is
    the checked action's own; otherwise ``(kind, seat)`` of the earlier action of
    the hand it belongs to, which only the checked action showed to be illegal
    (a dix exchange judged on the final contract, JJ-DIX-1).
    """

    rule: str
    text: str
    see_also: tuple[str, ...] = ()
    at: tuple = ()


_NAME_FIELD = re.compile(r"\{p(\d+)\}")


def format_message(text: str, names: tuple[str, ...]) -> str:
    """``text`` with each ``{pN}`` replaced by player N's name; any other brace is text the rules quote (a typed
    ``Q{H``), not a format field (issue 16: ``str.format`` raised on it)."""
    return _NAME_FIELD.sub(lambda m: names[int(m.group(1))] if int(m.group(1)) < len(names) else m.group(), text)


def violation_message(v: Violation, names: tuple[str, ...]) -> str:
    """The violation's sentence with the players' names, and the other rules it breaks ("see also JJ-…")."""
    text = format_message(v.text, names)
    if v.see_also:
        text += f" (see also {', '.join(v.see_also)})"
    return text


def quick_replace(cls: type) -> type:
    """Give the named-tuple state ``cls`` a `_replace` by field index: the same new state (and the same ValueError
    for a field it does not have) as the generated one, which calls ``dict.pop`` for every field of a wide state
    (the replays' hot path; issue 14)."""
    index = {f: i for i, f in enumerate(cls._fields)}
    new = tuple.__new__

    def _replace(self, **changes):
        f = list(self)
        for k, v in changes.items():
            i = index.get(k)
            if i is None:
                raise ValueError(f"Got unexpected field names: {list(k for k in changes if k not in index)!r}")
            f[i] = v
        return new(type(self), f)

    cls._replace = _replace
    return cls


@dataclass(frozen=True)
class Options:
    """Base class of a game's named options (house rules and regional variants).

    Options are written in a record's ``[Variant "…"]`` tag as
    ``name=value`` pairs separated by ``;`` (a bare name means ``true``).
    """

    # the values of a game whose spec writes them in capitals (``made_score=POINTS_WON``) are read in any case
    values_any_case: ClassVar[bool] = False

    @classmethod
    def parse(cls, text: str) -> "Options":
        """Read ``"nullo_bidder_may_meld; sequence_tie=defender"``.

        Raises:
            ValueError: an unknown option or a value of the wrong kind.
        """
        if cls.values_any_case:
            items = []
            for raw in text.replace(",", ";").split(";"):
                name, eq, value = raw.partition("=")
                items.append(f"{name}={value.strip().lower()}" if eq else name)
            text = "; ".join(items)
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for raw in text.replace(",", ";").split(";"):
            item = raw.strip()
            if not item:
                continue
            name, _, value = item.partition("=")
            name = name.strip().removeprefix("variant.").removeprefix("opt.")
            if name not in known:
                raise ValueError(f"unknown option '{shown(name)}' (known: {', '.join(sorted(known))})")
            default = known[name].default
            value = value.strip().strip('"') if value else "true"
            if isinstance(default, bool):
                if value.lower() not in ("true", "false", "yes", "no", "1", "0"):
                    raise ValueError(f"option '{name}' takes true or false, not '{value}'")
                values[name] = value.lower() in ("true", "yes", "1")
            elif isinstance(default, int):
                values[name] = int(value)
            else:
                allowed = getattr(cls, "CHOICES", {}).get(name)
                if allowed and value not in allowed:
                    raise ValueError(f"option '{name}' takes one of {', '.join(allowed)}, not '{value}'")
                values[name] = value
        return cls(**values)

    def text(self) -> str:
        """Canonical form: only options that differ from the default, in field order."""
        out = []
        for f in fields(self):
            value = getattr(self, f.name)
            if value != f.default:
                out.append(f.name if value is True else f"{f.name}={str(value).lower() if isinstance(value, bool) else value}")
        return "; ".join(out)


class Rules:
    """Base class of a game: the one protocol the replay engine, simulator, recorder, archive and report use.

    Subclasses set the ClassVars and implement the hooks that raise `NotImplementedError`; the others have
    defaults that fit most games. Nothing outside ``rules/`` calls a private method of a game.
    """

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    title: ClassVar[str]
    seats: ClassVar[int]
    seat_labels: ClassVar[tuple[str, ...]]
    pack: ClassVar[Any]
    options_class: ClassVar[type[Options]] = Options
    rule_prefix: ClassVar[str]
    notation: ClassVar[str] = "jojotte"  # the record codec: "jojotte" (`HandRecord`) or "events" (`EventHand`)
    # the score sheet's columns (teams, sides or players); () means one column per seat
    sheet_labels: ClassVar[tuple[str, ...]] = ()
    tricks_per_hand: ClassVar[int] = 0
    trick_size: ClassVar[int] = 0  # cards in a trick
    dealing_seats: ClassVar[int] = 0  # seats that deal in turn; 0: every seat
    game_target: ClassVar[int | None] = None  # the score that ends a game or match, None when the sheet says
    # the rules cited when the deal goes to the wrong seat, a trick is written as won by the wrong seat, and a
    # hand is played after the game is over ("": the game's rule prefix)
    dealer_rule: ClassVar[str] = ""
    trick_rule: ClassVar[str] = ""
    # the rule cited when a card is written in another trick than the one it is played to ("": the prefix)
    play_rule: ClassVar[str] = ""
    game_rule: ClassVar[str] = ""

    def __init__(self, options: Options | None = None):
        self.options = options or self.options_class()

    # --- the state machine ----------------------------------------------------------
    def initial_state(self, dealer: int, sheet=None):
        """The state before the deal, a chance node. ``sheet``: the game's sheet before the hand (for rules
        that depend on the score, such as Baloot's Sun double), None at the start of a session."""
        raise NotImplementedError

    def check_dealer(self, dealer: int) -> Violation | None:
        """Why ``dealer`` may not deal at all (Jo-Jotte box: the adviser), or None. Whose turn it is to deal
        is the sheet's business (`next_dealer`)."""
        return None

    def next_dealer(self, dealer: int) -> int:
        """Who deals the hand after one dealt by ``dealer``."""
        raise NotImplementedError

    def current_player(self, state) -> int:
        """The seat to act, `CHANCE` for a chance event, -1 when the hand is over."""
        raise NotImplementedError

    def is_terminal(self, state) -> bool:
        raise NotImplementedError

    def legal_actions(self, state) -> tuple[Action, ...]:
        """Every action the player may take now (() at a chance node whose outcomes come from outside)."""
        raise NotImplementedError

    def check(self, state, action: Action) -> Violation | None:
        """None when ``action`` is legal now, else the rule it breaks and why (chance actions included)."""
        raise NotImplementedError

    def advance(self, state, action: Action):
        """The state after ``action``, unchecked: the caller checked it or took it from `legal_actions`."""
        raise NotImplementedError

    # --- the card play's hot path (searches that try every card: the double-dummy solver) ----------------------
    def card_plays(self, state) -> tuple[Action, ...]:
        """The legal cards now: the ``kind == "play"`` actions of `legal_actions`, in the same order (() when no
        card may be played). A game may answer from a memo on what decides them (the hand, the trick so far, the
        trump); a property test holds it to `legal_actions` on random play of every game."""
        return tuple([a for a in self.legal_actions(state) if a.kind == "play"])

    def play_card(self, state, action: Action):
        """The state after ``action``, unchecked: the same state as `advance` (a property test holds them equal on
        random play of every game), by the quickest way the game has for a card (any other action: `advance`)."""
        return self.advance(state, action)

    def apply(self, state, action: Action):
        """The state after ``action``. Raises `IllegalActionError` if it is not legal."""
        v = self.check(state, action)
        if v is not None:
            raise IllegalActionError(v.rule, violation_message(v, self.seat_labels))
        return self.advance(state, action)

    def chance_action(self, state, rng) -> Action:
        """A random outcome of the chance node ``state`` (the simulator's dealer)."""
        raise NotImplementedError

    @staticmethod
    def sim_choice(actions: tuple[Action, ...], rng) -> Action:
        """The simulator's choice among legal actions (a game may prefer plausible play)."""
        return rng.choice(actions)

    # --- the hand's outcome -----------------------------------------------------------
    def tricks(self, state) -> tuple:
        """The finished tricks as ``(leader, cards or (seat, card) pairs, winner)``."""
        return state.history

    def captures(self, state) -> tuple[tuple[int, int, int], ...]:
        """Cards taken outside tricks, as ``(seat, card, points)`` (Pitch's discards of points); () by default."""
        return ()

    def card_points(self, state, card: int) -> int | None:
        """What one card counts in this hand, None when a game does not count cards one by one."""
        return None

    def new_sheet(self):
        """An empty score sheet: ``scores`` per column, ``over``, ``winners`` and ``add(hand_score)``."""
        raise NotImplementedError

    def hand_score(self, state, sheet=None):
        """The score of a finished hand with its credits (each with a column or seat, amount, rule and why)."""
        raise NotImplementedError

    def irregularity_score(self, state, violation: Violation, seat: int, sheet=None):
        """The score of a hand stopped by one irregularity of ``seat``'s play, under a house rule that scores such
        a hand (Baloot's ``qaid``); None (the default): the hand is not scored from its events."""
        return None

    def add_score(self, sheet, score):
        """The sheet after a hand, and what the hand wrote on it (``delta`` and ``credits`` per column, compared
        with the figures written at the table): the hand's score itself by default. A sheet that is over takes
        no more hands."""
        return (sheet if sheet.over else sheet.add(score)), score

    def written_score(self, values: tuple[int, ...]):
        """A hand score made of the figures written at the table (the sheet goes on with them when the hand
        cannot be scored from its events), None when the game has no such reading."""
        return None

    def written_differences(self, values: tuple[int, ...], entry, names: tuple[str, ...]) -> list[tuple[str, str]]:
        """Each figure written at the table (one per column by default) that is not what the hand wrote on the
        sheet (`add_score`), as ``(rule, message)`` with the columns' ``names``: the rule of the credit the
        difference is made of (a forgotten award), else of the one the whole figure is (a wrong amount)."""
        out = []
        for col, (written, real) in enumerate(zip(values, entry.delta)):
            if written == real:
                continue
            parts = [c for c in entry.credits if c.column == col]
            rule = next((c.rule for c in parts if c.amount in (real - written, written - real)),
                        next((c.rule for c in parts if c.amount == real), parts[0].rule if parts else self.rule_prefix))
            why = " + ".join(f"{c.amount} for {c.why} [{c.rule}]" for c in parts) or "nothing scores"
            out.append((rule, f"{names[col]}'s score is written {written}, but is {real}: {why}"))
        return out

    # --- the session ----------------------------------------------------------------
    # the header tag that says how long the session was agreed to be ("": none), and the phase of the
    # finding that a hand comes after its end ("deal": found before the hand is replayed, else after)
    session_length_tag: ClassVar[str] = ""
    session_over_phase: ClassVar[str] = "deal"

    def turn_to_deal(self, expected: int, dealer: int, first: bool, sheet) -> Violation | None:
        """Why ``dealer`` may not deal the next hand when the sheet says it is ``expected``'s turn (-1: anybody;
        ``first``: the session's first hand), or None."""
        if expected < 0 or dealer == expected:
            return None
        return Violation(self.dealer_rule or self.rule_prefix, f"{{p{dealer}}} deals, but it is {{p{expected}}}'s deal")

    def session_over(self, sheet, names: tuple[str, ...], length: int | None) -> Violation | None:
        """Why no hand may follow on ``sheet`` (the game is over), or None; ``names``: the columns' names,
        ``length``: the value of `session_length_tag`."""
        if sheet.over:
            won = " and ".join(names[c] for c in sheet.winners) or "nobody"
            return Violation(self.game_rule or self.rule_prefix, f"the game was already over before this hand ({won} won)")
        return None

    def sheet_carry(self, sheet, length: int | None):
        """What of ``sheet`` the hands after it depend on (the dealer's turn, their scores and what they write on the
        sheet, the end of the session; ``length``: the value of `session_length_tag`), when the rest of the sheet only
        adds up running totals that nothing reads back; None (the default) when any part of it may matter.

        Two sheets with the same carry give the same verdicts to the hands that follow, and sheets that differ
        only by the same running totals (`sheet_rebase`): ``validate --jobs`` cuts a long session on it."""
        return None

    def sheet_rebase(self, sheet, start, base):
        """``sheet``, reached from ``start`` by some hands, as the same hands reach it from ``base`` (a sheet with the
        same `sheet_carry` as ``start``): its running totals moved by what separates ``base`` from ``start``."""
        return sheet

    def sheet_figures(self, sheet, column: int) -> dict:
        """One column of a session's sheet in ``validate --json``, the same keys in every game: ``below`` /
        ``above`` (null in games without a line), ``games`` / ``rubbers`` won (null in games without them) and
        ``total``."""
        return {"below": None, "above": None, "games": None, "rubbers": None, "total": sheet.scores[column]}

    def hand_facts(self, state, score) -> dict:
        """A flat dict of what the archive and the report show of a hand (``contract``, ``declarer`` …)."""
        return {}

    def contract_text(self, state) -> str:
        """The contract in words, as the report and the tournament pages write it ("" before one)."""
        return ""

    def columns_of(self) -> tuple[str, ...]:
        """The score sheet's column labels: `sheet_labels`, or the seats."""
        return tuple(self.sheet_labels) or tuple(self.seat_labels)

    def column_names(self, names: tuple[str, ...]) -> tuple[str, ...]:
        """The names of this game's sheet columns from the players' names (`sheet_names`)."""
        return self.sheet_names(names)

    @classmethod
    def sheet_names(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        """The names of the sheet's columns from the players' names in seat order: the players', or each
        team's players joined (``Ann & Bob``)."""
        labels = tuple(cls.seat_labels)
        columns = tuple(cls.sheet_labels) or labels
        if columns == labels:
            return names
        out = []
        for col in columns:
            members = [names[i] for i, lab in enumerate(labels) if lab in col and i < len(names)]
            out.append(" & ".join(members) if members else col)
        return tuple(out)

    # --- what a finished hand shows: hooks with defaults ----------------------
    def trick_card_points(self, state, number: int) -> int | None:
        """The card points of the finished trick ``number`` (1-based) by the game's count, the last-trick bonus
        included where the game has one; None when the game does not count them or the trick was not played."""
        return None

    def card_points_taken(self, state) -> tuple[int, ...] | None:
        """The card points each column of the score sheet took in tricks by the game's count (the last-trick bonus
        included where the game has one), for a hand whose tricks were all played; None otherwise."""
        return None

    def column_scores(self, state, score) -> tuple[tuple[int, int, int], ...]:
        """Per column of the sheet, ``(trick_points, meld_points, total)`` of a scored hand: what its tricks scored
        in the game's unit, what its melds (projects, Baloot) scored, and the hand total that decides it; ``()``
        when the game does not say."""
        return ()


VARIANTS: dict[str, type[Rules]] = {}
GAMES = ("jojotte", "jojotte3", "jojotte4", "pitch", "baloot")  # the modules of the games, in the order looked in


def register(cls: type[Rules]) -> type[Rules]:
    for key in (cls.name, *cls.aliases):
        VARIANTS[key] = cls
    return cls


def import_games(until: str | None = None) -> None:
    """Import the modules of the games (`GAMES`, which register their classes), in order, until one registers the
    name ``until``; all of them without it."""
    from importlib import import_module

    for module in GAMES:
        if until is not None and until in VARIANTS:
            return
        import_module(f"{__package__}.{module}")


def find_variant(name: str) -> type[Rules]:
    """The game class for a ``Game`` tag or ``--game`` value.

    Raises:
        ValueError: no game of that name.
    """
    key = name.strip().lower()
    if key not in VARIANTS:
        import_games(until=key)
    try:
        return VARIANTS[key]
    except KeyError:
        known = sorted({c.name for c in VARIANTS.values()})
        raise ValueError(f"unknown game '{shown(name)}' (known: {', '.join(known)})") from None


class EventRules(Rules):
    """A game recorded as a log of events (Pitch, Baloot): what is specific to that record codec.

    A hand is written as lines ``keyword [N:] LABEL words, LABEL words … [-> WINNER]``; each item (a seat or
    game label and its words) is one `Action`. The record keeps the lines as written (`record.EventHand`); the
    replay engine turns each item into an action with `read_item` in the state reached so far, then checks
    and advances. A chance event (seat `CHANCE`, such as the deal) may be written as several items of one
    line (``deal N: …; E: …; up: JD``): ``read_item`` gives each item's part (``cards`` with the other seats'
    masks 0, or ``info``) and the engine merges the parts of one line into one action (the masks OR-ed seat
    by seat, the non-negative ``info`` kept).
    """

    notation: ClassVar[str] = "events"
    # the line keywords of a hand (besides ``hand``), as the game's documentation lists them
    line_keywords: ClassVar[tuple[str, ...]] = ()
    # lines written as "LABEL: words; LABEL: words" (lists of cards); the others as "LABEL words, LABEL words"
    list_lines: ClassVar[frozenset[str]] = frozenset({"deal"})

    def read_item(self, state, keyword: str, number: int, label: str, words: tuple[str, ...]) -> "Action | Violation":
        """The action a written item stands for in ``state`` (``number``: the line's number, -1 when none)."""
        raise NotImplementedError

    def column_names(self, names: tuple[str, ...]) -> tuple[str, ...]:
        """The columns' names from this instance's seats and columns (Pitch's depend on its options)."""
        labels = tuple(self.seat_labels)
        if tuple(self.sheet_labels) == labels:
            return names
        out = []
        for col in self.sheet_labels:
            members = [names[i] for i, lab in enumerate(labels) if lab in col]
            out.append(" & ".join(members) if members else col)
        return tuple(out)

    def items_of(self, state, action: Action) -> list[tuple[str, int, str, tuple[str, ...]]]:
        """The written items ``(keyword, number, label, words)`` of an action taken in ``state``."""
        raise NotImplementedError

    def check_number(self, state, keyword: str, number: int, action: Action, words: tuple[str, ...]) -> Violation | None:
        """Why the legal ``action`` read from an item of the line ``keyword number:`` contradicts the line's number
        (a card written in trick 5 that is played to trick 6), or None; the replay notes it as a record that
        contradicts itself. By default only ``trick`` lines are numbered: the trick after the finished ones."""
        if keyword != "trick" or number < 0 or action.seat == CHANCE or self.is_terminal(state):
            return None
        due = len(self.tricks(state)) + 1
        if number == due:
            return None
        return Violation(self.play_rule or self.rule_prefix, f"{{p{action.seat}}}'s {' '.join(words)} is written in trick "
                         f"{number}, but it is played to trick {due}")

    def unknown_line(self, keyword: str) -> Violation:
        """The finding of a line whose keyword is not one of this game's (`line_keywords`, listed in it)."""
        return Violation("NOTATION", f"unknown line '{keyword}' ({self.name.capitalize()} lines: {', '.join(self.line_keywords)})")
