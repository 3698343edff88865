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


def _session_processes(sid: int) -> list[int]:
    """The live processes (not zombies) of session ``sid``, from /proc (Linux)."""
    import os

    found = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    stat = f.read()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()  # after "pid (comm) ": state ppid pgrp session ...
            if int(fields[3]) == sid and fields[0] != "Z":
                found.append(int(d))
    return found


@pytest.mark.skipif(not __import__("os").path.isdir("/proc/self"), reason="reads the process table from /proc (Linux)")
def test_workers_do_not_outlive_a_killed_parent(tmp_path):
    # a fault: `kill PID` (SIGTERM) of `jojotte validate --jobs 2` left its workers computing, orphaned, for as long
    # as their piece took (27 minutes in the fuzz run); the workers watch the parent and leave when it is gone
    import os
    import signal
    import subprocess
    import sys
    import time

    script = tmp_path / "slow.py"
    script.write_text(
        "import time\n"
        "from jojotte_records.replay.pool import ordered_map\n"
        "def slow(n):\n"
        "    end = time.monotonic() + 120\n"
        "    while time.monotonic() < end:\n"
        "        pass\n"
        "    return n\n"
        "if __name__ == '__main__':\n"
        "    print('started', flush=True)\n"
        "    for r in ordered_map(slow, range(4), jobs=2):\n"
        "        print(r, flush=True)\n", encoding="utf-8")
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, start_new_session=True,
                            cwd=tmp_path, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    try:
        assert proc.stdout.readline().strip() == b"started"
        deadline = time.monotonic() + 60
        while len(_session_processes(proc.pid)) < 3 and time.monotonic() < deadline:  # parent, 2 workers (forked)
            time.sleep(0.2)
        assert len(_session_processes(proc.pid)) >= 3
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        deadline = time.monotonic() + 30
        while _session_processes(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _session_processes(proc.pid) == []
    finally:
        for pid in _session_processes(proc.pid):
            os.kill(pid, signal.SIGKILL)


def _burn(n: int) -> int:
    import time

    t = time.process_time()
    while time.process_time() - t < 0.02:  # 20 ms of this process's CPU time
        pass
    return n + 1


def test_each_workers_cpu_time_is_written_where_asked(tmp_path, monkeypatch):
    """``JOJOTTE_POOL_CPU`` (`pool.CPU_LOG`, for bench/jobs.py): one ``pid seconds`` line a worker, whose seconds
    hold the 20 ms of CPU time each of its items burnt; the results are as without it."""
    import os

    from jojotte_records.replay import pool
    from jojotte_records.replay.pool import CPU_LOG

    log = tmp_path / "cpu.txt"
    monkeypatch.setenv(CPU_LOG, str(log))
    monkeypatch.setattr(pool, "_one_thread", lambda: True)  # the workers forked from here: this process reaps them
    assert list(ordered_map(_burn, range(10), jobs=2)) == list(range(1, 11))
    rows = [line.split() for line in log.read_text().splitlines()]
    pids = [int(pid) for pid, _ in rows]
    assert 1 <= len(rows) <= 2 and len(set(pids)) == len(pids) and os.getpid() not in pids
    assert sum(float(t) for _, t in rows) >= 10 * 0.02
    # and each item, in input order: its worker, that worker's CPU time before and after it, ours when it was sent
    items = [line.split() for line in (tmp_path / "cpu.txt.items").read_text().splitlines()]
    assert len(items) == 10 and {int(pid) for pid, *_ in items} <= set(pids)
    assert all(float(end) - float(start) >= 0.02 for _, start, end, _ in items)
    sent = [float(at) for *_, at in items]
    assert sent == sorted(sent)
    # the CPU time of the processes reaped here covers the forked workers' (bench/jobs.py takes it out of ours)
    assert float((tmp_path / "cpu.txt.reaped").read_text()) >= sum(float(t) for _, t in rows) - 0.005


_MARK = "as imported"


def _mark(_) -> str:
    return _MARK


@pytest.mark.parametrize("one_thread", [True, False])
def test_workers_are_forked_only_from_a_process_of_one_thread(monkeypatch, one_thread):
    """fork copies the calling thread alone (a lock another thread holds would stay held in the worker): the workers
    are forked, and see what this process set, only when it runs one thread; else they start from a fork server,
    where this module is imported afresh."""
    import sys

    from jojotte_records.replay import pool

    monkeypatch.setattr(sys.modules[__name__], "_MARK", "set here")
    monkeypatch.setattr(pool, "_one_thread", lambda: one_thread)
    assert list(ordered_map(_mark, range(3), jobs=2)) == ["set here" if one_thread else "as imported"] * 3


@pytest.mark.skipif(not __import__("os").path.isdir("/proc/self/task"), reason="counts threads in /proc (Linux)")
def test_one_thread_is_told_from_the_threads_running():
    import subprocess
    import sys
    import threading

    from jojotte_records.replay.pool import _one_thread

    code = "from jojotte_records.replay.pool import _one_thread; print(_one_thread())"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "True"
    stop = threading.Event()
    t = threading.Thread(target=stop.wait)
    t.start()
    try:
        assert not _one_thread()
    finally:
        stop.set()
        t.join()
