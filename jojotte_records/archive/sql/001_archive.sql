-- 001: the archive's tables (see docs/archive.md for every column).
--
-- Seats are 0-based integers (0 = seat A, 1 = seat B, ... as players.label says).
-- Every child table carries session_id and, below the session, hand_seq: the
-- position of the hand in its session (1, 2, ...), which is also its order;
-- hand_no is the number written on the hand line. Calls, tricks and plays have
-- their own explicit order columns (seq, trick_no, ply).

CREATE TABLE cards (
    card_id    TINYINT PRIMARY KEY,
    card       VARCHAR NOT NULL,
    suit       VARCHAR NOT NULL,
    rank       VARCHAR NOT NULL,
    rank_value TINYINT NOT NULL
);

INSERT INTO cards VALUES
(14, 'AS', 'S', 'A', 14),
(13, 'KS', 'S', 'K', 13),
(12, 'QS', 'S', 'Q', 12),
(11, 'JS', 'S', 'J', 11),
(10, 'TS', 'S', 'T', 10),
(9, '9S', 'S', '9', 9),
(8, '8S', 'S', '8', 8),
(7, '7S', 'S', '7', 7),
(6, '6S', 'S', '6', 6),
(5, '5S', 'S', '5', 5),
(4, '4S', 'S', '4', 4),
(3, '3S', 'S', '3', 3),
(2, '2S', 'S', '2', 2),
(30, 'AH', 'H', 'A', 14),
(29, 'KH', 'H', 'K', 13),
(28, 'QH', 'H', 'Q', 12),
(27, 'JH', 'H', 'J', 11),
(26, 'TH', 'H', 'T', 10),
(25, '9H', 'H', '9', 9),
(24, '8H', 'H', '8', 8),
(23, '7H', 'H', '7', 7),
(22, '6H', 'H', '6', 6),
(21, '5H', 'H', '5', 5),
(20, '4H', 'H', '4', 4),
(19, '3H', 'H', '3', 3),
(18, '2H', 'H', '2', 2),
(46, 'AD', 'D', 'A', 14),
(45, 'KD', 'D', 'K', 13),
(44, 'QD', 'D', 'Q', 12),
(43, 'JD', 'D', 'J', 11),
(42, 'TD', 'D', 'T', 10),
(41, '9D', 'D', '9', 9),
(40, '8D', 'D', '8', 8),
(39, '7D', 'D', '7', 7),
(38, '6D', 'D', '6', 6),
(37, '5D', 'D', '5', 5),
(36, '4D', 'D', '4', 4),
(35, '3D', 'D', '3', 3),
(34, '2D', 'D', '2', 2),
(62, 'AC', 'C', 'A', 14),
(61, 'KC', 'C', 'K', 13),
(60, 'QC', 'C', 'Q', 12),
(59, 'JC', 'C', 'J', 11),
(58, 'TC', 'C', 'T', 10),
(57, '9C', 'C', '9', 9),
(56, '8C', 'C', '8', 8),
(55, '7C', 'C', '7', 7),
(54, '6C', 'C', '6', 6),
(53, '5C', 'C', '5', 5),
(52, '4C', 'C', '4', 4),
(51, '3C', 'C', '3', 3),
(50, '2C', 'C', '2', 2),
(65, 'X1', 'X', '1', 1),
(66, 'X2', 'X', '2', 2)
;

CREATE TABLE import_log (
    import_id          INTEGER PRIMARY KEY,
    source             VARCHAR NOT NULL,
    file_hash          VARCHAR NOT NULL,
    imported_at        TIMESTAMP NOT NULL,
    sessions_new       INTEGER NOT NULL,
    sessions_replaced  INTEGER NOT NULL,
    sessions_unchanged INTEGER NOT NULL,
    hands              INTEGER NOT NULL,
    bad_hands          INTEGER NOT NULL,
    content_hashes     VARCHAR[] NOT NULL
);

CREATE TABLE sessions (
    session_id     INTEGER PRIMARY KEY,
    session_key    VARCHAR NOT NULL,
    content_hash   VARCHAR NOT NULL,
    import_id      INTEGER NOT NULL,
    source         VARCHAR,
    source_index   INTEGER,
    source_line    INTEGER,
    game           VARCHAR NOT NULL,
    event          VARCHAR,
    site           VARCHAR,
    date_text      VARCHAR,
    date           DATE,
    year           INTEGER,
    round          VARCHAR,
    table_label    VARCHAR,
    players_text   VARCHAR,
    first_dealer   VARCHAR,
    variant        VARCHAR,
    rubbers_agreed INTEGER,
    scorer         VARCHAR,
    tags           STRUCT(name VARCHAR, value VARCHAR)[],
    seats          TINYINT NOT NULL,
    hands          INTEGER NOT NULL,
    bad_hands      INTEGER NOT NULL,
    errors         INTEGER NOT NULL,
    winner_seat    TINYINT,
    winner         VARCHAR,
    pool_lapsed    INTEGER NOT NULL,
    canonical_text VARCHAR NOT NULL
);

CREATE TABLE players (
    session_id INTEGER NOT NULL,
    seat       TINYINT NOT NULL,
    label      VARCHAR NOT NULL,
    name       VARCHAR NOT NULL,
    sheet_seat TINYINT
);

