"""The archive: one DuckDB file of validated sessions, for statistics and SQL.

`import_paths` (what ``jojotte import`` runs) reads record files, validates every
hand through `replay.validate_stream`, and loads sessions, players, hands, calls,
melds, the dix, tricks, plays, score breakdowns, the session sheet and every
issue. Rows are gathered in column buffers and go to DuckDB as Arrow tables
(``INSERT INTO t BY NAME SELECT * FROM batch``), never one by one.

* **Atomic**: one transaction per file; a crash, SIGKILL or Ctrl-C in the middle
  of a file leaves the archive as it was before that file.
* **Idempotent**: a session is stored with the SHA-256 of its canonical text
  (`notation.write_session`); importing the same text again adds nothing. A
  session is *identified* by its identity tags (`session_key`); a session whose
  key is in the archive with another text replaces the older version.
* **Schema**: numbered migrations ``sql/NNN_name.sql``, each applied once and
  recorded in ``_jojotte_migrations``.

`run_sql` runs any read-only query on a read-only connection; `export_parquet`
writes the tables as Parquet partitioned by game and year; `session_texts`
yields the canonical text of every stored session (for the HTML report).
"""

from __future__ import annotations

import array
import hashlib
import io
import re
import time
from dataclasses import dataclass
from datetime import date, datetime
from importlib import resources
from operator import itemgetter
from pathlib import Path
from typing import Callable, Iterable, Iterator, NamedTuple

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import Issue, JojotteError, Location
from ..games import player_names, rules_for
from ..notation.model import Session, SessionHeader
from ..notation.text import write_session
from ..replay.files import iter_record_files, looks_like_json, open_records, open_stdin, read_error
from ..replay.jojotte import HandVerdict, SessionSummary, validate_stream
from ..replay.pool import Ready, jobs_count, ordered_map
from ..rules.base import find_variant
from .rows import add_hand, add_session, record_rows_for

DEFAULT_DB = "jojotte.duckdb"
SQL_PACKAGE = "jojotte_records.archive.sql"

# the tags that say which sitting a session is (docs/archive.md, "How a session is identified")
IDENTITY_TAGS = ("Event", "Site", "Date", "Round", "Table", "Game", "Players", "FirstDealer")
_WHEN_WHERE_TAGS = ("Event", "Site", "Date", "Round", "Table")

# every table that holds rows of a session, children first (deleting a replaced session)
SESSION_TABLES = ("actions", "hand_facts", "point_cards", "issues", "plays", "tricks", "dix", "melds", "calls", "credits", "hand_scores", "hands",
                  "rubbers", "session_sheet", "players", "session_text", "sessions")
# what `jojotte export --parquet` writes, partitioned by game and year
EXPORT_TABLES = ("sessions", "players", "session_sheet", "rubbers", "hands", "hand_scores", "credits", "calls",
                 "melds", "dix", "tricks", "plays", "issues", "session_text")

# no network at run time: never fetch an extension
_CONFIG = {"autoinstall_known_extensions": False, "autoload_known_extensions": False}
# `jojotte sql` runs what a user types: DuckDB's own guards on top of the read-only connection. No file
# but the archive is opened (no COPY, ATTACH, EXPORT, read_csv, glob …), no extension installed or
# loaded, and no setting changed, whatever the statement (issue 16: EXPLAIN ANALYZE ran a COPY).
_SQL_CONFIG = {**_CONFIG, "enable_external_access": False, "allow_community_extensions": False,
               "lock_configuration": True}


# --- errors -------------------------------------------------------------------------

class ArchiveError(JojotteError):
    """The archive cannot be opened or used as asked. ``exit_code`` is what the command exits with."""

    exit_code = 2


class QueryRefused(ArchiveError):
    """A statement given to `run_sql` would change something."""

    exit_code = 2


class QueryFailed(ArchiveError):
    """A query failed (a syntax error, an unknown table …)."""

    exit_code = 2


# --- opening and migrations ---------------------------------------------------------

class Migration(NamedTuple):
    version: int
    name: str
    sql: str


_MIGRATION_FILE = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")


def migrations() -> list[Migration]:
    """The numbered migration files ``sql/NNN_name.sql``, in order."""
    root = resources.files(SQL_PACKAGE)
    found = []
    for entry in root.iterdir():
        m = _MIGRATION_FILE.match(entry.name)
        if m:
            found.append(Migration(int(m.group(1)), m.group(2), entry.read_text(encoding="utf-8")))
    return sorted(found)


def apply_migrations(conn: duckdb.DuckDBPyConnection) -> list[Migration]:
    """Apply, each in its own transaction, the migrations not yet recorded in ``_jojotte_migrations``.

    Raises:
        ArchiveError: a migration failed (the archive stays at the version before it).
    """
    conn.execute("CREATE TABLE IF NOT EXISTS _jojotte_migrations ("
                 "version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)")
    done = {v for (v,) in conn.execute("SELECT version FROM _jojotte_migrations").fetchall()}
    applied = []
    for m in migrations():
        if m.version in done:
            continue
        conn.begin()
        try:
            conn.execute(m.sql)
            conn.execute("INSERT INTO _jojotte_migrations VALUES (?, ?, ?)", [m.version, m.name, datetime.now()])
            conn.commit()
        except duckdb.Error as e:
            conn.rollback()
            raise ArchiveError(f"migration {m.version:03d}_{m.name}.sql failed: {first_line(e)}") from None
        applied.append(m)
    return applied


def connect(db_path: str | Path, read_only: bool = False, config: dict | None = None) -> duckdb.DuckDBPyConnection:
    """Open the archive: read-write (created and migrated as needed) or read-only (it must exist and be current).

    ``config`` replaces the DuckDB settings the connection opens with (default: ``_CONFIG``).

    Raises:
        ArchiveError: the file is missing (read-only), not a DuckDB file, locked by another process,
            or not a jojotte archive.
    """
    path = str(db_path)
    if read_only and not Path(path).is_file():
        raise ArchiveError(f"no archive at '{path}' (create one with: jojotte import FILES --db {path})")
    try:
        conn = duckdb.connect(path, read_only=read_only, config=_CONFIG if config is None else config)
    except duckdb.Error as e:
        text = first_line(e)
        if "lock" in text.lower():
            raise ArchiveError(f"cannot open the archive '{path}': another process is using it ({text})") from None
        raise ArchiveError(f"cannot open the archive '{path}': {text}") from None
    try:
        if read_only:
            _check_current(conn, path)
            hide_pending(conn)
        else:
            apply_migrations(conn)
            clear_pending(conn)
    except ArchiveError:
        conn.close()
        raise
    except duckdb.Error as e:
        conn.close()
        raise ArchiveError(f"cannot use the archive '{path}': {first_line(e)}") from None
    return conn


def _check_current(conn: duckdb.DuckDBPyConnection, path: str) -> None:
    has = conn.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = '_jojotte_migrations'").fetchone()[0]
    if not has:
        raise ArchiveError(f"'{path}' is a DuckDB file but not a jojotte archive (no _jojotte_migrations table)")
    done = {v for (v,) in conn.execute("SELECT version FROM _jojotte_migrations").fetchall()}
    missing = [m for m in migrations() if m.version not in done]
    if missing:
        raise ArchiveError(f"the archive '{path}' was made by an older version (migration {missing[0].version:03d} "
                           "is not applied); run `jojotte import` on any file to upgrade it")


def _pending_start(conn: duckdb.DuckDBPyConnection) -> int | None:
    """The first session id of a file whose import is not finished (killed between two of its chunks), or None."""
    return conn.execute("SELECT min(first_session_id) FROM _jojotte_pending").fetchone()[0]


