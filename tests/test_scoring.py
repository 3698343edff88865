"""Scoring (JJ-PTS, JJ-SCORE, JJ-DBL-4/5, JJ-NULLO, JJ-SLAM, JJ-PRIS) and the score sheet (JJ-GAME,
JJ-RUBBER, JJ-SESSION, JJ-INV-6/7/8): §21 Examples 1–7 and 9 replayed from examples/*.jjt or built in
text, and every §22 option that changes a score (OP-08…OP-15, OP-31, OP-32)."""

from __future__ import annotations

import pytest
from jj_helpers import EXAMPLES, H, deal_state, example_hand, full_hand, hand_score, melds, rules_with

from conftest import session, validate_text
from jojotte_records.rules.jojotte import JojotteOptions, JojotteRules
from jojotte_records.rules.jojotte_cards import NO_TRUMP
from jojotte_records.rules.jojotte_sheet import ScoreSheet

A, B = 0, 1


def one_hand(key: str, variant: str = "", replace: tuple[tuple[str, str], ...] = ()):
    """Validate one example hand alone (its own session); return its verdict (which must be clean)."""
    text, dealer = example_hand(key, 1, replace)
    _, verdicts = validate_text(session(text, first_dealer=dealer, variant=variant))
    (v,) = verdicts
    assert v.ok, [(i.rule, i.message) for i in v.issues]
    return v


def hands(*keys_and_replacements, variant: str = ""):
    """Validate several example hands as one session (the dealers must alternate)."""
    parts, first = [], None
    for n, item in enumerate(keys_and_replacements, 1):
        key, repl = (item, ()) if isinstance(item, str) else item
        text, dealer = example_hand(key, n, repl)
        first = first or dealer
        parts.append(text)
    _, verdicts = validate_text(session("\n".join(parts), first_dealer=first, variant=variant))
    for v in verdicts:
        assert v.ok, [(i.rule, i.message) for i in v.issues]
    return verdicts


def credits(score_or_entry):
    return ((score_or_entry.below(A), score_or_entry.above(A)), (score_or_entry.below(B), score_or_entry.above(B)))


# --- §21 Examples 1–7, hand by hand --------------------------------------------------------------

EXAMPLES_TABLE = [
    # key, rules, trick scores, meld points, bonuses, totals (None: not compared), ((A below, A above), (B below, B above)),
    # held aside, winner, tricks
    ("1", "JJ-SCORE-3 JJ-JOJOTTE-4 JJ-DIX-2", (110, 40), (20, 0), (0, 0), (130, 40), ((110, 20), (0, 40)), 0, A, (6, 3)),
    ("2", "JJ-SCORE-4 JJ-MELD-5", (65, 50), (0, 140), (0, 0), (65, 190), ((0, 0), (115, 140)), 0, B, (5, 4)),
    ("3-1x", "JJ-SCORE-5 JJ-DBL-5", (110, 40), (20, 0), (0, 0), (130, 40), ((300, 20), (0, 0)), 0, A, (6, 3)),
    ("3-2x", "JJ-SCORE-5", (65, 50), (0, 140), (0, 0), (65, 190), ((0, 0), (230, 140)), 0, B, (5, 4)),
    ("3-1xx", "JJ-SCORE-5 JJ-DBL-3", (110, 40), (20, 0), (0, 0), (130, 40), ((600, 20), (0, 0)), 0, A, (6, 3)),
    ("4", "JJ-SCORE-6 JJ-PRIS-1", (65, 85), (20, 0), (0, 0), (85, 85), ((0, 20), (0, 0)), 150, -1, (4, 5)),
    ("5", "JJ-NULLO-5 JJ-NULLO-6 JJ-NULLO-10", (85, 0), (20, 0), (0, 0), None, ((0, 20), (0, 200)), 85, B, (9, 0)),
    ("6", "JJ-NULLO-5 JJ-NULLO-7", (35, 20), (40, 0), (0, 0), None, ((0, 440), (0, 0)), 55, A, (6, 3)),
    ("7a", "JJ-SLAM-3 JJ-SCORE-1", (170, 0), (150, 0), (500, 0), (820, 0), ((170, 650), (0, 0)), 0, A, (9, 0)),
    ("7b", "JJ-SLAM-4 JJ-SCORE-8", (155, 15), (50, 0), (0, 0), (205, 15), ((0, 50), (0, 170)), 0, B, (8, 1)),
]


