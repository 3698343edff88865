"""The double-dummy analyzer: the solver against brute force, costs and marks, annotations, the command."""

from __future__ import annotations

import json
import random

import pytest
from jojotte_records.cli.main import app
from typer.testing import CliRunner

from conftest import EXAMPLES
from jojotte_records.analyze.jojotte import AnalysisError, Solver, analyze_hand, annotate_hand, parse_point, play_start, what_if
from jojotte_records.cards import card_name, parse_card
from jojotte_records.notation.dd_comment import parse_dd_comment
from jojotte_records.notation.text import iter_records, read_session, write_hand
from jojotte_records.play.simulate import simulate_session
from jojotte_records.replay.jojotte import validate_stream
from jojotte_records.rules.base import Action
from jojotte_records.rules.jojotte import PLAY, JojotteRules
from jojotte_records.rules.jojotte_cards import JOJOTTE, mask_points

runner = CliRunner()
RULES = JojotteRules()


# --- brute force: full minimax over legal_actions / apply, no pruning, no table ---------------

def _trick_points(s) -> tuple[int, int]:
    return tuple(s.card_pts[i] + (JOJOTTE if s.jo[i] == 2 else 0) for i in (0, 1))


def _brute_difference(rules, s, measure) -> int:
    """What the player to move gains minus what the opponent gains from here on, ``measure(state)`` giving each
    player's total so far; both maximise that difference."""
    me = rules.current_player(s)
    before = measure(s)
    best = None
    for a in rules.legal_actions(s):
        if a.kind != "play":
            continue
        n = rules.apply(s, a)
        after = measure(n)
        v = (after[me] - before[me]) - (after[1 - me] - before[1 - me])
        if n.phase == PLAY:
            c = _brute_difference(rules, n, measure)
            v += c if rules.current_player(n) == me else -c
        best = v if best is None else max(best, v)
    return best


def brute_points(rules, s) -> int:
    """Trick points to come of the player to move minus the opponent's, both maximising that."""
    return _brute_difference(rules, s, _trick_points)


def brute_tricks(rules, s) -> int:
    """Tricks to come of the player to move minus the opponent's."""
    return _brute_difference(rules, s, lambda x: x.won)


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
    header, stream = simulate_session(hands=hands, seed=seed, variant=variant, policy="uniform")
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


def _holds_window(v: int, true: int, alpha: int, beta: int) -> bool:
    """A fail-soft alpha-beta answer: exact inside the window, else a bound on the side it failed, between the
    window's edge and the true value."""
    if alpha < true < beta:
        return v == true
    if true <= alpha:
        return true <= v <= alpha
    return beta <= v <= true


@pytest.mark.parametrize("i", range(0, len(ENDINGS), 3))
def test_both_searches_of_the_one_loop_hold_their_windows(i):
    """The points and the outcome searches share one alpha-beta loop (`Solver._ab`) and one solver's tables across
    windows: each null or narrow window around the brute-force value gives a bound on the right side of it."""
    rules, s = ENDINGS[i]
    solver = Solver(rules, s)
    pos = solver.position(s)
    points, outcome = brute_points(rules, s), brute_outcome(rules, s)
    for alpha, beta in ((points - 1, points), (points, points + 1), (points - 11, points - 10), (points + 10, points + 11),
                        (points - 5, points + 5)):
        assert _holds_window(solver.search(pos, alpha, beta), points, alpha, beta), (alpha, beta)
    for alpha, beta in ((-2, -1), (-1, 0), (0, 1), (1, 2), (-1, 1), (-2, 2)):
        assert _holds_window(solver.outcome_search(s, alpha, beta), outcome, alpha, beta), (alpha, beta)


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
            assert c.cost >= 20 and c.marks == ("mistake",)


def test_a_card_has_one_mark_the_worst_that_applies():
    # docs/notation.md: ``mark`` is one of inaccuracy (costs points), mistake (20 or more) and blunder (changes the
    # forced outcome) -- one mark a card, the worst applying, as a chess board's ?! / ? / ??
    from jojotte_records.analyze.jojotte import analyze_verdict, hand_json

    queen = {(c.trick, c.card_index): c for c in analyze_hand(_spec_verdicts()[0], RULES)}[(2, 1)]
    assert queen.cost == 50 and queen.marks == ("mistake",)  # 50 >= 20: a mistake, not also an inaccuracy
    for v in _spec_verdicts():
        h = analyze_verdict(v, RULES)
        for c in h.cards:
            worse = c.outcome_after.rank_for(c.seat, v.state.bidder) < c.outcome_before.rank_for(c.seat, v.state.bidder)
            want = ("blunder",) if worse else ("mistake",) if c.cost >= 20 else ("inaccuracy",) if c.cost > 0 else ()
            assert c.marks == want, (c.trick, c.card_index, c.cost, c.marks)
        # the counts of the JSON add up to the cards marked, each card counted once
        players = hand_json(h, ("A", "B"))["players"]
        counted = sum(p["inaccuracies"] + p["mistakes"] + p["blunders"] for p in players.values())
        assert counted == sum(1 for c in h.cards if c.marks)


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
    assert "{[%dd eval=80 cost=50 best=JH,9H,KD,QD,8S mark=mistake alts=" in text
    # alts: every legal card Alice had and the value after it: the best cards keep the value before (80 + 50), the
    # played QH with its Jotte is the eval (80), the same QH without the word loses the Jotte's 20 (JJ-PTS-3)
    queen = next(c for c in cards if c.cost == 50)
    alts = {card_name(c) + (f"+{w}" if w else ""): v for c, w, v in queen.alts}
    assert all(alts[b] == 130 for b in ("JH", "9H", "KD", "QD", "8S"))
    assert alts["QH+jotte"] == 80 and alts["QH"] == 60
    assert all(v < 130 for k, v in alts.items() if k not in ("JH", "9H", "KD", "QD", "8S"))
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


