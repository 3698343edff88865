"""The card play's hot path (`Rules.card_plays`, `Rules.play_card`), the double-dummy solver's way through the rules,
held to the protocol's own answers (`legal_actions`, `advance`) on random play of every game.

At every play position of hands played at random (uniform random calls and cards, so that unusual trick shapes come up), and at every
position one legal card away from it (positions off the line played, where a memo of the legal cards keyed on too
little would answer for another position): ``card_plays`` is exactly the ``kind == "play"`` actions of
``legal_actions`` in the same order (JJ-PLAY-2…8, JJ4P-PLAY-2, BAL-PLAY-1…12, BAL-EKKA-1, BAL-BALOOT-3, PIT-PLAY),
and ``play_card`` gives exactly the state ``advance`` gives, for every legal action there (cards, their words,
declarations and shows alike). One rules object serves each whole session, so its memo is shared across hands.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jojotte_records.cards import iter_cards
from jojotte_records.rules.baloot_cards import trick_winner
from jojotte_records.rules.base import CHANCE, Action, find_variant

# every game, with variants whose options change the legal cards or the words said with them
GAMES = [
    ("baloot", ""),
    ("baloot", "baloot_timing=any_time; first_lead=declarer; lock_unspecified=locked"),
    ("baloot", "baloot_in_project=declare_forbidden; long_runs=five_max; raise_callers=team"),
    ("jojotte", ""),
    ("jojotte-3", ""),
    ("jojotte-3box", ""),
    ("jojotte-4p", ""),
    ("jojotte-4p", "overtrump_on_ruff=always"),
    ("jojotte-4p", "overtrump_on_ruff=over_opponent_only; no_ruff_if_partner_winning"),
    ("jojotte-4s", ""),
    ("pitch", ""),
]


def _plays(rules, s) -> tuple:
    return tuple(a for a in rules.legal_actions(s) if a.kind == "play")


def _check_position(rules, s) -> int:
    """Hold both paths to the protocol at ``s`` and one card away; the number of transitions compared."""
    assert rules.card_plays(s) == _plays(rules, s)
    n = 0
    for a in rules.legal_actions(s):
        after = rules.play_card(s, a)
        assert after == rules.advance(s, a), a
        n += 1
        if not rules.is_terminal(after) and rules.current_player(after) != CHANCE:
            assert rules.card_plays(after) == _plays(rules, after), a
    return n


def _positions(rules, rng: random.Random, dealer: int):
    """The positions of one hand played at random: chance by the game's own dealer (Jo-Jotte: its deal and draw),
    every call and card a uniform choice among the legal actions."""
    draw = None
    if hasattr(rules, "deal_action"):  # the Jo-Jotte forms deal from a shuffled pack, the draw held back
        pack = list(rules.pack.cards)
        rng.shuffle(pack)
        first, turned, draws, info = rules.deal(pack, dealer)
        draw = Action(CHANCE, "draw", cards=draws, info=info)
        s = rules.advance(rules.initial_state(dealer), rules.deal_action(first, turned))
    else:
        s = rules.initial_state(dealer)
    while not rules.is_terminal(s):
        if rules.current_player(s) == CHANCE:
            s = rules.advance(s, draw if draw is not None and s.phase == "draw" else rules.chance_action(s, rng))
            continue
        acts = rules.legal_actions(s)
        if not acts:
            return
        yield s
        s = rules.advance(s, rng.choice(acts))


def _walk(game: str, variant: str, seed: int, hands: int) -> int:
    cls = find_variant(game)
    rules = cls(cls.options_class.parse(variant) if variant else None)  # one rules object (one memo) for every hand
    rng = random.Random(seed)
    compared, dealer = 0, 0
    for _ in range(hands):
        for s in _positions(rules, rng, dealer):
            if s.phase == "play":
                compared += _check_position(rules, s)
            elif rules.card_plays(s):  # before the card play no card may be played
                raise AssertionError(f"cards offered in phase {s.phase}")
        dealer = rules.next_dealer(dealer)
    return compared


@pytest.mark.parametrize("game,variant", GAMES)
def test_card_plays_and_play_card_agree_with_the_protocol(game, variant):
    assert _walk(game, variant, seed=11, hands=12) > 100  # the hands reached their card play


@settings(deadline=None, max_examples=15, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(GAMES), seed=st.integers(0, 10**6))
def test_card_play_path_on_random_sessions(case, seed):
    game, variant = case
    assert _walk(game, variant, seed, hands=4) >= 0
    # (the count may be 0 when every hand was thrown in; the equalities inside are the test)


def test_baloot_memo_tells_an_ekka_trick_from_a_plain_one():
    """BAL-EKKA-4 against BAL-PLAY-11: third hand, void in the suit led, his partner's lead (not an ace) winning, must
    trump, unless the lead was a valid Ekka. The same hand and the same cards in the trick, with and without the Ekka,
    asked of one rules object in both orders: the memo of the legal cards must tell them apart."""
    cls = find_variant("baloot")
    rng = random.Random(5)
    found = None
    while found is None:
        rules = cls()
        for s in _positions(rules, rng, 0):
            if s.phase != "play" or len(s.trick) != 2 or s.trump < 0:
                continue
            seat = rules.current_player(s)
            (_, lead), (_, second) = s.trick
            hand, led = s.hands[seat], lead >> 4
            trumps = hand & (0xFFFF << (16 * s.trump))
            if (lead & 15) != 14 and led != s.trump and not hand & (0xFFFF << (16 * led)) and trumps != hand and trumps \
                    and s.trick[0][0] % 2 == seat % 2 and trick_winner((lead, second), s.trump) == 0:
                found = s
                break
    plain, ekka = found._replace(ekka=False), found._replace(ekka=True)
    for order in ((plain, ekka), (ekka, plain)):
        rules = cls()
        got = [rules.card_plays(x) for x in order]
        assert got == [_plays(rules, x) for x in order]
    # the two answers differ: with the Ekka any card of the hand goes, without it only its trumps
    rules = cls()
    assert {a.card for a in rules.card_plays(ekka)} == set(iter_cards(found.hands[rules.current_player(found)]))
    assert {a.card >> 4 for a in rules.card_plays(plain)} == {found.trump}


def test_quick_replace_gives_the_generated_replace_answer():
    # the states' `_replace` by index (`base.quick_replace`) against the one `collections.namedtuple` generates,
    # on a Pitch and a Baloot state: the same fields, the same type, the same error for a field it lacks
    import collections

    from jojotte_records.rules.baloot import BalootRules, BalootState
    from jojotte_records.rules.pitch import PitchRules, PitchState

    for cls, s in ((PitchState, PitchRules().initial_state(1)), (BalootState, BalootRules().initial_state(2))):
        plain = collections.namedtuple("Plain", cls._fields)
        changes = {cls._fields[0]: "x", cls._fields[-1]: (7,), cls._fields[3]: 5}
        got = s._replace(**changes)
        assert type(got) is cls and tuple(got) == tuple(plain(*s)._replace(**changes))
        assert s._replace() == s and s._replace() is not s
        with pytest.raises(ValueError, match=r"unexpected field names: \['nope'\]"):
            s._replace(nope=1, **changes)