def clear_pending(conn: duckdb.DuckDBPyConnection) -> bool:
    """Delete every row of a file whose import did not finish (its marker in ``_jojotte_pending``); True when one did.

    A file committed in chunks (`import_paths`) numbers its sessions on from the largest session id stored
    when it starts, and nothing else is written until it finishes, so its rows are those from its first
    session id on. Run on every read-write open and before every file.
    """
    start = _pending_start(conn)
    if start is None:
        return False
    conn.begin()
    try:
        for table in SESSION_TABLES:  # identifiers from constants only
            conn.execute(f"DELETE FROM {table} WHERE session_id >= ?", [start])
        conn.execute("DELETE FROM _jojotte_pending")
        conn.commit()
    except BaseException:
        conn.rollback()
        raise
    return True


def hide_pending(conn: duckdb.DuckDBPyConnection) -> None:
    """On a read-only connection, hide the rows of a file whose import did not finish (which only a read-write open
    can delete): each session table is shadowed by a temporary view of the rows before that file's first session
    (the archive's own views read them too)."""
    start = _pending_start(conn)
    if start is None:
        return
    db = conn.execute("SELECT current_database()").fetchone()[0].replace('"', '""')
    for table in SESSION_TABLES:  # identifiers from constants only
        conn.execute(f'CREATE TEMP VIEW {table} AS SELECT * FROM "{db}".main.{table} WHERE session_id < {int(start)}')


def first_line(e: BaseException) -> str:
    """The first line of an error's message (DuckDB's run to several), or its type's name."""
    return str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__


def table_counts(db_path: str | Path) -> dict[str, int]:
    """Rows per table of the archive (read-only)."""
    conn = connect(db_path, read_only=True)
    try:
        return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]  # identifiers from constants only
                for t in ("import_log", *EXPORT_TABLES)}
    finally:
        conn.close()


# --- how a session is identified -------------------------------------------------------

def _norm(value: str | None) -> str:
    return " ".join((value or "").split())


def _game_name(header: SessionHeader) -> str:
    game = _norm(header.get("Game")) or "jojotte"
    try:
        return find_variant(game).name
    except ValueError:
        return game.lower()


def identity_text(header: SessionHeader) -> str | None:
    """The normalized identity tags of a session, or None when it has none of Event, Site, Date, Round, Table.

    Whitespace is collapsed, the game is its registered name (aliases count as one game),
    player names are split on ``;`` and trimmed, the first dealer is upper-cased.
    """
    if not any(_norm(header.get(t)).strip("?.") for t in _WHEN_WHERE_TAGS):
        return None
    parts = []
    for tag in IDENTITY_TAGS:
        if tag == "Game":
            value = _game_name(header)
        elif tag == "Players":
            value = "; ".join(_norm(n) for n in (header.get("Players") or "").replace(",", ";").split(";"))
        elif tag == "FirstDealer":
            value = _norm(header.get(tag)).upper()
        else:
            value = _norm(header.get(tag))
        parts.append(f"{tag}={value}")
    return "\x1f".join(parts)


def session_key(header: SessionHeader, occurrence: int, content_hash: str) -> str:
    """The key that identifies a session in the archive (32 hex digits).

    A hash of the identity tags (`identity_text`) and of ``occurrence``: the
    session's rank among the sessions of its file with the same identity tags (1
    for the first). A session with no when-or-where tag is identified by its text
    alone (``content_hash``): it is never replaced, only recognised again.
    """
    ident = identity_text(header)
    if ident is None:
        raw = "content\x1f" + content_hash
    else:
        raw = f"{ident}\x1f#{occurrence}"
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:32]


_DATE = re.compile(r"^\s*(\d{4}|\?{4})(?:[.\-/](\d{1,2}|\?{1,2})(?:[.\-/](\d{1,2}|\?{1,2}))?)?\s*$")


def parse_tag_date(text: str | None) -> tuple[date | None, int | None]:
    """The date and year of a ``[Date]`` tag (``2026.11.21``; ``1937.??.??`` gives only the year).

    >>> parse_tag_date("1937.??.??")
    (None, 1937)
    """
    m = _DATE.match(text or "")
    if not m:
        return None, None
    y, mo, d = m.groups()
    year = int(y) if y.isdigit() else None
    if year is None or not (mo and mo.isdigit() and d and d.isdigit()):
        return None, year
    try:
        return date(year, int(mo), int(d)), year
    except ValueError:
        return None, year


# --- column buffers -----------------------------------------------------------------------

class _Columns:
    """Rows of one table, turned into one Arrow table per flush.

    ``spec`` gives (column, Arrow type, typecode): a typecode marks a column whose values are integers with -1 for
    NULL (the hot tables; a boolean is 1 or 0), None one whose values are as the column stores them. Rows added one
    at a time (`_Importer.row`) are kept as tuples and converted by Arrow in one call (a struct array of the tuples);
    whole columns (`extend`) are kept as columns, an ``array.array`` for a typecode, else a list.
    """

    def __init__(self, table: str, spec: list[tuple[str, pa.DataType, str | None]]):
        self.table = table
        self.names = [n for n, _, _ in spec]
        self.types = [t for _, t, _ in spec]
        self.codes = [c for _, _, c in spec]
        # the tuples' type: a typecode column as its integer type, made NULL and boolean by `_typed`
        self.row_type = pa.struct([(n, _INT_TYPES[c] if c else t) for n, t, c in spec])
        self.cols: list = []
        self.rows: list[tuple] = []  # rows added one at a time, after those in ``cols``
        self.clear()

    def clear(self) -> None:
        self.cols = [array.array(c) if c else [] for c in self.codes]
        self.rows = []

    def __len__(self) -> int:
        return len(self.cols[0]) + len(self.rows)

    def _settle(self) -> None:
        """The rows added one at a time, into the columns."""
        rows = self.rows
        if rows:
            if any(len(r) != len(self.cols) for r in rows):
                raise ValueError(f"a row of {self.table} has not {len(self.cols)} values")
            for i, col in enumerate(self.cols):  # a column at a time, allocating nothing a row (zip(*rows) does)
                col.extend(map(itemgetter(i), rows))
            self.rows = []

    def extend(self, columns: list) -> None:
        """Whole columns of rows, one iterable a column, all as long."""
        self._settle()
        for col, values in zip(self.cols, columns):
            col.extend(values)

    def truncate(self, n: int) -> None:
        self._settle()
        for c in self.cols:
            del c[n:]

    def arrow(self) -> pa.Table:
        """Every row buffered: those of the whole columns, then those added one at a time."""
        parts = []
        if len(self.cols[0]) or not self.rows:
            parts.append(self._columns_arrays())
        if self.rows:
            parts.append(self._rows_arrays())
        tables = [pa.Table.from_arrays(arrays, names=self.names) for arrays in parts]
        return tables[0] if len(tables) == 1 else pa.concat_tables(tables)

    def _columns_arrays(self) -> list[pa.Array]:
        arrays = []
        for col, typ, code in zip(self.cols, self.types, self.codes):
            if code:
                arrays.append(_typed(pa.Array.from_buffers(_INT_TYPES[code], len(col), [None, pa.py_buffer(col)]), typ))
            else:
                arrays.append(pa.array(col, type=typ))
        return arrays

    def _rows_arrays(self) -> list[pa.Array]:
        try:
            rows = pa.array(self.rows, type=self.row_type)
        except pa.ArrowInvalid:
            if any(len(r) != len(self.names) for r in self.rows):
                raise ValueError(f"a row of {self.table} has not {len(self.names)} values") from None
            raise
        return [_typed(values, typ) if code else values
                for values, typ, code in zip(rows.flatten(), self.types, self.codes)]


