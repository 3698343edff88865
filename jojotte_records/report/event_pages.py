"""Report pages of the games recorded as a log of events (Pitch, Baloot).

`EventPages` is the view hook of the report builder (`session.SessionPages`) for these games: it turns each
validated hand (`replay.HandVerdict`) into an `EventHandView` and writes ``sessions/<slug>/hands-NNNN.html``
(the cards each player received, the hand's lines as written, the tricks with their winners, the
score's credits with their rules and the validator's findings) and ``sessions/<slug>/index.html``
(the sheet running to the game's target). Everything shown comes from the rules core through the
validator; templates ``event_session.html`` and ``event_hands.html`` are plain HTML.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ..cards import card_name, card_symbol_name, iter_cards, suit_of
from ..notation.dd_comment import parse_dd_comment, without_dd
from ..replay.jojotte import HandVerdict, SessionSummary
from ..rules.base import CHANCE
from .views import AltsView, IssueView, RestoreView, alts_view, issue_view

_SUIT_CLASS = {0: "black", 1: "red", 2: "red", 3: "black", 4: "black"}


class CardText(NamedTuple):
    text: str  # K♥
    css: str  # red or black


class SeatCards(NamedTuple):
    label: str
    name: str
    cards: tuple[CardText, ...]
    place: str  # n, e, s, w: where the seat sits in a four-hand diagram ("" at other tables)


class ItemText(NamedTuple):
    label: str
    text: str
    flagged: str  # the kind of the issue found here, ""
    comments: tuple[str, ...]  # as written, without the analyzer's [%dd …] comment
    dd: str  # the analyzer's verdict on the card ("costs 13 (mistake); best QH or KH"), ""


class LineText(NamedTuple):
    keyword: str
    number: int
    items: tuple[ItemText, ...]
    winner: str
    comments: tuple[str, ...]
    separator: str  # "; " between the items of a card-list line (deal, discard), else ", "
    alts: tuple[AltsView, ...] = ()  # the analysis board of each card whose [%dd …] comment gives every legal card's value


class PlayText(NamedTuple):
    name: str
    card: CardText
    won: bool


class TrickText(NamedTuple):
    number: int
    leader: str
    plays: tuple[PlayText, ...]
    winner: str


class CreditText(NamedTuple):
    column: str
    amount: int
    rule: str
    why: str


class ColumnScore(NamedTuple):
    column: str
    computed: int | None
    written: int | None
    total: int


class EventHandView(NamedTuple):
    position: int
    number: int
    anchor: str
    dealer: str
    contract: str
    seats: tuple[SeatCards, ...]
    lines: tuple[LineText, ...]
    tricks: tuple[TrickText, ...]
    credits: tuple[CreditText, ...]
    scores: tuple[ColumnScore, ...]
    issues: tuple[IssueView, ...]
    unchecked: tuple[IssueView, ...]
    comments: tuple[str, ...]
    ok: bool
    prev_url: str
    next_url: str
    restored: RestoreView | None = None  # a hand with an illegal card: its score with the best legal card (--restore)


class SheetRow(NamedTuple):
    position: int
    number: int
    url: str
    dealer: str
    contract: str
    deltas: tuple[int | None, ...]
    totals: tuple[int, ...]
    status: str  # ok, or the kind of the first finding
    rule: str


@dataclass(frozen=True, slots=True)
class EventHandsContext:
    title: str
    root: str
    session_title: str
    session_url: str
    game: str
    columns: tuple[str, ...]
    hands: tuple[EventHandView, ...]


@dataclass(frozen=True, slots=True)
class EventSessionContext:
    title: str
    root: str
    source: str
    game: str
    tags: tuple[tuple[str, str], ...]
    comments: tuple[str, ...]
    players: tuple[str, ...]
    columns: tuple[str, ...]
    totals: tuple[int, ...]
    target: int | None
    winner: str
    over: bool
    rows: tuple[SheetRow, ...]
    bad_hands: int
    issues: tuple[IssueView, ...]
    page: object = None  # a long session's sheet is paged: which page this is (`jojotte_pages.SheetPage`; None: one page)


def _dd_text(comments) -> str:
    """The analyzer's ``[%dd …]`` comment of a card, in words (``jojotte analyze``: Baloot's last tricks)."""
    for c in comments:
        f = parse_dd_comment(c)
        if f is not None and f.get("cost", "0") != "0":
            best = " or ".join(f.get("best", "").split(","))
            return f"costs {f['cost']} card points" + (f" ({f['mark']})" if f.get("mark") else "") + (f"; best {best}" if best else "")
    return ""


def card_text(card: int) -> CardText:
    return CardText(card_symbol_name(card), _SUIT_CLASS.get(suit_of(card), ""))


class EventPages:
    """The view hook of the report builder (`session.SessionPages`) for the games recorded as a log of events."""

    default_game = ""  # the index's game when the header has no Game tag

    def __init__(self, session, validator):
        self.session = session  # the builder: title, header, hand_url
        self.rules = validator.rules  # the same rules, options, seats and names as the check
        self.labels = validator.labels
        self.names = validator.names
        self.columns = validator.sheet_names
        self.title = session.title
        self.totals: tuple[int, ...] = (0,) * len(self.columns)

    def hand_url(self, position: int) -> str:
        return self.session.hand_url(position)

    def hand(self, v: HandVerdict, position: int) -> EventHandView:
        return self._view(v, position)

    def row(self, v: HandVerdict, view: EventHandView) -> SheetRow:
        first = v.first_illegal or (v.issues[0] if v.issues else None)
        self.totals = tuple(v.sheet.scores)
        return SheetRow(view.position, v.number, self.hand_url(view.position), view.dealer, view.contract,
                        tuple(s.computed if s.computed is not None else s.written for s in view.scores),
                        self.totals, first.kind if first else "ok", first.rule if first else "")

    def tally(self, v: HandVerdict, stats) -> None:
        if v.issues:
            stats.bad_hands += 1

    def carried(self) -> tuple[tuple[str, int], ...]:
        return tuple(zip(self.columns, self.totals))

    def page_pad(self, last: bool) -> tuple:
        return ()  # the sheet is the rows' running totals: nothing else to cut at a page's end

    def _view(self, v: HandVerdict, position: int) -> EventHandView:
        rules, rec, st = self.rules, v.record, v.state
        labels, names = self.labels, self.names
        received = [0] * len(labels)
        for a in v.actions:
            if a.seat == CHANCE:
                for seat, m in enumerate(a.cards[:len(labels)]):
                    received[seat] |= m
        compass = sorted(labels) == ["E", "N", "S", "W"]
        seats = tuple(SeatCards(labels[i], names[i], tuple(card_text(c) for c in rules.pack.sorted(iter_cards(received[i]))),
                                labels[i].lower() if compass else "") for i in range(len(labels)))
        flagged = {(i.loc.line, i.loc.column): i.kind for i in v.issues if i.loc.line}
        lines = tuple(LineText(ln.keyword, ln.number, tuple(ItemText(it.label, " ".join(it.words),
                                                                    flagged.get((it.line, it.column), ""),
                                                                    without_dd(it.comments),
                                                                    _dd_text(it.comments))
                                                           for it in ln.items), ln.winner, ln.comments,
                               "; " if ln.keyword in rules.list_lines else ", ", self._alts(ln))
                      for ln in rec.lines)
        tricks = ()
        contract = "not known"
        if st is not None:
            tricks = tuple(TrickText(k, names[leader], tuple(PlayText(names[seat], card_text(card), seat == win) for seat, card in plays),
                                     names[win]) for k, (leader, plays, win) in enumerate(rules.tricks(st), 1))
            contract = rules.contract_text(st) or str(rules.hand_facts(st, v.score).get("contract"))
        score = v.score
        credits = tuple(CreditText(self.columns[c.column], c.amount, c.rule, c.why) for c in score.credits) if score is not None else ()
        written = rec.score.values if rec.score is not None else None
        scores = tuple(ColumnScore(col, score.delta[k] if score is not None else None,
                                   written[k] if written is not None else None, v.sheet.scores[k])
                       for k, col in enumerate(self.columns))
        return EventHandView(position, v.number, f"hand-{position}", names[rec.dealer] if 0 <= rec.dealer < len(names) else "?",
                             contract, seats, lines, tricks, credits, scores, tuple(issue_view(i) for i in v.issues),
                             tuple(issue_view(i) for i in v.unchecked), rec.comments, v.ok,
                             self.hand_url(position - 1) if position > 1 else "", self.hand_url(position + 1))

    def _alts(self, line) -> tuple[AltsView, ...]:
        """The analysis boards of a line's cards (their ``[%dd … alts=…]`` comments)."""
        names = dict(zip(self.labels, self.names))
        return tuple(a for it in line.items if it.comments
                     for a in (alts_view(it.comments, " ".join(it.words), names.get(it.label, it.label)),) if a is not None)

    def hands_page(self, title: str, first: int, end: int, hands: list) -> tuple[str, object]:
        return "event_hands.html", EventHandsContext(f"{title} | {self.title}", "../../", self.title, "index.html",
                                                     self.rules.title, tuple(self.columns), tuple(hands))

    def session_page(self, session, summary: SessionSummary | None, rows: tuple, pad: tuple, page) -> tuple[str, object]:
        """``event_session.html`` of the session's own page (``summary``), or of a later page of its sheet (None)."""
        names = self.columns
        totals, winner, over, bad, issues = (), "", False, 0, ()
        if summary is not None:
            totals, over, bad = tuple(summary.sheet.scores), summary.sheet.over, summary.bad_hands
            winner = " and ".join(names[c] for c in summary.winners)
            issues = tuple(issue_view(i) for i in summary.issues)
        header = session.header
        return "event_session.html", EventSessionContext(
            title=self.title, root="../../", source=session.source, game=self.rules.title, tags=tuple(header.tags),
            comments=tuple(header.comments), players=tuple(self.names), columns=tuple(names), totals=totals,
            target=self.rules.game_target, winner=winner, over=over, rows=rows, bad_hands=bad, issues=issues, page=page)

    def index_row(self, summary: SessionSummary, stats) -> dict:
        """The index's result and winner of the session (these games keep no rubbers)."""
        winner = " and ".join(self.columns[c] for c in summary.winners)
        result = ", ".join(f"{n} {t}" for n, t in zip(self.columns, summary.sheet.scores))
        return dict(result=result, winner=winner, rubbers="", rubbers_total=0)


__all__ = ["EventPages", "EventHandsContext", "EventSessionContext", "EventHandView", "card_text", "card_name"]
