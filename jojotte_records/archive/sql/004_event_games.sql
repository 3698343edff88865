-- 004: the games recorded as a log of events (Pitch, Baloot). Their hands also fill the shared
-- tables (hands, hand_scores with a row per sheet column, credits, tricks, plays, issues).

-- every legal action replayed, in order: calls, trump, discards, draws, burns, cards played
CREATE TABLE actions (
    session_id INTEGER NOT NULL,
    hand_seq   INTEGER NOT NULL,
    seq        SMALLINT NOT NULL,
    seat       TINYINT,            -- null for a chance event (the deal, a refill)
    kind       VARCHAR NOT NULL,   -- pass, bid, moon, name, call, discard, draw, remainder, burn, play, deal …
    value      VARCHAR             -- the bid, suit, card or cards
);

-- what a game's rules say of a hand (EventRules.hand_facts): contract, declarer, made, moon …
CREATE TABLE hand_facts (
    session_id INTEGER NOT NULL,
    hand_seq   INTEGER NOT NULL,
    key        VARCHAR NOT NULL,
    value      VARCHAR
);

-- every point card played and the seat credited with it (Pitch: PIT-PTS-2/3)
CREATE TABLE point_cards (
    session_id INTEGER NOT NULL,
    hand_seq   INTEGER NOT NULL,
    card_id    TINYINT NOT NULL,
    seat       TINYINT NOT NULL,
    points     TINYINT NOT NULL
);