def _typed(values: pa.Array, typ: pa.DataType) -> pa.Array:
    """A typecode column's integers as its column stores them: -1 is NULL, and a boolean is 1 (true) or 0."""
    nulls = pc.less(values, 0)
    if pa.types.is_boolean(typ):
        values = pc.equal(values, 1)
    return pc.if_else(nulls, pa.scalar(None, typ), values) if len(values) and pc.any(nulls).as_py() else values


_INT_TYPES = {"b": pa.int8(), "h": pa.int16(), "i": pa.int32()}


I8, I16, I32, BOOL, STR = pa.int8(), pa.int16(), pa.int32(), pa.bool_(), pa.string()

_SPECS: dict[str, list[tuple[str, pa.DataType, str | None]]] = {
    "sessions": [("session_id", I32, None), ("session_key", STR, None), ("content_hash", STR, None), ("import_id", I32, None),
                 ("source", STR, None), ("source_index", I32, None), ("source_line", I32, None), ("game", STR, None),
                 ("event", STR, None), ("site", STR, None), ("date_text", STR, None), ("date", pa.date32(), None),
                 ("year", I32, None), ("round", STR, None), ("table_label", STR, None), ("players_text", STR, None),
                 ("first_dealer", STR, None), ("variant", STR, None), ("rubbers_agreed", I32, None), ("scorer", STR, None),
                 ("tags", pa.list_(pa.struct([("name", STR), ("value", STR)])), None), ("seats", I8, None),
                 ("hands", I32, None), ("bad_hands", I32, None), ("errors", I32, None), ("winner_seat", I8, None),
                 ("winner", STR, None), ("pool_lapsed", I32, None)],
    "players": [("session_id", I32, None), ("seat", I8, None), ("label", STR, None), ("name", STR, None),
                ("sheet_seat", I8, None)],
    "session_sheet": [("session_id", I32, None), ("seat", I8, None), ("label", STR, None), ("below", I32, None), ("above", I32, None),
                      ("total", I32, None), ("games", I32, None), ("rubbers", I32, None), ("won_session", BOOL, None)],
    "rubbers": [("session_id", I32, None), ("rubber_no", I32, None), ("seat", I8, None), ("points", I32, None),
                ("won", BOOL, None)],
    "hands": [("session_id", I32, None), ("hand_seq", I32, None), ("hand_no", I32, None), ("line", I32, None),
              ("dealer_seat", I8, None), ("turned", STR, None), ("info", STR, None), ("contract", STR, None),
              ("denomination", STR, None), ("trump", STR, None), ("declarer_seat", I8, None), ("nullo_seat", I8, None),
              ("mult", I8, None), ("doubler_seat", I8, None), ("slam", BOOL, None), ("dix_seat", I8, None),
              ("status", STR, None), ("first_rule", STR, None), ("errors", I32, None), ("unchecked", I32, None),
              ("scored", BOOL, None), ("used_written_score", BOOL, None), ("void", BOOL, None), ("winner_seat", I8, None),
              ("tricks_played", I16, None), ("last_trick_seat", I8, None), ("claim_seat", I8, None),
              ("meld_a_seat", I8, None), ("meld_b_seat", I8, None), ("held_aside", I32, None), ("pool_after", I32, None),
              ("game_won_by", I8, None), ("rubber_won_by", I8, None), ("written_score", BOOL, None),
              ("written_aside", I32, None), ("deal_hash", STR, None)],
    "hand_scores": [("session_id", I32, None), ("hand_seq", I32, None), ("seat", I8, None), ("tricks", I8, None),
                    ("trick_points", I32, None), ("meld_points", I32, None), ("bonus", I32, None), ("total", I32, None),
                    ("hand_points", I32, None), ("below", I32, None), ("above", I32, None), ("written_below", I32, None),
                    ("written_above", I32, None), ("jojotte", BOOL, None), ("won_hand", BOOL, None)],
    "credits": [("session_id", I32, None), ("hand_seq", I32, None), ("seq", I16, None), ("seat", I8, None),
                ("line", STR, None), ("amount", I32, None), ("rule", STR, None), ("why", STR, None)],
    "calls": [("session_id", I32, None), ("hand_seq", I32, None), ("phase", STR, None), ("seq", I16, None),
              ("seat", I8, None), ("kind", STR, None), ("suit", STR, None), ("melds", STR, None), ("line", I32, None),
              ("col", I32, None), ("trick_no", I16, None), ("after_cards", I8, None)],
    "melds": [("session_id", I32, None), ("hand_seq", I32, None), ("seat", I8, None), ("seq", I16, None),
              ("call_seq", I16, None), ("meld", STR, None), ("kind", STR, None), ("class", STR, None), ("rank", STR, None),
              ("suit", STR, None), ("length", I8, None), ("value", I32, None), ("scored", BOOL, None)],
    "dix": [("session_id", I32, None), ("hand_seq", I32, None), ("seat", I8, None), ("call_seq", I16, None),
            ("took", STR, None), ("gave", STR, None), ("accepted", BOOL, None), ("trick_no", I16, None),
            ("after_cards", I8, None)],
    "tricks": [("session_id", I32, "i"), ("hand_seq", I32, "i"), ("trick_no", I16, "h"), ("leader_seat", I8, "b"),
               ("winner_seat", I8, "b"), ("written_winner_seat", I8, "b"), ("points", I16, "h"), ("last", BOOL, "b"),
               ("line", I32, "i")],
    "plays": [("session_id", I32, "i"), ("hand_seq", I32, "i"), ("trick_no", I16, "h"), ("ply", I16, "h"),
              ("pos", I16, "h"), ("seat", I8, "b"), ("card_id", I8, "b"), ("points", I8, "b"), ("won", BOOL, "b"),
              ("announce", STR, None), ("dd_eval", I32, None), ("dd_cost", I16, None), ("dd_best", STR, None),
              ("dd_mark", STR, None), ("dd_vs", STR, None)],
    "actions": [("session_id", I32, None), ("hand_seq", I32, None), ("seq", I16, None), ("seat", I8, None),
                ("kind", STR, None), ("value", STR, None)],
    "hand_facts": [("session_id", I32, None), ("hand_seq", I32, None), ("key", STR, None), ("value", STR, None)],
    "point_cards": [("session_id", I32, None), ("hand_seq", I32, None), ("card_id", I8, None), ("seat", I8, None),
                    ("points", I8, None)],
    "issues": [("session_id", I32, None), ("hand_seq", I32, None), ("seq", I32, None), ("rule", STR, None),
               ("kind", STR, None), ("message", STR, None), ("seat", I8, None), ("phase", STR, None),
               ("trick_no", I32, None), ("card_pos", I32, None), ("step", I32, None), ("line", I32, None),
               ("col", I32, None)],
    "session_text": [("session_id", I32, None), ("seq", I32, None), ("text", STR, None)],
}


# --- importing ----------------------------------------------------------------------------

