"""The JSON form of records: pydantic v2 models, and conversion to and from the in-memory form.

The models carry the same information as the text notation, so
``text -> JSON -> text`` loses nothing. Cards are written as in the notation
(``JS``, ``TH``, ``?``), seats by their labels (``A``, ``B``). The JSON
Schema in ``schemas/record.schema.json`` is generated from `RecordFile`
(`jojotte_records.notation.schema.export_schemas`).

The validator does not build these models on its hot path: it reads the
light tuples of `notation/model.py`, which both the text reader and `to_session`
produce.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator, Literal

from pydantic import BaseModel, ConfigDict, Field, model_serializer, model_validator

from ..cards import card_name, parse_card
from ..rules.jojotte_cards import parse_meld
from .model import (
    FORMAT_VERSION,
    UNKNOWN_CARD,
    Call,
    EventHand,
    EventItem,
    EventLine,
    EventScore,
    HandRecord,
    Play,
    SeatResult,
    Session,
    SessionHeader,
    Trick,
    WrittenScore,
)

CallWord = Literal["pass", "accept", "name", "nt", "double", "redouble", "nullo", "slam", "melds", "dix",
                   "defend", "withdraw", "with_declarer", "with_doubler"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)


def _card_text(c: int) -> str:
    return "?" if c == UNKNOWN_CARD else card_name(c)


def _card_code(t: str) -> int:
    return UNKNOWN_CARD if t == "?" else parse_card(t)


class CallModel(_Model):
    seat: str
    """Seat label of the player who called (``A``, ``B`` …)."""
    call: CallWord
    """The call: pass, accept, name, nt, double, redouble, and with_declarer / with_doubler (the side chosen after a double, three players) in the auction; nullo, slam, melds, dix, pass, and defend / withdraw (three players) after the draw."""
    suit: Literal["S", "H", "D", "C"] | None = None
    """The suit of a NAME call."""
    melds: list[str] = Field(default_factory=list)
    """The melds of a MELDS call: ``4K`` for four kings, ``KH-JH`` for the sequence KH QH JH."""
    comments: list[str] = Field(default_factory=list)
    """Comments bound to this call, without braces."""


class PlayModel(_Model):
    seat: str
    """Seat label of the player of the card."""
    card: str
    """The card (``KS``), or ``?`` when it was not recorded."""
    announce: str | None = None
    """What the player said with the card: ``jo`` or ``jotte``."""
    comments: list[str] = Field(default_factory=list)
    """Comments bound to this card."""


class TrickCallModel(CallModel):
    after_cards: int = Field(ge=0)
    """How many cards of the trick were played before the call (0: before its first card)."""


class TrickModel(_Model):
    number: int = Field(ge=1)
    """Trick number, from 1."""
    plays: list[PlayModel]
    """The cards in the order they were played, the lead first."""
    winner: str | None = None
    """The trick's winner as written at the table (checked by the validator), if written."""
    comments: list[str] = Field(default_factory=list)
    """Comments bound to the trick before its first card."""
    calls: list[TrickCallModel] = Field(default_factory=list)
    """Calls written among the cards of the trick (a dix exchanged during the play, JJ-DIX-3), in order."""

    @model_serializer(mode="wrap")
    def _without_empty_calls(self, handler):
        # a trick without calls is written as before the field existed (archive content hashes stay the same)
        out = handler(self)
        if not self.calls and isinstance(out, dict):
            out.pop("calls", None)
        return out


class SeatResultModel(_Model):
    seat: str
    """Seat label."""
    tricks: int = Field(ge=0)
    """Tricks the player won."""
    points: int = Field(ge=0)
    """His trick score: card points, last trick and Jo-Jotte."""


class WrittenScoreModel(_Model):
    below: dict[str, int] = Field(default_factory=dict)
    """Points written below the line for this hand, by column of the score sheet: a seat, or a side (``NS``, ``EW``) in a partnership game (missing columns: 0)."""
    above: dict[str, int] = Field(default_factory=dict)
    """Points written above the line for this hand, by seat, including held-aside points awarded and the rubber bonus."""
    aside: int = 0
    """Points this hand put aside (in a circle)."""