CREATE TABLE session_sheet (
    session_id  INTEGER NOT NULL,
    seat        TINYINT NOT NULL,
    label       VARCHAR NOT NULL,
    below       INTEGER NOT NULL,
    above       INTEGER NOT NULL,
    total       INTEGER NOT NULL,
    games       INTEGER NOT NULL,
    rubbers     INTEGER NOT NULL,
    won_session BOOLEAN NOT NULL
);

CREATE TABLE rubbers (
    session_id INTEGER NOT NULL,
    rubber_no  INTEGER NOT NULL,
    seat       TINYINT NOT NULL,
    points     INTEGER NOT NULL,
    won        BOOLEAN NOT NULL
);

CREATE TABLE hands (
    session_id         INTEGER NOT NULL,
    hand_seq           INTEGER NOT NULL,
    hand_no            INTEGER NOT NULL,
    line               INTEGER,
    dealer_seat        TINYINT,
    turned             VARCHAR,
    info               VARCHAR,
    contract           VARCHAR,
    denomination       VARCHAR,
    trump              VARCHAR,
    declarer_seat      TINYINT,
    nullo_seat         TINYINT,
    mult               TINYINT,
    doubler_seat       TINYINT,
    slam               BOOLEAN,
    dix_seat           TINYINT,
    status             VARCHAR NOT NULL,
    first_rule         VARCHAR,
    errors             INTEGER NOT NULL,
    unchecked          INTEGER NOT NULL,
    scored             BOOLEAN NOT NULL,
    used_written_score BOOLEAN NOT NULL,
    void               BOOLEAN NOT NULL,
    winner_seat        TINYINT,
    tricks_played      SMALLINT NOT NULL,
    last_trick_seat    TINYINT,
    claim_seat         TINYINT,
    meld_a_seat        TINYINT,
    meld_b_seat        TINYINT,
    held_aside         INTEGER,
    pool_after         INTEGER NOT NULL,
    game_won_by        TINYINT,
    rubber_won_by      TINYINT,
    written_score      BOOLEAN NOT NULL,
    written_aside      INTEGER
);

CREATE TABLE hand_scores (
    session_id    INTEGER NOT NULL,
    hand_seq      INTEGER NOT NULL,
    seat          TINYINT NOT NULL,
    tricks        TINYINT,
    trick_points  INTEGER,
    meld_points   INTEGER,
    bonus         INTEGER,
    total         INTEGER,
    hand_points   INTEGER,
    below         INTEGER,
    above         INTEGER,
    written_below INTEGER,
    written_above INTEGER,
    jojotte       BOOLEAN,
    won_hand      BOOLEAN
);

CREATE TABLE credits (
    session_id INTEGER NOT NULL,
    hand_seq   INTEGER NOT NULL,
    seq        SMALLINT NOT NULL,
    seat       TINYINT NOT NULL,
    line       VARCHAR NOT NULL,
    amount     INTEGER NOT NULL,
    rule       VARCHAR NOT NULL,
    why        VARCHAR NOT NULL
);

CREATE TABLE calls (
    session_id INTEGER NOT NULL,
    hand_seq   INTEGER NOT NULL,
    phase      VARCHAR NOT NULL,
    seq        SMALLINT NOT NULL,
    seat       TINYINT NOT NULL,
    kind       VARCHAR NOT NULL,
    suit       VARCHAR,
    melds      VARCHAR,
    line       INTEGER,
    col        INTEGER
);

CREATE TABLE melds (
    session_id INTEGER NOT NULL,
    hand_seq   INTEGER NOT NULL,
    seat       TINYINT NOT NULL,
    seq        SMALLINT NOT NULL,
    call_seq   SMALLINT NOT NULL,
    meld       VARCHAR NOT NULL,
    kind       VARCHAR NOT NULL,
    class      VARCHAR NOT NULL,
    rank       VARCHAR NOT NULL,
    suit       VARCHAR,
    length     TINYINT NOT NULL,
    value      INTEGER NOT NULL,
    scored     BOOLEAN
);

CREATE TABLE dix (
    session_id INTEGER NOT NULL,
    hand_seq   INTEGER NOT NULL,
    seat       TINYINT NOT NULL,
    call_seq   SMALLINT NOT NULL,
    took       VARCHAR,
    gave       VARCHAR,
    accepted   BOOLEAN NOT NULL
);

CREATE TABLE tricks (
    session_id          INTEGER NOT NULL,
    hand_seq            INTEGER NOT NULL,
    trick_no            SMALLINT NOT NULL,
    leader_seat         TINYINT,
    winner_seat         TINYINT,
    written_winner_seat TINYINT,
    points              SMALLINT,
    last                BOOLEAN NOT NULL,
    line                INTEGER
);

CREATE TABLE plays (
    session_id INTEGER NOT NULL,
    hand_seq   INTEGER NOT NULL,
    trick_no   SMALLINT NOT NULL,
    ply        SMALLINT NOT NULL,
    pos        SMALLINT NOT NULL,
    seat       TINYINT NOT NULL,
    card_id    TINYINT,
    points     TINYINT,
    won        BOOLEAN,
    announce   VARCHAR
);

CREATE TABLE issues (
    session_id INTEGER NOT NULL,
    hand_seq   INTEGER,
    seq        INTEGER NOT NULL,
    rule       VARCHAR NOT NULL,
    kind       VARCHAR NOT NULL,
    message    VARCHAR NOT NULL,
    seat       TINYINT,
    phase      VARCHAR,
    trick_no   INTEGER,
    card_pos   INTEGER,
    step       INTEGER,
    line       INTEGER,
    col        INTEGER
);
