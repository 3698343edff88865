"""``jojotte validate``: replay records through the rules and check their scores."""

import sys
from typing import Annotated

import typer

from jojotte_records.errors import wins

from .common import echo, progress

HELP = """Replay every call and card of the records through the rules, and recompute the score sheet.

Names the first illegal call or card of each hand with the rule it breaks, and every written
figure that disagrees with the rules. A folder is read recursively (*.jjt, *.json); - reads
standard input.

--restore: for each hand with an illegal card (every game), what the hand would have
scored had the best legal card been played there instead, with best play by both afterwards
(double-dummy, as `jojotte analyze`), beside the score as written.

Exit code: 0 all legal and every written score right; 1 an illegal event or a wrong score;
2 input that cannot be read.

Examples:

  jojotte validate session.jjt

  jojotte validate records/ --json > verdict.json

  jojotte validate disputes/ --restore

  jojotte simulate --hands 1000 --seed 1 | jojotte validate -
"""


def register(app: typer.Typer) -> None:
    app.command("validate", help=HELP)(validate)


def validate(
    paths: Annotated[list[str], typer.Argument(help="Record files or folders; - for standard input.")],
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON document (see README).")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Also list the checks the records did not allow.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the summary line.")] = False,
    restore: Annotated[bool, typer.Option("--restore", help="For a hand with an illegal card: its score had the best legal card been played.")] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=0, metavar="N",
                                      help="Worker processes (0: every core); the output is the same as with one.")] = 1,
) -> None:
    from jojotte_records.replay.files import check_paths, dump_json, exit_code, verdict_json

    results = []
    with progress("validating hands") as advance:
        for result in check_paths(paths, keep_hands=json_out or verbose or restore, jobs=jobs, on_hands=advance):
            results.append(result)
            if not json_out and not quiet:
                _print_file(result, verbose)
                if restore:
                    _print_restorations(result)
    if json_out:
        doc = verdict_json(results)
        if restore:
            doc["restorations"] = [item for r in results for item in _restorations(r)]
        dump_json(doc, sys.stdout)
    else:
        hands = sum(r.hands for r in results)
        bad = sum(r.bad_hands for r in results)
        unreadable = sum(1 for r in results if r.read_error)
        sessions = sum(len(r.sessions) for r in results)
        line = f"{len(results)} file(s), {sessions} session(s), {hands} hand(s): {hands - bad} without errors, {bad} with errors"
        if unreadable:
            line += f", {unreadable} file(s) unreadable"
        echo(line)
    raise typer.Exit(exit_code(results))


def _print_file(result, verbose: bool) -> None:
    from jojotte_records.replay.files import sheet_text

    if result.read_error is not None:
        echo(str(result.read_error))
        return
    for summary, hands in result.sessions:
        for issue in summary.issues:
            echo(str(issue))
        for v in hands:
            for issue in v.issues:
                echo(str(issue))
            if verbose:
                for issue in v.unchecked:
                    echo(f"{issue}  [not checked]")
        status = "ok" if summary.bad_hands == 0 and not summary.issues else f"{summary.bad_hands} hand(s) with errors"
        event = summary.header.get("Event") or "session"
        echo(f"{result.source}: {event}: {summary.hands} hand(s), {status}; sheet: {sheet_text(summary)}")


def _restorations(result) -> list[dict]:
    """``--restore``: what each hand with an illegal card would have scored with the best legal card instead."""
    from jojotte_records.analyze.restore import restorations

    return restorations(result)


def _print_restorations(result) -> None:
    for item in _restorations(result):
        where = f"{result.source}: hand {item['hand']}: restore"
        r = item["restored"]
        if r is None:
            echo(f"{where}: not possible: {item['reason']}")
            continue
        if item.get("event"):  # Baloot, Pitch: the hand's points by column, and the value of the declaring side
            made = r["score"]["made"]
            figures = ", ".join(f"{c} {n}" for c, n in r["score"]["delta"].items())
            typer.echo(f"{where}: {r['text']}: {figures}" + ("" if made is None else f"; {'made' if made else 'not made'}")
                       + f" ({r['value_of']} {r['value']} points with best play)")
            if item["as_written"]:
                typer.echo(f"{where}: as written: " + ", ".join(f"{c} {n}" for c, n in item["as_written"].items()))
            continue
        score = r["score"]
        names = [n for n in score if n not in ("winner", "held_aside")]
        parts = []
        for n in names:
            figures = [f"{w} {score[n][w]}" for w in ("below", "above") if score[n][w]]
            parts.append(f"{n} {' '.join(figures) if figures else 'nothing'} (trick score {score[n]['trick_points']})")
        who = wins(score["winner"], "the hand") if score["winner"] else "equal totals"
        echo(f"{where}: {r['text']}: " + ", ".join(parts) + f"; {who}")
        if item["as_written"]:
            written = [f"{n} " + (" ".join(f"{k} {v}" for k, v in fig.items() if v) or "nothing")
                       for n, fig in item["as_written"].items()]
            echo(f"{where}: as written: " + ", ".join(written))
