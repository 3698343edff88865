"""The ``jojotte`` application: one Typer app, one module per command group."""

from typing import Annotated

import typer

from . import analyze, archive, baloot, convert, demo, examples, report, schema, simulate, validate
from . import event as event_cmd
from . import record as record_cmd
from .common import NaturalGroup

app = typer.Typer(
    name="jojotte",
    help="Records, replays and checks sessions of Jo-Jotte (and its relatives).\n\n"
         "Start with `jojotte demo`, then `jojotte validate FILE`.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    cls=NaturalGroup,
)
for module in (validate, convert, simulate, schema, demo, examples, analyze):
    module.register(app)
report.register(app)
archive.register(app)
record_cmd.register(app)
event_cmd.register(app)
baloot.register(app)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"jojotte {version('jojotte-records')}")
        raise typer.Exit()


@app.callback()
def main(version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                              help="Print the version and exit.")] = False) -> None:
    """Records, replays and checks sessions of Jo-Jotte (and its relatives)."""


def run() -> None:
    app()


if __name__ == "__main__":  # pragma: no cover
    run()
