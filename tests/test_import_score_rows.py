"""The rows of ``hand_scores``: each seat's figures below and above the line are what its hand's credits add up to.

The expectations are the ``credits`` rows (one a credit, summed here), the written score of the record (a simulated
hand is scored as written) and the validator's own `HandScore.below`/`above`.
"""

from __future__ import annotations

import io

import duckdb
import pytest

from jojotte_records.archive.store import import_paths
from jojotte_records.notation.text import iter_records, write_stream
from jojotte_records.play.simulate import simulate_items
from jojotte_records.replay.jojotte import validate_stream


@pytest.mark.parametrize("game,hands", [("jojotte", 60), ("jojotte-4p", 16), ("jojotte-3", 16)])
def test_hand_scores_add_up_the_credits(tmp_path, game, hands):
    out = io.StringIO()
    write_stream(simulate_items(game, hands, 5), out)
    text = out.getvalue()
    path = tmp_path / "sim.jjt"
    path.write_text(text, encoding="utf-8")
    db = tmp_path / "a.duckdb"
    [r] = list(import_paths(db, [str(path)], batch_hands=7))
    assert r.status == "imported" and r.bad_hands == 0
    hand_points = {}  # (hand, seat) -> the validator's HandScore.below + above
    verdicts = []
    for _, found in validate_stream(iter_records(io.StringIO(text), "sim.jjt")):
        verdicts += found
    for k, v in enumerate(verdicts, 1):
        for seat in range(len(v.state.jo)):
            hand_points[k, seat] = v.score.below(seat) + v.score.above(seat)
    conn = duckdb.connect(str(db), read_only=True)
    try:
        got = conn.execute("SELECT hand_seq, seat, below, above, written_below, written_above, hand_points "
                           "FROM hand_scores ORDER BY hand_seq, seat").fetchall()
        sums = {(h, seat, line): amount for h, seat, line, amount in conn.execute(
            "SELECT hand_seq, seat, line, sum(amount) FROM credits GROUP BY ALL").fetchall()}
    finally:
        conn.close()
    assert len(got) == len(verdicts) * len({seat for _, seat, *_ in got})
    moved = 0
    for hand, seat, below, above, written_below, written_above, points in got:
        assert below == sums.get((hand, seat, "below"), 0)
        assert above == sums.get((hand, seat, "above"), 0)
        if (hand, seat) in hand_points:
            assert points == hand_points[hand, seat]
        moved += bool(below or above)
    assert moved > len(verdicts)  # figures on both sides of the line, for more than one seat
    # a simulated hand is written as scored: the sheet's figures are the written ones where the sheet's column is the seat's
    if game != "jojotte-4p":
        assert all(b == wb and a == wa for _, _, b, a, wb, wa, _ in got)
