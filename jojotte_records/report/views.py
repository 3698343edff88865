"""What the report pages of every game share: where an issue points and its rule's text (`issue_view`), the
index's row of a session (`SessionRow`), and the batching of a session's hand pages into files (`HandFiles`).

`session` (the one builder), `jojotte_pages` and `event_pages` (the view hooks) and `site` build on it.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import NamedTuple

from markupsafe import Markup, escape

from ..cards import card_symbol_name, parse_card, suit_of
from ..errors import Issue, wins
from ..notation.dd_comment import dd_alternatives, dd_fields

try:  # markupsafe's own escaping of a string (C): the text `escape` wraps in a Markup
    from markupsafe._speedups import _escape_inner as escape_text
except ImportError:  # pragma: no cover - markupsafe without its C module, or one that names it otherwise
    def escape_text(text: str) -> str:
        """``str(escape(text))``: a string escaped for HTML, as plain text (for the f-strings that make markup)."""
        return str(escape(text))


class IssueView(NamedTuple):
    key: str  # the page element it points at (t4c2, a3, p1, deal, score, hand): its data-loc
    target: str  # the id (after the hand's prefix) of the element to link to: the trick for a card (t4)
    rule: str
    kind: str
    message: str
    where: str  # hand 1, trick 2, card 2
    file_pos: str  # examples/x.jjt:19:18
    rule_text: str  # the rule's sentence in the spec, "" if the spec has none
    rule_section: str


class SessionRow(NamedTuple):
    """One session on the index page."""

    url: str
    event: str
    site: str
    date: str
    game: str
    players: tuple[str, ...]
    players_key: str  # lower-case names, one per line (for the filter)
    result: str
    winner: str
    rubbers: str
    rubbers_total: int
    hands: int
    disputes: int
    source: str


@lru_cache(maxsize=1)
def rule_texts() -> dict[str, dict[str, str]]:
    """The rule sentences of the specs, by rule ID (``jojotte_records/data/rules_*.json``: Jo-Jotte, Pitch, Baloot)."""
    out: dict[str, dict[str, str]] = {}
    for game in ("jojotte", "pitch", "baloot"):
        try:
            text = resources.files("jojotte_records").joinpath(f"data/rules_{game}.json").read_text(encoding="utf-8")
        except (FileNotFoundError, ModuleNotFoundError):  # pragma: no cover - a broken install
            continue
        out.update(json.loads(text)["rules"])
    return out


_NOTATION_TEXT = "The record cannot be read at this point; docs/notation.md gives the grammar."


class RestoreRow(NamedTuple):
    column: str  # a column of the sheet (a player, or a side)
    restored: str  # what the hand writes there had the best legal card been played: "below 115, above 140"
    written: str  # what the table wrote: "below 115, above 140", "" when the record has no written score


class RestoreView(NamedTuple):
    """What a hand with an illegal card would have scored had the best legal card been played there (the
    figure of ``jojotte validate --restore``), beside the score written at the table; drawn on the dispute's
    hand page when the report is asked for it (``jojotte report --restore``)."""

    text: str  # "trick 2, card 2: had Daniel played KS instead of 7D (best play afterwards)"
    possible: bool  # False: the solver cannot see the position (``text`` says why)
    rows: tuple[RestoreRow, ...]
    outcome: str  # "Daniel wins the hand", "made (bidders 40 points with best play)"


def _figures(fig: dict | None) -> str:
    if fig is None:
        return ""
    return ", ".join(f"{k} {v}" for k, v in fig.items() if v) or "nothing"


def restore_view(item: dict) -> RestoreView:
    """The view of one hand's restoration (`analyze.restore.restore_hand`'s dict, as ``validate --restore --json``
    writes it)."""
    r = item.get("restored")
    written = item.get("as_written") or {}
    if r is None:
        return RestoreView(f"not possible: {item.get('reason', '')}", False, (), "")
    score = r["score"]
    if item.get("event"):  # the hand's points per column, and whether the contract is made
        rows = tuple(RestoreRow(c, str(n), "" if written.get(c) is None else str(written[c]))
                     for c, n in score["delta"].items())
        made = score.get("made")
        outcome = ("" if made is None else "made " if made else "not made ") + f"({r['value_of']} {r['value']} points with best play)"
        return RestoreView(r["text"], True, rows, outcome)
    rows = tuple(RestoreRow(n, f"{_figures({k: score[n][k] for k in ('below', 'above')})} (trick score {score[n]['trick_points']})",
                            _figures(written.get(n))) for n in score if n not in ("winner", "held_aside"))
    outcome = wins(score["winner"], "the hand") if score["winner"] else "equal totals"
    return RestoreView(r["text"], True, rows, outcome)


class AltBar(NamedTuple):
    """One legal card of a player's choice and the forced value after it (``alts=`` of its ``[%dd …]`` comment)."""

    card: str  # as written in the comment: KS, QS+jo
    html: Markup  # the card with its suit symbol
    value: int  # the forced value after it, on the scale of eval
    width: float  # the bar's length, in per cent of the chart's width
    played: bool
    best: bool
    marks: str  # "played", "best", "played, best": the marks in words (the chart reads without colour)
    css: str  # "alt", plus "played" and "best"


