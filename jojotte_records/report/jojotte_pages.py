"""Jo-Jotte's pages: the view hook of the report builder (`session.SessionPages`) for the games recorded hand by
hand (``HandRecord``): the deal, the bidding, the melds, the dix, the tricks stepped one by one, the score
breakdown, the score pad drawn like paper and the running totals.

Every figure is the validator's (`replay.jojotte.HandVerdict`); this module only presents it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Iterable, NamedTuple, Sequence

from markupsafe import Markup, escape

from ..cards import PIQUET_PACK, SEVEN, SUIT_SYMBOLS, card_name, card_symbol_name, make_card
from ..errors import Issue
from ..notation.dd_comment import dd_fields, without_dd
from ..notation.model import UNKNOWN_CARD, Call, HandRecord
from ..notation.text import sheet_column
from ..replay.jojotte import HandVerdict, SessionSummary
from ..rules.jojotte_cards import JOJOTTE, SUIT_WORDS, Meld
from .views import AltsView, IssueView, RestoreView, alts_view, escape_text, issue_key, issue_view, wins

RED_SUITS = (1, 2)  # hearts, diamonds
_markup = partial(str.__new__, Markup)  # Markup(text) of text made here, every name in it escaped already (no __html__ probe)
RANK_TEXT = {14: "A", 13: "K", 12: "Q", 11: "J", 10: "10", 9: "9", 8: "8", 7: "7"}
SEAT_COLORS = ("seat0", "seat1", "seat2", "seat3")


# --- the views: small immutable rows the templates read --------------------------------------------------

class CardView(NamedTuple):
    """A card as shown: ``10♥`` in red; ``?`` for a card nobody recorded."""

    name: str  # canonical, e.g. TH (used in data attributes and tests)
    text: str  # with the suit symbol, e.g. 10♥
    color: str  # red, black or unknown
    html: Markup  # <span class="card red">10♥</span>: made once per card (a hand shows dozens; see HANDS_PER_FILE)


class SuitMark(NamedTuple):
    symbol: str  # ♥
    word: str  # hearts
    color: str  # red or black
    html: Markup  # &hearts; (pages are plain ASCII: faster to build and safe under any charset)


class MeldView(NamedTuple):
    text: str  # K♥–J♥ or four Ks
    color: str
    value: int
    html: Markup  # K&hearts;&ndash;J&hearts;


class CallView(NamedTuple):
    """One call of the auction, or one event after the draw."""

    key: str  # a3 (auction, call 3) or p2 (after the draw, call 2): what an issue's location points at
    seat: str  # the player's name
    verb: str  # accepts, names, passes, melds, …
    suit: SuitMark | None
    melds: tuple[MeldView, ...]
    cards: tuple[CardView, ...]  # the dix: the seven given, the turned card taken
    note: str  # the record's comments on the call
    flag: str  # "" or the kind of the issue found here (illegal, score, consistency)
    css: str  # the element's classes: "call", plus "flagged kind-illegal" when flagged
    html: Markup = Markup("")  # the call's <li> as `_hand.html` draws it: the suit in the auction, the melds and the
    # dix after the draw


class PlayView(NamedTuple):
    key: str  # t4c2: trick 4, card 2
    seat: str
    seat_label: str
    card: CardView
    announce: str  # Jo, Jotte or ""
    wins: bool  # this card wins the trick
    points: int | None  # the card's points in this contract
    note: str
    flag: str
    css: str  # "play", plus "wins" and "flagged kind-…"
    dd: "DdView | None" = None  # the double-dummy analysis of the card, when the record carries it
    html: Markup = Markup("")  # the card's <li> as `_hand.html` draws it (made here: a hand has up to 36 cards)


class DdView(NamedTuple):
    """A card's double-dummy analysis, read from its ``{[%dd …]}`` comment (``jojotte analyze --out``)."""

    eval: int | None  # the forced value of the hand after the card, A minus B
    cost: int | None  # what it gave away against best play (0: a best card)
    best: str  # the best card(s): "JH 9H KH jo"
    mark: str  # inaccuracy, mistake, blunder or ""
    css: str  # "dd", plus "dd-<mark>"
    vs: str = ""  # three-player forms: whose value eval is, "A-C" (the declarer's minus the active defender's)


class DdPoint(NamedTuple):
    label: str  # "3.2": trick 3, card 2
    seat: str
    card: str
    eval: int
    x: float
    y: float
    mark: str


class AnalysisView(NamedTuple):
    """The double-dummy analysis of a hand, from its cards' ``[%dd …]`` comments: how the forced value moved."""

    start: str  # where the analysis starts: "from the first lead", "from trick 6 (16 cards left)"
    sense: str  # "Alice minus Bob: trick-score difference under best play"
    width: int
    height: int
    zero_y: float
    line: str  # SVG polyline points of the forced value, before the first card then after each
    points: tuple[DdPoint, ...]  # one per card analysed
    players: tuple[tuple[str, int, str], ...]  # (player, total cost, marks "1 mistake, 2 inaccuracies")


class TrickView(NamedTuple):
    key: str  # t4
    number: int
    position: int  # 1-based position in the record (the stepper's index)
    leader: str
    plays: tuple[PlayView, ...]
    replayed: bool  # the validator replayed it (False after an illegal event)
    winner: str  # "" when not replayed
    points: int | None  # card points taken, with the last-trick 10
    extra: str  # e.g. "+10 last trick", "+20 Jo-Jotte"
    running: tuple[tuple[str, int], ...]  # the running trick score after the trick, per player
    score_text: str  # "15 points (+10 last trick)"
    running_text: str  # "Alice 15, Bob 0"
    cards: str  # "B:AC A:KH": seat and card of each play, for the stepper's script
    stops: bool  # the replay stops in this trick (it holds the illegal card)
    written_winner: str  # the winner written at the table (``-> B``), or ""
    note: str
    flag: str
    css: str  # "trick", plus "unreplayed" and "flagged kind-…"
    alts: tuple[AltsView, ...] = ()  # the analysis board of each card whose [%dd …] comment gives every legal card's value
    html: Markup = Markup("")  # the trick's <section> as `_hand.html` draws it, up to its boards and note (made here: it is
    # the bulk of a hand page)


class SeatDeal(NamedTuple):
    seat: str
    label: str  # the seat's letter (A, B), as in the record
    dealer: bool
    dealt: tuple[CardView, ...]
    drawn: tuple[CardView, ...]
    split: bool  # dealt and drawn cards are told apart
    recorded: bool
    start: str  # the cards held when play starts (after the draw and the dix), e.g. "AS TS 9H"; "" if not known.
    # The stepper's script shows from it what each player holds before each trick.
    role: str = ""  # "inactive" (three players: hand out of play), "sits out" (the JJ4S dealer), "adviser" (box form)


class ScoreLine(NamedTuple):
    """One player's line of a hand's score breakdown."""

    seat: str
    tricks: int | None
    trick_points: int | None
    meld_points: int | None
    bonus: int | None
    total: int | None
    below: int | None  # what the rules write on the sheet
    above: int | None
    written_below: int | None  # what the table wrote
    written_above: int | None
    below_wrong: bool
    above_wrong: bool
    html: Markup = Markup("")  # the line's <tr> as `_hand.html` draws it ("-" for a figure not known)


