"""Benchmark: import a 100,000-hand simulated archive; print hands/s end to end and plays/s for the load step.

    python bench/import.py                   # 100,000 hands: 10 sessions of 10,000
    python bench/import.py --hands 20000 --sessions 4
    python bench/import.py --records big.jjt   # e.g. jojotte simulate --hands 200000 --seed 1 --out big.jjt
    python bench/import.py --hands 20000 --sessions 8 --files 8 --jobs 2   # a folder of 8 files, two processes

The sessions are simulated (`jojotte_records.play.simulate.simulate_session`) and written
with `notation.write_stream` into one temporary file, then imported into a fresh
archive by `archive.import_paths`, exactly as ``jojotte import`` does: parse,
validate and score every hand, gather the rows, load them as Arrow tables, commit.

* **end to end**: hands imported / CPU time of the import (``time.process_time``, validation included), beside
  the wall time;
* **peak memory**: the import runs in a child process, whose peak resident set size
  (``resource.getrusage(RUSAGE_SELF).ru_maxrss``) is printed beside ``jojotte validate``'s of the same file
  (issue 16 item 5: the import should stay near the validator's, whatever the file's size);
* **load step**: plays stored / time spent building the plays' Arrow tables and inserting
  them (``FileImport.table_seconds["plays"]``); and every row of every table / the whole
  load step, commit included (``FileImport.load_seconds``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

# the measuring child: one import (or one validation) of a file, its figures as JSON on stdout
_CHILD = """
import json, resource, sys, time
mode, db, path, jobs = sys.argv[1:5]
t, c = time.perf_counter(), time.process_time()
if mode == "import":
    from jojotte_records.archive.store import import_paths
    rs = list(import_paths(db, [path], jobs=int(jobs)))
    seconds = {}
    for r in rs:
        for k, v in (r.table_seconds or {}).items():
            seconds[k] = seconds.get(k, 0.0) + v
    out = dict(status="imported" if all(r.status == "imported" for r in rs) else "error", bad=sum(r.bad_hands for r in rs),
               hands=sum(r.hands for r in rs), plays=sum(r.plays for r in rs), describe="; ".join(r.describe() for r in rs),
               load_seconds=sum(r.load_seconds for r in rs), table_seconds=seconds)
else:
    from jojotte_records.replay.files import open_records
    from jojotte_records.replay.jojotte import validate_stream
    out = dict(hands=sum(s.hands for s, _ in validate_stream(open_records(path), keep_hands=False)))
out.update(cpu=time.process_time() - c, wall=time.perf_counter() - t,
           maxrss_mib=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
print(json.dumps(out))
"""


def _child(mode: str, db: Path, records: Path, jobs: int = 1) -> dict:
    done = subprocess.run([sys.executable, "-c", _CHILD, mode, str(db), str(records), str(jobs)], capture_output=True,
                          text=True)
    if done.returncode:
        raise SystemExit(done.stderr)
    return json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=100_000, help="hands in all")
    ap.add_argument("--sessions", type=int, default=10, help="sessions they are split into")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", metavar="DIR", help="keep the record file and the archive in DIR")
    ap.add_argument("--records", metavar="FILE", help="import this record file instead of simulating one")
    ap.add_argument("--no-validate", action="store_true", help="skip the validator's run beside the import")
    ap.add_argument("--files", type=int, default=1, help="write the sessions into this many files of a folder")
    ap.add_argument("--jobs", type=int, default=1, help="jojotte import --jobs N (0: every core)")
    args = ap.parse_args()

    import time

    from jojotte_records.archive.store import table_counts
    from jojotte_records.notation.text import write_stream
    from jojotte_records.play.simulate import simulate_session

    tmp = tempfile.TemporaryDirectory()
    folder = Path(args.keep) if args.keep else Path(tmp.name)
    folder.mkdir(parents=True, exist_ok=True)
    records = folder / "simulated.jjt"
    db = folder / "bench.duckdb"
    for p in (db, Path(str(db) + ".wal")):
        if p.exists():
            p.unlink()

    if args.records:
        records = Path(args.records)
    else:
        t = time.perf_counter()
        per = args.hands // args.sessions
        if args.files > 1:
            records = folder / "simulated"
            records.mkdir(exist_ok=True)
        files = [records / f"{k:03d}.jjt" for k in range(args.files)] if args.files > 1 else [records]
        for k, path in enumerate(files):
            mine = [i for i in range(args.sessions) if i % len(files) == k]
            with open(path, "w", encoding="utf-8") as f:
                for j, i in enumerate(mine):
                    n = per if i < args.sessions - 1 else args.hands - per * (args.sessions - 1)
                    header, hands = simulate_session("jojotte", n, args.seed + i)
                    write_stream([header, *hands], f)
                    if j < len(mine) - 1:
                        f.write("\n")
        sim = time.perf_counter() - t
        print(f"simulated {args.hands:,} hands in {args.sessions} sessions, {len(files)} file(s): {sim:.1f} s; "
              f"{sum(p.stat().st_size for p in files) / 1e6:.1f} MB")

    result = _child("import", db, records, args.jobs)
    assert result["status"] == "imported" and result["bad"] == 0, result["describe"]
    hands, cpu, wall = result["hands"], result["cpu"], result["wall"]
    counts = table_counts(db)
    rows = sum(v for k, v in counts.items() if k != "import_log")
    print(f"end to end: {hands:,} hands in {cpu:.2f} s cpu = {hands / cpu:,.0f} hands/s cpu; wall {wall:.2f} s ="
          f" {hands / wall:,.0f} hands/s (read, validate, score, load, commit; DuckDB's own threads count in cpu)")
    if args.jobs != 1:
        print(f"  --jobs {args.jobs}: cpu is the parent's only (the writer); the workers run under the forkserver "
              "and are not counted: compare the wall times")
    plays, table_seconds, load_seconds = result["plays"], result["table_seconds"], result["load_seconds"]
    plays_s = table_seconds.get("plays") or float("nan")  # --jobs: the rows are built in the workers
    print(f"load step, plays: {plays:,} plays in {plays_s:.2f} s = {plays / plays_s:,.0f} plays/s "
          f"(Arrow tables built and inserted)")
    print(f"load step, everything: {rows:,} rows of {len(table_seconds)} tables, commit included, in "
          f"{load_seconds:.2f} s = {rows / load_seconds:,.0f} rows/s ({plays / load_seconds:,.0f} plays/s)")
    slowest = sorted(table_seconds.items(), key=lambda kv: -kv[1])[:4]
    print("  by table: " + ", ".join(f"{k} {v:.2f} s" for k, v in slowest)
          + f"; commit and the rest {load_seconds - sum(table_seconds.values()):.2f} s")
    if not args.no_validate and args.files == 1:
        check = _child("validate", db, records)
        print(f"peak memory: import {result['maxrss_mib']:,.0f} MiB, validate {check['maxrss_mib']:,.0f} MiB "
              f"(validate: {check['hands'] / check['cpu']:,.0f} hands/s cpu, wall {check['wall']:.2f} s)")
    else:
        print(f"peak memory: import {result['maxrss_mib']:,.0f} MiB")
    print(f"archive: {db.stat().st_size / 1e6:.1f} MB; " + ", ".join(f"{k} {v:,}" for k, v in counts.items()))
    tmp.cleanup()


if __name__ == "__main__":
    main()
