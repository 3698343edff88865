"""The one report builder: a session's pages, whatever the game.

`SessionPages` collects one session's hands as the validator checks them (`replay.jojotte.HandVerdict`, the
one verdict type of every game) and writes

* ``sessions/<slug>/hands-NNNN.html``: `HANDS_PER_FILE` hands a file, written a batch at a time;
* ``sessions/<slug>/index.html``: the session's result and score sheet, and for a long session
  ``sheet-NNNN.html``: the sheet's later pages, `HANDS_PER_SHEET` hands each, with links from page to page
  and each column's total brought forward;
* the session's row on the site's index.

What a game's pages show comes from its view hook (`GAME_PAGES`, chosen by the record codec its rules
declare, `Rules.notation`): Jo-Jotte's (`jojotte_pages.JojottePages`, a hand replayed trick by trick and a
score pad) or the event-log games' (`event_pages.EventPages`, Pitch and Baloot). A hook gives a hand's view,
its row on the sheet, the statistics it counts, the hands file's and the session page's template and context,
the totals brought forward and the index's result.
"""

from __future__ import annotations

from ..notation.model import SessionHeader
from ..replay.jojotte import HandVerdict, SessionSummary, SessionValidator
from .event_pages import EventPages
from .jojotte_pages import JojottePages, SheetPage
from .views import HandFiles, SessionRow, restore_view

# a game's view hook, by the record codec its rules declare (`Rules.notation`)
GAME_PAGES = {"jojotte": JojottePages, "events": EventPages}

__all__ = ["SessionPages", "GAME_PAGES", "sheet_url"]


def sheet_url(page: int) -> str:
    """The file of a session's score-sheet page (1: the session's own page)."""
    return "index.html" if page == 1 else f"sheet-{page:04d}.html"


class SessionPages(HandFiles):
    """One session being written into the site (`site.Site`): its hands' files, its sheet's pages, its index row."""

    def __init__(self, site, header: SessionHeader, slug: str, source: str):
        self.site = site
        self.header = header
        self.slug = slug
        self.source = source
        self.title = header.get("Event") or f"Session {slug}"
        self.dir = f"sessions/{slug}"
        self.per_file = site.hands_per_file
        self.per_sheet = site.hands_per_sheet
        self.position = 0
        self.batch: list = []  # hand views not yet written
        self.rows: list = []  # the rows of the sheet page being filled
        self.page = 1
        self.page_start = 1  # the hand number of its first row
        self.carried: tuple[tuple[str, int], ...] = ()
        self.first_page: tuple | None = None  # page 1's rows and pad, written last (it shows the session's result)
        validator = SessionValidator(header)  # the same rules, options, seats and names as the check
        self.game = GAME_PAGES[validator.rules.notation](self, validator)
        self.validator = validator
        self.before = None  # the score sheet before the hand (kept for --restore: Pitch's moon depends on it)

    def add_hand(self, v: HandVerdict) -> None:
        if len(self.batch) == self.per_file:
            self._flush()
        self.position += 1
        view = self.game.hand(v, self.position)
        if self.site.restore is not None:
            view = self._restored(v, view)
        self.batch.append(view)
        if len(self.rows) == self.per_sheet:
            self._turn_page(v.number)
        self.rows.append(self.game.row(v, view))
        self.game.tally(v, self.site.stats)

    def _restored(self, v: HandVerdict, view):
        """The hand's view with its restoration (``report --restore``), for a hand with an illegal card."""
        before, self.before = self.before, v.sheet
        if v.first_illegal is None:
            return view
        rules = self.validator.rules
        item = self.site.restore(v, rules, before if before is not None else rules.new_sheet(), self.validator.names,
                                 self.validator.sheet_names)
        return view._replace(restored=restore_view(item))

    def hands_page(self, title: str, first: int, end: int, hands: list) -> tuple[str, object]:
        return self.game.hands_page(title, first, end, hands)

    def _sheet_page(self, last_hand: int, last: bool) -> SheetPage:
        return SheetPage(self.page, self.page_start, last_hand, sheet_url(self.page - 1) if self.page > 1 else "",
                         "" if last else sheet_url(self.page + 1), self.carried)

    def _turn_page(self, next_hand: int) -> None:
        """The sheet page is full and a hand follows: write it (page 1 waits for the session's result)."""
        page = self._sheet_page(self.rows[-1].number, last=False)
        pad = self.game.page_pad(last=False)
        if self.page == 1:
            self.first_page = (tuple(self.rows), pad, page)
        else:
            template, ctx = self.game.session_page(self, None, tuple(self.rows), pad, page)
            self.site.write_page(f"{self.dir}/{sheet_url(self.page)}", template, ctx)
        self.carried = self.game.carried()
        self.page += 1
        self.page_start = next_hand
        self.rows = []

    def finish(self, summary: SessionSummary) -> SessionRow:
        self._flush(last=True)
        pad = self.game.page_pad(last=True)
        if self.first_page is None:  # one page: the session's page as it always was
            rows, page = tuple(self.rows), None
        else:
            last = self._sheet_page(self.rows[-1].number if self.rows else self.page_start, last=True)
            template, ctx = self.game.session_page(self, None, tuple(self.rows), pad, last)
            self.site.write_page(f"{self.dir}/{sheet_url(self.page)}", template, ctx)
            rows, pad, page = self.first_page
        template, ctx = self.game.session_page(self, summary, rows, pad, page)
        self.site.write_page(f"{self.dir}/index.html", template, ctx)
        header = self.header
        return SessionRow(
            url=f"{self.dir}/index.html", event=header.get("Event") or "", site=header.get("Site") or "",
            date=header.get("Date") or "", game=header.get("Game") or self.game.default_game,
            players=tuple(self.game.names), players_key="\n".join(n.lower() for n in self.game.names),
            hands=summary.hands, disputes=summary.bad_hands + (1 if summary.issues else 0), source=self.source,
            **self.game.index_row(summary, self.site.stats))
