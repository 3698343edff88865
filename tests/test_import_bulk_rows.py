"""The import's rows go to Arrow in bulk (issue 14 item 3: import at the speed of validation).

`store._Columns` converts the rows added one at a time in one Arrow call (a struct array of the tuples), not
column by column through Python lists and ``array.array``; a typecode column's -1 is NULL and its 1/0 a boolean.
The expectations here are built by hand (the unit test) or read from the record text itself (the plays and
tricks of a simulated file), not from the importer.
"""

from __future__ import annotations

import io

import duckdb
import pyarrow as pa
import pytest

from jojotte_records.archive.store import _SPECS, _Columns, import_paths
from jojotte_records.notation.text import write_stream
from jojotte_records.play.simulate import simulate_items


def _expected(spec, rows) -> pa.Table:
    """The table of ``rows`` as the archive stores them, built value by value."""
    cols = []
    for i, (_, typ, code) in enumerate(spec):
        values = [r[i] for r in rows]
        if code:
            values = [None if v < 0 else (v == 1 if pa.types.is_boolean(typ) else v) for v in values]
        cols.append(pa.array(values, type=typ))
    return pa.Table.from_arrays(cols, names=[n for n, _, _ in spec])


TRICKS = [(1, 1, 1, 0, 1, -1, 20, 0, 14), (1, 1, 2, 1, -1, 0, -1, 1, -1), (2, 7, 3, -1, 0, 1, 0, -1, 30000)]


def test_rows_one_at_a_time_become_the_stored_columns():
    # -1 is NULL in every typecode column, 1/0 a boolean in `last`; the rows keep their order
    buf = _Columns("tricks", _SPECS["tricks"])
    buf.rows.extend(TRICKS)
    got = buf.arrow()
    assert got.equals(_expected(_SPECS["tricks"], TRICKS))
    assert got.column("winner_seat").to_pylist() == [1, None, 0] and got.column("last").to_pylist() == [False, True, None]


def test_whole_columns_come_before_the_rows_added_after_them():
    buf = _Columns("tricks", _SPECS["tricks"])
    buf.extend([list(c) for c in zip(*TRICKS[:2])])
    buf.rows.append(TRICKS[2])
    assert buf.arrow().equals(_expected(_SPECS["tricks"], TRICKS))
    players = [(1, 0, "A", "Alice", 0), (1, 1, "B", None, None)]
    buf = _Columns("players", _SPECS["players"])
    buf.extend([list(c) for c in zip(*players[:1])])
    buf.rows.append(players[1])
    assert buf.arrow().to_pylist() == [dict(zip(buf.names, r)) for r in players]


def test_a_row_of_the_wrong_length_is_refused():
    buf = _Columns("tricks", _SPECS["tricks"])
    buf.rows.append(TRICKS[0][:-1])
    with pytest.raises(ValueError, match="a row of tricks has not 9 values"):
        buf.arrow()


def _record_plays(text: str) -> tuple[list, list]:
    """(hand, trick, position, seat label, card, announce) of every card of the trick lines, and (hand, trick, leader
    label, cards) of every trick, read from the record's text; hands counted in the file's order."""
    plays, tricks = [], []
    hand = 0
    for line in text.splitlines():
        if line.startswith("hand "):
            hand += 1
        if not line.startswith("trick "):
            continue
        head, items = line.split(": ", 1)
        cards = [i.split(" ") for i in items.split(" -> ")[0].split(", ")]
        cards = [c for c in cards if len(c[1]) == 2]  # a card, not a call made inside the trick
        number = int(head.split(" ")[1])
        tricks.append((hand, number, cards[0][0], len(cards)))
        for pos, c in enumerate(cards, 1):
            plays.append((hand, number, pos, c[0], c[1], c[2] if len(c) > 2 else None))
    return plays, tricks


@pytest.mark.parametrize("game,hands", [("jojotte", 40), ("jojotte-4p", 12), ("pitch", 12), ("baloot", 6)])
def test_plays_and_tricks_are_the_cards_of_the_record(tmp_path, game, hands):
    # a simulated file in several batches: each card of each trick line is a row of plays, in order, with its seat,
    # card and announcement; each trick line a row of tricks led by its first card's seat; every card of a finished
    # hand has its points and exactly one card a trick won it
    out = io.StringIO()
    write_stream(simulate_items(game, hands, 3), out)
    text = out.getvalue()
    path = tmp_path / "sim.jjt"
    path.write_text(text, encoding="utf-8")
    db = tmp_path / "a.duckdb"
    [r] = list(import_paths(db, [str(path)], batch_hands=5))
    assert r.status == "imported" and r.bad_hands == 0
    plays, tricks = _record_plays(text)
    if game in ("pitch", "baloot"):  # an event-log hand's card keeps no word said with it (Baloot's "ekka")
        plays = [(*p[:5], None) for p in plays]
    conn = duckdb.connect(str(db), read_only=True)
    try:
        # hands numbered in the file's order across its sessions
        got = conn.execute(
            "SELECT dense_rank() OVER (ORDER BY p.session_id, p.hand_seq), p.trick_no, p.pos, pl.label, c.card, "
            "p.announce FROM plays p JOIN players pl ON pl.session_id = p.session_id AND pl.seat = p.seat "
            "JOIN cards c ON c.card_id = p.card_id ORDER BY p.session_id, p.hand_seq, p.ply").fetchall()
        got_tricks = conn.execute(
            "SELECT dense_rank() OVER (ORDER BY t.session_id, t.hand_seq), t.trick_no, pl.label, "
            "(SELECT count(*) FROM plays p WHERE p.session_id = t.session_id AND p.hand_seq = t.hand_seq "
            "AND p.trick_no = t.trick_no) FROM tricks t JOIN players pl ON pl.session_id = t.session_id "
            "AND pl.seat = t.leader_seat ORDER BY t.session_id, t.hand_seq, t.trick_no").fetchall()
        nulls = conn.execute("SELECT count(*) FILTER (WHERE points IS NULL), count(*) FILTER (WHERE won IS NULL), "
                             "count(*) FILTER (WHERE dd_eval IS NOT NULL) FROM plays").fetchone()
        won = conn.execute("SELECT count(*) FROM (SELECT session_id, hand_seq, trick_no FROM plays GROUP BY ALL "
                           "HAVING count(*) FILTER (WHERE won) <> 1)").fetchone()[0]
        last = conn.execute("SELECT count(*) FILTER (WHERE last), count(*) FILTER (WHERE last IS NULL), "
                            "count(*) FILTER (WHERE written_winner_seat IS NOT NULL), "
                            "count(DISTINCT (session_id, hand_seq)) FROM tricks").fetchone()
    finally:
        conn.close()
    assert len(plays) > 10 * hands
    assert got == plays
    assert got_tricks == tricks
    assert nulls == (0, 0, 0) and won == 0
    assert last[1:] == (0, 0, r.hands) and last[0] <= r.hands
