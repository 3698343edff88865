"""The import's rows go to Arrow in bulk (issue 14 item 3: import at the speed of validation).

`store._Columns` converts the rows added one at a time in one Arrow call (a struct array of the tuples), not
column by column through Python lists and ``array.array``; a typecode column's -1 is NULL and its 1/0 a boolean.
The expectations here are built by hand (the unit test) or read from the record text itself (the plays and
tricks of a simulated file), not from the importer.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

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


def _call(item: str) -> tuple:
    """(seat label, kind, suit, melds) of a call as the text writes it (``B melds 9D-7D``, ``A name H``, ``A pass``)."""
    label, _, said = item.partition(" ")
    kind, _, rest = said.partition(" ")
    if kind == "melds":
        return label, kind, None, rest
    if kind == "name":
        return label, kind, rest, None
    return label, said.replace(" ", "_"), None, None


def _record_calls(text: str) -> list:
    """(hand, phase, seq, seat label, kind, suit, melds, trick, cards before it) of every call of the record's text."""
    calls, hand = [], 0
    for line in re.sub(r"\s*\{[^}]*\}", "", text).splitlines():
        keyword = line.split(" ", 1)[0]
        if keyword == "hand":
            hand += 1
        elif keyword in ("auction", "after") and " " in line:
            for seq, item in enumerate(line.split(" ", 1)[1].split(", "), 1):
                calls.append((hand, keyword, seq, *_call(item), None, None))
        elif keyword == "trick":
            head, items = line.split(": ", 1)
            cards = 0
            seq = sum(1 for c in calls if c[0] == hand and c[1] == "trick")
            for item in items.split(" -> ")[0].split(", "):
                if len(item.split(" ")[1]) == 2:
                    cards += 1
                else:
                    seq += 1
                    calls.append((hand, "trick", seq, *_call(item), int(head.split(" ")[1]), cards))
    return calls


LATE_DIX = Path(__file__).resolve().parent.parent / "examples" / "disputes" / "70-dix-after-first-card.jjt"


@pytest.mark.parametrize("game", ["jojotte", "jojotte-3", LATE_DIX.name, "dix in trick 2"])
def test_calls_are_the_calls_of_the_record(tmp_path, game):
    # every call of the auction and after lines and inside the tricks is a row of calls, in order, with its phase,
    # its number in its phase, its seat, what it says, and for one inside a trick the trick and the cards played
    # before it (the example: "trick 1: B AC, A dix, A KH jo")
    if game == LATE_DIX.name:
        text = LATE_DIX.read_text(encoding="utf-8")
    elif game == "dix in trick 2":  # (illegal, and recorded as written)
        text = LATE_DIX.read_text(encoding="utf-8").replace("B AC, A dix, A KH", "B AC, A KH")
        text = text.replace("trick 2: A QH jotte, B TH", "trick 2: A QH jotte, A dix, B TH")
        assert text.count("dix") == 3
    else:
        out = io.StringIO()
        write_stream(simulate_items(game, 60, 5), out)
        text = out.getvalue()
    path = tmp_path / "sim.jjt"
    path.write_text(text, encoding="utf-8")
    db = tmp_path / "a.duckdb"
    [r] = list(import_paths(db, [str(path)], batch_hands=7))
    assert r.status == "imported"
    conn = duckdb.connect(str(db), read_only=True)
    try:
        got = conn.execute(
            "SELECT dense_rank() OVER (ORDER BY c.session_id, c.hand_seq), c.phase, c.seq, pl.label, c.kind, c.suit, "
            "c.melds, c.trick_no, c.after_cards FROM calls c JOIN players pl ON pl.session_id = c.session_id "
            "AND pl.seat = c.seat ORDER BY c.session_id, c.hand_seq, "
            "CASE c.phase WHEN 'auction' THEN 1 WHEN 'after' THEN 2 ELSE 3 END, c.seq").fetchall()
    finally:
        conn.close()
    expected = _record_calls(text)
    assert {c[1] for c in expected} == ({"auction", "after", "trick"} if "dix" in game else {"auction", "after"})
    assert got == expected
