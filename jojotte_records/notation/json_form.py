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

import re
from typing import Any, Callable, Iterable, Iterator, Literal

from pydantic import BaseModel, ConfigDict, Field, model_serializer, model_validator

from ..cards import card_name, parse_card
from ..errors import Issue, Location, NotationError, number_too_large, shown
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
    if t == "?":
        return UNKNOWN_CARD
    try:
        return parse_card(t)
    except ValueError as e:
        raise _Unreadable(str(e), t) from None


Where = Callable[[tuple], tuple[int, int]]  # a path inside the hand's object -> (line, column) in the file


def _nowhere(path: tuple) -> tuple[int, int]:
    return 0, 0


class _Unreadable(ValueError):
    """A value of a JSON record that cannot be read (a seat, a card): ``text`` is the value, to locate it."""

    def __init__(self, message: str, text: str | None, at: tuple[int, int] | None = None):
        super().__init__(message)
        self.text = text
        self.at = at  # (line, column) when the reader knows it


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
    after_cards: int = Field(ge=0, le=4)  # a trick has at most four cards: a call in it comes after 0 to 4 of them
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


def model_to_event_hand(m: EventHandModel, labels: tuple[str, ...], columns: tuple[str, ...],
                        where: Where = _nowhere) -> EventHand:
    """The in-memory hand of a JSON event-log hand (``where``: as for `model_to_hand`).

    Raises:
        ValueError: a seat or score column that cannot be read.
    """
    lines = tuple(EventLine(ln.keyword.lower(), ln.number if ln.number is not None else -1,
                            tuple(EventItem(i.label, tuple(i.words), *where(("lines", k, "items", j)), tuple(i.comments))
                                  for j, i in enumerate(ln.items)),
                            labels[_seat(labels, ln.winner)] if ln.winner else "", *where(("lines", k)),
                            tuple(ln.comments)) for k, ln in enumerate(m.lines))
    score = None
    if m.score is not None:
        values = [0] * len(columns)
        for k, v in m.score.items():
            values[_seat(columns, k)] = v
        score = EventScore(tuple(values), *where(("score",)), tuple(m.score_comments))
    line, _ = where(())
    column = where(("dealer",))[1] if where(("dealer",))[0] == line else 0
    return EventHand(m.number, _seat(labels, m.dealer), lines, score, line, column, tuple(m.comments))


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
        raise _Unreadable(f"unknown seat '{shown(text)}' (seats are {' '.join(labels)})", text) from None


def _call(c: CallModel, labels, at: tuple[int, int] = (0, 0)) -> Call:
    try:
        melds = tuple(parse_meld(m) for m in c.melds)
    except ValueError as e:
        raise _Unreadable(str(e), next((m for m in c.melds if _unreadable_meld(m)), "")) from None
    if c.call == "name" and not c.suit:  # the text writes `name H`; without a suit the call cannot be read
        raise _Unreadable("a name call without its suit", None, at)
    return Call(_seat(labels, c.seat), c.call, "SHDC".index(c.suit) if c.suit else -1, melds, at[0], at[1], tuple(c.comments))


def _unreadable_meld(m: str) -> bool:
    try:
        parse_meld(m)
    except ValueError:
        return True
    return False


