-- title: Disputes
-- description: Hands with an illegal event, a wrong written score or a record that contradicts itself: per rule ID and player (the player whose call, card or written figure it is), then every such finding. With --player, the findings about that player.
-- table: by_rule
WITH found AS (
    SELECT i.session_id, i.hand_seq, i.rule, i.kind, i.seat
    FROM issues i
    JOIN picked_sessions USING (session_id)
    LEFT JOIN picked_seats ps ON ps.session_id = i.session_id AND ps.seat = i.seat
    WHERE i.kind IN ('illegal', 'score', 'consistency') AND i.hand_seq IS NOT NULL
      AND ((SELECT player FROM stat_filters) IS NULL OR ps.seat IS NOT NULL)
)
SELECT f.rule,
       f.kind,
       coalesce(pl.name, '-') AS player,
       count(DISTINCT (f.session_id, f.hand_seq)) AS hands,
       count(*) AS findings
FROM found f
LEFT JOIN players pl ON pl.session_id = f.session_id AND pl.seat = f.seat
GROUP BY ALL
ORDER BY hands DESC, f.rule, player
-- table: hands
SELECT s.event,
       s.date_text AS date,
       h.hand_no AS hand,
       i.rule,
       i.kind,
       coalesce(pl.name, '-') AS player,
       i.message
FROM issues i
JOIN picked_sessions USING (session_id)
JOIN sessions s ON s.session_id = i.session_id
JOIN hands h ON h.session_id = i.session_id AND h.hand_seq = i.hand_seq
LEFT JOIN players pl ON pl.session_id = i.session_id AND pl.seat = i.seat
LEFT JOIN picked_seats ps ON ps.session_id = i.session_id AND ps.seat = i.seat
WHERE i.kind IN ('illegal', 'score', 'consistency')
  AND ((SELECT player FROM stat_filters) IS NULL OR ps.seat IS NOT NULL)
ORDER BY i.session_id, i.hand_seq, i.seq
