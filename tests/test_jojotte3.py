"""Three-player Jo-Jotte (§18, ``JJ3-…``), the box-and-captain form (``JJ3-ALT-1``) and the four-player game
without partners (§20, ``JJ4S-…``): the rules core call by call, and whole records through the validator.

Seats: A = 0, B = 1, C = 2 (and D = 3 in ``jojotte-4s``), clockwise. Example 10 of §21 is hands 1–3 of
``examples/three-players.jjt`` (and hand 1 of ``examples/four-no-partners.jjt``).
"""

from __future__ import annotations

import random
from functools import partial

import pytest
from jj_helpers import action, deal_state
from jj_helpers import run as run_script
from jj_helpers import violation as script_violation

from conftest import EXAMPLES, validate_text
from jojotte_records.cards import mask_of, parse_card
from jojotte_records.notation.text import iter_records, read_session, write_session
from jojotte_records.play.simulate import simulate_session
from jojotte_records.replay.jojotte import validate_stream
from jojotte_records.rules.base import CHANCE, VARIANTS, Action, find_variant
from jojotte_records.rules.jojotte import JojotteOptions
from jojotte_records.rules.jojotte3 import Jojotte3BoxRules, Jojotte3Rules, Jojotte4SRules
from jojotte_records.rules.jojotte_sheet import ScoreSheet

A, B, C, D = 0, 1, 2, 3
SEAT = {"A": A, "B": B, "C": C, "D": D}
SUIT = {"S": 0, "H": 1, "D": 2, "C": 3}


act = partial(action, seats=SEAT)
run = partial(run_script, seats=SEAT)
violation = partial(script_violation, seats=SEAT)


def unknown_hand(rules, dealer: int, turned: str = "AC"):
    """The state after the deal, no cards recorded."""
    return deal_state(rules, dealer, (0,) * rules.seats, parse_card(turned))


def draw(rules, state, info: int = -1):
    return rules.apply(state, Action(CHANCE, "draw", cards=(0,) * rules.seats, info=info))


R3 = Jojotte3Rules()
R4S = Jojotte4SRules()
BOX = Jojotte3BoxRules()


@pytest.fixture(scope="module")
def three():
    """The verdicts of examples/three-players.jjt, by hand number."""
    _, verdicts = validate_text((EXAMPLES / "three-players.jjt").read_text(encoding="utf-8"))
    return {v.number: v for v in verdicts}


@pytest.fixture(scope="module")
def four_s():
    _, verdicts = validate_text((EXAMPLES / "four-no-partners.jjt").read_text(encoding="utf-8"))
    return {v.number: v for v in verdicts}


def credits(verdict) -> set[tuple[str, str, int, str]]:
    """(seat, line, amount, rule) of what a hand wrote on the sheet."""
    labels = "ABCD"
    return {(labels[c.seat], c.line, c.amount, c.rule) for c in verdict.entry.credits}


# --- the games are registered ------------------------------------------------------------------

def test_every_form_is_registered():
    for name, cls in (("jojotte-3", Jojotte3Rules), ("jojotte-3box", Jojotte3BoxRules), ("jojotte-4s", Jojotte4SRules)):
        assert find_variant(name) is cls and VARIANTS[name] is cls
    assert Jojotte3Rules.seat_labels == ("A", "B", "C") and Jojotte4SRules.seat_labels == ("A", "B", "C", "D")


@pytest.mark.parametrize("game", ["jojotte-3", "jojotte-3box", "jojotte-4s"])
def test_simulated_sessions_validate(game):
    header, hands = simulate_session(game, 300, seed=7, policy="uniform")
    text = _text(header, hands)
    assert write_session(read_session(text)) == text  # the simulator writes canonical text
    summaries, verdicts = validate_text(text)
    assert len(verdicts) == 300
    assert not [i for v in verdicts for i in v.issues]
    assert not summaries[0].issues


def _text(header, hands) -> str:
    import io

    from jojotte_records.notation.text import write_stream

    out = io.StringIO()
    write_stream([header, *hands], out)
    return out.getvalue()


# --- the deal and the auction (JJ3-DEAL, JJ3-BID, JJ3-DBL, JJ3-DRAW) ----------------------------

