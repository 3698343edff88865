"""Benchmark: ``jojotte validate --jobs 1`` against ``--jobs 2`` on 50,000 simulated hands (issue 14: >= 1.8x, the same output).

    python bench/jobs.py                 # the three files below, median of 3 runs
    python bench/jobs.py --hands 10000 --runs 1 --jobs 1 2 0
    python bench/jobs.py --keep /tmp/bench --only one-session   # simulated once into /tmp/bench, then reused

Files (simulated once into a temporary folder):

* ``one-session``: ``jojotte simulate --hands N --seed 1``: the simulator writes two-player Jo-Jotte as one
  session, cut into chunks of hands (`replay.files.CHUNK_CHARS`, about 2,700 hands) that the workers validate,
  each after replaying the `WARM_HANDS` hands before its chunk; the parent takes a chunk's verdicts when the
  worker started from the true state of the sheet but for its running totals (`Rules.sheet_carry`), else
  validates the chunk again itself;
* ``ten-sessions``: ten two-player sessions of N/10 hands (seeds 1..10), one file;
* ``pitch``: ``jojotte simulate --game pitch --hands N``: one session per game (several hundred).

Each run is the ``jojotte`` command in a fresh process (the runs of each ``--jobs`` alternating), stdout to a
file (compared byte for byte with the ``--jobs 1`` output, with ``cmp``'s verdict printed). Figures: wall time, and the CPU time (user + sys) of the
command and every process under it (the pool's workers and any fork server included: this process makes
itself their reaper, so that ``resource.getrusage(RUSAGE_CHILDREN)`` counts them), of the median run by CPU
time; with workers, from the CPU times only (what decides the speed-up on idle cores, however loaded the machine
is now):

* (a) ``parent``: the command's own CPU time (``os.wait4``, less that of the workers it forked and waited for,
  which the pool writes to ``JOJOTTE_POOL_CPU`` + ``.reaped``) and its share of all (it competes with the
  workers for the cores);
* (b) ``all``: the CPU time of every process against the one process's (``overhead``: cutting, sending and
  receiving the pieces, the warm-up hands of the chunks, starting the workers);
* (c) each worker's CPU time (its `time.process_time` as of its last piece, which the pool writes to the file
  ``JOJOTTE_POOL_CPU`` names, `pool.CPU_LOG`), the rest (a fork server's start-up and imports, the workers'
  exits), and ``tail``: the time one worker waits for the other's last piece at the end, with the pieces'
  CPU times (``JOJOTTE_POOL_CPU`` + ``.items``) scheduled as the pool hands them out on idle cores: each to the
  first worker free, not before the parent's CPU time at which it sent it (``makespan``: when the last ends);
* ``bound``: the speed-up idle cores would give, the one process's CPU time / the longest of: all the CPU time
  shared by the cores, the makespan (+ the rest), the parent's own.
"""

from __future__ import annotations

import argparse
import ctypes
import filecmp
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

PR_SET_CHILD_SUBREAPER = 36


def jojotte() -> list[str]:
    exe = Path(sys.executable).with_name("jojotte")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("jojotte")
    return [found] if found else [sys.executable, "-m", "jojotte_records"]


def reap_all() -> None:
    """Wait for every process left under this one (the pool's fork server outlives the command by a moment)."""
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return


class Run(NamedTuple):
    cpu: float  # the command and every process under it
    wall: float
    code: int
    own: float  # the command's own process (the parent)
    workers: tuple[float, ...]  # each worker's, as it reported it (`pool.CPU_LOG`), as of its last piece
    items: tuple[tuple[int, float, float, float], ...]  # (pid, worker CPU before, after, parent CPU when sent)


def schedule(items, workers: int, ready: float) -> tuple[float, float]:
    """(makespan, tail) of ``items`` (`Run.items`) on ``workers`` idle cores, as the pool hands them out: in
    order, each to the first worker free, not before it was sent; the workers free from ``ready``. The tail: the
    makespan less the time the first worker to run out of pieces became free."""
    free = [ready] * workers
    for _, start, end, sent in items:
        k = min(range(workers), key=free.__getitem__)
        free[k] = max(free[k], sent) + (end - start)
    return max(free), max(free) - min(free)


