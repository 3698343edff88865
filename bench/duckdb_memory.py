"""Reproduce the import's memory growth with DuckDB alone (issue 16 item 5): no parsing, no validation.

    python bench/duckdb_memory.py                      # 200,000 hands' plays and tricks, as jojotte import writes them
    python bench/duckdb_memory.py --commit 2000        # a commit every 2,000 hands instead of 10,000
    python bench/duckdb_memory.py --text               # and a 2,000-hand chunk of canonical text per batch

Writes Arrow batches shaped like the importer's (``plays``: 18 rows a hand, ``tricks``: 9; ``--text``: one
``session_text`` row of ~230 bytes a hand per batch) into a fresh archive (`archive.store.connect`), ``--batch``
hands per insert and a commit every ``--commit`` hands, exactly as `store._Importer` does (registered as a
RecordBatchReader, ``SET threads = 1``), and prints the resident set size, the WAL's size every ``--every`` hands,
and the peak (``ru_maxrss``), CPU and wall time at the end. Measured (DuckDB 1.5.6, 200,000 hands, batch 2,000,
commit 10,000): ~200 MiB at 20,000 hands, ~350 MiB at each automatic checkpoint (WAL past 16 MB, every ~100,000
hands here), decaying between them; the same with the whole import (`bench/import.py`) gives 296 MiB at 20,000
hands and 490 MiB at 200,000, where validation and the Arrow buffers alone stay at 192-195 MiB.
"""

from __future__ import annotations

import argparse
import random
import resource
import tempfile
import time
from pathlib import Path


def _rss_mib() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) // 1024
    return 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=200_000)
    ap.add_argument("--batch", type=int, default=2_000, help="hands per insert (store.BATCH_HANDS)")
    ap.add_argument("--commit", type=int, default=10_000, help="hands per commit (store.COMMIT_HANDS)")
    ap.add_argument("--every", type=int, default=20_000, help="print the memory every this many hands")
    ap.add_argument("--text", action="store_true", help="a session_text row per batch too")
    ap.add_argument("--text-rows", type=int, default=1, help="--text: the batch's text split into this many rows")
    ap.add_argument("--set", action="append", default=[], metavar="SETTING", help="a DuckDB SET, e.g. threads=2")
    args = ap.parse_args()

    import pyarrow as pa

    from jojotte_records.archive.store import connect

    tmp = tempfile.TemporaryDirectory()
    db = Path(tmp.name) / "bench.duckdb"
    wal = Path(str(db) + ".wal")
    t, c = time.perf_counter(), time.process_time()
    print(f"start: {_rss_mib()} MiB")
    conn = connect(db)
    conn.execute("SET threads = 1")
    for setting in args.set:  # NAME=VALUE: the value passed as a parameter, so "memory_limit=80MB" is quoted
        name, _, value = setting.partition("=")
        if not name.strip().isidentifier():
            raise SystemExit(f"--set {setting!r}: not NAME=VALUE")
        conn.execute(f"SET {name.strip()} = ?", [value.strip()])
    conn.execute("INSERT INTO sessions (session_id, session_key, content_hash, import_id, game, seats, hands, "
                 "bad_hands, errors, pool_lapsed) VALUES (1, 'k', 'h', 1, 'jojotte', 2, 0, 0, 0, 0)")
    rng = random.Random(1)

    def col(values, typ):
        return pa.array(values, typ)

    text = "trick 1: A AD, B 7D\n" * (args.batch * 230 // 20)
    done = uncommitted = 0
    conn.begin()
    while done < args.hands:
        n = min(args.batch, args.hands - done)
        seqs = range(done + 1, done + n + 1)
        rand = [rng.getrandbits(8) for _ in range(18 * n)]
        plays = pa.table({
            "session_id": col([1] * 18 * n, pa.int32()), "hand_seq": col([h for h in seqs for _ in range(18)], pa.int32()),
            "trick_no": col([k // 2 + 1 for _ in seqs for k in range(18)], pa.int16()),
            "ply": col([k + 1 for _ in seqs for k in range(18)], pa.int16()),
            "pos": col([k % 2 + 1 for _ in seqs for k in range(18)], pa.int16()),
            "seat": col([r & 1 for r in rand], pa.int8()), "card_id": col([7 + r % 56 for r in rand], pa.int8()),
            "points": col([r % 12 for r in rand], pa.int8()), "won": col([bool(r & 2) for r in rand], pa.bool_())})
        tricks = pa.table({
            "session_id": col([1] * 9 * n, pa.int32()), "hand_seq": col([h for h in seqs for _ in range(9)], pa.int32()),
            "trick_no": col([k + 1 for _ in seqs for k in range(9)], pa.int16()),
            "leader_seat": col([r & 1 for r in rand[::2]], pa.int8()), "winner_seat": col([r >> 7 for r in rand[::2]], pa.int8()),
            "points": col([r % 40 for r in rand[::2]], pa.int16()), "last": col([False] * 9 * n, pa.bool_()),
            "line": col([r * 1000 for r in rand[::2]], pa.int32())})
        for table, batch in (("plays", plays), ("tricks", tricks)):
            conn.register("_jojotte_batch", pa.RecordBatchReader.from_batches(batch.schema, batch.to_batches()))
            conn.execute(f"INSERT INTO {table} BY NAME SELECT * FROM _jojotte_batch")  # identifiers from constants
            conn.unregister("_jojotte_batch")
        if args.text:
            k = args.text_rows
            piece = len(text) // k
            conn.executemany("INSERT INTO session_text VALUES (?, ?, ?)",
                             [[1, (done // args.batch) * k + j + 1, text[j * piece:(j + 1) * piece]] for j in range(k)])
        done += n
        uncommitted += n
        if uncommitted >= args.commit:
            conn.commit()
            conn.begin()
            uncommitted = 0
        if done % args.every == 0:
            print(f"{done:,} hands: {_rss_mib()} MiB, WAL {wal.stat().st_size / 2 ** 20 if wal.exists() else 0:.0f} MiB")
    conn.commit()
    conn.close()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak {peak:,.0f} MiB; cpu {time.process_time() - c:.2f} s, wall {time.perf_counter() - t:.2f} s; "
          f"archive {db.stat().st_size / 1e6:.1f} MB")
    tmp.cleanup()


if __name__ == "__main__":
    main()
