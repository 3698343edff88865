"""The statistics page (``stats.html``): counts and bar charts over every hand of the site, and the archive's
named statistics for a report built from an archive."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Sequence

from ..replay.jojotte import HandVerdict, SessionSummary
from .jojotte_pages import SUIT_MARKS

__all__ = ["SiteStats", "StatsContext", "archive_tables", "bar_chart"]


class BarRow(NamedTuple):
    label: str
    value: int
    width: float  # bar length in SVG units
    y: int
    title: str


class BarChart(NamedTuple):
    title: str
    rows: tuple[BarRow, ...]
    width: int
    height: int
    label_width: int


class CountView(NamedTuple):
    label: str
    value: str


class ArchiveTable(NamedTuple):
    """One table of a named statistic of the archive (``jojotte stats NAME``), for a report built with ``--db``."""

    title: str
    description: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


class PlayerStat(NamedTuple):
    name: str
    sessions: int
    sessions_won: int
    hands: int
    rubbers: int
    games: int
    points: int



@dataclass(frozen=True, slots=True)
class StatsContext:
    """``stats.html``: counts and charts computed from the verdicts, and the archive's named statistics."""

    title: str
    root: str
    counts: tuple[CountView, ...]
    charts: tuple[BarChart, ...]
    players: tuple[PlayerStat, ...]
    archive_tables: tuple[ArchiveTable, ...] = ()



def bar_chart(title: str, items: Sequence[tuple[str, int]], width: int = 520, row: int = 22, label_width: int = 170) -> BarChart:
    top = max((v for _, v in items), default=0) or 1
    bar_w = width - label_width - 60
    rows = tuple(BarRow(label, value, round(bar_w * value / top, 1), i * row, f"{label}: {value}")
                 for i, (label, value) in enumerate(items))
    return BarChart(title, rows, width, max(row * len(items), row), label_width)



# --- statistics --------------------------------------------------------------------------------------------

