"""``jojotte demo``: the main job on the bundled examples: validate, archive, report."""

from collections import Counter
from pathlib import Path
from typing import Annotated

import typer

from .common import echo, fail, progress

HELP = """Run the whole pipeline on the example sessions bundled with the package.

Validates them (the files under disputes/ each hold one illegal event or wrong score, on
purpose), imports them into a DuckDB archive, and writes the HTML report from the archive.
Writes OUT/jojotte.duckdb and OUT/report/ (OUT is the current folder by default).

Examples:

  jojotte demo

  jojotte demo --out /tmp/jojotte-demo
"""


def register(app: typer.Typer) -> None:
    app.command("demo", help=HELP)(demo)


def demo(
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder for the archive and the report.")] = Path("."),
) -> None:
    from jojotte_records.archive.store import ArchiveError, import_paths
    from jojotte_records.replay.files import check_paths, sheet_text
    from jojotte_records.report.site import ReportError, build_site
    from jojotte_records.resources import examples_dir

    folder = examples_dir()
    echo(f"1. validating the bundled examples in {folder}")
    sessions = hands = 0
    rules: Counter[str] = Counter()
    clean = []
    for result in check_paths([str(folder)]):
        for summary, verdicts in result.sessions:
            sessions += 1
            hands += summary.hands
            for v in verdicts:
                for issue in v.issues:
                    rules[issue.rule] += 1
            if not summary.bad_hands:
                clean.append(f"   {Path(result.source).name}: {summary.header.get('Event') or 'session'}: {sheet_text(summary)}")
    for line in clean:
        echo(line)
    echo(f"   {sessions} sessions, {hands} hands; {sum(rules.values())} finding(s) in the dispute files, "
               f"citing {len(rules)} different rules (jojotte validate {folder / 'disputes'} lists them)")

    out.mkdir(parents=True, exist_ok=True)
    db = out / "jojotte.duckdb"
    echo(f"2. importing into the archive {db}")
    try:
        imported = list(import_paths(db, [str(folder)]))
    except ArchiveError as e:
        fail(str(e))
    new = sum(f.sessions_new + f.sessions_replaced for f in imported)
    same = sum(f.sessions_unchanged for f in imported)
    echo(f"   {new} session(s) stored, {same} already there")

    echo(f"3. writing the report into {out / 'report'}")
    try:
        with progress("report pages") as advance:
            site = build_site(out=out / "report", db=db, on_hand=lambda v: advance(1))
    except ReportError as e:
        fail(str(e))
    echo(f"   {site.sessions} sessions, {site.hands} hand pages ({site.written} files written, {site.unchanged} unchanged)")
    echo(f"open {site.index.resolve()}")