def test_jj3_deal_1_six_cards_each_from_the_dealers_left_then_the_19th_turned():
    order = list(Jojotte3Rules.pack.cards)
    random.Random(3).shuffle(order)
    hands, turned, draws, info = R3.deal(order, dealer=C)
    # three and three, clockwise from the dealer's left: A, B, C, A, B, C
    assert hands[A] == mask_of(order[0:3] + order[9:12])
    assert hands[B] == mask_of(order[3:6] + order[12:15])
    assert hands[C] == mask_of(order[6:9] + order[15:18])
    assert turned == order[18]
    assert all(d.bit_count() == 3 for d in draws) and info == order[-1]


def test_jj3_bid_1_round_one_clockwise_from_the_dealers_left():
    s = unknown_hand(R3, dealer=C)
    assert R3.current_player(s) == A
    v = violation(R3, s, "B pass")
    assert v.rule == "JJ3-BID-1" and "{p0}'s turn" in v.text
    v = violation(R3, s, "A name D")
    assert v.rule == "JJ3-BID-1"
    s = run(R3, s, "A pass, B accept")  # the first ACCEPT creates the suit contract
    assert (s.bidder, s.denomination, s.trump) == (B, "suit", 3)


def test_jj3_bid_2_round_two_name_or_nt_after_three_passes():
    s = run(R3, unknown_hand(R3, dealer=C), "A pass, B pass, C pass")
    assert s.node == "r2" and R3.current_player(s) == A
    assert violation(R3, s, "A name C").rule == "JJ-BID-5"  # not the turned suit
    assert violation(R3, s, "A accept").rule == "JJ3-BID-2"
    s2 = run(R3, s, "A pass, B nt")  # NT in round 2: no overcall, straight to the doubles
    assert (s2.bidder, s2.denomination, s2.node, R3.current_player(s2)) == (B, "nt", "dbl", C)


def test_jj3_bid_3_nt_overcall_chances_from_the_bidders_left():
    s = run(R3, unknown_hand(R3, dealer=C), "A accept")
    assert R3.current_player(s) == B  # the bidder's left first
    s_over = run(R3, s, "B pass, C nt")  # the first NT overcall makes a NT contract
    assert (s_over.bidder, s_over.denomination) == (C, "nt")
    assert violation(R3, s, "B name H").rule == "JJ-BID-7"  # a suit cannot be replaced by a suit
    assert violation(R3, s, "B double").rule == "JJ3-DBL-1"  # the NT chances come first
    # NT cannot be overcalled
    s_nt = run(R3, s, "B nt")
    assert violation(R3, s_nt, "C nt").rule == "JJ3-BID-3"
    # OP-05 variant: no NT overcall of a suit accepted in round 1
    r = Jojotte3Rules(JojotteOptions.parse("nt_overcall_round2_only"))
    s_var = run(r, unknown_hand(r, dealer=C), "A accept")
    assert s_var.node == "dbl"


def test_jj3_bid_4_all_pass_twice_the_hand_is_void():
    s = run(R3, unknown_hand(R3, dealer=C), "A pass, B pass, C pass, A pass, B pass, C pass")
    assert R3.is_terminal(s) and s.phase == "void"
    assert R3.score_hand(s).void
    assert R3.call_after_end(s, A, "accept").rule == "JJ3-BID-4"
    assert R3.next_dealer(C) == A  # the next player deals


def test_jj3_dbl_1_opponents_double_in_turn_the_first_double_ends():
    s = run(R3, unknown_hand(R3, dealer=C), "A accept, B pass, C pass")
    assert s.node == "dbl" and R3.current_player(s) == B
    assert violation(R3, s, "A double").rule == "JJ3-DBL-1"  # not the declarer
    s2 = run(R3, s, "B pass, C pass")
    assert s2.phase == "draw" and s2.mult == 1
    s3 = run(R3, s, "B pass, C double")
    assert (s3.mult, s3.doubler, s3.node) == (2, C, "side")


def test_jj3_dbl_2_the_other_opponent_declares_a_side():
    s = run(R3, unknown_hand(R3, dealer=C), "A accept, B pass, C pass, B double")
    assert R3.current_player(s) == C
    assert violation(R3, s, "B with declarer").rule == "JJ3-DBL-2"
    assert violation(R3, s, "C pass").rule == "JJ3-DBL-2"
    assert run(R3, s, "C with doubler").side == B
    assert run(R3, s, "C with declarer").side == A


