"""``jojotte simulate``: random legal sessions in canonical notation."""

import sys
from pathlib import Path
from typing import Annotated

import typer

from .common import fail, progress

HELP = """Write a session of simulated legal hands.

The default policy, plausible, bids and doubles on hand strength, bids Slam and Nullo only with hands
that can make them and plays cards by a club player's habits; --policy uniform makes a random legal
choice at every decision (it reaches the rules' corners). Same seed, same output. Every hand carries
the score the rules give it.

Examples:

  jojotte simulate --hands 10000 --seed 1 --out big.jjt

  jojotte simulate --game jojotte --hands 100 --variant "sequence_tie=defender" | jojotte validate -

  jojotte simulate --game pitch --variant "points=16; players=5" --hands 5000 | jojotte validate -

Pitch and Baloot are played to a game target, so their hands come as one session per game.
"""


def register(app: typer.Typer) -> None:
    app.command("simulate", help=HELP)(simulate)


def simulate(
    game: Annotated[str, typer.Option("--game", "-g", help="Game to simulate.")] = "jojotte",
    hands: Annotated[int, typer.Option("--hands", "-n", min=1, help="Number of hands.")] = 100,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Random seed.")] = 1,
    variant: Annotated[str, typer.Option("--variant", help="Options, e.g. 'sequence_tie=defender; carry_partscore'.")] = "",
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write here instead of standard output.")] = None,
    policy: Annotated[str, typer.Option("--policy", "-p", help="Who makes the choices: plausible or uniform.")] = "plausible",
) -> None:
    from jojotte_records.notation.model import SessionHeader
    from jojotte_records.notation.text import write_stream
    from jojotte_records.play.simulate import simulate_items

    stream = simulate_items(game, hands, seed, variant, policy)
    try:
        first = next(stream)
    except ValueError as e:
        fail(str(e))
    with progress("simulating hands", total=hands) as advance:
        def counted():
            yield first
            for h in stream:
                if not isinstance(h, SessionHeader):
                    advance(1)
                yield h
        if out is None:
            write_stream(counted(), sys.stdout)
        else:
            tmp = out.with_name(out.name + ".tmp")
            with open(tmp, "w", encoding="utf-8") as f:
                write_stream(counted(), f)
            tmp.replace(out)
