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
),
sheet AS (
    SELECT m.side,
           count(*) AS sessions,
           count(*) FILTER (WHERE sh.won_session) AS sessions_won,
           sum(sh.rubbers) AS rubbers,
           sum(sh.games) AS games,
           sum(sh.above) AS above,
           sum(sh.below) AS below,
           sum(sh.total) AS total
    FROM picked m
    JOIN session_sheet sh ON sh.session_id = m.session_id AND sh.seat = m.sheet_seat
    GROUP BY m.side
),
played AS (
    SELECT m.side,
           count(*) AS hands,
           count(*) FILTER (WHERE h.winner_seat = m.sheet_seat) AS hands_won
    FROM picked m
    JOIN hands h USING (session_id)
    GROUP BY m.side
)
SELECT sheet.side,
       sessions,
       sessions_won,
       rubbers,
       games,
       coalesce(played.hands, 0) AS hands,
       coalesce(played.hands_won, 0) AS hands_won,
       above,
       below,
       total,
       round(total / nullif(played.hands, 0), 2) AS avg_per_hand
FROM sheet
LEFT JOIN played ON played.side = sheet.side
ORDER BY rubbers DESC, total DESC, side