class HandModel(_Model):
    number: int = Field(ge=0)
    """Hand number within the session."""
    dealer: str | None
    """Seat label of the dealer."""
    dealt: dict[str, list[str] | None] = Field(default_factory=dict)
    """Cards dealt to each seat (``?`` for an unrecorded card; null or missing for an unknown hand). When ``split`` is false these are the cards held after the draw."""
    drawn: dict[str, list[str] | None] | None = None
    """Cards each seat received in the draw, when known apart from the dealt cards."""
    split: bool = False
    """True when ``dealt`` and ``drawn`` are given apart."""
    turned: str | None = None
    """The turned card (its suit is the turned suit)."""
    info: str | None = None
    """The information card turned after the draw."""
    stock: list[str] | None = None
    """The stock cards nobody plays, if recorded."""
    auction: list[CallModel] = Field(default_factory=list)
    """The calls of the bidding, in order."""
    after: list[CallModel] = Field(default_factory=list)
    """The calls after the draw (Nullo, Slam, melds, pass) and the dix exchange, in order."""
    tricks: list[TrickModel] = Field(default_factory=list)
    """The tricks, in order."""
    claim: str | None = None
    """Seat that claimed the remaining tricks (conceded by the opponent)."""
    result: list[SeatResultModel] = Field(default_factory=list)
    """Tricks and trick score per seat, for a hand recorded without its cards."""
    score: WrittenScoreModel | None = None
    """The score written at the table for this hand."""
    notes: dict[str, list[str]] = Field(default_factory=dict)
    """Comments bound to whole lines (``hand``, ``deal``, ``auction`` …)."""
    extra: list[tuple[str, str]] = Field(default_factory=list)
    """Lines the reader did not know, kept as (keyword, rest of line)."""


class EventItemModel(_Model):
    label: str
    """A seat label (``N``), or a word of the game (``stock``, ``up``)."""
    words: list[str] = Field(default_factory=list)
    """What was written after the label: a call (``5``, ``pass``, ``hokum``), a suit, cards."""
    comments: list[str] = Field(default_factory=list)
    """Comments bound to this item."""


class EventLineModel(_Model):
    keyword: str
    """The line's keyword: ``deal``, ``bids``, ``trump``, ``discard``, ``trick`` … (see docs/notation.md)."""
    number: int | None = None
    """The line's number (a trick's), if it has one."""
    items: list[EventItemModel] = Field(default_factory=list)
    """The events of the line, in order."""
    winner: str | None = None
    """The trick's winner as written at the table (checked by the validator), if written."""
    comments: list[str] = Field(default_factory=list)
    """Comments bound to the line before its first item."""


class EventHandModel(_Model):
    """A hand of a game recorded as a log of events (Pitch, Baloot)."""

    number: int = Field(ge=0)
    """Hand number within the session."""
    dealer: str | None
    """Seat label of the dealer."""
    lines: list[EventLineModel]
    """The hand's lines, in order."""
    score: dict[str, int] | None = None
    """The points written on the sheet for this hand, by column (team or player)."""
    score_comments: list[str] = Field(default_factory=list)
    """Comments bound to the score line."""
    comments: list[str] = Field(default_factory=list)
    """Comments bound to the hand line."""


class SessionModel(_Model):
    format_version: Literal[1] = FORMAT_VERSION
    """Version of the record format."""
    tags: list[tuple[str, str]]
    """Header tags in order: Event, Site, Date, Game, Players, FirstDealer, Variant, Rubbers … (name, value)."""
    comments: list[str] = Field(default_factory=list)
    """Comments of the header."""
    hands: list[HandModel | EventHandModel] = Field(default_factory=list)
    """The hands, in the order played (event-log hands for Pitch and Baloot)."""


class RecordFile(_Model):
    """A file of Jo-Jotte family records in JSON form."""

    format_version: Literal[1] = FORMAT_VERSION
    """Version of the record format; files of older versions are upgraded when read."""
    sessions: list[SessionModel]
    """The sessions of the file."""

    @model_validator(mode="before")
    @classmethod
    def _upgrade(cls, data: Any) -> Any:
        # format 1 is the first version; later versions add their migrations here
        return data


