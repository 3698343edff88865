"""Benchmark: the Spark job against ``jojotte import`` + ``jojotte export --parquet`` on the same files.

    python bench/spark.py                         # 20,000 hands in 4 files (sessions of seed 1, 2, 3, 4), local[2]
    python bench/spark.py --hands 100000 --files 10 --master "local[*]"

Needs the ``spark`` extra and Java. Prints, for each way, the wall time and the CPU time of every process
it used: the Python process for the archive; for Spark the driver, the JVM and its Python workers (summed
over the JVM's process tree from /proc before the session stops, Linux only), Spark's start-up apart.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path


def _tree_cpu(pid: int) -> float:
    """CPU seconds of a process and every live descendant, with the children they have reaped (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    children: dict[int, list[int]] = {}
    cpu: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
        cpu[int(entry)] = sum(int(x) for x in fields[11:15]) / tick  # utime stime cutime cstime
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        total += cpu.get(p, 0.0)
        todo.extend(children.get(p, ()))
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=20_000, help="hands in all")
    ap.add_argument("--files", type=int, default=4, help="files (one simulated session each)")
    ap.add_argument("--master", default="local[2]")
    args = ap.parse_args()

    from jojotte_records.archive.store import export_parquet, import_paths
    from jojotte_records.notation.text import write_stream
    from jojotte_records.play.simulate import simulate_session

    tmp = Path(tempfile.mkdtemp(prefix="jojotte-bench-spark-"))
    records = tmp / "records"
    records.mkdir()
    for k in range(args.files):
        header, hands = simulate_session("jojotte", args.hands // args.files, seed=k + 1)
        with open(records / f"part-{k + 1}.jjt", "w", encoding="utf-8") as f:
            write_stream(iter([header, *hands]), f)
    print(f"{args.hands} hands in {args.files} files under {records}")

    wall, cpu = time.perf_counter(), time.process_time()
    for _ in import_paths(tmp / "a.duckdb", [str(records)]):
        pass
    export_parquet(tmp / "a.duckdb", tmp / "export")
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"jojotte import + export --parquet: {wall:6.1f} s wall, {cpu:6.1f} s CPU, {args.hands / cpu:7.0f} hands/CPU-s")

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    from jojotte_records.spark import run

    started = time.perf_counter()
    spark = (SparkSession.builder.master(args.master).appName("jojotte-bench").config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
             .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    jvm = spark.sparkContext._gateway.proc.pid
    print(f"Spark start-up: {time.perf_counter() - started:6.1f} s wall")
    wall, before = time.perf_counter(), _tree_cpu(os.getpid())
    run(spark, str(records), str(tmp / "spark"))
    wall, cpu = time.perf_counter() - wall, _tree_cpu(os.getpid()) - before
    print(f"Spark job ({args.master}):           {wall:6.1f} s wall, {cpu:6.1f} s CPU, {args.hands / cpu:7.0f} hands/CPU-s"
          f"  (JVM pid {jvm} and its Python workers included)")
    spark.stop()


if __name__ == "__main__":
    main()
