"""``validate --json``: one shape of hand and of score column for every game (issue 13), card points included.

The expected card points are worked out by hand from the specs' card values (JJ-PTS-1/2, BAL-DECK-5/6,
PIT-PTS-1/2/3) and the example files' tricks, not read from the program.
"""

from __future__ import annotations

import pytest

from conftest import EXAMPLES
from jojotte_records.replay.files import check_paths, verdict_json

FILES = {"jojotte": "spec-rubber.jjt", "jojotte-4p": "four-partners.jjt", "jojotte-3": "three-players.jjt",
         "baloot": "baloot-match.jjt", "pitch": "pitch-game.jjt"}


def hands_of(name: str) -> list[dict]:
    doc = verdict_json(list(check_paths([str(EXAMPLES / name)])))
    return [h for f in doc["files"] for s in f["sessions"] for h in s["hands"]]


@pytest.fixture(scope="module")
def hands() -> dict[str, list[dict]]:
    return {game: hands_of(name) for game, name in FILES.items()}


def test_every_game_gives_the_same_keys(hands):
    hand_keys = {game: {frozenset(h) for h in hs} for game, hs in hands.items()}
    column_keys = {game: {frozenset(c) for h in hs for c in h["score"].values()} for game, hs in hands.items()}
    credit_keys = {game: {frozenset(cr) for h in hs for c in h["score"].values() for cr in c["credits"]}
                   for game, hs in hands.items()}
    assert all(len(k) == 1 for k in hand_keys.values()), hand_keys
    assert len(set().union(*hand_keys.values())) == 1, hand_keys
    assert all(len(k) == 1 for k in column_keys.values()), column_keys
    assert len(set().union(*column_keys.values())) == 1, column_keys
    assert len(set().union(*credit_keys.values())) == 1, credit_keys
    hand, = set().union(*hand_keys.values())
    column, = set().union(*column_keys.values())
    credit, = set().union(*credit_keys.values())
    # README "validate --json": the keys it documents stay, and the common ones are added
    assert {"hand", "ok", "errors", "unchecked", "score", "held_aside", "pool", "written_score_used", "contract",
            "sheet"} <= hand
    assert {"card_points", "trick_points", "meld_points", "total", "below", "above", "credits", "points"} <= column
    assert {"amount", "rule", "why"} <= credit


def sessions_of(name: str) -> list[dict]:
    doc = verdict_json(list(check_paths([str(EXAMPLES / name)])))
    return [s for f in doc["files"] for s in f["sessions"]]


def test_every_game_gives_the_same_session_and_sheet_keys():
    sessions = {game: sessions_of(name) for game, name in FILES.items()}
    session_keys = {game: {frozenset(s) - {"hands"} for s in ss} for game, ss in sessions.items()}
    sheet_keys = {game: {frozenset(c) for s in ss for c in s["sheet"].values()} for game, ss in sessions.items()}
    assert len(set().union(*session_keys.values())) == 1, session_keys
    assert len(set().union(*sheet_keys.values())) == 1, sheet_keys
    assert set().union(*sheet_keys.values()) == {frozenset({"below", "above", "games", "rubbers", "total"})}
    # the games without a line: only the total, which is the column's score (PIT-GAME-1, BAL-MATCH-1)
    pitch, = sessions["pitch"]
    assert all(c["below"] is None and c["rubbers"] is None for c in pitch["sheet"].values())
    assert pitch["sheet"]["NS"]["total"] == pitch["hands"][-1]["sheet"]["NS"]
    # the winner: one label (or null), and the list of every winning column, in every game
    for ss in sessions.values():
        for s in ss:
            assert s["winner"] in (s["winners"] + [None])
            assert s["winner"] is None or s["winners"] == [s["winner"]]


def test_games_without_a_line_or_a_pool(hands):
    for game in ("baloot", "pitch"):
        for h in hands[game]:
            assert h["held_aside"] == 0 and h["pool"] is None
            assert all(c["below"] is None and c["above"] is None for c in h["score"].values())
    assert all(c["meld_points"] == 0 for h in hands["pitch"] for c in h["score"].values())


