"""Pitch records end to end: the event notation, the JSON form, the validator, the simulator, the archive and the report.

The rules core itself is tested in ``test_pitch.py``; here every record goes through the same
paths as ``jojotte validate``, ``import`` and ``report``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from jojotte_records.cli.main import app
from typer.testing import CliRunner

from jojotte_records.notation.json_form import to_record_file, to_session
from jojotte_records.notation.text import iter_records, read_sessions, write_session
from jojotte_records.play.simulate import simulate_items
from jojotte_records.replay.files import check_file
from jojotte_records.replay.jojotte import HandVerdict, SessionSummary, validate_stream

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
GAME = EXAMPLES / "pitch-game.jjt"
FIVE = EXAMPLES / "pitch-five-handed.jjt"
VARIANTS = ["", "points=5", "points=7", "points=8", "points=11", "points=13", "points=14", "points=15", "points=16",
            "players=5", "dirty", "reverse", "made_score=points_won; opponents_score=none", "players=5; points=16; reverse",
            "trump_discard=allowed_dead; burn=non_point_first", "jokers=marked; auto=two_only; moon_at_zero=to_52"]


def check_text(text: str):
    """(summary, verdicts) of every session of a text."""
    return list(validate_stream(iter_records(text, "t.jjt")))


def one_session(text: str) -> tuple[SessionSummary, list[HandVerdict]]:
    sessions = check_text(text)
    assert len(sessions) == 1
    return sessions[0]


def errors(text: str) -> list:
    return [i for s, hs in check_text(text) for i in (*s.issues, *(x for h in hs for x in h.issues))]


def game_text() -> str:
    return GAME.read_text(encoding="utf-8")


def first_hands(n: int) -> str:
    """The header and the first ``n`` hands of the example game."""
    text = game_text()
    parts = text.split("\nhand ")
    return "\nhand ".join(parts[:n + 1])


# --- the notation and the JSON form ---------------------------------------------------------------

@pytest.mark.parametrize("path", [GAME, FIVE], ids=lambda p: p.name)
def test_examples_are_canonical_and_round_trip_through_json(path):
    text = path.read_text(encoding="utf-8")
    sessions = read_sessions(text)
    canonical = write_session(sessions[0])
    assert write_session(read_sessions(canonical)[0]) == canonical
    doc = to_record_file(sessions).model_dump_json()
    back = [to_session(s) for s in type(to_record_file(sessions)).model_validate_json(doc).sessions]
    assert write_session(back[0]) == canonical
    assert "{the moon is made from 21: E-W go to 52 and win}" in canonical or path == FIVE


@pytest.mark.parametrize("variant", VARIANTS)
def test_simulated_games_validate_and_round_trip(variant):
    """PIT-VAR-1…7, PIT-FIVE: random legal games of every variant are legal, and their text is canonical."""
    items = list(simulate_items("pitch", 40, seed=3, variant=variant, policy="uniform"))
    from io import StringIO

    from jojotte_records.notation.text import write_stream

    out = StringIO()
    write_stream(items, out)
    text = out.getvalue()
    sessions = check_text(text)
    assert sum(s.hands for s, _ in sessions) == 40
    assert all(s.bad_hands == 0 and not s.issues for s, _ in sessions), [str(i) for s, hs in sessions for h in hs for i in h.issues]
    out2 = StringIO()
    write_stream(iter_records(text), out2)
    assert out2.getvalue() == text
    # every finished game has a winner, and only the last session of the stream may be unfinished
    assert all(s.sheet.over and s.winners for s, _ in sessions[:-1])


def test_reader_collects_errors_with_line_and_column():
    text = first_hands(1).replace("bids N 5, E pass", "bids Q 5, E pass").replace("trick 1: S AH", "trick 1: S ZZ")
    found = errors(text)
    assert len(found) == 1  # the hand stops at its first unreadable event
    issue = found[0]
    assert issue.rule == "NOTATION" and issue.kind == "syntax"
    line = text.splitlines()[issue.loc.line - 1]
    assert line.startswith("bids") and line[issue.loc.column - 1] == "Q"
    assert "not a seat" in issue.message


def test_unknown_line_and_bad_score_column_are_reported():
    text = first_hands(1).replace("remainder S keep", "remainder S keep\nshuffle N twice").replace("score NS 6", "score XY 6")
    found = errors(text)
    kinds = [(i.rule, i.kind) for i in found]
    assert ("NOTATION", "syntax") in kinds
    assert any("not a column of the score sheet" in i.message for i in found)


# --- the validator -----------------------------------------------------------------------------

def test_spec_example_1_scores_six_and_one():
    """PIT-SCORE-2 and PIT-SCORE-4 on the spec's worked example 1 (hand 1 of the example game)."""
    summary, hands = one_session(first_hands(1))
    v = hands[0]
    assert v.ok and v.score.delta == (6, 1)
    assert (v.score.bidding_points, v.score.other_points) == (9, 1)
    assert {c.rule for c in v.score.credits} == {"PIT-SCORE-2", "PIT-SCORE-4"}
    assert summary.sheet.scores == (6, 1)


