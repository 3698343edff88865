"""Benchmark: write the HTML report of a simulated archive; print hand pages/s.

    python bench/report.py                         # 100 sessions of 100 hands = 10,000 hand pages
    python bench/report.py --sessions 10 --hands 1000
    python bench/report.py --jobs 2                # the last line: report --jobs 2 against --jobs 1

The records are simulated first (not timed) into a temporary folder. Then, each
in a fresh process on one core:

* ``validate only``: what ``jojotte validate`` does (read and replay every hand);
* ``cold``: `jojotte_records.report.site.build_site` into an empty folder: read,
  validate, render and write every page;
* ``warm``: again into the same folder: every page is rendered, none is
  rewritten (the manifest's hashes match);
* ``render only``: read, validate and render, writing nothing (the cost of the
  files is the difference with ``cold``);
* ``cold, --jobs N``: ``cold`` in N processes (`replay.pool.ordered_map`), its wall
  time against ``cold`` with one, the CPU time of the main process and of the
  workers (with the forkserver), and whether the files are the same.

Each line gives hand pages/s over its whole run in wall time and in CPU time
(``time.process_time``), and for the report stage alone (the run less the
``validate only`` time).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = r"""
import json, resource, sys, time
from jojotte_records.report import site as report
from jojotte_records.replay.files import check_paths
mode, src, out, per_file, jobs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
if mode == "render":
    report._Writer.begin = lambda self: None
    report._Writer.write = lambda self, rel, text: None
    report._Writer.finish = lambda self: 0
t = time.perf_counter()
c = time.process_time()
if mode == "validate":
    hands = sum(r.hands for r in check_paths([src], keep_hands=False))
    r = {"hands": hands, "written": 0, "unchanged": 0}
else:
    site = report.build_site([src], out, hands_per_file=per_file, jobs=jobs)
    r = {"hands": site.hands, "written": site.written, "unchanged": site.unchanged}
r.update(seconds=time.perf_counter() - t, cpu=time.process_time() - c,
         peak_rss_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
if jobs > 1:  # the workers' CPU time: they are the forkserver's children, counted here once it is stopped and waited for
    from multiprocessing import forkserver
    forkserver._forkserver._stop()
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    r["workers_cpu"] = u.ru_utime + u.ru_stime
print(json.dumps(r))
"""


def measure(mode: str, src: Path, out: Path, per_file: int, jobs: int = 1) -> dict:
    run = subprocess.run([sys.executable, "-c", CHILD, mode, str(src), str(out), str(per_file), str(jobs)], check=True,
                         capture_output=True, text=True)
    return json.loads(run.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", type=int, default=100)
    ap.add_argument("--hands", type=int, default=100, help="hands per session")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hands-per-file", type=int, default=None, help="default: report.HANDS_PER_FILE")
    ap.add_argument("--jobs", type=int, default=2, help="processes of the last line (report --jobs N)")
    args = ap.parse_args()
    from jojotte_records.report.site import HANDS_PER_FILE

    per_file = args.hands_per_file or HANDS_PER_FILE

    from jojotte_records.notation.text import write_stream
    from jojotte_records.play.simulate import simulate_session

    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "records"
        src.mkdir()
        t = time.perf_counter()
        for i in range(args.sessions):
            header, hands = simulate_session("jojotte", args.hands, args.seed + i)
            with open(src / f"session-{i + 1:04d}.jjt", "w", encoding="utf-8") as f:
                write_stream([header, *hands], f)
        print(f"simulated {args.sessions:,} session(s) of {args.hands:,} hands in {time.perf_counter() - t:.1f} s (not timed below)")
        out = Path(tmp) / "site"
        base = measure("validate", src, out, per_file)
        print(f"{'validate only (jojotte validate)':>34}: {base['hands']:>7,} hands      {base['seconds']:6.2f} s"
              f" {base['hands'] / base['seconds']:>7,.0f} hands/s  (cpu {base['cpu']:.2f} s = {base['hands'] / base['cpu']:,.0f} hands/s)")
        for mode, label in (("write", "cold: empty folder"), ("write", "warm: nothing changed"), ("render", "render only, no files")):
            m = measure(mode, src, out, per_file)
            size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file()) / 1e6 if label.startswith("cold") else None
            stage = m["hands"] / max(m["seconds"] - base["seconds"], 1e-9)
            print(f"{label:>34}: {m['hands']:>7,} hand pages {m['seconds']:6.2f} s {m['hands'] / m['seconds']:>7,.0f} pages/s"
                  f" (report stage alone {stage:,.0f}/s)  written {m['written']:>6,}  unchanged {m['unchanged']:>6,}"
                  f"  cpu {m['cpu']:.2f} s = {m['hands'] / m['cpu']:,.0f} pages/s  peak RSS {m['peak_rss_mb']:.0f} MB" + (f"  site {size:.0f} MB" if size is not None else ""))
        cold = measure("write", src, Path(tmp) / "site-1", per_file)
        par = measure("write", src, Path(tmp) / "site-n", per_file, args.jobs)
        same = all((Path(tmp) / "site-1" / f.relative_to(Path(tmp) / "site-n")).read_bytes() == f.read_bytes()
                   for f in (Path(tmp) / "site-n").rglob("*") if f.is_file())
        print(f"{f'cold, --jobs {args.jobs}':>34}: {par['hands']:>7,} hand pages {par['seconds']:6.2f} s"
              f" {par['hands'] / par['seconds']:>7,.0f} pages/s, {cold['seconds'] / par['seconds']:.2f}x the wall time of"
              f" --jobs 1 ({cold['seconds']:.2f} s, cpu {cold['cpu']:.2f} s); main process cpu {par['cpu']:.2f} s,"
              f" workers and forkserver {par['workers_cpu']:.2f} s (their start-up included);"
              f" {'the same files' if same else 'FILES DIFFER'}")
        load = os.getloadavg()
        print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} core(s)")
        print(f"{per_file} hand(s) per file; pages/s counts the whole run (reading, validating, rendering, writing);"
              " the report stage leaves out the reading and validating that `jojotte validate` does too.")


if __name__ == "__main__":
    main()
