-- 007: each column of each session's score sheet (a player, or a side) with what it won: the figures the
-- standings (per player) and sides (per side) statistics add up.
CREATE VIEW v_column_results AS
SELECT sh.session_id, sh.seat AS sheet_seat, sh.won_session, sh.rubbers, sh.games, sh.above, sh.below, sh.total,
       (SELECT count(*) FROM hands h WHERE h.session_id = sh.session_id) AS hands,
       (SELECT count(*) FROM hands h WHERE h.session_id = sh.session_id AND h.winner_seat = sh.seat) AS hands_won
FROM session_sheet sh;