def test_jj3_dbl_3_then_the_declarer_redoubles_or_passes():
    s = run(R3, unknown_hand(R3, dealer=C), "A accept, B pass, C pass, B double, C with declarer")
    assert violation(R3, s, "B redouble").rule == "JJ3-DBL-3"
    assert run(R3, s, "A redouble").mult == 4
    assert run(R3, s, "A pass").phase == "draw"


def test_jj3_draw_1_three_more_cards_and_the_information_card():
    order = list(Jojotte3Rules.pack.cards)
    hands, turned, draws, info = R3.deal(order, dealer=A)
    s = run(R3, deal_state(R3, A, hands, turned), "B accept, C pass, A pass, C pass, A pass")
    s = R3.apply(s, Action(CHANCE, "draw", cards=draws, info=info))
    assert all(h.bit_count() == 9 for h in s.hands) and s.info == order[-1]
    # OP-28 variant: no information card
    r = Jojotte3Rules(JojotteOptions.parse("jj3_no_information_card"))
    assert r.deal(order, A)[3] == -1
    s = run(r, deal_state(r, A, hands, turned), "B accept, C pass, A pass, C pass, A pass")
    assert r.check(s, Action(CHANCE, "draw", cards=draws, info=info)).rule == "JJ3-DRAW-1"


# --- the active defender, Nullo and Slam (JJ3-ACT) ---------------------------------------------------

def after_draw(script: str = "A accept, B pass, C pass, B pass, C pass"):
    return draw(R3, run(R3, unknown_hand(R3, dealer=C), script))


def test_jj3_act_1_undoubled_the_declarers_left_defends_withdraws_or_bids_nullo():
    s = after_draw()
    assert R3.current_player(s) == B
    assert {a.kind for a in R3.legal_actions(s)} == {"defend", "nullo", "withdraw"}
    assert violation(R3, s, "B pass").rule == "JJ3-ACT-1"
    assert violation(R3, s, "C defend").rule == "JJ3-ACT-1"


def test_jj3_act_2_the_declarers_right_answers():
    s = run(R3, after_draw(), "B withdraw")
    assert {a.kind for a in R3.legal_actions(s)} == {"defend", "nullo"}
    v = violation(R3, s, "C withdraw")
    assert v.rule == "JJ3-ACT-2" and "withdrew" in v.text
    s2 = run(R3, after_draw(), "B defend")
    assert {a.kind for a in R3.legal_actions(s2)} == {"withdraw", "nullo"}
    assert violation(R3, s2, "C defend").rule == "JJ3-ACT-2"
    assert run(R3, s2, "C withdraw, A pass").active == B
    s3 = run(R3, after_draw(), "B nullo")  # R makes no call: the declarer's Slam call comes next
    assert R3.current_player(s3) == A


def test_jj3_act_3_doubled_the_doubler_defends_and_the_third_may_bid_nullo():
    s = draw(R3, run(R3, unknown_hand(R3, dealer=C), "A accept, B pass, C pass, B double, C with declarer, A pass"))
    assert s.active == B and R3.current_player(s) == C
    assert {a.kind for a in R3.legal_actions(s)} == {"pass", "nullo"}
    assert violation(R3, s, "B nullo").rule == "JJ3-ACT-3"  # the doubler may not
    with_doubler = draw(R3, run(R3, unknown_hand(R3, dealer=C), "A accept, B pass, C pass, B double, C with doubler, A pass"))
    assert R3.current_player(with_doubler) == A  # no call by C
    v = violation(R3, with_doubler, "C nullo")
    assert v.rule == "JJ3-ACT-3" and "sided with the doubler" in v.text


def test_jj3_act_4_the_declarer_calls_slam_or_pass_and_slam_voids_nullo():
    s = run(R3, after_draw(), "B nullo")
    assert violation(R3, s, "C slam").rule == "JJ3-ACT-4"
    s2 = run(R3, s, "A slam")
    assert s2.slam and s2.nullo_bidder == -1 and s2.denomination == "suit"


def test_jj3_act_5_a_standing_nullo_the_bidders_left_defends_or_withdraws():
    s = run(R3, after_draw(), "B nullo, A pass")
    assert s.denomination == "nullo" and R3.current_player(s) == C  # B's left
    s2 = run(R3, s, "C withdraw")  # the Nullo bidder's other opponent must defend, without a call
    assert s2.active == A and R3.current_player(s2) == A
    assert run(R3, s, "C defend").active == C
    assert violation(R3, s, "C pass").rule == "JJ3-ACT-5"