# --- conversion -------------------------------------------------------------------

def _labels(header: SessionHeader) -> tuple[str, ...]:
    from .text import seat_labels

    return seat_labels(header)


def _score_labels(header: SessionHeader) -> tuple[str, ...]:
    from .text import sheet_labels

    return sheet_labels(header)


def _call_model(c: Call, labels) -> CallModel:
    return CallModel(seat=labels[c.seat], call=c.kind, suit="SHDC"[c.suit] if c.kind == "name" else None,
                     melds=[m.text() for m in c.melds], comments=list(c.comments))


def hand_to_model(h: HandRecord, labels: tuple[str, ...], score_labels: tuple[str, ...] | None = None) -> HandModel:
    columns = score_labels or labels  # the score sheet's columns: seats, or sides
    dealt = {labels[s]: ([_card_text(c) for c in d] if d is not None else None) for s, d in enumerate(h.dealt)}
    drawn = None
    if h.drawn is not None:
        drawn = {labels[s]: ([_card_text(c) for c in d] if d is not None else None) for s, d in enumerate(h.drawn)}
    score = None
    if h.score is not None:
        score = WrittenScoreModel(below={columns[s]: v for s, v in enumerate(h.score.below) if v},
                                  above={columns[s]: v for s, v in enumerate(h.score.above) if v}, aside=h.score.aside)
    return HandModel(
        number=h.number, dealer=labels[h.dealer] if h.dealer >= 0 else None, dealt=dealt, drawn=drawn, split=h.split,
        turned=card_name(h.turned) if h.turned is not None else None, info=card_name(h.info) if h.info is not None else None,
        stock=[card_name(c) for c in h.stock] if h.stock is not None else None,
        auction=[_call_model(c, labels) for c in h.auction], after=[_call_model(c, labels) for c in h.after],
        tricks=[TrickModel(number=t.number, plays=[PlayModel(seat=labels[p.seat], card=_card_text(p.card), announce=p.announce or None,
                                                             comments=list(p.comments)) for p in t.plays],
                           winner=labels[t.winner] if t.winner >= 0 else None, comments=list(t.comments),
                           calls=[TrickCallModel(after_cards=k, **_call_model(c, labels).model_dump()) for k, c in t.calls])
                for t in h.tricks],
        claim=labels[h.claim] if h.claim >= 0 else None,
        result=[SeatResultModel(seat=labels[r.seat], tricks=r.tricks, points=r.points) for r in h.result],
        score=score, notes={k: list(v) for k, v in h.notes}, extra=list(h.extra))


def event_hand_to_model(h: EventHand, labels: tuple[str, ...], columns: tuple[str, ...]) -> EventHandModel:
    lines = [EventLineModel(keyword=ln.keyword, number=ln.number if ln.number >= 0 else None,
                            items=[EventItemModel(label=i.label, words=list(i.words), comments=list(i.comments)) for i in ln.items],
                            winner=ln.winner or None, comments=list(ln.comments)) for ln in h.lines]
    return EventHandModel(number=h.number, dealer=labels[h.dealer] if 0 <= h.dealer < len(labels) else None, lines=lines,
                          score=dict(zip(columns, h.score.values)) if h.score is not None else None,
                          score_comments=list(h.score.comments) if h.score is not None else [], comments=list(h.comments))


def model_to_event_hand(m: EventHandModel, labels: tuple[str, ...], columns: tuple[str, ...]) -> EventHand:
    """The in-memory hand of a JSON event-log hand.

    Raises:
        ValueError: a seat or score column that cannot be read.
    """
    lines = tuple(EventLine(ln.keyword.lower(), ln.number if ln.number is not None else -1,
                            tuple(EventItem(i.label, tuple(i.words), 0, 0, tuple(i.comments)) for i in ln.items),
                            ln.winner or "", 0, 0, tuple(ln.comments)) for ln in m.lines)
    score = None
    if m.score is not None:
        values = [0] * len(columns)
        for k, v in m.score.items():
            values[_seat(columns, k)] = v
        score = EventScore(tuple(values), 0, 0, tuple(m.score_comments))
    return EventHand(m.number, _seat(labels, m.dealer), lines, score, 0, 0, tuple(m.comments))


