-- 006: the facts of each hand of Pitch or Baloot (hand_facts) as one row with a column per common fact,
-- for the statistics of those games (queries/pitch.sql, queries/baloot.sql) and for ad hoc queries.
CREATE VIEW v_hand_facts AS
SELECT f.session_id, f.hand_seq, s.game,
       max(f.value) FILTER (WHERE f.key = 'contract') AS contract,
       try_cast(max(f.value) FILTER (WHERE f.key = 'declarer') AS INTEGER) AS declarer,
       try_cast(max(f.value) FILTER (WHERE f.key = 'partner') AS INTEGER) AS partner,
       max(f.value) FILTER (WHERE f.key = 'made') = 'true' AS made,
       max(f.value) FILTER (WHERE f.key = 'moon') = 'true' AS moon,
       max(f.value) FILTER (WHERE f.key = 'kaboot') = 'true' AS kaboot,
       max(f.value) FILTER (WHERE f.key = 'level') AS doubling,
       max(f.value) FILTER (WHERE f.key = 'projects') AS projects
FROM hand_facts f
JOIN sessions s USING (session_id)
GROUP BY f.session_id, f.hand_seq, s.game;
