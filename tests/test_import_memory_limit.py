"""The import's DuckDB memory limit (issue 16 item 5) never makes an import fail.

`import_paths` sets ``memory_limit`` on its connection so that DuckDB's memory does not grow with the file. A
limit too small for a file must not lose it: the file is rolled back and imported again with DuckDB's default,
and the archive is the same as an import without any limit.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import duckdb
from test_archive_dump import example_files, table_dump

from jojotte_records.archive import store
from jojotte_records.archive.store import IMPORT_MEMORY_LIMIT, import_paths
from jojotte_records.notation.text import write_stream
from jojotte_records.play.simulate import simulate_session


def test_a_limit_too_small_still_imports_every_file_as_without_a_limit(tmp_path: Path):
    files = example_files()
    plain = list(import_paths(tmp_path / "plain.duckdb", files, memory_limit=None))
    # 5MB: DuckDB accepts the setting, then runs out of it inserting the first batch (measured with DuckDB 1.5.6)
    tight = list(import_paths(tmp_path / "tight.duckdb", files, memory_limit="5MB"))
    assert [r.describe() for r in tight] == [r.describe() for r in plain]
    assert [r.status for r in tight] == [r.status for r in plain] and "imported" in {r.status for r in tight}
    assert table_dump(tmp_path / "tight.duckdb") == table_dump(tmp_path / "plain.duckdb")


def test_a_limit_smaller_than_duckdb_already_holds_is_left_unset(tmp_path: Path):
    # 1kB cannot even be set (DuckDB raises on SET): the import goes on with the default
    [r] = list(import_paths(tmp_path / "a.duckdb", [example_files()[0]], memory_limit="1kB"))
    assert r.status == "imported"


def test_a_file_of_several_batches_and_commits_imports_under_the_default_limit(tmp_path: Path):
    hands = 1_200  # with batches of 300 hands and a commit every 600: four batches and two commits of one file
    header, records = simulate_session("jojotte", hands, 7)
    path = tmp_path / "long.jjt"
    with open(path, "w", encoding="utf-8") as f:
        write_stream([header, *records], f)
    [limited] = list(import_paths(tmp_path / "limited.duckdb", [str(path)], batch_hands=300,
                                  commit_hands=600, memory_limit=IMPORT_MEMORY_LIMIT))
    [plain] = list(import_paths(tmp_path / "plain.duckdb", [str(path)], batch_hands=300, commit_hands=600,
                                memory_limit=None))
    assert limited.status == "imported" and limited.hands == hands
    assert table_dump(tmp_path / "limited.duckdb") == table_dump(tmp_path / "plain.duckdb")


def test_standard_input_run_out_of_the_limit_is_read_again_from_its_spool(tmp_path: Path, monkeypatch):
    """``import -``: a file that runs out of the limit is imported again, and standard input cannot be read twice
    from the pipe; the second reading is the spool's (`replay.files.open_stdin`), so nothing is lost."""
    from test_stdin_spool import _stdin

    path = Path(example_files()[0])
    _stdin(monkeypatch, path.read_bytes(), step=100)
    [plain] = list(import_paths(tmp_path / "plain.duckdb", ["-"], memory_limit=None))
    pipe = _stdin(monkeypatch, path.read_bytes(), step=100)
    ran_out = []
    first_try = store._Importer.import_file

    def import_file(self, name):  # the first reading runs out of the limit: the retry is what is tested
        try:
            return first_try(self, name)
        except duckdb.OutOfMemoryException:
            ran_out.append(name)
            raise

    monkeypatch.setattr(store._Importer, "import_file", import_file)
    [tight] = list(import_paths(tmp_path / "tight.duckdb", ["-"], memory_limit="5MB"))
    assert ran_out == ["-"]
    assert pipe.taken == path.stat().st_size  # the pipe was read once, whole
    assert tight.status == plain.status == "imported" and tight.hands == plain.hands > 0
    assert table_dump(tmp_path / "tight.duckdb") == table_dump(tmp_path / "plain.duckdb")


def test_a_checkpoint_run_out_of_the_limit_still_imports_the_file_as_without_a_limit(tmp_path: Path, monkeypatch):
    """A commit's checkpoint reads back the whole last row group of ``session_text`` (which grows with the file:
    a 500,000-hand file ran out of 160MB there, measured with DuckDB 1.5.6). DuckDB then fails the commit
    (TransactionException) or, in an automatic checkpoint, raises a FatalException and invalidates the database;
    neither is an OutOfMemoryException, and neither may lose the file. Here a checkpoint after every commit
    (``checkpoint_threshold`` 256kB) and a 6MB limit make the first commit's checkpoint run out."""
    header, records = simulate_session("jojotte", 1_000, 7)
    text = io.StringIO()
    write_stream([header, *records], text)
    head, _, body = text.getvalue().partition("\n\nhand 1 ")
    hands = ("hand 1 " + body).rstrip("\n").split("\n\n")
    path = tmp_path / "long.jjt"  # one session of 4,000 hands: its canonical text in session_text (two chunks)
    path.write_text(head + "\n\n" + "\n\n".join(re.sub(r"^hand \d+", f"hand {k * 1_000 + i + 1}", h)
                                                for k in range(4) for i, h in enumerate(hands)) + "\n",
                    encoding="utf-8")
    connect = store.connect

    def checkpoint_often(*args, **kwargs):
        conn = connect(*args, **kwargs)
        if not kwargs.get("read_only"):
            conn.execute("SET checkpoint_threshold = '256kB'")
        return conn

    monkeypatch.setattr(store, "connect", checkpoint_often)
    [plain] = list(import_paths(tmp_path / "plain.duckdb", [str(path)], batch_hands=50, commit_hands=100,
                                memory_limit=None))
    ran_out = []
    first_try = store._Importer.import_file

    def import_file(self, name):
        try:
            return first_try(self, name)
        except duckdb.Error as e:
            ran_out.append(type(e))
            raise

    monkeypatch.setattr(store._Importer, "import_file", import_file)
    [tight] = list(import_paths(tmp_path / "tight.duckdb", [str(path)], batch_hands=50, commit_hands=100,
                                memory_limit="6MB"))
    assert ran_out and ran_out[0] in (duckdb.TransactionException, duckdb.FatalException)
    assert tight.status == plain.status == "imported" and tight.hands == plain.hands == 4_000
    assert table_dump(tmp_path / "tight.duckdb") == table_dump(tmp_path / "plain.duckdb")