@pytest.mark.parametrize("key, rule_ids, trick, meld, bonus, total, lines, held, winner, tricks", EXAMPLES_TABLE,
                         ids=[f"example {r[0]} ({r[1]})" for r in EXAMPLES_TABLE])
def test_spec_examples_per_hand(key, rule_ids, trick, meld, bonus, total, lines, held, winner, tricks):
    """JJ-PTS-4 (trick score), JJ-SCORE-1 (totals), JJ-SCORE-2…10 as cited in the table."""
    score = one_hand(key).score
    assert score.trick_points == trick
    assert score.meld_points == meld
    assert score.bonus == bonus
    if total is not None:
        assert score.total == total
    assert credits(score) == lines
    assert score.held_aside == held
    assert score.winner == winner
    assert score.tricks == tricks


def test_examples_files_validate_with_their_written_scores():
    # every written score line of the example files agrees with the recomputed score
    for f in sorted(EXAMPLES.glob("*.jjt")):
        _, verdicts = validate_text(f.read_text(encoding="utf-8"))
        assert verdicts, f
        for v in verdicts:
            assert v.ok, (f.name, v.number, [(i.rule, i.message) for i in v.issues])


# --- JJ-PTS: trick score ---------------------------------------------------------------------------

def test_jj_pts_2_last_trick_10_in_suit_and_nt_not_in_nullo():
    ex1 = one_hand("1").state
    assert ex1.last_trick == A and ex1.history[-1][2] == A
    assert ex1.card_pts == (90, 40)  # A's 90 includes the last-trick 10 (QD + 8D = 5)
    ex2 = one_hand("2").state
    assert ex2.last_trick == B and ex2.card_pts == (65, 50)  # B's last trick: TD + 9H + 10
    ex5 = one_hand("5").state
    assert ex5.card_pts == (85, 0)  # Nullo: NT values of the 18 cards, no last-trick 10


def test_jj_pts_3_jo_jotte_counts_for_the_announcer_even_if_he_loses_the_tricks():
    # Example 4: A says Jo with KS (wins the trick) and Jotte with QS (B wins that trick with AS)
    v = one_hand("4")
    assert v.state.jo == (2, 0)
    assert v.state.card_pts == (45, 85)
    assert v.score.trick_points == (65, 85)  # JJ-PTS-4: 45 + 20


@pytest.mark.parametrize("key, played_value, jojottes", [
    ("1", 75 + 45, 1), ("2", 60 + 45, 0), ("4", 50 + 70, 1), ("7a", 95 + 45, 1), ("7b", 90 + 50, 1),
])
def test_jj_pts_6_and_jj_inv_4_combined_trick_score(key, played_value, jojottes):
    # combined trick score = value of the 18 played cards + 10 + 20 per Jo-Jotte
    score = one_hand(key).score
    assert sum(score.trick_points) == played_value + 10 + 20 * jojottes


def test_jj_pts_6_nullo_combined_trick_points_have_no_last_trick():
    assert sum(one_hand("5").score.trick_points) == 85
    assert sum(one_hand("6").score.trick_points) == 55


@pytest.mark.parametrize("result, rule", [
    ("A 6 tricks 110 points, B 3 tricks 40 points", None),  # 150 = 120 + 10 + 20 (Jo-Jotte)
    ("A 6 tricks 90 points, B 3 tricks 40 points", None),  # 130 = 120 + 10, no Jo-Jotte
    ("A 6 tricks 100 points, B 3 tricks 40 points", "JJ-INV-4"),
    ("A 6 tricks 110 points, B 2 tricks 40 points", "JJ-INV-3"),
])
def test_jj_inv_4_and_jj_inv_3_result_line_against_the_cards(result, rule):
    text, dealer = example_hand("1")
    text = "\n".join(x for x in text.splitlines() if not x.startswith("trick")) + f"\nresult {result}\n"
    _, verdicts = validate_text(session(text, first_dealer=dealer))
    found = [i.rule for i in verdicts[0].issues]
    if rule is None:
        assert found == []
    else:
        assert rule in found


# --- JJ-SCORE ----------------------------------------------------------------------------------------

