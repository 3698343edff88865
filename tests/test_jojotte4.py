"""Four-player partnership Jo-Jotte (§19, ``JJ4P-…``): the rules core call by call and card by card, and
whole records through the validator. Seats: N = 0, E = 1, S = 2, W = 3; North-South against East-West.
Example 10.3 and 10.4 of §21 are tested here.
"""

from __future__ import annotations

import io
import random
from functools import partial

import pytest
from jj_helpers import action, deal_state
from jj_helpers import run as run_script
from jj_helpers import violation as script_violation

from conftest import EXAMPLES, validate_text
from jojotte_records.cards import mask_of, parse_card
from jojotte_records.notation.text import read_session, write_session, write_stream
from jojotte_records.play.simulate import simulate_session
from jojotte_records.rules.base import CHANCE, Action, find_variant
from jojotte_records.rules.jojotte import JojotteOptions
from jojotte_records.rules.jojotte4 import Jojotte4POptions, Jojotte4PRules, partner, side_of
from jojotte_records.rules.jojotte_cards import NO_TRUMP, parse_meld
from jojotte_records.rules.jojotte_table import TableState

N, E, S, W = 0, 1, 2, 3
SEAT = {"N": N, "E": E, "S": S, "W": W}
SUIT = {"S": 0, "H": 1, "D": 2, "C": 3}
R = Jojotte4PRules()


act = partial(action, seats=SEAT)
run = partial(run_script, seats=SEAT)
violation = partial(script_violation, seats=SEAT)


def fresh(dealer: int = W, turned: str = "8H", rules=R):
    return deal_state(rules, dealer, (0, 0, 0, 0), parse_card(turned))


def after_draw(auction: str, dealer: int = W, turned: str = "8H", rules=R):
    s = run(rules, fresh(dealer, turned, rules), auction)
    return rules.apply(s, Action(CHANCE, "draw", cards=(0, 0, 0, 0)))


def mid_trick(trump: str, leader: int, hands: dict[int, str], trick: str = "", rules=R, turned: str = "") -> TableState:
    """A state in the middle of trick 1 (W dealt): the hands given, the cards of the trick so far."""
    cards = tuple(parse_card(c) for c in trick.split())
    h = tuple(mask_of(parse_card(c) for c in hands.get(i, "").split()) for i in range(4))
    base = fresh(W, turned or "8" + trump, rules)
    return base._replace(phase="play", hands=h, unknown=(0, 0, 0, 0), trump=SUIT[trump], denomination="suit",
                         bidder=N, leader=leader, trick=cards, node="end", step="after_done")


def legal_cards(state, seat: int, rules=R) -> set[str]:
    from jojotte_records.cards import card_name, iter_cards

    return {card_name(c) for c in iter_cards(rules._play_rule(state, seat).mask)}


def text_of(game: str, hands: int, seed: int) -> str:
    header, stream = simulate_session(game, hands, seed, policy="uniform")
    out = io.StringIO()
    write_stream([header, *stream], out)
    return out.getvalue()


# --- seats, deal and auction ---------------------------------------------------------------------

def test_jj4p_seat_1_two_sides_partners_opposite_clockwise():
    assert find_variant("jojotte-4p") is Jojotte4PRules
    assert R.seat_labels == ("N", "E", "S", "W") and R.sheet_labels == ("NS", "EW")
    assert [partner(x) for x in (N, E, S, W)] == [S, W, N, E]
    assert side_of(N) == side_of(S) != side_of(E) == side_of(W)
    assert R.sheet_names(("Nora", "Eli", "Sam", "Wyn")) == ("Nora and Sam", "Eli and Wyn")
    assert [R.next_dealer(d) for d in (N, E, S, W)] == [E, S, W, N]


def test_jj4p_deal_1_six_each_then_the_bottom_card_of_the_eight_turned():
    order = list(Jojotte4PRules.pack.cards)
    random.Random(5).shuffle(order)
    hands, turned, draws, info = R.deal(order, dealer=W)
    assert hands[N] == mask_of(order[0:3] + order[12:15])  # the dealer's left first, in threes
    assert hands[W] == mask_of(order[9:12] + order[21:24])
    assert turned == order[31]  # the bottom card, not the top one
    assert info == -1


