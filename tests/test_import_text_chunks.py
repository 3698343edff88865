"""A session's canonical text is never held whole by the import (issue 16 item 5).

It was spooled in chunks during the import, then gathered into one value of ``sessions.canonical_text`` at the
end, which made DuckDB hold several times the text's size at once: the import's peak memory grew with the
session. Then the chunks stayed in ``session_text`` (migration 010); now every session's text is there, one row a
line (migrations 011 and 012): a row of 2,000 hands' text, or a short session's whole text in its ``sessions``
row, never filled a row group, so each commit's checkpoint read back all the text stored before it.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import duckdb
import pytest

from jojotte_records.archive import store
from jojotte_records.archive.store import import_paths, session_texts
from jojotte_records.notation.text import read_sessions, write_session

ROOT = Path(__file__).resolve().parent.parent
FIXED = ROOT / "examples"
PATH = FIXED / "spec-rubber.jjt"


def _lines(text: str) -> list[str]:
    # the lines of a text, each with its newline (cut at "\n" only, as the notation's lines are)
    parts = text.split("\n")
    return [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def _whole() -> tuple[str, int]:
    [session] = read_sessions(PATH.read_text(encoding="utf-8"))
    return write_session(session), len(session.hands)


@pytest.mark.parametrize("spool_hands", [2, 2_000])
def test_a_session_keeps_its_text_a_line_a_row(tmp_path, monkeypatch, spool_hands):
    # migrations 011 and 012: a session's canonical text is in session_text, one row a line numbered from 1, whether
    # it was spooled in several pieces (every 2 hands) or once at its end; session_texts and the view
    # v_canonical_texts give it whole, and its content hash is the SHA-256 of the whole text
    whole, hands = _whole()
    assert hands >= 3
    monkeypatch.setattr(store, "TEXT_CHUNK_HANDS", spool_hands)
    db = tmp_path / "a.duckdb"
    [r] = list(import_paths(db, [str(PATH)]))
    assert r.status == "imported"
    conn = duckdb.connect(str(db), read_only=True)
    try:
        sid, content_hash = conn.execute("SELECT session_id, content_hash FROM sessions").fetchone()
        rows = conn.execute("SELECT session_id, seq, text FROM session_text ORDER BY seq").fetchall()
        viewed = conn.execute("SELECT session_id, canonical_text FROM v_canonical_texts").fetchall()
    finally:
        conn.close()
    assert rows == [(sid, n, t) for n, t in enumerate(_lines(whole), 1)] and len(rows) > hands
    assert viewed == [(sid, whole)]
    assert content_hash == hashlib.sha256(whole.encode("utf-8")).hexdigest()
    assert [t for _, _, t in session_texts(db)] == [whole]
    # other bytes, the same session, spooled otherwise: the same content hash, so it is recognised as stored
    monkeypatch.setattr(store, "TEXT_CHUNK_HANDS", 1 if spool_hands > 2 else 2_000)
    other = tmp_path / "other.jjt"
    other.write_text(PATH.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    [again] = list(import_paths(db, [str(other)]))
    assert again.status == "unchanged" and again.sessions_unchanged == 1


def _archive_at(tmp_path, monkeypatch, version: int) -> Path:
    # an archive of PATH made at migration `version` (the import's rows leave sessions.canonical_text NULL)
    real = store.migrations
    monkeypatch.setattr(store, "migrations", lambda: [m for m in real() if m.version <= version])
    db = tmp_path / f"at{version}.duckdb"
    [r] = list(import_paths(db, [str(PATH)]))
    assert r.status == "imported"
    monkeypatch.setattr(store, "migrations", real)
    return db


def _opened_again(db: Path) -> list[tuple]:
    conn = store.connect(db)  # read-write: the later migrations applied
    try:
        assert conn.execute("SELECT max(version) FROM _jojotte_migrations").fetchone()[0] == store.migrations()[-1].version
        return conn.execute("SELECT session_id, seq, text FROM session_text ORDER BY seq").fetchall()
    finally:
        conn.close()


def test_an_archive_with_text_in_chunks_is_cut_into_lines(tmp_path, monkeypatch):
    # migration 011 on an archive at 010, whose long sessions kept their text in chunks of whole hands: the chunks
    # become one row a line, numbered on across the chunks, and the session's text stays the same
    whole, _ = _whole()
    lines = _lines(whole)
    cuts = [0, 1, len(lines) // 2, len(lines)]  # three chunks cut at newlines, as 010 cut them after whole hands
    db = _archive_at(tmp_path, monkeypatch, 10)
    conn = duckdb.connect(str(db))  # as it is, not migrated
    try:
        [(sid,)] = conn.execute("SELECT session_id FROM sessions").fetchall()
        conn.execute("DELETE FROM session_text")
        for seq, (a, b) in enumerate(zip(cuts, cuts[1:]), 1):
            conn.execute("INSERT INTO session_text VALUES (?, ?, ?)", [sid, seq, "".join(lines[a:b])])
    finally:
        conn.close()
    assert _opened_again(db) == [(sid, n, t) for n, t in enumerate(lines, 1)]
    assert [t for _, _, t in session_texts(db)] == [whole]


def test_a_short_session_s_whole_text_is_cut_into_lines(tmp_path, monkeypatch):
    # migration 012 on an archive at 011, where a session of at most 2,000 hands kept its text whole in
    # sessions.canonical_text: it becomes one row a line in session_text and the column is gone
    whole, _ = _whole()
    db = _archive_at(tmp_path, monkeypatch, 11)
    conn = duckdb.connect(str(db))
    try:
        [(sid,)] = conn.execute("SELECT session_id FROM sessions").fetchall()
        conn.execute("DELETE FROM session_text")
        conn.execute("UPDATE sessions SET canonical_text = ?", [whole])
    finally:
        conn.close()
    assert _opened_again(db) == [(sid, n, t) for n, t in enumerate(_lines(whole), 1)]
    assert [t for _, _, t in session_texts(db)] == [whole]
    conn = duckdb.connect(str(db), read_only=True)
    try:
        columns = {c for (c,) in conn.execute("SELECT column_name FROM duckdb_columns() WHERE table_name = 'sessions'").fetchall()}
    finally:
        conn.close()
    assert "canonical_text" not in columns and "content_hash" in columns
