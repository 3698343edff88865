"""``jojotte schema``: export the JSON Schema of records to schemas/."""

from pathlib import Path
from typing import Annotated

import typer

from .common import EXIT_INPUT, echo, fail

HELP = """Write the JSON Schema of the record format (generated from the pydantic models).

Examples:

  jojotte schema --out schemas

  jojotte schema --check    (exit 1 when the committed schema is stale, 2 without the folder)
"""


def register(app: typer.Typer) -> None:
    app.command("schema", help=HELP)(schema)


def schema(
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder for the schema files.")] = Path("schemas"),
    check: Annotated[bool, typer.Option("--check", help="Only check that the files are up to date.")] = False,
) -> None:
    from jojotte_records.notation.schema import export_schemas, stale_schemas

    if check:
        if not out.is_dir():  # nothing to check: input that cannot be read (2), not a stale schema (1)
            fail(f"{out}: no such folder; nothing to check (--out names the folder of the schema files, "
                 f"`jojotte schema --out {out}` writes them)", EXIT_INPUT)
        stale = stale_schemas(out)
        for name in stale:
            echo(f"{out / name} is stale: run `jojotte schema --out {out}`")
        raise typer.Exit(1 if stale else 0)
    for path in export_schemas(out):
        echo(f"wrote {path}")