def test_jj3_act_6_against_a_slam_the_left_chooses_again():
    s = run(R3, after_draw(), "B withdraw, C defend, A slam")
    assert R3.current_player(s) == B  # earlier withdrawals do not matter
    assert run(R3, s, "B defend").active == B
    assert run(R3, s, "B withdraw").active == C
    assert violation(R3, s, "B nullo").rule == "JJ3-ACT-6"
    doubled = draw(R3, run(R3, unknown_hand(R3, dealer=C), "A accept, B pass, C pass, B pass, C double, B with doubler, A pass"))
    assert run(R3, doubled, "A slam").active == C  # the doubler defends the Slam


def test_jj3_act_7_the_inactive_player_melds_nothing_and_plays_nothing():
    s = run(R3, after_draw(), "B defend, C withdraw, A pass")
    assert s.active == B
    v = violation(R3, s, "C melds 4K")
    assert v.rule == "JJ3-ACT-7"
    s = run(R3, s, "B pass, A pass")
    assert s.phase == "play"
    assert violation(R3, s, "C play 7C").rule == "JJ3-ACT-7"


# --- melds, dix and play (JJ3-MELD-1, JJ3-DIX-1, JJ3-PLAY-1) --------------------------------------

def example_10_1_state():
    """Example 10.1 after the auction and the draw (hand 1 of examples/three-players.jjt)."""
    record = read_session((EXAMPLES / "three-players.jjt").read_text(encoding="utf-8")).hands[0]
    first = tuple(mask_of(d) for d in record.dealt)
    drawn = tuple(mask_of(d) for d in record.drawn)
    s = deal_state(R3, record.dealer, first, record.turned)
    s = run(R3, s, "A accept, B pass, C pass, B double, C with declarer, A pass")
    return R3.apply(s, Action(CHANCE, "draw", cards=drawn, info=record.info))


def test_jj3_meld_1_melds_after_the_active_defender_is_fixed_defender_first():
    s = example_10_1_state()
    assert violation(R3, s, "B melds 4K").rule == "JJ3-MELD-1"  # before C's call and the Slam call
    s = run(R3, s, "C pass, A pass")
    assert R3.current_player(s) == B  # the active defender declares first
    assert violation(R3, s, "A melds QH-9H").rule == "JJ3-MELD-1"
    s = run(R3, s, "B melds 4K, A melds QH-9H")
    melds = R3.compare_melds(s)
    assert melds.points == (40, 100, 0)  # class A to B, class B to A (JJ-MELD)


def test_jj3_dix_1_only_the_declarer_or_the_active_defender_exchange():
    # hand 5 of the example session: B declares clubs, C doubles, A with the doubler; C holds 7C
    record = read_session((EXAMPLES / "three-players.jjt").read_text(encoding="utf-8")).hands[4]
    s = deal_state(R3, record.dealer, tuple(mask_of(d) for d in record.dealt), record.turned)
    s = run(R3, s, "B accept, C pass, A pass, C double, A with doubler, B redouble")
    s = R3.apply(s, Action(CHANCE, "draw", cards=tuple(mask_of(d) for d in record.drawn), info=record.info))
    assert R3.check(s, act("C dix")).rule == "JJ3-DIX-1"  # not before the active defender is fixed
    s = run(R3, s, "B pass")
    assert R3.check(s, act("C dix")) is None
    s = run(R3, s, "C dix")
    assert s.hands[C] >> parse_card("9C") & 1
    # the inactive player never exchanges
    s2 = run(R3, after_draw(), "B defend, C withdraw, A pass")
    assert violation(R3, s2, "C dix").rule == "JJ3-DIX-1"


def test_jj3_play_1_the_active_defender_leads_two_players_nine_tricks():
    s = run(R3, example_10_1_state(), "C pass, A pass, B melds 4K, A melds QH-9H")
    assert s.leader == B
    v = R3.check(s, act("A play JC"))
    assert v.rule == "JJ3-PLAY-1"
    s = run(R3, s, "B play QC, A play JC")
    assert s.tricks_done == 1 and s.leader == A and R3.trick_size == 2


# --- scoring: Example 10 and the rules it illustrates (JJ3-SCORE, JJ3-NULLO-1) ----------------------

