-- title: Cards
-- description: Per card: times played, tricks it won, the points it carried (its own value in the hand's trump) and the points it took (the tricks it won, last-trick 10 included). Per seat: hands played to the last trick, tricks and points taken, the share of last tricks, and how often the seat scored Jo-Jotte and made the dix exchange. Tricks the replay reached.
-- table: by_card
WITH card_plays AS (
    SELECT p.card_id, p.points, p.won, t.points AS trick_points
    FROM plays p
    JOIN picked_seats ps ON ps.session_id = p.session_id AND ps.seat = p.seat
    JOIN tricks t ON t.session_id = p.session_id AND t.hand_seq = p.hand_seq AND t.trick_no = p.trick_no
    WHERE p.won IS NOT NULL AND p.card_id IS NOT NULL
)
SELECT c.card,
       count(*) AS played,
       count(*) FILTER (WHERE cp.won) AS tricks_won,
       sum(cp.points) AS points_carried,
       coalesce(sum(cp.trick_points) FILTER (WHERE cp.won), 0) AS points_taken,
       round(points_taken / played, 2) AS avg_taken
FROM card_plays cp
JOIN cards c USING (card_id)
GROUP BY c.card, c.suit, c.rank_value
ORDER BY list_position(['S', 'H', 'D', 'C', 'X'], c.suit), c.rank_value DESC
-- table: by_seat
WITH scope AS (
    SELECT h.session_id, h.hand_seq, h.last_trick_seat, h.dix_seat
    FROM hands h
    JOIN picked_sessions USING (session_id)
    WHERE h.last_trick_seat IS NOT NULL
),
taken AS (
    SELECT t.session_id, t.hand_seq, t.winner_seat AS seat, count(*) AS tricks, sum(t.points) AS points
    FROM tricks t
    JOIN scope USING (session_id, hand_seq)
    WHERE t.winner_seat IS NOT NULL
    GROUP BY ALL
),
per_hand AS (
    SELECT pl.label,
           coalesce(tk.tricks, 0) AS tricks,
           coalesce(tk.points, 0) AS points,
           s.last_trick_seat = ps.seat AS last_trick,
           coalesce(s.dix_seat = ps.seat, false) AS made_dix,
           coalesce(hs.jojotte, false) AS scored_jojotte
    FROM scope s
    JOIN picked_seats ps USING (session_id)
    JOIN players pl ON pl.session_id = ps.session_id AND pl.seat = ps.seat
    LEFT JOIN taken tk ON tk.session_id = s.session_id AND tk.hand_seq = s.hand_seq AND tk.seat = ps.seat
    LEFT JOIN hand_scores hs ON hs.session_id = s.session_id AND hs.hand_seq = s.hand_seq AND hs.seat = ps.seat
)
SELECT label AS seat,
       count(*) AS hands,
       sum(tricks) AS tricks_won,
       sum(points) AS points_taken,
       round(points_taken / hands, 1) AS avg_points,
       count(*) FILTER (WHERE last_trick) AS last_tricks,
       round(100.0 * last_tricks / hands, 1) AS last_trick_pct,
       count(*) FILTER (WHERE scored_jojotte) AS jojotte_hands,
       round(100.0 * jojotte_hands / hands, 1) AS jojotte_pct,
       count(*) FILTER (WHERE made_dix) AS dix_hands,
       round(100.0 * dix_hands / hands, 1) AS dix_pct
FROM per_hand
GROUP BY label
ORDER BY label
