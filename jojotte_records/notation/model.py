"""The in-memory form of a record: sessions, hands, calls, tricks, written scores.

These are light immutable tuples, built by the notation parser and by
`notation/json_form.py` (the pydantic/JSON form), and read by the validator, the
writer, the archive and the reports. Card codes are those of `cards.py`;
``UNKNOWN_CARD`` stands for a card nobody recorded (``?``).
"""

from __future__ import annotations

from typing import NamedTuple

from ..errors import Issue

UNKNOWN_CARD = -2
FORMAT_VERSION = 1

# canonical tag order; other tags follow in the order they were read
TAG_ORDER = ("Format", "Event", "Site", "Date", "Round", "Table", "Game", "Players", "FirstDealer", "Variant",
             "Rubbers", "Scorer")


class Call(NamedTuple):
    """A call of the auction, or an event after the draw (``nullo``, ``slam``, ``melds``, ``dix``, ``pass``)."""

    seat: int
    kind: str
    suit: int = -1
    melds: tuple = ()
    line: int = 0
    column: int = 0
    comments: tuple[str, ...] = ()


class Play(NamedTuple):
    """One card played, with the word said as it was played (``jo``, ``jotte``)."""

    kind = "play"  # not a field: a Play is read as the play action itself (`rules.base.Action`)

    seat: int
    card: int
    announce: str = ""
    line: int = 0
    column: int = 0
    comments: tuple[str, ...] = ()


class Trick(NamedTuple):
    number: int
    plays: tuple[Play, ...]
    winner: int = -1  # as written at the table (``-> A``), -1 when not written
    line: int = 0
    column: int = 0
    comments: tuple[str, ...] = ()
    # calls made during the trick, as written among its cards (a dix exchanged late, JJ-DIX-3): each with the
    # number of cards of the trick played before it
    calls: tuple[tuple[int, Call], ...] = ()


class SeatResult(NamedTuple):
    """A hand recorded without its cards: the tricks a player won and his trick score."""

    seat: int
    tricks: int
    points: int


class WrittenScore(NamedTuple):
    """The figures written on the score sheet for a hand, per seat (below, above), and the points held aside."""

    below: tuple[int, ...]
    above: tuple[int, ...]
    aside: int = 0
    line: int = 0
    column: int = 0


class HandRecord(NamedTuple):
    """One deal as recorded.

    ``dealt[seat]`` is the tuple of cards dealt first (``UNKNOWN_CARD`` for a
    ``?``), or None when nobody recorded that hand; ``drawn[seat]`` the cards
    of the draw, or None when the record gives the hand after the draw
    without saying which cards were drawn (then ``dealt`` holds all of them
    and ``split`` is False).
    """

    number: int
    dealer: int
    dealt: tuple[tuple[int, ...] | None, ...]
    drawn: tuple[tuple[int, ...] | None, ...] | None
    split: bool
    turned: int | None
    info: int | None
    stock: tuple[int, ...] | None
    auction: tuple[Call, ...]
    after: tuple[Call, ...]
    tricks: tuple[Trick, ...]
    claim: int = -1  # seat that claimed the remaining tricks
    result: tuple[SeatResult, ...] = ()
    score: WrittenScore | None = None
    line: int = 0
    notes: tuple[tuple[str, tuple[str, ...]], ...] = ()  # comments bound to a whole line, by keyword
    issues: tuple[Issue, ...] = ()  # what the parser could not read
    extra: tuple[tuple[str, str], ...] = ()  # unknown lines kept as they were (keyword, rest)
    marks: tuple[tuple[str, int, int], ...] = ()  # where parts were read: ("dealer" | "deal" | "turned" | "info", line, column)

    def mark(self, key: str) -> tuple[int, int] | None:
        for k, line, col in self.marks:
            if k == key:
                return line, col
        return None

    def note(self, key: str) -> tuple[str, ...]:
        for k, v in self.notes:
            if k == key:
                return v
        return ()


class SessionHeader(NamedTuple):
    """The tags of a session, in the order read, and where it starts."""

    tags: tuple[tuple[str, str], ...]
    line: int = 0
    source: str | None = None
    comments: tuple[str, ...] = ()
    issues: tuple[Issue, ...] = ()
    tag_lines: tuple[int, ...] = ()  # the line of each tag, in the order of ``tags``

    def tag_line(self, name: str) -> int | None:
        lname = name.lower()
        for (k, _), line in zip(self.tags, self.tag_lines):
            if k.lower() == lname:
                return line
        return self.line or None

    def get(self, name: str, default: str | None = None) -> str | None:
        lname = name.lower()
        for k, v in self.tags:
            if k.lower() == lname:
                return v
        return default


class Session(NamedTuple):
    header: SessionHeader
    hands: tuple[HandRecord, ...]


# --- games recorded as a log of events (Pitch, Baloot; `rules.base.EventRules`) ----------

class EventItem(NamedTuple):
    """One written event: a label (a seat, or a game word such as ``stock``) and the words after it."""

    label: str
    words: tuple[str, ...]
    line: int = 0
    column: int = 0
    comments: tuple[str, ...] = ()


class EventLine(NamedTuple):
    """One line of a hand: ``keyword [N:] LABEL words, LABEL words … [-> WINNER]``."""

    keyword: str
    number: int = -1  # the line's number (a trick's), -1 when none
    items: tuple[EventItem, ...] = ()
    winner: str = ""  # the label written after ``->``, "" when none
    line: int = 0
    column: int = 0
    comments: tuple[str, ...] = ()


class EventScore(NamedTuple):
    """The points a hand wrote on the score sheet, per column (team or player)."""

    values: tuple[int, ...]
    line: int = 0
    column: int = 0
    comments: tuple[str, ...] = ()


class EventHand(NamedTuple):
    """One deal of an event-log game, its lines kept as written."""

    number: int
    dealer: int
    lines: tuple[EventLine, ...]
    score: EventScore | None = None
    line: int = 0
    column: int = 0  # of the dealer's label
    comments: tuple[str, ...] = ()  # bound to the hand line
    issues: tuple[Issue, ...] = ()