def test_jj4p_bid_1_phase_one_accept_or_pass_from_the_dealers_left():
    s = fresh(dealer=W)
    assert R.current_player(s) == N
    assert violation(R, s, "E pass").rule == "JJ4P-BID-1"
    assert violation(R, s, "N name S").rule == "JJ4P-BID-1"
    s2 = run(R, s, "N pass, E pass, S pass, W pass")  # four passes: phase 2
    assert s2.node == "phase2" and R.current_player(s2) == N


def test_jj4p_bid_2_phase_two_and_the_void_hand():
    s = run(R, fresh(dealer=W), "N pass, E pass, S pass, W pass")
    assert violation(R, s, "N name H").rule == "JJ-BID-5"
    assert violation(R, s, "N accept").rule == "JJ4P-BID-2"
    void = run(R, s, "N pass, E pass, S pass, W pass")
    assert void.phase == "void" and R.score_hand(void).void
    assert R.call_after_end(void, N, "pass").rule == "JJ4P-BID-2"


def test_jj4p_bid_3_nt_by_an_opponent_double_by_an_opponent_redouble_by_the_side():
    s = run(R, fresh(dealer=W), "N accept")
    assert violation(R, s, "E pass, S nt").rule == "JJ4P-BID-3"  # the bidder's partner may not overcall
    assert violation(R, s, "E pass, S double").rule == "JJ4P-BID-3"
    assert violation(R, s, "E redouble").rule == "JJ4P-BID-3"
    s2 = run(R, s, "E double, S redouble")
    assert s2.mult == 4
    assert violation(R, s2, "W double").rule == "JJ4P-BID-3"
    s3 = run(R, s2, "W nt")  # NT by an opponent cancels the double and the redouble (OP-23)
    assert (s3.bidder, s3.denomination, s3.mult, s3.doubler) == (W, "nt", 1, -1)
    assert violation(R, s3, "N nt").rule == "JJ-BID-7"
    assert run(R, s3, "N double").mult == 2
    # OP-23 variant: no NT after a double
    r = Jojotte4PRules(Jojotte4POptions.parse("jj4p_no_nt_after_double"))
    assert violation(r, fresh(dealer=W, rules=r), "N accept, E double, S pass, W nt").rule == "JJ4P-BID-3"


def test_jj4p_bid_4_three_passes_end_the_auction_the_last_bidder_declares():
    s = run(R, fresh(dealer=W), "N pass, E accept, S pass, W pass, N nt, E pass, S pass")
    assert s.phase == "auction"
    s = run(R, s, "W pass")
    assert s.phase == "draw" and s.bidder == N and s.denomination == "nt"
    assert R.call_after_end(s, N, "double").rule == "JJ4P-BID-4"


def test_jj4p_draw_1_two_cards_each_the_dealer_takes_a_stock_card_and_the_turned_card():
    order = list(Jojotte4PRules.pack.cards)
    random.Random(9).shuffle(order)
    hands, turned, draws, info = R.deal(order, dealer=W)
    assert draws[W] >> turned & 1 and all(d.bit_count() == 2 for d in draws)
    s = run(R, deal_state(R, W, hands, turned), "N accept, E pass, S pass, W pass")
    s = R.apply(s, Action(CHANCE, "draw", cards=draws, info=-1))
    assert all(h.bit_count() == 8 for h in s.hands)
    assert sum(h.bit_count() for h in s.hands) == 32  # every card in play
    # no information card; the turned card goes to nobody but the dealer
    s0 = run(R, deal_state(R, W, hands, turned), "N accept, E pass, S pass, W pass")
    assert R.check(s0, Action(CHANCE, "draw", cards=draws, info=order[0])).rule == "JJ4P-DRAW-1"
    swapped = (draws[0] | 1 << turned, draws[1], draws[2], draws[3] & ~(1 << turned) | draws[0] & -draws[0])
    assert R.check(s0, Action(CHANCE, "draw", cards=swapped, info=-1)).rule == "JJ4P-DRAW-1"


# --- after the draw ----------------------------------------------------------------------------------

def test_jj4p_post_1_defenders_may_bid_nullo_from_the_declarers_left():
    s = after_draw("N accept, E pass, S pass, W pass")
    assert R.current_player(s) == E
    assert violation(R, s, "S nullo").rule == "JJ4P-POST-1"
    s2 = run(R, s, "E pass, W nullo, N pass, S pass")  # the Nullo binds both partners
    assert s2.denomination == "nullo" and s2.nullo_bidder == W and s2.trump == NO_TRUMP
    # not if their side doubled (OP-03)
    doubled = after_draw("N accept, E double, S pass, W pass, N pass")
    assert R.current_player(doubled) == N
    v = R.check(doubled, act("W nullo"))
    assert v.rule == "JJ4P-POST-1" and "doubled" in v.text


