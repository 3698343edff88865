"""Simulated legal sessions, for tests, benchmarks and demonstrations.

Everything goes through the rules core (`legal_actions`, ``apply``, ``hand_score``,
``add_score``); the simulator only shuffles, and a policy (`policy`: ``plausible`` by default, or
``uniform``) chooses among the legal actions. Same seed, same output.
"""

from __future__ import annotations

import random
from typing import Iterator

from ..cards import cards_of
from ..notation.model import Call, HandRecord, Play, SessionHeader, Trick, WrittenScore
from ..rules.base import CHANCE, Action, find_variant
from ..rules.jojotte import AUCTION, DRAW, VOID_HAND, JojotteRules
from .policy import choose_uniform, policy_of


def simulate_header(game: str = "jojotte", seed: int = 0, variant: str = "", first_dealer: int = 0) -> SessionHeader:
    cls = find_variant(game)
    tags = [("Event", f"Simulated session (seed {seed})"), ("Site", "jojotte simulate"), ("Date", "????.??.??"),
            ("Game", cls.name), ("Players", "; ".join(f"Player {lab}" for lab in cls.seat_labels)),
            ("FirstDealer", cls.seat_labels[first_dealer])]
    if variant:
        tags.append(("Variant", variant))
    return SessionHeader(tuple(tags))


def simulate_hands(rules: JojotteRules, hands: int, rng: random.Random, first_dealer: int = 0,
                   policy: str = "plausible") -> Iterator[HandRecord]:
    """``hands`` legal hands played by ``policy``, dealt in turn, each with the score written as the core computes it."""
    choose = policy_of(policy)
    columns = range(len(rules.sheet_labels))  # a column per player, or per side
    sheet = rules.new_sheet()
    dealer = first_dealer
    pack = list(rules.pack.cards)
    for number in range(1, hands + 1):
        rng.shuffle(pack)
        record, state = _one_hand(rules, number, dealer, pack, rng, choose)
        score = rules.hand_score(state, sheet)
        sheet, entry = rules.add_score(sheet, score)
        below = tuple(entry.below(s) for s in columns)
        above = tuple(entry.above(s) for s in columns)
        yield record._replace(score=WrittenScore(below, above, entry.held_aside))
        dealer = rules.next_dealer(dealer)


def _one_hand(rules: JojotteRules, number: int, dealer: int, pack: list[int], rng: random.Random, choose=choose_uniform):
    first, turned, draws, info = rules.deal(pack, dealer)
    state = rules.advance(rules.initial_state(dealer), rules.deal_action(first, turned))
    auction: list[Call] = []
    after: list[Call] = []
    tricks: list[Trick] = []
    plays: list[Play] = []
    while not rules.is_terminal(state):
        if state.phase == DRAW:
            state = rules.apply(state, Action(CHANCE, "draw", cards=draws, info=info))
            continue
        action = choose(rules, state, rules.legal_actions(state), rng)
        phase_before = state.phase
        state = rules.advance(state, action)  # legal by construction
        if action.kind == "play":
            plays.append(Play(action.seat, action.card, action.announce))
            if not state.trick:
                tricks.append(Trick(len(tricks) + 1, tuple(plays)))
                plays = []
        elif phase_before == AUCTION:
            auction.append(Call(action.seat, action.kind, action.suit))
        else:
            after.append(Call(action.seat, action.kind, melds=action.melds))
    void = state.phase == VOID_HAND
    # a seat that holds no cards (the dealer of the four-player game without partners, the adviser) is written '-'
    holds = [rules.dealt_to(seat, dealer) > 0 for seat in range(rules.seats)]
    dealt = tuple(tuple(cards_of(first[seat])) if holds[seat] else None for seat in range(rules.seats))
    drawn = None if void else tuple(tuple(cards_of(draws[seat])) if holds[seat] else None for seat in range(rules.seats))
    record = HandRecord(number, dealer, dealt, drawn, not void, turned, None if void or info < 0 else info, None,
                        tuple(auction), tuple(after), tuple(tricks))
    return record, state


def simulate_session(game: str = "jojotte", hands: int = 100, seed: int = 1, variant: str = "",
                     policy: str = "plausible") -> tuple[SessionHeader, Iterator[HandRecord]]:
    """A header and a lazy stream of ``hands`` legal hands played by ``policy`` ("plausible" or "uniform")."""
    policy_of(policy)  # an unknown policy is refused before anything is written
    cls = find_variant(game)
    rules = cls(cls.options_class.parse(variant) if variant else None)
    rng = random.Random(seed)
    first_dealer = rng.randrange(cls.dealing_seats or cls.seats)
    return simulate_header(game, seed, variant, first_dealer), simulate_hands(rules, hands, rng, first_dealer, policy)


def simulate_items(game: str = "jojotte", hands: int = 100, seed: int = 1, variant: str = "",
                   policy: str = "plausible") -> Iterator:
    """What ``jojotte simulate`` writes: a Jo-Jotte session, or for Pitch and Baloot one session per game
    until ``hands`` hands are played; ``policy`` chooses every call and card ("plausible" or "uniform")."""
    from ..rules.base import EventRules

    if issubclass(find_variant(game), EventRules):
        from ..replay.event_log import simulate_events

        yield from simulate_events(game, hands, seed, variant, policy)
        return
    header, stream = simulate_session(game, hands, seed, variant, policy)
    yield header
    yield from stream