class CreditView(NamedTuple):
    seat: str
    line: str  # below / above
    amount: int
    rule: str
    why: str


class ContractView(NamedTuple):
    text: str  # "hearts", "no-trump", "Nullo", "void (all passed)", "not known"
    suit: SuitMark | None
    declarer: str
    multiplier: str  # "", "doubled", "redoubled"
    slam: bool
    nullo: bool


class PadCell(NamedTuple):
    amount: int | None
    title: str
    circled: bool  # held-aside points (awarded from the pool)


class PadRow(NamedTuple):
    hand: int  # the hand's number
    url: str  # its page
    cells: tuple[PadCell, ...]
    kind: str  # score, bonus (rubber bonus), aside (points held aside in the pool)
    label: str
    game_end: bool  # a rule is drawn under it: a game ended with this hand
    html: Markup = Markup("")  # the row's <tr> as `session.html` draws it, above or below the line


class PadRubber(NamedTuple):
    number: int
    above: tuple[PadRow, ...]  # top to bottom, as on paper (the earliest entries nearest the line)
    below: tuple[PadRow, ...]
    totals: tuple[int, ...]  # points of the rubber per player (above + below), bonus included
    winner: str  # "" while the rubber is unfinished
    finished: bool
    continued: bool = False  # a long session's sheet page ends inside the rubber: it goes on on the next page


class Series(NamedTuple):
    name: str
    css: str  # seat0, seat1
    points: str  # SVG polyline points
    last: int
    last_x: float
    last_y: float


class Tick(NamedTuple):
    value: int
    pos: float


