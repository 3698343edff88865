-- title: Standings
-- description: Per player (in games scored by sides, each partner gets the side's figures): sessions played and won, rubbers and games won, hands played and won (the hand's winner, JJ-SCORE-10), points above and below the line (the session sheet, held-aside awards and rubber bonuses included), total and average per hand played.
-- table: standings
SELECT ps.name AS player,
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
FROM picked_seats ps
JOIN v_column_results r ON r.session_id = ps.session_id AND r.sheet_seat = ps.sheet_seat
GROUP BY ps.name
ORDER BY rubbers DESC, total DESC, player