def test_jojotte_two_players_card_points(hands):
    # spec-rubber.jjt hand 1 (spec Example 1), hearts trumps, JJ-PTS-1 values, tricks won:
    #   A: t1 AC+KH 10+5, t3 TC+9H 10+15, t4 JH+8H 20+0, t7 9D+KD 0+5, t8 TS+7D 10+0, t9 QD+8D 5+0 and the
    #      last-trick 10 (JJ-PTS-2) = 15+25+20+5+10+15 = 90
    #   B: t2 QH+TH 5+10, t5 AS+AH 10+10, t6 KC+8S 5+0 = 15+20+5 = 40
    # the 18 played cards hold 120 and the last trick 10: 130 (JJ-PTS-6); A's trick score adds the Jo-Jotte 20
    # (JJ-PTS-3) to his 90: 110, the figure written below the line
    h = hands["jojotte"][0]
    assert h["score"]["A"]["card_points"] == 90 and h["score"]["B"]["card_points"] == 40
    assert h["score"]["A"]["trick_points"] == 110 and h["score"]["B"]["trick_points"] == 40
    assert h["contract"] == "A H"
    assert h["score"]["A"]["points"] == 130  # below 110 + above 20
    assert {cr["rule"] for cr in h["score"]["A"]["credits"]} >= {"JJ-SCORE-3"}


def test_jojotte_four_players_whole_pack(hands):
    # JJ-PTS-5: all 32 cards are played; card points and last trick: suit 155 + 10, NT 120 + 10, Nullo 120
    expected = {"Nullo": 120, "NT": 130}
    played = [h for h in hands["jojotte-4p"] if h["score"] and h["score"]["NS"]["card_points"] is not None]
    assert len(played) >= 3
    for h in played:
        word = h["contract"].split(",")[0].split()[1]
        assert sum(c["card_points"] for c in h["score"].values()) == expected.get(word, 165), h["contract"]


def test_baloot_abnat_adds_up_to_the_pack(hands):
    # BAL-DECK-7: 162 in Hokum (trumps 62, three plain suits 3 × 30, the last trick 10), 130 in Sun (4 × 30 + 10)
    played = [h for h in hands["baloot"] if h["score"] and h["score"]["NS"]["card_points"] is not None]
    assert len(played) >= 2
    kinds = set()
    for h in played:
        kind = "hokum" if "hokum" in h["contract"] else "sun"
        kinds.add(kind)
        assert sum(c["card_points"] for c in h["score"].values()) == {"hokum": 162, "sun": 130}[kind], h["contract"]
        for c in h["score"].values():
            # BAL-SCORE-6: the total is the card game points and the projects and Baloot
            assert c["total"] == c["trick_points"] + c["meld_points"]
    assert kinds == {"hokum", "sun"}
    # hand 1, Sun: game points 6 for N-S's 31 cp (BAL-SCORE-4: u = 1 < 5, 2 × 3), 26 - 6 = 20 for W-E (BAL-SCORE-4)
    first = hands["baloot"][0]
    assert first["score"]["NS"]["card_points"] == 31 and first["score"]["WE"]["card_points"] == 99
    assert first["score"]["NS"]["trick_points"] == 6 and first["score"]["WE"]["trick_points"] == 20


def test_pitch_points_won(hands):
    # pitch-game.jjt hand 1 (spec §15 example 1), hearts trumps, PIT-PTS-1: A, J, off-J (JD), X1, X2, T, 2 one
    # each, the 3 three. All ten are played: t1 AH (S wins), t2 2H X1 X2 (S's KH wins; the 2 is automatic,
    # PIT-PTS-3, so it goes to W who played it), t3 JD JH (S), t4 3H (automatic, S), t5 TH (S), t6 none.
    # N-S: 1 + 2 + 2 + 3 + 1 = 9; E-W: the 2 = 1; 9 + 1 = 10 = N with no dead card (PIT-PTS-5)
    h = hands["pitch"][0]
    assert h["score"]["NS"]["card_points"] == 9 and h["score"]["EW"]["card_points"] == 1
    assert h["contract"] == "S bids 6, hearts"
    assert h["score"]["NS"]["points"] == 6 and h["score"]["EW"]["points"] == 1
    for h in hands["pitch"]:
        for c in h["score"].values():
            if c["card_points"] is not None:
                assert c["trick_points"] == c["card_points"] and c["meld_points"] == 0
        if h["score"] and h["score"]["NS"]["card_points"] is not None:
            assert sum(c["card_points"] for c in h["score"].values()) <= 10  # PIT-PTS-5: N minus the dead points