@dataclass
class FileImport:
    """What importing one file did."""

    source: str
    status: str = "imported"  # imported | unchanged | error
    sessions_new: int = 0
    sessions_replaced: int = 0
    sessions_unchanged: int = 0
    hands: int = 0  # hands stored (new and replaced sessions)
    bad_hands: int = 0  # of those, hands with errors (stored with their verdict)
    syntax_errors: int = 0  # parts that could not be read (an unknown game or option, a bad line): exit 2, as validate
    hands_read: int = 0  # every hand validated, unchanged sessions included
    plays: int = 0  # plays stored
    error: Issue | None = None
    seconds: float = 0.0
    load_seconds: float = 0.0  # Arrow tables built and inserted, commit included
    table_seconds: dict | None = None  # per table: Arrow tables built and inserted

    @property
    def sessions(self) -> int:
        return self.sessions_new + self.sessions_replaced + self.sessions_unchanged

    def describe(self) -> str:
        if self.status == "error":
            return f"{self.source}: not imported: {self.error.message if self.error else 'error'}"
        if self.status == "unchanged":
            return f"{self.source}: unchanged, already in the archive ({self.sessions} session(s)); nothing added"
        parts = []
        if self.sessions_new:
            parts.append(f"{self.sessions_new} new")
        if self.sessions_replaced:
            parts.append(f"{self.sessions_replaced} replaced")
        if self.sessions_unchanged:
            parts.append(f"{self.sessions_unchanged} unchanged")
        text = f"{self.source}: {', '.join(parts) or 'no'} session(s), {self.hands} hand(s) stored"
        if self.bad_hands:
            text += f" ({self.bad_hands} with errors, stored with their verdicts)"
        return text


class _Session:
    """A session being imported: its header, its rules (built once), its record's rows and the canonical text so far."""

    __slots__ = ("session_id", "header", "index", "names", "rules", "form", "text", "digest", "spooled", "hands", "bad",
                 "syntax", "plays", "marks", "flushes")

    def __init__(self, session_id: int, header: SessionHeader, index: int):
        self.session_id = session_id
        self.header = header
        self.index = index
        self.rules = rules_for(header)[0]
        self.form = record_rows_for(self.rules)
        self.names = player_names(header, self.form.labels)
        self.text = [write_session(Session(header, ()))]  # the canonical text not yet spooled (`_Importer._take_text`)
        self.digest = hashlib.sha256()  # of the text spooled so far: the content hash
        self.spooled = 0  # lines of text spooled into session_text
        self.hands = 0
        self.bad = 0
        self.syntax = 0  # hands with a part that could not be read
        self.plays = 0
        self.marks: dict[str, int] | None = None  # buffer lengths at its first hand
        self.flushes = 0  # flushes done before its first hand


# rows of at most this many hands are held before they go to DuckDB, so that memory does not grow with the file
BATCH_HANDS = 2_000
# a session's canonical text is in session_text, one row a line (migrations 010 to 012), spooled every this many
# hands and at the session's end, never whole in memory; the archive's rows do not depend on it
TEXT_CHUNK_HANDS = 2_000
# a line with its newline, or the last line without one
_LINES = re.compile(r"[^\n]*\n|[^\n]+")
# a file is committed every this many hands (a marker row says it is not finished until its last commit), so that
# DuckDB's memory for the transaction does not grow with the file either (issue 16 item 5)
COMMIT_HANDS = 10_000