def model_to_hand(m: HandModel, labels: tuple[str, ...], score_labels: tuple[str, ...] | None = None,
                  where: Where = _nowhere) -> HandRecord:
    """The in-memory hand of a JSON hand; ``where(path)`` gives the file position of an element of the hand's
    object (``("tricks", 2, "plays", 0)``), so that findings point into the JSON file.

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
        score = WrittenScore(tuple(below), tuple(above), m.score.aside, *where(("score",)))
    tricks = tuple(Trick(t.number, tuple(Play(_seat(labels, p.seat), _card_code(p.card), p.announce or "",
                                              *where(("tricks", k, "plays", j)), tuple(p.comments))
                                         for j, p in enumerate(t.plays)), _seat(labels, t.winner),
                         *where(("tricks", k)), tuple(t.comments),
                         tuple((c.after_cards, _call(c, labels, where(("tricks", k, "calls", i))))
                               for i, c in enumerate(t.calls))) for k, t in enumerate(m.tricks))
    marks = tuple((key, *where((field,))) for key, field in (("dealer", "dealer"), ("deal", "dealt"), ("turned", "turned"),
                                                             ("info", "info")) if where((field,))[0])
    return HandRecord(
        m.number, _seat(labels, m.dealer), tuple(dealt), drawn, m.split, _card_code(m.turned) if m.turned else None,
        _card_code(m.info) if m.info else None, tuple(_card_code(c) for c in m.stock) if m.stock is not None else None,
        tuple(_call(c, labels, where(("auction", k))) for k, c in enumerate(m.auction)),
        tuple(_call(c, labels, where(("after", k))) for k, c in enumerate(m.after)), tricks, _seat(labels, m.claim),
        tuple(SeatResult(_seat(labels, r.seat), r.tricks, r.points) for r in m.result), score, where(())[0],
        tuple((k, tuple(v)) for k, v in m.notes.items()), (), tuple(tuple(e) for e in m.extra), marks)


def to_session(m: SessionModel, source: str | None = None, positions: dict[tuple, tuple[int, int]] | None = None,
               index: int = 0) -> Session:
    """The in-memory session of session ``index`` of a JSON record file; ``positions`` (`json_positions` of the
    file's text) place every hand, call, trick and card at its element in the file (issue 16: findings pointed to
    line 0).

    Raises:
        NotationError: a seat, card or meld that cannot be read, located at its value when ``positions`` are given.
    """
    pos = positions or {}
    base = ("sessions", index)
    header = SessionHeader(tuple(tuple(t) for t in m.tags), pos.get(base, (0, 0))[0], source, tuple(m.comments))
    labels = _labels(header)
    columns = _score_labels(header)
    hands = []
    for j, h in enumerate(m.hands):
        at = (*base, "hands", j)

        def where(path: tuple, at=at) -> tuple[int, int]:
            return pos.get((*at, *path), (0, 0))
        big = _too_large(h)
        if big is not None:
            path, what, value = big
            line, column = _nearest(pos, (*at, *path))
            raise NotationError(Issue("NOTATION", f"hand {shown(str(h.number), 24)}: {number_too_large(what, str(value))}",
                                      Location(source=source, line=line or None, column=column or None), "syntax"))
        try:
            hands.append(model_to_event_hand(h, labels, columns, where) if isinstance(h, EventHandModel)
                         else model_to_hand(h, labels, columns, where))
        except ValueError as e:  # an `_Unreadable` value says which text it was and, when known, where
            text, known = (e.text, e.at) if isinstance(e, _Unreadable) else (None, None)
            found = _path_of_value(h.model_dump(), text) if text is not None else None
            line, column = pos.get((*at, *found), (0, 0)) if found is not None else known or where(())
            raise NotationError(Issue("NOTATION", str(e),
                                      Location(source=source, line=line or None, column=column or None,
                                               hand=h.number), "syntax")) from None
    return Session(header, tuple(hands))


def _too_large(m: HandModel | EventHandModel) -> tuple[tuple, str, int] | None:
    """(path, what, value) of the first number of the hand above `errors.MAX_NUMBER`, the bound of the text
    reader too (issue 16: a JSON hand number of 2**63 crashed the importer), or None."""
    found: list[tuple[tuple, str, int]] = [((), "the hand number", m.number)]
    if isinstance(m, EventHandModel):
        found += [(("lines", k), "the line number", ln.number) for k, ln in enumerate(m.lines) if ln.number is not None]
        found += [(("score", c), "a score", v) for c, v in (m.score or {}).items()]
    else:
        found += [(("tricks", k), "the trick number", t.number) for k, t in enumerate(m.tricks)]
        found += [(("result", k), "a result", v) for k, r in enumerate(m.result) for v in (r.tricks, r.points)]
        if m.score is not None:
            found += [(("score", side, c), "a score", v) for side in ("below", "above")
                      for c, v in getattr(m.score, side).items()]
            found.append((("score", "aside"), "the points held aside", m.score.aside))
    return next(((p, w, v) for p, w, v in found if number_too_large(w, str(v)) is not None), None)


def _nearest(pos: dict[tuple, tuple[int, int]], path: tuple) -> tuple[int, int]:
    """The position of ``path``, or of its nearest placed container (numbers are not placed)."""
    while path:
        if path in pos:
            return pos[path]
        path = path[:-1]
    return pos.get((), (0, 0))


def _path_of_value(data: Any, text: str) -> tuple | None:
    """The path of the first string ``text`` (a value, or a key: then the path of its value) inside ``data``."""
    if isinstance(data, str):
        return () if data == text else None
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, (list, tuple)) else ()
    for k, v in items:
        if k == text:
            return (k,)
        found = _path_of_value(v, text)
        if found is not None:
            return (k, *found)
    return None


_JSON_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|[{}\[\],:]')


def json_positions(text: str) -> dict[tuple, tuple[int, int]]:
    """Where each object, array and string value of a JSON text starts: path (keys and indexes) -> (line, column),
    both 1-based (the column counts characters). Numbers and literals are not placed (their container is).

    >>> json_positions('{"a": [1, {"b": "x"}]}')[("a", 1, "b")]
    (1, 17)
    """
    import json

    out: dict[tuple, tuple[int, int]] = {}
    stack: list[list] = []  # [path, is_array, index, key, expecting_key]
    line, line_start, scanned = 1, 0, 0
    for m in _JSON_TOKEN.finditer(text):
        tok, at = m.group(), m.start()
        nl = text.count("\n", scanned, at)
        if nl:
            line += nl
            line_start = text.rfind("\n", scanned, at) + 1
        scanned = at
        top = stack[-1] if stack else None
        if tok == ",":
            if top is not None:
                if top[1]:
                    top[2] += 1
                else:
                    top[4] = True
            continue
        if tok in ":]}":
            if tok != ":" and stack:
                stack.pop()
            continue
        if top is not None and not top[1] and top[4]:  # a key
            try:
                top[3] = json.loads(tok)
            except ValueError:
                top[3] = tok
            top[4] = False
            continue
        path = () if top is None else (*top[0], top[2] if top[1] else top[3])
        out.setdefault(path, (line, at - line_start + 1))
        if tok in "{[":
            stack.append([path, tok == "[", 0, None, tok == "{"])
    return out


def iter_json_records(text: str, source: str | None = None) -> Iterator[SessionHeader | HandRecord]:
    """What `notation.iter_records` yields, from a JSON record file, each hand, call, trick and card at its line
    and column in the file.

    Raises:
        NotationError: the text is not JSON, or does not follow the schema (`schema_issue`), or a card, seat or
            meld cannot be read; located.
    """
    from pydantic import ValidationError

    try:
        rf = RecordFile.model_validate_json(text)
    except ValidationError as e:
        raise NotationError(schema_issue(e, text, source)) from None
    positions = json_positions(text)
    for k, sm in enumerate(rf.sessions):
        s = to_session(sm, source, positions, k)
        yield s.header
        yield from s.hands


_AT_LINE = re.compile(r"line (\d+) column (\d+)")


def schema_issue(e, text: str, source: str | None = None) -> Issue:
    """The located issue of a pydantic ``ValidationError`` of the JSON ``text``: the schema's first finding at the
    element it names (or its nearest placed container), or where the JSON parser stopped."""
    err = e.errors()[0]
    path = tuple(err["loc"])
    where = ".".join(str(x) for x in path)
    msg = f"JSON record does not follow the schema{' at ' + where if where else ''}: {err['msg']}"
    line = column = 0
    if err["type"] == "json_invalid":
        found = _AT_LINE.search(err["msg"])
        if found:
            line, column = int(found.group(1)), int(found.group(2))
    elif len(text) <= 50_000_000:  # positions of a huge file are not worth their memory for one message
        in_file = tuple(x for x in path if x not in ("HandModel", "EventHandModel"))  # the union's members
        line, column = _nearest(json_positions(text), in_file)
    return Issue("NOTATION", msg, Location(source=source, line=line or None, column=column or None), "syntax")
