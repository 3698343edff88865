-- 002: convenience views over the tables of 001.

-- plays with the card's name, suit and rank (plays stores the compact card_id)
CREATE VIEW v_plays AS
SELECT p.*, c.card, c.suit, c.rank
FROM plays p LEFT JOIN cards c USING (card_id);

-- one row per player per hand: who, where, what contract, what the hand gave him
CREATE VIEW v_player_hands AS
SELECT h.session_id, h.hand_seq, h.hand_no, pl.seat, pl.label, pl.name AS player,
       s.game, s.event, s.date, s.year,
       h.contract, h.status, h.scored, h.void,
       h.declarer_seat = pl.seat AS is_declarer,
       h.winner_seat = pl.seat AS won_hand,
       hs.tricks, hs.trick_points, hs.meld_points, hs.bonus, hs.total, hs.hand_points,
       hs.below, hs.above, hs.written_below, hs.written_above
FROM hands h
JOIN sessions s USING (session_id)
JOIN players pl USING (session_id)
LEFT JOIN hand_scores hs ON hs.session_id = h.session_id AND hs.hand_seq = h.hand_seq AND hs.seat = pl.seat;
