"""Baloot scoring (spec `baloot.md` §10–§12) and the score calculator ``jojotte baloot score``: each scoring
step, the worked examples of §14, al-kaboot, the match to 152, the scoring options of §13, the command line,
the calculator against the rules core on thousands of random hands, and the rule-ID coverage of the spec."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from test_baloot_helpers import rules
from typer.testing import CliRunner

from jojotte_records.rules.baloot import (
    GAHWA,
    BalootOptions,
    BalootRules,
    BalootSheet,
    HandSummary,
    convert,
    no_score,
    play_random_hand,
    score_summary,
    simulate_match,
)
from jojotte_records.table.baloot_calc import (
    calculate,
    parse_level,
    parse_team,
    result_json,
    result_text,
    summary_args,
    summary_of,
)

SPEC = Path(__file__).resolve().parent.parent.parent / "shared" / "rules" / "baloot.md"
TESTS = Path(__file__).resolve().parent
NS, WE = 0, 1


def H(contract="hokum", declarers=NS, level=1, points=(81, 81), projects=((), ()), baloot=-1, kaboot=-1, declared=((), ())):
    return HandSummary(contract, declarers, level, points, projects, baloot, kaboot, declared)


# --- step 2: conversion (BAL-SCORE-3/4/5) -----------------------------------------------------

@pytest.mark.parametrize("cp, g", [(84, 8), (85, 8), (86, 9), (94, 9), (95, 9), (97, 10), (0, 0), (162, 16), (5, 0), (6, 1)])
def test_bal_score_3_hokum_rounding(cp, g):
    assert convert(cp, sun=False) == g


@pytest.mark.parametrize("cp, g", [(43, 8), (45, 9), (47, 10), (85, 17), (88, 18), (130, 26), (0, 0), (50, 10), (51, 10), (56, 12)])
def test_bal_score_4_sun_rounding(cp, g):
    assert convert(cp, sun=True) == g


def test_bal_score_5_card_game_points_total_16_or_26():
    for cp in range(0, 163):
        s = score_summary(H(points=(cp, 162 - cp)))
        assert sum(s.game) == 16
    for cp in range(0, 131):
        s = score_summary(H("sun", points=(cp, 130 - cp)))
        assert sum(s.game) == 26


# --- step 1: counting team (BAL-SCORE-1/2) ----------------------------------------------------

@pytest.mark.parametrize("level, ct", [(1, WE), (2, NS), (3, WE), (4, NS), (GAHWA, WE)])
def test_bal_score_1_counting_team_by_level(level, ct):
    assert score_summary(H(level=level, points=(70, 92))).counting_team == ct


def test_opt_counting_team_always_defenders():
    o = BalootOptions.parse("counting_team=ALWAYS_DEFENDERS")
    assert score_summary(H(level=2, points=(70, 92)), o).counting_team == WE


def test_bal_score_2_last_trick_in_counting_team_points():
    r = BalootRules()
    rng = random.Random(9)
    for i in range(40):
        s, _ = play_random_hand(r, i % 4, rng)
        if s.annulled:
            continue
        score = r.hand_score(s, r.new_sheet())
        if score.counting_team >= 0:
            # the points converted are the team's trick points with the 10 of the last trick when it won it
            assert score.summary.points[score.counting_team] == s.points[score.counting_team]


# --- steps 3–5 ------------------------------------------------------------------------------

def test_bal_score_6_totals_add_projects_and_baloot():
    s = score_summary(H(points=(101, 61), projects=((), ("sira",)), baloot=WE, declarers=NS))
    assert s.totals == (10, 6 + 2 + 2)


def test_bal_score_7_higher_total_wins():
    s = score_summary(H(points=(100, 62)))
    assert s.winner == NS and s.tie_break == "" and s.delta == (10, 6)


@pytest.mark.parametrize("u, ct_wins", [(0, False), (1, None), (2, True), (3, True), (4, True), (5, True), (6, False),
                                        (7, False), (8, False), (9, False)])
def test_bal_score_8_hokum_tie_table(u, ct_wins):
    assert __import__("jojotte_records.rules.baloot", fromlist=["ct_wins_tie"]).ct_wins_tie(u, False) == ct_wins


@pytest.mark.parametrize("u, ct_wins", [(0, None), (1, True), (2, True), (3, True), (4, True), (5, None), (6, False),
                                        (7, False), (8, False), (9, False)])
def test_bal_score_9_sun_tie_table(u, ct_wins):
    assert __import__("jojotte_records.rules.baloot", fromlist=["ct_wins_tie"]).ct_wins_tie(u, True) == ct_wins


def test_bal_score_8_9_principle_rounding_loss():
    # the team that lost more card points in rounding wins a tie; equal loss: the declarers
    for sun, total, unit in ((False, 162, 10), (True, 130, 5)):
        for cp in range(total + 1):
            h = H("sun" if sun else "hokum", NS, 1, (total - cp, cp))
            s = score_summary(h)
            if s.totals[0] != s.totals[1]:
                continue
            loss_ct = cp - unit * s.game[WE]
            loss_other = total - cp - unit * s.game[NS]
            expect = NS if loss_ct == loss_other else WE if loss_ct > loss_other else NS
            assert s.winner == expect, (sun, cp)


def test_bal_score_10_declarers_win_each_keeps_own():
    s = score_summary(H(points=(110, 52), projects=((), ("sira",)), baloot=WE))
    assert s.winner == NS and s.delta == (11, 5 + 2 + 2)


def test_bal_score_11_declarers_lose_undoubled():
    s = score_summary(H(points=(40, 122), projects=(("fifty",), ()), baloot=NS))
    assert s.totals == (4 + 5 + 2, 12) and s.winner == WE and s.delta == (0, 16 + 5 + 2)
    s = score_summary(H("sun", points=(50, 80), projects=((), ("hundred",))))
    assert s.delta == (0, 26 + 20)


def test_bal_score_12_multipliers():
    for level, cards in ((2, 32), (3, 48), (4, 64)):
        s = score_summary(H(level=level, points=(150, 12) if level != 3 else (150, 12), projects=(("sira",), ()), baloot=NS))
        assert s.winner == NS and s.delta == (cards + 2 * 2 + 2, 0)
    s = score_summary(H("sun", level=2, points=(100, 30), projects=(("fifty",), ())))
    assert s.delta == (52 + 20, 0)
    full = BalootOptions.parse("project_multiplier=FULL")
    assert score_summary(H(level=3, points=(150, 12), projects=(("sira",), ())), full).delta == (48 + 3 * 2, 0)
    assert score_summary(H(level=4, points=(150, 12), projects=(("sira",), ())), full).delta == (64 + 4 * 2, 0)


def test_bal_score_13_gahwa_wins_the_match():
    s = score_summary(H(level=GAHWA, points=(100, 62)))
    assert s.match_winner == NS and s.delta == (0, 0)
    sheet = BalootSheet((10, 140)).add(s)
    assert sheet.over and sheet.winners == (NS,)  # BAL-MATCH-4


def test_bal_score_14_and_bal_match_1_to_5_sheet():
    sheet = BalootRules().new_sheet()
    assert sheet.scores == (0, 0) and not sheet.over  # BAL-MATCH-1
    sheet = sheet.add(score_summary(H(points=(100, 62))))
    assert sheet.scores == (10, 6)  # BAL-SCORE-14
    sheet = BalootSheet((150, 10)).add(score_summary(H(points=(100, 62))))
    assert sheet.over and sheet.winners == (NS,)  # BAL-MATCH-2
    both = BalootSheet((150, 160)).add(score_summary(H(points=(100, 62))))
    assert both.over and both.winners == (WE,)  # both over: the higher wins
    sheet = BalootSheet((140, 148)).add(no_score("pass"))
    assert sheet.scores == (140, 148) and not sheet.over  # BAL-MATCH-5
    with pytest.raises(ValueError):
        BalootSheet((200, 0), 3, (NS,), True).add(no_score("pass"))


def test_example_13_match_tie_plays_on():
    hand = score_summary(H(points=(120, 42)))
    assert hand.delta == (12, 4)
    sheet = BalootSheet((140, 148)).add(hand)
    assert sheet.scores == (152, 152) and not sheet.over  # BAL-MATCH-3
    sheet = sheet.add(score_summary(H(points=(100, 62))))
    assert sheet.over and sheet.winners == (NS,)


def test_opt_baloot_to_winner_false():
    o = BalootOptions.parse("baloot_to_winner=false")
    assert score_summary(H(points=(62, 100), baloot=NS)).delta == (0, 18)
    assert score_summary(H(points=(62, 100), baloot=NS), o).delta == (0, 16)
    assert score_summary(H(level=2, points=(62, 100), baloot=NS)).delta == (0, 34)
    assert score_summary(H(level=2, points=(62, 100), baloot=NS), o).delta == (0, 32)
    s = score_summary(H(level=2, points=(100, 62), baloot=WE), o)
    assert s.delta == (32, 0)


def test_opt_both_teams_count():
    o = BalootOptions.parse("both_teams_count")
    s = score_summary(H(points=(86, 76)), o)
    assert s.counting_team == -1 and s.game == (9, 8) and sum(s.game) == 17
    s = score_summary(H(points=(76, 86), declarers=NS), o)  # 8 vs 9: WE wins, undoubled: 17 to WE
    assert s.winner == WE and s.delta == (0, 17)
    tie = score_summary(H(points=(81, 81)), o)  # equal loss: the declarers
    assert tie.winner == NS and tie.tie_break == "BAL-SCORE-8" and tie.steps[-2].rule == "opt.both_teams_count"


# --- al-kaboot (BAL-KABOOT) -------------------------------------------------------------------

def test_bal_kaboot_1_2_3_base_values():
    # BAL-KABOOT-1, BAL-KABOOT-2, BAL-KABOOT-3
    for level, value in ((1, 25), (2, 50), (3, 75), (4, 100)):
        s = score_summary(H(level=level, kaboot=WE, points=(0, 162)))
        assert s.delta == (0, value) and s.winner == WE
    assert score_summary(H("sun", kaboot=NS, points=(130, 0))).delta == (44, 0)
    assert score_summary(H("sun", level=2, kaboot=NS, points=(130, 0))).delta == (88, 0)
    # BAL-KABOOT-2: the other team's projects are void
    assert score_summary(H(kaboot=NS, points=(162, 0), projects=((), ("hundred",)))).delta == (25, 0)


def test_bal_kaboot_4_projects_and_option():
    # BAL-KABOOT-4 and BAL-PROJ-13: P is the sum of the shown projects, multiplied only as the level says
    assert score_summary(H(kaboot=NS, points=(162, 0), projects=(("fifty",), ()))).delta == (30, 0)
    assert score_summary(H(level=2, kaboot=NS, points=(162, 0), projects=(("fifty",), ()))).delta == (60, 0)
    always = BalootOptions.parse("kaboot_projects=ALWAYS")
    h = H(kaboot=NS, points=(162, 0), projects=((), ("hundred",)), declared=(("sira",), ("hundred",)))
    assert score_summary(h).delta == (25, 0)
    assert score_summary(h, always).delta == (27, 0)


def test_bal_kaboot_5_baloot_and_option():
    h = H(kaboot=NS, points=(162, 0), baloot=WE)
    assert score_summary(h).delta == (27, 0)
    assert score_summary(h, BalootOptions.parse("kaboot_baloot=OWN_ONLY")).delta == (25, 0)


def test_bal_kaboot_6_gahwa():
    s = score_summary(H(level=GAHWA, kaboot=WE, points=(0, 162)))
    assert s.match_winner == WE


# --- §14 worked examples 1–9 through the calculator ------------------------------------------

def test_example_1_conversion():
    assert [convert(c, False) for c in (84, 85, 86, 94, 95, 97)] == [8, 8, 9, 9, 9, 10]
    assert [convert(c, True) for c in (43, 45, 47, 85, 88)] == [8, 9, 10, 17, 18]


def test_example_2():
    s = calculate("hokum", "NS", "1", "WE=84")
    assert s.game == (8, 8) and s.tie_break == "BAL-SCORE-8" and s.delta == (0, 16)


def test_example_3():
    s = calculate("hokum", "NS", "1", "WE=61", ["WE=sira"], baloot="WE")
    assert s.totals == (10, 10) and s.winner == NS and s.delta == (10, 10)


def test_example_4():
    s = calculate("hokum", "WE", "triple", "NS=74", ["WE=sira"], baloot="NS")
    assert s.counting_team == NS and s.game == (7, 9) and s.totals == (9, 11) and s.delta == (0, 54)


def test_example_5():
    s = calculate("hokum", "NS", "double", "NS=83")
    assert s.counting_team == NS and s.game == (8, 8) and s.delta == (32, 0)


def test_example_6():
    s = calculate("sun", "NS", "1", "WE=58", ["WE=hundred"])
    assert s.game == (14, 12) and s.totals == (14, 32) and s.delta == (0, 46)


def test_example_7():
    s = calculate("sun", "WE", "1", "NS=88", ["WE=fifty"])
    assert s.game == (18, 8) and s.totals == (18, 18) and s.tie_break == "BAL-SCORE-9" and s.delta == (18, 18)


def test_example_8():
    s = calculate("sun", "NS", "double", "NS=62")
    assert s.counting_team == NS and s.game == (12, 14) and s.delta == (0, 52)
    assert BalootSheet((112, 87)).add(s).scores == (112, 139)


def test_example_9():
    s = calculate("hokum", "NS", "double", None, ["NS=fifty"], baloot="NS", kaboot="NS")
    assert s.delta == (62, 0)


def test_calculator_refuses_impossible_totals():
    with pytest.raises(ValueError, match="BAL-DBL-9"):
        calculate("sun", "NS", "triple", "NS=62")
    with pytest.raises(ValueError, match="BAL-BALOOT-1"):
        calculate("sun", "NS", "1", "NS=62", baloot="NS")
    with pytest.raises(ValueError, match="BAL-PROJ-10"):
        calculate("hokum", "NS", "1", "NS=62", ["NS=sira", "WE=sira"])
    with pytest.raises(ValueError, match="BAL-PROJ-1"):
        calculate("hokum", "NS", "1", "NS=62", ["NS=fourhundred"])
    with pytest.raises(ValueError):
        calculate("hokum", "NS", "1", "NS=200")
    with pytest.raises(ValueError):
        calculate("hokum", "NS", "1")
    with pytest.raises(ValueError):
        parse_team("XY")
    with pytest.raises(ValueError):
        parse_level("quintuple")
    assert calculate("ashkal", "NS", "1", "NS=70").summary.contract == "sun"


def test_result_text_and_json_show_every_step():
    s = calculate("hokum", "WE", "triple", "NS=74", ["WE=sira"], baloot="NS")
    text = result_text(s)
    for needle in ("BAL-SCORE-1", "(74 + 4) // 10 = 7", "BAL-SCORE-12", "award: NS 0, WE 54"):
        assert needle in text
    data = result_json(s)
    assert data["award"] == {"NS": 0, "WE": 54} and data["counting_team"] == "NS" and data["steps"]
    assert json.loads(json.dumps(data)) == data


# --- the command line ------------------------------------------------------------------------

def test_cli_score():
    from cli.main import app

    runner = CliRunner()
    res = runner.invoke(app, ["baloot", "score", "hokum", "--declarers", "NS", "--cp", "WE=84"])
    assert res.exit_code == 0, res.output
    assert "award: NS 0, WE 16" in res.output and "BAL-SCORE-8" in res.output
    res = runner.invoke(app, ["baloot", "score", "sun", "-d", "NS", "--cp", "WE=58", "-p", "WE=hundred", "--json"])
    assert res.exit_code == 0 and json.loads(res.output)["award"] == {"NS": 0, "WE": 46}
    res = runner.invoke(app, ["baloot", "score", "hokum", "-d", "NS", "--cp", "NS=86", "--variant",
                              "counting_team=ALWAYS_DEFENDERS", "--json"])
    assert res.exit_code == 0 and json.loads(res.output)["counting_team"] == "WE"
    res = runner.invoke(app, ["baloot", "score", "hokum", "-d", "NS", "--cp", "NS=900"])
    assert res.exit_code != 0
    res = runner.invoke(app, ["baloot", "score", "--help"])
    assert res.exit_code == 0 and "Examples" in res.output


# --- the calculator and the rules core agree -------------------------------------------------

CALC_VARIANTS = ["", "", "", "both_teams_count", "counting_team=ALWAYS_DEFENDERS; project_multiplier=FULL",
                 "baloot_to_winner=false; kaboot_baloot=OWN_ONLY", "kaboot_projects=ALWAYS; baloot_in_project=MUST_DECLARE"]


def test_calculator_equals_hand_score_on_5000_random_hands():
    rng = random.Random(2026)
    seen = set()
    n = 0
    for variant in CALC_VARIANTS:
        r = rules(variant)
        for i in range(5600 // len(CALC_VARIANTS)):
            s, _ = play_random_hand(r, i % 4, rng, checked=False, sheet=(rng.choice((0, 60, 112)), rng.choice((0, 87, 130))))
            core = r.hand_score(s, r.new_sheet())
            h = r.summary(s)
            if h is None:
                assert core.delta == (0, 0)
                continue
            calc = calculate(**summary_args(h), variant=variant)
            assert calc.delta == core.delta and calc.credits == core.credits and calc.steps == core.steps, h
            assert summary_of(**summary_args(h)) == h._replace(points=h.points if h.kaboot < 0 else calc.summary.points)
            n += 1
            seen.add((h.contract, h.level, h.kaboot >= 0, h.baloot >= 0, bool(h.projects[0] or h.projects[1])))
    assert n >= 5000
    assert {("hokum", 2), ("hokum", 3), ("hokum", 4), ("hokum", GAHWA), ("sun", 1), ("sun", 2)} <= {(c, lv) for c, lv, *_ in seen}
    assert any(k for _, _, k, _, _ in seen) and any(b for *_, b, _ in seen) and any(p for *_, p in seen)


def test_simulated_matches_end():
    r = BalootRules()
    rng = random.Random(7)
    for _ in range(5):
        sheet, hands = simulate_match(r, rng)
        assert sheet.over and len(sheet.winners) == 1
        w = sheet.winners[0]
        assert sheet.scores[w] >= 152 or any(score.match_winner == w for _, score in hands)
        assert sum(score.delta[0] for _, score in hands) == sheet.scores[0]


# --- every rule ID of the spec is cited by a Baloot test --------------------------------------

def test_every_bal_rule_id_is_cited_by_a_baloot_test():
    if not SPEC.is_file():
        pytest.skip(f"the rules spec is not at {SPEC}")
    ids = list(dict.fromkeys(re.findall(r"\*\*(BAL-[A-Z]+-\d+)\*\*", SPEC.read_text(encoding="utf-8"))))
    assert len(ids) > 100
    text = ""
    for path in sorted(TESTS.glob("test_baloot*.py")):
        text += path.read_text(encoding="utf-8")
    cited = set(re.findall(r"BAL-[A-Z]+-\d+(?!\d)", text))
    cited |= {f"BAL-{f.upper()}-{n}" for f, n in re.findall(r"(?<![a-z0-9])bal_([a-z]+)_(\d+)(?!\d)", text)}
    missing = [i for i in ids if i not in cited]
    assert not missing, f"BAL rule IDs cited by no test: {', '.join(missing)}"


def test_every_option_of_section_13_is_a_field():
    if not SPEC.is_file():
        pytest.skip(f"the rules spec is not at {SPEC}")
    names = set(re.findall(r"`opt\.([a-z_0-9]+)`", SPEC.read_text(encoding="utf-8")))
    fields = set(BalootOptions.__dataclass_fields__)
    assert names and names <= fields, names - fields
