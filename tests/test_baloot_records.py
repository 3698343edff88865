"""Baloot records end to end: notation and JSON round trips, the validator over simulated matches, the archive's
``baloot`` statistic and the report pages. The rules core and the calculator are tested in ``test_baloot*.py``."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest

from jojotte_records.notation.json_form import RecordFile, to_record_file, to_session
from jojotte_records.notation.text import iter_records, read_sessions, write_session, write_stream
from jojotte_records.play.simulate import simulate_items
from jojotte_records.replay.jojotte import validate_stream

ROOT = Path(__file__).resolve().parent.parent
MATCH = ROOT / "examples" / "baloot-match.jjt"


def sessions_of(text: str):
    return list(validate_stream(iter_records(text, "b.jjt")))


def test_the_example_match_is_legal_canonical_and_round_trips_through_json():
    text = MATCH.read_text(encoding="utf-8")
    [(summary, hands)] = sessions_of(text)
    assert summary.bad_hands == 0 and not summary.issues and hands
    canonical = write_session(read_sessions(text)[0])
    assert write_session(read_sessions(canonical)[0]) == canonical
    doc = to_record_file(read_sessions(text)).model_dump_json()
    back = to_session(RecordFile.model_validate_json(doc).sessions[0])
    assert write_session(back) == canonical


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_simulated_matches_validate_and_their_text_is_canonical(seed):
    """BAL-MATCH: random legal matches (one session per match) replay without a finding, and every finished
    match has a winner whose total is past the target."""
    out = StringIO()
    write_stream(simulate_items("baloot", 60, seed=seed, policy="uniform"), out)
    text = out.getvalue()
    sessions = sessions_of(text)
    assert sum(s.hands for s, _ in sessions) == 60
    assert all(s.bad_hands == 0 and not s.issues for s, _ in sessions)
    for s, _ in sessions[:-1]:
        assert s.sheet.over and s.winners
        assert max(s.sheet.scores) >= 152
    again = StringIO()
    write_stream(iter_records(text), again)
    assert again.getvalue() == text


def test_archive_baloot_statistic_agrees_with_the_hand_facts(tmp_path):
    from jojotte_records.archive.stats import StatFilters, run_statistic
    from jojotte_records.archive.store import import_paths, run_sql

    src = tmp_path / "m.jjt"
    out = StringIO()
    write_stream(simulate_items("baloot", 120, seed=5, policy="uniform"), out)
    src.write_text(out.getvalue(), encoding="utf-8")
    db = tmp_path / "a.duckdb"
    list(import_paths(db, [str(src), str(MATCH)]))
    result = run_statistic(db, "baloot", StatFilters())
    teams = result.table("teams").rows
    declared = run_sql(db, "SELECT count(*) FROM hand_facts f JOIN hand_facts m USING (session_id, hand_seq) "
                           "WHERE f.key = 'contract' AND f.value IS NOT NULL AND m.key = 'made' AND m.value IS NOT NULL").rows[0][0]
    assert sum(r[2] for r in teams) == declared > 0
    assert {r[1] for r in teams} <= {"hokum", "sun", "ashkal"}
    players = result.table("players").rows
    assert sum(r[4] for r in players) == declared
    assert all(r[1] + r[2] + r[3] == r[4] for r in players)  # hokum + sun + ashkal = declared
    ladder = result.table("doubling").rows
    assert sum(r[1] for r in ladder) == declared and ladder[0][0] == "undoubled"
    outcomes = dict((r[0], r[1]) for r in result.table("outcomes").rows)
    hands = run_sql(db, "SELECT count(*) FROM hands").rows[0][0]
    assert sum(outcomes.values()) == hands
    assert "redeal (all passed)" in outcomes  # BAL-BID: all four pass twice, the cards are redealt


def test_report_shows_the_match_sheet_and_a_four_hand_diagram(tmp_path):
    from jojotte_records.report.site import build_site

    res = build_site([str(MATCH)], tmp_path / "site")
    assert res.hands >= 2 and res.bad_hands == 0
    session = next((tmp_path / "site" / "sessions").iterdir())
    page = (session / "index.html").read_text(encoding="utf-8")
    assert "played to 152" in page
    assert "Nura &amp; Sami" in page
    hands = (session / "hands-0001.html").read_text(encoding="utf-8")
    assert "seat-cards compass" in hands and "at-w" in hands and "at-e" in hands
    assert "BAL-" in hands  # the credits cite the scoring rules


def test_the_calculator_agrees_with_the_validator_on_simulated_hands():
    """Issue 6's check on a smaller set (``python bench/baloot_calc.py`` runs the 5,000 hands of seed 1): the
    summary a table gives the calculator scores each replayed hand exactly as the validator does."""
    from jojotte_records.table.baloot_calc import calculate, summary_args

    out = StringIO()
    write_stream(simulate_items("baloot", 400, seed=1, policy="uniform"), out)
    compared = 0
    for summary, verdicts in sessions_of(out.getvalue()):
        for v in verdicts:
            h = summary.rules.summary(v.state)
            if h is None:
                assert v.score is None or tuple(v.score.delta) == (0, 0)
                continue
            calc = calculate(**summary_args(h), variant=summary.rules.options.text())
            assert calc.delta == tuple(v.score.delta), (summary.header.get("Event"), v.number)
            compared += 1
    assert compared > 300


def test_opt_qaid_scores_the_revoke_dispute_as_lost_by_the_revoking_team():
    # b08: E's Sun, undoubled; Sami (S, of NS) revokes in trick 2, before NS show their sira.
    path = Path(__file__).resolve().parent.parent / "examples" / "disputes" / "b08-baloot-revoke.jjt"
    text = path.read_text(encoding="utf-8")
    [(summary, [v])] = sessions_of(text)
    assert v.score is None and v.used_written_score  # qaid off: the sheet takes the written NS 30, WE 0
    assert summary.sheet.scores == (30, 0)
    qaid = text.replace('[FirstDealer "E"]', '[FirstDealer "E"]\n[Variant "qaid"]')
    [(summary, [v])] = sessions_of(qaid)
    # qaid on: WE receive the 26 game points of a Sun (no project of theirs is shown), NS nothing
    assert v.score is not None and v.score.delta == (0, 26) and not v.used_written_score
    assert summary.sheet.scores == (0, 26)
    rules = [i.rule for i in v.issues]
    assert rules[0] == "BAL-PLAY-5"  # the revoke is still reported
    assert any(i.kind == "score" for i in v.issues)  # and the written NS 30, WE 0 is wrong under qaid