def test_two_player_nullo_alts_are_each_legal_cards_minimax():
    """The alts of a Nullo's cards (issue 17) over its last four tricks: for every legal card, the Nullo's score (A's
    minus B's, above and below the line) with the tricks its bidder takes after that card, the tricks found by a plain
    minimax in which the bidder plays to take none and the opponent to give him some (`brute_nullo`)."""
    header, stream = simulate_session(hands=40, seed=11, policy="uniform")
    checked = 0
    for v in _verdicts([header, *stream]):
        if v.state is None or v.state.phase != "done" or v.state.denomination != "nullo":
            continue
        cards = analyze_hand(v, RULES)
        s = play_start(RULES, v.state)
        nb = s.nullo_bidder
        for c in cards:
            if sum(h.bit_count() for h in s.hands) <= 8:
                want = {}
                for a in RULES.legal_actions(s):
                    if a.kind == "play":
                        n = RULES.apply(s, a)
                        taken = n.won[nb] + (brute_nullo(RULES, n) if n.phase == PLAY else 0)
                        won = [0, 0]
                        won[nb], won[1 - nb] = taken, RULES.tricks_per_hand - taken
                        sc = RULES.score_hand(n._replace(phase="done", won=tuple(won)))
                        want[(a.card, (a.announce or "").lower())] = sc.above(0) + sc.below(0) - sc.above(1) - sc.below(1)
                assert {(x, w): val for x, w, val in c.alts} == want
                checked += 1
            s = RULES.apply(s, Action(c.seat, "play", card=c.card, announce=c.announce))
    assert checked >= 10