def test_jj_score_1_total_excludes_the_awarded_pool():
    # Example 9, hand 4 (Example 7a) takes the 150 held aside: not part of its total (JJ-PRIS-5)
    verdicts = hands("4", "7a")
    v = verdicts[1]
    assert v.score.total == (820, 0)
    assert v.entry.above(A) == 150 + 500 + 150


def test_jj_score_2_and_5_doubled_combined_score():
    score = one_hand("3-1x").score
    c = sum(score.trick_points)
    assert c == 150
    assert score.below(A) == 2 * c
    assert score.above(B) == 0  # JJ-SCORE-5: the other player scores no trick points


def test_jj_score_7_melds_and_bonuses_always_above():
    score = one_hand("7a").score
    lines = {(c.rule, c.line) for c in score.credits}
    assert ("JJ-MELD-12", "above") in lines and ("JJ-SLAM-3", "above") in lines
    assert all(c.line == "above" for c in score.credits if c.rule in ("JJ-MELD-12", "JJ-SLAM-3", "JJ-SLAM-5"))


ALL_KEYS = [r[0] for r in EXAMPLES_TABLE]


@pytest.mark.parametrize("key", ALL_KEYS)
def test_jj_score_9_and_jj_inv_6_at_most_one_below_credit(key):
    score = one_hand(key).score
    below = [c for c in score.credits if c.line == "below" and c.amount]
    assert len(below) <= 1
    # JJ-SCORE-10: the winner is the one who scores below (when anyone does)
    if below:
        assert score.winner == below[0].seat


@pytest.mark.parametrize("key, winner", [("1", A), ("2", B), ("4", -1), ("5", B), ("6", A), ("7b", B)])
def test_jj_score_10_winner_of_a_hand(key, winner):
    # below-line scorer; defender of a failed bid Slam (7b); Nullo bonus/penalty recipient (5, 6); tie: none
    assert one_hand(key).score.winner == winner


# --- Example 3: the double and the comparison basis (JJ-DBL-4, JJ-DBL-5, OP-10) ------------------------

def finished(rules, *, declarer=A, mult=1, a_melds="", b_melds="", denomination="suit", trump=H, slam=False,
             nullo_bidder=-1):
    """A finished hand with the given melds, to be scored with explicit tricks and trick scores."""
    return deal_state(rules, 1, (0, 0), -1)._replace(
        phase="done", bidder=declarer, mult=mult, denomination=denomination,
        trump=trump if denomination == "suit" else NO_TRUMP, melds=(melds(a_melds), melds(b_melds)), slam=slam,
        nullo_bidder=nullo_bidder, tricks_done=9)


@pytest.mark.parametrize("variant, below_b, held", [("", 200, 0), ("compare_after_multiplier", 0, 200)])
def test_example_3_comparison_basis_core(variant, below_b, held):
    # doubled hand: declarer trick 60, defender trick 40 + melds 40
    rules = rules_with(variant)
    s = finished(rules, mult=2, b_melds="KD-TD")
    score = rules.score_hand(s, won=(5, 4), trick_scores=(60, 40))
    if variant:
        assert score.total == (120, 120)
    else:
        assert score.total == (60, 80)  # JJ-DBL-5: unmultiplied totals decide
    assert score.below(B) == below_b and score.below(A) == 0
    assert score.held_aside == held
    assert score.above(B) == 40  # the meld is not doubled (JJ-DBL-4)


@pytest.mark.parametrize("variant, b_line, aside", [("", "B below 200 above 40", 0),
                                                    ("compare_after_multiplier", "B above 40", 200)])
def test_example_3_comparison_basis_in_text(variant, b_line, aside):
    text = ("hand 1 dealer B\nturned 9H\nauction A accept, B double, A pass\n"
            "after B melds KD-TD, A pass, A pass\nresult A 5 tricks 60 points, B 4 tricks 40 points\n"
            f"score {b_line}, aside {aside}\n")
    _, verdicts = validate_text(session(text, variant=variant))
    v = verdicts[0]
    assert v.ok, [(i.rule, i.message) for i in v.issues]
    assert v.score.held_aside == aside


def test_jj_dbl_4_double_multiplies_trick_scores_only():
    # Example 3: A's meld 20 stays 20; the rubber bonus won in the redoubled hand stays 300
    verdicts = hands("3-1x", "3-2x", "3-1xx")
    assert verdicts[0].entry.above(A) == 20
    assert verdicts[1].entry.above(B) == 140
    assert verdicts[2].entry.rubber_won_by == A
    assert verdicts[2].entry.above(A) == 20 + 300


