"""Archive rows of the games recorded as a log of events (Pitch, Baloot).

The archive's importer (`archive._Importer`) calls `add_event_hand` for each validated hand and
`event_session_rows` at the end of a session. These games share the tables of Jo-Jotte where the
meaning is the same (sessions, players, the sheet, hands, hand scores, credits, tricks, plays,
issues) and add three of their own (migration ``004_event_games.sql``): every action of a hand,
the facts of a hand that its rules name (`EventRules.hand_facts`), and who was credited with each
point card (`captures`).
"""

from __future__ import annotations

from ..notation.text import sheet_column, write_event_hand
from ..replay.jojotte import HandVerdict, SessionSummary

_SUITS = "SHDC"


def _pad(imp, table: str, *values) -> None:
    """One row; columns added by later migrations get nulls (-1 in the packed integer columns)."""
    b = imp.buf[table]
    missing = len(b.cols) - len(values)
    if missing > 0:
        values = values + tuple(-1 if code else None for code in b.codes[len(values):])
    for col, v in zip(b.cols, values):
        col.append(v)


def _seat_of_issue(issue, labels: tuple[str, ...]) -> int | None:
    token = (issue.token or "").split(" ", 1)[0].upper()
    return labels.index(token) if token in labels else None


def _action_value(a) -> str | None:
    from ..cards import card_name, iter_cards

    if a.card >= 0:
        return card_name(a.card)
    if a.suit >= 0:
        return _SUITS[a.suit]
    if a.kind in ("discard",) and a.cards:
        return " ".join(card_name(c) for c in iter_cards(a.cards[0]))
    if a.info >= 0:
        return str(a.info)
    return None


def hand_status(v) -> tuple[str, str | None]:
    """A hand's ``status`` column (ok, or the gravest kind of finding: syntax, illegal, consistency, score) and the
    rule of its first illegal event (else of its first finding)."""
    if not v.issues:
        return "ok", None
    kinds = {i.kind for i in v.issues}
    status = next((k for k in ("syntax", "illegal", "consistency", "score") if k in kinds), "error")
    return status, (v.first_illegal or v.issues[0]).rule


def add_event_hand(imp, s, v: HandVerdict) -> None:
    """The rows of one validated hand (`archive._Session` ``s``)."""
    rules = s.rules
    s.hands += 1
    imp.pending_hands += 1
    seq = s.hands
    sid = s.session_id
    rec = v.record
    st = v.state
    score = v.score
    labels = tuple(rules.seat_labels)
    if v.issues:
        s.bad += 1
        s.syntax += any(i.kind == "syntax" for i in v.issues)
    s.text.append("\n" + write_event_hand(rec, rules))

    facts = rules.hand_facts(st, score) if st is not None else {}
    tricks = rules.tricks(st) if st is not None else ()
    status, first_rule = hand_status(v)
    declarer = facts.get("declarer")
    written = rec.score
    made = facts.get("made")
    _pad(imp, "hands", sid, seq, rec.number, rec.line or None, rec.dealer if rec.dealer >= 0 else None, None, None,
         None if facts.get("contract") is None else str(facts.get("contract")), None, facts.get("trump"),
         declarer, None, None, None, None, None, status, first_rule, len(v.issues), len(v.unchecked), score is not None,
         v.used_written_score, False, None, len(tricks), tricks[-1][2] if tricks else None, None, None, None, None, 0,
         None, None, written is not None, None)
    columns = s.columns
    if score is not None or written is not None:
        for col in range(len(columns)):
            computed = score.delta[col] if score is not None else None
            _pad(imp, "hand_scores", sid, seq, col, None, None, None, None, computed, computed, None, None,
                 written.values[col] if written is not None else None, None, None,
                 (made if col in getattr(score, "bidding_columns", ()) else None) if score is not None else None)
    if score is not None:
        for i, c in enumerate(score.credits, 1):
            _pad(imp, "credits", sid, seq, i, c.column, "points", c.amount, c.rule, c.why)
    for key, value in facts.items():
        _pad(imp, "hand_facts", sid, seq, key, None if value is None else str(value).lower() if isinstance(value, bool) else str(value))
    for i, a in enumerate(v.actions, 1):
        _pad(imp, "actions", sid, seq, i, a.seat if a.seat >= 0 else None, a.kind, _action_value(a))
    if st is not None:
        for card, seat, points in rules.captures(st):
            _pad(imp, "point_cards", sid, seq, card, seat, points)
    # tricks and plays, where the replay reached
    ply = 0
    written_winners = {ln.number: ln.winner for ln in rec.lines if ln.keyword == "trick" and ln.winner}
    points_of = rules.card_points  # None per card when the game does not count cards one by one
    for k, (leader, plays, win) in enumerate(tricks, 1):
        ww = written_winners.get(k)
        pts = rules.trick_card_points(st, k)  # the game's count (BAL-DECK-5/6, PIT-PTS-1)
        _pad(imp, "tricks", sid, seq, k, leader, win, labels.index(ww) if ww in labels else -1, -1 if pts is None else pts,
             1 if k == len(tricks) and st is not None and rules.is_terminal(st) else 0, -1)
        for pos, (seat, card) in enumerate(plays, 1):
            ply += 1
            pts = points_of(st, card)
            pts = -1 if pts is None else pts
            _pad(imp, "plays", sid, seq, k, ply, pos, seat, card, pts, 1 if seat == win else 0, None)
    s.plays += ply
    for i, issue in enumerate(v.issues + v.unchecked, 1):
        imp._issue(sid, seq, i, issue, _seat_of_issue(issue, labels))


def event_session_rows(imp, s, summary: SessionSummary, common: tuple) -> None:
    """The session's rows: ``common`` holds the ``sessions`` columns up to ``bad_hands`` (`archive._Importer`)."""
    sid = s.session_id
    sheet = summary.sheet
    winners = summary.winners
    winner = winners[0] if len(winners) == 1 else None
    winner_name = " and ".join(summary.names[c] for c in winners) or None
    _pad(imp, "sessions", *common, len(summary.issues), winner, winner_name, 0, "".join(s.text))
    labels = s.labels
    for seat in range(len(labels)):
        _pad(imp, "players", sid, seat, labels[seat], s.names[seat], sheet_column(seat, labels, s.columns))
    for col, label in enumerate(s.columns):
        _pad(imp, "session_sheet", sid, col, label, 0, 0, sheet.scores[col], 0, 0, col in winners)
    for i, issue in enumerate(summary.issues, 1):
        imp._issue(sid, None, i, issue, None)
