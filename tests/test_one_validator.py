"""One validator, one verdict type and one summary type for every game (issue 13): every game answers the same
sheet hooks (`Rules.new_sheet`, `hand_score`, `add_score`: ``scores``, ``over``, ``winners``; per column ``delta``
and ``credits`` with ``column``/``amount``/``rule``/``why``), the game's difference living in its record codec and
its rules hooks only."""

from __future__ import annotations

import pytest

from jojotte_records.play.simulate import simulate_items
from jojotte_records.replay.jojotte import HandVerdict, SessionSummary, SessionValidator, validate_stream
from jojotte_records.rules.base import find_variant
from jojotte_records.rules.jojotte3 import Jojotte3BoxRules, Jojotte3Rules
from jojotte_records.rules.jojotte4 import Jojotte4PRules
from jojotte_records.rules.jojotte_sheet import ScoreSheet

GAMES = ("jojotte", "jojotte-3", "jojotte-3box", "jojotte-4p", "jojotte-4s", "pitch", "baloot")


@pytest.mark.parametrize("game", GAMES)
def test_every_game_writes_its_hands_on_its_sheet_through_the_same_hooks(game):
    rules = find_variant(game)()
    columns = len(rules.columns_of())
    checked = 0
    for summary, verdicts in validate_stream(simulate_items(game, 40, 3)):
        assert isinstance(summary, SessionSummary) and summary.rules.name == rules.name
        before = rules.new_sheet().scores
        assert before == (0,) * columns and not rules.new_sheet().over
        for v in verdicts:
            assert isinstance(v, HandVerdict) and v.ok, [(i.rule, i.message) for i in v.issues]
            assert len(v.entry.delta) == columns
            # each column's score after the hand is the one before plus what the hand wrote there: the sum of
            # the credits of that column (for Jo-Jotte below and above the line, the pool's award and the rubber
            # bonus included, JJ-PRIS-3, JJ-RUBBER-1)
            for c in range(columns):
                assert v.entry.delta[c] == sum(cr.amount for cr in v.entry.credits if cr.column == c)
                assert v.sheet.scores[c] == before[c] + v.entry.delta[c]
            for cr in v.entry.credits:
                assert 0 <= cr.column < columns and isinstance(cr.amount, int) and cr.why
                assert cr.rule.startswith((rules.rule_prefix, "JJ")), cr.rule
            before = v.sheet.scores
            checked += 1
        assert summary.winners == tuple(summary.sheet.winners)
    assert checked == 40


def test_a_jojotte_session_winner_is_the_sheets_own():
    # JJ-SESSION-1: most rubbers wins; the sheet of `new_sheet` carries the session's options, so ``winners``
    # needs nothing else: one rubber to A and none to B gives A
    rules = find_variant("jojotte")()
    sheet = rules.new_sheet()._replace(rubbers=(1, 0))
    assert sheet.winners == (0,)
    assert sheet._replace(rubbers=(1, 1)).winners == ()  # equal rubbers, equal points: a tie
    by_points = find_variant("jojotte")(find_variant("jojotte").options_class.parse("session_by_points"))
    assert by_points.new_sheet()._replace(rubbers=(1, 0), below=(0, 300)).winners == (1,)  # OP-32


def test_a_written_jojotte_hand_empties_the_pool_without_paying_it_twice():
    # JJ-PRIS-3: figures written at the table already hold the pool's award; 55 points held aside before,
    # A written 110 below: A wins the hand, the pool goes to 0 and no JJ-PRIS-3 credit is added on top
    rules = find_variant("jojotte")()
    sheet = ScoreSheet.empty(2, rules.options)._replace(pool=55)
    written = rules.written_score((110, 0, 20, 0, 0))  # below A, B; above A, B; held aside
    assert written.winner == 0
    after, entry = rules.add_score(sheet, written)
    assert after.pool == 0 and after.below == (110, 0) and after.above == (20, 0)
    assert [c.rule for c in entry.credits] == ["JJ-SCORE-1", "JJ-SCORE-1"] and entry.delta == (130, 0)


def test_the_validators_of_every_game_are_one_class():
    for game in GAMES:
        header = next(iter(simulate_items(game, 1, 1)))
        v = SessionValidator(header)
        assert type(v) is SessionValidator and v.sheet_labels == v.rules.columns_of()


def test_a_pitch_hand_after_the_game_is_found_before_its_replay_and_a_jojotte_one_after():
    # PIT-GAME-2 at the deal (before the dealer's own check); JJ-SESSION-1 on the sheet, after the hand's findings
    pitch = find_variant("pitch")()
    assert pitch.session_over_phase == "deal" and find_variant("jojotte").session_over_phase == "sheet"
    over = pitch.new_sheet()._replace(scores=(54, 12), winners=(0,), over=True)
    v = pitch.session_over(over, ("Nell & Sue", "Ed & Walt"), None)
    assert v.rule == "PIT-GAME-2" and "Nell & Sue won" in v.text
    assert find_variant("jojotte")().session_over(ScoreSheet.empty(2)._replace(rubbers=(1, 0)), ("A", "B"), 1).rule == "JJ-SESSION-1"
    assert find_variant("jojotte")().session_over(ScoreSheet.empty(2)._replace(rubbers=(1, 0)), ("A", "B"), 2) is None


def test_the_two_player_view_of_each_form():
    # the analyzer asks the rules for the hand between two players: two players and the box form (JJ3-ALT-1)
    # are themselves, four players in partnerships have none, the three-player game has none before play
    two = find_variant("jojotte")()
    assert two.two_player_view(None) == (two, None, (0, 1))
    box = Jojotte3BoxRules()
    core, view, seats = box.two_player_view(None)
    assert type(core) is find_variant("jojotte") and seats == (0, 1)
    assert Jojotte4PRules().two_player_view(None) is None
    assert Jojotte3Rules().two_player_view(None)[2] == ()
