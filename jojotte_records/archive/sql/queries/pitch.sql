-- title: Pitch bids, moons and point cards
-- description: Pitch only. Bids made and set by amount (the bidder's contract, a forced dealer's 4 included); shoot-the-moon attempts and successes per player; and for each point card, how often it was played and who was credited with it: the bidding side or the other, and the player credited most often. Hands that could be scored from their events; with --player, the hands the player bid.
-- table: bids
SELECT h.contract AS bid, count(*) AS hands,
       count(*) FILTER (WHERE h.made) AS made,
       count(*) FILTER (WHERE NOT h.made) AS set,
       round(100.0 * count(*) FILTER (WHERE h.made) / count(*), 1) AS made_pct
FROM v_hand_facts h
JOIN picked_seats ps ON ps.session_id = h.session_id AND ps.seat = h.declarer
WHERE h.game = 'pitch' AND h.contract IS NOT NULL AND h.made IS NOT NULL
GROUP BY h.contract
ORDER BY coalesce(try_cast(h.contract AS INTEGER), 1000);
-- table: moons
SELECT ps.name AS player, count(*) AS attempts,
       count(*) FILTER (WHERE h.made) AS made,
       count(*) FILTER (WHERE NOT h.made) AS failed
FROM v_hand_facts h
JOIN picked_seats ps ON ps.session_id = h.session_id AND ps.seat = h.declarer
WHERE h.game = 'pitch' AND h.moon AND h.made IS NOT NULL
GROUP BY ps.name
ORDER BY attempts DESC, player;
-- table: point_cards
WITH credited AS (
    SELECT pc.card_id, pc.points, pc.seat, pl.name, pc.seat = h.declarer OR pc.seat = h.partner AS to_bidders
    FROM point_cards pc
    JOIN v_hand_facts h USING (session_id, hand_seq)
    JOIN picked_sessions ON picked_sessions.session_id = pc.session_id
    JOIN players pl ON pl.session_id = pc.session_id AND pl.seat = pc.seat
    WHERE h.game = 'pitch'
),
top AS (
    SELECT card_id, arg_max(name, n) AS most_often, max(n) AS times
    FROM (SELECT card_id, name, count(*) AS n FROM credited GROUP BY ALL)
    GROUP BY card_id
)
SELECT c.card, count(*) AS played, sum(cr.points) AS points,
       count(*) FILTER (WHERE cr.to_bidders) AS to_bidders,
       count(*) FILTER (WHERE NOT cr.to_bidders) AS to_others,
       t.most_often AS credited_most, t.times
FROM credited cr
JOIN cards c USING (card_id)
JOIN top t USING (card_id)
GROUP BY c.card, t.most_often, t.times
ORDER BY played DESC, c.card;
