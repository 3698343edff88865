"""The import's DuckDB memory limit (issue 16 item 5) never makes an import fail.

`import_paths` sets ``memory_limit`` on its connection so that DuckDB's memory does not grow with the file. A
limit too small for a file must not lose it: the file is rolled back and imported again with DuckDB's default,
and the archive is the same as an import without any limit.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import duckdb
from test_archive_dump import example_files, table_dump

from jojotte_records.archive import store
from jojotte_records.archive.store import IMPORT_MEMORY_LIMIT, import_paths
from jojotte_records.notation.text import write_stream
from jojotte_records.play.simulate import simulate_session


@lru_cache
def _simulated(hands: int) -> tuple[str, tuple[str, ...]]:
    """The tags and the hands' texts of a session of ``hands`` simulated two-player hands (seed 7)."""
    header, records = simulate_session("jojotte", hands, 7)
    text = io.StringIO()
    write_stream([header, *records], text)
    head, _, body = text.getvalue().partition("\n\nhand 1 ")
    return head, tuple(("hand 1 " + body).rstrip("\n").split("\n\n"))


def _long_session(path: Path, copies: int, hands: int = 1_000) -> Path:
    """One session of ``hands`` simulated hands written ``copies`` times over, renumbered: a long file without
    simulating every hand."""
    head, played = _simulated(hands)
    path.write_text(head + "\n\n" + "\n\n".join(re.sub(r"^hand \d+", f"hand {k * hands + i + 1}", h)
                                                for k in range(copies) for i, h in enumerate(played)) + "\n",
                    encoding="utf-8")
    return path


def test_a_limit_too_small_still_imports_every_file_as_without_a_limit(tmp_path: Path):
    files = example_files()
    plain = list(import_paths(tmp_path / "plain.duckdb", files, memory_limit="64MB"))
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
                                memory_limit="64MB"))
    assert limited.status == "imported" and limited.hands == hands
    assert table_dump(tmp_path / "limited.duckdb") == table_dump(tmp_path / "plain.duckdb")


def test_standard_input_run_out_of_the_limit_is_read_again_from_its_spool(tmp_path: Path, monkeypatch):
    """``import -``: a file that runs out of the limit is imported again, and standard input cannot be read twice
    from the pipe; the second reading is the spool's (`replay.files.open_stdin`), so nothing is lost."""
    from test_stdin_spool import _stdin

    path = Path(example_files()[0])
    _stdin(monkeypatch, path.read_bytes(), step=100)
    [plain] = list(import_paths(tmp_path / "plain.duckdb", ["-"], memory_limit="64MB"))
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
    path = _long_session(tmp_path / "long.jjt", 4)  # 4,000 hands: the canonical text in session_text (two chunks)
    connect = store.connect

    def checkpoint_often(*args, **kwargs):
        conn = connect(*args, **kwargs)
        if not kwargs.get("read_only"):
            conn.execute("SET checkpoint_threshold = '256kB'")
        return conn

    monkeypatch.setattr(store, "connect", checkpoint_often)
    [plain] = list(import_paths(tmp_path / "plain.duckdb", [str(path)], batch_hands=50, commit_hands=100,
                                memory_limit="64MB"))
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


# `import_paths` in a fresh process: the file's status, the hands imported, how many times it ran out of the
# limit (then it is imported again without one) and the process's peak resident memory in KiB
_MEASURE = """
import resource, sys
from jojotte_records.archive import store
ran_out = []
first_try = store._Importer.import_file
def import_file(self, name):
    try:
        return first_try(self, name)
    except store._OUT_OF_MEMORY:
        ran_out.append(name)
        raise
store._Importer.import_file = import_file
[r] = store.import_paths(sys.argv[1], [sys.argv[2]], batch_hands=250, commit_hands=1_000, memory_limit="64MB")
print(r.status, r.hands, len(ran_out), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def test_import_memory_does_not_grow_with_the_file(tmp_path: Path):
    """Issue 16 item 5 (audit: no test held the import's memory). Peak RSS of an import is the process's own (the
    interpreter, DuckDB, pyarrow, the reader), plus DuckDB's memory, which its ``memory_limit`` caps, plus the rows
    of one batch of ``batch_hands`` hands. Both files below pay the first and the last once, so the larger one's peak
    may exceed the smaller one's by at most DuckDB's limit, 64 MiB here, and a 16 MiB margin for the allocator.

    The design's constants are scaled down so that a short test sees it (64MB instead of `IMPORT_MEMORY_LIMIT`,
    batches of 250 hands, a commit every 1,000, so the large file makes 32 commits), and the files are 2,000 and
    32,000 hands: an import whose memory grows with the file as before (about 4 KiB a hand: 323 MiB for 20,000 hands,
    1.08 GiB for 200,000) would be 120 MiB over the smaller file's peak, where at 8,000 hands it would still be
    inside the bound. Measured (DuckDB 1.5): 220 and 260 MiB. A file that ran out of the limit is imported again
    without one, which is not the bounded path: the test requires that it did not happen."""
    small, large = _long_session(tmp_path / "small.jjt", 2), _long_session(tmp_path / "large.jjt", 32)
    peaks = {}
    for path, hands in ((small, 2_000), (large, 32_000)):
        out = subprocess.run([sys.executable, "-c", _MEASURE, str(tmp_path / f"{path.stem}.duckdb"), str(path)],
                             capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        status, imported, ran_out, peak_kib = out.stdout.split()
        assert (status, int(imported), int(ran_out)) == ("imported", hands, 0), out.stdout
        peaks[hands] = int(peak_kib) / 1024
    assert peaks[32_000] <= peaks[2_000] + 64 + 16, peaks
