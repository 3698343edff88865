-- title: Pitch bids, moons and point cards
-- description: Pitch only. Bids made and set by amount (the bidder's contract, a forced dealer's 4 included); shoot-the-moon attempts and successes per player; and for each point card, how often it was played and who was credited with it: the bidding side or the other, and the player credited most often. Hands that could be scored from their events; with --player, the hands the player bid.
-- table: bids
WITH h AS (
    SELECT f.session_id, f.hand_seq,
           max(f.value) FILTER (WHERE f.key = 'contract') AS bid,
           max(f.value) FILTER (WHERE f.key = 'made') AS made,
           max(f.value) FILTER (WHERE f.key = 'declarer') AS declarer
    FROM hand_facts f
    JOIN picked_sessions USING (session_id)
    JOIN sessions s USING (session_id)
    WHERE s.game = 'pitch'
    GROUP BY ALL
)
SELECT bid, count(*) AS hands,
       count(*) FILTER (WHERE made = 'true') AS made,
       count(*) FILTER (WHERE made = 'false') AS set,
       round(100.0 * count(*) FILTER (WHERE made = 'true') / count(*), 1) AS made_pct
FROM h
JOIN picked_seats ps ON ps.session_id = h.session_id AND ps.seat = try_cast(h.declarer AS INTEGER)
WHERE bid IS NOT NULL AND made IS NOT NULL
GROUP BY bid
ORDER BY coalesce(try_cast(bid AS INTEGER), 1000);
-- table: moons
WITH h AS (
    SELECT f.session_id, f.hand_seq,
           max(f.value) FILTER (WHERE f.key = 'moon') AS moon,
           max(f.value) FILTER (WHERE f.key = 'made') AS made,
           max(f.value) FILTER (WHERE f.key = 'declarer') AS declarer
    FROM hand_facts f
    JOIN picked_sessions USING (session_id)
    JOIN sessions s USING (session_id)
    WHERE s.game = 'pitch'
    GROUP BY ALL
)
SELECT ps.name AS player, count(*) AS attempts,
       count(*) FILTER (WHERE made = 'true') AS made,
       count(*) FILTER (WHERE made = 'false') AS failed
FROM h
JOIN picked_seats ps ON ps.session_id = h.session_id AND ps.seat = try_cast(h.declarer AS INTEGER)
WHERE moon = 'true' AND made IS NOT NULL
GROUP BY ps.name
ORDER BY attempts DESC, player;
-- table: point_cards
WITH bidders AS (
    SELECT f.session_id, f.hand_seq, try_cast(f.value AS INTEGER) AS declarer,
           try_cast(max(p.value) AS INTEGER) AS partner
    FROM hand_facts f
    LEFT JOIN hand_facts p ON p.session_id = f.session_id AND p.hand_seq = f.hand_seq AND p.key = 'partner'
    JOIN picked_sessions ON picked_sessions.session_id = f.session_id
    WHERE f.key = 'declarer'
    GROUP BY ALL
),
credited AS (
    SELECT pc.card_id, pc.points, pc.seat, pl.name,
           pc.seat = b.declarer OR pc.seat = b.partner AS to_bidders
    FROM point_cards pc
    JOIN bidders b USING (session_id, hand_seq)
    JOIN players pl ON pl.session_id = pc.session_id AND pl.seat = pc.seat
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
