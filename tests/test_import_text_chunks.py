"""A long session's canonical text is never held whole by the import (issue 16 item 5).

It was spooled in chunks during the import, then gathered into one value of ``sessions.canonical_text`` at the
end, which made DuckDB hold several times the text's size at once: the import's peak memory grew with the
session. Now the text stays in ``session_text`` (migration 010), one row a line (migration 011: a row of 2,000
hands' text never filled a row group, so each commit's checkpoint read back all the text stored before it).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import duckdb

from jojotte_records.archive import store
from jojotte_records.archive.store import import_paths, session_texts
from jojotte_records.notation.text import read_sessions, write_session

ROOT = Path(__file__).resolve().parent.parent
FIXED = ROOT / "examples"


def _lines(text: str) -> list[str]:
    # the lines of a text, each with its newline (cut at "\n" only, as the notation's lines are)
    parts = text.split("\n")
    return [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def test_a_long_session_keeps_its_text_a_line_a_row(tmp_path, monkeypatch):
    # migrations 010 and 011: a session of more than TEXT_CHUNK_HANDS hands has its canonical text in session_text,
    # one row a line numbered from 1 (sessions.canonical_text NULL); session_texts gives it whole, and its content
    # hash is the SHA-256 of the whole text, as for a short session
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
        rows = conn.execute("SELECT seq, text FROM session_text ORDER BY seq").fetchall()
    finally:
        conn.close()
    whole = write_session(session)
    assert text is None
    assert [t for _, t in rows] == _lines(whole) and len(rows) > hands
    assert [n for n, _ in rows] == list(range(1, len(rows) + 1))
    assert content_hash == hashlib.sha256(whole.encode("utf-8")).hexdigest()
    assert [t for _, _, t in session_texts(db)] == [whole]
    # other bytes, the same session, imported as a short one: the same content hash, so it is recognised as stored
    monkeypatch.setattr(store, "TEXT_CHUNK_HANDS", 2_000)
    other = tmp_path / "other.jjt"
    other.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    [again] = list(import_paths(db, [str(other)]))
    assert again.status == "unchanged" and again.sessions_unchanged == 1


def test_an_archive_with_text_in_chunks_is_cut_into_lines(tmp_path, monkeypatch):
    # migration 011 on an archive at 010, whose long sessions kept their text in chunks of whole hands: the chunks
    # become one row a line, numbered on across the chunks, and the session's text and content hash stay the same
    path = FIXED / "spec-rubber.jjt"
    [session] = read_sessions(path.read_text(encoding="utf-8"))
    whole = write_session(session)
    lines = _lines(whole)
    # three chunks cut at newlines, as 010 cut them after whole hands
    cuts = [0, 1, len(lines) // 2, len(lines)]
    chunks = ["".join(lines[a:b]) for a, b in zip(cuts, cuts[1:])]
    real = store.migrations
    monkeypatch.setattr(store, "migrations", lambda: [m for m in real() if m.version <= 10])
    db = tmp_path / "old.duckdb"
    [r] = list(import_paths(db, [str(path)]))
    assert r.status == "imported"
    conn = store.connect(db)
    try:
        assert conn.execute("SELECT max(version) FROM _jojotte_migrations").fetchone()[0] == 10
        [(sid,)] = conn.execute("SELECT session_id FROM sessions").fetchall()
        conn.execute("UPDATE sessions SET canonical_text = NULL")
        for seq, chunk in enumerate(chunks, 1):
            conn.execute("INSERT INTO session_text VALUES (?, ?, ?)", [sid, seq, chunk])
    finally:
        conn.close()
    monkeypatch.setattr(store, "migrations", real)
    conn = store.connect(db)  # read-write: 011 applied
    try:
        rows = conn.execute("SELECT session_id, seq, text FROM session_text ORDER BY seq").fetchall()
        content_hash = conn.execute("SELECT content_hash FROM sessions").fetchone()[0]
    finally:
        conn.close()
    assert rows == [(sid, n, t) for n, t in enumerate(lines, 1)]
    assert [t for _, _, t in session_texts(db)] == [whole]
    assert content_hash == hashlib.sha256(whole.encode("utf-8")).hexdigest()