class _Importer:
    """Loads the files of one import run into an open read-write connection."""

    def __init__(self, conn: duckdb.DuckDBPyConnection, batch_hands: int = BATCH_HANDS,
                 on_hand: Callable[[int], None] | None = None, commit_hands: int = COMMIT_HANDS):
        self.conn = conn
        self.batch_hands = batch_hands
        self.commit_hands = max(commit_hands, 1)
        self.uncommitted_hands = 0  # hands whose rows are in the open transaction
        self.chunks = 0  # chunks of the current file committed so far
        self.replaced: list[int] = []  # session ids the current file replaces, deleted in its last commit
        self.on_hand = on_hand
        self.buf = {name: _Columns(name, spec) for name, spec in _SPECS.items()}
        self.load_seconds = 0.0
        self.table_seconds: dict[str, float] = {}
        self.flushes = 0
        self.pending_hands = 0

    # -- one file
    def import_file(self, path: str, data: bytes | None = None) -> FileImport:
        """Import one file; with ``data``, those are its bytes and ``path`` is only its name (`MemoryArchive.file_rows`)."""
        started = time.perf_counter()
        name = "<stdin>" if path == "-" else path
        result = FileImport(name)
        try:
            data, file_hash = _read_source(path) if data is None else (data, hashlib.sha256(data).hexdigest())
        except OSError as e:
            result.status, result.error = "error", read_error(name, e)
            return result
        conn = self.conn
        clear_pending(conn)  # a file killed in the middle by an earlier run in this process's place
        if self._unchanged_file(file_hash, result):
            result.seconds = time.perf_counter() - started
            return result
        self.load_seconds = 0.0
        self.table_seconds = {}
        self.uncommitted_hands = self.chunks = 0
        self.replaced = []
        conn.begin()
        try:
            hashes = self._load(path, name, data, result)
            if result.status == "error" or not (result.sessions_new or result.sessions_replaced):
                # a file that cannot be read, or whose every session is already stored as it is: the archive
                # does not change at all (chunks already committed are taken out again with the marker)
                conn.rollback()
                self._clear()
                clear_pending(conn)
                if result.status != "error":
                    result.status = "unchanged"
                result.hands = result.bad_hands = result.plays = 0
                result.seconds = time.perf_counter() - started
                return result
            t = time.perf_counter()
            self._flush()
            import_id = self.import_id
            for sid in self.replaced:  # the older versions go in the file's last commit, as the marker does
                for table in SESSION_TABLES:  # identifiers from constants only
                    conn.execute(f"DELETE FROM {table} WHERE session_id = ?", [sid])
            conn.execute("INSERT INTO import_log VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         [import_id, name, file_hash, datetime.now(), result.sessions_new, result.sessions_replaced,
                          result.sessions_unchanged, result.hands, result.bad_hands, hashes])
            conn.execute("DELETE FROM _jojotte_pending WHERE import_id = ?", [import_id])
            conn.commit()
            self.load_seconds += time.perf_counter() - t
        except BaseException:
            try:
                conn.rollback()
                self._clear()
                clear_pending(conn)
            except duckdb.Error:
                pass  # the next read-write open deletes what is marked
            raise
        result.load_seconds = self.load_seconds
        result.table_seconds = dict(self.table_seconds)
        result.seconds = time.perf_counter() - started
        return result

    def apply_rows(self, rows: FileRows, file_hash: str) -> FileImport:
        """Write one file's rows made by a worker (`MemoryArchive.file_rows` of its tables, as into a fresh archive):
        renumbered on from the archive's largest session id, by the rules of `import_file` (a stored session
        with the same text is left, with another text replaced), in one transaction."""
        started = time.perf_counter()
        done = rows.result
        if done.status == "error":
            return done
        conn = self.conn
        clear_pending(conn)
        result = FileImport(done.source)
        if self._unchanged_file(file_hash, result):
            result.seconds = time.perf_counter() - started
            return result
        result.hands_read, result.syntax_errors = done.hands_read, done.syntax_errors
        result.sessions_unchanged = done.sessions_unchanged  # the same text twice in the file
        base = conn.execute("SELECT coalesce(max(session_id), 0) FROM sessions").fetchone()[0]
        import_id = conn.execute("SELECT coalesce(max(import_id), 0) + 1 FROM import_log").fetchone()[0]
        kept, replaced = [], []
        for local, key, content_hash in rows.sessions:
            row = _stored(conn, key)
            if row is not None and row[1] == content_hash:
                result.sessions_unchanged += 1
                continue
            if row is not None:
                replaced.append(row[0])
                result.sessions_replaced += 1
            else:
                result.sessions_new += 1
            kept.append(local)
        if not kept:
            result.status = "unchanged"
            result.seconds = time.perf_counter() - started
            return result
        t = time.perf_counter()
        keep = pa.array(kept, pa.int32())
        conn.begin()
        try:
            for table, batch in rows.tables.items():
                ids = batch.column("session_id")
                batch = batch.filter(pc.is_in(ids, value_set=keep))
                if not batch.num_rows:
                    continue
                batch = batch.set_column(batch.schema.get_field_index("session_id"), "session_id",
                                         pc.add(batch.column("session_id"), pa.scalar(base, pa.int32())))
                if table == "sessions":
                    result.hands = pc.sum(batch.column("hands")).as_py() or 0
                    result.bad_hands = pc.sum(batch.column("bad_hands")).as_py() or 0
                    batch = batch.set_column(batch.schema.get_field_index("import_id"), "import_id",
                                             pa.array([import_id] * batch.num_rows, pa.int32()))
                elif table == "plays":
                    result.plays = batch.num_rows
                conn.register("_jojotte_batch", batch)
                try:
                    conn.execute(f"INSERT INTO {table} BY NAME SELECT * FROM _jojotte_batch")  # identifiers from constants
                finally:
                    conn.unregister("_jojotte_batch")
            for sid in replaced:
                for table in SESSION_TABLES:  # identifiers from constants only
                    conn.execute(f"DELETE FROM {table} WHERE session_id = ?", [sid])
            hashes = list(rows.hashes)
            conn.execute("INSERT INTO import_log VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         [import_id, result.source, file_hash, datetime.now(), result.sessions_new, result.sessions_replaced,
                          result.sessions_unchanged, result.hands, result.bad_hands, hashes])
            conn.commit()
        except BaseException:
            conn.rollback()
            raise
        result.load_seconds = time.perf_counter() - t
        result.seconds = time.perf_counter() - started
        return result

    def _unchanged_file(self, file_hash: str, result: FileImport) -> bool:
        """The same bytes were imported before and every session of them is still stored as it was."""
        row = self.conn.execute("SELECT content_hashes FROM import_log WHERE file_hash = ? "
                                "ORDER BY import_id DESC LIMIT 1", [file_hash]).fetchone()
        if row is None:
            return False
        hashes = list(row[0])
        if not hashes:
            return False
        present = self.conn.execute("SELECT count(DISTINCT content_hash) FROM sessions WHERE content_hash IN "
                                    "(SELECT unnest(?))", [hashes]).fetchone()[0]
        if present != len(set(hashes)):
            return False
        result.status = "unchanged"
        result.sessions_unchanged = len(hashes)
        return True

    def _load(self, path: str, name: str, data: bytes | None, result: FileImport) -> list[str]:
        conn = self.conn
        self._next_session_id = conn.execute("SELECT coalesce(max(session_id), 0) + 1 FROM sessions").fetchone()[0]
        self.import_id = conn.execute("SELECT coalesce(max(import_id), 0) + 1 FROM import_log").fetchone()[0]
        # the marker goes in with the file's first chunk and out with its last: in one transaction for a short file
        conn.execute("INSERT INTO _jojotte_pending VALUES (?, ?, ?, ?)",
                     [self.import_id, name, self._next_session_id, datetime.now()])
        open_sessions: list[_Session] = []
        occurrences: dict[str | None, int] = {}
        keys: set[str] = set()
        hashes: list[str] = []
        index = 0

        def start(header: SessionHeader) -> None:
            nonlocal index
            index += 1
            open_sessions.append(_Session(self._next_session_id, header, index))
            self._next_session_id += 1

        texts: list = []  # (hand, its lines) of each hand the reader's fast paths read wholly (`iter_records`)

        def items() -> Iterator:
            for item in _open_items(path, name, data, texts):
                if isinstance(item, SessionHeader):
                    start(item)
                elif not open_sessions:
                    start(SessionHeader((), source=name))  # hands before any tag: what validate_stream does too
                yield item

        def on_hand(v: HandVerdict) -> None:
            s = open_sessions[-1]
            if s.marks is None:  # the session before it is finished by now (validate_stream yields it first)
                s.marks = {t: len(b) for t, b in self.buf.items()}
                s.flushes = self.flushes
            if len(s.text) - (not s.spooled) >= TEXT_CHUNK_HANDS:  # a chunk is full (the first one holds the header too)
                self._write_text(s, self._take_text(s))
            lines = texts[-1][1] if texts and texts[-1][0] is v.record else None
            texts.clear()
            add_hand(self, s, v, lines)
            if self.pending_hands >= self.batch_hands:
                self._flush()
                if self.uncommitted_hands >= self.commit_hands:
                    self._commit_chunk()
            result.hands_read += 1
            if self.on_hand is not None:
                self.on_hand(1)

        try:
            for summary, _ in validate_stream(items(), keep_hands=False, on_hand=on_hand):
                s = open_sessions.pop(0)
                tail = self._take_text(s)  # written only if the session is stored (`_finish_session`)
                content_hash = s.digest.hexdigest()
                ident = identity_text(s.header)
                occurrences[ident] = occurrences.get(ident, 0) + 1
                key = session_key(s.header, occurrences[ident], content_hash)
                hashes.append(content_hash)
                if key in keys:  # the same text twice in one file, with no tag to tell them apart: stored once
                    self._discard(s)
                    result.sessions_unchanged += 1
                    continue
                keys.add(key)
                self._finish_session(s, summary, key, content_hash, tail, name, result)
        except (OSError, UnicodeDecodeError, ValueError) as e:
            result.status, result.error = "error", read_error(name, e)
            return hashes
        if not hashes:
            result.status = "error"
            result.error = Issue("NOTATION", "no session found (a session starts with [Tag \"value\"] lines or a 'hand' line)",
                                 Location(source=name, line=1, column=1), "syntax")
        return hashes

    def _finish_session(self, s: _Session, summary: SessionSummary, key: str, content_hash: str, tail: str,
                        source: str, result: FileImport) -> None:
        """Store a finished session unless it is stored as it is; ``tail``: its text not yet spooled."""
        conn = self.conn
        result.syntax_errors += sum(1 for i in summary.issues if i.kind == "syntax") + s.syntax
        row = _stored(conn, key)
        if row is not None and row[1] == content_hash:
            self._discard(s)
            result.sessions_unchanged += 1
            return
        if row is not None:
            self.replaced.append(row[0])  # deleted in the file's last commit
            result.sessions_replaced += 1
        else:
            result.sessions_new += 1
        result.hands += s.hands
        result.bad_hands += s.bad
        result.plays += s.plays
        self._write_text(s, tail)  # every session's text a line a row in session_text (migration 012)
        d, year = parse_tag_date(s.header.get("Date"))
        add_session(self, s, summary, key, content_hash, source,
                    (_game_name(s.header), d, year))

    @staticmethod
    def _take_text(s: _Session) -> str:
        """The text of session ``s`` gathered since it was last spooled, counted in its content hash."""
        text = "".join(s.text)
        s.digest.update(text.encode("utf-8"))
        s.text = []
        return text

    def _write_text(self, s: _Session, text: str) -> None:
        """``text``, the next lines of session ``s``, into the rows of ``session_text`` (loaded with the batch's other
        rows: an insert of its own for each session cost ~5 ms, more than a short session's hands)."""
        lines = _LINES.findall(text)
        if not lines:
            return
        first, s.spooled = s.spooled + 1, s.spooled + len(lines)
        # one row a line (migration 011): row groups fill and are written once, so a commit's checkpoint never reads
        # back the text stored before it (a row of 2,000 hands' text never filled one; memory grew with the file)
        self.buf["session_text"].extend([(s.session_id,) * len(lines), range(first, s.spooled + 1), lines])

    def _discard(self, s: _Session) -> None:
        """Drop the rows of a session that turned out to be stored already, unchanged (its text's too: none is
        spooled before its first hand)."""
        if s.marks is None:
            return  # no hand rows yet
        if self.flushes == s.flushes:
            for t, b in self.buf.items():
                b.truncate(s.marks[t])
            return
        # flushed since its first hand: its rows are in the transaction and, after the last flush, alone in the buffers
        for table in SESSION_TABLES:  # identifiers from constants only
            self.conn.execute(f"DELETE FROM {table} WHERE session_id = ?", [s.session_id])
        self._clear()

    # -- rows
    def row(self, table: str, *values) -> None:
        """One row of ``table`` (the rows of `archive.rows`)."""
        self.buf[table].rows.append(values)

    def issue(self, sid: int, hand_seq: int | None, seq: int, issue: Issue, seat: int | None) -> None:
        loc = issue.loc
        self.row("issues", sid, hand_seq, seq, issue.rule, issue.kind, issue.message, seat, loc.phase, loc.trick,
                  loc.card, loc.step, loc.line, loc.column)

    # -- loading
    def _flush(self) -> None:
        t = time.perf_counter()
        conn = self.conn
        for name, b in self.buf.items():
            if not len(b):
                continue
            started = time.perf_counter()
            batch = b.arrow()
            # registered as a reader, not a table: DuckDB keeps a registered table (and the buffers under it) alive
            # until the transaction ends, so a file's every batch would stay in memory (issue 16 item 5)
            conn.register("_jojotte_batch", pa.RecordBatchReader.from_batches(batch.schema, batch.to_batches()))
            try:
                conn.execute(f"INSERT INTO {name} BY NAME SELECT * FROM _jojotte_batch")  # identifiers from constants
            finally:
                conn.unregister("_jojotte_batch")
            b.clear()
            self.table_seconds[name] = self.table_seconds.get(name, 0.0) + time.perf_counter() - started
        self.flushes += 1
        self.uncommitted_hands += self.pending_hands
        self.pending_hands = 0
        self.load_seconds += time.perf_counter() - t

    def _commit_chunk(self) -> None:
        """Commit the rows flushed so far of the file (marked pending until its last commit) and go on in a new transaction."""
        t = time.perf_counter()
        self.conn.commit()
        self.conn.begin()
        self.chunks += 1
        self.uncommitted_hands = 0
        self.load_seconds += time.perf_counter() - t

    def _clear(self) -> None:
        for b in self.buf.values():
            b.clear()
        self.pending_hands = 0


