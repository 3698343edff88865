-- 012: every session's canonical text is in session_text, one row a line (issue 16 item 5). A short session kept
-- it whole in sessions.canonical_text, and a file of many short sessions made that table's last row group hold all
-- their text, read back by each commit's checkpoint as session_text's chunks were before 011. The whole text of
-- a session is the view v_canonical_texts.
INSERT INTO session_text
WITH cut AS (
    SELECT session_id, regexp_extract_all(canonical_text, '[^\n]*\n|[^\n]+') AS lines
    FROM sessions WHERE canonical_text IS NOT NULL
)
SELECT session_id, CAST(unnest(generate_series(1, len(lines))) AS INTEGER), unnest(lines) FROM cut;

ALTER TABLE sessions DROP COLUMN canonical_text;

CREATE VIEW v_canonical_texts AS
SELECT session_id, string_agg(text, '' ORDER BY seq) AS canonical_text FROM session_text GROUP BY session_id;
