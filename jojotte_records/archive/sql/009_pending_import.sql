-- 008: a long file is committed in chunks (issue 16 item 5: DuckDB keeps a transaction's rows in memory until it
-- commits). Its marker row is written in its first chunk and deleted in its last; an archive opened for writing
-- deletes the rows of any file still marked (killed in the middle), and a read-only connection hides them.
CREATE TABLE _jojotte_pending (
    import_id INTEGER NOT NULL,
    source VARCHAR,
    first_session_id INTEGER NOT NULL,
    started_at TIMESTAMP NOT NULL
);

-- a long session's canonical text, in chunks, until the session's row gathers it (canonical_text)
CREATE TABLE _jojotte_text (
    session_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    text VARCHAR
);
