-- title: Standings
-- description: Per player (in games scored by sides, each partner gets the side's figures): sessions played and won, rubbers and games won, hands played and won (the hand's winner, JJ-SCORE-10), points above and below the line (the session sheet, held-aside awards and rubber bonuses included), total and average per hand played.
-- table: standings
WITH sheet AS (
    SELECT ps.name,
           count(*) AS sessions,
           count(*) FILTER (WHERE sh.won_session) AS sessions_won,
           sum(sh.rubbers) AS rubbers,
           sum(sh.games) AS games,
           sum(sh.above) AS above,
           sum(sh.below) AS below,
           sum(sh.total) AS total
    FROM picked_seats ps
    JOIN session_sheet sh ON sh.session_id = ps.session_id AND sh.seat = ps.sheet_seat
    GROUP BY ps.name
),
played AS (
    SELECT ps.name,
           count(*) AS hands,
           count(*) FILTER (WHERE h.winner_seat = ps.sheet_seat) AS hands_won
    FROM picked_seats ps
    JOIN hands h USING (session_id)
    GROUP BY ps.name
)
SELECT sheet.name AS player,
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
LEFT JOIN played ON played.name = sheet.name
ORDER BY rubbers DESC, total DESC, player