def _stored(conn: duckdb.DuckDBPyConnection, key: str) -> tuple | None:
    """(session_id, content_hash) of the stored session with this key, or None. A relation with its parameter:
    ``conn.execute`` with one cost ~2.3 ms of CPU a session on DuckDB 1.5, this ~1.1 ms."""
    return conn.sql("SELECT session_id, content_hash FROM sessions WHERE session_key = $1", params=[key]).fetchone()


def _read_source(path: str) -> tuple[bytes | None, str]:
    """(None: the file, or standard input, is streamed later; the SHA-256 of its bytes)."""
    digest = hashlib.sha256()
    # standard input goes through the spool (memory up to a bound, then a temporary file), read again from its first
    # byte by the validator: never held whole
    with open_stdin() if path == "-" else open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return None, digest.hexdigest()


def _open_items(path: str, name: str, data: bytes | None, texts: list | None = None) -> Iterator:
    """The items of a record file (`open_records`), or of its bytes ``data``; ``texts``: see `notation.iter_records`."""
    if data is None:
        yield from open_records(path, texts=texts)
        return
    text = data.decode("utf-8-sig")
    first = text.split("\n", 1)[0]
    if looks_like_json(path, first):
        from ..notation.json_form import iter_json_records

        yield from iter_json_records(text, name)
    else:
        from ..notation.text import iter_records

        yield from iter_records(io.StringIO(text), name, texts=texts)


# what may go wrong with one file's data, not with the archive: that file is reported, the others imported
_FILE_ERRORS = (ValueError, ArithmeticError, TypeError, KeyError, IndexError, pa.ArrowException,
                duckdb.ConversionException, duckdb.ConstraintException)


# the import connection's DuckDB memory limit (issue 16 item 5): without one, DuckDB keeps what it allocated around
# its checkpoints and the import's memory grows with the file. In a trial 50MB ran out and 80MB was enough; this is
# twice that. A file that still runs out of it is imported again without the limit (never an error).
IMPORT_MEMORY_LIMIT = "160MB"
# what DuckDB raises when it runs out of the limit: in an insert (OutOfMemoryException), in the checkpoint of a commit
# ("Failed to commit: could not allocate block", TransactionException) or of an automatic checkpoint (FatalException)
_OUT_OF_MEMORY = (duckdb.OutOfMemoryException, duckdb.TransactionException, duckdb.FatalException)


def import_paths(db_path: str | Path, paths: Iterable[str], *, on_file: Callable[[str], None] | None = None,
                 on_hand: Callable[[int], None] | None = None, batch_hands: int = BATCH_HANDS,
                 commit_hands: int = COMMIT_HANDS, jobs: int = 1,
                 memory_limit: str | None = IMPORT_MEMORY_LIMIT) -> Iterator[FileImport]:
    """Import record files and folders (``-`` is standard input) into the archive, each file wholly or not at all.

    Yields one `FileImport` per file, after its last commit (or its rollback, for a file that cannot be
    read). ``on_file(source)`` is called before a file is read, ``on_hand(n)`` as hands are validated; at
    most ``batch_hands`` hands are held in memory before their rows go to DuckDB, and a session's canonical
    text is spooled in chunks of as many hands. A file is committed every ``commit_hands`` hands: a marker
    row in ``_jojotte_pending``, written with its first chunk and deleted in its last commit, says it is not
    finished; the next read-write open deletes the rows of a marked file, a read-only one hides them.

    With ``jobs`` other than 1 (0: every core), files are read, validated and turned into rows in worker
    processes (`replay.pool.ordered_map`, each file as `MemoryArchive.file_rows` gives it) and written here in
    the order of ``paths``, so the archive is the same as with one process. A file of more than
    ``PARALLEL_MAX_BYTES`` is imported here, in chunks, when its turn comes (a worker holds a whole file's rows).

    ``memory_limit`` (None: DuckDB's default) is DuckDB's memory limit while the import runs; a file that runs out
    of it is rolled back and imported again with DuckDB's default, for this file and the rest of the run.

    Raises:
        ArchiveError: the archive cannot be opened or written.
    """
    conn = connect(db_path)
    try:
        # the import is a one-core pipeline (the validator feeds the loader): one DuckDB thread loads
        # fastest beside it (measured: twice the plays/s of the default on a busy two-core machine)
        conn.execute("SET threads = 1")
        limited = memory_limit is not None
        default_limit = conn.execute("SELECT current_setting('memory_limit')").fetchone()[0]
        if limited:
            try:
                conn.execute("SET memory_limit = ?", [memory_limit])
            except duckdb.OutOfMemoryException:  # DuckDB already holds more than that: its default, then
                limited = False
        importer = _Importer(conn, batch_hands=batch_hands, on_hand=on_hand, commit_hands=commit_hands)
        if jobs_count(jobs) == 1:
            work = ((path, None) for path in iter_record_files(paths))
        else:
            work = zip(iter_record_files(paths), ordered_map(_file_rows_job, _parallel_items(paths), jobs,
                                                             preload=(__name__,)))
        for path, rows in work:
            if on_file is not None:
                on_file(path)
            try:
                if isinstance(rows, BaseException):
                    raise rows
                try:
                    result = importer.import_file(path) if rows is None else importer.apply_rows(*rows)
                except _OUT_OF_MEMORY:
                    if not limited:
                        raise
                    # a checkpoint that runs out of the limit (it reads back the whole last row group of session_text,
                    # which grows with the file) fails the commit or, in an automatic checkpoint, invalidates the
                    # database: it is opened again, which deletes the marked file's committed chunks (earlier files stay)
                    conn.close()
                    conn = connect(db_path)
                    conn.execute("SET threads = 1")
                    importer = _Importer(conn, batch_hands=batch_hands, on_hand=on_hand, commit_hands=commit_hands)
                    # rolled back (chunks already committed are taken out with the marker): again, without the limit
                    conn.execute("SET memory_limit = ?", [default_limit])  # (RESET leaves the limit as it is)
                    limited = False
                    result = importer.import_file(path) if rows is None else importer.apply_rows(*rows)
                if rows is not None and on_hand is not None:
                    on_hand(result.hands_read)
            except _FILE_ERRORS as e:
                # this file's transaction is rolled back; it is reported and the next file is imported
                result = FileImport("<stdin>" if path == "-" else path, status="error",
                                    error=Issue("NOTATION", f"the importer failed on this file ({type(e).__name__}: {first_line(e)}; "
                                                "please report it); nothing of it was stored",
                                                Location(source="<stdin>" if path == "-" else path), "syntax"))
            except duckdb.Error as e:
                raise ArchiveError(f"cannot write to the archive '{db_path}': {first_line(e)}") from None
            yield result
    finally:
        conn.close()