# --- OP-08 … OP-15: options that change the score ------------------------------------------------------

@pytest.mark.parametrize("variant, a_lines, total", [
    ("", (110, 20), (130, 40)),
    ("jojotte_above_line", (90, 40), (130, 40)),  # Jo-Jotte 20 above, still part of A's total
])
def test_op_08_jojotte_above_line_example_1(variant, a_lines, total):
    score = one_hand("1", variant).score
    assert (score.below(A), score.above(A)) == a_lines
    assert score.above(B) == 40
    assert score.total == total


def test_op_08_jojotte_above_line_doubled_is_not_multiplied():
    score = one_hand("3-1x", "jojotte_above_line").score
    assert score.below(A) == 2 * (90 + 40)
    assert score.above(A) == 20 + 20


def test_op_08_jojotte_above_line_stays_in_the_total_example_4():
    # Example 4 under variant.jojotte_above_line: Jo-Jotte is "not multiplied; still part of the total":
    # A 45 + 20 (Jo-Jotte) + 20 (meld) = 85 against B 85: still a tie; C = 45 + 85 = 130 held aside
    score = one_hand("4", "jojotte_above_line").score
    assert score.total == (85, 85)
    assert score.winner == -1
    assert score.held_aside == 130
    assert score.below(B) == 0
    assert score.above(A) == 20 + 20


@pytest.mark.parametrize("key, variant, below_a", [
    ("3-1x", "", 300),
    ("3-1x", "multiply_card_points_only", 2 * 120 + 10 + 20),  # last trick and Jo-Jotte at face value
    ("3-1xx", "", 600),
    ("3-1xx", "multiply_card_points_only", 4 * 120 + 10 + 20),
])
def test_op_09_multiply_card_points_only(key, variant, below_a):
    assert one_hand(key, variant).score.below(A) == below_a


def test_op_09_undoubled_hand_unchanged():
    assert credits(one_hand("1", "multiply_card_points_only").score) == ((110, 20), (0, 40))


@pytest.mark.parametrize("key, variant, seat, above", [
    ("3-1x", "", A, 20), ("3-1x", "multiply_melds", A, 40),
    ("3-2x", "", B, 140), ("3-2x", "multiply_melds", B, 280),
    ("1", "multiply_melds", A, 20),  # undoubled: m = 1
])
def test_op_11_multiply_melds(key, variant, seat, above):
    assert one_hand(key, variant).score.above(seat) == above


EX7A_DOUBLED = (("A name H, B pass", "A name H, B double, A pass"),)


@pytest.mark.parametrize("variant, above_a", [("", 150 + 500), ("multiply_slam_bonus", 150 + 1000)])
def test_op_11_multiply_slam_bonus_and_jj_slam_6(variant, above_a):
    score = one_hand("7a", variant, EX7A_DOUBLED).score
    assert score.below(A) == 2 * 170
    assert score.above(A) == above_a


EX4_DOUBLED = (("B name S, A pass", "B name S, A double, B pass"),)
EX7B_DOUBLED = (("A name H, B pass", "A name H, B double, A pass"),)


@pytest.mark.parametrize("variant, held", [("", 2 * 150), ("multiplier_only_below_line", 150)])
def test_op_12_doubled_tie_held_aside(variant, held):
    score = one_hand("4", variant, EX4_DOUBLED).score
    assert score.total == (85, 85) and score.winner == -1
    assert score.held_aside == held


@pytest.mark.parametrize("variant, above_b", [("", 2 * 170), ("multiplier_only_below_line", 170)])
def test_op_12_doubled_failed_slam_award(variant, above_b):
    score = one_hand("7b", variant, EX7B_DOUBLED).score
    assert score.above(B) == above_b and score.below(B) == 0


@pytest.mark.parametrize("variant, a_lines", [("", (170, 150 + 500 + 150 + 300)),
                                              ("prisoners_below_line", (170 + 150, 150 + 500 + 300))])
