"""Named statistics over the archive: the queries of ``sql/queries/*.sql``, with filters.

A query file starts with ``-- title:`` and ``-- description:`` lines, then one or
more sections, each opened by ``-- table: NAME`` and holding one SELECT. The
queries read the archive's tables and three temporary tables that
`run_statistic` fills from the filters (with ``?`` parameters):

* ``stat_filters``: one row, the filter values (``game, event, since, until, player``);
* ``picked_sessions(session_id)``: the sessions the filters keep;
* ``picked_seats(session_id, seat, name, sheet_seat)``: their seats, only the player's with ``--player``
  (``sheet_seat``: the score sheet column of the seat, its side's in games scored by sides).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple

import duckdb

from ..rules.base import find_variant
from .store import SQL_PACKAGE, ArchiveError, QueryFailed, connect, first_line


@dataclass(frozen=True)
class StatFilters:
    """What ``jojotte stats`` may narrow a statistic to. Every field is optional."""

    player: str | None = None  # a player's name, case-insensitive
    event: str | None = None  # part of the [Event] tag, case-insensitive
    since: date | None = None  # first day (a date known only by its year counts from 1 January)
    until: date | None = None  # last day, included
    game: str | None = None  # a game name or alias (``jojotte``)

    def to_json(self) -> dict:
        return {"player": self.player, "event": self.event, "since": self.since.isoformat() if self.since else None,
                "until": self.until.isoformat() if self.until else None, "game": self.game}


class StatInfo(NamedTuple):
    name: str
    title: str
    description: str


class StatTable(NamedTuple):
    name: str
    columns: list[str]
    rows: list[tuple]


class StatResult(NamedTuple):
    name: str
    title: str
    description: str
    filters: StatFilters
    tables: list[StatTable]

    def table(self, name: str) -> StatTable:
        for t in self.tables:
            if t.name == name:
                return t
        raise KeyError(name)

    def to_json(self) -> dict:
        """``{"statistic", "title", "filters", "tables": {NAME: [row objects]}}``."""
        return {
            "statistic": self.name,
            "title": self.title,
            "filters": self.filters.to_json(),
            "tables": {t.name: [{c: jsonable(v) for c, v in zip(t.columns, r)} for r in t.rows] for t in self.tables},
        }


def jsonable(value: Any) -> Any:
    """A DuckDB value as JSON: dates as ISO text, decimals as numbers."""
    if isinstance(value, Decimal):
        return float(value) if value != value.to_integral_value() else int(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    return value


_QUERY_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def _queries_dir():
    return resources.files(SQL_PACKAGE) / "queries"


def list_statistics() -> list[StatInfo]:
    """The named statistics, sorted by name."""
    out = []
    for entry in _queries_dir().iterdir():
        if entry.name.endswith(".sql") and _QUERY_NAME.match(entry.name[:-4]):
            info, _ = _parse(entry.name[:-4], entry.read_text(encoding="utf-8"))
            out.append(info)
    return sorted(out)


def load_statistic(name: str) -> tuple[StatInfo, list[tuple[str, str]]]:
    """The statistic's title and description, and its (table name, SELECT) sections.

    Raises:
        ArchiveError: no statistic of that name.
    """
    entry = _queries_dir() / f"{name}.sql"
    if not _QUERY_NAME.match(name) or not entry.is_file():
        known = ", ".join(i.name for i in list_statistics())
        raise ArchiveError(f"no statistic named '{name}' (known: {known})")
    return _parse(name, entry.read_text(encoding="utf-8"))


def _parse(name: str, text: str) -> tuple[StatInfo, list[tuple[str, str]]]:
    title, description = name, ""
    sections: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("-- title:") and not sections:
            title = stripped.split(":", 1)[1].strip()
        elif stripped.startswith("-- description:") and not sections:
            description = stripped.split(":", 1)[1].strip()
        elif stripped.startswith("-- table:"):
            sections.append((stripped.split(":", 1)[1].strip(), []))
        elif sections:
            sections[-1][1].append(line)
    return StatInfo(name, title, description), [(n, "\n".join(body).strip().rstrip(";")) for n, body in sections]


_FILTER_SQL = (
    """CREATE OR REPLACE TEMP TABLE stat_filters AS
       SELECT CAST(? AS VARCHAR) AS game, CAST(? AS VARCHAR) AS event, CAST(? AS DATE) AS since,
              CAST(? AS DATE) AS until, CAST(? AS VARCHAR) AS player""",
    """CREATE OR REPLACE TEMP TABLE picked_sessions AS
       SELECT s.session_id
       FROM sessions s, stat_filters f
       WHERE (f.game IS NULL OR s.game = f.game)
         AND (f.event IS NULL OR contains(lower(coalesce(s.event, '')), lower(f.event)))
         AND (f.since IS NULL OR coalesce(s.date, make_date(s.year, 1, 1)) >= f.since)
         AND (f.until IS NULL OR coalesce(s.date, make_date(s.year, 1, 1)) <= f.until)
         AND (f.player IS NULL OR EXISTS (SELECT 1 FROM players p
                                          WHERE p.session_id = s.session_id AND lower(p.name) = lower(f.player)))""",
    """CREATE OR REPLACE TEMP TABLE picked_seats AS
       SELECT p.session_id, p.seat, p.name, p.sheet_seat
       FROM players p JOIN picked_sessions USING (session_id), stat_filters f
       WHERE f.player IS NULL OR lower(p.name) = lower(f.player)""",
)


def _game_filter(game: str | None) -> str | None:
    if not game:
        return None
    try:
        return find_variant(game).name
    except ValueError:
        return game.strip().lower()


def run_statistic(db_path: str | Path, name: str, filters: StatFilters | None = None) -> StatResult:
    """Run a named statistic on the archive (opened read-only).

    Raises:
        ArchiveError: no archive, or no statistic of that name.
        QueryFailed: the statistic's SQL failed.
    """
    filters = filters or StatFilters()
    info, sections = load_statistic(name)
    conn = connect(db_path, read_only=True)
    try:
        conn.execute(_FILTER_SQL[0], [_game_filter(filters.game), filters.event or None, filters.since, filters.until,
                                      filters.player or None])
        for sql in _FILTER_SQL[1:]:
            conn.execute(sql)
        tables = []
        for table, sql in sections:
            try:
                rel = conn.execute(sql)
                columns = [d[0] for d in rel.description]
                tables.append(StatTable(table, columns, rel.fetchall()))
            except duckdb.Error as e:
                raise QueryFailed(f"statistic '{name}', table '{table}': {first_line(e)}") from None
        return StatResult(info.name, info.title, info.description, filters, tables)
    finally:
        conn.close()


_DATE_FORMS = (re.compile(r"^(\d{4})$"), re.compile(r"^(\d{4})[-.](\d{1,2})$"), re.compile(r"^(\d{4})[-.](\d{1,2})[-.](\d{1,2})$"))


def parse_date_option(text: str, end: bool = False) -> date:
    """A ``--since`` / ``--until`` date: ``2026-11-21``, ``2026.11.21``, ``2026-11`` or ``2026``.

    A year or a month means its first day, or its last day with ``end=True``.

    >>> parse_date_option("2026", end=True)
    datetime.date(2026, 12, 31)

    Raises:
        ValueError: not a date.
    """
    t = text.strip()
    for form in _DATE_FORMS:
        m = form.match(t)
        if not m:
            continue
        parts = [int(x) for x in m.groups()]
        try:
            if len(parts) == 1:
                return date(parts[0], 12, 31) if end else date(parts[0], 1, 1)
            if len(parts) == 2:
                y, mo = parts
                if not end:
                    return date(y, mo, 1)
                nxt = date(y + (mo == 12), mo % 12 + 1, 1)
                return date.fromordinal(nxt.toordinal() - 1)
            return date(*parts)
        except ValueError:
            break
    raise ValueError(f"invalid date '{text}' (write 2026-11-21, 2026-11 or 2026)")
