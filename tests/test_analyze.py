"""The double-dummy analyzer: the solver against brute force, costs and marks, annotations, the command."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from jojotte_records.analyze import (AnalysisError, Solver, analyze_hand, annotate_hand, parse_dd_comment,
                                     parse_point, play_start, what_if)
from jojotte_records.cards import card_name, parse_card
from jojotte_records.cli.main import app
from jojotte_records.notation import iter_records, read_session, write_hand
from jojotte_records.replay import validate_stream
from jojotte_records.rules.base import Action
from jojotte_records.rules.jojotte import PLAY, JojotteRules
from jojotte_records.rules.jojotte_cards import JOJOTTE, mask_points
from jojotte_records.simulate import simulate_session

from conftest import EXAMPLES

runner = CliRunner()
RULES = JojotteRules()


# --- brute force: full minimax over legal_actions / apply, no pruning, no table ---------------

def _trick_points(s) -> tuple[int, int]:
    return tuple(s.card_pts[i] + (JOJOTTE if s.jo[i] == 2 else 0) for i in (0, 1))


def brute_points(rules, s) -> int:
    """Trick points to come of the player to move minus the opponent's, both maximising that."""
    me = rules.current_player(s)
    before = _trick_points(s)
    best = None
    for a in rules.legal_actions(s):
        if a.kind != "play":
            continue
        n = rules.apply(s, a)
        after = _trick_points(n)
        v = (after[me] - before[me]) - (after[1 - me] - before[1 - me])
        if n.phase == PLAY:
            c = brute_points(rules, n)
            v += c if rules.current_player(n) == me else -c
        best = v if best is None else max(best, v)
    return best


def brute_tricks(rules, s) -> int:
    """Tricks to come of the player to move minus the opponent's."""
    me = rules.current_player(s)
    best = None
    for a in rules.legal_actions(s):
        if a.kind != "play":
            continue
        n = rules.apply(s, a)
        v = (n.won[me] - s.won[me]) - (n.won[1 - me] - s.won[1 - me])
        if n.phase == PLAY:
            c = brute_tricks(rules, n)
            v += c if rules.current_player(n) == me else -c
        best = v if best is None else max(best, v)
    return best


def brute_outcome(rules, s) -> int:
    """1 when the player to move can force winning the hand (score_hand), 0 equal totals, -1 not."""
    me = rules.current_player(s)
    best = None
    for a in rules.legal_actions(s):
        if a.kind != "play":
            continue
        n = rules.apply(s, a)
        if n.phase == PLAY:
            c = brute_outcome(rules, n)
            v = c if rules.current_player(n) == me else -c
        else:
            w = rules.score_hand(n).winner
            v = 0 if w < 0 else (1 if w == me else -1)
        best = v if best is None else max(best, v)
    return best


def brute_nullo(rules, s) -> int:
    """The tricks to come of the Nullo bidder, who plays to take none, against an opponent who plays to give him some."""
    nb = s.nullo_bidder
    me = rules.current_player(s)
    results = []
    for a in rules.legal_actions(s):
        if a.kind != "play":
            continue
        n = rules.apply(s, a)
        results.append(n.won[nb] - s.won[nb] + (brute_nullo(rules, n) if n.phase == PLAY else 0))
    return min(results) if me == nb else max(results)


def _verdicts(text_or_items):
    return [v for _, hands in validate_stream(text_or_items) for v in hands]


def _endings(seed: int, hands: int, variant: str = ""):
    """Positions of the last three or four tricks (some in mid-trick) of simulated hands."""
    header, stream = simulate_session(hands=hands, seed=seed, variant=variant)
    rules = JojotteRules(JojotteRules.options_class.parse(variant) if variant else None)
    rng = random.Random(seed)
    out = []
    for v in _verdicts([header, *stream]):
        if v.state is None or v.state.phase != "done":
            continue
        s = play_start(rules, v.state)
        cut = rng.choice([10, 11, 12, 13])
        plays = [p for t in v.record.tricks for p in t.plays][:cut]
        for p in plays:
            s = rules.apply(s, Action(p.seat, "play", card=p.card, announce=p.announce))
        out.append((rules, s))
    return out


ENDINGS = _endings(11, 40) + _endings(12, 25, "overtrump_on_ruff=always")


@pytest.mark.parametrize("i", range(0, len(ENDINGS)))
def test_solver_equals_brute_force(i):
    rules, s = ENDINGS[i]
    solver = Solver(rules, s)
    pos = solver.position(s)
    assert solver.search(pos) == brute_points(rules, s)
    assert solver.search(pos, count_tricks=True) == brute_tricks(rules, s)
    assert solver.outcome_search(s) == brute_outcome(rules, s)
    if s.denomination == "nullo":
        assert solver.forced_nullo_tricks(s) == brute_nullo(rules, s)


def test_endings_cover_every_contract():
    kinds = {s.denomination for _, s in ENDINGS}
    assert kinds == {"suit", "nt", "nullo"}