def test_op_13_prisoners_below_line(variant, a_lines):
    # Example 9, hand 4: A takes the 150 held aside in hand 3
    verdicts = validate_text((EXAMPLES / "spec-rubber.jjt").read_text(encoding="utf-8").replace(
        '[Rubbers "1"]', f'[Rubbers "1"]\n[Variant "{variant}"]' if variant else '[Rubbers "1"]'))[1]
    entry = verdicts[3].entry
    assert (entry.below(A), entry.above(A)) == a_lines
    assert entry.rubber_won_by == A


@pytest.mark.parametrize("variant, b_above_2, pool_2, b_above_3", [
    ("", 200 + 55, 85, 170 + 85),  # the Nullo winner takes the pool (JJ-PRIS-4); its own 85 start a new one
    ("prisoners_skip_nullo", 200, 55 + 85, 170 + 140),  # the pool passes over the Nullo hand
])
def test_op_14_prisoners_and_nullo(variant, b_above_2, pool_2, b_above_3):
    verdicts = hands("6", "5", "7b", variant=variant)
    assert verdicts[0].entry.pool_after == 55
    assert verdicts[1].entry.above(B) == b_above_2
    assert verdicts[1].entry.pool_after == pool_2
    assert verdicts[2].entry.above(B) == b_above_3
    assert verdicts[2].entry.pool_after == 0


@pytest.mark.parametrize("variant, below, held_winner", [("", (130, 0), A), ("bonuses_in_total=false", (0, 130), B)])
def test_op_15_bonuses_in_total(variant, below, held_winner):
    # unbid Slam by A (trick score 130, bonus 100) against B's melds 140 (four kings, K-Q-J-T)
    rules = rules_with(variant)
    score = rules.score_hand(finished(rules, b_melds="4K KD-TD"), won=(9, 0), trick_scores=(130, 0))
    assert (score.below(A), score.below(B)) == below
    assert score.winner == held_winner
    assert score.above(A) == 100  # the bonus itself is scored either way (JJ-SLAM-5)


def test_op_15_default_is_bonuses_in_total():
    assert JojotteOptions().bonuses_in_total is True
    assert JojotteOptions.parse("bonuses_in_total=false").bonuses_in_total is False


# --- JJ-SLAM ----------------------------------------------------------------------------------------

def test_jj_slam_5_unbid_slam_by_the_declarer():
    score = one_hand("7a", replace=(("A slam", "A pass"),)).score
    assert score.bonus == (100, 0)
    assert score.total == (170 + 150 + 100, 0)
    assert credits(score) == ((170, 150 + 100), (0, 0))


def test_jj_slam_5_unbid_slam_by_the_defender():
    rules = JojotteRules()
    score = rules.score_hand(finished(rules), won=(0, 9), trick_scores=(0, 140))
    assert score.bonus == (0, 100)
    assert credits(score) == ((0, 0), (140, 100))


def test_jj_slam_4_failed_slam_defender_total_higher_scores_below():
    rules = JojotteRules()
    s = finished(rules, slam=True, b_melds="4K")
    score = rules.score_hand(s, won=(8, 1), trick_scores=(100, 50))
    assert score.total == (100, 150)
    assert credits(score) == ((0, 0), (150, 100))
    assert score.bonus == (0, 0) and score.held_aside == 0


def test_jj_slam_4_failed_slam_equal_totals_not_held_aside():
    rules = JojotteRules()
    score = rules.score_hand(finished(rules, slam=True, b_melds="4K"), won=(8, 1), trick_scores=(120, 20))
    assert score.total == (120, 120)
    assert score.held_aside == 0 and score.winner == B
    assert credits(score) == ((0, 0), (0, 140 + 100))  # C = 140 above, and B's meld 100


# --- JJ-NULLO ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("n, penalty", [(1, 200), (2, 300), (3, 400), (4, 500), (5, 600), (6, 700), (7, 800),
                                        (8, 900), (9, 1000)])
def test_jj_nullo_7_penalty_table(n, penalty):
    rules = JojotteRules()
    s = finished(rules, declarer=A, denomination="nullo", nullo_bidder=B)
    score = rules.score_hand(s, won=(9 - n, n), trick_scores=(60, 25))
    assert credits(score) == ((0, penalty), (0, 0))
    assert score.winner == A  # JJ-NULLO-11
    assert score.held_aside == 85  # JJ-NULLO-5


