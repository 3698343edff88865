"""The DuckDB archive against real files in a temporary folder: import, idempotence, replacement,
atomicity under SIGKILL, the named statistics (figures worked out by hand), read-only SQL, Parquet."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest
from jojotte_records.cli.main import app
from typer.testing import CliRunner

from conftest import EXAMPLES, ROOT
from jojotte_records.archive import store as archive_store
from jojotte_records.archive.stats import StatFilters, list_statistics, run_statistic
from jojotte_records.archive.store import (
    EXPORT_TABLES,
    ArchiveError,
    connect,
    import_paths,
    migrations,
    parse_tag_date,
    run_sql,
    session_key,
    session_texts,
    table_counts,
)
from jojotte_records.notation.text import read_sessions, write_session

runner = CliRunner()
# the three example sessions as they stood when the figures below were worked out by hand
# (examples/ may grow; these copies do not): Examples 3, 5-7b and 9 of the rules spec
FIXED = ROOT / "tests" / "data" / "archive"
EXAMPLE_FILES = ("doubles.jjt", "nullo-slam-void.jjt", "spec-rubber.jjt")


def _copy_examples(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in EXAMPLE_FILES:
        shutil.copy(FIXED / name, folder / name)
    return folder


def _disputed_text() -> str:
    """The doubles session with another pair: hand 1's score written wrong (Gina), hand 2 a revoke (Hugo)."""
    text = (FIXED / "doubles.jjt").read_text(encoding="utf-8")
    text = text.replace('[Event "Doubles and redoubles"]', '[Event "Disputed night"]')
    text = text.replace('[Players "Eve; Frank"]', '[Players "Gina; Hugo"]')
    text = text.replace("score A below 300 above 20", "score A below 150 above 20")
    return text.replace("trick 2: A AS, B KS", "trick 2: A AS, B 7D")


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    """The three example sessions and the disputed one: a small fixed archive."""
    root = tmp_path_factory.mktemp("archive")
    folder = _copy_examples(root / "records")
    (folder / "disputed.jjt").write_text(_disputed_text(), encoding="utf-8")
    db = root / "club.duckdb"
    results = list(import_paths(db, [str(folder)]))
    assert [r.status for r in results] == ["imported"] * 4
    return db


def _query(db: Path, sql: str, params=()) -> list[tuple]:
    conn = duckdb.connect(str(db), read_only=True)
    try:
        return conn.execute(sql, list(params)).fetchall()
    finally:
        conn.close()


def _snapshot(db: Path) -> dict:
    """Every row count, and the stored sessions with their texts' hashes."""
    counts = table_counts(db)
    sessions = _query(db, "SELECT session_key, content_hash FROM sessions ORDER BY session_key")
    return {"counts": counts, "sessions": sessions}


# --- import -------------------------------------------------------------------------------

def test_import_loads_every_part_of_the_examples(archive):
    counts = table_counts(archive)
    assert counts["sessions"] == 4 and counts["players"] == 8
    assert counts["hands"] == 3 + 5 + 4 + 3
    # 18 cards a played hand; Nullo/Slam session: hands 4 (void) and 5 (result only) have none; disputed hand 2 is all recorded
    assert counts["plays"] == 18 * (3 + 3 + 4 + 3)
    assert counts["tricks"] == 9 * (3 + 3 + 4 + 3)
    assert counts["import_log"] == 4
    rows = _query(archive, "SELECT name, seat FROM players JOIN sessions USING (session_id) "
                           "WHERE event LIKE 'Rules spec%' ORDER BY seat")
    assert rows == [("Alice", 0), ("Bob", 1)]
    # calls keep their order: hand 2 of Example 9
    calls = _query(archive, "SELECT phase, seq, seat, kind, suit, melds FROM calls JOIN sessions USING (session_id) "
                            "WHERE event LIKE 'Rules spec%' AND hand_seq = 2 ORDER BY phase = 'after', seq")
    assert calls[:6] == [("auction", 1, 1, "pass", None, None), ("auction", 2, 0, "pass", None, None),
                         ("auction", 3, 1, "name", "D", None), ("auction", 4, 0, "nt", None, None),
                         ("auction", 5, 1, "pass", None, None), ("after", 1, 1, "melds", None, "4K KD-TD")]
    # plays: who, which card, points carried, won, the word said
    plays = _query(archive, "SELECT trick_no, ply, pos, seat, card, points, won, announce FROM v_plays "
                            "JOIN sessions USING (session_id) WHERE event LIKE 'Rules spec%' AND hand_seq = 1 "
                            "AND trick_no <= 2 ORDER BY ply")
    assert plays == [(1, 1, 1, 1, "AC", 10, False, None), (1, 2, 2, 0, "KH", 5, True, "jo"),
                     (2, 3, 1, 0, "QH", 5, False, "jotte"), (2, 4, 2, 1, "TH", 10, True, None)]
    # the score breakdown of Example 1
    score = _query(archive, "SELECT seat, tricks, trick_points, meld_points, bonus, total, below, above, written_below, "
                            "written_above FROM hand_scores JOIN sessions USING (session_id) "
                            "WHERE event LIKE 'Rules spec%' AND hand_seq = 1 ORDER BY seat")
    assert score == [(0, 6, 110, 20, 0, 130, 110, 20, 110, 20), (1, 3, 40, 0, 0, 40, 0, 40, 0, 40)]
    melds = _query(archive, "SELECT seat, meld, class, value, scored FROM melds JOIN sessions USING (session_id) "
                            "WHERE event LIKE 'Rules spec%' AND hand_seq = 1 ORDER BY seq")
    assert melds == [(1, "9D-7D", "B", 20, False), (0, "KH-JH", "B", 20, True)]
    dix = _query(archive, "SELECT seat, took, gave, accepted FROM dix JOIN sessions USING (session_id) "
                          "WHERE event LIKE 'Rules spec%'")
    assert dix == [(0, "9H", "7H", True)]
    sheet = _query(archive, "SELECT seat, below, above, total, games, rubbers, won_session FROM session_sheet "
                            "JOIN sessions USING (session_id) WHERE event LIKE 'Rules spec%' ORDER BY seat")
    assert sheet == [(0, 280, 1140, 1420, 2, 1, True), (1, 115, 180, 295, 1, 0, False)]
    held = _query(archive, "SELECT hand_seq, held_aside, pool_after, game_won_by, rubber_won_by FROM hands "
                           "JOIN sessions USING (session_id) WHERE event LIKE 'Rules spec%' ORDER BY hand_seq")
    assert held == [(1, 0, 0, 0, None), (2, 0, 0, 1, None), (3, 150, 150, None, None), (4, 0, 0, 0, 0)]


