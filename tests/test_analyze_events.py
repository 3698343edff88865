"""Exact Baloot endings (issue 8, item 4): the solver against a plain minimax, the costs and marks of each card,
and ``jojotte analyze`` on a Baloot match (text, JSON, annotations the notation reads back)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from jojotte_records.cli.main import app
from typer.testing import CliRunner

from jojotte_records.analyze.endings import MISTAKE, analyze_ending, ending_start, solve_ending
from jojotte_records.notation.text import iter_records, write_stream
from jojotte_records.play.simulate import simulate_items
from jojotte_records.replay.jojotte import validate_stream

ROOT = Path(__file__).resolve().parent.parent
MATCH = ROOT / "examples" / "baloot-match.jjt"


def brute(rules, s, team: int) -> int:
    """The declaring team's card points from ``s`` to the end under best play: plain minimax, nothing remembered."""
    if rules.is_terminal(s):
        return 0
    values = []
    for a in rules.legal_actions(s):
        if a.kind != "play":
            continue
        n = rules.advance(s, a)
        values.append(brute(rules, n, team) + n.points[team] - s.points[team])
    return max(values) if rules.current_player(s) % 2 == team else min(values)


def simulated_verdicts(hands: int, seed: int):
    out = io.StringIO()
    write_stream(simulate_items("baloot", hands, seed, policy="uniform"), out)
    for summary, verdicts in validate_stream(iter_records(out.getvalue())):
        for v in verdicts:
            yield summary.rules, v


def test_the_solver_equals_plain_minimax_on_the_last_eight_cards():
    checked = 0
    for rules, v in simulated_verdicts(40, 11):
        if v.state is None or v.state.declarer < 0 or not v.actions:
            continue
        team = v.state.declarer % 2
        s = rules.initial_state(v.record.dealer)
        for a in v.actions:  # replay to the start of trick 7
            if s.phase == "play" and s.tricks_done == 6 and not s.trick:
                break
            s = rules.advance(s, a)
        if not (s.phase == "play" and s.tricks_done == 6):
            continue
        assert solve_ending(rules, s, team) == brute(rules, s, team)
        checked += 1
    assert checked >= 10


def test_each_card_cost_is_the_loss_against_the_best_card():
    analysed = 0
    for rules, v in simulated_verdicts(30, 4):
        e = analyze_ending(rules, v)
        if e is None:
            continue
        analysed += 1
        assert e.start_trick == 3 and len(e.cards) == 24
        assert e.cards[0].before == e.value
        for c in e.cards:
            assert c.cost >= 0
            own = c.seat % 2 == e.team
            assert c.cost == (c.before - c.after if own else c.after - c.before)
            assert c.cost > 0 or c.card in c.best
            assert c.marks == (() if c.cost == 0 else ("mistake",) if c.cost >= MISTAKE else ("inaccuracy",))
        for prev, nxt in zip(e.cards, e.cards[1:]):
            if nxt.trick == prev.trick:  # within a trick nothing is scored: the value after a card is the next one's before
                assert nxt.before == prev.after
        # what the declaring team really took from the start of the ending is the forced value, less its own
        # players' costs, plus the opponents' costs
        start = rules.initial_state(v.record.dealer)
        for a in v.actions:
            if ending_start(rules, start) and not start.trick:
                break
            start = rules.advance(start, a)
        taken = v.state.points[e.team] - start.points[e.team]
        own = sum(c.cost for c in e.cards if c.seat % 2 == e.team)
        other = sum(c.cost for c in e.cards if c.seat % 2 != e.team)
        assert taken == e.value - own + other
    assert analysed >= 10


def test_analyze_cli_on_a_baloot_match(tmp_path):
    runner = CliRunner()
    res = runner.invoke(app, ["analyze", str(MATCH), "--json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    hands = doc["files"][0]["sessions"][0]["hands"]
    assert hands and all(h["analysed"] and h["from"].startswith("from trick 3") for h in hands)
    assert doc["summary"]["cards"] == sum(len(h["cards"]) for h in hands) > 0
    out = tmp_path / "annotated.jjt"
    res = runner.invoke(app, ["analyze", str(MATCH), "--out", str(out)])
    assert res.exit_code == 0, res.output
    text = out.read_text(encoding="utf-8")
    assert text.count("[%dd ") == doc["summary"]["cards"]
    again = runner.invoke(app, ["validate", str(out)])
    assert again.exit_code == 0, again.output  # the annotations are comments the notation reads back


def test_the_report_shows_the_costs_of_an_analysed_baloot_hand(tmp_path):
    from jojotte_records.report.site import build_site

    out = tmp_path / "annotated.jjt"
    assert CliRunner().invoke(app, ["analyze", str(MATCH), "--out", str(out)]).exit_code == 0
    build_site([str(out)], tmp_path / "site")
    page = next((tmp_path / "site" / "sessions").iterdir()) / "hands-0001.html"
    html = page.read_text(encoding="utf-8")
    costly = out.read_text(encoding="utf-8").count("mark=")
    assert costly and html.count('class="dd"') == costly  # each card that cost points, in words
    assert "[%dd" not in html  # the machine comment itself is not shown


def test_each_alternative_is_worth_a_plain_minimax_of_its_card():
    """Issue 17, the analysis board: after each analysed card, the value of every legal card the player had. On the
    last eight cards of simulated hands each alternative's value (the declaring team's card points from there, on
    the scale of ``eval``) is the points the card takes at once plus a plain minimax of the rest (`brute`)."""
    checked = 0
    last = 8  # from trick 7: small enough for the plain minimax
    for rules, v in simulated_verdicts(30, 17):
        e = analyze_ending(rules, v, last)
        if e is None:
            continue
        s = rules.initial_state(v.record.dealer)
        k = 0
        while not (ending_start(rules, s, last) and not s.trick):
            s, k = rules.advance(s, v.actions[k]), k + 1
        for c in e.cards:
            while v.actions[k].kind != "play":
                s, k = rules.advance(s, v.actions[k]), k + 1
            want = {}
            for a in rules.legal_actions(s):
                if a.kind == "play":
                    n = rules.advance(s, a)
                    want[(a.card, a.announce)] = n.points[e.team] - s.points[e.team] + brute(rules, n, e.team)
            assert {(x, w): val for x, w, val in c.alts} == want
            assert want[(c.card, v.actions[k].announce)] == c.after
            s, k = rules.advance(s, v.actions[k]), k + 1
            checked += 1
    assert checked >= 40
