"""The tables that grow with every hand carry no index (issue 16 item 5).

DuckDB keeps an ART index (behind a PRIMARY KEY, UNIQUE or FOREIGN KEY constraint, or CREATE INDEX) in memory,
growing with the rows: on the tables of a hand's rows it would make an import's memory grow with the file. Only
the small tables, one row per session, import or migration (or the 54 cards), have a key; what a key would
guard on the others (a session's rows are stored once) the importer ensures itself, by deleting a replaced
session's rows.
"""

from __future__ import annotations

from jojotte_records.archive.store import SESSION_TABLES, connect

# one row per session, import, migration or card: their keys' indexes do not grow with the hands
KEYED = {"sessions": ["session_id"], "import_log": ["import_id"], "cards": ["card_id"],
         "_jojotte_migrations": ["version"]}


def test_only_the_small_tables_have_a_key(tmp_path):
    conn = connect(tmp_path / "a.duckdb")
    try:
        keys = conn.execute("SELECT table_name, constraint_type, constraint_column_names FROM duckdb_constraints() "
                            "WHERE constraint_type IN ('PRIMARY KEY', 'UNIQUE', 'FOREIGN KEY')").fetchall()
        indexes = conn.execute("SELECT table_name, index_name FROM duckdb_indexes()").fetchall()
        tables = {t for (t,) in conn.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
    finally:
        conn.close()
    assert {t: list(cols) for t, kind, cols in keys} == KEYED
    assert all(kind == "PRIMARY KEY" for _, kind, _ in keys)
    assert indexes == []
    # every table that holds a hand's rows is checked (none was renamed away from the query above)
    assert set(SESSION_TABLES) - {"sessions"} <= tables


def test_a_key_would_show(tmp_path):
    # the query above sees a key added to a hand's table (the test cannot pass by reading nothing)
    conn = connect(tmp_path / "a.duckdb")
    try:
        conn.execute("CREATE TABLE plays2 (session_id INTEGER, hand_seq INTEGER, PRIMARY KEY (session_id, hand_seq))")
        conn.execute("CREATE INDEX plays_seq ON plays (session_id, hand_seq)")
        keys = conn.execute("SELECT table_name FROM duckdb_constraints() WHERE constraint_type = 'PRIMARY KEY'").fetchall()
        indexes = conn.execute("SELECT table_name FROM duckdb_indexes()").fetchall()
    finally:
        conn.close()
    assert ("plays2",) in keys
    assert indexes == [("plays",)]
