"""Benchmark: import a 100,000-hand simulated archive; print hands/s end to end and plays/s for the load step.

    python bench/import.py                   # 100,000 hands: 10 sessions of 10,000
    python bench/import.py --hands 20000 --sessions 4

The sessions are simulated (`jojotte_records.play.simulate.simulate_session`) and written
with `notation.write_stream` into one temporary file, then imported into a fresh
archive by `archive.import_paths`, exactly as ``jojotte import`` does: parse,
validate and score every hand, gather the rows, load them as Arrow tables, commit.

* **end to end**: hands imported / CPU time of the import (``time.process_time``, validation included), beside
  the wall time;
* **load step**: plays stored / time spent building the plays' Arrow tables and inserting
  them (``FileImport.table_seconds["plays"]``); and every row of every table / the whole
  load step, commit included (``FileImport.load_seconds``).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=100_000, help="hands in all")
    ap.add_argument("--sessions", type=int, default=10, help="sessions they are split into")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", metavar="DIR", help="keep the record file and the archive in DIR")
    ap.add_argument("--records", metavar="FILE", help="import this record file instead of simulating one")
    args = ap.parse_args()

    from jojotte_records.archive.store import import_paths, table_counts
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
        with open(records, "w", encoding="utf-8") as f:
            for i in range(args.sessions):
                n = per if i < args.sessions - 1 else args.hands - per * (args.sessions - 1)
                header, hands = simulate_session("jojotte", n, args.seed + i)
                write_stream([header, *hands], f)
                if i < args.sessions - 1:
                    f.write("\n")
        sim = time.perf_counter() - t
        print(f"simulated {args.hands:,} hands in {args.sessions} sessions: {sim:.1f} s; "
              f"file {records.stat().st_size / 1e6:.1f} MB")

    t, c = time.perf_counter(), time.process_time()
    [result] = list(import_paths(db, [str(records)]))
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    assert result.status == "imported" and result.bad_hands == 0, result.describe()
    counts = table_counts(db)
    rows = sum(v for k, v in counts.items() if k != "import_log")
    print(f"end to end: {result.hands:,} hands in {cpu:.2f} s cpu = {result.hands / cpu:,.0f} hands/s cpu; wall {wall:.2f} s ="
          f" {result.hands / wall:,.0f} hands/s (read, validate, score, load, commit; one core; DuckDB's own threads count in cpu)")
    plays_s = result.table_seconds["plays"]
    print(f"load step, plays: {result.plays:,} plays in {plays_s:.2f} s = {result.plays / plays_s:,.0f} plays/s "
          f"(Arrow tables built and inserted)")
    print(f"load step, everything: {rows:,} rows of {len(result.table_seconds)} tables, commit included, in "
          f"{result.load_seconds:.2f} s = {rows / result.load_seconds:,.0f} rows/s ({result.plays / result.load_seconds:,.0f} plays/s)")
    slowest = sorted(result.table_seconds.items(), key=lambda kv: -kv[1])[:4]
    print("  by table: " + ", ".join(f"{k} {v:.2f} s" for k, v in slowest)
          + f"; commit and the rest {result.load_seconds - sum(result.table_seconds.values()):.2f} s")
    print(f"archive: {db.stat().st_size / 1e6:.1f} MB; " + ", ".join(f"{k} {v:,}" for k, v in counts.items()))
    tmp.cleanup()


if __name__ == "__main__":
    main()