def test_example_10_1_doubled_the_third_player_sided_with_the_loser(three):
    v = three[1]
    assert v.ok
    assert v.score.trick_points[:2] == (95, 45) and v.score.total[:2] == (135, 145)
    assert credits(v) == {("B", "below", 280, "JJ3-SCORE-3"), ("B", "above", 100, "JJ-MELD-12"),
                          ("A", "above", 40, "JJ-MELD-12"), ("C", "above", 40, "JJ3-SCORE-6")}


def test_example_10_2_undoubled_defence_wins_and_declarer_wins(three):
    # JJ3-SCORE-2: both defenders score C above the line, nobody below
    assert credits(three[2]) == {("C", "above", 130, "JJ3-SCORE-2"), ("A", "above", 130, "JJ3-SCORE-2")}
    # JJ3-SCORE-1: the declarer below, the active defender and the inactive player above
    assert credits(three[3]) == {("C", "below", 80, "JJ3-SCORE-1"), ("A", "above", 50, "JJ3-SCORE-1"),
                                 ("B", "above", 50, "JJ3-SCORE-1")}


def test_example_10_in_four_players_without_partners_credits_the_dealer(four_s):
    # JJ4S-3: doubled, the dealer is credited what the player who chose a side is: 40
    assert ("D", "above", 40, "JJ4S-3") in credits(four_s[1])
    assert four_s[1].entry.above(D) == 40 and four_s[1].entry.below(D) == 0


def test_jj3_score_1_declarer_below_defenders_above(three):
    v = three[3]
    assert v.entry.below(C) == 80 and v.entry.above(A) == v.entry.above(B) == 50


def test_jj3_score_2_defence_wins_above_the_line_and_the_variant():
    text = (EXAMPLES / "three-players.jjt").read_text(encoding="utf-8")
    hand2 = text[text.index("hand 2 dealer A"):text.index("hand 3 dealer B")]
    hand2 = "\n".join(x for x in hand2.splitlines() if not x.startswith("score")) + "\n"
    base = '[Game "jojotte-3"]\n[Players "Ann; Ben; Cleo"]\n[FirstDealer "A"]\n'
    _, (v,) = validate_text(base + "\n" + hand2)
    assert v.entry.below(C) == 0 and v.entry.above(C) == 130 and v.entry.above(A) == 130
    _, (v,) = validate_text(base + '[Variant "jj3_defence_win_below_line"]\n\n' + hand2)  # OP-25
    assert v.entry.below(C) == 130 and v.entry.above(A) == 130 and v.entry.above(C) == 0


def test_jj3_score_3_doubled_winner_below_and_the_ally_above(three):
    v = three[5]  # redoubled: C wins 4 x 130; A sided with C
    assert ("C", "below", 520, "JJ3-SCORE-3") in credits(v)
    assert ("A", "above", 520, "JJ3-SCORE-3") in credits(v)


def test_jj3_score_4_equal_totals_are_held_aside():
    s = example_10_1_state()
    s = run(R3, s, "C pass, A pass, B pass, A pass")
    s = s._replace(phase="done", won=(5, 4, 0), card_pts=(70, 70, 0), last_trick=A)
    score = R3.score_hand(s)
    assert score.held_aside == 2 * 140 and score.winner == -1
    assert not [c for c in score.credits if c.line == "below"]


def test_jj3_score_5_melds_slam_and_rubber_above_the_line(three):
    v = three[6]  # C's Slam made: melds 120 and the 500 bonus above, the trick score below
    assert ("C", "above", 500, "JJ-SLAM-3") in credits(v) and ("C", "above", 120, "JJ-MELD-12") in credits(v)
    assert ("C", "above", 300, "JJ-RUBBER-1") in credits(three[5])


def test_jj3_score_6_the_inactive_player_mirrors_his_sides_above_line_credits(three):
    # hand 4: Ann defends Ben's failed Nullo; Cleo, inactive, mirrors Ann's 40 meld
    assert ("C", "above", 40, "JJ3-SCORE-6") in credits(three[4])
    # OP-26 variant: only trick credits are mirrored
    r = Jojotte3Rules(JojotteOptions.parse("jj3_inactive_mirrors_tricks_only"))
    s = run(R3, example_10_1_state(), "C pass, A pass, B melds 4K, A melds QH-9H")
    s = s._replace(phase="done", won=(6, 3, 0), card_pts=(95, 45, 0), last_trick=B)
    assert ("C", "above", 40) in {("ABC"[c.seat], c.line, c.amount) for c in R3.score_hand(s).credits}
    assert not [c for c in r.score_hand(s).credits if c.seat == C]