def test_value_is_the_best_of_the_children():
    for rules, s in ENDINGS[:20]:
        solver = Solver(rules, s)
        pos = solver.position(s)
        v = solver.search(pos)
        children = [solver.move_value(pos, mv) for mv in solver.moves(pos, reduce=False)]
        assert v == max(children)
        best_v, best = solver.best_moves(s)
        assert best_v == v and best == [mv for mv, c in zip(solver.moves(pos, reduce=False), children) if c == v]


def _jo_ending(a_cards: str, b_cards: str, leader: int, jo=(0, 0)):
    """A four-trick ending with hearts trumps, built on the state of Example 1 at its first lead."""
    verdicts = _verdicts(iter_records((EXAMPLES / "spec-rubber.jjt").read_text(encoding="utf-8"), "spec"))
    start = play_start(RULES, verdicts[0].state)
    hands = tuple(sum(1 << parse_card(c) for c in cards.split()) for cards in (a_cards, b_cards))
    return start._replace(hands=hands, leader=leader, tricks_done=5, jo=jo, card_pts=(60, 30), won=(3, 2),
                          history=start.history)


@pytest.mark.parametrize("a, b, leader, jo", [
    ("KH QH AS 7D", "JH TS 8S 8D", 0, (0, 0)),  # A holds both: Jo-Jotte still to score
    ("KH QH AS 7D", "JH TS 8S 8D", 1, (0, 0)),
    ("QH 7H AS 7D", "JH TS 8S 8D", 1, (1, 0)),  # "Jo" said with the king: the queen can still score
    ("KH 7H AS 7D", "QH TS 8S 8D", 0, (0, 0)),  # split between the players: no Jo-Jotte
])
def test_jo_jotte_endings_equal_brute_force(a, b, leader, jo):
    s = _jo_ending(a, b, leader, jo)
    solver = Solver(RULES, s)
    pos = solver.position(s)
    assert solver.search(pos) == brute_points(RULES, s)
    assert solver.outcome_search(s) == brute_outcome(RULES, s)


def test_jo_jotte_is_in_the_value():
    s = _jo_ending("KH QH AS 7D", "JH TS 8S 8D", 0)
    value = Solver(RULES, s).solve(s)
    # the principal line scores the Jo-Jotte: the points to come add up to cards + last trick + 20
    in_play = mask_points(s.hands[0] | s.hands[1], s.trump)
    assert sum(value.points) == in_play + 10 + JOJOTTE
    assert any(a.announce == "jotte" for a in value.line)


def test_solver_rejects_unknown_cards_and_other_phases():
    s = _jo_ending("KH QH AS 7D", "JH TS 8S 8D", 0)
    with pytest.raises(AnalysisError):
        Solver(RULES, s._replace(unknown=(1, 0)))
    with pytest.raises(AnalysisError):
        Solver(RULES, s._replace(phase="done"))


# --- analysis of a recorded hand -------------------------------------------------------

def _spec_verdicts():
    return _verdicts(iter_records((EXAMPLES / "spec-rubber.jjt").read_text(encoding="utf-8"), "spec-rubber.jjt"))


def test_cost_of_a_card_in_example_1():
    cards = analyze_hand(_spec_verdicts()[0], RULES)
    assert len(cards) == 18
    by_point = {(c.trick, c.card_index): c for c in cards}
    queen = by_point[(2, 1)]  # A QH jotte, into B's TH
    assert card_name(queen.card) == "QH" and queen.announce == "jotte"
    assert queen.cost == 50 and queen.mark == "mistake"
    assert (parse_card("JH"), "") in queen.best
    ace = by_point[(5, 1)]
    assert ace.cost == 10 and ace.marks == ("inaccuracy",) and ace.best == ((parse_card("8S"), ""),)
    # a best card costs nothing, and the costs add up to what the players gave away
    assert all(c.cost == 0 for c in cards if (c.card, c.announce) in c.best)
    first, last = cards[0], cards[-1]
    assert first.before - last.after == sum(c.cost if c.seat == 0 else -c.cost for c in cards)
    # the last eval is the trick-score difference of the hand as played: 110 - 40
    assert last.after == 70


def test_blunder_marks_a_change_of_the_forced_outcome():
    cards = analyze_hand(_spec_verdicts()[2], RULES)  # Example 4: totals equal as played
    blunders = [c for c in cards if "blunder" in c.marks]
    assert blunders
    for c in blunders:
        assert c.outcome_after.rank_for(c.seat, 0) < c.outcome_before.rank_for(c.seat, 0)
        assert c.mark == "blunder"
    for c in cards:
        if "mistake" in c.marks:
            assert c.cost >= 20 and "inaccuracy" in c.marks


