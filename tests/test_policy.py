"""The simulator's policies (issue 15): the plausible default plays like a club player, the uniform one reaches
the rules' corners, and both only ever choose legal actions (every simulated record validates)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from cli.main import app
from jojotte_records.cards import ACE, JACK, KING, NINE, QUEEN, SEVEN, TEN, make_card
from jojotte_records.play.policy import policy_of
from jojotte_records.play.policy_jojotte import nullo_ok, slam_ok
from jojotte_records.play.simulate import simulate_items
from jojotte_records.play.stats import hand_stats

runner = CliRunner()

GAMES = [("jojotte", ""), ("jojotte", "nt_direct_in_round1; nullo_after_double"), ("jojotte-3", ""),
         ("jojotte-3box", ""), ("jojotte-4p", ""), ("jojotte-4p", "jj4p_first_lead=declarer_left"), ("jojotte-4s", ""),
         ("baloot", ""), ("baloot", "kawesh"), ("pitch", ""), ("pitch", "points=16; players=5"),
         ("pitch", "reverse; dirty"), ("pitch", "trump_discard=allowed_dead")]


def _simulate(game: str, variant: str, policy: str | None, hands: int = 60, seed: int = 2):
    args = ["simulate", "--game", game, "--hands", str(hands), "--seed", str(seed)]
    if variant:
        args += ["--variant", variant]
    if policy:
        args += ["--policy", policy]
    return runner.invoke(app, args)


@pytest.mark.parametrize("policy", [None, "uniform"])
@pytest.mark.parametrize("game,variant", GAMES)
def test_simulate_validates_with_every_policy(game, variant, policy):
    out = _simulate(game, variant, policy)
    assert out.exit_code == 0, out.output
    res = runner.invoke(app, ["validate", "-"], input=out.output)
    assert res.exit_code == 0, res.output
    assert "60 hand(s): 60 without errors, 0 with errors" in res.output


@pytest.mark.parametrize("game", ["jojotte", "jojotte-4p", "baloot", "pitch"])
def test_plausible_policy_is_reproducible(game):
    a, b, c = _simulate(game, "", None, 40, 5), _simulate(game, "", None, 40, 5), _simulate(game, "", None, 40, 6)
    assert a.exit_code == 0 and a.output == b.output
    assert a.output != c.output
    # the default is the plausible policy, not the uniform one
    assert a.output != _simulate(game, "", "uniform", 40, 5).output


def test_unknown_policy_is_refused():
    out = _simulate("jojotte", "", "random")
    assert out.exit_code != 0 and "unknown policy 'random'" in out.output
    with pytest.raises(ValueError, match="unknown policy"):
        policy_of("clever")
    with pytest.raises(ValueError, match="unknown policy"):
        next(simulate_items("pitch", 3, 1, policy="clever"))


# --- what a hand needs for Slam and Nullo ------------------------------------------------------

def _hand(*cards: tuple[int, int]) -> int:
    return sum(1 << make_card(su, r) for su, r in cards)


def test_slam_needs_every_card_a_sure_winner():
    # JJ-SLAM-1: all nine tricks. Trumps (hearts = 1) J 9 A T, and A T K of spades, A T of clubs: every card
    # is the best left in its suit once trumps are drawn
    sure = _hand((1, JACK), (1, NINE), (1, ACE), (1, TEN), (0, ACE), (0, TEN), (0, KING), (3, ACE), (3, TEN))
    assert slam_ok(sure, 1)
    # the same with the spade king replaced by the queen: the king of spades is out, the queen can lose
    assert not slam_ok(sure & ~_hand((0, KING)) | _hand((0, QUEEN)), 1)
    # trumps J 9 K T: the ace of trumps is out and wins a trick
    assert not slam_ok(sure & ~_hand((1, ACE)) | _hand((1, KING)), 1)
    # NT: the defender leads (JJ-PLAY-1) the suit the declarer lacks; nine aces-down cards in three suits fail
    assert not slam_ok(_hand((0, ACE), (0, TEN), (0, KING), (1, ACE), (1, TEN), (1, KING), (3, ACE), (3, TEN), (3, KING)), -1)


def test_nullo_needs_low_cards_in_every_suit():
    # JJ-NULLO-1: lose every trick. 7 8 J of spades, 7 9 of hearts, 8 J of diamonds, 7 8 of clubs: each suit's
    # lowest card a 7 or 8, the next no higher than a jack (plain order A T K Q J 9 8 7, JJ-DECK-3)
    low = _hand((0, SEVEN), (0, 8), (0, JACK), (1, SEVEN), (1, NINE), (2, 8), (2, JACK), (3, SEVEN), (3, 8))
    assert nullo_ok(low)
    # a singleton ace wins the first trick of its suit
    assert not nullo_ok(low & ~_hand((2, 8), (2, JACK)) | _hand((2, ACE), (0, NINE)))
    # the second diamond a queen: once the 8 is gone the queen is a diamond that can be forced to win
    assert not nullo_ok(low & ~_hand((2, JACK)) | _hand((2, QUEEN)))


# --- rates a player recognises, over a few hundred hands ------------------------------------------

HANDS = 300


def _rate(st: dict, key: str, over: str = "contracts") -> float:
    return st.get(key, 0) / max(st.get(over, 0), 1)


@pytest.mark.parametrize("game", ["jojotte", "jojotte-3", "jojotte-4p", "jojotte-4s"])
def test_jojotte_rates(game):
    st = hand_stats(game, HANDS, seed=1)
    # JJ-SLAM-1: a Slam bid must win every trick; a player holds nine (eight) of the cards in play and seldom has
    # nothing but sure winners, so a club player bids it in a few hands in a hundred at most
    assert _rate(st, "slam") < 0.05
    # JJ-NULLO-1: lose every trick, a hand with every suit low: rarer still than a hand good enough to bid
    assert _rate(st, "nullo") < 0.05
    # JJ-BID-12: a hand is void only when nobody will accept or name anything in two rounds
    assert _rate(st, "void", "hands") < 0.15
    # JJ-DBL-1: the defender doubles a contract its bidder chose on his own strength: a bet he makes now and then
    assert _rate(st, "doubled") < 0.15
    # JJ-DBL-2: the doubled declarer redoubles only with far more than he bid
    assert st.get("redoubled", 0) <= 0.25 * st.get("doubled", 0) + 1
    # the bidder chose the denomination that suits his hand: he wins the hand more often than not (JJ-SCORE-3/5)
    plain = st["contracts"] - st.get("slam", 0) - st.get("nullo", 0)
    assert st.get("made", 0) / plain > 0.55
    # NT takes three aces or so (JJ-BID-4, JJ-BID-6): suits are the common contract
    assert st.get("nt", 0) < st.get("suit", 0)


def test_jojotte_rates_fail_under_the_uniform_policy():
    # the bands above are tight enough to tell the uniform player from a club player: about half the uniform
    # contracts are Slam bids (the Slam call is one of two at JJ-POST-3) and half the doubles are redoubled
    st = hand_stats("jojotte", HANDS, seed=1, policy="uniform")
    assert _rate(st, "slam") > 0.05
    assert _rate(st, "doubled") > 0.15
    assert st.get("redoubled", 0) > 0.25 * st.get("doubled", 0) + 1


def test_baloot_rates():
    st = hand_stats("baloot", HANDS, seed=1)
    # both contracts are played: Hokum with trumps, Sun with aces and tens (BAL-BID-1); the spec is silent on the
    # mix, and Hokum (one good suit and the face-up card) is the easier hand to find
    sun = st.get("sun", 0) + st.get("ashkal", 0)
    assert 0.05 < sun / st["contracts"] < 0.5 and st.get("hokum", 0) > sun
    # BAL-DBL-2…5: the ladder is climbed one step at a time by hands far above the bid; four and gahwa are rare
    assert _rate(st, "doubled") < 0.15
    assert (st.get("level_4", 0) + st.get("level_5", 0)) / st["contracts"] < 0.02
    # the declaring team chose the contract: it makes it more often than not (BAL-SCORE)
    assert _rate(st, "made") > 0.6
    # BAL-KABOOT: all eight tricks to one team happens, but in a small minority of hands
    assert _rate(st, "kaboot") < 0.15
    # BAL-BID-20: all four pass twice only with four weak hands
    assert _rate(st, "annulled_pass", "hands") < 0.1


def test_baloot_made_band_fails_under_the_uniform_policy():
    # the random player (`BalootRules.sim_choice`) calls without looking at its cards and plays at random: the
    # declaring team makes its contract about one hand in two
    st = hand_stats("baloot", HANDS, seed=1, policy="uniform")
    assert _rate(st, "made") <= 0.6


@pytest.mark.parametrize("variant", ["", "players=5"])
def test_pitch_rates(variant):
    st = hand_stats("pitch", HANDS, seed=1, variant=variant)
    numeric = st["contracts"] - st.get("moon", 0)
    # PIT-MOON-1: all the points of the hand: a bid for a hand holding them all, very rare
    assert _rate(st, "moon") < 0.02
    # PIT-BID-2: bids run from 4 to N (10); a player bids what his trumps are worth, so bids sit in the middle
    mean = st["bid_sum"] / numeric
    assert 4.5 < mean < 8.0
    # PIT-SCORE-1: the bidder knows his trumps, so he makes his bid more often than not
    assert st["made"] / numeric > 0.55


def test_pitch_bands_fail_under_the_uniform_policy():
    # the random player (`PitchRules.sim_choice`) shoots the moon now and then whatever it holds, and bids
    # without counting its trumps, so it is set about as often as it makes its bid
    st = hand_stats("pitch", HANDS, seed=1, policy="uniform")
    assert _rate(st, "moon") > 0.02
    assert st["made"] / (st["contracts"] - st.get("moon", 0)) <= 0.55