def test_jj4p_post_2_declarer_then_partner_may_bid_slam_which_voids_nullo():
    s = run(R, after_draw("N accept, E pass, S pass, W pass"), "E nullo")
    assert violation(R, s, "E slam").rule == "JJ4P-POST-2"
    s2 = run(R, s, "N pass, S slam")
    assert s2.slam and s2.nullo_bidder == -1 and s2.bidder == N  # the original declarer remains declarer
    assert s2.slam_by == S and s2.step == "melds"


def test_jj4p_meld_1_melds_in_turn_the_side_of_the_best_meld_scores_all():
    s = run(R, after_draw("N accept, E pass, S pass, W pass"), "E pass, W pass, N pass, S pass")
    assert R.current_player(s) == E  # from the declarer's left
    assert violation(R, s, "N melds 4K").rule == "JJ4P-MELD-1"
    s = s._replace(unknown=(8, 8, 8, 8))
    s = run(R, s, "E melds KS-JS, S melds AD-QD 4A, W melds 9C-7C, N melds QH-TH")
    melds = R.compare_melds(s)
    # class A: only S; class B: NS's best (AD-QD, top A) beats EW's best (KS-JS): NS scores both partners' sequences
    assert melds.points == (20, 0, 120, 0)
    score = R.score_hand(s._replace(phase="done", won=(2, 2, 2, 2), card_pts=(40, 40, 40, 45), last_trick=W))
    assert score.meld_points == (140, 0)


def test_jj4p_dix_1_the_holder_exchanges_with_the_dealer_before_the_second_card():
    hands = {N: "7H AS", E: "KS QS", S: "TS 9S", W: "KH 8S"}  # W dealt and took the turned KH
    s = mid_trick("H", N, hands, turned="KH")
    assert R.check(s, Action(W, "dix")).rule == "JJ4P-DIX-1"  # the dealer never exchanges
    after = R.apply(s, Action(N, "dix"))
    assert after.hands[N] >> parse_card("KH") & 1 and after.hands[W] >> parse_card("7H") & 1
    s1 = mid_trick("H", E, hands, "KS", turned="KH")  # one card played: still in time
    assert R.check(s1, Action(N, "dix")) is None
    s2 = mid_trick("H", E, hands, "KS TS", turned="KH")._replace(leader=E)
    assert R.check(s2, Action(N, "dix")).rule == "JJ4P-DIX-1"  # after the second card of trick 1
    own = s._replace(melds=((parse_meld("9H-7H"),), (), (), ()))
    assert R.check(own, Action(N, "dix")).rule == "JJ-DIX-4"  # not a seven he declared in a meld
    dealer_meld = s._replace(melds=((), (), (), (parse_meld("KH-QH"),)))
    assert R.check(dealer_meld, Action(N, "dix")).rule == "JJ4P-DIX-1"  # OP-21
    lenient = Jojotte4PRules(Jojotte4POptions.parse("jj4p_dix_ignores_dealer_meld"))
    assert lenient.check(dealer_meld, Action(N, "dix")) is None


def test_jj4p_play_1_the_dealers_left_leads_eight_tricks():
    s = run(R, after_draw("N pass, E accept, S pass, W pass, N pass"), "S pass, N pass, E pass, W pass, S pass, W pass, N pass, E pass")
    assert s.phase == "play" and s.leader == N  # W dealt
    assert R.tricks_per_hand == 8 and R.trick_size == 4
    assert R.check(s, Action(E, "play", card=parse_card("AS"))).rule == "JJ4P-PLAY-1"
    r = Jojotte4PRules(Jojotte4POptions.parse("jj4p_first_lead=declarer_left"))  # OP-22 variant
    s2 = run(r, after_draw("N pass, E accept, S pass, W pass, N pass", rules=r), "S pass, N pass, E pass, W pass, S pass, W pass, N pass, E pass")
    assert s2.leader == S


# --- Example 10.3: trick legality with four cards (JJ4P-PLAY-2) -------------------------------------------