def test_jj3_score_7_the_winner_collects_the_pool_and_the_inactive_mirrors_it(three):
    # hand 4 (a Nullo) put 55 aside; hand 5's winner, Cleo, collects it and Ann, on her side, mirrors it
    v = three[5]
    assert ("C", "above", 55, "JJ-PRIS-3") in credits(v) and ("A", "above", 55, "JJ-PRIS-3") in credits(v)
    assert three[4].score.winner == A  # in a failed Nullo, the active defender of the Nullo


def test_jj3_nullo_1_each_opponent_scores_100_plus_50_per_further_trick(three):
    v = three[4]  # Example 6 by three: three tricks
    assert ("A", "above", 200, "JJ3-NULLO-1") in credits(v) and ("C", "above", 200, "JJ3-NULLO-1") in credits(v)
    assert v.entry.held_aside == 55
    r = Jojotte3Rules(JojotteOptions.parse("jj3_nullo_penalty_full"))  # OP-27 variant
    s = v.state._replace(won=(6, 3, 0))
    assert {c.amount for c in r.score_hand(s).credits if c.rule == "JJ3-NULLO-1"} == {400}


def test_jj3_game_1_each_player_keeps_his_own_score():
    sheet = ScoreSheet.empty(3)
    assert len(Jojotte3Rules.sheet_labels) == 3
    summaries, _ = validate_text((EXAMPLES / "three-players.jjt").read_text(encoding="utf-8"))
    sheet = summaries[0].sheet
    assert sheet.games_total == (0, 1, 3) and sheet.rubbers == (0, 0, 1)
    assert JojotteOptions().game_target == 80


# --- the box and the captain (JJ3-ALT-1) -----------------------------------------------------------

def test_jj3_alt_1_box_against_captain_the_adviser_shares_the_captains_column():
    assert BOX.sheet_labels == ("A", "BC") and BOX.sheet_names(("Alice", "Bob", "Carol")) == ("Alice", "Bob and Carol")
    summaries, verdicts = validate_text((EXAMPLES / "three-players-box.jjt").read_text(encoding="utf-8"))
    assert all(v.ok for v in verdicts)
    assert summaries[0].sheet.total == (1420, 295)  # the figures of Example 9: the captain's are the adviser's too
    assert summaries[0].names == ("Alice", "Bob and Carol") and summaries[0].seat_labels == ("A", "B", "C")


def test_jj3_alt_1_the_adviser_makes_no_calls_deals_no_hand_plays_no_card():
    s = deal_state(BOX, B, (0, 0, 0), parse_card("9H"))
    v = BOX.check(s, Action(C, "pass"))
    assert v.rule == "JJ3-ALT-1"
    assert BOX.check_dealer(C).rule == "JJ3-ALT-1"  # the adviser may not deal
    # the deal's chance action may give the adviser no card (1 << 0 is a card code)
    assert BOX.check(BOX.initial_state(B), BOX.deal_action((0, 0, 1), parse_card("9H"))).rule == "JJ3-ALT-1"
    assert BOX.next_dealer(B) == A and BOX.next_dealer(A) == B
    assert BOX.options.jj3_box == "captain_and_adviser_share"


# --- four players without partners (JJ4S) -----------------------------------------------------------

def test_jj4s_1_the_dealer_takes_no_cards_and_no_calls():
    order = list(Jojotte4SRules.pack.cards)
    hands, turned, draws, info = R4S.deal(order, dealer=B)
    assert hands[B] == 0 and draws[B] == 0
    assert hands[C] == mask_of(order[0:3] + order[9:12])  # from the dealer's left: C, D, A
    s = unknown_hand(R4S, dealer=B)
    assert R4S.current_player(s) == C
    assert R4S.check(s, Action(B, "pass")).rule == "JJ4S-1"
    assert R4S.check(R4S.initial_state(B), R4S.deal_action((0, 1, 0, 0), parse_card("9H"))).rule == "JJ4S-1"
    assert [R4S.next_dealer(d) for d in (A, B, C, D)] == [B, C, D, A]  # the deal passes clockwise


