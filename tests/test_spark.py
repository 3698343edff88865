"""The Spark job (`jojotte_records.spark`) writes what ``jojotte export --parquet`` writes (issue 14, item 5).

The Spark test needs pyspark (the ``spark`` extra) and Java 17: missing, it fails in CI (``CI=true``)
and is skipped elsewhere, with the reason.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest
from jojotte_records.cli.main import app
from typer.testing import CliRunner

from jojotte_records.archive.store import EXPORT_TABLES, MemoryArchive, connect, export_parquet, import_paths, plan_ids

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SIM_HANDS = 20_000
SIM_FILES = 4


def _need_spark():
    missing = []
    try:
        import pyspark  # noqa: F401
    except ImportError:
        missing.append('pyspark (pip install -e ".[test,spark]")')
    if shutil.which("java") is None:
        missing.append("java (Debian: apt-get install -y openjdk-17-jre-headless)")
    if missing:
        why = "the Spark test needs " + " and ".join(missing)
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(why + " (CI=true: .ci/run installs both)", pytrace=False)
        pytest.skip(why)


# --- the ids: plan_ids against the importer itself, without Spark ---------------------------

def test_plan_ids_by_hand():
    # import_paths' rules (docs/archive.md): a file's sessions are numbered on from the largest id
    # stored; same key and text: left as it is; same key, other text: replaced; nothing added: no import id
    files = [
        ("imported", [(1, "k1", "h1"), (2, "k2", "h2")]),  # ids 1, 2; import 1
        ("error", []),  # unreadable: nothing
        ("imported", [(1, "k1", "h1")]),  # k1 stored with this text: unchanged, no import id
        ("imported", [(1, "k2", "h2'"), (2, "k3", "h3")]),  # k2 replaced by id 2 + 1 = 3, k3 is 4; import 2
        ("imported", [(2, "k4", "h4")]),  # id 1 of the file was a duplicate dropped in it: k4 is 4 + 2 = 6
    ]
    plans = plan_ids(files)
    assert [p.import_id for p in plans] == [1, None, None, 2, 3]
    assert [p.session_ids for p in plans] == [{1: 1}, {}, {}, {1: 3, 2: 4}, {2: 6}]


def _spec_rubber_variant(text: str) -> str:
    """spec-rubber.jjt with one tag more: the same identity tags (the same key), another text."""
    return text.replace('[Event "', '[Annotator "test"]\n[Event "', 1)


def test_memory_archive_and_plan_give_the_importer_ids(tmp_path):
    rubber = (EXAMPLES / "spec-rubber.jjt").read_text(encoding="utf-8")
    names = {"a.jjt": rubber, "b.jjt": (EXAMPLES / "three-players.jjt").read_text(encoding="utf-8"),
             "c.jjt": rubber, "d.jjt": _spec_rubber_variant(rubber), "e.json": '{"sessions": [{"nonsense": 1}]}'}
    for name, text in names.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    db = tmp_path / "a.duckdb"
    for _ in import_paths(db, [str(tmp_path)]):
        pass
    conn = connect(db, read_only=True)
    want = conn.execute("SELECT source, session_id, import_id FROM sessions ORDER BY session_id").fetchall()
    conn.close()
    memory = MemoryArchive()
    try:
        rows = [memory.file_rows(str(tmp_path / n), (tmp_path / n).read_bytes()) for n in sorted(names)]
    finally:
        memory.close()
    plans = plan_ids((r.result.status, r.sessions) for r in rows)
    got = sorted((str(tmp_path / n), sid, p.import_id) for n, p in zip(sorted(names), plans)
                 for sid in p.session_ids.values())
    assert got == want
    # c.jjt repeats a.jjt (unchanged), d.jjt replaces its session, e.json cannot be read
    assert [s for s, _, _ in want] == [str(tmp_path / "b.jjt"), str(tmp_path / "d.jjt")]


# --- the Spark job over the examples and 20,000 simulated hands -----------------------------------

def _write_inputs(root: Path) -> None:
    shutil.copytree(EXAMPLES, root / "examples", ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    # one simulated session cut into a few files at hand lines: each its own sitting ([Round "k"])
    sim = root / "simulated.txt"
    result = CliRunner().invoke(app, ["simulate", "--hands", str(SIM_HANDS), "--seed", "1", "--out", str(sim)])
    assert result.exit_code == 0, result.output
    text = sim.read_text(encoding="utf-8")
    sim.unlink()
    head, _, body = text.partition("\nhand ")
    hands = ("hand " + body).split("\nhand ")
    per = -(-len(hands) // SIM_FILES)
    (root / "sim").mkdir()
    for k in range(SIM_FILES):
        part = hands[k * per:(k + 1) * per]
        tagged = head.replace("[Game ", f'[Round "{k + 1}"]\n[Game ', 1)
        (root / "sim" / f"part-{k + 1}.jjt").write_text(tagged + "\n" + "\nhand ".join(part), encoding="utf-8")
    rubber = (EXAMPLES / "spec-rubber.jjt").read_text(encoding="utf-8")
    (root / "zz").mkdir()
    (root / "zz" / "again.jjt").write_text(rubber, encoding="utf-8")  # unchanged: no import id
    (root / "zz" / "replaced.jjt").write_text(_spec_rubber_variant(rubber), encoding="utf-8")  # replaces it
    (root / "zz" / "unreadable.json").write_text('{"sessions": [{"nonsense": 1}]}', encoding="utf-8")


@pytest.fixture(scope="module")
def spark():
    _need_spark()
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2]").appName("jojotte-test")
               .config("spark.ui.enabled", "false").config("spark.driver.memory", "1g")
               .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
               .config("spark.sql.shuffle.partitions", "4").config("spark.ui.showConsoleProgress", "false").config("spark.sql.session.timeZone", "UTC")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def _files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*.parquet"))


def _partitions(folder: Path) -> set[str]:
    return {str(Path(f).parent) for f in _files(folder)}


def _assert_same_parquet(by_db: Path, by_spark: Path) -> dict[str, int]:
    """The two exports hold the same partition folders, file schemas and rows (sorted on every column); rows per table."""
    con = duckdb.connect()
    counts = {}
    for table in (*EXPORT_TABLES, "cards"):
        a, b = by_db / table, by_spark / table
        assert _partitions(a) == _partitions(b), table  # TABLE/game=G/year=Y, and cards/
        if not _files(a):
            continue  # an empty table: neither writes it
        schema_a = pq.read_schema(a / _files(a)[0])
        for f in _files(b):
            assert pq.read_schema(b / f).equals(schema_a, check_metadata=False), (table, f)

        def rows(folder):
            found = con.execute(f"SELECT * FROM read_parquet('{folder}/**/*.parquet', hive_partitioning = true) "
                                "ORDER BY ALL").arrow()
            return found.read_all() if hasattr(found, "read_all") else found
        x, y = rows(a), rows(b)
        assert x.column_names == y.column_names, table
        for column in x.column_names:
            assert x.column(column).equals(y.column(column)), (table, column)
        counts[table] = x.num_rows
    return counts


def test_spark_job_writes_the_export_of_an_archive_of_the_same_files(spark, tmp_path):
    from jojotte_records.spark import run

    records = tmp_path / "records"
    _write_inputs(records)
    db = tmp_path / "archive.duckdb"
    imported = list(import_paths(db, [str(records)]))
    by_db = tmp_path / "export"
    export_parquet(db, by_db)

    by_spark = tmp_path / "spark"
    done = run(spark, str(records), str(by_spark))

    assert done.files == len(imported) + 1  # + examples/disputes/expected.json, not a record: skipped by both
    assert done.unreadable == [(i.source, i.error.message) for i in imported if i.status == "error"]
    assert [s for s, _ in done.unreadable] == [str(records / "zz" / "unreadable.json")]
    counts = _assert_same_parquet(by_db, by_spark)
    assert [t.rows for t in done.tables] == [counts.get(t, 0) for t in (*EXPORT_TABLES, "cards")]
    assert (by_spark / "cards" / "cards.parquet").is_file()

    con = duckdb.connect()
    sessions = con.execute(f"SELECT source, import_id FROM read_parquet('{by_spark}/sessions/**/*.parquet') "
                           "ORDER BY session_id").fetchall()
    sources = [s for s, _ in sessions]
    # the replacement and the unchanged copy of spec-rubber.jjt are exercised (docs/archive.md)
    assert str(records / "zz" / "replaced.jjt") in sources
    assert str(records / "examples" / "spec-rubber.jjt") not in sources
    assert str(records / "zz" / "again.jjt") not in sources
    hands = con.execute(f"SELECT count(*) FROM read_parquet('{by_spark}/hands/**/*.parquet')").fetchone()[0]
    assert hands >= SIM_HANDS


def test_one_file_and_the_command_on_a_folder(spark, tmp_path, capsys):
    # the last test of the module: main() stops the Spark session when it is done
    from jojotte_records.spark import main, run

    records = tmp_path / "club records"
    (records / "2026").mkdir(parents=True)
    shutil.copy(EXAMPLES / "baloot-match.jjt", records / "2026" / "night 1.jjt")
    shutil.copy(EXAMPLES / "pitch-game.jjt", records / "first.jjt")
    (records / "notes.json").write_text('{"not": "a record"}', encoding="utf-8")  # skipped, as jojotte import does
    one = records / "2026" / "night 1.jjt"
    for given in (one, records):
        db, by_db, by_spark = tmp_path / f"{given.name}.duckdb", tmp_path / f"db-{given.name}", tmp_path / f"spark-{given.name}"
        imported = list(import_paths(db, [str(given)]))
        assert [r.status for r in imported] == ["imported"] * (1 if given == one else 2)
        export_parquet(db, by_db)
        if given == one:
            done = run(spark, str(given), str(by_spark))
            assert (done.files, done.unreadable) == (1, [])
        else:
            assert main([str(given), str(by_spark)]) == 0  # getOrCreate: the test's session
        counts = _assert_same_parquet(by_db, by_spark)
        assert counts["sessions"] == len(imported)
    out = capsys.readouterr().out
    assert f"sessions: 2 row(s) -> {by_spark}/sessions" in out
