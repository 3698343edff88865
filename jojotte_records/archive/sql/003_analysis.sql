-- 003: the double-dummy analysis of each card (issue 8), read from the record's {[%dd …]} comments
-- (written by `jojotte analyze --out`); NULL for a card the record carries no analysis for.
ALTER TABLE plays ADD COLUMN dd_eval INTEGER;   -- forced value of the hand after the card, A minus B (or as dd_vs)
ALTER TABLE plays ADD COLUMN dd_cost SMALLINT;  -- what the card gave away, for its player (0: a best card)
ALTER TABLE plays ADD COLUMN dd_best VARCHAR;   -- the best card(s) there, as in the comment: JH,9H,KD+jo
ALTER TABLE plays ADD COLUMN dd_mark VARCHAR;   -- inaccuracy, mistake or blunder; NULL for none
ALTER TABLE plays ADD COLUMN dd_vs VARCHAR;     -- whose value dd_eval is in three- and four-player forms: A-C, N+S-E+W
