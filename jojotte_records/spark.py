"""Past one machine: the archive's Parquet tables from record files, with PySpark (``pip install -e ".[spark]"``).

`run` reads the record files of a folder or object-store path (anything Spark's
``binaryFile`` source reads: ``file:``, ``hdfs:``, ``s3a:`` …, recursively), imports each
file through the archive's own importer (`archive.MemoryArchive`: the same reader,
validator and row building as ``jojotte import``, in an in-memory DuckDB on the worker),
and writes what ``jojotte export --parquet`` writes of an archive made by importing the
same files, in the same order, into a fresh file: ``OUT/TABLE/game=G/year=Y/*.parquet``
for each table of `archive.EXPORT_TABLES` with rows, and ``OUT/cards/cards.parquet``. The
schema, the partitioning, every row and every id are the same (`archive.plan_ids`), so
DuckDB, Spark or Trino read either.

How it runs: the driver lists the files and sorts them as `validation.iter_record_files`
does (a folder's files, then its sub-folders); each file goes to one of a few buckets,
balanced by size, and each bucket is one task of a ``mapInArrow`` that imports its files
and sends back their rows as Arrow IPC (kept on the executors, memory then disk). The
driver collects only each file's session keys, numbers the sessions and files as a
sequential import would, and a second ``mapInArrow`` per table renumbers the rows and
writes them partitioned by game and year. A file is the unit of work: one huge file is one
task.

    python -m jojotte_records.spark examples/ out/            # local, every core
    spark-submit --master yarn -m jojotte_records.spark …     # see docs/scale.md
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
from pathlib import PurePosixPath
from typing import Iterator, NamedTuple
from urllib.parse import urlsplit

import pyarrow as pa
import pyarrow.compute as pc

# absolute imports: spark-submit runs this file as a script
from jojotte_records.archive.store import EXPORT_TABLES, ExportedTable, MemoryArchive, plan_ids
from jojotte_records.replay.files import JSON_HEAD_CHARS, is_record_json_head

PARTITION_COLUMNS = ("game", "year")
_GLOB = "*.{jjt,json}"  # the files taken in a folder
_META = ""  # the `part` of the row that carries a file's status, sessions and row counts
_CHUNK_ROWS = 65_536  # rows per Arrow IPC payload
# the schema of what the first mapInArrow gives for each file
_PARTS_SCHEMA = "file_no INT, part STRING, payload BINARY"


# --- the files -----------------------------------------------------------------------

class RecordFile:
    """One file to import: its Spark path (a URI), its name in the archive's ``source`` column, its size."""

    __slots__ = ("uri", "source", "size", "file_no", "sort_key")

    def __init__(self, uri: str, source: str, size: int, sort_key: tuple):
        self.uri, self.source, self.size, self.sort_key = uri, source, size, sort_key
        self.file_no = -1


def _hadoop_fs(spark, path: str):
    jvm = spark.sparkContext._jvm
    hpath = jvm.org.apache.hadoop.fs.Path(path)
    return hpath.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration()), hpath


def list_record_files(spark, input_path: str) -> list[RecordFile]:
    """The files under ``input_path`` in the order `validation.iter_record_files` gives, numbered from 0.

    A folder gives its ``*.jjt`` and ``*.json`` files, recursively (a ``.json`` that is not a record is
    dropped later, by its content); a file named is always taken. ``source`` is what ``jojotte import
    input_path`` stores: the path as given, joined to the file's path inside it. Spark skips names that
    start with ``_`` or ``.`` in a folder; ``jojotte import`` does not.
    """
    fs, hpath = _hadoop_fs(spark, input_path)
    root = fs.makeQualified(hpath).toString().rstrip("/")
    if not fs.getFileStatus(hpath).isDirectory():
        files = [RecordFile(root, input_path, fs.getFileStatus(hpath).getLen(), ())]
    else:
        df = (spark.read.format("binaryFile").option("recursiveFileLookup", "true")
              .option("pathGlobFilter", _GLOB).load(input_path).select("path", "length"))
        files = []
        for row in df.collect():
            uri = row["path"]
            if not uri.startswith(root + "/"):
                raise ValueError(f"Spark listed {uri}, which is not under {root}")
            parts = uri[len(root) + 1:].split("/")
            # os.walk order: in each folder its files (0, name) before its sub-folders (1, name)
            key = tuple((1, d) for d in parts[:-1]) + ((0, parts[-1]),)
            files.append(RecordFile(uri, _source_name(input_path, parts), row["length"], key))
        files.sort(key=lambda f: f.sort_key)
    for i, f in enumerate(files):
        f.file_no = i
    return files


def _source_name(input_path: str, parts: list[str]) -> str:
    if urlsplit(input_path).scheme:  # an object store or a URI: joined as text
        return "/".join([input_path.rstrip("/"), *parts])
    return str(PurePosixPath(input_path, *parts))  # what pathlib gives `jojotte import` (./x -> x)


def _buckets(files: list[RecordFile], n: int) -> dict[str, int]:
    """Each file's bucket (0 … n-1): the largest files first, each into the lightest bucket."""
    load = [0] * n
    out = {}
    for f in sorted(files, key=lambda f: (-f.size, f.file_no)):
        b = min(range(n), key=load.__getitem__)
        load[b] += f.size + 4096  # a small file still costs something
        out[f.uri] = b
    return out


