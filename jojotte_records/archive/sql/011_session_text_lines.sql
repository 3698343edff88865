-- 011: session_text holds a long session's canonical text one row a line, seq its line number (issue 16 item 5).
-- A row of 2,000 hands' text (~750 kB) never filled a row group, so each commit's checkpoint read back and wrote
-- again all the text stored before it: an import's memory grew with the file, and a 500,000-hand file ran out of
-- the import's memory limit there. Rows of a line fill row groups, which are then written once.
-- The chunks of an archive at 010 are cut at their newlines (a line keeps its newline; the last may lack one), so
-- string_agg(text, '' ORDER BY seq) is the same text as before.
CREATE TABLE _session_text_lines (
    session_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    text VARCHAR NOT NULL
);

INSERT INTO _session_text_lines
WITH cut AS (
    SELECT session_id, seq AS chunk, regexp_extract_all(text, '[^\n]*\n|[^\n]+') AS lines FROM session_text
), line AS (
    SELECT session_id, chunk, unnest(generate_series(1, len(lines))) AS n, unnest(lines) AS text FROM cut
)
SELECT session_id, CAST(row_number() OVER (PARTITION BY session_id ORDER BY chunk, n) AS INTEGER), text FROM line;

DROP TABLE session_text;
ALTER TABLE _session_text_lines RENAME TO session_text;
