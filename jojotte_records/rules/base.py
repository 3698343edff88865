"""The shape every game shares: actions, violations, the `Rules` base class and the registry.

A game is a `Rules` subclass. Its states are immutable values; the three
functions at the heart of it are

* ``legal_actions(state)``: every action the player (or chance) may take now,
* ``check(state, action)``: ``None`` when the action is legal, else the
  `Violation` that says which rule it breaks and why,
* ``apply(state, action)``: the next state (raises `IllegalActionError`).

``check`` and ``legal_actions`` are written from the same rule functions, and a
property test holds them to each other. Chance events (the draw) are actions
with ``seat == CHANCE``.
"""

from __future__ import annotations

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
    """

    seat: int
    kind: str
    card: int = -1
    suit: int = -1
    melds: tuple = ()
    announce: str = ""
    cards: tuple = ()
    info: int = -1


class Violation(NamedTuple):
    """Why an action is illegal: the spec's rule ID and a sentence.

    The sentence names players as ``{p0}``, ``{p1}`` … so that the caller can
    put the players' names in (`format_message`).
    """

    rule: str
    text: str


def format_message(text: str, names: tuple[str, ...]) -> str:
    return text.format(**{f"p{i}": n for i, n in enumerate(names)})


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
    """Base class of a game. Subclasses set the ClassVars and implement the hooks."""

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    title: ClassVar[str]
    seats: ClassVar[int]
    seat_labels: ClassVar[tuple[str, ...]]
    pack: ClassVar[Any]
    options_class: ClassVar[type[Options]] = Options
    rule_prefix: ClassVar[str]

    def __init__(self, options: Options | None = None):
        self.options = options or self.options_class()

    # --- the heart: subclasses implement these --------------------------------
    def legal_actions(self, state) -> tuple[Action, ...]:
        raise NotImplementedError

    def check(self, state, action: Action) -> Violation | None:
        raise NotImplementedError

    def _next(self, state, action: Action):
        raise NotImplementedError

    def apply(self, state, action: Action):
        """The state after ``action``. Raises `IllegalActionError` if it is not legal."""
        v = self.check(state, action)
        if v is not None:
            raise IllegalActionError(v.rule, format_message(v.text, self.seat_labels))
        return self._next(state, action)

    def is_terminal(self, state) -> bool:
        raise NotImplementedError

    def current_player(self, state) -> int:
        raise NotImplementedError


VARIANTS: dict[str, type[Rules]] = {}


def register(cls: type[Rules]) -> type[Rules]:
    for key in (cls.name, *cls.aliases):
        VARIANTS[key] = cls
    return cls


def find_variant(name: str) -> type[Rules]:
    """The game class for a ``Game`` tag or ``--game`` value.

    Raises:
        ValueError: no game of that name.
    """
    key = name.strip().lower()
    try:
        return VARIANTS[key]
    except KeyError:
        known = sorted({c.name for c in VARIANTS.values()})
        raise ValueError(f"unknown game '{shown(name)}' (known: {', '.join(known)})") from None


class EventRules(Rules):
    """A game recorded as a log of events (Pitch, Baloot): one protocol for the notation, validator,
    simulator, archive and report.

    A hand is written as lines ``keyword [N:] LABEL words, LABEL words … [-> WINNER]``; each item
    (a seat or game label and its words) is one `Action`. The record keeps the lines as written
    (`record.EventHand`); the validator turns each item into an action with `read_item` in the state
    reached so far, then checks and applies it. Chance events (the deal, a refill) are items too.

    A subclass implements, besides ``legal_actions``/``check``/``_next``/``is_terminal``/``current_player``:

    * ``initial_state(dealer, sheet)`` (``sheet``: the game's sheet before the hand, for rules that depend on the
      score, such as Baloot's Sun double; None at the start), ``next_dealer(dealer)``, ``chance_action(state, rng)``;
    * ``sheet_labels``: the score sheet's columns (teams or players);
    * ``new_sheet()``: an empty sheet, a value with ``scores`` (per column), ``over`` (bool),
      ``winners`` (columns) and ``add(hand_score) -> sheet``;
    * ``hand_score(state, sheet)``: the score of a finished hand, a value with ``delta`` (per column)
      and ``credits`` (each with ``column``, ``amount``, ``rule``, ``why``);
    * ``read_item(state, keyword, number, label, words) -> Action | Violation`` and
      ``items_of(state, action) -> [(keyword, number, label, words), …]``: the codec between written items
      and an action (``number`` is the line's number, such as a trick's, or -1). A player's action is one
      item. A chance event (seat `CHANCE`, such as the deal) may be written as several items of one line
      (``deal N: …; E: …; up: JD``): ``read_item`` gives each item's part (``cards`` with the other seats'
      masks 0, or ``info``) and the validator merges the parts of one line into one action (the masks
      OR-ed seat by seat, the non-negative ``info`` kept). (``item_of`` returning one tuple is accepted too.)
    * ``tricks(state)``: the finished tricks as ``(leader, ((seat, card), …), winner)``;
    * ``hand_facts(state, score)``: a flat dict of what the archive and the report show of a hand
      (``contract``, ``declarer`` seat, ``made`` …; values str, int, bool or None).
    """

    notation: ClassVar[str] = "events"
    # lines written as "LABEL: words; LABEL: words" (lists of cards); the others as "LABEL words, LABEL words"
    list_lines: ClassVar[frozenset[str]] = frozenset({"deal"})
    sheet_labels: tuple[str, ...] = ()

    def initial_state(self, dealer: int, sheet=None):
        raise NotImplementedError

    def next_dealer(self, dealer: int) -> int:
        raise NotImplementedError

    def chance_action(self, state, rng) -> Action:
        raise NotImplementedError

    def new_sheet(self):
        raise NotImplementedError

    def hand_score(self, state, sheet):
        raise NotImplementedError

    def read_item(self, state, keyword: str, number: int, label: str, words: tuple[str, ...]) -> "Action | Violation":
        raise NotImplementedError

    def items_of(self, state, action: Action) -> list[tuple[str, int, str, tuple[str, ...]]]:
        one = getattr(self, "item_of", None)
        if one is None:
            raise NotImplementedError
        got = one(state, action)
        return list(got) if isinstance(got, list) else [got]

    def tricks(self, state) -> tuple:
        raise NotImplementedError

    def hand_facts(self, state, score) -> dict:
        return {}
