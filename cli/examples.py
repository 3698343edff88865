"""``jojotte examples``: copy the example sessions bundled with the package into a folder."""

import shutil
from pathlib import Path
from typing import Annotated

import typer

from .common import echo, fail

HELP = """Copy the example sessions bundled with the package into DIR (the README's tour uses them).

Sessions of every game, the disputes (one fault each, with their expected verdicts) and two example events.
DIR must not exist yet, or be empty.

Examples:

  jojotte examples examples

  jojotte validate examples/spec-rubber.jjt
"""

_KEEP = ("*.jjt", "*.json", "*.toml")


def register(app: typer.Typer) -> None:
    app.command("examples", help=HELP)(examples)


def examples(folder: Annotated[Path, typer.Argument(help="The folder to copy them into.", metavar="DIR")]) -> None:
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        fail(f"{folder} exists and is not an empty folder; nothing copied")
    from jojotte_records.resources import examples_dir

    source = examples_dir()
    files = sorted(p for pattern in _KEEP for p in source.rglob(pattern))
    for f in files:
        target = folder / f.relative_to(source)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(f, target)
    echo(f"{len(files)} file(s) copied into {folder}")
