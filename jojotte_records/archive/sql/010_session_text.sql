-- 010: a session of more than TEXT_CHUNK_HANDS hands keeps its canonical text in chunks (issue 16 item 5: gathering
-- it into one value made DuckDB hold about four times its size at once, so an import's memory grew with the file).
-- A short session's text stays whole in sessions.canonical_text; a long one's is NULL there and its chunks are in
-- session_text, in the order of seq (archive.session_texts puts them together).
ALTER TABLE sessions ALTER COLUMN canonical_text DROP NOT NULL;

CREATE TABLE session_text (
    session_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    text VARCHAR NOT NULL
);

-- the chunks of a session being imported were kept in _jojotte_text until its row gathered them: now in session_text
DROP TABLE _jojotte_text;