def test_two_player_alts_are_each_legal_cards_minimax():
    """Issue 17, the analysis board: the alts of each card of simulated two-player hands over their last four tricks
    (8 cards) are, for every legal card, the whole-hand trick-score difference A minus B after it: what is taken so
    far plus a plain minimax of the rest (`brute_points`, from the next mover's side)."""
    header, stream = simulate_session(hands=12, seed=5, policy="uniform")
    checked = 0
    for v in _verdicts([header, *stream]):
        if v.state is None or v.state.phase != "done" or v.state.denomination == "nullo":
            continue
        cards = analyze_hand(v, RULES)
        s = play_start(RULES, v.state)
        for c in cards:
            if sum(h.bit_count() for h in s.hands) <= 8:
                want = {}
                for a in RULES.legal_actions(s):
                    if a.kind == "play":
                        n = RULES.apply(s, a)
                        tp = _trick_points(n)
                        rest = 0
                        if n.phase == PLAY:
                            rest = brute_points(RULES, n) * (1 if RULES.current_player(n) == 0 else -1)
                        want[(a.card, (a.announce or "").lower())] = tp[0] - tp[1] + rest
                assert {(x, w): val for x, w, val in c.alts} == want
                checked += 1
            s = RULES.apply(s, Action(c.seat, "play", card=c.card, announce=c.announce))
    assert checked >= 40


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
    result = runner.invoke(app, ["analyze", str(EXAMPLES / "spec-rubber.jjt"), str(EXAMPLES / "pitch-game.jjt"), "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["format_version"] == 1
    # the 4 hands of the spec's rubber and, since issue 17, the 8 hands of the Pitch game (from the first lead)
    assert doc["summary"]["files"] == 2 and doc["summary"]["analysed"] == 4 + 8
    hand = doc["files"][0]["sessions"][0]["hands"][0]
    assert hand["analysed"] is True and hand["reason"] is None
    assert set(hand["start"]) == {"points", "tricks", "outcome", "winner", "slam_made", "nullo_made"}
    # A's two costly cards (test_cost_of_a_card_in_example_1): QH jotte 50, a mistake, and AS 10, an inaccuracy
    assert hand["players"]["A"] == {"cost": 60, "inaccuracies": 1, "mistakes": 1, "blunders": 0}
    assert hand["sides"] == ["A", "B"]
    card = hand["cards"][2]
    assert set(card) == {"trick", "card", "seat", "played", "announce", "before", "after", "cost", "best",
                         "outcome_before", "outcome_after", "mark"}
    assert card["played"] == "QH" and card["cost"] == 50 and card["mark"] == "mistake"
    other = doc["files"][1]["sessions"][0]["hands"][0]
    assert other["analysed"] is True and other["from"] == "from the first lead" and other["team"] in ("NS", "EW")
    assert 0 <= other["points"] and all(c["cost"] >= 0 for c in other["cards"])


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


# --- the archive: a column per play ----------------------------------------------------------

def test_archive_stores_the_analysis_of_each_play(tmp_path):
    from jojotte_records.archive.store import import_paths, run_sql
    from jojotte_records.notation.dd_comment import dd_fields

    assert dd_fields(("void", "[%dd eval=-10 cost=15 best=KS,QS+jo mark=mistake]")) == (-10, 15, "KS,QS+jo", "mistake", None)
    assert dd_fields(("[%dd eval=5 cost=0 best=AS vs=A-C]",)) == (5, 0, "AS", None, "A-C")
    assert dd_fields(("just a remark",)) is None
    annotated = tmp_path / "annotated.jjt"
    assert runner.invoke(app, ["analyze", str(EXAMPLES / "spec-rubber.jjt"), "--out", str(annotated)]).exit_code == 0
    db = tmp_path / "a.duckdb"
    list(import_paths(db, [str(annotated), str(EXAMPLES / "doubles.jjt")]))
    rows = run_sql(db, "SELECT p.trick_no, p.pos, c.card, p.dd_eval, p.dd_cost, p.dd_best, p.dd_mark FROM plays p "
                       "JOIN cards c USING (card_id) JOIN sessions s USING (session_id) "
                       "WHERE s.source LIKE '%annotated.jjt' AND p.hand_seq = 1 ORDER BY p.ply").rows
    assert len(rows) == 18 and all(r[4] is not None for r in rows)
    # Example 1, trick 2: A's QH (jotte) gives away 50 (test_cost_of_a_card_in_example_1)
    assert rows[2] == (2, 1, "QH", 80, 50, "JH,9H,KD,QD,8S", "mistake")
    assert rows[-1][3] == 70  # the trick-score difference of the hand as played
    assert [(r[2], r[4], r[6]) for r in rows if r[6] is not None] == [("QH", 50, "mistake"), ("AS", 10, "inaccuracy")]
    # a record without analysis: NULL
    plain = run_sql(db, "SELECT count(*), count(dd_cost) FROM plays JOIN sessions USING (session_id) "
                        "WHERE source LIKE '%doubles.jjt'").rows
    assert plain[0][0] > 0 and plain[0][1] == 0
    assert run_sql(db, "SELECT count(dd_vs) FROM plays").rows == [(0,)]  # two players: A minus B


# --- the report: the hand page shows the analysis -----------------------------------------------

def test_report_shows_the_analysis_of_an_annotated_record(tmp_path):
    from jojotte_records.report.site import build_site

    annotated = tmp_path / "annotated.jjt"
    assert runner.invoke(app, ["analyze", str(EXAMPLES / "spec-rubber.jjt"), "--out", str(annotated)]).exit_code == 0
    build_site([str(annotated)], tmp_path / "site")
    [page] = (tmp_path / "site" / "sessions").glob("*/hands-0001.html")
    html = page.read_text(encoding="utf-8")
    hand1 = html.split('id="hand-1"', 1)[1].split('id="hand-2"', 1)[0]
    assert '<section class="analysis" id="h1-analysis">' in hand1 and "starts from the first lead" in hand1
    # the card: its mark, cost and best cards, and not the raw comment
    assert ('<span class="dd dd-mistake" title="double-dummy: forced value after the card 80"><strong>mistake</strong>, '
            'cost 50; best JH 9H KD QD 8S</span>') in hand1
    assert "[%dd" not in html
    assert "void in clubs, must trump" in hand1  # the record's other comments stay
    # the line: the value before the first card (130) and after each of the 18
    line = hand1.split('<polyline points="', 1)[1].split('"', 1)[0].split()
    assert len(line) == 19
    figures = hand1.split('<tr><th>value after</th>', 1)[1].split("</tr>", 1)[0]
    assert figures.count("<td") == 18 and '<td class="num dd-mistake">80</td>' in figures
    assert "gave away 60 (1 mistake, 1 inaccuracy)" in hand1
    # a record without analysis has no such section
    build_site([str(EXAMPLES / "spec-rubber.jjt")], tmp_path / "plain")
    [plain] = (tmp_path / "plain" / "sessions").glob("*/hands-0001.html")
    assert 'class="analysis"' not in plain.read_text(encoding="utf-8")


# --- validate --restore --------------------------------------------------------------------------

def _dispute(name: str):
    text = (EXAMPLES / "disputes" / name).read_text(encoding="utf-8")
    return _verdicts(iter_records(text, name))[0]


def test_restore_plays_the_best_legal_card_instead_of_the_illegal_one():
    from jojotte_records.analyze.jojotte import restore

    # Example 1 with trick 1 spoiled: Alice, void in clubs, discarded 8S instead of trumping Bob's AC
    r = restore(_dispute("04-void-did-not-trump.jjt"), RULES)
    assert (r.trick, r.card_index, r.seat, r.offender, card_name(r.played)) == (1, 2, 0, 0, "8S")
    assert [(card_name(c), w) for c, w in r.best] == [("KH", "jo")]
    # ruffing with the king (and saying Jo) gives the line of Example 1 at its best: 140 to 10 (test_what_if_library)
    assert card_name(r.restored.line[1].card) == "KH" and r.restored.line[1].announce == "jo"
    assert r.restored.score.trick_points == (140, 10) and r.restored.score.winner == 0
    # the restored line is best play from the point: its trick scores are the solver's value there
    s = play_start(RULES, _dispute("04-void-did-not-trump.jjt").state)
    s = RULES.apply(s, Action(1, "play", card=parse_card("AC")))
    assert Solver(RULES, s).diff(s) == 140 - 10
    assert "had Alice played KH jo instead of 8S" in r.text(("Alice", "Bob"))


def test_restore_out_of_turn_and_not_a_card():
    from jojotte_records.analyze.jojotte import restore

    r = restore(_dispute("06-wrong-leader.jjt"), RULES)
    assert r.offender != r.seat and "out of turn" in r.text(("Claire", "Daniel"))
    with pytest.raises(AnalysisError, match="not a card"):
        restore(_dispute("08-nt-in-round-1.jjt"), RULES)
    with pytest.raises(AnalysisError, match="no illegal event"):
        restore(_spec_verdicts()[0], RULES)


def test_validate_restore_command():
    path = str(EXAMPLES / "disputes" / "04-void-did-not-trump.jjt")
    result = runner.invoke(app, ["validate", path, "--restore"])
    assert result.exit_code == 1
    assert ("hand 1: restore: trick 1, card 2: had Alice played KH jo instead of 8S (best play afterwards): "
            "Alice below 140 above 20 (trick score 140), Bob above 10 (trick score 10); Alice wins the hand") in result.output
    assert "hand 1: restore: as written: Alice below 105 above 20, Bob above 45" in result.output
    doc = json.loads(runner.invoke(app, ["validate", path, "--restore", "--json"]).output)
    [item] = doc["restorations"]
    assert item["restored"]["best"] == ["KH jo"] and item["restored"]["score"]["Alice"]["below"] == 140
    assert item["as_written"] == {"Alice": {"below": 105, "above": 20}, "Bob": {"below": 0, "above": 45}}
    # without --restore nothing of it
    assert "restore" not in runner.invoke(app, ["validate", path]).output


# --- three-player forms: the declarer and the active defender ---------------------------------------

def _form_verdicts(name: str):
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    out = []
    for summary, hands in validate_stream(iter_records(text, name)):
        from jojotte_records.analyze.jojotte import rules_for

        out.extend((rules_for(summary.header), v) for v in hands)
    return out


@pytest.mark.parametrize("name", ["three-players.jjt", "four-no-partners.jjt", "three-players-box.jjt"])
def test_the_two_player_view_has_the_legal_plays_of_the_form(name):
    from jojotte_records.analyze.jojotte import two_player_form

    checked = 0
    for rules, v in _form_verdicts(name):
        if v.state is None or v.state.phase not in ("play", "done") or not v.ok:
            continue
        core, view, seats = two_player_form(rules, v)
        form_state = v.state
        # the record's cards, replayed in the two-player view from its first lead: each legal there
        start = play_start(core, view.state)
        vs = start
        plays = [p for t in view.record.tricks for p in t.plays]
        # the form's own state at the first lead, its players' hands rebuilt from its tricks
        fs = form_state
        if len(seats) == 2 and len(fs.hands) > 2:
            hands = list(fs.hands)
            for lead, cards, _ in fs.history:
                other = seats[1] if lead == seats[0] else seats[0]
                for seat, c in zip((lead, other), cards):
                    hands[seat] |= 1 << c
            zero = (0,) * len(fs.hands)
            fs = fs._replace(phase="play", hands=tuple(hands), trick=(), leader=fs.history[0][0], tricks_done=0, won=zero,
                             card_pts=zero, last_trick=-1, jo=zero, history=())
        else:
            fs = None
        for p in plays:
            legal = {(a.card, a.announce) for a in core.legal_actions(vs) if a.kind == "play"}
            assert (p.card, p.announce) in legal
            if fs is not None:  # the same legal cards and words in the form, for the same player
                seat = seats[p.seat]
                assert rules.current_player(fs) == seat
                assert {(a.card, a.announce) for a in rules.legal_actions(fs) if a.kind == "play"} == legal
                fs = rules.apply(fs, Action(seat, "play", card=p.card, announce=p.announce))
            vs = core.apply(vs, Action(p.seat, "play", card=p.card, announce=p.announce))
            checked += 1
        # the view's hand ends as the form's: the same tricks and trick points for the two players
        assert vs.won == tuple(form_state.won[s] for s in seats)
        assert vs.card_pts == tuple(form_state.card_pts[s] for s in seats)
        assert core.score_hand(vs).winner in (-1, 0, 1)
        w = rules.score_hand(form_state).winner
        assert w == (seats[core.score_hand(vs).winner] if core.score_hand(vs).winner >= 0 else -1)
    assert checked > 0


def test_three_player_hands_are_analysed_for_the_declarer_and_the_active_defender(tmp_path):
    from jojotte_records.analyze.jojotte import analyze_verdict

    for rules, v in _form_verdicts("three-players.jjt"):
        h = analyze_verdict(v, rules)
        if v.state is None or v.state.phase not in ("play", "done"):
            assert h.reason is not None
            continue
        assert h.reason is None, h.reason
        x, y = rules.pair(v.state)
        assert h.seats == (x, y)
        # every card of the two players is judged, in the view's seats; the costs add up
        assert len(h.cards) == sum(len(t.plays) for t in v.record.tricks)
        assert h.cards[0].before - h.cards[-1].after == sum(c.cost if c.seat == 0 else -c.cost for c in h.cards)
        comments = [c for t in h.record.tricks for p in t.plays for c in p.comments if c.startswith("[%dd")]
        assert comments and all(f" vs={rules.seat_labels[x]}-{rules.seat_labels[y]} alts=" in c for c in comments)
    out = tmp_path / "three.jjt"
    result = runner.invoke(app, ["analyze", str(EXAMPLES / "three-players.jjt"), "--out", str(out), "--json"])
    doc = json.loads(result.output)
    hands = doc["files"][0]["sessions"][0]["hands"]
    assert all(h["analysed"] for h in hands) and all(len(h["sides"]) == 2 for h in hands)
    assert set(hands[0]["players"]) == set(hands[0]["sides"])
    # the annotated record still validates, and reads back the same
    again = tmp_path / "again.jjt"
    assert runner.invoke(app, ["analyze", str(out), "--out", str(again)]).exit_code == 0
    assert again.read_text(encoding="utf-8") == out.read_text(encoding="utf-8")
    assert runner.invoke(app, ["validate", str(out)]).exit_code == runner.invoke(
        app, ["validate", str(EXAMPLES / "three-players.jjt")]).exit_code
    # the report says whose value the line is: the declarer's (or Nullo bidder's) minus the active defender's
    from jojotte_records.report.site import build_site

    build_site([str(out)], tmp_path / "site")
    html = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "site" / "sessions").glob("*/hands-*.html"))
    names = doc["files"][0]["sessions"][0]["players"]
    for h in hands:
        a, b = (names[s] for s in h["sides"])
        assert f"by both, {a} minus {b}:" in html
    # and the archive keeps whose value each eval is
    from jojotte_records.archive.store import import_paths, run_sql

    list(import_paths(tmp_path / "a.duckdb", [str(out)]))
    rows = run_sql(tmp_path / "a.duckdb", "SELECT hand_seq, min(dd_vs), max(dd_vs), count(*), count(dd_eval) FROM plays "
                                          "GROUP BY hand_seq ORDER BY hand_seq").rows
    assert [(r[1], r[3]) for r in rows] == [("-".join(h["sides"]), r[4]) for h, r in zip(hands, rows)]
    assert all(r[1] == r[2] for r in rows)


