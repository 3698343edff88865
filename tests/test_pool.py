"""``--jobs``: the pool gives results in input order, the same as one process (issue 14)."""

import pytest

from jojotte_records.replay.pool import jobs_count, ordered_map


def _square_after_wait(n: int) -> int:
    import time

    time.sleep(0.001 * (n % 3))  # later items may finish first: the order must still be the input's
    return n * n


def _boom(n: int) -> int:
    if n == 5:
        raise ValueError("five")
    return n


def test_results_come_in_input_order_with_two_workers():
    items = list(range(40))
    assert list(ordered_map(_square_after_wait, items, jobs=2, window=3)) == [n * n for n in items]


def test_one_job_runs_here_lazily():
    seen = []

    def f(n):
        seen.append(n)
        return n

    it = ordered_map(f, range(10), jobs=1)
    assert seen == []  # nothing done before the first result is asked for
    assert next(it) == 0 and seen == [0]


def test_an_error_in_a_worker_is_raised_at_its_turn():
    it = ordered_map(_boom, range(10), jobs=2)
    assert [next(it) for _ in range(5)] == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError, match="five"):
        next(it)


def test_jobs_zero_means_every_core_and_negative_is_refused():
    assert jobs_count(0) >= 1
    assert jobs_count(3) == 3
    with pytest.raises(ValueError):
        jobs_count(-1)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_ready_item_is_its_own_result_at_its_turn(jobs):
    from jojotte_records.replay.pool import Ready

    items = [3, Ready("done here"), 4, Ready(None), 5]
    assert list(ordered_map(_square_after_wait, items, jobs=jobs, window=2)) == [9, "done here", 16, None, 25]
