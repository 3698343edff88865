-- title: Melds
-- description: Per meld class (A: fours of a kind, B: sequences): in how many hands it was declared and how often (share of the hands), melds declared and scored, hands in which the class was won, the average points the class winner scored for it (nominal values), and how often the class winner also won the hand. Hands that could be scored, void hands left out; with --player, the player's melds and the classes he won.
-- table: melds
WITH scope AS (
    SELECT h.session_id, h.hand_seq, h.winner_seat, h.meld_a_seat, h.meld_b_seat
    FROM hands h
    JOIN picked_sessions USING (session_id)
    WHERE h.scored AND NOT h.void
),
classes AS (
    SELECT * FROM (VALUES ('A', 'fours of a kind'), ('B', 'sequences')) AS c(class, melds)
),
declared AS (
    SELECT m.class,
           count(DISTINCT (m.session_id, m.hand_seq)) AS hands_declared,
           count(*) AS melds_declared,
           count(*) FILTER (WHERE m.scored) AS melds_scored
    FROM melds m
    JOIN scope USING (session_id, hand_seq)
    JOIN picked_seats ps ON ps.session_id = m.session_id AND ps.seat = m.seat
    GROUP BY m.class
),
class_points AS (
    SELECT session_id, hand_seq, class, seat, sum(value) AS points
    FROM melds
    WHERE scored
    GROUP BY ALL
),
won AS (
    SELECT c.class, s.session_id, s.hand_seq, s.winner_seat,
           CASE c.class WHEN 'A' THEN s.meld_a_seat ELSE s.meld_b_seat END AS class_seat
    FROM scope s CROSS JOIN classes c
),
won_points AS (
    SELECT w.class, w.class_seat, w.winner_seat, cp.points
    FROM won w
    JOIN picked_seats ps ON ps.session_id = w.session_id AND ps.seat = w.class_seat
    LEFT JOIN class_points cp
           ON cp.session_id = w.session_id AND cp.hand_seq = w.hand_seq AND cp.class = w.class AND cp.seat = w.class_seat
)
SELECT c.class,
       c.melds,
       (SELECT count(*) FROM scope) AS hands,
       coalesce(d.hands_declared, 0) AS hands_declared,
       round(100.0 * coalesce(d.hands_declared, 0) / nullif((SELECT count(*) FROM scope), 0), 1) AS declared_pct,
       coalesce(d.melds_declared, 0) AS melds_declared,
       coalesce(d.melds_scored, 0) AS melds_scored,
       count(wp.class_seat) AS hands_won,
       round(avg(wp.points), 1) AS avg_points,
       count(*) FILTER (WHERE wp.class_seat = wp.winner_seat) AS winner_won_hand,
       round(100.0 * winner_won_hand / nullif(hands_won, 0), 1) AS winner_won_hand_pct
FROM classes c
LEFT JOIN declared d USING (class)
LEFT JOIN won_points wp USING (class)
GROUP BY c.class, c.melds, d.hands_declared, d.melds_declared, d.melds_scored
ORDER BY c.class
