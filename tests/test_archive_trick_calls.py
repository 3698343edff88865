"""Calls written inside a trick (`Trick.calls`, JSON `tricks[].calls` with `after_cards`) are stored in the archive's
``calls`` and ``dix`` tables with their trick and place (issue 16 leftovers: they were left out of both)."""

from __future__ import annotations

import duckdb

from conftest import EXAMPLES
from jojotte_records.archive.store import import_paths

LATE_DIX = EXAMPLES / "disputes" / "70-dix-after-first-card.jjt"  # line 17: "trick 1: B AC, A dix, A KH jo"


def _rows(db, sql):
    conn = duckdb.connect(str(db), read_only=True)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def _import(tmp_path, path):
    db = tmp_path / "a.duckdb"
    [result] = list(import_paths(db, [str(path)]))
    assert result.status == "imported", result
    return db


def test_a_dix_after_the_first_card_is_stored_in_its_trick(tmp_path):
    db = _import(tmp_path, LATE_DIX)
    calls = _rows(db, "SELECT phase, seq, seat, kind, line, col, trick_no, after_cards FROM calls ORDER BY phase, seq")
    # the auction (A accept, B pass) and after the draw (B melds, A pass, A melds) have no trick (columns counted on
    # lines 15 and 16: "auction " and "after " are 8 and 6 long, "B melds 9D-7D, " 15, "A pass, " 8); the dix is
    # Gina's (A, seat 0) in trick 1 after one card (Hugo's AC), at line 17, column 16 ("trick 1: B AC, " is 15 long)
    assert calls == [
        ("after", 1, 1, "melds", 16, 7, None, None), ("after", 2, 0, "pass", 16, 22, None, None),
        ("after", 3, 0, "melds", 16, 30, None, None),
        ("auction", 1, 0, "accept", 15, 9, None, None), ("auction", 2, 1, "pass", 15, 19, None, None),
        ("trick", 1, 0, "dix", 17, 16, 1, 1),
    ]
    # turned 9H: she takes the nine and gives the seven of trumps (JJ-DIX-1); refused, after the first card (JJ-DIX-3)
    assert _rows(db, "SELECT seat, call_seq, took, gave, accepted, trick_no, after_cards FROM dix") == [
        (0, 1, "9H", "7H", False, 1, 1)]


def test_a_dix_written_in_trick_one_before_its_first_card_is_accepted(tmp_path):
    text = LATE_DIX.read_text(encoding="utf-8").replace("trick 1: B AC, A dix, A KH jo", "trick 1: A dix, B AC, A KH jo")
    path = tmp_path / "early.jjt"
    path.write_text(text, encoding="utf-8")
    db = _import(tmp_path, path)
    assert _rows(db, "SELECT seq, seat, kind, trick_no, after_cards FROM calls WHERE phase = 'trick'") == [(1, 0, "dix", 1, 0)]
    # before the first card the exchange is still open (JJ-DIX-3): the replay accepts it
    assert _rows(db, "SELECT seat, call_seq, took, gave, trick_no, after_cards FROM dix") == [(0, 1, "9H", "7H", 1, 0)]
    [(accepted,)] = _rows(db, "SELECT accepted FROM dix")
    [(issues,)] = _rows(db, "SELECT count(*) FROM issues WHERE rule = 'JJ-DIX-3'")
    assert accepted is (issues == 0)


def test_calls_after_the_draw_have_no_trick(tmp_path):
    db = _import(tmp_path, EXAMPLES / "spec-rubber.jjt")
    assert _rows(db, "SELECT count(*) FROM calls WHERE trick_no IS NOT NULL OR after_cards IS NOT NULL") == [(0,)]
    assert _rows(db, "SELECT count(*) FROM dix WHERE trick_no IS NOT NULL OR after_cards IS NOT NULL") == [(0,)]
    assert _rows(db, "SELECT count(*) FROM dix") != [(0,)]  # spec-rubber exchanges the dix after the draw
