"""The simulator's players: one interface, ``choose(rules, state, legal, rng) -> Action``, for every game.

A policy only *chooses* among the actions the rules core offers (``legal_actions(state)``); it never
decides what is legal. To judge a hand it reads the state's public fields (the hand, the trump, the
trick so far, the cards already played) and the card tables of the rules core.

* ``uniform``: today's random player: a uniformly random legal action in Jo-Jotte; in Pitch and Baloot
  the game's own random player (`PitchRules.sim_choice`, `BalootRules.sim_choice`: uniform card play, an
  auction damped so that games end). It reaches corners of the rules the tests need.
* ``plausible`` (the default): bids and doubles on hand strength, Slam and Nullo only with hands that can
  make them, declares the melds and projects it holds, takes the dix, and plays its cards by a club
  player's habits (win cheaply, lose with the lowest card, lead winners, draw trumps as declarer, give
  points to a partner who is winning the trick). Ties are broken by the card's code, so the policy is a
  function of the state: the ``rng`` is only used by ``uniform``.
"""

from __future__ import annotations

import random
from typing import Callable

from ..rules.base import Action
from . import policy_baloot, policy_jojotte, policy_pitch

POLICIES = ("plausible", "uniform")
# the plausible player of each game family; every form of Jo-Jotte shares one
PLAUSIBLE = {"pitch": policy_pitch.choose, "baloot": policy_baloot.choose}

Policy = Callable[[object, object, tuple, random.Random], Action]


def choose_uniform(rules, state, legal: tuple[Action, ...], rng: random.Random) -> Action:
    return rules.sim_choice(legal, rng)  # the game's own random player (uniform by default)


def choose_plausible(rules, state, legal: tuple[Action, ...], rng: random.Random) -> Action:
    return PLAUSIBLE.get(rules.name, policy_jojotte.choose)(rules, state, legal)


def policy_of(name: str) -> Policy:
    """The policy called ``name`` ("plausible" or "uniform").

    Raises:
        ValueError: no policy of that name.
    """
    if name == "plausible":
        return choose_plausible
    if name == "uniform":
        return choose_uniform
    raise ValueError(f"unknown policy '{name}' (known: {', '.join(POLICIES)})")