def test_example_10_3_ruffing_a_plain_lead_no_overtrump_duty():
    hands = {E: "8H QH 7D", S: "JH 7H KC", W: "AD KD TC"}
    s = mid_trick("H", N, hands, "AS")
    assert legal_cards(s, E) == {"8H", "QH"}  # void in spades: must trump, either trump
    s = mid_trick("H", N, hands, "AS 8H")
    assert legal_cards(s, S) == {"JH", "7H"}  # default: no overtrump duty on a ruff (OP-06)
    for variant in ("overtrump_on_ruff=always", "overtrump_on_ruff=over_opponent_only"):
        r = Jojotte4PRules(Jojotte4POptions.parse(variant))
        assert legal_cards(mid_trick("H", N, hands, "AS 8H", r), S, r) == {"JH"}
        # S's 7H under E's 8H then breaks the overtrump duty of the variant: JJ-PLAY-6 is cited
        assert r.check(mid_trick("H", N, hands, "AS 8H", r), Action(S, "play", card=parse_card("7H"))).rule == "JJ-PLAY-6"
    s = mid_trick("H", N, hands, "AS 8H 7H")
    assert legal_cards(s, W) == {"AD", "KD", "TC"}  # void in spades and trumps: any card
    done = R._next_play(s, Action(W, "play", card=parse_card("AD")))
    assert done.history[-1][2] == E  # E's 8H wins


def test_example_10_3_trump_lead_beat_the_highest_trump_even_a_partners():
    hands = {E: "9H QH 7D", S: "JH 7H AC", W: "AH 8H TD"}
    assert legal_cards(mid_trick("H", N, hands, "KH"), E) == {"9H"}  # the only card beating the king
    assert legal_cards(mid_trick("H", N, hands, "KH 9H"), S) == {"JH"}
    assert legal_cards(mid_trick("H", N, hands, "KH 9H JH"), W) == {"AH", "8H"}  # cannot beat: follow with a trump
    done = R._next_play(mid_trick("H", N, hands, "KH 9H JH"), Action(W, "play", card=parse_card("8H")))
    assert done.history[-1][2] == S
    # the highest trump is the partner's: it must be beaten all the same
    s = mid_trick("H", N, {S: "JH 8H"}, "9H 7H")
    assert legal_cards(s, S) == {"JH"}
    v = R.check(s, Action(S, "play", card=parse_card("8H")))
    assert v.rule == "JJ4P-PLAY-2" and "could beat 9H" in v.text and "partner" in v.text


def test_jj4p_play_2_must_trump_even_when_the_partner_wins_and_the_variant():
    hands = {S: "JH 7H KC"}
    s = mid_trick("H", W, hands, "TS AS 7S")  # W leads, N (S's partner) wins with the ace, E follows
    assert R._to_play(s) == S
    assert legal_cards(s, S) == {"JH", "7H"}  # OP-07 default: he must trump all the same
    v = R.check(s, Action(S, "play", card=parse_card("KC")))
    assert v.rule == "JJ4P-PLAY-2" and "partner winning" in v.text
    r = Jojotte4PRules(Jojotte4POptions.parse("no_ruff_if_partner_winning"))
    assert legal_cards(mid_trick("H", W, hands, "TS AS 7S", r), S, r) == {"JH", "7H", "KC"}


# --- scoring with sides -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def partnership():
    summaries, verdicts = validate_text((EXAMPLES / "four-partners.jjt").read_text(encoding="utf-8"))
    return summaries[0], {v.number: v for v in verdicts}


def test_jj4p_nullo_1_the_nullo_side_loses_with_the_tricks_of_both_partners(partnership):
    _, hands = partnership
    v = hands[1]  # East-West's Nullo: five tricks between Eli and Wyn
    assert v.score.tricks == (3, 5)
    assert [(c.seat, c.amount, c.rule) for c in v.entry.credits if c.rule == "JJ4P-NULLO-1"] == [(0, 600, "JJ4P-NULLO-1")]
    assert v.entry.held_aside == 120
    s = v.state._replace(won=(4, 0, 4, 0))
    assert [(c.seat, c.amount) for c in R.score_hand(s).credits if c.rule == "JJ4P-NULLO-1"] == [(1, 200)]


