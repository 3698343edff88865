"""``jojotte event``: a tournament's tables checked, ranked and reported (the library is `jojotte_records.table.tournament`)."""

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from jojotte_records.errors import JojotteError, printable

from .common import cell, echo, echo_json, fail, progress

HELP = """A tournament: an event file (TOML) names the event, the players or teams, the rounds and the
tables, and ties each table's session file to its round and table. See docs/tournament.md.

Examples:

  jojotte event check examples/event/event.toml

  jojotte event standings examples/event/event.toml --json

  jojotte event report examples/event/event.toml --out report-event
"""

CHECK_HELP = """Validate every table's session file; list what is missing or disputed.

Exit code: 0 when every table is recorded, complete and without errors; 1 when something is missing, incomplete or disputed; 2 when the event file cannot be read.

Examples:

  jojotte event check examples/event/event.toml

  jojotte event check examples/event/event.toml --json
"""

STANDINGS_HELP = """Rank the players (or teams) across the rounds: matches won (or rubbers won, with rank_by = "rubbers"), then total points, then head to head; who is still tied shares the rank. Pitch and Baloot: games won, then total points (the sheet's scores), then head to head.

Scores are the rules' figures as the validator recomputes them.

Examples:

  jojotte event standings examples/event/event.toml

  jojotte event standings examples/event/event.toml --round 2 --json
"""

REPORT_HELP = """Write the HTML report of an event: every table's session, the event page and the duplicate comparison.

The sessions are written as `jojotte report` writes them; event.html shows the standings overall and after each round, with links to every session; duplicates.html shows each deal played at several tables, the results side by side.

Examples:

  jojotte event report examples/event/event.toml --out report-event
"""

event_app = typer.Typer(help=HELP, no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(event_app, name="event")


def _load(path: Path):
    from jojotte_records.table.tournament import EventError, load_event

    try:
        return load_event(path)
    except EventError as e:
        fail(str(e), 2)


@event_app.command("check", help=CHECK_HELP)
def check(event: Annotated[Path, typer.Argument(help="The event file (TOML).")],
          json_out: Annotated[bool, typer.Option("--json", help="One JSON document instead of text.")] = False) -> None:
    from jojotte_records.table.tournament import check_event

    ev = _load(event)
    result = check_event(ev)
    if json_out:
        doc = {"format_version": 1, "event": ev.name, "ok": result.ok,
               "tables": [{"round": t.entry.round, "table": t.entry.table, "file": t.entry.file,
                           "players": list(t.entry.players), "hands": t.summary.hands if t.summary else 0,
                           "bad_hands": t.summary.bad_hands if t.summary else 0, "winner": t.winner,
                           "winners": list(t.winners),
                           "problems": [p._asdict() for p in t.problems]} for t in result.tables],
               "problems": [p._asdict() for p in result.problems]}
        echo_json(json.dumps(doc, indent=1))
        raise typer.Exit(0 if result.ok else 1)
    echo(f"{ev.name}: {len(ev.rounds)} round(s), {len(ev.tables)} table(s), {ev.game}")
    for t in result.tables:
        e = t.entry
        who = " v ".join(t.units)
        if t.summary is None:
            state = "; ".join(p.message for p in t.problems)
        else:
            state = f"{t.summary.hands} hand(s), " + (f"{t.summary.bad_hands} disputed" if t.summary.bad_hands else "ok")
            state += f", winner {' & '.join(t.winners)}" if t.winners else (", tie" if t.played else "")
        echo(f"round {e.round} table {e.table} ({who}) {e.file}: {state}")
    if result.problems:
        echo("")
        echo(f"{len(result.problems)} problem(s):")
        for p in result.problems:
            echo(f"  {p.text()}")
    counts = {}
    for p in result.problems:
        counts[p.kind] = counts.get(p.kind, 0) + 1
    ok_tables = sum(1 for t in result.tables if not t.problems)
    echo(f"{ok_tables} of {len(result.tables)} table(s) ok" + "".join(f", {n} {k}" for k, n in sorted(counts.items())))
    raise typer.Exit(0 if result.ok else 1)


@event_app.command("standings", help=STANDINGS_HELP)
def standings_cmd(event: Annotated[Path, typer.Argument(help="The event file (TOML).")],
                  json_out: Annotated[bool, typer.Option("--json", help="One JSON document: standings overall and after each round.")] = False,
                  after_round: Annotated[Optional[int], typer.Option("--round", help="Standings after this round.")] = None) -> None:
    from jojotte_records.table.tournament import check_event, is_event_game, standings, standings_json, tie_breaks

    ev = _load(event)
    result = check_event(ev)
    if json_out:
        doc = standings_json(result)
        if after_round is not None:
            doc["standings"] = [s.as_dict() for s in standings(ev, result.tables, after_round)]
            doc["after_round"] = after_round
        echo_json(json.dumps(doc, indent=1))
        return
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    rows = standings(ev, result.tables, after_round)
    title = escape(printable(ev.name)) + ": standings" + (f" after round {after_round}" if after_round else "")
    events = is_event_game(ev)  # Pitch, Baloot: games won, no rubbers
    table = Table(title=title, title_justify="left")
    for col, just in (("#", "right"), ("Name", "left"), ("Played", "right"), ("Won", "right"), ("Drawn", "right"),
                      ("Lost", "right"), ("Game pts" if events else "Match pts", "right"), ("Rubbers", "right"),
                      ("Points", "right"), ("H2H", "right")):
        if not (events and col == "Rubbers"):
            table.add_column(col, justify=just)
    for s in rows:
        cells = [str(s.rank), s.name, str(s.played), str(s.won), str(s.drawn), str(s.lost), f"{s.match_points:g}",
                 str(s.rubbers), str(s.points), "" if s.head_to_head is None else f"{s.head_to_head:g}"]
        if events:
            del cells[7]
        table.add_row(*(cell(c) for c in cells))
    Console(width=120).print(table)
    echo("ranked by " + ", then ".join(tie_breaks(ev)))
    if result.problems:
        echo(f"note: {len(result.problems)} problem(s) at the tables; see `jojotte event check`")


@event_app.command("report", help=REPORT_HELP)
def report_cmd(event: Annotated[Path, typer.Argument(help="The event file (TOML).")],
               out: Annotated[Path, typer.Option("--out", "-o", help="Folder to write the site into.")] = Path("report"),
               templates: Annotated[Optional[Path], typer.Option("--templates", help="Folder of templates that override the defaults.")] = None) -> None:
    from jojotte_records.table.tournament import build_event_site

    ev = _load(event)
    try:
        with progress("writing hand pages") as advance:
            site = build_event_site(ev, out, templates, on_hand=lambda v: advance(1))
    except JojotteError as e:
        fail(str(e), 2)
    echo(f"{site.sessions} session(s), {site.hands} hand(s); {len(site.check.problems)} problem(s) at the tables")
    echo(f"open {site.event_page}")