def _bucket_labels(spark, n: int) -> list[int]:
    """A value for each partition p of ``repartition(n, col)`` that Spark's hash sends to p."""
    from pyspark.sql import functions as F

    found: dict[int, int] = {}
    rows = spark.range(0, 256 * n).select("id", F.pmod(F.hash("id"), F.lit(n)).alias("p")).collect()
    for r in rows:
        found.setdefault(r["p"], r["id"])
    return [found[p] for p in range(n)]


# --- on the executors ------------------------------------------------------------------

def _ipc(table: pa.Table) -> Iterator[bytes]:
    for batch in table.to_batches(max_chunksize=_CHUNK_ROWS):
        sink = io.BytesIO()
        with pa.ipc.new_stream(sink, batch.schema) as w:
            w.write_batch(batch)
        yield sink.getvalue()


def _import_files(files: dict[str, tuple[int, str]], folder: bool):
    """The first mapInArrow: each file imported alone; its rows per table as IPC, and one meta row.

    In a folder, a ``.json`` file that is not a record is skipped (`validation.is_record_json_head`).
    """

    def run_batches(batches):
        archive = MemoryArchive()
        try:
            for batch in batches:
                for uri, content in zip(batch.column("path").to_pylist(), batch.column("content").to_pylist()):
                    file_no, source = files[uri]
                    out_no, out_part, out_payload = [], [], []
                    if folder and uri.endswith(".json") and not is_record_json_head(
                            content[:4 * JSON_HEAD_CHARS].decode("utf-8-sig", "replace")[:JSON_HEAD_CHARS]):
                        meta = {"status": "skipped", "sessions": [], "rows": {}}
                    else:
                        rows = archive.file_rows(source, content)
                        counts = {}
                        for table, t in rows.tables.items():
                            ids = pc.value_counts(t.column("session_id")).to_pylist()
                            counts[table] = {str(c["values"]): c["counts"] for c in ids}
                            for payload in _ipc(t):
                                out_no.append(file_no); out_part.append(table); out_payload.append(payload)
                        meta = {"status": rows.result.status, "sessions": rows.sessions, "rows": counts,
                                "error": rows.result.error.message if rows.result.error else None}
                    out_no.append(file_no); out_part.append(_META); out_payload.append(json.dumps(meta).encode())
                    yield pa.RecordBatch.from_arrays([pa.array(out_no, pa.int32()), pa.array(out_part, pa.string()),
                                                      pa.array(out_payload, pa.binary())], ["file_no", "part", "payload"])
        finally:
            archive.close()

    return run_batches


def _renumber(table: str, schema: pa.Schema, plans: dict[int, tuple[int | None, list[int], list[int]]]):
    """The second mapInArrow: one table's rows, with the archive's session and import ids."""

    def run_batches(batches):
        for batch in batches:
            for file_no, payload in zip(batch.column("file_no").to_pylist(), batch.column("payload").to_pylist()):
                import_id, local, ids = plans[file_no]
                rows = pa.ipc.open_stream(payload).read_all()
                at = pc.index_in(rows.column("session_id"), value_set=pa.array(local, pa.int32()))
                keep = pc.is_valid(at)
                rows, at = rows.filter(keep), at.filter(keep)
                if not rows.num_rows:
                    continue
                rows = rows.set_column(rows.schema.get_field_index("session_id"), "session_id",
                                       pc.take(pa.array(ids, pa.int32()), at))
                if table == "sessions":
                    rows = rows.set_column(rows.schema.get_field_index("import_id"), "import_id",
                                           pa.array([import_id] * rows.num_rows, pa.int32()))
                yield from rows.cast(schema).to_batches()

    return run_batches


# --- the job ---------------------------------------------------------------------------------

@contextlib.contextmanager
def _conf(spark, **values):
    old = {k: spark.conf.get(k, None) for k in values}
    for k, v in values.items():
        spark.conf.set(k, v)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                spark.conf.unset(k)
            else:
                spark.conf.set(k, v)


class SparkRun(NamedTuple):
    """What `run` wrote."""

    tables: list[ExportedTable]  # one per table, as `archive.export_parquet` gives them
    files: int  # record files read
    unreadable: list[tuple[str, str]]  # (source, why) of each file not imported, as `jojotte import` reports it


