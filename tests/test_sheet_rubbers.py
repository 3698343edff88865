"""`ScoreSheet.rubber_results` over a long session (JJ-GAME-1/3, JJ-RUBBER-1/2): a `RubberResults` that equals the
tuple of the same rubbers for every use (len, [-1], [i], slices, iteration, equality, hashing, pickling, `rebase`),
and that shares the rubbers before it instead of copying them at each new rubber (linear over a session)."""

from __future__ import annotations

import pickle
import random
import tracemalloc
from collections.abc import Sequence

from jj_helpers import hand_score

from jojotte_records.rules.jojotte import JojotteOptions
from jojotte_records.rules.jojotte_sheet import RubberResults, ScoreSheet

OPTIONS = JojotteOptions()
TARGET = OPTIONS.game_target  # JJ-GAME-1
BONUS = OPTIONS.rubber_bonus  # JJ-RUBBER-1


def _session(seats_winning: list[int]):
    """The sheet after hands each giving the seat named the game target below the line, and the rubbers the rules
    give for them, worked out here: a game per hand (JJ-GAME-1), the below-the-line points of the game wiped for
    both (JJ-GAME-3), a rubber at a seat's second game with its bonus (JJ-RUBBER-1), scored as the points each
    seat made in that rubber (JJ-RUBBER-2)."""
    sheet = ScoreSheet.empty(2)
    sheets = [sheet]
    expected = []
    games, points = [0, 0], [0, 0]
    for seat in seats_winning:
        sheet, _ = sheet.add(hand_score(below={seat: TARGET}), OPTIONS)
        sheets.append(sheet)
        games[seat] += 1
        points[seat] += TARGET
        if games[seat] == 2:
            points[seat] += BONUS
            expected.append((seat, tuple(points)))
            games, points = [0, 0], [0, 0]
    return sheets, tuple(expected)


def test_rubber_results_equal_the_tuple_of_the_rubbers():
    rng = random.Random(7)
    sheets, expected = _session([rng.randrange(2) for _ in range(3000)])
    results = sheets[-1].rubber_results
    assert len(expected) > 1000  # a long session (else this test proves little)
    assert isinstance(results, Sequence)
    assert results == expected and expected == results and not results != expected
    assert tuple(results) == expected and list(results) == list(expected)
    assert len(results) == len(expected) and results[-1] == expected[-1] and results[0] == expected[0]
    assert [results[i] for i in range(-len(expected), len(expected), 97)] == \
        [expected[i] for i in range(-len(expected), len(expected), 97)]
    assert results[10:20] == expected[10:20] and results[::-500] == expected[::-500]
    assert list(reversed(results)) == list(reversed(expected))
    assert results.index(expected[5]) == expected.index(expected[5]) and results.count(expected[0]) == expected.count(expected[0])
    assert hash(results) == hash(expected)
    assert results != expected[:-1] and results != expected[:-1] + ((1 - expected[-1][0], expected[-1][1]),)
    assert pickle.loads(pickle.dumps(results)) == expected
    assert pickle.loads(pickle.dumps(sheets[-1])) == sheets[-1]
    every = [len(s.rubber_results) for s in sheets]
    assert every == sorted(every) and all(s.rubber_results == expected[:n] for s, n in zip(sheets[::250], every[::250]))


def test_rebase_moves_the_rubbers_as_the_tuple_form_does():
    """`rebase`: the sheet's rubbers after ``start`` put after ``base``'s (the tuple form: base + self[len(start):])."""
    rng = random.Random(3)
    sheets, expected = _session([rng.randrange(2) for _ in range(400)])
    start, end = sheets[100], sheets[-1]
    base = ScoreSheet.empty(2)._replace(rubber_results=((1, (7, 8)), (0, (9, 10))))  # a tuple is taken too
    moved = end.rebase(start, base)
    tail = expected[len(start.rubber_results):]
    assert moved.rubber_results == ((1, (7, 8)), (0, (9, 10))) + tail
    sheet, _ = base.add(hand_score(below={0: TARGET}), OPTIONS)
    sheet, _ = sheet.add(hand_score(below={0: TARGET}), OPTIONS)
    assert sheet.rubber_results == ((1, (7, 8)), (0, (9, 10)), (0, (2 * TARGET + BONUS, 0)))


def test_a_new_rubber_does_not_copy_the_earlier_ones():
    """Adding the rubber that follows 20,000 others allocates what one rubber needs, not a copy of the 20,000 (a
    tuple rebuilt by concatenation: 8 bytes a rubber, 160 kB, quadratic over the session)."""
    sheets, expected = _session([0, 0, 1, 1] * 10_000)  # every second hand ends a rubber, the seats in turn
    assert len(sheets[-1].rubber_results) == 20_000
    sheet = sheets[-1]
    one, _ = sheet.add(hand_score(below={0: TARGET}), OPTIONS)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        two, _ = one.add(hand_score(below={0: TARGET}), OPTIONS)
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(two.rubber_results) == 20_001 and two.rubber_results[-1] == (0, (2 * TARGET + BONUS, 0))
    assert grown < 20_000 * 8 // 4, grown
    assert isinstance(two.rubber_results, RubberResults)