class LineChart(NamedTuple):
    width: int
    height: int
    left: int
    bottom: int
    series: tuple[Series, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    zero_y: float
    title: str


class HandRow(NamedTuple):
    """One hand in a session's list."""

    position: int
    number: int
    url: str
    dealer: str
    contract: ContractView
    result: str
    tricks: str  # 6-3
    sheet: str  # what the hand wrote: "Alice 110 below, 20 above; Bob 40 above"
    ok: bool
    rules: str  # the rule IDs of its findings
    flag: str
    html: Markup = Markup("")  # the row's <tr> as `session.html` draws it


class SheetTotal(NamedTuple):
    seat: str
    below: int
    above: int
    total: int
    games: int
    rubbers: int



@dataclass(frozen=True, slots=True)
class SessionContext:
    """``sessions/<slug>/index.html``: the score pad, the running totals and the hands of one session."""

    title: str
    root: str
    source: str
    tags: tuple[tuple[str, str], ...]  # the session's tags as recorded
    comments: tuple[str, ...]
    players: tuple[str, ...]  # the players, in seat order
    columns: tuple[str, ...]  # the score sheet's columns: the players, or the sides of a partnership game
    totals: tuple[SheetTotal, ...]
    winner: str  # "" for a tie
    pool: int  # held-aside points still in the pool at the end
    pad: tuple[PadRubber, ...]
    chart: LineChart
    hands: tuple[HandRow, ...]
    bad_hands: int
    issues: tuple[IssueView, ...]  # session-level findings (tags, session length)
    page: "SheetPage | None" = None  # a long session's sheet is paged: which page this is (None: one page)


class HandView(NamedTuple):
    """One hand replayed, with its score and the validator's verdict (a section of a hands page)."""

    anchor: str  # hand-7: the section's id (``hands-0001.html#hand-7``)
    prefix: str  # h7-: prefixes the ids of the section's elements (calls, tricks, cards)
    title: str
    number: int
    position: int  # 1-based position in the session
    prev_url: str  # "" on the first hand
    next_url: str  # "" on the last hand
    dealer: str
    notes: tuple[str, ...]  # the record's comments on the hand
    deal: tuple[SeatDeal, ...]
    deal_flag: str
    turned: CardView | None
    info: CardView | None
    auction: tuple[CallView, ...]
    after: tuple[CallView, ...]
    bidding_flag: str  # an issue about the bidding or the calls after the draw as a whole
    contract: ContractView
    melds_shown: tuple[tuple[str, tuple[MeldView, ...], int], ...]  # (player, melds scored, points)
    dix: tuple[str, CardView, CardView] | None  # who gave the seven of trumps for the turned card
    tricks: tuple[TrickView, ...]
    replay_flag: str  # an issue about the tricks as a whole (e.g. too few recorded)
    start: int  # the trick the stepper opens on (the one with the illegal event, else 1)
    claim: str  # "Alice claimed the remaining tricks (3 tricks, 45 points with the last trick).", or ""
    result_lines: tuple[str, ...]  # a hand recorded without cards: its result line
    score: tuple[ScoreLine, ...]
    credits: tuple[CreditView, ...]
    held_aside: int | None
    pool_after: int
    game_won_by: str
    rubber_won_by: str
    written_used: bool  # the sheet took the written figures
    score_flag: str
    ok: bool
    issues: tuple[IssueView, ...]
    unchecked: tuple[IssueView, ...]
    analysis: AnalysisView | None = None  # the double-dummy analysis the record carries ([%dd …] comments)
    restored: RestoreView | None = None  # a hand with an illegal card: its score with the best legal card (--restore)


@dataclass(frozen=True, slots=True)
class HandsContext:
    """``sessions/<slug>/hands-NNNN.html``: a few hands of one session, each replayed in its own section.

    Several hands share a file because creating many small files is slow; with JavaScript the page
    shows only the hand its address names (``#hand-7``), without it every hand of the file in turn.
    """

    title: str
    root: str
    session_title: str
    session_url: str
    first: int  # positions of the first and last hand in the file
    last: int
    hands: tuple[HandView, ...]



# --- cards and calls as shown ----------------------------------------------------------------------------

_ENTITIES = {"♠": "&spades;", "♥": "&hearts;", "♦": "&diams;", "♣": "&clubs;", "–": "&ndash;"}


def _ascii_html(text: str) -> Markup:
    """Card and meld names with character references for the suit symbols (no user data goes through here)."""
    out = str(escape(text))
    for k, v in _ENTITIES.items():
        out = out.replace(k, v)
    return Markup(out)


def _card(name: str, text: str, color: str) -> CardView:
    return CardView(name, text, color, Markup('<span class="card {}">{}</span>').format(color, _ascii_html(text)))


def _make_card_views() -> dict[int, CardView]:
    views = {}
    for card in PIQUET_PACK.cards:
        views[card] = _card(card_name(card), card_symbol_name(card), "red" if card >> 4 in RED_SUITS else "black")
    views[UNKNOWN_CARD] = _card("?", "?", "unknown")
    return views


CARD_VIEWS = _make_card_views()
_CARD_HTML = {card: str(view.html) for card, view in CARD_VIEWS.items()}  # as plain text, for the f-strings that
# build a hand's HTML (a Markup formats more slowly)
SUIT_MARKS = {s: SuitMark(SUIT_SYMBOLS[s], SUIT_WORDS[s], "red" if s in RED_SUITS else "black", _ascii_html(SUIT_SYMBOLS[s]))
              for s in range(4)}


def card_view(card: int) -> CardView:
    view = CARD_VIEWS.get(card)
    if view is None:
        try:
            view = _card(card_name(card), card_symbol_name(card), "black")
        except (KeyError, IndexError):
            view = _card("?", "?", "unknown")
    return view


def _sorted_cards(cards: Iterable[int]) -> tuple[CardView, ...]:
    """Cards in the canonical order of a hand (suits S H D C, rank high to low); ``?`` last."""
    views = CARD_VIEWS
    order = _ORDER
    try:
        return tuple(map(views.__getitem__, sorted(cards, key=order.__getitem__)))
    except KeyError:  # a card outside the pack (the validator says so)
        cards = list(cards)
        known = sorted((c for c in cards if c in order), key=order.__getitem__)
        return tuple(views[c] for c in known) + tuple(card_view(c) for c in cards if c not in order)


# the position of each card in the canonical order of a hand; a card nobody recorded comes last
_ORDER = {c: (PIQUET_PACK.suit_order.index(c >> 4), -(c & 15)) for c in PIQUET_PACK.cards}
_ORDER[UNKNOWN_CARD] = (99, 0)
_NAMES = {c: CARD_VIEWS[c].name for c in PIQUET_PACK.cards}  # a card's name, for the cards held (no "?")


@lru_cache(maxsize=4096)  # a meld's view, by the meld (a value: shared safely)
def meld_view(m: Meld) -> MeldView:
    if m.cards or not m.shown:  # cards that make no meld, or a meld announced without its cards (issue 15)
        text = m.describe()
        return MeldView(text, "black", m.value, _ascii_html(text))
    if m.kind == "four":
        text = f"four {RANK_TEXT.get(m.rank, '?')}s"
        return MeldView(text, "black", m.value, _ascii_html(text))
    top = make_card(m.suit, m.rank)
    low = make_card(m.suit, m.rank - m.length + 1)
    text = f"{card_symbol_name(top)}–{card_symbol_name(low)}"
    return MeldView(text, "red" if m.suit in RED_SUITS else "black", m.value, _ascii_html(text))


def _note(comments: Sequence[str]) -> str:
    return " ".join(c.strip() for c in comments if c.strip())


_VERBS = {"pass": "passes", "accept": "accepts", "name": "names", "nt": "bids no-trump", "double": "doubles",
          "redouble": "redoubles", "nullo": "bids Nullo", "slam": "bids Slam", "melds": "declares", "dix": "exchanges the dix",
          "defend": "defends", "withdraw": "withdraws", "with_declarer": "sides with the declarer",
          "with_doubler": "sides with the doubler"}


# ``escape(text)``, kept: a session's calls name the same few seats, verbs and classes again and again
_escaped = lru_cache(maxsize=4096)(escape)


def call_view(call: Call, key: str, names: Sequence[str], turned: int | None, flags: dict[str, str],
              prefix: str = "") -> CallView:
    seat = names[call.seat] if 0 <= call.seat < len(names) else "?"
    suit = None
    cards: tuple[CardView, ...] = ()
    if call.kind == "accept" and turned is not None and turned >= 0:
        suit = SUIT_MARKS.get(turned >> 4)
    elif call.kind == "name":
        suit = SUIT_MARKS.get(call.suit)
    elif call.kind == "dix" and turned is not None and turned >= 0:
        cards = (card_view(make_card(turned >> 4, SEVEN)), card_view(turned))
    melds = tuple(meld_view(m) for m in call.melds) if call.kind == "melds" else ()
    flag = flags.get(key, "")
    verb = _VERBS.get(call.kind, call.kind)
    note = _note(call.comments) if call.comments else ""
    css = f"call flagged kind-{flag}" if flag else "call"
    html = (f'<li class="{_escaped(css)}" id="{prefix}{key}" data-loc="{key}"><span class="who">{_escaped(seat)}</span> '
            f'{_escaped(verb)}')
    if key[0] == "a":  # the auction shows the suit named or accepted
        if suit:
            html += f' <span class="suit {suit.color}">{suit.html}</span> {suit.word}'
    else:  # after the draw: the melds declared, the dix exchanged
        html += "".join([f' <span class="meld {m.color}">{m.html}</span>' for m in melds])
        if cards:
            html += f": gives {cards[0].html} for {cards[1].html}"
    if note:
        html += f' <span class="note">{escape(note)}</span>'
    return CallView(key, seat, verb, suit, melds, cards, note, flag, css, _markup(html + "</li>\n"))


# --- where an issue points ------------------------------------------------------------------------------

def _flags(issues: Sequence[Issue]) -> dict[str, str]:
    """Element key -> the kind of the first issue found there."""
    out: dict[str, str] = {}
    for i in issues:
        key = issue_key(i)
        out.setdefault(key, i.kind)
    return out



class SheetPage(NamedTuple):
    """Where one page of a long session's score sheet sits (`session.SessionPages` pages them)."""

    number: int  # 1: the session's own page (index.html)
    first: int  # the hand numbers of its first and last hand
    last: int
    prev_url: str  # "" on the first page
    next_url: str  # "" on the last page
    carried: tuple[tuple[str, int], ...]  # each column's total brought forward from the pages before


class JojottePages:
    """Jo-Jotte's view hook of the report builder (`session.SessionPages`): a hand's view, its row in the
    session's hand list, the score pad and the session's page."""

    default_game = "jojotte"  # the index's game when the header has no Game tag

    def __init__(self, session, validator):
        self.session = session  # the builder: title, hand_url
        self.rules = validator.rules  # the same rules, options, seat labels and names as the check
        self.labels = validator.labels  # the seats (A, B; N, E, S, W) and the players' names
        self.names = validator.names
        self.seat_names = dict(enumerate(self.names))
        self.seat_labels = dict(enumerate(self.labels))
        # escaped once (as plain text, for f-strings), shown on every card
        self.names_html = {s: str(escape(n)) for s, n in enumerate(self.names)}
        self.labels_html = {s: str(escape(n)) for s, n in enumerate(self.labels)}
        self.plain_labels = all(self.labels_html[s] == n for s, n in self.seat_labels.items())  # escaping changes none
        self.seats = len(self.labels)
        # the score sheet's columns: the players, or the sides of a partnership game (NS, EW)
        self.columns = tuple(validator.sheet_labels)
        self.column_names = tuple(validator.sheet_names)
        self.column_names_html = tuple(str(escape(n)) for n in self.column_names)
        self.plain_columns = self.column_names_html == self.column_names
        self.ncols = len(self.columns)
        self.column_of = tuple(sheet_column(seat, self.labels, self.columns) or 0 for seat in range(self.seats))
        self.title = session.title
        self.prev_sheet = None
        self.pad_rubbers: list[PadRubber] = []
        self.pad_above: list[PadRow] = []
        self.pad_below: list[PadRow] = []
        self.rubber_number = 0
        self.rubber_start_total = (0,) * self.ncols
        self.totals: list[tuple[int, ...]] = [(0,) * self.ncols]
        self._calls: dict[tuple, tuple] = {}  # the views of plain calls, kept (`calls`)

    def hand_url(self, position: int) -> str:
        return self.session.hand_url(position)

    def calls(self, calls: Sequence[Call], phase: str, turned: int | None, flags: dict[str, str],
              prefix: str) -> tuple[CallView, ...]:
        """The views of the auction's calls (``phase`` "a") or of the calls after the draw ("p"). A call without
        melds, cards or comments is made once a session and kept: its hands show it again and again, only its id
        changes (the hand's ``prefix``)."""
        out = []
        kept = self._calls
        for i, c in enumerate(calls, 1):
            key = f"{phase}{i}"
            kind = c.kind
            if c.comments or kind == "melds" or kind == "dix":
                out.append(call_view(c, key, self.names, turned, flags, prefix))
                continue
            suit = c.suit if kind == "name" else turned >> 4 if kind == "accept" and turned is not None else None
            k = (key, kind, c.seat, suit, flags.get(key, "") if flags else "")
            made = kept.get(k)
            if made is None:
                view = call_view(c, key, self.names, turned, flags)
                head, _, tail = str(view.html).partition(' id="')  # the class, then the id
                made = kept[k] = (tuple(view)[:-1], head + ' id="', tail)
            fields, head, tail = made
            out.append(CallView._make(fields + (_markup(head + prefix + tail),)))
        return tuple(out)

    # --- hands ---
    def hand(self, v: HandVerdict, position: int) -> HandView:
        return hand_view(self, v, position)

    def row(self, v: HandVerdict, view: HandView) -> HandRow:
        row = self._add_row(v, view)
        self.prev_sheet = v.sheet
        return row

    def tally(self, v: HandVerdict, stats) -> None:
        stats.add_hand(v, self)

    def hands_page(self, title: str, first: int, end: int, hands: list) -> tuple[str, object]:
        return "hands.html", HandsContext(f"{title} | {self.title}", "../../", self.title, "index.html", first, end,
                                          tuple(hands))

    # --- the session's pages ---
    def carried(self) -> tuple[tuple[str, int], ...]:
        return tuple(zip(self.column_names, self.totals[-1]))

    def page_pad(self, last: bool) -> tuple[PadRubber, ...]:
        """The score pad of the page that ends here: the rubbers finished on it, and the open one so far."""
        if self.pad_above or self.pad_below:
            self._close_rubber(None, carried=not last)
        pad, self.pad_rubbers = tuple(self.pad_rubbers), []
        return pad

    def session_page(self, session, summary: SessionSummary | None, rows: tuple, pad: tuple, page) -> tuple[str, object]:
        """``session.html`` of the session's own page (``summary``), or of a later page of its sheet (None)."""
        names = self.column_names
        totals, winner, pool, chart, bad, issues = (), "", 0, None, 0, ()
        if summary is not None:
            sheet = summary.sheet
            totals = tuple(SheetTotal(names[s], sheet.below[s], sheet.above[s], sheet.total[s], sheet.games_total[s],
                                      sheet.rubbers[s]) for s in range(self.ncols))
            winner = names[summary.winner] if 0 <= summary.winner < self.ncols else ""
            pool, chart, bad = sheet.pool, running_chart(self.totals, names), summary.bad_hands
            issues = tuple(issue_view(i) for i in summary.issues)
        header = session.header
        return "session.html", SessionContext(
            title=self.title, root="../../", source=session.source, tags=tuple(header.tags), comments=tuple(header.comments),
            players=tuple(self.names), columns=names, totals=totals, winner=winner, pool=pool, pad=pad, chart=chart,
            hands=rows, bad_hands=bad, issues=issues, page=page)

    def index_row(self, summary: SessionSummary, stats) -> dict:
        """The index's result, winner and rubbers of the session (and its players' statistics)."""
        stats.add_session(summary, self)
        sheet = summary.sheet
        names = self.column_names
        winner = names[summary.winner] if 0 <= summary.winner < self.ncols else ""
        return dict(result=", ".join(f"{names[s]} {sheet.total[s]}" for s in range(self.ncols)), winner=winner,
                    rubbers="-".join(str(r) for r in sheet.rubbers), rubbers_total=sum(sheet.rubbers))

    # --- the session's hand list and score pad ---
    def _add_row(self, v: HandVerdict, view: HandView) -> HandRow:
        names = self.column_names
        seats = self.ncols
        url = self.hand_url(view.position)
        score = v.score
        if v.entry is not None and score is not None:
            if score.void:
                result = "void"
            elif 0 <= score.winner < seats:
                result = wins(names[score.winner])
            else:
                result = "equal totals"
            tricks = "-".join(str(t) for t in score.tricks) if not score.void else ""
        elif v.used_written_score:
            result, tricks = "as written", ""
        else:
            result, tricks = "not scored", ""
        first = v.issues[0] if v.issues else None
        if first is not None and first.kind == "illegal":
            result = f"illegal ({first.loc.where().removeprefix(f'hand {v.number}, ') or first.rule})"
        credits = self._credits(v)
        parts = []
        below, above = [0] * seats, [0] * seats
        for seat, line, a, _, _ in credits:
            if 0 <= seat < seats:
                if line == "below":
                    below[seat] += a
                elif line == "above":
                    above[seat] += a
        for s in range(seats):
            if below[s] or above[s]:
                bits = ([f"{below[s]} below"] if below[s] else []) + ([f"{above[s]} above"] if above[s] else [])
                parts.append(f"{names[s]} " + ", ".join(bits))
        held = self._held_aside(v)
        if held:
            parts.append(f"{held} held aside")
        rules = " ".join(dict.fromkeys(i.rule for i in v.issues))
        self.totals.append(v.sheet.total)
        self._pad(v, url, credits, held)
        sheet = "; ".join(parts) or "nothing"
        flag = v.issues[0].kind if v.issues else ""
        c = view.contract
        link = escape_text(url)
        html = (f'<tr class="{"" if v.ok else "flagged-row kind-" + escape_text(flag)}">\n'
                f'<td><a href="{link}">{v.number}</a></td>\n<td>{escape_text(view.dealer)}</td>\n<td>'
                + (f'<span class="{escape_text(c.suit.color)}">{c.suit.html}</span> ' if c.suit else "")
                + escape_text(c.text) + (f", {escape_text(c.multiplier)}" if c.multiplier else "")
                + (", Slam bid" if c.slam else "")
                + f"</td>\n<td>{escape_text(c.declarer)}</td>\n<td>{escape_text(result)}</td>\n<td>{escape_text(tricks)}</td>\n"
                f"<td>{escape_text(sheet)}</td>\n<td>"
                + ('<span class="badge ok">ok</span>' if v.ok else f'<a class="badge bad" href="{link}#verdict">{escape_text(rules)}</a>')
                + "</td>\n</tr>\n")
        return HandRow._make((view.position, v.number, url, view.dealer, c, result, tricks, sheet, v.ok, rules, flag,
                              _markup(html)))

    def _credits(self, v: HandVerdict) -> list[tuple[int, str, int, str, str]]:
        """What the hand wrote on the sheet: (seat, line, amount, rule, why)."""
        if v.entry is not None:
            return [(c.seat, c.line, c.amount, c.rule, c.why) for c in v.entry.credits]
        w = v.record.score
        if v.used_written_score and w is not None:
            out = []
            for s in range(self.ncols):
                if s < len(w.below) and w.below[s]:
                    out.append((s, "below", w.below[s], "JJ-SCORE-1", "as written"))
                if s < len(w.above) and w.above[s]:
                    out.append((s, "above", w.above[s], "JJ-SCORE-1", "as written"))
            return out
        return []

    def _held_aside(self, v: HandVerdict) -> int:
        if v.entry is not None:
            return v.entry.held_aside
        if v.used_written_score and v.record.score is not None:
            return v.record.score.aside
        return 0

    def _pad(self, v: HandVerdict, url: str, credits, held: int) -> None:
        seats = self.ncols
        prev = self.prev_sheet
        games_before = prev.games_total if prev is not None else (0,) * seats
        rubbers_before = prev.rubbers if prev is not None else (0,) * seats
        game_end = v.sheet.games_total != games_before
        rubber_won = next((s for s in range(seats) if v.sheet.rubbers[s] > rubbers_before[s]), -1)
        below = [0] * seats
        above = [0] * seats
        below_why: list[list[str]] = [[] for _ in range(seats)]
        above_why: list[list[str]] = [[] for _ in range(seats)]
        award = [0] * seats
        bonus = [0] * seats
        for seat, line, amount, rule, why in credits:
            if not 0 <= seat < seats:
                continue
            if rule == "JJ-RUBBER-1":
                bonus[seat] += amount
            elif rule == "JJ-PRIS-3" and line == "above":
                award[seat] += amount
            elif line == "below":
                below[seat] += amount
                below_why[seat].append(f"{why} ({rule})")
            else:
                above[seat] += amount
                above_why[seat].append(f"{why} ({rule})")
        n = v.number
        label = f"hand {n}"
        if any(above):
            self.pad_above.append(_pad_row(n, url, tuple([PadCell._make((above[s] or None, "; ".join(above_why[s]), False))
                                                          for s in range(seats)]), "score", label, False, True))
        if any(award):
            self.pad_above.append(_pad_row(n, url, tuple([PadCell._make((award[s] or None, "held-aside points awarded (JJ-PRIS-3)",
                                                                         True)) for s in range(seats)]), "award", label, False, True))
        if any(below) or game_end:
            self.pad_below.append(_pad_row(n, url, tuple([PadCell._make((below[s] or None, "; ".join(below_why[s]), False))
                                                          for s in range(seats)]), "score", label, game_end, False))
        if held:
            self.pad_below.append(_pad_row(n, url, (PadCell(held, "held aside (JJ-PRIS-1)", True),), "aside", label,
                                           False, False, seats))
        if any(bonus):
            self.pad_above.append(_pad_row(n, url, tuple([PadCell._make((bonus[s] or None, "rubber bonus (JJ-RUBBER-1)", False))
                                                          for s in range(seats)]), "bonus", "rubber", False, True))
        if rubber_won >= 0:
            self._close_rubber(rubber_won, v.sheet)

    def _close_rubber(self, winner: int | None, sheet=None, carried: bool = False) -> None:
        """Close the rubber on the pad (``carried``: only the page ends, the rubber goes on on the next one)."""
        if winner is not None and sheet is not None and sheet.rubber_results:
            totals = sheet.rubber_results[-1][1]
        else:
            totals = tuple(self.totals[-1][s] - self.rubber_start_total[s] for s in range(self.ncols))
        self.pad_rubbers.append(PadRubber(self.rubber_number + 1, tuple(reversed(self.pad_above)), tuple(self.pad_below),
                                          tuple(totals), self.column_names[winner] if winner is not None else "",
                                          winner is not None, carried))
        self.pad_above = []
        self.pad_below = []
        if not carried:
            self.rubber_number += 1
            self.rubber_start_total = self.totals[-1]


def _pad_row(hand: int, url: str, cells: tuple[PadCell, ...], kind: str, label: str, game_end: bool, above: bool,
             columns: int = 0) -> PadRow:
    """A row of the score pad with its ``<tr>``: above the line the held-aside points awarded are circled; below it a
    rule is drawn under a game's end, and the points held aside span the ``columns``."""
    head = f'<th class="hand-col"><a href="{escape_text(url)}">{escape_text(label)}</a></th>'
    if not above and kind == "aside":
        c = cells[0]
        html = (f'<tr class="aside">{head}<td colspan="{columns}" title="{escape_text(c.title)}">'
                f'<span class="circled">{c.amount}</span> held aside</td></tr>\n')
    else:
        tds = "".join([f'<td title="{escape_text(c.title)}">'
                       + ("" if c.amount is None else f'<span class="circled">{c.amount}</span>' if above and c.circled
                          else str(c.amount)) + "</td>" for c in cells])
        html = f'<tr class="{escape_text(kind)}{" game-end" if game_end and not above else ""}">{head}{tds}</tr>\n'
    return PadRow._make((hand, url, cells, kind, label, game_end, _markup(html)))


# --- one hand --------------------------------------------------------------------------------------------

def _contract(v: HandVerdict, names: Sequence[str]) -> ContractView:
    s = v.state
    if s is None:
        return ContractView("not known", None, "", "", False, False)
    if s.phase == "void":
        return ContractView("void (all passed)", None, "", "", False, False)
    if not s.denomination:
        return ContractView("not reached", None, "", "", False, False)
    mult = {2: "doubled", 4: "redoubled"}.get(s.mult, "")
    if s.denomination == "nullo":
        who = s.nullo_bidder
        return ContractView("Nullo", None, names[who] if 0 <= who < len(names) else "", "", False, True)
    declarer = names[s.bidder] if 0 <= s.bidder < len(names) else ""
    if s.denomination == "nt":
        return ContractView("no-trump", None, declarer, mult, s.slam, False)
    mark = SUIT_MARKS.get(s.trump)
    return ContractView(mark.word if mark else "suit", mark, declarer, mult, s.slam, False)


def _start_holdings(record: HandRecord, seats: int) -> list[list[int] | None]:
    """Each player's nine cards after the draw and the dix, as recorded (None when not recorded)."""
    out: list[list[int] | None] = []
    for seat in range(seats):
        dealt = record.dealt[seat] if seat < len(record.dealt) else None
        if dealt is None:
            out.append(None)
            continue
        cards = list(dealt)
        if record.split and record.drawn is not None and seat < len(record.drawn) and record.drawn[seat]:
            cards.extend(record.drawn[seat])
        out.append(cards)
    turned = record.turned
    if turned is not None and turned >= 0:
        for call in record.after:
            if call.kind == "dix" and 0 <= call.seat < seats and out[call.seat] is not None and turned not in out[call.seat]:
                seven = make_card(turned >> 4, SEVEN)
                cards = out[call.seat]
                if seven in cards:
                    # the turned card joins the hand; the seven goes where the turned card was (to the dealer
                    # in the partnership game, JJ4P-DIX-1; face up out of play with two or three players)
                    holder = next((o for o in out if o is not None and turned in o), None)
                    cards.remove(seven)
                    cards.append(turned)
                    if holder is not None:
                        holder.remove(turned)
                        holder.append(seven)
    return out


def _tricks(v: HandVerdict, session: JojottePages, flags: dict[str, str], jojotte_in_trick_score: bool = True,
            prefix: str = "") -> tuple[TrickView, ...]:
    """The tricks as recorded, with what the replay found: leader, winner, points and the running trick score
    (per column of the score sheet: per player, or per side)."""
    names = session.names
    column_of, column_names = session.column_of, session.column_names
    trick_card_points, card_points = session.rules.trick_card_points, session.rules.card_points
    record = v.record
    state = v.state
    seats = len(names)
    history = state.history if state is not None else ()
    replays = len(history)
    jo_scored = state.jo if state is not None and state.denomination == "suit" else (0,) * seats
    seat_names, seat_labels = session.seat_names, session.seat_labels
    seat_html, label_html, column_html = session.names_html, session.labels_html, session.column_names_html
    plain_labels, plain_columns = session.plain_labels, session.plain_columns
    card_views, card_html, play_keys = CARD_VIEWS, _CARD_HTML, _PLAY_KEYS
    running = [0] * len(column_names)
    views = []
    for i, t in enumerate(record.tricks):
        replayed = i < replays
        t_plays = t.plays
        if replayed:
            leader_seat, _, win_seat = history[i]
        else:
            leader_seat, win_seat = t_plays[0].seat if t_plays else -1, -1
        plays = []
        lis = []  # the cards' <li>
        pairs = []  # "A:AD": seat and card of each play
        jottes = []  # the seats that announced Jotte
        card_sum = 0
        stops = False
        any_dd = False
        keys = play_keys.get((t.number, len(t_plays))) or _play_keys(t.number, len(t_plays))
        for key, p in zip(keys, t_plays):
            card, seat = p.card, p.seat
            if replayed and card >= 0:
                pts = card_points(state, card)  # the rules' count (JJ-PTS-1)
                card_sum += pts
            else:
                pts = None
            wins = replayed and seat == win_seat
            if flags:
                flag = flags.get(key, "")
                stops = stops or flag == "illegal"
                css = ("play wins" if wins else "play") + (f" flagged kind-{flag}" if flag else "")
            else:
                flag, css = "", "play wins" if wins else "play"
            view = card_views.get(card) or card_view(card)
            html = card_html.get(card) or str(view.html)
            announce = p.announce
            if announce:
                if announce.lower() == "jotte" and 0 <= seat < seats and jo_scored[seat] == 2:
                    jottes.append(seat)
                announce = announce.capitalize()
            else:
                announce = ""
            comments = p.comments
            if comments:
                dd = _dd_view(comments)
                any_dd = any_dd or dd is not None
                note = _note(_plain_comments(comments)) if dd else _note(comments)
            else:
                dd, note = None, ""
            label = seat_labels.get(seat, "?")
            pairs.append(f"{label}:{view.name}")
            if announce or note or dd is not None:
                html = (f'<li class="{css}" data-loc="{key}"><span class="who">{seat_html.get(seat, "?")}</span> {html}'
                        f'{_play_extras(announce, note, dd)}</li>\n')
            else:
                html = f'<li class="{css}" data-loc="{key}"><span class="who">{seat_html.get(seat, "?")}</span> {html}</li>\n'
            lis.append(html)
            plays.append(PlayView._make((key, seat_names.get(seat, "?"), label, view, announce, wins, pts, note, flag,
                                         css, dd, _markup(html))))
        points = None
        extra = []
        if replayed:
            # the rules' count of the trick (JJ-PTS-1/2, `Rules.trick_card_points`): its cards and the last-trick 10
            points = trick_card_points(state, i + 1)
            bonus = points - card_sum
            if bonus:
                extra.append(f"+{bonus} last trick")
            running[column_of[win_seat]] += points
            for seat in jottes:
                if jojotte_in_trick_score:
                    running[column_of[seat]] += JOJOTTE
                    extra.append(f"+{JOJOTTE} Jo-Jotte to {names[seat]}")
                else:
                    extra.append(f"Jo-Jotte to {names[seat]} (+{JOJOTTE} above the line)")
            run = tuple(zip(column_names, running))
            score_text = f"{points} point{'' if points == 1 else 's'}" + (f" ({', '.join(extra)})" if extra else "")
            running_text = ", ".join(map(_NAME_AND_POINTS, column_names, running))
            running_html = running_text if plain_columns else ", ".join(map(_NAME_AND_POINTS, column_html, running))
            # the score's words name a player (Jo-Jotte): escaped
            outcome = (f'Won by <strong class="winner">{seat_html[win_seat]}</strong>: '
                       f'{escape(score_text) if jottes else score_text}.')
        else:
            run, score_text, running_text = (), "", ""
            if stops:
                outcome = '<strong class="stop">The replay stops here: the marked card is illegal.</strong>'
            else:
                outcome = '<span class="muted">Not replayed: the replay stopped at the illegal event.</span>'
        written = names[t.winner] if 0 <= t.winner < seats else ""
        cards = " ".join(pairs)
        if plain_labels:
            cards_html = cards
        else:
            cards_html = " ".join([f"{label_html.get(p.seat, '?')}:{v.card.name}" for p, v in zip(t_plays, plays)])
        tflag = flags.get(f"t{t.number}", "") if flags else ""
        css = ("trick" if replayed else "trick stops" if stops else "trick unreplayed") + (f" flagged kind-{tflag}" if tflag else "")
        key = f"t{t.number}"
        html = (f'<section class="{css}" id="{prefix}{key}" data-loc="{key}" data-trick="{i + 1}" data-cards="{cards_html}">\n'
                f'<h3>Trick {t.number}</h3>\n<div class="trick-body">\n<ol class="plays">\n{"".join(lis)}</ol>\n'
                f'<div class="facts">\n<p>Led by <strong>{seat_html.get(leader_seat, "?")}</strong>.\n{outcome}</p>\n'
                + (f"<p>Written at the table: won by {seat_html[t.winner]}.</p>" if written else "")
                + (f'<p class="running">Trick score so far: {running_html}</p>' if run else "")
                + '<div class="held"></div>\n</div>\n</div>')
        views.append(TrickView._make((
            key, t.number, i + 1, names[leader_seat] if 0 <= leader_seat < seats else "?", tuple(plays), replayed,
            names[win_seat] if win_seat >= 0 else "", points, ", ".join(extra), run, score_text, running_text, cards,
            stops, written, _note(t.comments) if t.comments else "", tflag, css, _alts(t, plays) if any_dd else (),
            _markup(html))))
    return tuple(views)


def _play_extras(announce: str, note: str, dd: DdView | None) -> str:
    """What follows a card in its ``<li>``: the announcement, the note, the double-dummy figures."""
    out = ""
    if announce:
        out += f' <em class="announce">&ldquo;{escape(announce)}&rdquo;</em>'
    if note:
        out += f' <span class="note">{escape(note)}</span>'
    if dd is not None:
        out += (f' <span class="{escape(dd.css)}" title="double-dummy: forced value after the card {escape(dd.eval)}">'
                + (f"<strong>{escape(dd.mark)}</strong>, " if dd.mark else "") + f"cost {escape(dd.cost)}"
                + (f"; best {escape(dd.best)}" if dd.best else "") + "</span>")
    return out


_PLAY_KEYS: dict[tuple[int, int], tuple[str, ...]] = {}
_NAME_AND_POINTS = "{} {}".format  # "Alice 15": a column of the running trick score


def _play_keys(trick: int, n: int) -> tuple[str, ...]:
    """The keys of a trick's cards, t4c1 t4c2 … (made once: every hand has the same)."""
    keys = _PLAY_KEYS.get((trick, n))
    if keys is None:
        keys = _PLAY_KEYS[(trick, n)] = tuple(f"t{trick}c{j}" for j in range(1, n + 1))
    return keys


def _alts(trick, plays) -> tuple[AltsView, ...]:
    """The analysis boards of a trick's cards (their ``[%dd … alts=…]`` comments)."""
    out = []
    for p, v in zip(trick.plays, plays):
        if v.dd is not None:
            board = alts_view(p.comments, v.card.name, v.seat)
            if board is not None:
                out.append(board)
    return tuple(out)


def _deal_view(session: JojottePages, v: HandVerdict) -> tuple[SeatDeal, ...]:
    """Each seat's cards: dealt, drawn, and held when play starts (what he played when no deal was recorded)."""
    record, names, labels = v.record, session.names, session.labels
    start = _start_holdings(record, session.seats)
    deal = []
    for s in range(session.seats):
        dealt = record.dealt[s] if s < len(record.dealt) else None
        drawn = record.drawn[s] if record.split and record.drawn is not None and s < len(record.drawn) else None
        held = start[s]
        if held is None:  # no deal recorded: what a player held is what he played
            held = [p.card for t in record.tricks for p in t.plays if p.seat == s]
        try:
            held = " ".join(map(_NAMES.__getitem__, sorted(held, key=_ORDER.__getitem__)))
        except KeyError:  # a card outside the pack, or a card nobody recorded
            held = " ".join(c.name for c in _sorted_cards(held) if c.name != "?")
        deal.append(SeatDeal._make((names[s], labels[s], record.dealer == s, _sorted_cards(dealt) if dealt else (),
                                     _sorted_cards(drawn) if drawn else (), bool(record.split and drawn), dealt is not None,
                                     held, session.rules.seat_role(v.state, record.dealer, s))))
    return tuple(deal)


def _at(values, i: int):
    return values[i] if values is not None and i < len(values) else None


def _score_lines(v: HandVerdict, columns: Sequence[str]) -> tuple[ScoreLine, ...]:
    """The hand's score per column of the sheet (a player, or a side): computed, and as written at the table."""
    w, sc, entry = v.record.score, v.score, v.entry
    score = []
    for s in range(len(columns)):
        below = entry.below(s) if entry is not None else None
        above = entry.above(s) if entry is not None else None
        wb = _at(w.below, s) if w is not None else None
        wa = _at(w.above, s) if w is not None else None
        figures = (_at(sc.tricks, s) if sc else None, _at(sc.trick_points, s) if sc else None,
                   _at(sc.meld_points, s) if sc else None, _at(sc.bonus, s) if sc else None,
                   _at(sc.total, s) if sc else None, below, above, wb, wa)
        below_wrong = below is not None and wb is not None and wb != below
        above_wrong = above is not None and wa is not None and wa != above
        f = ["-" if x is None else x if type(x) is int else escape(x) for x in figures]
        html = (f'<tr><th class="{SEAT_COLORS[s % 4]}">{escape_text(columns[s])}</th>\n'
                f'<td class="num">{f[0]}</td>\n<td class="num">{f[1]}</td>\n<td class="num">{f[2]}</td>\n'
                f'<td class="num">{f[3]}</td>\n<td class="num"><strong>{f[4]}</strong></td>\n'
                f'<td class="num">{f[5]}</td>\n<td class="num">{f[6]}</td>\n'
                f'<td class="num{" wrong" if below_wrong else ""}">{f[7]}</td>\n'
                f'<td class="num{" wrong" if above_wrong else ""}">{f[8]}</td></tr>\n')
        score.append(ScoreLine._make((columns[s], *figures, below_wrong, above_wrong, _markup(html))))
    return tuple(score)


def hand_view(session: JojottePages, v: HandVerdict, position: int) -> HandView:
    """What the page shows of one hand."""
    names = session.names
    seats = session.seats
    record = v.record
    flags = _flags(v.issues) if v.issues else {}
    prefix = f"h{position}-"
    turned = record.turned if record.turned is not None and record.turned >= 0 else None
    deal = _deal_view(session, v)
    auction = session.calls(record.auction, "a", turned, flags, prefix)
    after = session.calls(record.after, "p", turned, flags, prefix)
    state = v.state
    rules = session.rules
    melds_shown = []
    dix = None
    if state is not None and state.phase in ("play", "done") and any(state.melds):
        result = rules.compare_melds(state)
        for s in range(min(seats, len(result.shown))):
            if result.shown[s]:
                melds_shown.append((names[s], tuple(meld_view(m) for m in result.shown[s]), result.points[s]))
    if state is not None and state.dix >= 0 and turned is not None:
        dix = (names[state.dix], card_view(make_card(turned >> 4, SEVEN)), card_view(turned))
    tricks = _tricks(v, session, flags, rules.jojotte_in_trick_score(), prefix)
    start = 1
    if flags:
        for t in tricks:
            if t.flag or t.stops or any(p.flag for p in t.plays):
                start = t.position
                break
    columns = session.column_names
    ncols = len(columns)
    sc = v.score
    entry = v.entry
    score = _score_lines(v, columns)
    credits = tuple([CreditView._make((columns[c.seat] if 0 <= c.seat < ncols else "?", c.line, c.amount, c.rule, c.why))
                     for c in entry.credits]) if entry is not None else ()
    prev_sheet = session.prev_sheet
    rubbers_before = prev_sheet.rubbers if prev_sheet is not None else (0,) * ncols
    rubber_won = next((s for s in range(ncols) if v.sheet.rubbers[s] > rubbers_before[s]), -1)
    games_before = prev_sheet.games_total if prev_sheet is not None else (0,) * ncols
    game_won = next((s for s in range(ncols) if v.sheet.games_total[s] > games_before[s]), -1)
    result_lines = tuple(f"{names[r.seat]}: {r.tricks} tricks, {r.points} points" for r in record.result if 0 <= r.seat < seats)
    claim = ""
    if 0 <= record.claim < seats:
        claim = f"{names[record.claim]} claimed the remaining tricks"
        c = session.column_of[record.claim]
        if sc is not None and tricks and tricks[-1].running and c < len(sc.trick_points):
            rest = len(record.tricks)
            taken = sc.trick_points[c] - tricks[-1].running[c][1]
            claim += f" ({(rules.tricks_per_hand or 9) - rest} tricks, {taken} points with the last trick)"
        claim += "."
    notes = tuple(c if key == "hand" else f"{key}: {c}" for key, cs in record.notes for c in cs)
    # in the order of HandView's fields, by `_make` (a call naming 37 fields costs more than most steps here; `_make`
    # checks their number)
    return HandView._make((
        f"hand-{position}", prefix, f"Hand {v.number} | {session.title}", v.number, position,  # anchor … position
        session.hand_url(position - 1) if position > 1 else "", session.hand_url(position + 1),  # prev_url, next_url
        names[record.dealer] if 0 <= record.dealer < seats else "?", notes, tuple(deal), flags.get("deal", ""),  # dealer …
        card_view(turned) if turned is not None else None,  # turned
        card_view(record.info) if record.info is not None and record.info >= 0 else None, auction, after,  # info …
        flags.get("bidding", ""), _contract(v, names), tuple(melds_shown), dix, tricks, flags.get("replay", ""),  # … replay_flag
        start, claim, result_lines, score, credits, entry.held_aside if entry is not None else None, v.sheet.pool,  # … pool_after
        columns[game_won] if game_won >= 0 else "", columns[rubber_won] if rubber_won >= 0 else "",  # game_won_by, rubber_won_by
        v.used_written_score, flags.get("score", ""), v.ok,  # written_used, score_flag, ok
        tuple(map(issue_view, v.issues)), tuple(map(issue_view, v.unchecked)), analysis_view(tricks, names),  # … analysis
        None))  # restored (report --restore adds it)


# --- the double-dummy analysis ([%dd …] comments) ---------------------------------------------------------

def _dd_view(comments: Sequence[str]) -> DdView | None:
    f = dd_fields(comments)
    if f is None:
        return None
    ev, cost, best, mark, vs = f
    best_text = " ".join(b.replace("+", " ") for b in (best or "").split(",") if b)
    return DdView(ev, cost, best_text, mark or "", "dd" + (f" dd-{mark}" if mark else ""), vs or "")


def _plain_comments(comments: Sequence[str]) -> tuple[str, ...]:
    return without_dd(comments)


def analysis_view(tricks: Sequence[TrickView], names: Sequence[str], width: int = 640,
                  height: int = 160) -> AnalysisView | None:
    """The forced value before the first card analysed and after each, as an SVG line; None without analysis."""
    cards = [(t, p) for t in tricks for p in t.plays if p.dd is not None and p.dd.eval is not None]
    if not cards or len(names) < 2:
        return None
    seat_index = {n: i for i, n in enumerate(names)}
    first_t, first = cards[0]
    plus, minus = names[0], names[1]  # eval is A's minus B's, or as its vs= says: A-C (three), N+S-E+W (sides)
    sign = 1 if seat_index.get(first.seat, 0) == 0 else -1
    if first.dd.vs.count("-") == 1:
        by_label = {p.seat_label: p.seat for _, p in cards}
        a, b = (part.split("+") for part in first.dd.vs.split("-"))
        plus, minus = (" and ".join(by_label.get(x, x) for x in part) for part in (a, b))
        sign = 1 if first.seat_label in a else -1
    start_value = first.dd.eval + sign * (first.dd.cost or 0)  # eval before = after + the cost, from A's side
    values = [start_value] + [p.dd.eval for _, p in cards]
    lo, hi = min(min(values), 0), max(max(values), 0)
    span = max(hi - lo, 1)
    left, right, top, bottom = 40, 10, 10, 20
    n = len(values) - 1

    def x(i: int) -> float:
        return round(left + (width - left - right) * i / max(n, 1), 1)

    def y(v: int) -> float:
        return round(top + (height - top - bottom) * (1 - (v - lo) / span), 1)

    points = tuple(DdPoint(f"{t.number}.{p.key.rsplit('c', 1)[1]}", p.seat, p.card.name, p.dd.eval, x(i), y(p.dd.eval),
                           p.dd.mark) for i, (t, p) in enumerate(cards, 1))
    line = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values))
    if first_t.position == 1 and first.key.endswith("c1"):
        start = "from the first lead"
    else:
        left_cards = sum(len(t.plays) for t in tricks if t.position >= first_t.position)
        start = f"from trick {first_t.number}, card {first.key.rsplit('c', 1)[1]} ({left_cards} cards recorded from there)"
    players = []
    for i, name in enumerate(names):
        mine = [p for _, p in cards if seat_index.get(p.seat) == i]
        if not mine:
            continue
        counts = [(m, sum(1 for p in mine if p.dd.mark == m)) for m in ("blunder", "mistake", "inaccuracy")]
        marks = ", ".join(f"{c} {m if c == 1 else ('inaccuracies' if m == 'inaccuracy' else m + 's')}" for m, c in counts if c)
        players.append((name, sum(p.dd.cost or 0 for p in mine), marks))
    sense = f"{plus} minus {minus}: the trick-score difference both can force (in a Nullo: the Nullo's score)"
    return AnalysisView(start, sense, width, height, y(0), line, points, tuple(players))