def test_jj_nullo_6_and_12_nullo_made_nothing_below():
    score = one_hand("5").score
    assert all(c.line == "above" for c in score.credits)
    assert score.above(B) == 200


def test_jj_nullo_8_nullo_after_a_double_is_undoubled():
    # OP-03 variant: B doubled A's spades and still bids Nullo; the Nullo hand is undoubled (JJ-NULLO-4)
    v = one_hand("6", "nullo_after_double", (("A name S, B pass", "A name S, B double, A pass"),))
    assert v.state.mult == 1
    assert v.score.held_aside == 55
    assert v.score.above(A) == 40 + 400


@pytest.mark.parametrize("variant, a_above", [("", 440), ("melds_in_nullo=false", 400)])
def test_op_02_melds_in_nullo(variant, a_above):
    # JJ-NULLO-9: melds score in a Nullo by default
    assert one_hand("6", variant).score.above(A) == a_above


def test_jj_nullo_12_nullo_never_ends_a_game():
    sheet = ScoreSheet.empty(2)
    o = JojotteOptions()
    sheet, _ = sheet.add(hand_score(below={A: 70}), o)
    sheet, entry = sheet.add(one_hand("6").score, o)
    assert entry.game_won_by == -1 and sheet.below_game == (70, 0)


# --- held-aside points (JJ-PRIS) and pool conservation (JJ-INV-7) ------------------------------------------

def test_jj_pris_2_pool_accumulates_and_jj_inv_7_conservation():
    verdicts = hands("6", "4", "3-2x")  # dealers A, B, A
    pool = 0
    for v in verdicts:
        awarded = sum(c.amount for c in v.entry.credits if c.rule == "JJ-PRIS-3")
        assert v.entry.pool_after == pool + v.entry.held_aside - awarded
        pool = v.entry.pool_after
    assert [v.entry.pool_after for v in verdicts] == [55, 205, 0]
    # JJ-PRIS-3: the whole pool goes above the line to the winner of hand 3 (B)
    assert verdicts[2].entry.above(B) == 140 + 205
    # JJ-PRIS-5: not doubled again although hand 3 is doubled
    assert verdicts[2].entry.below(B) == 230


def test_jj_pris_3_nullo_winner_takes_the_pool_then_its_points_start_a_new_one():
    verdicts = hands("6", "5")
    entry = verdicts[1].entry
    assert [c.amount for c in entry.credits if c.rule == "JJ-PRIS-3"] == [55]
    assert entry.pool_after == 85


def test_jj_pris_4_tie_and_void_do_not_take_the_pool():
    o = JojotteOptions()
    sheet = ScoreSheet.empty(2)
    sheet, _ = sheet.add(hand_score(held=150), o)  # a tie
    sheet, e = sheet.add(hand_score(held=60), o)  # another tie: 210
    assert e.pool_after == 210 and not any(c.rule == "JJ-PRIS-3" for c in e.credits)
    sheet, e = sheet.add(hand_score(void=True), o)
    assert e.pool_after == 210 and e.credits == ()
    sheet, e = sheet.add(hand_score(above={B: 200}, held=30, winner=B, nullo=True), o)  # a Nullo has a winner
    assert e.above(B) == 200 + 210 and e.pool_after == 30


def test_jj_pris_6_open_pool_lapses_at_session_end():
    ex4, _ = example_hand("4")
    ex1, _ = example_hand("1")
    text = session(ex4) + "\n" + session(ex1)
    summaries, verdicts = validate_text(text)
    assert summaries[0].sheet.pool == 150
    assert summaries[0].sheet.total == (20, 0)  # the 150 belong to nobody
    assert verdicts[1].entry.above(A) == 20  # a new session does not inherit the pool


# --- the sheet: games, rubbers, session (JJ-GAME, JJ-RUBBER, JJ-SESSION, JJ-INV-8) ----------------------------

@pytest.mark.parametrize("amounts, game_after", [
    ([79], -1), ([80], 0), ([40, 39], -1), ([40, 40], 1), ([50, 30], 1),
])
def test_jj_game_1_eighty_below_wins_a_game(amounts, game_after):
    o = JojotteOptions()
    sheet, entry = ScoreSheet.empty(2), None
    for n, amt in enumerate(amounts):
        sheet, entry = sheet.add(hand_score(below={A: amt}), o)
        if n < len(amounts) - 1:
            assert entry.game_won_by == -1
    assert entry.game_won_by == (A if game_after >= 0 else -1)