def test_migrations_are_applied_once_and_recorded(archive, tmp_path):
    versions = [m.version for m in migrations()]
    assert versions == sorted(versions) and versions[0] == 1
    assert [v for (v,) in _query(archive, "SELECT version FROM _jojotte_migrations ORDER BY version")] == versions
    db = tmp_path / "a.duckdb"
    list(import_paths(db, [str(FIXED / "spec-rubber.jjt")]))
    list(import_paths(db, [str(FIXED / "doubles.jjt")]))
    assert _query(db, "SELECT count(*) FROM _jojotte_migrations")[0][0] == len(versions)


def test_reimport_changes_no_count_and_says_so(tmp_path):
    folder = _copy_examples(tmp_path / "records")
    db = tmp_path / "a.duckdb"
    first = runner.invoke(app, ["import", str(folder), "--db", str(db)])
    assert first.exit_code == 0, first.output
    before = _snapshot(db)
    again = runner.invoke(app, ["import", str(folder), "--db", str(db)])
    assert again.exit_code == 0, again.output
    assert "nothing added" in again.output and "unchanged" in again.output
    assert _snapshot(db) == before
    # the same sessions in a new file (another name, other bytes): still nothing added
    text = "".join(write_session(s) for s in read_sessions((folder / "doubles.jjt").read_text(encoding="utf-8")))
    assert text != (folder / "doubles.jjt").read_text(encoding="utf-8")
    (tmp_path / "copy.jjt").write_text(text, encoding="utf-8")
    [r] = list(import_paths(db, [str(tmp_path / "copy.jjt")]))
    assert r.status == "unchanged" and r.sessions_unchanged == 1
    assert _snapshot(db) == before


def test_changed_record_replaces_the_older_version(tmp_path):
    folder = _copy_examples(tmp_path / "records")
    db = tmp_path / "a.duckdb"
    list(import_paths(db, [str(folder)]))
    before = _snapshot(db)
    path = folder / "doubles.jjt"
    # the scorer corrects hand 3: Frank is recorded as having doubled... and a comment is added
    text = path.read_text(encoding="utf-8").replace("{Example 1 redoubled: 4 x 150 = 600, game and rubber}",
                                                    "{corrected after the session}")
    path.write_text(text, encoding="utf-8")
    [r] = list(import_paths(db, [str(path)]))
    assert (r.status, r.sessions_new, r.sessions_replaced) == ("imported", 0, 1)
    after = _snapshot(db)
    assert after["counts"]["sessions"] == before["counts"]["sessions"]
    assert {k: v for k, v in after["counts"].items() if k != "import_log"} == \
        {k: v for k, v in before["counts"].items() if k != "import_log"}
    changed = set(after["sessions"]) - set(before["sessions"])
    assert len(changed) == 1 and [k for k, _ in changed] == [k for k, _ in set(before["sessions"]) - set(after["sessions"])]
    stored = _query(db, "SELECT canonical_text FROM v_canonical_texts JOIN sessions USING (session_id) "
                        "WHERE event = 'Doubles and redoubles'")
    assert len(stored) == 1 and "{corrected after the session}" in stored[0][0]
    # no row of the older version is left behind
    assert _query(db, "SELECT count(*) FROM hands WHERE session_id NOT IN (SELECT session_id FROM sessions)")[0][0] == 0


def test_session_identity(tmp_path):
    [s] = read_sessions((FIXED / "doubles.jjt").read_text(encoding="utf-8"))
    h = s.header
    assert session_key(h, 1, "x") == session_key(h._replace(tags=h.tags + (("Scorer", "Zoe"),)), 1, "y")
    assert session_key(h, 1, "x") != session_key(h, 2, "x")
    renamed = h._replace(tags=tuple((k, "Eve; Fred" if k == "Players" else v) for k, v in h.tags))
    assert session_key(h, 1, "x") != session_key(renamed, 1, "x")
    bare = h._replace(tags=(("Game", "jojotte"), ("Players", "Eve; Frank")))
    assert session_key(bare, 1, "x") != session_key(bare, 1, "y")  # no when or where: the text identifies it
    assert parse_tag_date("2026.11.21")[1] == 2026 and parse_tag_date("????.??.??") == (None, None)


def test_broken_hand_in_the_middle_is_stored_with_its_verdict(tmp_path):
    text = _disputed_text()
    # and a third session whose hand 2 cannot be read at all
    unreadable = (FIXED / "spec-rubber.jjt").read_text(encoding="utf-8").replace(
        "trick 3: A TS, B 7D", "trick 3: A TS, B 7*")
    path = tmp_path / "broken.jjt"
    path.write_text(text + "\n" + unreadable, encoding="utf-8")
    db = tmp_path / "a.duckdb"
    [r] = list(import_paths(db, [str(path)]))
    assert r.status == "imported" and r.hands == 7 and r.bad_hands == 3
    rows = _query(db, "SELECT s.event, h.hand_seq, h.status, h.first_rule, h.scored FROM hands h "
                      "JOIN sessions s USING (session_id) ORDER BY s.source_index, h.hand_seq")
    assert rows[:3] == [("Disputed night", 1, "score", "JJ-SCORE-5", True), ("Disputed night", 2, "illegal", "JJ-PLAY-3", False),
                        ("Disputed night", 3, "ok", None, True)]
    assert [(r[1], r[2]) for r in rows[3:]] == [(1, "ok"), (2, "syntax"), (3, "ok"), (4, "ok")]
    issue = _query(db, "SELECT rule, kind, seat, trick_no, card_pos, line, col, message FROM issues "
                       "WHERE rule = 'JJ-PLAY-3'")
    assert issue == [("JJ-PLAY-3", "illegal", 1, 2, 2, 34, 18, "Hugo played 7D but holds KS and had to follow spades")]
    # every recorded card of the illegal hand is kept; the replay stopped at trick 2, card 2
    plays = _query(db, "SELECT count(*), count(won) FROM plays JOIN sessions USING (session_id) "
                       "WHERE event = 'Disputed night' AND hand_seq = 2")
    assert plays == [(18, 2)]


