"""``jojotte import``, ``stats``, ``sql`` and ``export``: the DuckDB archive from the command line.

Each command parses its options, makes one library call (`jojotte_records.archive.store`,
`jojotte_records.archive.stats`) and prints. The library is imported inside the commands so
that other commands do not pay for DuckDB and Arrow.
"""

import csv
import json
import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from jojotte_records.errors import printable

from .common import EXIT_INPUT, EXIT_OK, LIVE, cell, echo, echo_json, fail

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

DB_HELP = "The archive file (created by import if missing)."
DB_OPTION = typer.Option("--db", help=DB_HELP, metavar="FILE")

IMPORT_HELP = """Validate record files and load them into the archive (a DuckDB file).

Loads sessions, players, hands, calls, melds, the dix, tricks, plays, score breakdowns,
the session sheet and every finding of the validator; illegal hands are stored with
their verdict. One transaction per file: an interrupted import leaves the archive as it
was before that file. Importing the same sessions again adds nothing; a session whose
record changed (same Event, Site, Date, Round, Table, Game, Players and FirstDealer)
replaces its older version. Folders are read recursively (*.jjt, *.json); - reads
standard input.

Exit code (README, "Exit codes"): 0 every file imported (or already there), findings included;
2 a file, a part of a record or the archive cannot be read or written.

Examples:

  jojotte import examples/

  jojotte import club/2026/ --db club.duckdb

  jojotte simulate --hands 1000 | jojotte import - --db sim.duckdb
"""

STATS_HELP = """Print a named statistic of the archive (jojotte stats --list names them).

standings, contracts, melds, cards, disputes; each can be narrowed to a player, an event,
a game and a period. --json prints the same tables for scripts.

Examples:

  jojotte stats standings

  jojotte stats contracts --player Alice --since 2026-01-01

  jojotte stats disputes --event "Club night" --json
"""

SQL_HELP = """Run a query on the archive, opened read-only (docs/archive.md describes the tables).

Only statements that read run (SELECT, WITH … SELECT, EXPLAIN of a query, DESCRIBE, SHOW,
SUMMARIZE); anything that would write, read another file (read_csv …) or load an extension
is refused (exit code 1) and nothing changes.

Examples:

  jojotte sql "SELECT player, sum(total) FROM v_player_hands GROUP BY player"

  jojotte sql "FROM sessions SELECT event, date, winner" --csv > sessions.csv

  jojotte sql "DESCRIBE plays" --json
"""

EXPORT_HELP = """Write the archive's tables as Parquet, partitioned by game and year.

DIR/TABLE/game=G/year=Y/*.parquet (year 0 when a session's date gives none), ready for
DuckDB, Spark or Trino; DIR/cards/cards.parquet names the cards of plays.card_id.

Examples:

  jojotte export --parquet out/

  duckdb -c "SELECT count(*) FROM read_parquet('out/plays/**/*.parquet', hive_partitioning = true)"
"""


def register(app: typer.Typer) -> None:
    app.command("import", help=IMPORT_HELP)(import_records)
    app.command("stats", help=STATS_HELP)(stats)
    app.command("sql", help=SQL_HELP)(sql)
    app.command("export", help=EXPORT_HELP)(export)


def _stdout() -> "Console":
    from rich.console import Console

    # a wide console when the output goes to a file or a pipe, so that tables are not cut
    return Console() if sys.stdout.isatty() else Console(width=200, no_color=True)


# --- import -------------------------------------------------------------------------------

def import_records(
    paths: Annotated[list[str], typer.Argument(help="Record files or folders; - for standard input.")],
    db: Annotated[str, DB_OPTION] = "jojotte.duckdb",
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the summary line.")] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=0, metavar="N",
                                      help="Processes to read and validate the files in (0: every core); "
                                           "the same archive as one.")] = 1,
) -> None:
    from jojotte_records.archive.store import ArchiveError, count_record_files, import_paths

    results = []
    try:
        with _import_progress(count_record_files(paths)) as (on_file, on_hand):
            for r in import_paths(db, paths, on_file=on_file, on_hand=on_hand, jobs=jobs):
                results.append(r)
                if not quiet or r.status == "error":
                    echo(r.describe())
    except ArchiveError as e:
        fail(str(e), e.exit_code)
    new = sum(r.sessions_new for r in results)
    replaced = sum(r.sessions_replaced for r in results)
    unchanged = sum(r.sessions_unchanged for r in results)
    hands = sum(r.hands for r in results)
    bad = sum(r.bad_hands for r in results)
    errors = sum(1 for r in results if r.status == "error")
    unreadable_parts = sum(r.syntax_errors for r in results)
    if not new and not replaced and not errors and results:
        line = f"{len(results)} file(s): nothing added, every session is already in the archive ({unchanged} session(s))"
    else:
        line = (f"{len(results)} file(s): {new} new session(s), {replaced} replaced, {unchanged} unchanged; "
                f"{hands} hand(s) stored, {bad} with errors")
        if errors:
            line += f"; {errors} file(s) could not be read"
    if unreadable_parts:
        line += f"; {unreadable_parts} part(s) could not be read (stored with their findings; see jojotte validate)"
    echo(f"{line}; archive {db}")
    raise typer.Exit(EXIT_INPUT if errors or unreadable_parts else EXIT_OK)


