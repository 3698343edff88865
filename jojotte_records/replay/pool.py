"""``--jobs N``: work fanned out to worker processes, results given back in input order.

One helper for every command that takes ``--jobs`` (validate, import, analyze, report): the caller cuts its
input into independent pieces (files, or sessions of a file), names a module-level function that does one
piece, and reads the results in the order of the pieces, so the output is the same byte for byte as with
one process. At most ``window`` pieces are in flight, so memory stays bounded however long the input.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import ExitStack
from typing import Generic, NamedTuple, TypeVar

T = TypeVar("T")
R = TypeVar("R")


class Ready(NamedTuple, Generic[R]):
    """An item whose result the caller already has (work it had to do here): `ordered_map` gives ``value``
    back at the item's turn, without sending it to a worker."""

    value: R


def jobs_count(jobs: int) -> int:
    """The number of processes ``--jobs N`` asks for: 0 means every core, 1 (the default) this process only."""
    if jobs < 0:
        raise ValueError("--jobs must be 0 (every core) or a positive number")
    if jobs == 0:
        return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)
    return jobs


def ordered_map(fn: Callable[[T], R], items: Iterable[T], jobs: int = 1, window: int | None = None,
                preload: Iterable[str] = ()) -> Iterator[R]:
    """``fn(item)`` for every item, yielded in the order of ``items``.

    With ``jobs`` 1 everything runs here, lazily. With more, ``fn`` (a module-level function, its items and
    results picklable) runs in that many worker processes, with at most ``window`` items (by default four
    per worker) read ahead of the result being yielded. ``preload`` names modules the workers import once
    before their first item. An exception raised by ``fn`` is raised here, at its item's turn. An item wrapped in
    `Ready` is its own result.

    With ``JOJOTTE_POOL_CPU`` set to a file name (`CPU_LOG`, for ``bench/jobs.py``), each worker's CPU time
    (`time.process_time`, as of its last item) is appended to that file when the work is done, one
    ``pid seconds`` line a worker; the items to that name + ``.items``, one ``pid start end sent`` line an
    item in input order: the worker's CPU time before and after it, and this process's when it was sent; and to
    that name + ``.reaped`` the CPU time of the processes this one has waited for (its forked workers), which the
    operating system counts in its own when it ends.
    """
    n = jobs_count(jobs)
    if n == 1:
        for item in items:
            yield item.value if isinstance(item, Ready) else fn(item)
        return
    window = window or 4 * n
    log = os.environ.get(CPU_LOG)
    cpu: dict[int, float] = {}
    sent: list[float] = []  # with the log: this process's CPU time when each item was sent to a worker
    timed: list[tuple] = []  # and (pid, start, end) of each item whose result was taken
    with ExitStack() as stack:
        pool = None
        pending: deque[Future] = deque()
        try:
            for item in items:
                if isinstance(item, Ready):
                    done: Future = Future()
                    done.set_result(item.value)
                    pending.append(done)
                else:
                    if pool is None:  # made, its workers started, at the first item sent: how as of then (`_context`)
                        pool = stack.enter_context(ProcessPoolExecutor(max_workers=n, mp_context=_context(preload),
                                                                       initializer=_watch_parent,
                                                                       initargs=(os.getpid(),)))
                    if log:
                        sent.append(time.process_time())
                        pending.append(pool.submit(_timed, fn, item))
                    else:
                        pending.append(pool.submit(fn, item))
                if len(pending) >= window:
                    yield _result(pending.popleft(), cpu, timed)
            while pending:
                yield _result(pending.popleft(), cpu, timed)
        finally:  # a consumer that stops early (or an error) leaves no work running
            for f in pending:
                f.cancel()
    if log and cpu:
        with open(log, "a", encoding="utf-8") as f:
            f.writelines(f"{pid} {t:.6f}\n" for pid, t in sorted(cpu.items()))
        with open(log + ".items", "a", encoding="utf-8") as f:
            f.writelines(f"{pid} {start:.6f} {end:.6f} {at:.6f}\n" for (pid, start, end), at in zip(timed, sent))
        import resource

        reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
        with open(log + ".reaped", "w", encoding="utf-8") as f:
            f.write(f"{reaped.ru_utime + reaped.ru_stime:.6f}\n")


CPU_LOG = "JOJOTTE_POOL_CPU"


class _Timed(NamedTuple):
    value: object
    pid: int
    start: float  # the worker's CPU time before the item
    cpu: float  # the worker's CPU time so far


def _timed(fn, item) -> _Timed:
    start = time.process_time()
    value = fn(item)
    return _Timed(value, os.getpid(), start, time.process_time())


def _result(f: Future, cpu: dict[int, float], timed: list[tuple]):
    r = f.result()
    if isinstance(r, _Timed):
        cpu[r.pid] = max(cpu.get(r.pid, 0.0), r.cpu)
        timed.append((r.pid, r.start, r.cpu))
        return r.value
    return r


def _watch_parent(parent: int, every: float = 0.5) -> None:
    """In a worker: leave as soon as the process that asked for the work is gone. A parent killed by a signal it
    cannot clean up after (SIGTERM, SIGKILL) would otherwise leave its workers computing their pieces, orphaned."""
    import threading
    import time

    def watch() -> None:
        while True:
            time.sleep(every)
            try:
                os.kill(parent, 0)
            except ProcessLookupError:
                os._exit(1)
            except PermissionError:  # the pid was taken by another user's process: ours is gone
                os._exit(1)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def _context(preload: Iterable[str]):
    # fork when this process runs one thread (no lock of another thread's, a progress bar's or a database's, can be
    # copied held): the workers start at once with what is imported here, the modules they need imported here once.
    # Else forkserver where there is one: workers start from a small clean process, the modules imported there once.
    modules = list(preload)
    if _one_thread() and "fork" in multiprocessing.get_all_start_methods():
        import importlib

        for m in modules:
            importlib.import_module(m)
        return multiprocessing.get_context("fork")
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        if modules:
            context.set_forkserver_preload(modules)
        return context
    return multiprocessing.get_context("spawn")


def _one_thread() -> bool:
    """Whether this process runs one thread, native threads included (Linux: ``/proc/self/task``); False where
    that cannot be told."""
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False