@pytest.mark.parametrize("variant, delta", [("made_score=points_won", (9, 1)), ("dirty", (6, 3)),
                                            ("opponents_score=none", (6, 0))])
def test_spec_example_1_under_options(variant, delta):
    """PIT-SCORE-2 (opt.made_score), PIT-VAR-6 (dirty: N-S 7, E-W 3, still made), PIT-SCORE-4 (opt.opponents_score)."""
    text = first_hands(1).replace('[FirstDealer "W"]', f'[FirstDealer "W"]\n[Variant "{variant}"]').replace(
        "score NS 6, EW 1", f"score NS {delta[0]}, EW {delta[1]}")
    summary, hands = one_session(text)
    assert hands[0].ok, [str(i) for i in hands[0].issues]
    assert hands[0].score.delta == delta
    if variant == "dirty":
        assert (hands[0].score.bidding_points, hands[0].score.other_points) == (7, 3)


def test_the_moon_goes_to_52_and_wins_the_game():
    """PIT-MOON-1…3, PIT-GAME-2: hand 8 of the example game."""
    summary, hands = one_session(game_text())
    moon = hands[-1]
    assert moon.score.moon and moon.score.made
    assert summary.sheet.scores[1] == 52 and summary.winners == (1,)
    assert any(c.rule == "PIT-MOON-3" for c in moon.score.credits)


def test_five_handed_side_scores_and_the_bidders_win_a_tie_past_52():
    """PIT-FIVE-7 (each member of a side gets its score) and PIT-FIVE-8 (both past 52: the bidding side wins)."""
    summary, hands = one_session(FIVE.read_text(encoding="utf-8"))
    assert summary.bad_hands == 0
    for v in hands:
        side = v.score.bidding_columns
        if v.score.moon:  # a made moon takes each member to 52 from his own score (PIT-MOON-3)
            assert {v.sheet.scores[c] for c in side} == {52}
        else:
            assert len({v.score.delta[c] for c in side}) == 1
    assert summary.sheet.scores[1] >= 52 and summary.sheet.scores[3] >= 52
    assert summary.winners == (1, 3)


def test_written_trick_winner_is_checked():
    """PIT-PLAY-5: the trick's winner written at the table must be the one the cards give."""
    text = first_hands(1).replace("trick 3: S JD, N JH, E 9H", "trick 3: S JD, N JH, E 9H -> S")
    found = errors(text)
    assert [(i.rule, i.kind, i.loc.trick) for i in found] == [("PIT-PLAY-5", "consistency", 3)]
    assert "Nell won it" in found[0].message
    assert not errors(first_hands(1).replace("trick 3: S JD, N JH, E 9H", "trick 3: S JD, N JH, E 9H -> N"))


def test_the_dealer_passes_to_the_left():
    """PIT-DEAL-3."""
    text = first_hands(2).replace("hand 2 dealer N", "hand 2 dealer S")
    found = errors(text)
    assert found[0].rule == "PIT-DEAL-3" and "it is Nell's deal" in found[0].message


def test_no_hand_after_the_game_is_over():
    """PIT-GAME-2: the game ends when a side reaches 52."""
    text = game_text()
    hand2 = "hand 2" + text.split("\nhand 2", 1)[1].split("\nhand 3", 1)[0]
    extra = hand2.replace("hand 2 dealer N", "hand 9 dealer E").replace("hand 2", "hand 9")
    found = errors(text + "\n" + extra.replace("dealer N", "dealer E"))
    assert any(i.rule == "PIT-GAME-2" and "already over" in i.message for i in found)


def test_a_record_cut_short_uses_its_written_score():
    text = first_hands(2)
    cut = text.replace("trick 5: E 6H, S TH\ntrick 6: S 5H\n", "")
    summary, hands = one_session(cut)
    assert hands[0].ok and hands[0].score is None and hands[0].used_written_score
    assert any("stops before the end" in i.message for i in hands[0].unchecked)
    assert summary.sheet.scores == (6 - 5, 1 + 7)