# --- the outcome from the points (thresholds probed on score_hand) -------------------------------------

def test_outcome_by_points_equals_the_outcome_search():
    kinds = set()
    for rules, s in ENDINGS:
        solver = Solver(rules, s)
        v = solver.outcome_by_points(s)
        assert v is not None
        assert v == solver.outcome_search(s) == brute_outcome(rules, s)
        kinds.add(len(solver.thresholds()) == 2 and solver.thresholds()[0] or s.denomination)
    assert kinds >= {"suit", "nt", "nullo", "slam"}
    # whole hands, from the first lead and after each card, in every contract of a simulated session
    header, hands = simulate_session(hands=12, seed=5, policy="uniform")
    for v in _verdicts([header, *hands]):
        if v.state is None or v.state.phase != "done":
            continue
        s = play_start(RULES, v.state)
        solver = Solver(RULES, s)
        for p in [p for t in v.record.tricks for p in t.plays][:6]:
            assert solver.outcome_by_points(s) == solver.outcome_search(s)
            s = RULES.apply(s, Action(p.seat, "play", card=p.card, announce=p.announce))


def test_thresholds_of_example_1():
    s = play_start(RULES, _spec_verdicts()[0].state)
    tot, t_a, t_b, all_a, all_b = Solver(RULES, s).thresholds()
    # hearts, A the declarer with a 20-point sequence: 162 points in play; A wins with more than B's total
    assert tot == mask_points(s.hands[0] | s.hands[1], s.trump) + 10
    assert (t_a, t_b) == (-10, -30) and all_a == {0} and all_b == {1}