def session_to_model(session: Session) -> SessionModel:
    labels = _labels(session.header)
    columns = _score_labels(session.header)
    return SessionModel(tags=list(session.header.tags), comments=list(session.header.comments),
                        hands=[event_hand_to_model(h, labels, columns) if isinstance(h, EventHand) else hand_to_model(h, labels, columns)
                               for h in session.hands])


def to_record_file(sessions: Iterable[Session]) -> RecordFile:
    return RecordFile(sessions=[session_to_model(s) for s in sessions])


def _seat(labels: tuple[str, ...], text: str | None) -> int:
    if text is None:
        return -1
    try:
        return [lab.upper() for lab in labels].index(text.upper())
    except ValueError:
        raise ValueError(f"unknown seat '{text}' (seats are {' '.join(labels)})") from None


def _call(c: CallModel, labels) -> Call:
    return Call(_seat(labels, c.seat), c.call, "SHDC".index(c.suit) if c.suit else -1,
                tuple(parse_meld(m) for m in c.melds), 0, 0, tuple(c.comments))


def model_to_hand(m: HandModel, labels: tuple[str, ...], score_labels: tuple[str, ...] | None = None) -> HandRecord:
    """The in-memory hand of a JSON hand.

    Raises:
        ValueError: a seat, card or meld that cannot be read.
    """
    n = len(labels)
    dealt = [None] * n
    for k, v in m.dealt.items():
        dealt[_seat(labels, k)] = tuple(_card_code(c) for c in v) if v is not None else None
    drawn = None
    if m.drawn is not None:
        drawn = [None] * n
        for k, v in m.drawn.items():
            drawn[_seat(labels, k)] = tuple(_card_code(c) for c in v) if v is not None else None
        drawn = tuple(drawn)
    score = None
    if m.score is not None:
        columns = score_labels or labels  # the score sheet's columns: seats, or sides
        below = [0] * len(columns)
        above = [0] * len(columns)
        for k, v in m.score.below.items():
            below[_seat(columns, k)] = v
        for k, v in m.score.above.items():
            above[_seat(columns, k)] = v
        score = WrittenScore(tuple(below), tuple(above), m.score.aside)
    tricks = tuple(Trick(t.number, tuple(Play(_seat(labels, p.seat), _card_code(p.card), p.announce or "", 0, 0, tuple(p.comments))
                                         for p in t.plays), _seat(labels, t.winner), 0, 0, tuple(t.comments),
                         tuple((c.after_cards, _call(c, labels)) for c in t.calls)) for t in m.tricks)
    return HandRecord(
        m.number, _seat(labels, m.dealer), tuple(dealt), drawn, m.split, _card_code(m.turned) if m.turned else None,
        _card_code(m.info) if m.info else None, tuple(parse_card(c) for c in m.stock) if m.stock is not None else None,
        tuple(_call(c, labels) for c in m.auction), tuple(_call(c, labels) for c in m.after), tricks, _seat(labels, m.claim),
        tuple(SeatResult(_seat(labels, r.seat), r.tricks, r.points) for r in m.result), score, 0,
        tuple((k, tuple(v)) for k, v in m.notes.items()), (), tuple(tuple(e) for e in m.extra))


def to_session(m: SessionModel, source: str | None = None) -> Session:
    header = SessionHeader(tuple(tuple(t) for t in m.tags), 0, source, tuple(m.comments))
    labels = _labels(header)
    columns = _score_labels(header)
    return Session(header, tuple(model_to_event_hand(h, labels, columns) if isinstance(h, EventHandModel)
                                 else model_to_hand(h, labels, columns) for h in m.hands))


def iter_json_records(text: str, source: str | None = None) -> Iterator[SessionHeader | HandRecord]:
    """What `notation.iter_records` yields, from a JSON record file.

    Raises:
        pydantic.ValidationError: the JSON does not follow the schema.
        ValueError: a card, seat or meld cannot be read.
    """
    rf = RecordFile.model_validate_json(text)
    for sm in rf.sessions:
        s = to_session(sm, source)
        yield s.header
        yield from s.hands
