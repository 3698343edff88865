"""Every table of an archive of `examples/` is pinned by digest (issue 13: one archive loader, same rows).

The archive is filled from every record file of ``examples/`` (sorted, one `import_paths` run), then each
table is dumped to a canonical form: its rows sorted, each value written by ``repr`` (so a NULL, an integer
and a string differ), the import time left out (it is the clock's). The digests were taken with the two
loaders of before the one-loader restructuring (``store._add_hand`` and ``event_rows``), so a change of any
row of any table for any game fails here. A change made on purpose regenerates them with
``python tests/test_archive_dump.py > tests/data/archive_dump_digests.json`` and says so.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import duckdb
import pytest

from jojotte_records.archive.store import EXPORT_TABLES, SESSION_TABLES, import_paths

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
DIGESTS = Path(__file__).with_name("data") / "archive_dump_digests.json"
TABLES = sorted({*SESSION_TABLES, *EXPORT_TABLES, "import_log", "cards"})
VOLATILE = {"import_log": ("imported_at",)}  # the clock's, not the records'


def example_files() -> list[str]:
    return [str(p) for p in sorted(EXAMPLES.rglob("*"), key=lambda p: str(p.relative_to(EXAMPLES)))
            if p.suffix in (".jjt", ".json") and p.is_file()]


def table_dump(db: Path) -> dict[str, str]:
    """Each table's rows in a canonical text: columns by name, rows sorted, values by repr."""
    conn = duckdb.connect(str(db), read_only=True)
    try:
        out = {}
        for table in TABLES:  # identifiers from constants only
            cols = [r[0] for r in conn.execute(f"DESCRIBE {table}").fetchall() if r[0] not in VOLATILE.get(table, ())]
            rows = conn.execute(f"SELECT {', '.join(cols)} FROM {table}").fetchall()
            lines = sorted(repr(tuple(r)).replace(str(ROOT), "<root>") for r in rows)
            out[table] = "\n".join([", ".join(cols), *lines])
        return out
    finally:
        conn.close()


def dump_digests(db: Path) -> dict[str, str]:
    return {t: hashlib.sha256(text.encode("utf-8")).hexdigest() for t, text in table_dump(db).items()}


def import_examples(db: Path, **kwargs) -> list:
    return list(import_paths(db, example_files(), **kwargs))


@pytest.fixture(scope="module")
def examples_archive(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("dump") / "examples.duckdb"
    import_examples(db)
    return db


def test_every_table_is_pinned(examples_archive):
    assert sorted(json.loads(DIGESTS.read_text())["tables"]) == TABLES


@pytest.mark.parametrize("table", TABLES)
def test_table_rows_unchanged(examples_archive, table):
    pinned = json.loads(DIGESTS.read_text())["tables"][table]
    assert dump_digests(examples_archive)[table] == pinned


def test_session_content_hashes_unchanged(examples_archive):
    # the content hash is the SHA-256 of the canonical text: re-importing a user's files must recognise them
    conn = duckdb.connect(str(examples_archive), read_only=True)
    try:
        rows = conn.execute("SELECT source, source_index, content_hash FROM sessions ORDER BY session_id").fetchall()
    finally:
        conn.close()
    got = [[str(Path(s).relative_to(ROOT)), i, h] for s, i, h in rows]
    assert got == json.loads(DIGESTS.read_text())["content_hashes"]


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "examples.duckdb"
        import_examples(db)
        conn = duckdb.connect(str(db), read_only=True)
        hashes = [[str(Path(s).relative_to(ROOT)), i, h] for s, i, h in
                  conn.execute("SELECT source, source_index, content_hash FROM sessions ORDER BY session_id").fetchall()]
        conn.close()
        json.dump({"tables": dump_digests(db), "content_hashes": hashes}, sys.stdout, indent=1, sort_keys=True)
        sys.stdout.write("\n")


def test_streamed_in_the_smallest_batches_gives_the_same_rows(tmp_path):
    # issue 16 item 5: rows go to DuckDB in batches and a session's canonical text is spooled in chunks inside the
    # file's transaction; with one hand per batch and per chunk every session of the examples takes that path,
    # and the archive must hold exactly what one batch per file gives (the pinned digests)
    db = tmp_path / "streamed.duckdb"
    import_examples(db, batch_hands=1)
    pinned = json.loads(DIGESTS.read_text())["tables"]
    assert dump_digests(db) == pinned


def test_committed_in_the_smallest_chunks_gives_the_same_rows(tmp_path):
    # issue 16 item 5: a file committed in chunks (one hand each, marked pending until its last commit) must leave
    # exactly the rows of one transaction per file (the pinned digests), and no marker
    db = tmp_path / "chunked.duckdb"
    import_examples(db, batch_hands=1, commit_hands=1)
    pinned = json.loads(DIGESTS.read_text())["tables"]
    assert dump_digests(db) == pinned
    conn = duckdb.connect(str(db), read_only=True)
    try:
        assert conn.execute("SELECT count(*) FROM _jojotte_pending").fetchone() == (0,)
    finally:
        conn.close()


def test_jobs_give_the_same_archive_as_one_process(tmp_path):
    # issue 14 item 4: files validated and turned into rows in two worker processes, written here in input order:
    # the same rows as one process (the pinned digests), the same per-file results
    db = tmp_path / "jobs.duckdb"
    one = import_examples(tmp_path / "one.duckdb")
    two = import_examples(db, jobs=2)
    assert dump_digests(db) == json.loads(DIGESTS.read_text())["tables"]
    assert [r.describe() for r in two] == [r.describe() for r in one]
    assert [(r.hands, r.bad_hands, r.plays, r.syntax_errors, r.hands_read) for r in two] == \
           [(r.hands, r.bad_hands, r.plays, r.syntax_errors, r.hands_read) for r in one]


def test_jobs_replace_and_recognise_as_one_process(tmp_path):
    # a second run over the same files (every file unchanged) and over changed copies (every session replaced,
    # renumbered on from the largest id): table by table the same as one process
    files = example_files()
    changed = tmp_path / "changed"
    changed.mkdir()
    copies = []
    for i, f in enumerate(files):
        if f.endswith(".jjt"):
            copy = changed / f"{i:03d}.jjt"
            copy.write_text(Path(f).read_text(encoding="utf-8") + "\n{an added comment}\n", encoding="utf-8")
            copies.append(str(copy))
    dumps = []
    for jobs in (1, 2):
        db = tmp_path / f"j{jobs}.duckdb"
        list(import_paths(db, files, jobs=jobs))
        again = list(import_paths(db, files, jobs=jobs))
        assert all(r.status in ("unchanged", "error") for r in again)
        list(import_paths(db, copies, jobs=jobs))
        dumps.append(table_dump(db))
    assert dumps[0] == dumps[1]