def test_restore_in_three_player_forms_and_a_folder_of_disputes():
    from jojotte_records.analyze.jojotte import restore

    [(rules, v)] = _form_verdicts("disputes/44-3p-inactive-plays.jjt")
    r = restore(v, rules)
    names = ("Ann", "Ben", "Cleo")
    pair = rules.pair(v.state)
    assert r.offender not in pair and r.seat in pair
    assert "Ann played 9C out of turn; had Ben played TC" in r.text(names)
    # the restored hand is scored by the three-player game, in its three columns (JJ3-SCORE), not the two players'
    doc = r.as_json(names)
    assert set(doc["score"]) == set(names) | {"winner", "held_aside"}
    s, (_, y), inactive = r.restored.score, pair, rules.inactive(v.state)
    assert len(s.total) == 3 and s.trick_points[inactive] == 0
    # undoubled, the inactive player is credited above the line whatever the active defender is (JJ3-SCORE-6)
    assert v.state.mult == 1 and s.above(inactive) == s.below(y) + s.above(y) > 0
    assert all(c.line == "above" and c.why.startswith("as the active defender") for c in s.credits if c.seat == inactive)
    # every dispute of the folder whose illegal event is a card is restored, in every game (issue 17)
    result = runner.invoke(app, ["validate", str(EXAMPLES / "disputes"), "--restore", "--json"])
    assert result.exit_code == 1
    items = json.loads(result.output)["restorations"]
    done = {i["source"].rsplit("/", 1)[1] for i in items if i["restored"]}
    assert {"04-void-did-not-trump.jjt", "44-3p-inactive-plays.jjt", "58-box-adviser-plays.jjt"} <= done
    assert all("not a card" in i["reason"] for i in items if not i["restored"])
    # the card faults of four players in partnerships, Baloot and Pitch (their messages name a card or a lead)
    assert {"65-4p-wrong-leader.jjt", "68-4p-partner-trump-not-beaten.jjt", "69-4p-no-ruff-partner-winning.jjt",
            "b05-baloot-trump-led-in-locked-hand.jjt", "b06-baloot-ekka-higher-card-out.jjt", "b08-baloot-revoke.jjt",
            "b09-baloot-trump-not-beaten.jjt", "b10-baloot-third-hand-did-not-trump.jjt",
            "b14-baloot-baloot-with-first-card.jjt", "p06-pitch-dead-card-played.jjt",
            "p07-pitch-wrong-leader-when-winner-is-out.jjt"} <= done


# --- four players in partnerships: the last tricks, exactly -------------------------------------------

def _partnership_endings(cards_left: int, seed: int = 3, policy: str = "uniform"):
    """Positions of four-player hands (the example and simulated ones) with ``cards_left`` cards to play."""
    from jojotte_records.analyze.jojotte import _partnership_start, rules_for

    out = []
    items = list(iter_records((EXAMPLES / "four-partners.jjt").read_text(encoding="utf-8"), "4p"))
    try:
        header, hands = simulate_session(hands=6, seed=seed, game="jojotte-4p", policy=policy)
        items += [header, *hands]
    except TypeError:  # a simulator without other games
        pass
    for summary, verdicts in validate_stream(items):
        rules = rules_for(summary.header)
        for v in verdicts:
            if v.state is None or v.state.phase != "done" or not v.ok:
                continue
            s = _partnership_start(rules, v.state)
            for p in [p for t in v.record.tricks for p in t.plays]:
                if sum(h.bit_count() for h in s.hands) == cards_left:
                    break
                s = rules.apply(s, Action(p.seat, "play", card=p.card, announce=p.announce))
            out.append((rules, s))
    return out


def _brute_sides(rules, s) -> int:
    """North-South's trick score to come minus East-West's, each side playing for it (no pruning, no table)."""
    def score(x):
        return sum((cp + (JOJOTTE if jo == 2 else 0)) * (1 if seat % 2 == 0 else -1)
                   for seat, (cp, jo) in enumerate(zip(x.card_pts, x.jo)))

    values = []
    for a in rules.legal_actions(s):
        if a.kind == "play":
            n = rules.apply(s, a)
            values.append(score(n) - score(s) + (_brute_sides(rules, n) if n.phase == PLAY else 0))
    return max(values) if rules.current_player(s) % 2 == 0 else min(values)


def test_partnership_endgame_equals_brute_force():
    from jojotte_records.analyze.solver import JojotteSidesView, Solver

    endings = [(rules, s) for rules, s in _partnership_endings(8) if s.denomination != "nullo"]
    assert len(endings) >= 4
    for rules, s in endings:
        view = JojotteSidesView(rules, s)
        eg = Solver(view)
        assert eg.rest(s) == _brute_sides(rules, s)
        # the value is the best of the children, for the side to move
        kids = []
        for a in rules.legal_actions(s):
            if a.kind == "play":
                n = rules.advance(s, a)
                kids.append(view.score(n) - view.score(s) + eg.rest(n))
        assert eg.rest(s) == (max(kids) if rules.current_player(s) % 2 == 0 else min(kids))


def test_a_four_player_analysis_starts_from_the_minimax_value_of_its_first_position():
    """The first analysed position's value is the best of its cards' values (not solved on its own): on hands analysed
    from 8 cards left, every card's value before it is what is taken so far plus a plain minimax of the rest
    (`_brute_sides`), for North-South's and East-West's first cards alike, and the first card's its own."""
    from jojotte_records.analyze.jojotte import _partnership_start, analyze_partnership, rules_for

    def score(x):
        return sum((cp + (JOJOTTE if jo == 2 else 0)) * (1 if seat % 2 == 0 else -1)
                   for seat, (cp, jo) in enumerate(zip(x.card_pts, x.jo)))

    header, hands = simulate_session(hands=8, seed=3, game="jojotte-4p", policy="uniform")
    items = list(iter_records((EXAMPLES / "four-partners.jjt").read_text(encoding="utf-8"), "4p")) + [header, *hands]
    firsts = set()
    for summary, verdicts in validate_stream(items):
        rules = rules_for(summary.header)
        for v in verdicts:
            if v.state is None or v.state.phase != "done" or not v.ok or v.state.denomination == "nullo":
                continue
            judged, _ = analyze_partnership(v, rules, 8)
            s = _partnership_start(rules, v.state)
            plays = [p for t in v.record.tricks for p in t.plays]
            for p in plays[:-8]:
                s = rules.apply(s, Action(p.seat, "play", card=p.card, announce=p.announce))
            assert len(judged) == 8
            for c, p in zip(judged, plays[-8:]):
                assert c.before == score(s) + _brute_sides(rules, s)
                s = rules.apply(s, Action(p.seat, "play", card=p.card, announce=p.announce))
            firsts.add(judged[0].seat % 2)
    assert firsts == {0, 1}