def test_mutated_cards_are_caught_at_their_place():
    """Replacing any card played by another card never crashes, and the first finding is on the changed line or,
    when the new card is one played later (a card played twice), on that later line."""
    text = first_hands(1)
    lines = text.splitlines()
    rng = random.Random(4)
    trick_lines = [k for k, ln in enumerate(lines) if ln.startswith("trick")]
    for _ in range(25):
        k = rng.choice(trick_lines)
        words = lines[k].split()
        pos = rng.choice([i for i, w in enumerate(words) if len(w.rstrip(",")) == 2 and i > 2])
        new = rng.choice(["2S", "QD", "9H", "X1", "AH", "4C"])
        if words[pos].rstrip(",") == new:
            continue
        words[pos] = new + ("," if words[pos].endswith(",") else "")
        mutated = "\n".join(lines[:k] + [" ".join(words)] + lines[k + 1:]) + "\n"
        found = errors(mutated)
        assert found, mutated
        assert found[0].loc.line >= k + 1 or found[0].kind == "score"


# --- the CLI, the archive and the report -----------------------------------------------------------

def test_cli_simulate_pipe_validate(tmp_path):
    runner = CliRunner()
    out = runner.invoke(app, ["simulate", "--game", "pitch", "--variant", "points=16; players=5", "--hands", "30",
                              "--seed", "2", "--out", str(tmp_path / "p.jjt")])
    assert out.exit_code == 0, out.output
    res = runner.invoke(app, ["validate", "--json", str(tmp_path / "p.jjt")])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["summary"]["hands"] == 30
    session = doc["files"][0]["sessions"][0]
    assert set(session["sheet"]) == {"A", "B", "C", "D", "E"}
    assert all(h["ok"] for h in session["hands"])


def test_validate_json_of_a_dispute_names_rule_and_place():
    res = CliRunner().invoke(app, ["validate", "--json", str(EXAMPLES / "disputes" / "p06-pitch-dead-card-played.jjt")])
    assert res.exit_code == 1
    doc = json.loads(res.output)
    err = doc["files"][0]["sessions"][0]["hands"][0]["errors"][0]
    assert err["rule"] == "PIT-PLAY-1" and err["trick"] == 2 and err["card"] == 4 and "Ed played 9D" in err["message"]


def test_archive_stores_facts_point_cards_and_the_pitch_statistic(tmp_path):
    from jojotte_records.archive.stats import StatFilters, run_statistic
    from jojotte_records.archive.store import import_paths, run_sql

    db = tmp_path / "a.duckdb"
    list(import_paths(db, [str(GAME), str(FIVE)]))
    rows = run_sql(db, "SELECT value, count(*) FROM hand_facts WHERE key = 'contract' GROUP BY value ORDER BY value").rows
    assert ("MOON", 2) in [tuple(r) for r in rows]  # the moon of each example
    # the points credited in a hand add up to the points played (PIT-PTS-5): 10 a hand here, no card dead
    per_hand = run_sql(db, "SELECT s.game, sum(points) AS p FROM point_cards JOIN sessions s USING (session_id) "
                           "WHERE s.variant IS NULL GROUP BY session_id, hand_seq, s.game").rows
    assert per_hand and all(r[1] <= 10 for r in per_hand)
    hs = run_sql(db, "SELECT sum(total) FROM hand_scores h JOIN sessions s USING (session_id) WHERE s.event = 'Thursday Pitch'").rows
    assert hs[0][0] == 20 + 52
    result = run_statistic(db, "pitch", StatFilters())
    bids = {r[0]: r for r in result.table("bids").rows}
    assert bids["6"][1] >= 1 and bids["MOON"][2] >= 1
    moons = result.table("moons").rows
    assert {r[0] for r in moons} >= {"Walt", "Bo"} or {r[0] for r in moons} >= {"Ed", "Bo"}
    cards = {r[0]: r for r in result.table("point_cards").rows}
    assert cards["AH"][1] >= 1 and cards["AH"][3] + cards["AH"][4] == cards["AH"][1]


def test_report_pages_show_the_game_and_escape_names(tmp_path):
    from jojotte_records.report.site import build_site

    text = game_text().replace('[Players "Nell; Ed; Sue; Walt"]', '[Players "Nell; <b>Ed</b>; Sue; Walt"]')
    src = tmp_path / "g.jjt"
    src.write_text(text, encoding="utf-8")
    res = build_site([str(src)], tmp_path / "site")
    assert res.hands == 8
    session = next((tmp_path / "site" / "sessions").iterdir())
    page = (session / "index.html").read_text(encoding="utf-8")
    assert "won the game" in page and "played to 52" in page
    assert "<b>Ed</b>" not in page and "&lt;b&gt;Ed&lt;/b&gt;" in page
    hands = (session / "hands-0001.html").read_text(encoding="utf-8")
    assert "PIT-SCORE-2" in hands and "S bids 6, hearts" in hands
    assert hands.count('class="hand"') == 8


