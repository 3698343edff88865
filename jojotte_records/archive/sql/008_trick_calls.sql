-- 008: the calls written inside a trick (a dix exchanged late, JJ-DIX-3; a call among the cards), with their trick
-- and the number of the trick's cards played before them; NULL for the calls of the auction and after the draw.
ALTER TABLE calls ADD COLUMN trick_no SMALLINT;
ALTER TABLE calls ADD COLUMN after_cards TINYINT;
ALTER TABLE dix ADD COLUMN trick_no SMALLINT;
ALTER TABLE dix ADD COLUMN after_cards TINYINT;