def test_four_player_hands_are_analysed_from_24_cards(tmp_path):
    out = tmp_path / "4p.jjt"
    result = runner.invoke(app, ["analyze", str(EXAMPLES / "four-partners.jjt"), "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    hands = json.loads(result.output)["files"][0]["sessions"][0]["hands"]
    nullo = hands[0]  # hand 1: East-West's Nullo, failed with five tricks: 200 + 4 x 100 to North-South
    assert nullo["cards"][-1]["after"] == (200 + 4 * 100) - 40  # the Nullo's score as played: NS 600, EW 40 (melds)
    for h in hands:
        assert h["analysed"] and h["from"] == "from trick 3, card 1 (24 cards left)"
        assert h["sides"] == ["N and S", "E and W"] and len(h["cards"]) == 24
        cards = h["cards"]
        assert cards[0]["before"] - cards[-1]["after"] == sum(c["cost"] if c["seat"] in ("N", "S") else -c["cost"]
                                                              for c in cards)
        played = [c["played"] + (f" {c['announce']}" if c["announce"] else "") for c in cards]
        assert all(c["cost"] >= 0 for c in cards)
        assert all((c["cost"] == 0) == (p in c["best"]) for c, p in zip(cards, played))
    text = out.read_text(encoding="utf-8")
    assert text.count(" vs=N+S-E+W") == 4 * 24
    assert runner.invoke(app, ["validate", str(out)]).exit_code == 0
    from jojotte_records.report.site import build_site

    build_site([str(out)], tmp_path / "site")
    html = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "site" / "sessions").glob("*/hands-*.html"))
    assert html.count("The analysis starts from trick 3, card 1") == 4
    assert "by both, Nora and Sam minus Eli and Wyn:" in html


# --- a hand-checked Nullo ending -----------------------------------------------------------------------

@pytest.mark.parametrize("a, leader, tricks", [
    ("7S 7H 7D 7C", 1, 0),  # under every card of B's: the Nullo cannot be defeated, whoever leads
    ("7S 7H 7D 7C", 0, 0),
    ("7S 7H 7D 9C", 1, 1),  # B leads his 8C and the 9C must take it; then A ducks everything
    ("7S 7H 7D 9C", 0, 1),  # A ducks a spade, B then leads clubs
])
def test_a_nullo_that_cannot_be_defeated(a, leader, tricks):
    s = _jo_ending(a, "8S 8H 8D 8C", leader)
    s = s._replace(denomination="nullo", trump=-1, nullo_bidder=0, won=(0, 5), card_pts=(0, 90))
    solver = Solver(RULES, s)
    assert solver.forced_nullo_tricks(s) == tricks == brute_nullo(RULES, s)
    oc = solver.outcome(s)
    assert oc.nullo_made is (tricks == 0) and oc.winner == (0 if tricks == 0 else 1)
    assert solver.outcome_by_points(s) == solver.outcome_search(s) == brute_outcome(RULES, s)


def test_outcome_with_a_cap_equals_the_full_search():
    """The search of the outcome after a card, told the most it can be worth (the value before it)."""
    checked = 0
    for rules, s in ENDINGS[:30]:
        solver = Solver(rules, s)
        solver.outcome_by_points = lambda state: None  # the search itself, not the thresholds
        mover = rules.current_player(s)
        v = solver.outcome_search(s)
        for a in rules.legal_actions(s):
            c = rules.apply(s, a)
            if a.kind != "play" or c.phase != PLAY:
                continue
            full = Solver(rules, c)
            full.outcome_by_points = lambda state: None
            assert solver.outcome(c, (mover, v)).winner == full.outcome(c).winner
            checked += 1
    assert checked > 50


def _brute_nullo_sides(rules, s) -> int:
    """The tricks still to come of the Nullo side, which plays to take none, against the other side."""
    side = s.nullo_bidder % 2
    values = []
    for a in rules.legal_actions(s):
        if a.kind == "play":
            n = rules.apply(s, a)
            got = sum(w for seat, w in enumerate(n.won) if seat % 2 == side) - \
                sum(w for seat, w in enumerate(s.won) if seat % 2 == side)
            values.append(got + (_brute_nullo_sides(rules, n) if n.phase == PLAY else 0))
    return min(values) if rules.current_player(s) % 2 == side else max(values)


def test_partnership_nullo_endgame_equals_brute_force():
    from jojotte_records.analyze.solver import JojotteSidesView, Solver

    checked = 0
    for rules, s in _partnership_endings(8):
        if s.denomination != "nullo":
            continue
        side = s.nullo_bidder % 2

        v = Solver(JojotteSidesView(rules, s)).rest(s)  # the Nullo side's tricks to come, against N-S if theirs
        assert (-v if side == 0 else v) == _brute_nullo_sides(rules, s)
        checked += 1
    assert checked >= 1