def timed(argv: list[str], out: Path) -> Run:
    log = out.with_suffix(".cpu")
    log.unlink(missing_ok=True)
    env = {**os.environ, "JOJOTTE_POOL_CPU": str(log)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # (see `main`)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    with open(out, "wb") as f:
        proc = subprocess.Popen(argv, stdout=f, stderr=subprocess.DEVNULL, env=env)
        _, status, own = os.wait4(proc.pid, 0)
        proc.returncode = code = os.waitstatus_to_exitcode(status)
    reap_all()
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    workers = tuple(float(line.split()[1]) for line in log.read_text().splitlines()) if log.exists() else ()
    items_log = Path(f"{log}.items")
    items = tuple((int(p), float(a), float(b), float(c)) for p, a, b, c in map(str.split, items_log.read_text().splitlines())
                  ) if items_log.exists() else ()
    items_log.unlink(missing_ok=True)
    reaped_log = Path(f"{log}.reaped")  # the forked workers' CPU time, which wait4 counts in the command's own
    reaped = float(reaped_log.read_text()) if reaped_log.exists() else 0.0
    reaped_log.unlink(missing_ok=True)
    return Run(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, wall, code,
               own.ru_utime + own.ru_stime - reaped, workers, items)


def make_file(name: str, path: Path, hands: int) -> None:
    cmd = jojotte()
    if name == "one-session":
        subprocess.run(cmd + ["simulate", "--hands", str(hands), "--seed", "1", "--out", str(path)], check=True)
    elif name == "ten-sessions":
        with open(path, "w", encoding="utf-8") as f:
            for seed in range(1, 11):
                text = subprocess.run(cmd + ["simulate", "--hands", str(hands // 10), "--seed", str(seed)],
                                      check=True, capture_output=True, text=True).stdout
                f.write(text + "\n")
    else:
        subprocess.run(cmd + ["simulate", "--game", "pitch", "--hands", str(hands), "--seed", "1", "--out", str(path)],
                       check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--keep", type=Path, help="simulate into this folder (kept, and reused when it has the files)")
    parser.add_argument("--only", nargs="+", choices=["one-session", "ten-sessions", "pitch"],
                        help="time these files only")
    args = parser.parse_args()
    if hasattr(ctypes, "CDLL") and sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    # a user's command reads compiled modules (``__pycache__``, written at install or by the first run): the runs
    # are timed with them written (compileall), without PYTHONDONTWRITEBYTECODE, which would time the compiler in the
    # parent, the fork server and any spawned worker at each run
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    package = Path(__file__).resolve().parent.parent / "jojotte_records"
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], stdout=subprocess.DEVNULL, env=env)
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        t = time.perf_counter()
        names = args.only or ["one-session", "ten-sessions", "pitch"]
        files = {n: folder / f"{n}.jjt" for n in names}
        for n, p in files.items():
            if not p.exists():
                make_file(n, p, args.hands)
        print(f"{args.hands:,} hands per file, simulated in {time.perf_counter() - t:.1f} s; median of {args.runs} "
              f"run(s); {os.cpu_count()} core(s)")
        for name, path in files.items():
            base = None
            # the runs of each --jobs alternate, so that a load that comes and goes weighs on each alike
            by_jobs: dict[int, list[Run]] = {jobs: [] for jobs in args.jobs}
            for _ in range(args.runs):
                for jobs in args.jobs:
                    by_jobs[jobs].append(timed(jojotte() + ["validate", str(path), "--jobs", str(jobs)],
                                               folder / f"{name}.jobs{jobs}.out"))
            for jobs in args.jobs:
                out = folder / f"{name}.jobs{jobs}.out"
                runs = by_jobs[jobs]
                run = sorted(runs, key=lambda r: r.cpu)[len(runs) // 2]  # the median run by CPU time
                cpu, own = run.cpu, run.own
                wall = statistics.median(r.wall for r in runs)
                same = ""
                if base is None:
                    base = (out, wall, cpu)
                else:
                    same = "same output" if filecmp.cmp(base[0], out, shallow=False) else "OUTPUT DIFFERS"
                    ws = run.workers
                    # the rest: a fork server (its start-up and imports, before any worker starts) and the
                    # workers' exits, counted on the critical path
                    rest = max(0.0, cpu - own - sum(ws))
                    ready = (run.items[0][3] if run.items else own) + rest
                    makespan, tail = schedule(run.items, max(len(ws), 1), ready)
                    cores = min(jobs or os.cpu_count() or 1, os.cpu_count() or 1)
                    bound = base[2] / max(cpu / cores, makespan, own)
                    same += (f"; wall speed-up {base[1] / wall:.2f}x\n    (a) parent {own:.2f} s ({own / cpu:.1%} of all)"
                             f"  (b) all {cpu:.2f} s vs {base[2]:.2f} s: overhead {cpu / base[2] - 1:+.1%}"
                             f"  (c) workers {' + '.join(f'{w:.2f}' for w in ws) or '?'} s, rest {rest:.2f} s, "
                             f"{len(run.items)} pieces, makespan {makespan:.2f} s, tail {tail:.2f} s"
                             f"  => bound {bound:.2f}x")
                print(f"{name:13s} --jobs {jobs}: wall {wall:7.2f} s  CPU {cpu:7.2f} s  exit {run.code}  {same}")

if __name__ == "__main__":
    main()