# --- charts ----------------------------------------------------------------------------------------------

def _nice_step(span: float, ticks: int = 5) -> int:
    raw = max(span / ticks, 1)
    mag = 10 ** (len(str(int(raw))) - 1)
    for m in (1, 2, 5, 10):
        if raw <= m * mag:
            return int(m * mag)
    return int(10 * mag)


def running_chart(totals: Sequence[tuple[int, ...]], names: Sequence[str], width: int = 640, height: int = 240,
                  max_points: int = 400) -> LineChart:
    """Each player's total points after each hand, as SVG polylines (long sessions are thinned to ``max_points``)."""
    left, bottom, top, right = 48, 24, 10, 70
    n = len(totals) - 1
    hi = max((max(t) for t in totals), default=0)
    lo = min(0, min((min(t) for t in totals), default=0))
    span = max(hi - lo, 1)
    step = max(1, (n + max_points - 1) // max_points) if n else 1
    idx = list(range(0, n + 1, step))
    if idx[-1] != n:
        idx.append(n)
    plot_w = width - left - right
    plot_h = height - top - bottom

    def x(i: int) -> float:
        return round(left + (plot_w * i / n if n else 0), 1)

    def y(val: int) -> float:
        return round(top + plot_h * (1 - (val - lo) / span), 1)

    series = []
    for s, name in enumerate(names):
        pts = " ".join(f"{x(i)},{y(totals[i][s])}" for i in idx)
        series.append(Series(name, SEAT_COLORS[s % len(SEAT_COLORS)], pts, totals[-1][s], x(n), y(totals[-1][s])))
    ystep = _nice_step(span)
    y_ticks = tuple(Tick(v, y(v)) for v in range((lo // ystep) * ystep, hi + 1, ystep) if lo <= v <= hi or v == 0)
    xstep = _nice_step(n, 8) if n else 1
    x_ticks = tuple(Tick(i, x(i)) for i in range(0, n + 1, xstep))
    return LineChart(width, height, left, bottom, tuple(series), x_ticks, y_ticks, y(0),
                     f"Running totals after each of {n} hand(s)")
