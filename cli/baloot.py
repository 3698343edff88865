"""``jojotte baloot``: Baloot tools; ``jojotte baloot score`` is the hand score calculator."""

import json
from typing import Annotated

import typer

from .common import echo, echo_json, fail

app = typer.Typer(name="baloot", help="Baloot (Saudi Belote) tools: the hand score calculator.", no_args_is_help=True)

SCORE_HELP = """Score one Baloot hand from its totals, showing every step: the counting team, the card points
converted to game points with the exact rounding of Hokum and Sun, the tie-break by rounding loss, a
failed contract, the doubling multiplier, projects, the Baloot and al-kaboot (rules spec baloot.md, §10–§11).

Give one team's card points (the last-trick 10 included); the other team's are 162 - x (Hokum) or
130 - x (Sun). Projects are the kinds the project team showed (sira, fifty, hundred, fourhundred).

Examples:

  jojotte baloot score hokum --declarers NS --cp WE=84

  jojotte baloot score hokum -d WE -l triple --cp NS=74 --project WE=sira --baloot NS

  jojotte baloot score sun -d NS --cp WE=58 --project WE=hundred --json

  jojotte baloot score hokum -d NS -l double --kaboot NS --project NS=fifty --baloot NS

  jojotte baloot score hokum -d NS --cp NS=86 --variant "counting_team=ALWAYS_DEFENDERS"
"""


@app.command("score", help=SCORE_HELP)
def score(
    contract: Annotated[str, typer.Argument(help="hokum, sun or ashkal (a Sun).")],
    declarers: Annotated[str, typer.Option("--declarers", "-d", help="The declaring team: NS or WE.")],
    level: Annotated[str, typer.Option("--level", "-l", help="1, double, triple, four or gahwa.")] = "1",
    cp: Annotated[str | None, typer.Option("--cp", help="One team's card points, TEAM=N (e.g. WE=84).")] = None,
    project: Annotated[list[str] | None, typer.Option("--project", "-p", help="The project team's shown projects, "
                                                       "TEAM=KIND[,KIND] (e.g. NS=sira,fifty).")] = None,
    baloot: Annotated[str | None, typer.Option("--baloot", "-b", help="The team that scored the Baloot (Hokum).")] = None,
    kaboot: Annotated[str | None, typer.Option("--kaboot", "-k", help="The team that took all eight tricks.")] = None,
    declared: Annotated[list[str] | None, typer.Option("--declared", help="Declared kinds, TEAM=KIND (only for "
                                                        "kaboot_projects=always).")] = None,
    variant: Annotated[str, typer.Option("--variant", help="Options of §13, e.g. 'both_teams_count; project_multiplier=FULL'.")] = "",
    json_out: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    from jojotte_records.table.baloot_calc import calculate, result_json, result_text

    try:
        result = calculate(contract, declarers, level, cp, project, baloot, kaboot, declared, variant)
    except ValueError as e:
        fail(str(e))
    if json_out:
        echo_json(json.dumps(result_json(result), indent=2))
    else:
        echo(result_text(result))


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="baloot")