def test_analysis_stops_before_an_illegal_card():
    text = (EXAMPLES / "disputes" / "04-void-did-not-trump.jjt").read_text(encoding="utf-8")
    v = _verdicts(iter_records(text, "d.jjt"))[0]
    assert v.first_illegal is not None
    cards = analyze_hand(v, RULES)
    assert len(cards) == (v.first_illegal.loc.trick - 1) * 2 + v.first_illegal.loc.card - 1


# --- annotations ----------------------------------------------------------------------

def test_annotation_round_trip():
    v = _spec_verdicts()[0]
    cards = analyze_hand(v, RULES)
    hand = annotate_hand(v.record, cards)
    text = '[Game "jojotte"]\n[Players "Alice; Bob"]\n[FirstDealer "B"]\n\n' + write_hand(hand, ("A", "B"))
    assert "{[%dd eval=80 cost=50 best=JH,9H,KD,QD,8S mark=mistake]}" in text
    again = read_session(text).hands[0]
    assert [p.comments for t in again.tricks for p in t.plays] == [p.comments for t in hand.tricks for p in t.plays]
    assert write_hand(again, ("A", "B")) == write_hand(hand, ("A", "B"))
    # the other comments stay, and a second analysis replaces the first
    trick1 = again.tricks[0].plays[1].comments
    assert trick1[0] == "void in clubs, must trump" and parse_dd_comment(trick1[1])["cost"] == "0"
    twice = annotate_hand(again, cards)
    assert write_hand(twice, ("A", "B")) == write_hand(hand, ("A", "B"))
    # and the annotated record still validates
    _, verdicts = zip(*validate_stream(iter_records(text, "a.jjt")))
    assert all(h.ok for hs in verdicts for h in hs)


def test_parse_point():
    assert parse_point("3.2") == (3, 2) and parse_point("4") == (4, 1)
    with pytest.raises(ValueError):
        parse_point("3.5")


# --- what-if ---------------------------------------------------------------------------

def test_what_if_library():
    v = _spec_verdicts()[0]
    r = what_if(v, RULES, 2, 1, "JH")
    assert r.score.trick_points == (140, 10) and r.score.winner == 0
    assert r.actual.trick_points == (110, 40)
    assert [card_name(a.card) for a in r.line[:3]] == ["AC", "KH", "JH"]
    with pytest.raises(AnalysisError):
        what_if(v, RULES, 2, 1, "AH")  # B holds it


def test_what_if_command():
    path = str(EXAMPLES / "spec-rubber.jjt")
    result = runner.invoke(app, ["analyze", path, "--hand", "1", "--at", "2.1", "--play", "JH"])
    assert result.exit_code == 0, result.output
    assert "Alice below 140 above 20" in result.output and "as played: Alice below 110 above 20" in result.output
    result = runner.invoke(app, ["analyze", path, "--hand", "1", "--at", "2.1", "--play", "AH"])
    assert result.exit_code == 1
    result = runner.invoke(app, ["analyze", path, "--hand", "1", "--at", "2.1", "--play", "JH", "--json"])
    doc = json.loads(result.output)
    assert doc["score"]["Alice"]["trick_points"] == 140 and doc["score"]["winner"] == "Alice"
    assert len(doc["line"]) == 18


# --- the command --------------------------------------------------------------------------

def test_analyze_json_shape():
    result = runner.invoke(app, ["analyze", str(EXAMPLES / "spec-rubber.jjt"), str(EXAMPLES / "three-players.jjt"), "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["format_version"] == 1
    assert doc["summary"]["files"] == 2 and doc["summary"]["analysed"] == 4
    hand = doc["files"][0]["sessions"][0]["hands"][0]
    assert hand["analysed"] is True and hand["reason"] is None
    assert set(hand["start"]) == {"points", "tricks", "outcome", "winner", "slam_made", "nullo_made"}
    assert hand["players"]["A"] == {"cost": 60, "inaccuracies": 2, "mistakes": 1, "blunders": 0}
    card = hand["cards"][2]
    assert set(card) == {"trick", "card", "seat", "played", "announce", "before", "after", "cost", "best",
                         "outcome_before", "outcome_after", "mark"}
    assert card["played"] == "QH" and card["cost"] == 50 and card["mark"] == "mistake"
    other = doc["files"][1]["sessions"][0]["hands"][0]
    assert other["analysed"] is False and "two-player" in other["reason"]


def test_analyze_out_writes_annotated_records(tmp_path):
    out = tmp_path / "annotated.jjt"
    result = runner.invoke(app, ["analyze", str(EXAMPLES / "spec-rubber.jjt"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "costs 50 (mistake); best JH or 9H or KD or QD or 8S" in result.output
    text = out.read_text(encoding="utf-8")
    assert text.count("[%dd ") == 72
    again = tmp_path / "again.jjt"
    assert runner.invoke(app, ["analyze", str(out), "--out", str(again)]).exit_code == 0
    assert again.read_text(encoding="utf-8") == text
    assert runner.invoke(app, ["convert", str(out), "--to", "text"]).output == text