@contextmanager
def _import_progress(files: int):
    """Two bars on standard error, only on a terminal: files, and hands with their rate."""
    if not sys.stderr.isatty():
        yield (lambda path: None), (lambda n=1: None)
        return
    import time

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from .common import BAR_OPTIONS

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[rate]}"),
                  TimeElapsedColumn(), **BAR_OPTIONS) as bar:
        file_task = bar.add_task("files", total=files, rate="")
        hand_task = bar.add_task("hands", total=None, rate="")
        start = time.perf_counter()
        state = {"hands": 0, "started": False}

        def on_file(path: str) -> None:
            if state["started"]:
                bar.advance(file_task)
            state["started"] = True
            bar.update(file_task, rate=path[-40:])

        def on_hand(n: int = 1) -> None:
            state["hands"] += n
            if state["hands"] % 64 == 0:
                elapsed = time.perf_counter() - start
                bar.update(hand_task, completed=state["hands"], rate=f"{state['hands'] / elapsed:,.0f} hands/s")

        LIVE.append(bar.console)  # the lines printed meanwhile go through the bar's console (common.echo)
        try:
            yield on_file, on_hand
        finally:
            LIVE.pop()


# --- stats ----------------------------------------------------------------------------------

def stats(
    name: Annotated[Optional[str], typer.Argument(help="The statistic (see --list).")] = None,
    list_: Annotated[bool, typer.Option("--list", help="Name the statistics and stop.")] = False,
    db: Annotated[str, DB_OPTION] = "jojotte.duckdb",
    player: Annotated[Optional[str], typer.Option("--player", help="Only this player (name, any case).")] = None,
    event: Annotated[Optional[str], typer.Option("--event", help="Only events whose name contains this.")] = None,
    since: Annotated[Optional[str], typer.Option("--since", help="From this date (2026-11-21, 2026-11 or 2026).")] = None,
    until: Annotated[Optional[str], typer.Option("--until", help="Up to this date, included.")] = None,
    game: Annotated[Optional[str], typer.Option("--game", help="Only this game (jojotte …).")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the tables as one JSON document.")] = False,
) -> None:
    from jojotte_records.archive.stats import StatFilters, list_statistics, parse_date_option, run_statistic
    from jojotte_records.archive.store import ArchiveError

    if list_ or name is None:
        infos = list_statistics()
        if json_out:
            echo_json(json.dumps([{"name": i.name, "title": i.title, "description": i.description} for i in infos],
                                  ensure_ascii=False, indent=1))
        else:
            from rich.table import Table

            table = Table("statistic", "what it gives", show_lines=False)
            for i in infos:
                table.add_row(i.name, i.description)
            _stdout().print(table)
        return
    try:
        filters = StatFilters(player=player, event=event, game=game,
                              since=parse_date_option(since) if since else None,
                              until=parse_date_option(until, end=True) if until else None)
    except ValueError as e:
        fail(str(e), 2)
    try:
        result = run_statistic(db, name, filters)
    except ArchiveError as e:
        fail(str(e), e.exit_code)
    if json_out:
        echo_json(json.dumps(result.to_json(), ensure_ascii=False, indent=1))
        return
    console = _stdout()
    for t in result.tables:
        title = result.title if len(result.tables) == 1 else f"{result.title}: {t.name.replace('_', ' ')}"
        console.print(_rich_table(title, t.columns, t.rows))


def _rich_table(title: str | None, columns: list[str], rows: list[tuple]) -> "Table":
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    numeric = [all(isinstance(r[i], (int, float)) or r[i] is None for r in rows) and rows for i in range(len(columns))]
    for c, num in zip(columns, numeric):
        table.add_column(cell(c), justify="right" if num else "left")
    for r in rows:
        table.add_row(*(cell(v) for v in r))
    if not rows:
        table.caption = "no rows"
    return table


# --- sql --------------------------------------------------------------------------------------

def sql(
    query: Annotated[str, typer.Argument(help="The SQL to run (read-only).")],
    db: Annotated[str, DB_OPTION] = "jojotte.duckdb",
    json_out: Annotated[bool, typer.Option("--json", help="Print the rows as a JSON array of objects.")] = False,
    csv_out: Annotated[bool, typer.Option("--csv", help="Print the rows as CSV with a header line (a control character "
                                          "in a value is written as its escape, \\x1b; --json keeps every value exact).")] = False,
) -> None:
    from jojotte_records.archive.stats import jsonable
    from jojotte_records.archive.store import ArchiveError, run_sql

    if json_out and csv_out:
        fail("choose one of --json and --csv", 2)
    try:
        result = run_sql(db, query)
    except ArchiveError as e:
        fail(str(e), e.exit_code)
    if json_out:
        echo_json(json.dumps([{c: jsonable(v) for c, v in zip(result.columns, r)} for r in result.rows],
                              ensure_ascii=False, indent=1, default=str))
    elif csv_out:
        # CSV has no escape for a control character: it is written as its escape, as in every other output (issue 16)
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow([printable(c) for c in result.columns])
        for r in result.rows:
            writer.writerow(["" if v is None else printable(str(v)) for v in r])
    else:
        _stdout().print(_rich_table(None, result.columns, result.rows))


# --- export -------------------------------------------------------------------------------------

def export(
    parquet: Annotated[str, typer.Option("--parquet", help="Write Parquet files into this folder.", metavar="DIR")],
    db: Annotated[str, DB_OPTION] = "jojotte.duckdb",
) -> None:
    from jojotte_records.archive.store import ArchiveError, export_parquet

    try:
        done = export_parquet(db, parquet)
    except ArchiveError as e:
        fail(str(e), e.exit_code)
    for t in done:
        echo(f"{t.table}: {t.rows} row(s)" + (f" -> {t.path}" if t.path else " (empty, nothing written)"))
