"""Errors as values: every problem found in a record is an `Issue`.

`NotationError` (the text cannot be read) and `IllegalActionError` (a call or
card breaks a rule) are the two exception types; both subclass `ValueError`
and `JojotteError`, and both carry the `Issue` that describes them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Location:
    """Where an issue is: in the file (line, column) and in the game (hand, trick, card)."""

    source: str | None = None
    line: int | None = None
    column: int | None = None
    session: int | None = None
    hand: int | None = None
    phase: str | None = None  # deal, auction, after, trick, score, sheet
    step: int | None = None  # auction call or after-draw call number (1-based)
    trick: int | None = None  # 1-based
    card: int | None = None  # 1-based position within the trick

    def where(self) -> str:
        parts = []
        if self.hand is not None:
            parts.append(f"hand {self.hand}")
        if self.trick is not None:
            parts.append(f"trick {self.trick}" + (f", card {self.card}" if self.card else ""))
        elif self.phase in ("auction", "after") and self.step is not None:
            parts.append(f"{'auction' if self.phase == 'auction' else 'after the draw'}, call {self.step}")
        elif self.phase:
            parts.append(self.phase)
        return ", ".join(parts)

    def file_pos(self) -> str:
        src = self.source or "<input>"
        if self.line is None:
            return src
        return f"{src}:{self.line}:{self.column or 1}"


@dataclass(frozen=True, slots=True)
class Issue:
    """One finding: a rule ID, a location and a sentence a club player understands.

    ``kind`` is ``syntax`` (unreadable text), ``illegal`` (a call or card
    breaks a rule), ``score`` (a written figure is wrong), ``consistency``
    (the record contradicts itself) or ``unchecked`` (a check that the
    record's information did not allow; not an error).
    """

    rule: str
    message: str
    loc: Location = field(default_factory=Location)
    kind: str = "illegal"
    token: str | None = None
    see_also: tuple[str, ...] = ()  # other rules the same act breaks (the spec's §0.3)

    @property
    def is_error(self) -> bool:
        return self.kind != "unchecked"

    def __str__(self) -> str:
        where = self.loc.where()
        return f"{self.loc.file_pos()}: {where + ': ' if where else ''}{self.message} ({self.rule})"

    def to_json(self) -> dict:
        return {
            "rule": self.rule,
            "kind": self.kind,
            "hand": self.loc.hand,
            "trick": self.loc.trick,
            "card": self.loc.card,
            "step": self.loc.step,
            "phase": self.loc.phase,
            "line": self.loc.line,
            "column": self.loc.column,
            "message": self.message,
            "see_also": list(self.see_also),
        }


class JojotteError(Exception):
    """Base class of every error this library raises."""


class NotationError(JojotteError, ValueError):
    """The text of a record cannot be read."""

    def __init__(self, issue: Issue):
        super().__init__(str(issue))
        self.issue = issue


class IllegalActionError(JojotteError, ValueError):
    """An action is not legal in the state it was applied to."""

    def __init__(self, rule: str, message: str):
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.message = message


# The largest number a record may write — a hand or trick number, a score, a result, [Rubbers] — in both
# readers (notation/text.py, notation/event_text.py): far above any real session, and well inside the archive's
# 32-bit columns (issue 16: 2**31 passed validate and crashed import).
MAX_NUMBER = 999_999_999
_SHOWN_DIGITS = 24  # a longer number is quoted by its first digits and its length


def plain_digits(text: str) -> bool:
    """``text`` is digits 0–9 and nothing else: a number as a record writes it (``'²'.isdigit()`` is true, but
    ``int('²')`` raises, and ``'１２'`` would not be written back as it was read)."""
    return text.isascii() and text.isdigit()


def number_too_large(what: str, digits: str) -> str | None:
    """The message for the number ``digits`` (a sign allowed) when it is above `MAX_NUMBER`, else None.

    It looks at the text only, so it is safe before ``int()`` (which refuses more than 4300 digits).
    """
    plain = digits.lstrip("+-").lstrip("0")
    if len(plain) < len(str(MAX_NUMBER)) or (len(plain) == len(str(MAX_NUMBER)) and int(plain) <= MAX_NUMBER):
        return None
    shown = plain if len(plain) <= _SHOWN_DIGITS else f"{plain[:12]}… ({len(plain)} digits)"
    return f"{what} {shown} is too large (at most {MAX_NUMBER})"


# What a message quotes of the input is at most this many characters (issue 16: a 50 MB line was printed back whole).
MAX_QUOTE = 60
# The longest tag value a record may write (an [Event] name, a [Variant] list): far above any real one; a longer
# value is a located syntax error and is not kept (issue 16: a 5 MB [Event] took 975 MB to read).
MAX_TAG_VALUE = 10_000


def shown(text: str, limit: int = MAX_QUOTE) -> str:
    """``text`` as a message quotes it: at most ``limit`` characters, a cut one ending in "…".

    >>> shown("KS")
    'KS'
    >>> shown("abcdefgh", 5)
    'abcd…'
    """
    return text if len(text) <= limit else text[:limit - 1] + "…"


def win_verb(who: str) -> str:
    """"win" for a side named by its players (``Nora and Sam``, ``Nell & Sue``), else "wins".

    >>> win_verb("Nora and Sam"), win_verb("Eve")
    ('win', 'wins')
    """
    return "win" if " and " in who or " & " in who else "wins"


def wins(who: str, what: str = "") -> str:
    """``who wins`` or, for a side named by its players, ``who win`` (`win_verb`); ``what`` follows.

    >>> wins("Nora and Sam", "the session")
    'Nora and Sam win the session'
    >>> wins("Eve")
    'Eve wins'
    """
    return f"{who} {win_verb(who)}" + (f" {what}" if what else "")


# Characters a terminal acts on instead of showing (issue 16: `[Event "Club\x1b]0;PWNED\x07"]` retitled the terminal):
# C0 controls but tab and newline (layout), DEL, C1 controls, and the bidirectional overrides and isolates that can
# make a line read other than it is.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_UNSAFE_IN_JSON = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069]")  # json.dumps escapes C0 itself


def printable(text: str) -> str:
    """``text`` with every character a terminal would act on shown as its escape (``\\x1b``, ``\\u202e``).

    >>> printable("Club\\x1b]0;PWNED\\x07 \\u202eok")
    'Club\\\\x1b]0;PWNED\\\\x07 \\\\u202eok'
    """
    if not _UNSAFE.search(text):
        return text
    return _UNSAFE.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}", text)


def printable_json(text: str) -> str:
    """A JSON text with DEL, C1 and the bidirectional controls written ``\\uXXXX`` too (json.dumps escapes only C0).

    These characters can only be inside strings, so the text stays the same JSON value.

    >>> printable_json('{"event": "a\\u202eb"}')
    '{"event": "a\\\\u202eb"}'
    """
    return _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
