"""Import memory does not grow with the file (issue 16 item 5).

The import of one long session runs in a child process on two sizes of the same record (a block of legal
simulated hands repeated, renumbered), in small batches and chunks; its peak resident set size
(``ru_maxrss`` in the child) must not grow with the number of hands. Before the fix the larger import
peaked 45 MiB above the smaller (143 and 188 MiB): DuckDB kept every committed chunk in memory until the end (no
checkpoint between chunks), and a long session's canonical text was gathered into one value at the end
(about four times its size at once). This is a memory test, not a timed one.
"""

from __future__ import annotations

import hashlib
import io
import re
import subprocess
import sys
from pathlib import Path

import duckdb

from jojotte_records.archive import store
from jojotte_records.archive.store import import_paths, session_texts
from jojotte_records.notation.text import read_sessions, write_session, write_stream
from jojotte_records.play.simulate import simulate_session

ROOT = Path(__file__).resolve().parent.parent
FIXED = ROOT / "examples"

_CHILD = r"""
import resource, sys
from jojotte_records.archive.store import import_paths
[r] = list(import_paths(sys.argv[1], [sys.argv[2]], batch_hands=50, commit_hands=250))
assert r.status == "imported" and r.bad_hands == 0 and r.hands == int(sys.argv[3]), r.describe()
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""


def _repeated(block: list[str], header: str, hands: int) -> str:
    """A session of ``hands`` hands: the hands of ``block`` (an even number, so the dealers keep alternating) again
    and again, renumbered."""
    out = [header]
    for i in range(hands):
        out.append(re.sub(r"^hand \d+ ", f"hand {i + 1} ", block[i % len(block)]))
    return "\n\n".join(out) + "\n"


def _peak_mib(tmp_path: Path, text: str, hands: int) -> int:
    path = tmp_path / f"{hands}.jjt"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", _CHILD, str(tmp_path / f"{hands}.duckdb"), str(path), str(hands)],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return int(done.stdout.split()[-1])


def test_import_peak_memory_does_not_grow_with_the_file(tmp_path):
    header, hands = simulate_session("jojotte", 20, 1)
    f = io.StringIO()
    write_stream([header, *hands], f)
    head, body = f.getvalue().split("\n\nhand 1 ", 1)
    block = ("hand 1 " + body).rstrip("\n").split("\n\n")
    assert len(block) == 20
    small = _peak_mib(tmp_path, _repeated(block, head, 800), 800)
    large = _peak_mib(tmp_path, _repeated(block, head, 8_000), 8_000)
    # ten times the hands (3 MB of text, 8,000 hands of rows in 32 chunks): the same peak, give or take what
    # the allocators and DuckDB's cache (at most IMPORT_MEMORY_LIMIT) keep; before the fix, 45 MiB more
    assert large - small <= 20, (small, large)


def test_a_long_session_keeps_its_text_in_chunks(tmp_path, monkeypatch):
    # migration 010: a session of more than TEXT_CHUNK_HANDS hands has its canonical text in session_text, in
    # chunks of that many hands (sessions.canonical_text NULL); session_texts gives it whole, and its content hash
    # is the SHA-256 of the whole text, as for a short session
    path = FIXED / "spec-rubber.jjt"
    [session] = read_sessions(path.read_text(encoding="utf-8"))
    hands = len(session.hands)
    assert hands >= 3
    monkeypatch.setattr(store, "TEXT_CHUNK_HANDS", 2)
    db = tmp_path / "a.duckdb"
    [r] = list(import_paths(db, [str(path)]))
    assert r.status == "imported"
    conn = duckdb.connect(str(db), read_only=True)
    try:
        text, content_hash = conn.execute("SELECT canonical_text, content_hash FROM sessions").fetchone()
        chunks = [t for (t,) in conn.execute("SELECT text FROM session_text ORDER BY seq").fetchall()]
    finally:
        conn.close()
    whole = write_session(session)
    assert text is None
    # the header and two hands, then two hands a chunk: ceil(hands / 2) chunks
    assert len(chunks) == (hands + 1) // 2 and "".join(chunks) == whole
    assert content_hash == hashlib.sha256(whole.encode("utf-8")).hexdigest()
    assert [t for _, _, t in session_texts(db)] == [whole]
    # other bytes, the same session, imported as a short one: the same content hash, so it is recognised as stored
    monkeypatch.setattr(store, "TEXT_CHUNK_HANDS", 2_000)
    other = tmp_path / "other.jjt"
    other.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    [again] = list(import_paths(db, [str(other)]))
    assert again.status == "unchanged" and again.sessions_unchanged == 1