def test_jj_game_2_checked_after_each_hand():
    o = JojotteOptions()
    sheet = ScoreSheet.empty(2)
    sheet, e1 = sheet.add(hand_score(below={A: 70}), o)
    sheet, e2 = sheet.add(hand_score(below={B: 75}), o)
    sheet, e3 = sheet.add(hand_score(below={B: 5}), o)
    assert (e1.game_won_by, e2.game_won_by, e3.game_won_by) == (-1, -1, B)
    assert sheet.games == (0, 1)


def test_jj_game_3_new_game_from_zero_above_kept():
    o = JojotteOptions()
    sheet = ScoreSheet.empty(2)
    sheet, _ = sheet.add(hand_score(below={A: 50}, above={B: 30}), o)
    sheet, e = sheet.add(hand_score(below={B: 90}, above={A: 20}), o)
    assert e.game_won_by == B
    assert sheet.below_game == (0, 0)
    assert sheet.above == (20, 30) and sheet.below == (50, 90)
    sheet, e = sheet.add(hand_score(below={A: 30}), o)
    assert e.game_won_by == -1  # A's 50 part-score did not carry over


def test_op_31_carry_partscore():
    o = JojotteOptions.parse("carry_partscore")
    sheet = ScoreSheet.empty(2)
    sheet, _ = sheet.add(hand_score(below={A: 50}), o)
    sheet, e = sheet.add(hand_score(below={B: 90}), o)
    assert e.game_won_by == B and sheet.below_game == (50, 0)
    sheet, e = sheet.add(hand_score(below={A: 30}), o)
    assert e.game_won_by == A


def test_jj_rubber_1_second_game_wins_rubber_with_300():
    o = JojotteOptions()
    sheet = ScoreSheet.empty(2)
    sheet, e = sheet.add(hand_score(below={A: 80}), o)
    assert e.rubber_won_by == -1 and sheet.games == (1, 0)
    sheet, e = sheet.add(hand_score(below={B: 100}), o)
    assert e.rubber_won_by == -1 and sheet.games == (1, 1)
    sheet, e = sheet.add(hand_score(below={A: 120}), o)
    assert e.game_won_by == A and e.rubber_won_by == A
    assert [c.amount for c in e.credits if c.rule == "JJ-RUBBER-1"] == [300]
    assert sheet.rubbers == (1, 0) and sheet.games == (0, 0)  # the rubber ends at once
    # JJ-RUBBER-2: rubber score = above + below of that rubber
    assert sheet.rubber_results == ((A, (80 + 120 + 300, 100)),)


def test_jj_inv_8_game_only_on_a_below_credit():
    o = JojotteOptions()
    sheet = ScoreSheet.empty(2)
    sheet, e = sheet.add(hand_score(above={A: 1000}, winner=A), o)
    assert e.game_won_by == -1 and sheet.games == (0, 0)
    sheet, e = sheet.add(hand_score(below={A: 80}), o)
    assert e.game_won_by == A and e.rubber_won_by == -1  # one game is not a rubber


def test_example_9_rubber():
    """§21 Example 9: JJ-GAME-1/3, JJ-PRIS-3, JJ-RUBBER-1/2 on Examples 1, 2, 4 and 7a."""
    summaries, verdicts = validate_text((EXAMPLES / "spec-rubber.jjt").read_text(encoding="utf-8"))
    rows = [(credits(v.entry), v.entry.game_won_by, v.entry.rubber_won_by, v.entry.pool_after) for v in verdicts]
    assert rows == [
        (((110, 20), (0, 40)), A, -1, 0),
        (((0, 0), (115, 140)), B, -1, 0),
        (((0, 20), (0, 0)), -1, -1, 150),
        (((170, 150 + 500 + 150 + 300), (0, 0)), A, A, 0),
    ]
    sheet = summaries[0].sheet
    assert sheet.rubber_results == ((A, (1420, 295)),)
    assert sheet.above == (1140, 180) and sheet.below == (280, 115)
    margin = sheet.rubber_results[0][1][A] - sheet.rubber_results[0][1][B]
    assert margin == 1125
    assert summaries[0].winner == A  # JJ-SESSION-1