def test_four_player_outcome_from_the_difference_equals_the_outcome_search():
    """Where ``score_hand`` is monotone in the final trick-score difference, the outcome is read from the forced
    difference (`outcome_by_difference`) instead of searched (`solver.JojotteOutcomeView`): on endings moved so that
    the forced difference lands on and beside each point where the winner changes, both give the same outcome."""
    from jojotte_records.analyze.jojotte import outcome_by_difference
    from jojotte_records.analyze.solver import JojotteOutcomeView, JojotteSidesView
    from jojotte_records.analyze.solver import Solver as OneSolver

    checked, changes = 0, set()
    endings = [e for left in (8, 12) for seed in (1, 2, 3)  # plausible bids: no Slam (the uniform policy's all are)
               for e in _partnership_endings(left, seed, policy="plausible")]
    for rules, s in endings:
        by_difference = outcome_by_difference(rules, s)
        if s.denomination == "nullo" or s.slam:
            assert by_difference is None
            continue
        if by_difference is None:
            continue
        v = OneSolver(JojotteSidesView(rules, s)).value(s)
        # moving 5k points from East to North moves the forced difference by 10k, the rest of the play unchanged
        ks = range(-s.card_pts[0] // 5, s.card_pts[1] // 5 + 1)
        steps = {k for k in ks if by_difference(v + 10 * k) != by_difference(v + 10 * k - 10)}
        for k in sorted({k + i for k in steps for i in (-1, 0, 1)} & set(ks)):
            moved = s._replace(card_pts=(s.card_pts[0] + 5 * k, s.card_pts[1] - 5 * k, *s.card_pts[2:]))
            assert OneSolver(JojotteSidesView(rules, moved)).value(moved) == v + 10 * k
            derived = outcome_by_difference(rules, moved)(v + 10 * k)
            assert derived == OneSolver(JojotteOutcomeView(rules, moved)).value(moved)
            changes.add(derived)
            checked += 1
    assert checked >= 30 and {-1, 1} <= changes


def test_four_player_alts_are_each_legal_cards_minimax(tmp_path):
    """The ``alts`` of a four-player card (issue 17): every legal card the player had, each with the whole-hand value
    after it, N-S's trick score minus E-W's. On endings of 8 cards the values (`solver.Solver.options`, which the
    analysis writes) equal what is taken so far plus a plain minimax of the rest (`_brute_sides`); and
    ``analyze --out`` writes after every analysed card one value for each legal card, the played card's its eval."""
    from jojotte_records.analyze.solver import JojotteSidesView, Solver
    from jojotte_records.notation.dd_comment import dd_alternatives

    def score(x):
        return sum((cp + (JOJOTTE if jo == 2 else 0)) * (1 if seat % 2 == 0 else -1)
                   for seat, (cp, jo) in enumerate(zip(x.card_pts, x.jo)))

    def name(a):
        return card_name(a.card) + (f"+{a.announce}" if a.announce else "")

    checked = 0
    for rules, s in _partnership_endings(8):
        if s.denomination == "nullo":
            continue
        kids = [(a, rules.apply(s, a)) for a in rules.legal_actions(s) if a.kind == "play"]
        want = sorted((name(a), score(n) + (_brute_sides(rules, n) if n.phase == PLAY else 0)) for a, n in kids)
        got = sorted((name(a), v) for a, v in Solver(JojotteSidesView(rules, s)).options(s))
        assert got == want
        checked += 1
    assert checked >= 4
    out = tmp_path / "4p.jjt"
    assert runner.invoke(app, ["analyze", str(EXAMPLES / "four-partners.jjt"), "--out", str(out)]).exit_code == 0
    n = 0
    for item in iter_records(out.read_text(encoding="utf-8"), "4p"):
        for t in getattr(item, "tricks", ()):
            for p in t.plays:
                alts = dict(dd_alternatives(p.comments))
                if alts:
                    played = card_name(p.card) + (f"+{p.announce.lower()}" if p.announce else "")
                    assert alts[played] == int(parse_dd_comment(p.comments[-1])["eval"])
                    n += 1
    assert n == 4 * 24  # four hands, analysed from 24 cards left


def test_analyze_jobs_gives_the_same_output_as_one_process(tmp_path):
    """``analyze --jobs 2`` (issue 14 item 4): the hands fanned out to two worker processes, the printed analysis,
    the JSON document and the annotated records the same byte for byte as with one process."""
    files = [str(EXAMPLES / n) for n in ("spec-rubber.jjt", "four-partners.jjt", "baloot-match.jjt")]
    files.append(str(EXAMPLES / "disputes"))
    outs = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"annotated-{jobs}.jjt"
        text = runner.invoke(app, ["analyze", *files, "--jobs", jobs, "--out", str(out)])
        doc = runner.invoke(app, ["analyze", *files, "--jobs", jobs, "--json"])
        assert text.exit_code == doc.exit_code == 0, text.output
        outs[jobs] = (text.output, doc.output, out.read_bytes())
    assert outs["1"] == outs["2"]
    assert json.loads(outs["1"][1])["summary"]["files"] > 3  # the folder's files too
    bad = runner.invoke(app, ["analyze", files[0], "--jobs", "-1"])
    assert bad.exit_code == 2 and "--jobs" in bad.output


@pytest.mark.parametrize("name", ["three-players.jjt", "four-no-partners.jjt", "three-players-box.jjt"])
def test_what_if_in_three_player_forms_is_the_two_players_hand(name):
    """Issue 17: what-if wherever the solver sees the position. In the three-player forms (JJ3, JJ4S, the box) the
    play is the two-player hand of the two who play (`two_player_form`): every legal card at trick 1, card 2, then
    best play, gives the trick-score difference (the first player's minus the second's) that ``analyze`` writes as
    that card's value (``alts``, held to a plain minimax by the two-player tests), and the names are those two."""
    from jojotte_records.analyze.jojotte import analyze_verdict, rules_for, two_player_form, what_if_file
    from jojotte_records.replay.files import check_file

    path = str(EXAMPLES / name)
    summary, verdicts = check_file(path, keep_hands=True).sessions[0]
    rules = rules_for(summary.header)
    v = verdicts[0]
    card = analyze_verdict(v, rules).cards[1]
    assert (card.trick, card.card_index) == (1, 2)
    seats = two_player_form(rules, v)[2]
    better = max if card.seat == 0 else min  # a card given without its word: the better word for its player
    for c, w, value in card.alts:
        got, names = what_if_file(path, 1, "1.2", card_name(c) + (f" {w}" if w else ""))
        want = value if w else better(x for d, _, x in card.alts if d == c)
        x, y = seats
        assert got.score.trick_points[x] - got.score.trick_points[y] == want, card_name(c)
        assert names == summary.names and len(got.score.total) == len(names)  # scored by the game, its columns


@pytest.mark.parametrize("full", [False, True])
def test_a_three_player_nullos_costs_are_the_three_player_penalties(full):
    """Issue 17: in a three-player Nullo the values ``analyze`` gives each card are the game's score, not the
    two-player game's. A failed Nullo with n tricks costs the bidder 200 + 100 × (n − 1) in two-player Jo-Jotte
    (JJ-NULLO-7) but 100 + 50 × (n − 1) to each opponent in the three-player game (JJ3-NULLO-1); the value is the
    bidder's score minus the active defender's, so every other credit being equal the two scales differ by
    (200 + 100 × (n − 1)) − (100 + 50 × (n − 1)) = 100 + 50 × (n − 1) on a failed Nullo and by nothing on a made one.
    Under OP-27's variant (``jj3_nullo_penalty_full``: 200 + 100 × (n − 1) to each opponent) they agree."""
    from jojotte_records.analyze.jojotte import _nullo_score, two_player_form
    from jojotte_records.rules.jojotte import JojotteOptions
    from jojotte_records.rules.jojotte3 import Jojotte3Rules

    [(rules, v)] = _form_verdicts("disputes/48-3p-score-two-player-nullo-penalty.jjt")
    if full:
        rules = Jojotte3Rules(JojotteOptions.parse("jj3_nullo_penalty_full"))
    core, view, seats = two_player_form(rules, v)
    s = play_start(core, view.state)
    assert s.denomination == "nullo" and seats == rules.pair(v.state)
    for n in range(core.tricks_per_hand + 1):
        two = _nullo_score(core, s, n)
        game = _nullo_score(core, s, n, (rules, v.state, seats))
        want = 0 if n == 0 or full else 100 + 50 * (n - 1)
        assert game - two == want, n
    # and the cards' values of the analysis are on the game's scale: the bidder took 3 tricks (the example's text)
    cards = analyze_verdict_cards(rules, v)
    assert v.state.won[seats[0]] == 3
    assert cards[-1].after == _nullo_score(core, s, 3, (rules, v.state, seats))


def analyze_verdict_cards(rules, v):
    from jojotte_records.analyze.jojotte import analyze_verdict

    return analyze_verdict(v, rules).cards


def test_what_if_in_a_three_player_form_names_the_player_in_its_message():
    """A card refused in the two-player view of a three-player hand is named with the table's players, not the
    view's seats A and B: in hand 1 of the example Ann plays the second card of trick 1 and Ben holds AS."""
    from jojotte_records.analyze.jojotte import what_if_file

    with pytest.raises(AnalysisError) as e:
        what_if_file(str(EXAMPLES / "three-players.jjt"), 1, "1.2", "AS")
    assert "Ann played AS, which is not in his hand (Ben holds it) (JJ-INV-2)" in str(e.value)


# --- --from-trick: four players in partnerships and Baloot from an earlier trick (issue 17) ---------------------

@pytest.mark.parametrize("name,hand", [("four-partners.jjt", 2), ("baloot-match.jjt", 1)])
def test_an_analysis_from_trick_two_agrees_with_the_default_from_trick_three(name, hand):
    """From trick 2 (28 cards left) every card is judged from trick 2, card 1; from trick 3 on, where the default
    analysis starts, each card's value before and after it is the same either way: a position's forced value does not
    depend on where the analysis started (tests/test_solver.py holds the four-partners Nullo, which broke this)."""
    from jojotte_records.analyze.jojotte import analyze_verdict, rules_for
    from jojotte_records.replay.files import check_file

    summary, verdicts = check_file(str(EXAMPLES / name), keep_hands=True).sessions[0]
    rules, v = rules_for(summary.header), verdicts[hand - 1]

    def judged(cards=None):
        h = analyze_verdict(v, rules, cards)
        assert h.reason is None, h.reason
        if h.ending is not None:  # Baloot: the declaring team's card points from each card on
            return [(c.trick, c.index, c.before, c.after) for c in h.ending.cards]
        return [(c.trick, c.card_index, c.before, c.after) for c in h.cards]

    default, earlier = judged(), judged(28)
    assert default[0][:2] == (3, 1) and earlier[0][:2] == (2, 1)
    assert [c for c in earlier if c[0] >= 3] == default


def test_from_trick_is_passed_to_the_analysis_and_bounded_to_the_eight_tricks():
    got = runner.invoke(app, ["analyze", str(EXAMPLES / "four-partners.jjt"), "--json", "--from-trick", "8"])
    assert got.exit_code == 0, got.output
    hands = json.loads(got.output)["files"][0]["sessions"][0]["hands"]
    analysed = [h for h in hands if h["analysed"]]
    assert analysed and all(h["cards"][0]["trick"] == 8 and h["cards"][0]["card"] == 1 for h in analysed)
    for bad in ("0", "9"):
        got = runner.invoke(app, ["analyze", str(EXAMPLES / "four-partners.jjt"), "--from-trick", bad])
        assert got.exit_code == 2 and "--from-trick must be a trick from 1 to 8" in got.output


def test_the_outcome_is_searched_when_the_totals_are_compared_after_the_multiplier_with_jojotte_above_the_line():
    """OP-10 with OP-08 (`probes_apply`): the multiplier reaches the card points but not the Jo-Jotte above the line,
    so the winner is not read from the trick-score difference, for four players (`outcome_by_difference`) as for two
    (`Solver.thresholds`); either option alone leaves the reading to the probes, which do read some of these hands."""
    from dataclasses import replace

    from jojotte_records.analyze.jojotte import outcome_by_difference, probes_apply

    endings = [(rules, s) for rules, s in _partnership_endings(8, 1, policy="plausible")
               if s.denomination != "nullo" and not s.slam]
    assert endings
    read = {}
    for pair in ((True, False), (False, True), (True, True)):
        for rules, s in endings:
            o = replace(rules.options, compare_after_multiplier=pair[0], jojotte_above_line=pair[1])
            other = type(rules)(o)
            got = outcome_by_difference(other, s)
            read[pair] = read.get(pair, 0) + (got is not None)
        assert probes_apply(o) is (pair != (True, True))
    assert read[(True, True)] == 0 and read[(True, False)] > 0 and read[(False, True)] > 0
