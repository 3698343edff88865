"""The ``plays`` rows of a Jo-Jotte trick (`rows.JojotteRecordRows.trick_rows`): each card's value for the trumps
named, and whether it won the trick the replay played; a card not recorded has neither. The expectations are read
from the record text and the spec's card values (JJ-PTS-1), not from the importer.
"""

from __future__ import annotations

import duckdb

from jojotte_records.archive.store import import_paths

# hand 1 of bench/import.py's simulated file: spades trumps, every trick written out
HAND = """[Event "Plays"]
[Game "jojotte"]
[Players "Ann; Bea"]

hand 1 dealer A
deal A: 8S 8H KD QD KC TC + QH AD TD; B: AS QS 9S 9H 8D 7D + TH AC 9C
turned 9D
info JS
auction B pass, A pass, B name S, A pass
after A melds AD-QD, B pass, B pass
trick 1: A AD, B 7D
trick 2: A TD, B 8D
trick 3: A KD, B QS{extra}
trick 4: B AC, A KC
"""


def _plays(tmp_path, extra: str) -> list[tuple]:
    path = tmp_path / "h.jjt"
    path.write_text(HAND.replace("{extra}", extra), encoding="utf-8")
    db = tmp_path / "a.duckdb"
    list(import_paths(db, [str(path)]))
    conn = duckdb.connect(str(db), read_only=True)
    try:
        return conn.execute("SELECT trick_no, pos, seat, c.card, points, won FROM plays LEFT JOIN cards c USING (card_id) "
                            "ORDER BY ply").fetchall()
    finally:
        conn.close()


def test_the_cards_of_whole_tricks_carry_their_points(tmp_path):
    # JJ-PTS-1, spades trumps: each ace and ten 10, king and queen 5, 8s and 7s 0; the leader wins tricks 1 and 2
    # (higher card of the suit led), B trick 3 with a trump (QS), and trick 4 with the ace led
    assert _plays(tmp_path, "") == [
        (1, 1, 0, "AD", 10, True), (1, 2, 1, "7D", 0, False),
        (2, 1, 0, "TD", 10, True), (2, 2, 1, "8D", 0, False),
        (3, 1, 0, "KD", 5, False), (3, 2, 1, "QS", 5, True),
        (4, 1, 1, "AC", 10, True), (4, 2, 0, "KC", 5, False)]


def test_an_unknown_card_after_a_whole_trick_has_no_points(tmp_path):
    # a third card, not recorded, in trick 3: the replay played the trick's two cards, then stops (JJ-INV-2); the
    # unknown card is stored with no card and no points, and whether it won is the trick's winner's seat
    got = _plays(tmp_path, ", A ?")
    assert got[4:7] == [(3, 1, 0, "KD", 5, False), (3, 2, 1, "QS", 5, True), (3, 3, 0, None, None, False)]
    # past the replay: each card's value for the trumps named, and whether it won not known
    assert got[7:] == [(4, 1, 1, "AC", 10, None), (4, 2, 0, "KC", 5, None)]