# a file larger than this is imported by the parent process in chunks even with --jobs (bounded memory)
PARALLEL_MAX_BYTES = 8 << 20


def _parallel_items(paths: Iterable[str]) -> Iterator:
    """What the workers of ``import --jobs`` get: (name, bytes, file hash) of each file; a `Ready` None for a
    file the parent imports itself (too large, or unreadable: its error is the parent's to report)."""
    for path in iter_record_files(paths):
        try:
            # standard input (through the spool) and a large file are streamed here, not held whole by a worker
            if path == "-" or Path(path).stat().st_size > PARALLEL_MAX_BYTES:
                yield Ready(None)
                continue
            data = Path(path).read_bytes()
        except OSError:
            yield Ready(None)
            continue
        yield path, data


_WORKER: MemoryArchive | None = None


def _file_rows_job(item: tuple[str, bytes]) -> tuple[FileRows, str] | BaseException:
    """One file's rows, as its tables hold them, and its bytes' hash, in a worker of ``import --jobs``."""
    global _WORKER
    if _WORKER is None:
        _WORKER = MemoryArchive()
    name, data = item
    try:
        return _WORKER.file_rows(name, data, table_names=SESSION_TABLES, query=_table_query), hashlib.sha256(data).hexdigest()
    except _FILE_ERRORS as e:
        return e


def _table_query(table: str) -> str:
    return f"SELECT * FROM {table}"  # identifiers from constants only


def count_record_files(paths: Iterable[str]) -> int:
    """How many files `import_paths` will read (for a progress bar)."""
    return sum(1 for _ in iter_record_files(paths))


# --- reading --------------------------------------------------------------------------------

def session_texts(db_path: str | Path) -> Iterator[tuple[str, str, str]]:
    """(session_key, source, canonical_text) of every stored session, in import order; the archive is opened read-only.

    Raises:
        ArchiveError: no archive at ``db_path``, or not a jojotte archive.
    """
    conn = connect(db_path, read_only=True)
    try:
        cur = conn.execute("SELECT session_key, coalesce(source, ''), session_id FROM sessions ORDER BY session_id")
        chunks = conn.cursor()
        while True:
            rows = cur.fetchmany(256)
            if not rows:
                break
            for key, source, sid in rows:
                chunks.execute("SELECT text FROM session_text WHERE session_id = ? ORDER BY seq", [sid])
                parts = []
                while block := chunks.fetchmany(8192):  # joined a block at a time: never a tuple a line at once
                    parts.append("".join(t for (t,) in block))
                yield key, source, "".join(parts)
    finally:
        conn.close()


class QueryResult(NamedTuple):
    columns: list[str]
    rows: list[tuple]

    def records(self) -> list[dict]:
        return [dict(zip(self.columns, r)) for r in self.rows]


# statement types a read-only query may have
_READ_STATEMENTS = {"SELECT", "EXPLAIN"}
# what precedes the explained statement: comments, EXPLAIN, then ANALYZE or an option list "(ANALYZE, FORMAT json)"
_EXPLAIN_HEAD = re.compile(r"\s*(?:(?:--[^\n]*(?:\n|$)|/\*.*?\*/)\s*)*EXPLAIN\s+(?:ANALY[SZ]E\b|\((?:[^()']|'[^']*')*\))?",
                           re.IGNORECASE | re.DOTALL)
_REFUSED_TAIL = ("only queries that read (SELECT, WITH … SELECT, EXPLAIN of a query, DESCRIBE, SHOW) run here; "
                 "nothing was changed")


def _explained_kind(conn: duckdb.DuckDBPyConnection, query: str) -> str:
    """The statement type an EXPLAIN explains ("SELECT" for a query), or "" when it cannot be told."""
    head = _EXPLAIN_HEAD.match(query)
    if head is None:
        return ""
    try:
        inner = conn.extract_statements(query[head.end():])
    except duckdb.Error:
        return ""
    return inner[0].type.name if len(inner) == 1 else ""


def _refusal(conn: duckdb.DuckDBPyConnection, statement) -> str | None:
    kind = statement.type.name
    if kind not in _READ_STATEMENTS:
        return f"refused: the archive is opened read-only and this is a {kind} statement; {_REFUSED_TAIL}"
    if kind == "EXPLAIN":
        # EXPLAIN ANALYZE runs the statement it explains: only a query may be explained
        inner = _explained_kind(conn, statement.query)
        if inner != "SELECT":
            what = f"a {inner} statement" if inner else "a statement that is not a query"
            return f"refused: the archive is opened read-only and this EXPLAIN explains {what}; {_REFUSED_TAIL}"
    return None


def run_sql(db_path: str | Path, sql: str) -> QueryResult:
    """Run a query on a read-only connection and return the result of its last statement.

    Every statement must be a read (SELECT, EXPLAIN of a query, and what DuckDB turns into
    them: DESCRIBE, SHOW, SUMMARIZE, PRAGMA table_info …); anything else is refused
    before anything runs. The connection itself is read-only, opens no other file (no
    read_csv, COPY, ATTACH …), loads no extension and cannot change its settings.

    Raises:
        QueryRefused: a statement would write (INSERT, UPDATE, DELETE, CREATE, COPY, ATTACH, SET …),
            read another file or load an extension.
        QueryFailed: the query does not parse or fails.
        ArchiveError: the archive cannot be opened.
    """
    conn = connect(db_path, read_only=True, config=_SQL_CONFIG)
    try:
        try:
            statements = conn.extract_statements(sql)
        except duckdb.Error as e:
            raise QueryFailed(f"the query does not parse: {first_line(e)}") from None
        if not statements:
            raise QueryFailed("no statement given")
        for st in statements:
            refusal = _refusal(conn, st)
            if refusal:
                raise QueryRefused(refusal)
        try:
            rel = None
            for st in statements:
                rel = conn.execute(st.query)
            columns = [d[0] for d in rel.description] if rel.description else []
            rows = rel.fetchall() if rel.description else []
        except duckdb.PermissionException as e:
            raise QueryRefused(f"refused: `jojotte sql` reads the archive only (no other file, no extension): "
                               f"{first_line(e)}; nothing was changed") from None
        except duckdb.Error as e:
            text = first_line(e)
            if "read-only" in text.lower() or "read only" in text.lower():
                raise QueryRefused(f"refused: the archive is opened read-only: {text}; nothing was changed") from None
            raise QueryFailed(f"the query failed: {text}") from None
        return QueryResult(columns, rows)
    finally:
        conn.close()


