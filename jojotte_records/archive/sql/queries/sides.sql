-- title: Sides
-- description: Per side, in games scored by sides (partners in the four-player partnership game, captain and adviser in the box form; JJ4P-SCORE-1, JJ3-ALT-1): sessions played and won, rubbers and games won, hands played and won, points above and below the line, total and average per hand. With --player, the sides that player was on.
-- table: sides
WITH members AS (
    SELECT p.session_id, p.sheet_seat, string_agg(p.name, ' and ' ORDER BY p.name) AS side, count(*) AS n
    FROM players p
    JOIN picked_sessions USING (session_id)
    WHERE p.sheet_seat IS NOT NULL
    GROUP BY p.session_id, p.sheet_seat
),
picked AS (
    SELECT m.* FROM members m
    WHERE m.n > 1
      AND EXISTS (SELECT 1 FROM picked_seats ps WHERE ps.session_id = m.session_id AND ps.sheet_seat = m.sheet_seat)
)
SELECT m.side,
       count(*) AS sessions,
       count(*) FILTER (WHERE r.won_session) AS sessions_won,
       sum(r.rubbers) AS rubbers,
       sum(r.games) AS games,
       sum(r.hands) AS hands,
       sum(r.hands_won) AS hands_won,
       sum(r.above) AS above,
       sum(r.below) AS below,
       sum(r.total) AS total,
       round(sum(r.total) / nullif(sum(r.hands), 0), 2) AS avg_per_hand
FROM picked m
JOIN v_column_results r ON r.session_id = m.session_id AND r.sheet_seat = m.sheet_seat
GROUP BY m.side
ORDER BY rubbers DESC, total DESC, side
