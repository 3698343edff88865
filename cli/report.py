"""``jojotte report``: write the static HTML site of sessions, score sheets, hand replays and statistics."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from jojotte_records.report import HANDS_PER_FILE

from .common import echo, fail, progress, unreadable_headers

HELP = """Write a static HTML report: an index of the sessions, a score sheet per session and a replay per hand.

OUT is a new or empty folder, or a report written before (its pages of sessions no longer in the input are removed, and the command says how many); a folder with other files is refused without --force.

The site opens from the file system (no server, no network): open OUT/index.html. Every hand page shows the deal, the bidding, the melds, the dix exchange and the tricks (step with the buttons or the arrow keys), the score and the validator's verdict with the illegal event highlighted. Pages whose content did not change are not written again. See docs/report.md.

Exit code (README, "Exit codes"): 0, findings in the records included; 2 when a record file cannot be read (it is listed on the index page), no session was found, or for a usage error (a missing archive or templates folder).

--restore: the page of each hand with an illegal card also shows what the hand would have scored had the best legal card been played there (as `jojotte validate --restore` computes it), beside the written score; each such hand is solved, which takes from milliseconds (two players) to seconds (Baloot from the first card).

Examples:

  jojotte report examples/ --out report

  jojotte report examples/disputes/ --out report --restore

  jojotte report records/ --out report --jobs 2

  jojotte report --db jojotte.duckdb --out report

  jojotte report records/ --out report --templates my-templates
"""


def register(app: typer.Typer) -> None:
    app.command("report", help=HELP)(report)


def report(
    paths: Annotated[Optional[list[str]], typer.Argument(help="Record files or folders (*.jjt, *.json); - for standard input.")] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder to write the site into.")] = Path("report"),
    db: Annotated[Optional[Path], typer.Option("--db", help="Read the sessions of this archive instead of files.")] = None,
    templates: Annotated[Optional[Path], typer.Option("--templates", help="Folder of templates that override the defaults.")] = None,
    hands_per_file: Annotated[int, typer.Option("--hands-per-file", min=1, help="Hands written into one page file (1: a file per hand).")] = HANDS_PER_FILE,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing but errors.")] = False,
    force: Annotated[bool, typer.Option("--force", help="Write into a folder that holds other files than a report.")] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=0, help="Processes to validate and render in (0: every core); the same site as one.")] = 1,
    restore: Annotated[bool, typer.Option("--restore", help="On the page of a hand with an illegal card: its score had the best legal card been played (solved: slower).")] = False,
) -> None:
    from jojotte_records.errors import JojotteError
    from jojotte_records.report.site import MANIFEST_NAME, build_site

    if out.is_dir() and not (out / MANIFEST_NAME).exists() and not force:
        others = sorted(p.name for p in out.iterdir())
        if others:
            fail(f"{out} holds files that are not a jojotte report ({len(others)}: {', '.join(others[:3])}"
                 f"{', …' if len(others) > 3 else ''}), which the report would overwrite or leave mixed with its pages; "
                 "choose an empty or new folder, or give --force")
    restore_hand = None
    if restore:
        from jojotte_records.analyze.restore import restore_hand
    try:
        with progress("writing hand pages") as advance:
            result = build_site(paths or [], out, db=db, templates=templates, on_hand=lambda v: advance(1),
                                hands_per_file=hands_per_file, restore=restore_hand, jobs=jobs)
    except JojotteError as e:
        fail(str(e), 2)
    for p in result.problems:
        echo(f"{p.source}: {p.message}", err=True)
    if not quiet:
        echo(f"{result.sessions} session(s), {result.hands} hand(s) ({result.bad_hands} with findings): "
                   f"{result.written} file(s) written, {result.unchanged} unchanged, {result.removed} removed")
        if result.removed:
            gone = result.removed_sessions
            names = f": {', '.join(gone[:5])}{', …' if len(gone) > 5 else ''}" if gone else ""
            echo(f"{result.removed} file(s) of the earlier report in {out} removed: the pages of {len(gone)} session(s) "
                 f"that are not in this run's input{names}")
        echo(f"open {result.index}")
    unreadable = unreadable_headers(paths or [])
    for issue in unreadable:  # an unknown game or option: the session is drawn, and the input was not read (2)
        echo(str(issue), err=True)
    if result.problems or not result.sessions or unreadable:
        if not result.sessions:
            echo("no session found in the input", err=True)
        raise typer.Exit(2)
