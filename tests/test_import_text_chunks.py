"""A long session's canonical text is never held whole by the import (issue 16 item 5).

It was spooled in chunks during the import, then gathered into one value of ``sessions.canonical_text`` at the
end, which made DuckDB hold several times the text's size at once: the import's peak memory grew with the
session. Now the chunks stay in ``session_text`` (migration 010).
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