def _rubber(sheet, o, winner, loser_above=0, winner_below=80):
    sheet, _ = sheet.add(hand_score(below={winner: winner_below}, above={1 - winner: loser_above}), o)
    sheet, e = sheet.add(hand_score(below={winner: winner_below}), o)
    assert e.rubber_won_by == winner
    return sheet


@pytest.mark.parametrize("variant, winner", [("", A), ("session_by_points", B)])
def test_jj_session_1_and_op_32_session_winner(variant, winner):
    # A wins two small rubbers; B wins one with a huge score above the line
    o = JojotteOptions.parse(variant) if variant else JojotteOptions()
    sheet = ScoreSheet.empty(2)
    sheet = _rubber(sheet, o, A)
    sheet = _rubber(sheet, o, B, loser_above=0, winner_below=800)
    sheet = _rubber(sheet, o, A)
    assert sheet.rubbers == (2, 1)
    assert sheet.total[B] > sheet.total[A]
    assert sheet.session_winner(o) == winner


def test_jj_session_1_hand_after_the_agreed_rubbers_is_flagged():
    # doubles.jjt agrees one rubber, finished in hand 3; a fourth hand is played after the session's end
    text = (EXAMPLES / "doubles.jjt").read_text(encoding="utf-8")
    text += "\nhand 4 dealer A\nturned KD\nauction B pass, A pass, B pass, A pass\n"
    summaries, verdicts = validate_text(text)
    assert [v.ok for v in verdicts[:3]] == [True, True, True]
    assert any(i.rule == "JJ-SESSION-1" for i in verdicts[3].issues)
    assert summaries[0].sheet.rubbers == (1, 0) and summaries[0].winner == A


# --- §0.1: a hand with an irregularity goes on the sheet with the figures written at the table -----------------

def test_spec_0_1_an_illegal_hand_goes_on_the_sheet_with_its_written_figures():
    # Example 1 with A discarding AS on B's club lead although he could trump (JJ-PLAY-5); the written score
    # (A below 110 above 20, B above 40) is what the sheet takes, and the next hand is checked against it
    bad, dealer = example_hand("1", replace=(("trick 1: B AC, A KH jo", "trick 1: B AC, A AS"),), keep_score=True)
    _, verdicts = validate_text(session(bad, first_dealer=dealer))
    [v] = verdicts
    assert v.first_illegal is not None and v.first_illegal.rule == "JJ-PLAY-5"
    assert v.score is None and v.used_written_score
    assert (v.sheet.below, v.sheet.above) == ((110, 0), (20, 40))
    # without a written score the hand adds nothing to the sheet
    bare, _ = example_hand("1", replace=(("trick 1: B AC, A KH jo", "trick 1: B AC, A AS"),))
    _, [v] = validate_text(session(bare, first_dealer=dealer))
    assert not v.used_written_score and (v.sheet.below, v.sheet.above) == ((0, 0), (0, 0))


def test_jj_slam_4_no_slam_bonus_for_a_defender_who_takes_all_nine_tricks():
    # JJ-SLAM-4 (and OP-36): a failed bid Slam gives no Slam bonus to either player, not even the JJ-SLAM-5
    # bonus of 100 to a defender who wins every trick. A bid hearts (EX1 deal) and Slam; B takes all nine.
    rules = JojotteRules()
    s = full_hand(rules, a9="JH KH QH 7H AS TS 8S KD QD", b9="AH TH 8H AC TC KC 9D 8D 7D", turned="9H", info="8C",
                  dealer="B", auction="A accept, B pass", after="B pass, A slam, A pass")
    done = s._replace(phase="done", won=(0, 9), card_pts=(0, 162), last_trick=1)
    score = rules.score_hand(done)
    assert score.bonus == (0, 0)
    assert not any(c.rule in ("JJ-SLAM-3", "JJ-SLAM-5") for c in score.credits)
    # the defender's total is higher: he scores m x C = 1 x (0 + 162) below the line; the declarer nothing
    assert [(c.seat, c.line, c.amount, c.rule) for c in score.credits] == [(1, "below", 162, "JJ-SLAM-4")]
    # without the Slam bid the same nine tricks are an unbid Slam: 100 above (JJ-SLAM-5), for contrast
    unbid = rules.score_hand(done._replace(slam=False))
    assert unbid.bonus == (0, 100)
