"""Standard input read once and spooled (issue 16: `report -` could not read its input a second time, so it
gave 0 on an unknown game or option): every reader of `-` reads it from its first byte, in memory up to a bound,
then from a temporary file."""

from __future__ import annotations

import io
import sys

from conftest import EXAMPLES
from jojotte_records.replay import files
from jojotte_records.replay.files import open_records, open_stdin, read_record_text


class _Pipe(io.RawIOBase):
    """A pipe that hands out at most ``step`` bytes a read and counts how much was taken from it."""

    def __init__(self, data: bytes, step: int):
        self.data, self.step, self.taken = data, step, 0

    def readable(self):
        return True

    def readinto(self, b):
        chunk = self.data[self.taken:self.taken + min(len(b), self.step)]
        b[:len(chunk)] = chunk
        self.taken += len(chunk)
        return len(chunk)


def _stdin(monkeypatch, data: bytes, step: int = 1 << 16) -> _Pipe:
    pipe = _Pipe(data, step)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(pipe, buffer_size=step), encoding="utf-8"))
    return pipe


def test_standard_input_is_read_again_from_its_first_byte_past_the_memory_bound(monkeypatch):
    data = (EXAMPLES / "spec-rubber.jjt").read_bytes() * 40  # about 40 × 1.3 kB: past a bound of 4 kB
    monkeypatch.setattr(files, "STDIN_MEMORY_BYTES", 4096)
    _stdin(monkeypatch, data, step=1000)
    assert read_record_text("-") == data.decode("utf-8")
    assert files._SPOOLS[0].file is not None and not files._SPOOLS[0].memory  # spooled to the temporary file
    assert read_record_text("-") == data.decode("utf-8")  # a second reader: the same text again
    with open_stdin() as a, open_stdin() as b:  # two readers at once, each from its own place
        assert a.read(10) == data[:10] and b.read(25) == data[:25] and a.read(5) == data[10:15]


def test_the_first_reader_streams_and_a_second_one_sees_the_same_sessions(monkeypatch):
    data = (EXAMPLES / "spec-rubber.jjt").read_bytes() * 3  # three sessions, in 100-byte pipe reads
    pipe = _stdin(monkeypatch, data, step=100)
    items = open_records("-")
    next(items)  # the first session's header: read without taking the whole pipe
    assert pipe.taken < len(data)
    first = [type(i).__name__ for i in items]
    second = [type(i).__name__ for i in open_records("-")]
    assert second[0] == "SessionHeader" and second[1:] == first and second.count("SessionHeader") == 3
    assert pipe.taken == len(data)


def test_a_new_standard_input_is_a_new_spool(monkeypatch):
    _stdin(monkeypatch, b"first")
    assert read_record_text("-") == "first"
    _stdin(monkeypatch, b"second")  # sys.stdin replaced (as the test runner does for each command)
    assert read_record_text("-") == "second"


def test_import_of_standard_input_goes_through_the_spool_and_stores_what_the_file_gives(monkeypatch, tmp_path):
    # issue 16 item 5: `import -` read standard input whole (`sys.stdin.buffer.read()`) however long it was; it now
    # streams through the spool (past the memory bound: a temporary file), as `validate -` does, with one or two jobs
    from jojotte_records.archive.store import connect, import_paths

    source = EXAMPLES / "spec-rubber.jjt"
    data = source.read_bytes()
    expected = None
    for jobs in (1, 2):
        monkeypatch.setattr(files, "STDIN_MEMORY_BYTES", 256)  # far below the file: the spool must spill to disk
        monkeypatch.setattr(files, "_SPOOLS", [])
        _stdin(monkeypatch, data, step=100)
        monkeypatch.setattr(sys.stdin.buffer, "read", lambda *a: (_ for _ in ()).throw(AssertionError("read whole")))
        db = tmp_path / f"in{jobs}.duckdb"
        (done,) = list(import_paths(db, ["-"], jobs=jobs))
        assert done.status == "imported" and done.sessions_new == 1, done
        assert files._SPOOLS and files._SPOOLS[0].file is not None  # it went through the spool, past its bound
        conn = connect(db, read_only=True)
        try:
            rows = conn.execute("SELECT count(*) FROM hands").fetchall()
        finally:
            conn.close()
        expected = expected or rows
        assert rows == expected and rows[0][0] > 0
    ref = tmp_path / "file.duckdb"
    list(import_paths(ref, [str(source)]))
    conn = connect(ref, read_only=True)
    try:
        assert conn.execute("SELECT count(*) FROM hands").fetchall() == expected
    finally:
        conn.close()
