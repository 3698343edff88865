"""Report pages of the games recorded as a log of events (Pitch, Baloot).

`EventReportSession` takes the place of `report._Session` for these games: it collects each validated
hand (`replay.HandVerdict`) into a `EventHandView` and writes ``sessions/<slug>/hands-NNNN.html``
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
from ..replay.jojotte import HandVerdict, SessionSummary, SessionValidator
from ..rules.base import CHANCE
from .views import HandFiles, IssueView, SessionRow, issue_view

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


class EventReportSession(HandFiles):
    """One session of an event-log game being written into the site (`report.Site`)."""

    def __init__(self, site, header, slug: str, source: str):
        self.site = site
        self.header = header
        self.slug = slug
        self.source = source
        v = SessionValidator(header)  # the same rules, options, seats and names as the check
        self.rules = v.rules
        self.labels = v.labels
        self.names = v.names
        self.columns = v.sheet_names
        self.title = header.get("Event") or f"Session {slug}"
        self.dir = f"sessions/{slug}"
        self.per_file = site.hands_per_file
        self.position = 0
        self.batch: list[EventHandView] = []
        self.rows: list[SheetRow] = []

    def add_hand(self, v: HandVerdict) -> None:
        if len(self.batch) == self.per_file:
            self._flush()
        self.position += 1
        view = self._view(v, self.position)
        self.batch.append(view)
        first = v.first_illegal or (v.issues[0] if v.issues else None)
        self.rows.append(SheetRow(self.position, v.number, self.hand_url(self.position), view.dealer, view.contract,
                                  tuple(s.computed if s.computed is not None else s.written for s in view.scores),
                                  tuple(v.sheet.scores), first.kind if first else "ok", first.rule if first else ""))
        if v.issues:
            self.site.stats.bad_hands += 1

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
                               "; " if ln.keyword in rules.list_lines else ", ")
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

    def hands_page(self, title: str, first: int, end: int, hands: list) -> tuple[str, object]:
        return "event_hands.html", EventHandsContext(f"{title} | {self.title}", "../../", self.title, "index.html",
                                                     self.rules.title, tuple(self.columns), tuple(hands))

    def finish(self, summary: SessionSummary) -> SessionRow:
        self._flush(last=True)
        names = self.columns
        sheet = summary.sheet
        winner = " and ".join(names[c] for c in summary.winners)
        ctx = EventSessionContext(
            title=self.title, root="../../", source=self.source, game=self.rules.title, tags=tuple(self.header.tags),
            comments=tuple(self.header.comments), players=tuple(self.names), columns=tuple(names),
            totals=tuple(sheet.scores), target=self.rules.game_target, winner=winner, over=sheet.over,
            rows=tuple(self.rows), bad_hands=summary.bad_hands, issues=tuple(issue_view(i) for i in summary.issues))
        self.site.write_page(f"{self.dir}/index.html", "event_session.html", ctx)
        result = ", ".join(f"{n} {t}" for n, t in zip(names, sheet.scores))
        return SessionRow(
            url=f"{self.dir}/index.html", event=self.header.get("Event") or "", site=self.header.get("Site") or "",
            date=self.header.get("Date") or "", game=self.header.get("Game") or "", players=tuple(self.names),
            players_key="\n".join(n.lower() for n in self.names), result=result, winner=winner, rubbers="",
            rubbers_total=0, hands=summary.hands, disputes=summary.bad_hands + (1 if summary.issues else 0),
            source=self.source)


__all__ = ["EventReportSession", "EventHandsContext", "EventSessionContext", "EventHandView", "card_text", "card_name"]