# --- export ------------------------------------------------------------------------------------

class ExportedTable(NamedTuple):
    table: str
    rows: int
    path: str | None  # None when the table is empty (nothing written)


def export_query(table: str) -> str:
    """The query whose rows `export_parquet` writes for ``table``: its columns, then the session's game and year (0 for none)."""
    if table == "sessions":
        return "SELECT * REPLACE (coalesce(year, 0) AS year) FROM sessions"
    return f"SELECT t.*, s.game, coalesce(s.year, 0) AS year FROM {table} t JOIN sessions s USING (session_id)"


CARDS_QUERY = "SELECT * FROM cards ORDER BY card_id"  # what export_parquet writes to cards/cards.parquet


def export_parquet(db_path: str | Path, out_dir: str | Path) -> list[ExportedTable]:
    """Write the archive's tables as Parquet under ``out_dir``: ``TABLE/game=G/year=Y/*.parquet``.

    Each table gets its session's game and year as partition columns (year 0 when the
    session's date gives none); ``cards`` (the card names behind ``plays.card_id``)
    goes to ``cards/cards.parquet``. An empty table writes nothing. Existing files of a
    table are replaced.

    Raises:
        ArchiveError: the archive cannot be opened or the folder cannot be written.
    """
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ArchiveError(f"cannot create the folder '{out}': {e.strerror or e}") from None
    conn = connect(db_path, read_only=True)
    done = []
    try:
        for table in EXPORT_TABLES:  # identifiers from constants only
            rel = conn.sql(export_query(table))
            n = conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            if not n:
                done.append(ExportedTable(table, 0, None))
                continue
            target = out / table
            rel.write_parquet(str(target), partition_by=["game", "year"], overwrite=True)
            done.append(ExportedTable(table, n, str(target)))
        (out / "cards").mkdir(exist_ok=True)
        target = out / "cards" / "cards.parquet"
        conn.sql(CARDS_QUERY).write_parquet(str(target))
        done.append(ExportedTable("cards", conn.execute("SELECT count(*) FROM cards").fetchone()[0], str(target)))
    except duckdb.Error as e:
        raise ArchiveError(f"cannot write Parquet into '{out}': {first_line(e)}") from None
    finally:
        conn.close()
    return done


# --- one file's export rows, in memory (the Spark job, jojotte_records.spark) --------------------

class FileRows(NamedTuple):
    """What `MemoryArchive.file_rows` gives for one file."""

    result: FileImport  # what importing it into a fresh archive did
    sessions: list[tuple[int, str, str]]  # (session_id, session_key, content_hash) of each session stored, by id
    tables: dict[str, pa.Table]  # each EXPORT_TABLES table with rows: what export_parquet writes (game, year last)
    hashes: tuple[str, ...] = ()  # the content hash of every session of the file, in order (import_log.content_hashes)


class MemoryArchive:
    """An archive in memory that imports one file at a time, from its bytes, and gives back its export rows.

    Each file goes in as into a fresh archive (session ids from 1, import id 1) through the
    importer of `import_paths`, so its rows, types and checks are those of ``jojotte import``
    followed by ``jojotte export --parquet``; renumbering across files is the caller's.
    """

    def __init__(self) -> None:
        self.conn = duckdb.connect(":memory:", config=_CONFIG)
        apply_migrations(self.conn)
        self.conn.execute("SET threads = 1")
        self._importer = _Importer(self.conn)

    def close(self) -> None:
        self.conn.close()

    def schemas(self) -> dict[str, pa.Schema]:
        """The Arrow schema of each export table, and of ``cards``."""
        conn = self.conn
        found = {t: _arrow(conn.execute(f"SELECT * FROM ({export_query(t)}) LIMIT 0")).schema for t in EXPORT_TABLES}
        found["cards"] = _arrow(conn.execute(CARDS_QUERY)).schema
        return found

    def cards(self) -> pa.Table:
        return _arrow(self.conn.execute(CARDS_QUERY))

    def file_rows(self, name: str, data: bytes, table_names: Iterable[str] = EXPORT_TABLES,
                  query: Callable[[str], str] = export_query) -> FileRows:
        """Import ``data`` (the bytes of a record file named ``name``) into the emptied archive and read its rows back
        (by default each export table as `export_parquet` writes it; ``query(table)`` gives another form)."""
        conn = self.conn
        for table in (*SESSION_TABLES, "import_log"):  # identifiers from constants only
            conn.execute(f"DELETE FROM {table}")
        result = self._importer.import_file(name, data)
        sessions = [tuple(r) for r in conn.execute(
            "SELECT session_id, session_key, content_hash FROM sessions ORDER BY session_id").fetchall()]
        tables = {}
        for table in table_names if sessions else ():
            rows = _arrow(conn.execute(query(table)))
            if rows.num_rows:
                tables[table] = rows
        logged = conn.execute("SELECT content_hashes FROM import_log").fetchone()
        return FileRows(result, sessions, tables, tuple(logged[0]) if logged else ())


def _arrow(result) -> pa.Table:
    found = result.arrow()  # a Table before DuckDB 1.4, a RecordBatchReader since
    return found.read_all() if isinstance(found, pa.RecordBatchReader) else found


class FilePlan(NamedTuple):
    """Where one file's sessions land in the archive that `plan_ids` describes."""

    import_id: int | None  # None: the file adds nothing (a read error, or every session already stored as it is)
    session_ids: dict[int, int]  # session_id in `MemoryArchive.file_rows` -> session_id in the archive; absent: not kept


def plan_ids(files: Iterable[tuple[str, list[tuple[int, str, str]]]]) -> list[FilePlan]:
    """The ids of the archive that importing these files, in this order, into a fresh file would give.

    ``files`` gives each file's status and its sessions as `MemoryArchive.file_rows` imported them
    alone. The rules are `import_paths`': a file's sessions are numbered on from the largest
    session id stored when the file starts; a session whose key is stored with the same text is
    left as it is, with another text it replaces the stored one; a file that adds or replaces
    nothing is rolled back and takes no import id.
    """
    stored: dict[str, tuple[str, int, int, int]] = {}  # key -> (content hash, session id, file, session id in the file)
    kept: dict[int, tuple[int, int]] = {}  # session id -> (file, session id in the file)
    plans: list[FilePlan] = []
    last_import = top = 0  # top: the largest session id stored
    for f, (status, sessions) in enumerate(files):
        if status == "error" or not sessions:
            plans.append(FilePlan(None, {}))
            continue
        base = top
        changed = False
        for local, key, content_hash in sessions:
            old = stored.get(key)
            if old is not None and old[0] == content_hash:
                continue
            if old is not None:
                del kept[old[1]]
                if old[1] == top:
                    top = max(kept, default=0)
            sid = base + local
            top = max(top, sid)
            stored[key] = (content_hash, sid, f, local)
            kept[sid] = (f, local)
            changed = True
        import_id = None
        if changed:
            last_import += 1
            import_id = last_import
        plans.append(FilePlan(import_id, {}))
    for sid, (f, local) in kept.items():
        plans[f].session_ids[local] = sid
    return plans