class AltsView(NamedTuple):
    """The analysis board of one card: every legal card the player had and what each was worth, as a small
    horizontal bar chart under the trick (in the manner of lichess's, offline: HTML and CSS, no script)."""

    seat: str  # who chose
    played: str  # the card played
    sense: str  # whose value: "A minus B", "A-C", "N+S-E+W"
    bars: tuple[AltBar, ...]
    label: str  # the chart's title in words


_SYMBOL_ENTITIES = {"♠": "&spades;", "♥": "&hearts;", "♦": "&diams;", "♣": "&clubs;"}


def _alt_html(card: str) -> Markup:
    base, plus, word = card.partition("+")
    try:
        code = parse_card(base)
        text, color = card_symbol_name(code), "red" if suit_of(code) in (1, 2) else "black"
    except (KeyError, ValueError, IndexError):  # a card this pack does not name (a joker): as written
        text, color = base, "black"
    out = str(escape(text))
    for k, v in _SYMBOL_ENTITIES.items():
        out = out.replace(k, v)
    return Markup('<span class="card {}">{}</span>{}').format(color, Markup(out), f" {word}" if plus else "")


def alts_view(comments, played: str, seat: str) -> AltsView | None:
    """The bar chart of a card's ``alts=`` field (`notation.dd_comment.dd_alternatives`), None without one. The bars
    start at the lowest value (or 0) and end at the highest; the best cards are the comment's ``best=``."""
    alts = dd_alternatives(comments)
    if not alts:
        return None
    fields = dd_fields(comments)
    best = {b.partition("+")[0] for b in ((fields[2] or "") if fields else "").split(",") if b}
    sense = (fields[4] if fields else None) or "A minus B"
    values = [v for _, v in alts]
    lo, hi = min(min(values), 0), max(max(values), 0)
    span = max(hi - lo, 1)
    bars = []
    for card, value in alts:
        base = card.partition("+")[0]
        is_played, is_best = base == played, base in best
        marks = ", ".join(m for m, on in (("played", is_played), ("best", is_best)) if on)
        bars.append(AltBar(card, _alt_html(card), value, max(round(100 * (value - lo) / span, 1), 1.0), is_played,
                           is_best, marks, "alt" + (" played" if is_played else "") + (" best" if is_best else "")))
    label = f"What each card {seat} could play was worth: the forced value after it ({sense})"
    return AltsView(seat, played, sense, tuple(bars), label)


# --- where an issue points ------------------------------------------------------------------------------

def issue_key(issue: Issue) -> str:
    """The page element an issue is about: ``t4c2`` (trick 4, card 2), ``t4``, ``a3`` (auction call 3),
    ``p2`` (call 2 after the draw), ``bidding``, ``replay`` (the tricks as a whole), ``deal``, ``score`` or ``hand``."""
    loc = issue.loc
    if loc.trick is not None:
        return f"t{loc.trick}c{loc.card}" if loc.card else f"t{loc.trick}"
    phase = loc.phase
    if phase == "auction":
        return f"a{loc.step}" if loc.step else "bidding"
    if phase == "after":
        return f"p{loc.step}" if loc.step else "bidding"
    if phase == "trick":
        return "replay"
    if phase in ("score", "sheet"):
        return "score"
    if phase == "deal":
        return "deal"
    return "hand"


def issue_view(issue: Issue) -> IssueView:
    texts = rule_texts()
    entry = texts.get(issue.rule)
    if entry is not None:
        text, section = entry["text"], entry["section"]
    elif issue.rule == "NOTATION":
        text, section = _NOTATION_TEXT, "notation"
    else:
        text, section = "", ""
    key = issue_key(issue)
    target = key.partition("c")[0] if key.startswith("t") and "c" in key else key
    return IssueView(key, target, issue.rule, issue.kind, issue.message, issue.loc.where(), issue.loc.file_pos(),
                     text, section)


# --- a session's hand pages, a file per batch ------------------------------------------------------------


class HandFiles:
    """Where a session's hand pages go: ``per_file`` hands share a file (`HANDS_PER_FILE`), written a batch at a
    time (``batch``) into the session's folder (``dir``) of the site (``site``)."""

    per_file: int
    batch: list
    dir: str
    site: object
    title: str

    def hand_file(self, position: int) -> str:
        """The file that holds the hand at ``position`` (1-based)."""
        first = (position - 1) // self.per_file * self.per_file + 1
        return f"hands-{first:04d}.html"

    def hand_url(self, position: int) -> str:
        return f"{self.hand_file(position)}#hand-{position}"

    def hands_page(self, title: str, first: int, end: int, hands: list) -> tuple[str, object]:
        """The template and context of the file of ``hands`` (``title``: "Hands 1-10")."""
        raise NotImplementedError

    def _flush(self, last: bool = False) -> None:
        """Write the batch of hand views (``self.batch``) as one file; the last hand of a session links nowhere."""
        hands = self.batch
        if not hands:
            return
        if last:
            hands[-1] = hands[-1]._replace(next_url="")
        first, end = hands[0].position, hands[-1].position
        template, ctx = self.hands_page(f"Hand {first}" if first == end else f"Hands {first}-{end}", first, end, hands)
        self.site.write_page(f"{self.dir}/{self.hand_file(first)}", template, ctx)
        self.batch = []
