"""The archive's ``tricks.points`` for the games recorded as a log of events (docs/archive.md, ``tricks``).

Each value below is worked out by hand from the spec's card values and the example file's trick.
"""

from __future__ import annotations

from conftest import EXAMPLES
from jojotte_records.archive.store import import_paths, run_sql


def trick_points(tmp_path, name: str) -> dict[tuple[int, int], int | None]:
    db = tmp_path / "a.duckdb"
    list(import_paths(db, [str(EXAMPLES / name)]))
    rows = run_sql(db, "SELECT hand_seq, trick_no, points FROM tricks ORDER BY hand_seq, trick_no").rows
    return {(h, t): p for h, t, p in rows}


def test_baloot_tricks_carry_their_card_points(tmp_path):
    points = trick_points(tmp_path, "baloot-match.jjt")
    assert points and all(p is not None for p in points.values())
    # hand 1 is Sun (BAL-DECK-5, no trumps): trick 1 KC 4 + TC 10 + JC 2 + 7C 0 = 16;
    # trick 8 QD 3 + QH 3 + KS 4 + AS 11 = 21, and the last-trick 10 (BAL-DECK-6) = 31
    assert points[(1, 1)] == 16 and points[(1, 8)] == 31
    # BAL-DECK-7: a hand's eight tricks hold 130 in Sun
    assert sum(points[(1, t)] for t in range(1, 9)) == 130


def test_pitch_tricks_carry_their_points(tmp_path):
    points = trick_points(tmp_path, "pitch-game.jjt")
    assert points and all(p is not None for p in points.values())
    # hand 1, hearts trumps (PIT-PTS-1): trick 2 S KH 0, W 2H 1, N X1 1, E X2 1 = 3; trick 3 JD (off-jack) 1 +
    # JH 1 + 9H 0 = 2; trick 4 8H 0 + 3H 3 = 3; trick 6 5H 0
    assert (points[(1, 2)], points[(1, 3)], points[(1, 4)], points[(1, 6)]) == (3, 2, 3, 0)
    # all ten points of the variant were in play in hand 1 (PIT-PTS-5): AH 1, the three of trick 2, JD JH, 3H, TH
    assert sum(points[(1, t)] for t in range(1, 7)) == 10
