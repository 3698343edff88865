"""``jojotte validate``: replay records through the rules and check their scores."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from jojotte_records.validation import sheet_text, check_paths, dump_json, exit_code, verdict_json

from .common import progress

HELP = """Replay every call and card of the records through the rules, and recompute the score sheet.

Names the first illegal call or card of each hand with the rule it breaks, and every written
figure that disagrees with the rules. A folder is read recursively (*.jjt, *.json); - reads
standard input.

Exit code: 0 all legal and every written score right; 1 an illegal event or a wrong score;
2 input that cannot be read.

Examples:

  jojotte validate session.jjt

  jojotte validate records/ --json > verdict.json

  jojotte simulate --hands 1000 --seed 1 | jojotte validate -
"""


def register(app: typer.Typer) -> None:
    app.command("validate", help=HELP)(validate)


def validate(
    paths: Annotated[list[str], typer.Argument(help="Record files or folders; - for standard input.")],
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON document (see README).")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Also list the checks the records did not allow.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the summary line.")] = False,
) -> None:
    results = []
    with progress("validating hands") as advance:
        for result in check_paths(paths, keep_hands=json_out or verbose, on_hand=lambda v: advance(1)):
            results.append(result)
            if not json_out and not quiet:
                _print_file(result, verbose)
    if json_out:
        dump_json(verdict_json(results), sys.stdout)
    else:
        hands = sum(r.hands for r in results)
        bad = sum(r.bad_hands for r in results)
        unreadable = sum(1 for r in results if r.read_error)
        sessions = sum(len(r.sessions) for r in results)
        line = f"{len(results)} file(s), {sessions} session(s), {hands} hand(s): {hands - bad} without errors, {bad} with errors"
        if unreadable:
            line += f", {unreadable} file(s) unreadable"
        typer.echo(line)
    raise typer.Exit(exit_code(results))


def _print_file(result, verbose: bool) -> None:
    if result.read_error is not None:
        typer.echo(str(result.read_error))
        return
    for summary, hands in result.sessions:
        for issue in summary.issues:
            typer.echo(str(issue))
        for v in hands:
            for issue in v.issues:
                typer.echo(str(issue))
            if verbose:
                for issue in v.unchecked:
                    typer.echo(f"{issue}  [not checked]")
        status = "ok" if summary.bad_hands == 0 and not summary.issues else f"{summary.bad_hands} hand(s) with errors"
        event = summary.header.get("Event") or "session"
        typer.echo(f"{result.source}: {event}: {summary.hands} hand(s), {status}; sheet: {sheet_text(summary)}")