def run(spark, input_path: str, output_path: str, *, buckets: int | None = None) -> SparkRun:
    """Import the record files under ``input_path`` and write the archive's tables as Parquet under ``output_path``.

    What is written equals ``jojotte import input_path --db fresh.duckdb && jojotte export --parquet
    output_path --db fresh.duckdb``: the same tables, columns, types, rows and ids, partitioned by game
    and year (year 0 when a session's date gives none), and ``cards/cards.parquet``. An existing table
    folder is replaced; an empty table writes nothing. ``buckets``: how many tasks import the files
    (default: twice Spark's default parallelism, at most one per file).

    Raises:
        ValueError: no record file under ``input_path``.
    """
    from pyspark import StorageLevel
    from pyspark.sql import functions as F
    from pyspark.sql.pandas.types import from_arrow_schema

    out = output_path.rstrip("/")
    memory = MemoryArchive()
    try:
        schemas = memory.schemas()
        cards = memory.cards()
    finally:
        memory.close()
    files = list_record_files(spark, input_path)
    if not files:
        raise ValueError(f"no record file (*.jjt, *.json) under {input_path}")
    by_uri = {f.uri: (f.file_no, f.source) for f in files}
    folder = bool(files[0].sort_key)
    n = max(1, min(len(files), buckets or 2 * spark.sparkContext.defaultParallelism))
    labels = _bucket_labels(spark, n)
    assign = spark.createDataFrame([(uri, labels[b]) for uri, b in _buckets(files, n).items()], "path STRING, bucket LONG")

    # a file's content is big: few files per Arrow batch
    with _conf(spark, **{"spark.sql.execution.arrow.maxRecordsPerBatch": "4"}):
        reader = spark.read.format("binaryFile")
        if folder:
            reader = reader.option("recursiveFileLookup", "true").option("pathGlobFilter", _GLOB)
        content = reader.load(input_path).select("path", "content")
        parts = (content.join(F.broadcast(assign), "path").repartition(n, "bucket").select("path", "content")
                 .mapInArrow(_import_files(by_uri, folder), _PARTS_SCHEMA)
                 .persist(StorageLevel.MEMORY_AND_DISK))
        try:
            metas: dict[int, dict] = {}
            for row in parts.filter(F.col("part") == _META).select("file_no", "payload").collect():
                metas[row["file_no"]] = json.loads(row["payload"])
            ordered = [metas.get(i, {"status": "skipped", "sessions": []}) for i in range(len(files))]
            plans = plan_ids((m["status"] if m["status"] != "skipped" else "error", [tuple(s) for s in m["sessions"]])
                             for m in ordered)
            by_file = {i: (p.import_id, list(p.session_ids), list(p.session_ids.values())) for i, p in enumerate(plans)}
            unreadable = [(files[i].source, m.get("error") or "error") for i, m in enumerate(ordered)
                          if m["status"] == "error"]
            done = []
            for table in EXPORT_TABLES:
                rows = sum(c for i, m in enumerate(ordered) for sid, c in m.get("rows", {}).get(table, {}).items()
                           if int(sid) in plans[i].session_ids)
                if not rows:
                    done.append(ExportedTable(table, 0, None))
                    continue
                schema = schemas[table]
                target = f"{out}/{table}"
                (parts.filter(F.col("part") == table).select("file_no", "payload")
                 .mapInArrow(_renumber(table, schema, by_file), from_arrow_schema(schema))
                 .write.mode("overwrite").partitionBy(*PARTITION_COLUMNS).parquet(target))
                done.append(ExportedTable(table, rows, target))
        finally:
            parts.unpersist()
    done.append(ExportedTable("cards", cards.num_rows, _write_cards(spark, cards, schemas["cards"], out)))
    return SparkRun(done, len(files), unreadable)


def _write_cards(spark, cards: pa.Table, schema: pa.Schema, out: str) -> str:
    """``OUT/cards/cards.parquet``: one file, renamed from Spark's part file."""
    from pyspark.sql.pandas.types import from_arrow_schema

    folder = f"{out}/cards"
    df = spark.createDataFrame(cards.to_pandas(), from_arrow_schema(schema))
    df.coalesce(1).write.mode("overwrite").parquet(folder)
    fs, hfolder = _hadoop_fs(spark, folder)
    jvm = spark.sparkContext._jvm
    part = [s.getPath() for s in fs.listStatus(hfolder) if s.getPath().getName().endswith(".parquet")]
    target = jvm.org.apache.hadoop.fs.Path(folder + "/cards.parquet")
    if len(part) != 1 or not fs.rename(part[0], target):
        raise OSError(f"cannot write {folder}/cards.parquet")
    return f"{folder}/cards.parquet"


# --- the command ---------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m jojotte_records.spark",
        description="Import record files with Spark and write the archive's tables as Parquet, as "
                    "`jojotte export --parquet` does (docs/scale.md).")
    parser.add_argument("input", help="a record file or a folder of them: a local path or any URI Spark reads (s3a://…)")
    parser.add_argument("output", help="the folder to write: OUT/TABLE/game=G/year=Y/*.parquet and OUT/cards/cards.parquet")
    parser.add_argument("--master", help="Spark master when not run by spark-submit (default: local[*])")
    parser.add_argument("--buckets", type=int, help="tasks that import the files (default: 2 x default parallelism)")
    args = parser.parse_args(argv)
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("jojotte-records")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    try:
        done = run(spark, args.input, args.output, buckets=args.buckets)
    finally:
        spark.stop()
    for source, message in done.unreadable:
        print(f"{source}: not imported: {message}", file=sys.stderr)
    for t in done.tables:
        print(f"{t.table}: {t.rows} row(s)" + (f" -> {t.path}" if t.path else ""))
    return 2 if done.unreadable else 0


if __name__ == "__main__":
    sys.exit(main())