KILL_SCRIPT = r"""
import sys
from jojotte_records.archive.store import import_paths
db, *files = sys.argv[1:]
seen = 0
def on_hand(n):
    global seen
    seen += n
    print(f"hands {seen}", flush=True)
for r in import_paths(db, files, on_hand=on_hand, batch_hands=25):
    print(f"committed {r.source} {r.status}", flush=True)
"""


def _small_big_and_reference(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A one-session file, a 400-session file (its session under 400 event names), and an archive of the small one."""
    small = tmp_path / "small.jjt"
    shutil.copy(FIXED / "spec-rubber.jjt", small)
    session = (FIXED / "spec-rubber.jjt").read_text(encoding="utf-8")
    big = tmp_path / "big.jjt"
    big.write_text("\n".join(session.replace('[Event "Rules spec worked examples"]', f'[Event "Big {i}"]')
                             for i in range(400)), encoding="utf-8")
    reference = tmp_path / "reference.duckdb"
    list(import_paths(reference, [str(small)]))
    return small, big, reference


def test_sigkill_mid_file_leaves_the_archive_as_before_that_file(tmp_path):
    small, big, reference = _small_big_and_reference(tmp_path)
    db = tmp_path / "killed.duckdb"
    proc = subprocess.Popen([sys.executable, "-c", KILL_SCRIPT, str(db), str(small), str(big)],
                            stdout=subprocess.PIPE, text=True, cwd=tmp_path)
    lines = []
    try:
        committed_at = None
        deadline = time.monotonic() + 60
        for line in proc.stdout:
            lines.append(line.strip())
            if line.startswith("committed") and committed_at is None:
                assert "small.jjt" in line
                committed_at = len(lines)
            m = re.match(r"hands (\d+)", line)
            # well into the big file: several batches are already in its (uncommitted) transaction
            if committed_at is not None and m and int(m.group(1)) >= 4 + 150:
                break
            assert time.monotonic() < deadline, "the import did not get going"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert not any(l.startswith("committed") and "big.jjt" in l for l in lines)
    killed = _snapshot(db)
    assert killed["counts"] == _snapshot(reference)["counts"]
    assert killed["sessions"] == _snapshot(reference)["sessions"]
    # and the archive still works
    [r] = list(import_paths(db, [str(FIXED / "doubles.jjt")]))
    assert r.sessions_new == 1 and table_counts(db)["sessions"] == 2


CHUNK_KILL_SCRIPT = r"""
import sys
from jojotte_records.archive import store
db, *files = sys.argv[1:]
commit_chunk = store._Importer._commit_chunk
def noisy_commit(self):
    commit_chunk(self)
    print(f"chunk {self.chunks}", flush=True)
store._Importer._commit_chunk = noisy_commit
for r in store.import_paths(db, files, batch_hands=25, commit_hands=50):
    print(f"committed {r.source} {r.status}", flush=True)
"""


def _raw_counts(db: Path) -> dict:
    """Row counts of the archive's own tables as plain DuckDB sees them (no jojotte connection, nothing hidden)."""
    tables = ("import_log", "_jojotte_pending", *EXPORT_TABLES)
    return {t: _query(db, f"SELECT count(*) FROM {t}")[0][0] for t in tables}


def test_sigkill_between_the_chunks_of_a_file_leaves_no_trace_of_it(tmp_path):
    # issue 16 item 5: a long file is committed in chunks, marked pending until its last commit. Killed after some
    # chunks are committed, the archive must hold the small file alone as every reader sees it: a read-only
    # connection hides the committed chunks, the next read-write open deletes them (raw counts then equal the
    # reference's) and the archive goes on numbering as if the killed file had never been imported
    small, big, reference = _small_big_and_reference(tmp_path)
    db = tmp_path / "killed.duckdb"
    proc = subprocess.Popen([sys.executable, "-c", CHUNK_KILL_SCRIPT, str(db), str(small), str(big)],
                            stdout=subprocess.PIPE, text=True, cwd=tmp_path)
    lines = []
    try:
        deadline = time.monotonic() + 60
        for line in proc.stdout:
            lines.append(line.strip())
            # 50 hands a chunk, 4 hands a session: three chunks of the big file are committed (small.jjt has one
            # session of 4 hands, far below a chunk: it is committed once, at its end)
            if line.startswith("chunk 3"):
                break
            assert time.monotonic() < deadline, "the import did not get going"
        # a reader while the file is being imported: DuckDB lets no other process open the archive
        with pytest.raises(ArchiveError, match="another process is using it"):
            run_sql(db, "SELECT count(*) FROM hands")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert lines[0] == f"committed {small} imported" and not any("big.jjt" in l for l in lines)
    raw = _raw_counts(db)
    # the chunks really are in the file: 3 chunks of 50 hands, 12 whole sessions of 4 hands each at least
    assert raw["_jojotte_pending"] == 1 and raw["hands"] >= 4 + 150 and raw["sessions"] >= 1 + 12
    # every jojotte reader (read-only) sees the archive as before the big file, views included
    assert table_counts(db) == table_counts(reference)
    stored = "SELECT session_key, content_hash FROM sessions ORDER BY session_key"
    assert run_sql(db, stored).rows == run_sql(reference, stored).rows
    assert run_sql(db, "SELECT count(*) FROM v_plays").rows == run_sql(reference, "SELECT count(*) FROM v_plays").rows
    assert [t for _, _, t in session_texts(db)] == [t for _, _, t in session_texts(reference)]
    # the next read-write open deletes the unfinished file: no marker, no row, nothing spooled
    connect(db).close()
    assert _raw_counts(db) == _raw_counts(reference)
    assert _query(db, "SELECT max(session_id) FROM sessions") == [(1,)]
    # and the big file then imports whole, with the ids a fresh import gives
    [r] = list(import_paths(db, [str(big)], batch_hands=25, commit_hands=50))
    assert r.sessions_new == 400 and _raw_counts(db)["_jojotte_pending"] == 0
    assert _query(db, "SELECT min(session_id), max(session_id), count(*) FROM sessions") == [(1, 401, 401)]


def test_chunked_file_that_adds_nothing_leaves_nothing(tmp_path):
    # the same 400 sessions under another file name: chunks are committed before the importer knows that every
    # session is already stored; at the end they are taken out again and no import_log row is written
    session = (FIXED / "spec-rubber.jjt").read_text(encoding="utf-8")
    text = "\n".join(session.replace('[Event "Rules spec worked examples"]', f'[Event "Big {i}"]') for i in range(400))
    (tmp_path / "a.jjt").write_text(text, encoding="utf-8")
    (tmp_path / "b.jjt").write_text(text + "\n", encoding="utf-8")  # other bytes, the same sessions
    db = tmp_path / "a.duckdb"
    list(import_paths(db, [str(tmp_path / "a.jjt")], batch_hands=25, commit_hands=50))
    before = _raw_counts(db)
    [r] = list(import_paths(db, [str(tmp_path / "b.jjt")], batch_hands=25, commit_hands=50))
    assert r.status == "unchanged" and r.sessions_unchanged == 400
    assert _raw_counts(db) == before


def test_chunked_replacement_keeps_the_older_version_until_the_file_is_committed(tmp_path):
    # a changed session replaces the older one in the file's last commit, not in the chunk where it ends
    session = (FIXED / "spec-rubber.jjt").read_text(encoding="utf-8")
    sessions = [session.replace('[Event "Rules spec worked examples"]', f'[Event "Big {i}"]') for i in range(40)]
    (tmp_path / "old.jjt").write_text(sessions[0], encoding="utf-8")
    changed = sessions[0].replace('[Rubbers "1"]', '[Rubbers "2"]')
    (tmp_path / "new.jjt").write_text("\n".join([changed, *sessions[1:]]), encoding="utf-8")
    db = tmp_path / "a.duckdb"
    list(import_paths(db, [str(tmp_path / "old.jjt")]))
    seen = []
    real = archive_store._Importer._commit_chunk

    def commit_and_look(self):
        real(self)
        seen.append(self.conn.execute("SELECT count(*) FROM sessions WHERE session_id = 1").fetchone()[0])

    archive_store._Importer._commit_chunk = commit_and_look
    try:
        [r] = list(import_paths(db, [str(tmp_path / "new.jjt")], batch_hands=10, commit_hands=10))
    finally:
        archive_store._Importer._commit_chunk = real
    assert r.sessions_replaced == 1 and r.sessions_new == 39
    assert seen and all(n == 1 for n in seen)  # the older version is there after every chunk
    assert _query(db, "SELECT count(*), min(session_id) FROM sessions") == [(40, 2)]
    assert _raw_counts(db)["_jojotte_pending"] == 0


# --- statistics (figures worked out by hand from the examples) -------------------------------------

def _rows(result, table=None) -> dict:
    t = result.tables[0] if table is None else result.table(table)
    return {r[0]: dict(zip(t.columns, r)) for r in t.rows}


def test_statistics_are_listed():
    names = [s.name for s in list_statistics()]
    assert {"standings", "contracts", "melds", "cards", "disputes"} <= set(names)
    result = runner.invoke(app, ["stats", "--list"])
    assert result.exit_code == 0 and "standings" in result.output and "disputes" in result.output


def test_standings(archive):
    rows = _rows(run_statistic(archive, "standings"))
    # Example 9 of the spec: Alice 1420 (above 1140, below 280), one rubber, two games; Bob 295
    assert rows["Alice"] == {"player": "Alice", "sessions": 1, "sessions_won": 1, "rubbers": 1, "games": 2, "hands": 4,
                             "hands_won": 2, "above": 1140, "below": 280, "total": 1420, "avg_per_hand": 355.0}
    assert rows["Bob"] == {"player": "Bob", "sessions": 1, "sessions_won": 0, "rubbers": 0, "games": 1, "hands": 4,
                           "hands_won": 1, "above": 180, "below": 115, "total": 295, "avg_per_hand": 73.75}
    # Example 3: 300 + 600 below, 20 + 320 above
    assert (rows["Eve"]["total"], rows["Eve"]["below"], rows["Eve"]["rubbers"], rows["Eve"]["hands_won"]) == (1240, 900, 1, 2)
    assert (rows["Frank"]["total"], rows["Frank"]["games"]) == (370, 1)
    assert (rows["Daniel"]["total"], rows["Daniel"]["sessions_won"], rows["Daniel"]["hands_won"]) == (600, 1, 3)
    assert (rows["Claire"]["total"], rows["Claire"]["hands"]) == (550, 5)
    # the disputed session: hand 2 is on the sheet as written, and has no winner from its events
    assert (rows["Gina"]["total"], rows["Hugo"]["total"], rows["Hugo"]["hands_won"]) == (1240, 370, 0)
    order = [r[0] for r in run_statistic(archive, "standings").tables[0].rows]
    assert order[:3] == ["Alice", "Eve", "Gina"]  # rubbers, then total
    only = run_statistic(archive, "standings", StatFilters(player="alice"))
    assert [r[0] for r in only.tables[0].rows] == ["Alice"]
    autumn = run_statistic(archive, "standings", StatFilters(since=parse_tag_date("2026.11.15")[0]))
    assert sorted(r[0] for r in autumn.tables[0].rows) == ["Eve", "Frank", "Gina", "Hugo"]
    spec = run_statistic(archive, "standings", StatFilters(event="rules spec", game="jo-jotte"))
    assert sorted(r[0] for r in spec.tables[0].rows) == ["Alice", "Bob"]


def test_contracts(archive):
    t = run_statistic(archive, "contracts").tables[0]
    rows = {(r[0], r[1]): r[2:] for r in t.rows}  # (bid, made, made_pct, avg_margin)
    # Example 9: A accepts hearts (+130 - 40), NT lost (0 - 255), Slam in hearts made (170 + 150 + 500 = 820)
    assert rows[("Alice", "turned_suit")] == (1, 1, 100.0, 90.0)
    assert rows[("Alice", "nt")] == (1, 0, 0.0, -255.0)
    assert rows[("Alice", "other_suit")] == (1, 1, 100.0, 820.0)
    assert rows[("Alice", "slam")] == (1, 1, 100.0, 820.0)
    assert rows[("Bob", "other_suit")] == (1, 0, 0.0, -20.0)  # equal totals: nobody wins, Alice's 20 in melds
    # Example 3: 320 doubled and 620 redoubled made; NT doubled lost by 230 + 140
    assert rows[("Eve", "turned_suit")] == (2, 2, 100.0, 470.0)
    assert rows[("Eve", "doubled")] == (2, 1, 50.0, -25.0)
    assert rows[("Eve", "redoubled")] == (1, 1, 100.0, 620.0)
    assert rows[("Eve", "nt")] == (1, 0, 0.0, -370.0)
    # Nullo failed (-440) and made (200 - 20); the hand recorded without cards (90 - 40); Slam failed (50 - 170)
    assert rows[("Daniel", "nullo")] == (2, 1, 50.0, -130.0)
    assert rows[("Daniel", "turned_suit")] == (1, 1, 100.0, 50.0)
    assert rows[("Claire", "slam")] == (1, 0, 0.0, -120.0)
    # the disputed hand 2 was not scored from its events: only hands 1 and 3 count for Gina
    assert rows[("Gina", "turned_suit")] == (2, 2, 100.0, 470.0)
    assert ("Gina", "nt") not in rows
    assert {k[0] for k in rows} == {"Alice", "Bob", "Claire", "Daniel", "Eve", "Gina"}


def test_melds(archive):
    rows = _rows(run_statistic(archive, "melds"))
    # 13 scored hands that are not void (Example 3 and the disputed session: 3 + 2, Nullo/Slam: 4, Example 9: 4);
    # four kings in Example 3 hand 2 and Example 9 hand 2, four aces in Example 7a; the disputed hand 2 is not scored
    assert rows["A"] == {"class": "A", "melds": "fours of a kind", "hands": 13, "hands_declared": 3, "declared_pct": 23.1,
                         "melds_declared": 3, "melds_scored": 3, "hands_won": 3, "avg_points": 100.0,
                         "winner_won_hand": 3, "winner_won_hand_pct": 100.0}
    # sequences: 10 hands in the three examples + 2 in the disputed session; the winner of the class lost
    # the hand in Examples 5 (Nullo made), 7b (Slam failed) and 4 (equal totals)
    assert rows["B"] == {"class": "B", "melds": "sequences", "hands": 13, "hands_declared": 12, "declared_pct": 92.3,
                         "melds_declared": 19, "melds_scored": 12, "hands_won": 12, "avg_points": 30.0,
                         "winner_won_hand": 9, "winner_won_hand_pct": 75.0}


def test_cards(archive):
    result = run_statistic(archive, "cards", StatFilters(event="rules spec"))
    by_card = _rows(result, "by_card")
    # JH, trump in Examples 1 and 7a: wins trick 4 and trick 2 with 20 points each
    assert by_card["JH"] == {"card": "JH", "played": 2, "tricks_won": 2, "points_carried": 40, "points_taken": 40,
                             "avg_taken": 20.0}
    # AC: led and ruffed in Example 1; wins trick 6 of Example 2 (TC + AC = 20), trick 2 of Example 4 (7C + AC = 10)
    # and trick 5 of Example 7a (AC + QC = 15)
    assert by_card["AC"] == {"card": "AC", "played": 4, "tricks_won": 3, "points_carried": 40, "points_taken": 45,
                             "avg_taken": 11.25}
    by_seat = _rows(result, "by_seat")
    # last tricks: A in Examples 1, 4 and 7a, B in Example 2; Jo-Jotte: A in 1, 4 (as defender) and 7a; dix: A in 1.
    # The whole archive: A takes the last trick in all 10 hands played out but Example 2's (twice), scores Jo-Jotte in
    # Examples 1 (three sessions, twice each in the doubles-shaped ones), 4, 7a and 7b, and makes the dix in 5 hands
    assert by_seat["A"]["hands"] == 4 and by_seat["A"]["last_tricks"] == 3 and by_seat["A"]["last_trick_pct"] == 75.0
    assert by_seat["B"]["last_tricks"] == 1
    assert (by_seat["A"]["jojotte_hands"], by_seat["A"]["dix_hands"], by_seat["B"]["jojotte_hands"]) == (3, 1, 0)
    # every point of a trick is taken by someone: the seats' points add up to the tricks'
    total = _query(archive, "SELECT sum(t.points) FROM tricks t JOIN sessions USING (session_id) "
                            "WHERE event LIKE 'Rules spec%'")[0][0]
    assert by_seat["A"]["points_taken"] + by_seat["B"]["points_taken"] == total
    everything = _rows(run_statistic(archive, "cards"), "by_seat")
    assert (everything["A"]["last_tricks"], everything["A"]["jojotte_hands"], everything["A"]["dix_hands"]) == (10, 8, 5)


def test_disputes(archive):
    result = run_statistic(archive, "disputes")
    by_rule = [r for r in result.table("by_rule").rows]
    assert sorted(by_rule) == [("JJ-PLAY-3", "illegal", "Hugo", 1, 1), ("JJ-SCORE-5", "score", "Gina", 1, 1)]
    hands = result.table("hands").rows
    assert [(r[0], r[2], r[3], r[5]) for r in hands] == [("Disputed night", 1, "JJ-SCORE-5", "Gina"),
                                                          ("Disputed night", 2, "JJ-PLAY-3", "Hugo")]
    only = run_statistic(archive, "disputes", StatFilters(player="Gina"))
    assert [r[2] for r in only.table("by_rule").rows] == ["Gina"]


def test_stats_command_prints_tables_and_json(archive):
    result = runner.invoke(app, ["stats", "standings", "--db", str(archive)])
    assert result.exit_code == 0, result.output
    line = next(l for l in result.output.splitlines() if "Alice" in l)
    assert "1420" in line and "1140" in line
    result = runner.invoke(app, ["stats", "cards", "--db", str(archive), "--json", "--player", "Bob"])
    doc = json.loads(result.output)
    assert doc["statistic"] == "cards" and doc["filters"]["player"] == "Bob"
    assert [r["seat"] for r in doc["tables"]["by_seat"]] == ["B"]
    assert runner.invoke(app, ["stats", "nonsense", "--db", str(archive)]).exit_code == 2
    assert runner.invoke(app, ["stats", "standings", "--db", str(archive), "--since", "yesterday"]).exit_code == 2


def test_done_when_import_examples_then_standings(tmp_path):
    db = tmp_path / "jojotte.duckdb"
    result = runner.invoke(app, ["import", str(EXAMPLES), "--db", str(db)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["stats", "standings", "--db", str(db), "--event", "Rules spec worked", "--json"])
    rows = {r["player"]: r for r in json.loads(result.output)["tables"]["standings"]}
    assert (rows["Alice"]["total"], rows["Alice"]["rubbers"], rows["Alice"]["games"]) == (1420, 1, 2)
    assert rows["Bob"]["total"] == 295


# --- SQL, read-only --------------------------------------------------------------------------------

def _file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("statement", [
    "DELETE FROM sessions",
    "UPDATE hands SET status = 'ok'",
    "INSERT INTO players VALUES (1, 0, 'A', 'Mallory')",
    "DROP TABLE plays",
    "CREATE TABLE t AS SELECT 1",
    "COPY sessions TO 'out.csv'",
    "SELECT 1; DELETE FROM sessions",
    "ATTACH 'other.duckdb' AS other",
    "SET threads = 1",
])
def test_sql_refuses_writes_and_changes_nothing(archive, statement, tmp_path):
    before = _file_hash(archive)
    counts = table_counts(archive)
    result = runner.invoke(app, ["sql", statement, "--db", str(archive)])
    assert result.exit_code == 2, result.output
    assert "refused" in result.output and "read-only" in result.output
    assert _file_hash(archive) == before and table_counts(archive) == counts
    assert not (tmp_path / "out.csv").exists()


# issue 16 item 2: a statement-type allow-list is not enough. EXPLAIN ANALYZE runs what it explains, so
# each of these ran (and wrote, or went to the network) before; {db} is the archive, {out} a file beside it.
ATTACKS = [
    "EXPLAIN ANALYZE COPY (SELECT 'x') TO '{db}' (FORMAT csv)",
    "explain analyze copy (select 'x') to '{db}' (format csv)",
    "EXPLAIN (ANALYZE) COPY (SELECT 'x') TO '{db}' (FORMAT csv)",
    "explain (analyze, format json) copy (select 'x') to '{out}'",
    "/* hello */ EXPLAIN ANALYZE COPY sessions TO '{out}'",
    "EXPLAIN /* x */ ANALYZE COPY sessions TO '{out}'",
    "EXPLAIN COPY sessions TO '{out}'",
    "EXPLAIN ANALYZE INSTALL httpfs",
    "EXPLAIN ANALYZE LOAD httpfs",
    "SELECT 1; EXPLAIN ANALYZE COPY sessions TO '{out}'",
    "copy sessions to '{out}'",
    "COPY (SELECT 1) TO '{db}' (FORMAT csv)",
    "ATTACH '{out}' AS other",
    "INSTALL httpfs",
    "LOAD httpfs",
    "SET enable_external_access = true",
    "set lock_configuration = false",
    "PRAGMA enable_profiling",
    "PRAGMA profiling_output = '{out}'",
    "EXPORT DATABASE '{outdir}'",
    "SELECT * FROM read_csv('{csv}')",
    "SELECT * FROM '{csv}'",
    "SELECT * FROM read_text('/etc/passwd')",
    "SELECT * FROM glob('*')",
    "SELECT 1; COPY sessions TO '{out}'",
]


@pytest.fixture
def own_archive(archive, tmp_path) -> Path:
    """A copy of the fixed archive that a test may spoil without spoiling the others'."""
    return Path(shutil.copy(archive, tmp_path / "own.duckdb"))


@pytest.mark.parametrize("attack", ATTACKS)
def test_sql_refuses_every_write_file_read_and_extension_load(own_archive, attack, tmp_path):
    archive = own_archive
    before = _file_hash(archive)
    (tmp_path / "mine.csv").write_text("a,b\n1,2\n")
    query = attack.format(db=archive, out=tmp_path / "out.csv", outdir=tmp_path / "dump", csv=tmp_path / "mine.csv")
    result = runner.invoke(app, ["sql", query, "--db", str(archive)])
    assert result.exit_code == 2, result.output
    assert "refused" in result.output and "nothing was changed" in result.output, result.output
    assert "Traceback" not in result.output
    assert _file_hash(archive) == before
    assert not (tmp_path / "out.csv").exists() and not (tmp_path / "dump").exists()


def test_sql_explain_analyze_names_what_it_refuses(archive, tmp_path):
    result = runner.invoke(app, ["sql", f"EXPLAIN ANALYZE COPY (SELECT 'x') TO '{tmp_path / 'x.csv'}'", "--db", str(archive)])
    assert result.exit_code == 2
    assert "EXPLAIN" in result.output and "COPY" in result.output


@pytest.mark.parametrize("attack", [
    "WITH d AS (DELETE FROM sessions RETURNING *) SELECT * FROM d",  # a CTE wrapping a write
    "EXPLAIN ANALYZE ATTACH '{out}' AS other",
    "EXPLAIN ANALYZE EXPLAIN ANALYZE COPY sessions TO '{out}'",
])
def test_sql_what_duckdb_cannot_parse_does_not_run(own_archive, attack, tmp_path):
    archive = own_archive
    before = _file_hash(archive)
    result = runner.invoke(app, ["sql", attack.format(out=tmp_path / "out.csv"), "--db", str(archive)])
    assert result.exit_code == 2 and "does not parse" in result.output
    assert _file_hash(archive) == before and table_counts(archive)["sessions"] > 0
    assert not (tmp_path / "out.csv").exists()


@pytest.mark.parametrize("query", [
    "SELECT count(*) AS n FROM hands",
    "select count(*) as n from hands",
    "WITH h AS (SELECT * FROM hands) SELECT count(*) AS n FROM h",
    "FROM (SELECT count(*) AS n FROM hands)",
    "SELECT 0 AS n; SELECT count(*) AS n FROM hands",
])
def test_sql_queries_still_run_with_json_and_csv(archive, query):
    result = runner.invoke(app, ["sql", query, "--db", str(archive), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == [{"n": 15}]  # 15 hands: the fixed archive (test_sql_reads)
    result = runner.invoke(app, ["sql", query, "--db", str(archive), "--csv"])
    assert result.exit_code == 0 and result.output.splitlines() == ["n", "15"]


@pytest.mark.parametrize("query", ["EXPLAIN SELECT count(*) FROM hands", "explain analyze select count(*) from hands",
                                   "EXPLAIN (ANALYZE) WITH h AS (SELECT 1) SELECT * FROM h",
                                   "EXPLAIN (FORMAT json) SELECT 1", "PRAGMA table_info('plays')", "DESCRIBE plays"])
def test_sql_explain_of_a_query_still_runs(archive, query):
    result = runner.invoke(app, ["sql", query, "--db", str(archive), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)


def test_sql_reads(archive):
    result = runner.invoke(app, ["sql", "SELECT event, winner FROM sessions ORDER BY event", "--db", str(archive), "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert {"event": "Rules spec worked examples", "winner": "Alice"} in rows
    result = runner.invoke(app, ["sql", "SELECT name, seat FROM players WHERE name = 'Alice'", "--db", str(archive), "--csv"])
    assert result.output.splitlines() == ["name,seat", "Alice,0"]
    result = runner.invoke(app, ["sql", "DESCRIBE plays", "--db", str(archive)])
    assert result.exit_code == 0 and "card_id" in result.output
    assert runner.invoke(app, ["sql", "SELEC nonsense", "--db", str(archive)]).exit_code == 2
    assert run_sql(archive, "SELECT count(*) AS n FROM hands").rows == [(15,)]


def test_unusable_archive_exits_2(tmp_path):
    missing = tmp_path / "none.duckdb"
    for args in (["stats", "standings"], ["sql", "SELECT 1"], ["export", "--parquet", str(tmp_path / "p")]):
        result = runner.invoke(app, [*args, "--db", str(missing)])
        assert result.exit_code == 2 and "no archive" in result.output
    assert not missing.exists()
    junk = tmp_path / "junk.duckdb"
    junk.write_text("not a database", encoding="utf-8")
    result = runner.invoke(app, ["import", str(FIXED / "doubles.jjt"), "--db", str(junk)])
    assert result.exit_code == 2 and "cannot open the archive" in result.output
    result = runner.invoke(app, ["import", str(tmp_path / "nope.jjt"), "--db", str(tmp_path / "a.duckdb")])
    assert result.exit_code == 2 and "cannot read the file" in result.output


# --- session texts, Parquet ---------------------------------------------------------------------

def test_session_texts_are_the_canonical_texts(archive):
    texts = list(session_texts(archive))
    assert len(texts) == 4
    by_source = {Path(src).name: text for _, src, text in texts}
    for name in EXAMPLE_FILES:
        [s] = read_sessions((FIXED / name).read_text(encoding="utf-8"))
        assert by_source[name] == write_session(s)
    assert all(re.fullmatch(r"[0-9a-f]{32}", key) for key, _, _ in texts)


def test_parquet_export_reads_back(archive, tmp_path):
    out = tmp_path / "parquet"
    result = runner.invoke(app, ["export", "--parquet", str(out), "--db", str(archive)])
    assert result.exit_code == 0, result.output
    assert (out / "plays" / "game=jojotte" / "year=1937").is_dir()
    assert (out / "sessions" / "game=jojotte" / "year=2026").is_dir()
    conn = duckdb.connect()
    counts = table_counts(archive)
    for table in EXPORT_TABLES:
        files = str(out / table / "**" / "*.parquet")
        if counts[table] == 0:
            continue
        n = conn.execute("SELECT count(*) FROM read_parquet(?, hive_partitioning = true)", [files]).fetchone()[0]
        assert n == counts[table], table
    pq = str(out / "plays" / "**" / "*.parquet")
    exported = conn.execute("SELECT sum(points), count(won), sum(card_id) FROM read_parquet(?, hive_partitioning = true)",
                            [pq]).fetchone()
    assert exported == tuple(_query(archive, "SELECT sum(points), count(won), sum(card_id) FROM plays")[0])
    hs = str(out / "hand_scores" / "**" / "*.parquet")
    assert conn.execute("SELECT year, sum(total) FROM read_parquet(?, hive_partitioning = true) GROUP BY year ORDER BY year",
                        [hs]).fetchall() == \
        _query(archive, "SELECT s.year, sum(total) FROM hand_scores JOIN sessions s USING (session_id) GROUP BY s.year ORDER BY s.year")
    cards = conn.execute("SELECT count(*) FROM read_parquet(?)", [str(out / "cards" / "cards.parquet")]).fetchone()[0]
    assert cards == 54


# --- the documentation's example queries ----------------------------------------------------------

def test_every_example_query_of_the_docs_runs(archive):
    doc = (ROOT / "docs" / "archive.md").read_text(encoding="utf-8")
    queries = re.findall(r"```sql\n(.*?)```", doc, re.S)
    assert len(queries) >= 10
    for q in queries:
        result = run_sql(archive, q)
        assert result.columns, q


def test_docs_describe_every_table_and_column(archive):
    doc = (ROOT / "docs" / "archive.md").read_text(encoding="utf-8")
    columns = _query(archive, "SELECT table_name, column_name FROM duckdb_columns() WHERE NOT internal "
                              "AND table_name NOT LIKE 'v\\_%' ESCAPE '\\' AND database_name = current_database()")
    for table, column in columns:
        assert f"### `{table}`" in doc, table
        section = doc.split(f"### `{table}`", 1)[1].split("\n### ", 1)[0]
        assert f"`{column}`" in section, f"{table}.{column}"


def test_untagged_sessions_are_identified_by_their_text(tmp_path):
    body = (FIXED / "doubles.jjt").read_text(encoding="utf-8").split("\n\n", 1)[1]
    text = '[Game "jojotte"]\n[Players "Eve; Frank"]\n[FirstDealer "B"]\n\n' + body
    path = tmp_path / "twice.jjt"
    path.write_text(text + "\n" + text, encoding="utf-8")
    db = tmp_path / "a.duckdb"
    # batches of one hand: the second copy's rows are already in the transaction when it is found to be a repeat
    [r] = list(import_paths(db, [str(path)], batch_hands=1))
    assert (r.sessions_new, r.sessions_unchanged) == (1, 1)
    counts = table_counts(db)
    assert (counts["sessions"], counts["hands"], counts["plays"]) == (1, 3, 54)
    # another session without when or where tags is another session, not a new version of this one
    other = tmp_path / "other.jjt"
    other.write_text(text.replace("score A below 600 above 320", "score A below 600 above 320 {checked}"), encoding="utf-8")
    [r] = list(import_paths(db, [str(other)]))
    assert (r.sessions_new, r.sessions_replaced) == (1, 0) and table_counts(db)["sessions"] == 2


def test_claimed_hand(tmp_path):
    text = (FIXED / "spec-rubber.jjt").read_text(encoding="utf-8").split("\nhand 2 ", 1)[0]
    text = re.sub(r"trick [789]: .*\n", "", text).replace("score A below 110 above 20, B above 40 {A reaches game}",
                                                          "claim A\nscore A below 110 above 20, B above 40")
    path = tmp_path / "claim.jjt"
    path.write_text(text, encoding="utf-8")
    db = tmp_path / "a.duckdb"
    [r] = list(import_paths(db, [str(path)]))
    assert r.bad_hands == 0, r.describe()
    assert _query(db, "SELECT claim_seat, last_trick_seat, tricks_played, winner_seat, scored FROM hands") == [(0, 0, 6, 0, True)]
    assert table_counts(db)["plays"] == 12


def test_import_standard_input_and_json(tmp_path):
    db = tmp_path / "a.duckdb"
    text = (FIXED / "spec-rubber.jjt").read_text(encoding="utf-8")
    result = runner.invoke(app, ["import", "-", "--db", str(db)], input=text)
    assert result.exit_code == 0 and "<stdin>: 1 new session(s), 4 hand(s) stored" in result.output, result.output
    as_json = runner.invoke(app, ["convert", str(FIXED / "spec-rubber.jjt"), "--to", "json"])
    (tmp_path / "s.json").write_text(as_json.output, encoding="utf-8")
    [r] = list(import_paths(db, [str(tmp_path / "s.json")]))
    assert r.status == "unchanged"  # the same session, read from JSON: the same canonical text
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "verdicts.json").write_text('{"a.jjt": {"rule": "JJ-PLAY-3"}}', encoding="utf-8")
    # a JSON file in a folder that is not a record file is left out of the walk: nothing is read
    # a folder without a record is an input that cannot be read (README, "Exit codes")
    [r] = list(import_paths(db, [str(tmp_path / "notes")]))
    assert r.status == "error" and "no record file in the folder" in r.error.message
    [r] = list(import_paths(db, [str(tmp_path / "notes" / "verdicts.json")]))
    assert r.status == "error"


def test_sides_statistic_groups_partners(tmp_path):
    """JJ4P-SCORE-1 / JJ3-ALT-1: games scored by sides get a table per side, with the side's sheet figures."""
    from jojotte_records.archive.stats import StatFilters, run_statistic

    root = Path(__file__).resolve().parent.parent / "examples"
    db = tmp_path / "sides.duckdb"
    list(import_paths(db, [str(root / "four-partners.jjt"), str(root / "three-players-box.jjt"), str(root / "doubles.jjt")]))
    table = run_statistic(db, "sides").table("sides")
    rows = {r[0]: dict(zip(table.columns, r)) for r in table.rows}
    assert set(rows) == {"Nora and Sam", "Eli and Wyn", "Bob and Carol"}  # the two-player session has no sides
    assert rows["Nora and Sam"]["total"] == 1510 and rows["Nora and Sam"]["sessions_won"] == 1
    assert rows["Eli and Wyn"]["total"] == 840
    assert rows["Bob and Carol"]["total"] == 295  # captain and adviser share Example 9's loser column
    only_eli = run_statistic(db, "sides", StatFilters(player="Eli")).table("sides")
    assert [r[0] for r in only_eli.rows] == ["Eli and Wyn"]


@pytest.mark.parametrize("example, winner", [
    # [Players "Nora; Eli; Sam; Wyn"], seats N E S W: the NS side is Nora and Sam, and it wins the session
    # (JJ4P-SCORE-1: the sheet has a column per side; its NS total 1510 beats EW's 840); the side is named as
    # the game's sheet names its column (Jo-Jotte joins the partners with "and")
    ("four-partners.jjt", "Nora and Sam"),
    # the box game (JJ3-ALT-1): Alice in the box (A) against Bob and his adviser Carol (BC); Alice wins the rubber
    ("three-players-box.jjt", "Alice"),
    # two players: the player's own name, as before
    ("spec-rubber.jjt", "Alice"),
])
def test_session_winner_is_the_names_of_the_winning_column(tmp_path, example, winner):
    # docs/archive.md: sessions.winner is the winner's name, not a seat or side code (issue 16 item 11)
    db = tmp_path / "w.duckdb"
    list(import_paths(db, [str(EXAMPLES / example)]))
    [(got, seat, won)] = _query(db, "SELECT s.winner, s.winner_seat, sh.label FROM sessions s "
                                    "JOIN session_sheet sh ON sh.session_id = s.session_id AND sh.won_session")
    assert got == winner
    assert seat is not None and won


def test_import_command_with_jobs_says_what_one_process_says(tmp_path):
    # `jojotte import --jobs 2`: the same lines and the same archive (counts) as one process
    folder = _copy_examples(tmp_path / "records")
    (folder / "disputed.jjt").write_text(_disputed_text(), encoding="utf-8")
    out = {}
    for jobs in ("1", "2"):
        db = tmp_path / f"j{jobs}.duckdb"
        res = runner.invoke(app, ["import", str(folder), "--db", str(db), "--jobs", jobs])
        assert res.exit_code == 0, res.output
        out[jobs] = (res.output.replace(str(db), "DB"), table_counts(db))
    assert out["1"] == out["2"]
    assert "4 new session(s)" in out["2"][0]
