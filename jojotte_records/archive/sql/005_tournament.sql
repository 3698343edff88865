-- 005: duplicate deals (issue 9). A hash of each hand's deal (the game, the dealer, the cards dealt to each
-- seat and the turned card: tournament.deal_hash), to recognise the same deal played at several tables.
ALTER TABLE hands ADD COLUMN deal_hash VARCHAR;

-- every hand whose deal was played more than once in the archive, with where and how it went
CREATE VIEW v_duplicate_deals AS
SELECT h.deal_hash, s.event, s.round, s.table_label, s.players_text, h.session_id, h.hand_seq, h.hand_no,
       h.dealer_seat, h.contract, h.declarer_seat, h.mult, h.winner_seat, h.status
FROM hands h
JOIN sessions s USING (session_id)
WHERE h.deal_hash IN (SELECT deal_hash FROM hands WHERE deal_hash IS NOT NULL GROUP BY deal_hash HAVING count(*) > 1);