def test_fast_path_reads_what_the_tokenizer_reads(monkeypatch):
    """The reader's fast path for canonical event lines gives the same records as the full tokenizer."""
    from io import StringIO

    import jojotte_records.notation.event_text as en
    from jojotte_records.notation.text import write_stream

    out = StringIO()
    write_stream(simulate_items("pitch", 60, seed=9, variant="players=5", policy="uniform"), out)
    text = out.getvalue() + GAME.read_text(encoding="utf-8") + "\n" + first_hands(1).replace(
        "trick 3: S JD, N JH, E 9H", "trick 3: S JD, N JH, E 9H -> N").replace("bids N 5", "bids n 5")
    fast = list(iter_records(text))
    monkeypatch.setattr(en.EventHandBuilder, "fast_line", lambda self, text, line_no: False)
    slow = list(iter_records(text))
    assert fast == slow
    assert any(ln.winner == "N" for h in fast if hasattr(h, "lines") for ln in h.lines)


def test_fuzzed_lines_never_crash_the_reader_or_validator():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    base = first_hands(1).splitlines()
    alphabet = st.sampled_from(list("NESWXnesw0123456789AKQJT:;,->{} ") + ["AH", "pass", "moon", "hearts", "trick", "keep"])

    @settings(max_examples=150, deadline=None)
    @given(st.integers(0, len(base) - 1), st.lists(alphabet, max_size=14))
    def run(k, words):
        lines = list(base)
        if k > 8:  # past the tags and the hand line: replace a line of the hand
            lines[k] = lines[k].split(" ", 1)[0] + " " + "".join(words)
        text = "\n".join(lines) + "\n"
        found = errors(text)
        assert all(i.loc.line is None or 1 <= i.loc.line <= len(lines) for i in found)

    run()


@pytest.mark.parametrize("path", sorted((EXAMPLES / "disputes").glob("p*-pitch-*.jjt")), ids=lambda p: p.stem)
def test_dispute_hand_page_flags_the_event_and_quotes_the_rule(path, tmp_path):
    """The hand page of each Pitch dispute marks the item the validator names and quotes the rule's text."""
    from jojotte_records.report.site import build_site, rule_texts

    build_site([str(path)], tmp_path / "site")
    result = check_file(str(path))
    issue = next(i for _, hs in result.sessions for h in hs for i in h.issues)
    session = next((tmp_path / "site" / "sessions").iterdir())
    page = (session / "hands-0001.html").read_text(encoding="utf-8")
    assert issue.rule in page
    from markupsafe import escape

    assert str(escape(" ".join(rule_texts()[issue.rule]["text"].split())[:60])) in " ".join(page.split())
    if issue.kind in ("illegal", "consistency"):
        # the flagged item is the one at the issue's place
        line = path.read_text(encoding="utf-8").splitlines()[issue.loc.line - 1]
        if issue.loc.column > 1:
            label = line[issue.loc.column - 1:].split()[0].rstrip(":")
            assert f'flagged kind-{issue.kind}">{label}' in page
    else:
        assert 'class="flagged-row"' in page


@pytest.mark.parametrize("path, line, game_lines", [
    (GAME, "turned 2S", "Pitch lines: deal, bids, trump, call, discard, refill, remainder, burn, trick, score"),
    (EXAMPLES / "baloot-match.jjt", "turned 7S", "Baloot lines: deal, bids, complete, doubling, trick, score"),
    (EXAMPLES / "baloot-match.jjt", "after N pass", "Baloot lines: deal, bids, complete, doubling, trick, score"),
])
def test_an_unknown_line_lists_the_games_own_line_keywords(path, line, game_lines):
    # a Jo-Jotte keyword in a Pitch or Baloot hand: the error names the line and that game's keywords only
    lines = path.read_text(encoding="utf-8").splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith("hand ")) + 2
    text = "\n".join(lines[:at] + [line] + lines[at:]) + "\n"
    issues = [i for _, hands in check_text(text) for v in hands for i in v.issues]
    assert issues and issues[0].rule == "NOTATION" and issues[0].loc.line == at + 1
    keyword = line.split()[0]
    assert issues[0].message == f"unknown line '{keyword}' ({game_lines})"
    assert "auction" not in issues[0].message