class SiteStats:
    """Counts over every hand and session of the site (simple tallies of the verdicts)."""

    def __init__(self):
        self.sessions = 0
        self.hands = 0
        self.bad_hands = 0
        self.contracts: dict[str, int] = {}
        self.multipliers = {"undoubled": 0, "doubled": 0, "redoubled": 0}
        self.outcomes = {"declarer won": 0, "defender won": 0, "equal totals (held aside)": 0, "Nullo made": 0,
                         "Nullo failed": 0, "bid Slam made": 0, "bid Slam failed": 0, "void (all passed)": 0}
        self.dix = 0
        self.jojotte = 0
        self.unbid_slams = 0
        self.not_scored = 0
        self.rules: dict[str, int] = {}
        self.kinds: dict[str, int] = {}
        self.players: dict[str, list[int]] = {}  # name -> [sessions, won, hands, rubbers, games, points]

    def add_hand(self, v: HandVerdict, session) -> None:
        self.hands += 1
        if v.issues:
            self.bad_hands += 1
        for i in v.issues:
            self.rules[i.rule] = self.rules.get(i.rule, 0) + 1
            self.kinds[i.kind] = self.kinds.get(i.kind, 0) + 1
        s = v.state
        if s is None:
            return
        if s.phase == "void":
            self.outcomes["void (all passed)"] += 1
            return
        if s.denomination:
            if s.denomination == "nullo":
                key = "Nullo"
            elif s.denomination == "nt":
                key = "no-trump"
            else:
                mark = SUIT_MARKS.get(s.trump)
                key = f"{mark.symbol} {mark.word}" if mark else "suit"
            self.contracts[key] = self.contracts.get(key, 0) + 1
            self.multipliers[{1: "undoubled", 2: "doubled", 4: "redoubled"}.get(s.mult, "undoubled")] += 1
        if s.dix >= 0:
            self.dix += 1
        if s.denomination == "suit" and 2 in s.jo:
            self.jojotte += 1
        score = v.score
        if score is None or v.entry is None:
            self.not_scored += 1
            return
        column = session.column_of  # the hand's winner is a column of the sheet (a player, or a side)

        def col(seat: int) -> int:
            return column[seat] if 0 <= seat < len(column) else -2

        if score.nullo:
            self.outcomes["Nullo made" if score.winner == col(s.nullo_bidder) else "Nullo failed"] += 1
        elif s.slam:
            self.outcomes["bid Slam made" if score.winner == col(s.bidder) else "bid Slam failed"] += 1
        elif score.winner < 0:
            self.outcomes["equal totals (held aside)"] += 1
        elif score.winner == col(s.bidder):
            self.outcomes["declarer won"] += 1
        else:
            self.outcomes["defender won"] += 1
        if any(c.rule == "JJ-SLAM-5" for c in score.credits):
            self.unbid_slams += 1

    def add_session(self, summary: SessionSummary, session) -> None:
        self.sessions += 1
        sheet = summary.sheet
        for seat, name in enumerate(session.names):  # a player's figures are his column's: his own, or his side's
            c = session.column_of[seat]
            if not 0 <= c < len(sheet.total):
                continue
            row = self.players.setdefault(name, [0, 0, 0, 0, 0, 0])
            row[0] += 1
            row[1] += summary.winner == c
            row[2] += summary.hands
            row[3] += sheet.rubbers[c]
            row[4] += sheet.games_total[c]
            row[5] += sheet.total[c]

    def merge(self, other: "SiteStats") -> None:
        """Add the counts of ``other`` (a worker's, ``--jobs``), as if its hands had come after these: the charts'
        labels keep the order in which they first appeared."""
        for name in ("sessions", "hands", "bad_hands", "dix", "jojotte", "unbid_slams", "not_scored"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in ("contracts", "multipliers", "outcomes", "rules", "kinds"):
            mine = getattr(self, name)
            for key, n in getattr(other, name).items():
                mine[key] = mine.get(key, 0) + n
        for player, row in other.players.items():
            mine = self.players.setdefault(player, [0] * len(row))
            for k, n in enumerate(row):
                mine[k] += n

    def context(self) -> StatsContext:
        h = self.hands or 1
        counts = (
            CountView("sessions", f"{self.sessions:,}"),
            CountView("hands", f"{self.hands:,}"),
            CountView("hands with findings", f"{self.bad_hands:,} ({100 * self.bad_hands / h:.1f} %)"),
            CountView("dix exchanges", f"{self.dix:,}"),
            CountView("Jo-Jottes scored", f"{self.jojotte:,}"),
            CountView("unbid Slams", f"{self.unbid_slams:,}"),
            CountView("hands not scored from their events", f"{self.not_scored:,}"),
        )
        charts = [bar_chart("Contracts", sorted(self.contracts.items(), key=lambda kv: -kv[1])),
                  bar_chart("Doubling", list(self.multipliers.items())),
                  bar_chart("Outcomes", [(k, v) for k, v in self.outcomes.items()])]
        if self.rules:
            charts.append(bar_chart("Findings by rule", sorted(self.rules.items(), key=lambda kv: (-kv[1], kv[0]))[:25]))
        if self.kinds:
            charts.append(bar_chart("Findings by kind", sorted(self.kinds.items(), key=lambda kv: -kv[1])))
        players = tuple(PlayerStat(name, *row) for name, row in sorted(self.players.items(), key=lambda kv: (-kv[1][5], kv[0])))
        return StatsContext("Statistics", "", counts, tuple(charts), players)


def archive_tables(db: str) -> tuple[ArchiveTable, ...]:
    """Every named statistic of the archive (`stats.list_statistics`), as tables of text for ``stats.html``."""
    try:
        from ..archive.stats import list_statistics, run_statistic
        from ..archive.store import ArchiveError
    except ImportError:  # an archive module without statistics (e.g. a stand-in): the page keeps its own counts
        return ()
    out = []
    for info in list_statistics():
        try:
            result = run_statistic(db, info.name)
        except ArchiveError:  # not a DuckDB archive (session texts from elsewhere): the page keeps its own counts
            return ()
        for t in result.tables:
            if not t.rows:
                continue
            title = result.title if len(result.tables) == 1 else f"{result.title}: {t.name.replace('_', ' ')}"
            rows = tuple(tuple("" if v is None else f"{v:,}" if isinstance(v, int) else str(v) for v in r) for r in t.rows[:50])
            out.append(ArchiveTable(title, result.description, tuple(t.columns), rows))
    return tuple(out)