def test_jj4s_2_undoubled_the_dealer_is_credited_as_the_defenders(four_s):
    assert ("A", "above", 130, "JJ4S-2") in credits(four_s[2])  # the defence wins: 130 each
    assert ("B", "above", 50, "JJ4S-2") in credits(four_s[3])  # the declarer wins: the defender's 50
    assert ("C", "above", 240, "JJ4S-2") not in credits(four_s[4])
    assert four_s[4].entry.above(C) == 240  # a failed Nullo: the penalty of each opponent, and the mirrored meld


def test_jj4s_3_doubled_the_dealer_is_credited_as_the_player_who_chose_a_side(four_s):
    v = four_s[5]  # C sided with B, the doubler, who won 4 x 130
    assert v.entry.above(D) == v.entry.above(C) == 520 + 55


def test_jj4s_4_four_scores_game_rubber_and_session_as_in_three_players():
    summaries, verdicts = validate_text((EXAMPLES / "four-no-partners.jjt").read_text(encoding="utf-8"))
    assert all(v.ok for v in verdicts)
    sheet = summaries[0].sheet
    assert len(sheet.total) == 4 and sheet.rubbers == (0, 1, 0, 0) and summaries[0].winner == B


# --- the notation of the three-player calls -----------------------------------------------------------

def test_side_and_defender_calls_are_read_and_written_canonically():
    text = ('[Game "jojotte-3"]\n[Players "Ann; Ben; Cleo"]\n[FirstDealer "C"]\n\n'
            "hand 1 dealer C\nauction a accept, b p, c pass, b x, c with Declarer, a pass\n"
            "after c PASS, a pass, b defend\n")
    session = read_session(text)
    hand = session.hands[0]
    assert [c.kind for c in hand.auction][-2:] == ["with_declarer", "pass"]
    assert "auction A accept, B pass, C pass, B double, C with declarer, A pass" in write_session(session)
    again = read_session(write_session(session))
    assert again.hands[0].auction == tuple(c._replace(line=c2.line, column=c2.column) for c, c2 in zip(hand.auction, again.hands[0].auction))
    assert read_session('[Game "jojotte-3"]\n\nhand 1 dealer C\nauction A accept, B pass, C pass, B double, C with nobody\n').hands[0].issues


def test_validate_stream_labels_sheet_columns_by_side_for_the_box():
    items = list(iter_records((EXAMPLES / "three-players-box.jjt").read_text(encoding="utf-8")))
    summary, _ = next(validate_stream(items))
    assert summary.labels == ("A", "BC")


# --- check and legal_actions agree (what the simulator offers is what the validator accepts) ------------

CALL_KINDS = ("pass", "accept", "nt", "double", "redouble", "nullo", "slam", "dix", "defend", "withdraw",
              "with_declarer", "with_doubler")


def check_agrees_with_legal_actions(rules, hands: int, seed: int) -> int:
    """Play random legal hands; at every decision every legal action passes ``check`` and every other call
    or card of any seat is refused with a sentence that formats. Returns the decisions probed."""
    rng = random.Random(seed)
    probed = 0
    for _ in range(hands):
        pack = list(rules.pack.cards)
        rng.shuffle(pack)
        dealer = rng.randrange(rules.dealing_seats)
        first, turned, draws, info = rules.deal(pack, dealer)
        s = deal_state(rules, dealer, first, turned)
        while not rules.is_terminal(s):
            if s.phase == "draw":
                s = rules.apply(s, Action(CHANCE, "draw", cards=draws, info=info))
                continue
            legal = rules.legal_actions(s)
            assert all(rules.check(s, a) is None for a in legal)
            played = {(a.seat, a.card) for a in legal if a.kind == "play"}
            for seat in range(rules.seats):
                others = [Action(seat, k) for k in CALL_KINDS] + [Action(seat, "name", suit=su) for su in range(4)]
                others += [Action(seat, "play", card=c) for c in rules.pack.cards if (seat, c) not in played]
                for a in others:
                    if a in legal:
                        continue
                    v = rules.check(s, a)
                    assert v is not None, (a, s.phase, s.node, s.step)
                    v.text.format(**{f"p{i}": "X" for i in range(rules.seats)})
            probed += 1
            s = rules.apply(s, rng.choice(legal))
    return probed


@pytest.mark.parametrize("rules", [R3, R4S, BOX], ids=["jojotte-3", "jojotte-4s", "jojotte-3box"])
def test_check_and_legal_actions_agree(rules):
    assert check_agrees_with_legal_actions(rules, 25, seed=11) > 500
