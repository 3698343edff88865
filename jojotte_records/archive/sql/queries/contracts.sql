-- title: Contracts
-- description: Per player (with his side, in games scored by sides) and contract kind (turned suit, other suit, NT, Nullo, bid Slam, doubled, redoubled): how often the player bid it, how often he made it (won the hand), and the average margin (his points from the hand minus his opponent's: trick points, melds, bonuses, penalties; held-aside awards and the rubber bonus left out). Hands that could be scored from their events; a Nullo counts as the Nullo bidder's contract only.
-- table: contracts
WITH owned AS (
    SELECT h.session_id, h.hand_seq, h.contract, h.mult, h.slam, h.winner_seat,
           CASE WHEN h.contract = 'nullo' THEN h.nullo_seat ELSE h.declarer_seat END AS owner
    FROM hands h
    JOIN picked_sessions USING (session_id)
    WHERE h.scored AND h.contract IS NOT NULL AND h.contract <> 'void'
),
played AS (
    -- the owner's column of the score sheet: his own, or his side's
    SELECT o.*, p.sheet_seat AS owner_col
    FROM owned o
    JOIN players p ON p.session_id = o.session_id AND p.seat = o.owner
),
kinds AS (
    SELECT session_id, hand_seq, owner, owner_col, winner_seat, contract AS kind FROM played
    UNION ALL
    SELECT session_id, hand_seq, owner, owner_col, winner_seat, 'slam' FROM played WHERE slam
    UNION ALL
    SELECT session_id, hand_seq, owner, owner_col, winner_seat, 'doubled' FROM played WHERE mult = 2
    UNION ALL
    SELECT session_id, hand_seq, owner, owner_col, winner_seat, 'redoubled' FROM played WHERE mult = 4
),
margins AS (
    SELECT k.session_id, k.hand_seq, k.owner, k.owner_col, k.winner_seat, k.kind,
           sum(CASE WHEN hs.seat = k.owner_col THEN hs.hand_points ELSE -coalesce(hs.hand_points, 0) END) AS margin
    FROM kinds k
    JOIN hand_scores hs USING (session_id, hand_seq)
    GROUP BY ALL
)
SELECT ps.name AS player,
       m.kind AS contract,
       count(*) AS bid,
       count(*) FILTER (WHERE m.winner_seat = m.owner_col) AS made,
       round(100.0 * made / bid, 1) AS made_pct,
       round(avg(m.margin), 1) AS avg_margin
FROM margins m
JOIN picked_seats ps ON ps.session_id = m.session_id AND ps.seat = m.owner
GROUP BY ps.name, m.kind
ORDER BY player, list_position(['turned_suit', 'other_suit', 'nt', 'nullo', 'slam', 'doubled', 'redoubled'], contract)
