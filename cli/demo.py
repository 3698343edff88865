"""``jojotte demo``: the main job on the bundled examples."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from jojotte_records.resources import examples_dir
from jojotte_records.validation import check_paths

HELP = """Run the main job on the bundled example sessions: validate them and print the verdicts.

Examples:

  jojotte demo

  jojotte demo --out jojotte-demo
"""


def register(app: typer.Typer) -> None:
    app.command("demo", help=HELP)(demo)


def demo(
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder for the demo's outputs.")] = Path("jojotte-demo"),
) -> None:
    folder = examples_dir()
    typer.echo(f"bundled examples: {folder}")
    sessions = hands = 0
    for result in check_paths([str(folder)]):
        for summary, verdicts in result.sessions:
            sessions += 1
            hands += summary.hands
            bad = [v for v in verdicts if v.issues]
            rel = Path(result.source).relative_to(folder) if result.source.startswith(str(folder)) else result.source
            status = "legal, scores right" if not bad else f"{len(bad)} hand(s) with a finding"
            typer.echo(f"  {rel}: {summary.header.get('Event') or 'session'}: {summary.hands} hands, {status}")
            for v in bad:
                for issue in v.issues:
                    typer.echo(f"      hand {v.number}: {issue.message} ({issue.rule})")
    typer.echo(f"{sessions} session(s), {hands} hand(s) checked")