def test_jj4p_slam_1_a_slam_side_must_win_all_eight_tricks(partnership):
    _, hands = partnership
    v = hands[3]  # E bid Slam for his partner W's contract and lost tricks
    assert v.score.tricks[1] < 8 and not [c for c in v.entry.credits if c.rule == "JJ4P-SLAM-1"]
    assert any(c.rule == "JJ-SLAM-4" and c.seat == 0 for c in v.entry.credits)
    made = v.state._replace(won=(0, 4, 0, 4), card_pts=(0, 80, 0, 85), last_trick=W)
    assert any(c.rule == "JJ4P-SLAM-1" and c.amount == 500 and c.seat == 1 for c in R.score_hand(made).credits)


def test_jj4p_score_1_two_player_scoring_with_sides(partnership):
    summary, hands = partnership
    assert summary.labels == ("NS", "EW") and summary.names == ("Nora and Sam", "Eli and Wyn")
    assert summary.seat_labels == ("N", "E", "S", "W")
    v = hands[4]  # W's redoubled NT lost to the defenders' side: 4 x 130 below for NS
    assert v.entry.below(0) == 520 and v.entry.below(1) == 0
    assert all(x.ok for x in hands.values())


def test_example_10_4_all_32_cards_are_played_so_the_sides_share_165_130_or_120():
    text = text_of("jojotte-4p", 400, seed=21)
    _, verdicts = validate_text(text)
    seen = set()
    for v in verdicts:
        if v.score is None or v.score.void:
            continue
        kind = v.state.denomination
        total = sum(v.score.trick_points)
        expected = {"suit": {165, 185}, "nt": {130}, "nullo": {120}}[kind]
        assert total in expected, (v.number, kind, total)
        assert sum(v.score.tricks) == 8
        seen.add(kind)
    assert seen == {"suit", "nt", "nullo"}


def test_jj4p_game_1_a_side_wins_a_game_at_125():
    assert Jojotte4POptions().game_target == 125 and JojotteOptions().game_target == 80
    assert R.options.game_target == 125
    _, verdicts = validate_text(text_of("jojotte-4p", 200, seed=4))
    games = [v for v in verdicts if v.entry is not None and v.entry.game_won_by >= 0]
    assert games
    for v in games:
        before = verdicts[v.number - 2].sheet.below_game if v.number > 1 else (0, 0)
        assert before[v.entry.game_won_by] + v.entry.below(v.entry.game_won_by) >= 125


# --- notation and simulation ----------------------------------------------------------------------

def test_score_lines_name_the_sides_and_round_trip():
    text = text_of("jojotte-4p", 30, seed=2)
    assert "score NS" in text or "score EW" in text
    assert write_session(read_session(text)) == text
    bad = text.replace("score NS", "score N", 1) if "score NS" in text else text.replace("score EW", "score E", 1)
    assert any(i.rule == "NOTATION" for h in read_session(bad).hands for i in h.issues)


def test_simulated_partnership_sessions_validate():
    summaries, verdicts = validate_text(text_of("jojotte-4p", 300, seed=8))
    assert len(verdicts) == 300 and not [i for v in verdicts for i in v.issues]


def test_check_and_legal_actions_agree():
    from test_jojotte3 import check_agrees_with_legal_actions

    assert check_agrees_with_legal_actions(R, 15, seed=12) > 400
    r = Jojotte4PRules(Jojotte4POptions.parse("overtrump_on_ruff=over_opponent_only; no_ruff_if_partner_winning"))
    assert check_agrees_with_legal_actions(r, 10, seed=13) > 200


def test_jj_dix_1_in_4p_the_exchange_is_judged_on_the_final_contract():
    # hearts accepted by N (turned 8H); the hands are not recorded, so anybody but the dealer W may hold 7H
    s = after_draw("N accept, E pass, S pass, W pass")
    # an exchange before the Nullo calls, then a Nullo that stands: the final contract is Nullo
    s1 = run(R, s, "N dix, E nullo, N pass")
    v = R.check(s1, act("S pass"))  # the last Slam call: the Nullo stands
    assert v is not None and v.rule == "JJ-DIX-1" and v.at == ("dix", N)
    assert R.check(s1, act("S slam")) is None  # the partner's Slam voids the Nullo (JJ4P-POST-2)
    # an exchange while a Nullo is pending, then a Slam: hearts are played, the exchange stands
    s2 = run(R, s, "E nullo")
    assert R.check(s2, act("N dix")) is None
    s3 = run(R, s2, "N dix, N slam")
    assert s3.denomination == "suit" and s3.dix == N and s3.step == "melds"
