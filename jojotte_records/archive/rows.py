"""The archive's rows of a validated session and its hands, for every game: the one loader.

`add_hand` turns one `replay.jojotte.HandVerdict` into the rows of ``hands``, ``hand_scores``, ``credits``,
``tricks``, ``plays``, ``hand_facts``, ``actions``, ``point_cards`` and ``issues``; `add_session` turns the
`SessionSummary` into ``sessions``, ``players``, ``session_sheet`` and ``rubbers``. What a hand shows comes
from the rules' hooks (`Rules.hand_facts`, `captures`, `trick_card_points`) wherever the game declares one;
what is written in the record's own form (a Jo-Jotte hand's auction, melds and dix, its cards as recorded past
an illegal one; an event-log hand's actions) is read by the record's `RecordRows`, chosen once per session by
the game's record codec (`Rules.notation`). The buffers are `store._Columns` of the importer ``imp``.
"""

from __future__ import annotations

from ..cards import SEVEN, card_name, iter_cards, make_card
from ..errors import number_too_large, plain_digits
from ..notation.dd_comment import dd_fields
from ..notation.deals import deal_hash
from ..notation.event_text import write_event_hand
from ..notation.text import kept_hand_text, sheet_column, write_hand
from ..rules.jojotte import DONE, PLAY, VOID_HAND
from ..rules.jojotte_cards import POINTS, RANK_CHARS

_SUITS = "SHDCX"
_NO_DD = (None, None, None, None, None)  # plays.dd_* of a card without a [%dd …] comment
_NO_PLAY_TEXT = (None, *_NO_DD)  # plays.announce and plays.dd_* of an event-log hand's card


def hand_status(v) -> tuple[str, str | None]:
    """A hand's ``status`` column (ok, or the gravest kind of finding: syntax, illegal, consistency, score) and the
    rule of its first illegal event (else of its first finding)."""
    if not v.issues:
        return "ok", None
    kinds = {i.kind for i in v.issues}
    status = next((k for k in ("syntax", "illegal", "consistency", "score") if k in kinds), "error")
    return status, (v.first_illegal or v.issues[0]).rule


def _at(values: tuple, i: int):
    return values[i] if i < len(values) else None


def _opt(value: int):
    return value if value >= 0 else None


# --- one hand ------------------------------------------------------------------------------

def add_hand(imp, s, v, lines: list[str] | None = None) -> None:
    """Every row of one validated hand of session ``s`` (`store._Session`); ``lines``: the hand's lines as read, when
    the reader's fast paths read every one (`notation.iter_records`' ``texts``)."""
    s.hands += 1
    imp.pending_hands += 1
    if v.issues:
        s.bad += 1
        s.syntax += any(i.kind == "syntax" for i in v.issues)
    form = s.form
    # the canonical text, exactly as `notation.write_stream` writes it: the header, then "\n" + each hand
    s.text.append("\n" + form.write(v.record, lines))
    st, score = v.state, v.score
    facts = s.rules.hand_facts(st, score) if st is not None else {}
    form.hand_row(imp, s, v, facts)
    form.score_rows(imp, s, v, facts)
    row = imp.row
    sid, seq = s.session_id, s.hands
    for key, value in facts.items():
        row("hand_facts", sid, seq, key, None if value is None else str(value).lower() if isinstance(value, bool) else str(value))
    for i, a in enumerate(v.actions, 1):
        row("actions", sid, seq, i, _opt(a.seat), a.kind, _action_value(a))
    if st is not None:
        for card, seat, points in s.rules.captures(st):
            row("point_cards", sid, seq, card, seat, points)
    form.record_rows(imp, s, v)
    form.trick_rows(imp, s, v)
    for i, issue in enumerate(v.issues + v.unchecked, 1):
        imp.issue(sid, seq, i, issue, form.seat_of(issue, v.record, s))


def _action_value(a) -> str | None:
    if a.card >= 0:
        return card_name(a.card)
    if a.suit >= 0:
        return _SUITS[a.suit]
    if a.kind == "discard" and a.cards:
        return " ".join(card_name(c) for c in iter_cards(a.cards[0]))
    if a.info >= 0:
        return str(a.info)
    return None


# --- the record's own form -----------------------------------------------------------------

class RecordRows:
    """What the rows of a hand read from the record's own form (one instance per session)."""

    def __init__(self, rules, labels: tuple[str, ...], columns: tuple[str, ...]):
        self.rules = rules
        self.labels = labels
        self.columns = columns

    def write(self, record, lines: list[str] | None = None) -> str:
        """The canonical text of one hand; ``lines``: its lines as read, when the reader's fast paths read every one."""
        raise NotImplementedError

    def hand_row(self, imp, s, v, facts: dict) -> None:
        raise NotImplementedError

    def score_rows(self, imp, s, v, facts: dict) -> None:
        raise NotImplementedError

    def record_rows(self, imp, s, v) -> None:
        """Rows of the record's parts that have a table of their own (calls, melds, the dix)."""

    def trick_rows(self, imp, s, v) -> None:
        raise NotImplementedError

    def seat_of(self, issue, record, s) -> int | None:
        raise NotImplementedError

    def session_values(self, s, summary) -> tuple:
        """The ``sessions`` columns ``rubbers_agreed`` and ``pool_lapsed``."""
        return None, 0

    def sheet_rows(self, imp, s, summary) -> None:
        raise NotImplementedError


def record_rows_for(rules) -> RecordRows:
    """The `RecordRows` of a game's record codec."""
    labels = tuple(rules.seat_labels)
    columns = tuple(rules.sheet_labels or labels)
    return (EventRecordRows if rules.notation == "events" else JojotteRecordRows)(rules, labels, columns)


class EventRecordRows(RecordRows):
    """A hand recorded as a log of events (Pitch, Baloot): its lines, replayed as actions."""

    def write(self, record, lines: list[str] | None = None) -> str:
        # an event-log hand's lines seldom repeat (four players' tricks, deals, a dozen hands a session): checking
        # them costs more than writing them (measured), so the writer writes every one
        return write_event_hand(record, self.rules)

    def hand_row(self, imp, s, v, facts: dict) -> None:
        rec, score, st = v.record, v.score, v.state
        tricks = self.rules.tricks(st) if st is not None else ()
        status, first_rule = hand_status(v)
        contract = facts.get("contract")
        imp.row("hands", s.session_id, s.hands, rec.number, rec.line or None, _opt(rec.dealer), None, None,
                None if contract is None else str(contract), None, facts.get("trump"), facts.get("declarer"), None,
                None, None, None, None, status, first_rule, len(v.issues), len(v.unchecked), score is not None,
                v.used_written_score, False, None, len(tricks), tricks[-1][2] if tricks else None, None, None, None,
                None, 0, None, None, rec.score is not None, None, None)

    def score_rows(self, imp, s, v, facts: dict) -> None:
        score, written = v.score, v.record.score
        if score is None and written is None:
            return
        made = facts.get("made")
        bidding = score.bidding_columns if score is not None else ()
        for col in range(len(self.columns)):
            computed = score.delta[col] if score is not None else None
            imp.row("hand_scores", s.session_id, s.hands, col, None, None, None, None, computed, computed, None, None,
                    written.values[col] if written is not None else None, None, None,
                    (made if col in bidding else None) if score is not None else None)
        if score is not None:
            for i, c in enumerate(score.credits, 1):
                imp.row("credits", s.session_id, s.hands, i, c.column, "points", c.amount, c.rule, c.why)

    def trick_rows(self, imp, s, v) -> None:
        st, rules, labels = v.state, self.rules, self.labels
        tricks = rules.tricks(st) if st is not None else ()
        if not tricks:
            return
        written = {ln.number: ln.winner for ln in v.record.lines if ln.keyword == "trick" and ln.winner}
        over = rules.is_terminal(st)
        sid, seq = s.session_id, s.hands
        t_rows, p_rows = imp.buf["tricks"].rows, imp.buf["plays"].rows
        ply = 0
        for k, (leader, plays, win) in enumerate(tricks, 1):
            ww = written.get(k)
            pts = rules.trick_card_points(st, k)  # the game's count (BAL-DECK-5/6, PIT-PTS-1)
            t_rows.append((sid, seq, k, leader, win, labels.index(ww) if ww in labels else -1, -1 if pts is None else pts,
                           1 if k == len(tricks) and over else 0, -1))
            for pos, (seat, card) in enumerate(plays, 1):
                ply += 1
                pts = rules.card_points(st, card)
                p_rows.append((sid, seq, k, ply, pos, seat, card, -1 if pts is None else pts, 1 if seat == win else 0,
                               *_NO_PLAY_TEXT))
        s.plays += ply

    def seat_of(self, issue, record, s) -> int | None:
        token = (issue.token or "").split(" ", 1)[0].upper()
        return self.labels.index(token) if token in self.labels else None

    def sheet_rows(self, imp, s, summary) -> None:
        sheet, winners = summary.sheet, summary.winners
        for col, label in enumerate(self.columns):
            imp.row("session_sheet", s.session_id, col, label, 0, 0, sheet.scores[col], 0, 0, col in winners)


class JojotteRecordRows(RecordRows):
    """A Jo-Jotte hand (`HandRecord`): its contract from the state, its auction, calls after the draw, melds, the
    dix, and every card as recorded, with winners and points as far as the replay reached."""

    def __init__(self, rules, labels: tuple[str, ...], columns: tuple[str, ...]):
        super().__init__(rules, labels, columns)
        self.kept = kept_hand_text(labels, columns)

    def write(self, record, lines: list[str] | None = None) -> str:
        """The hand's ``lines`` as read when they are what `write_hand` writes of it (`notation.codec.KeptText`: a
        two-player session's lines repeat, so most are checked once), else what it writes."""
        if lines is not None:
            text = self.kept(record, lines)
            if text is not None:
                return text
        return write_hand(record, self.labels, self.columns)

    def hand_row(self, imp, s, v, facts: dict) -> None:
        rec, st, score, entry, written = v.record, v.state, v.score, v.entry, v.record.score
        contract = _contract(st)
        meld_a = meld_b = None
        if st is not None and st.phase in (PLAY, DONE) and any(st.melds):
            mr = self.rules.compare_melds(st)
            meld_a, meld_b = _opt(mr.class_a), _opt(mr.class_b)
        status, first_rule = hand_status(v)
        winner = score.winner if score is not None and score.winner >= 0 else None
        imp.row("hands", s.session_id, s.hands, rec.number, rec.line or None, _opt(rec.dealer),
                card_name(rec.turned) if rec.turned is not None and rec.turned >= 0 else None,
                card_name(rec.info) if rec.info is not None and rec.info >= 0 else None,
                *contract, status, first_rule, len(v.issues), len(v.unchecked), score is not None, v.used_written_score,
                bool(score is not None and score.void), winner, len(st.history) if st is not None else 0,
                _opt(st.last_trick) if st is not None else None, _opt(rec.claim), meld_a, meld_b,
                entry.held_aside if entry is not None else None, v.sheet.pool,
                _opt(entry.game_won_by) if entry is not None else None,
                _opt(entry.rubber_won_by) if entry is not None else None,
                written is not None, written.aside if written is not None else None, deal_hash(rec, rules=self.rules))

    def score_rows(self, imp, s, v, facts: dict) -> None:
        """The score of each seat, computed and as written, and what the hand wrote on the sheet."""
        st, score, entry, written = v.state, v.score, v.entry, v.record.score
        if score is not None or written is not None:
            winner = score.winner if score is not None and score.winner >= 0 else None
            for seat in range(max(len(self.labels), len(self.columns))):
                if score is not None:
                    computed = (_at(score.tricks, seat), _at(score.trick_points, seat), _at(score.meld_points, seat),
                                _at(score.bonus, seat), _at(score.total, seat), score.below(seat) + score.above(seat))
                else:
                    computed = (None,) * 6
                jo = _at(st.jo, seat) if st is not None and st.bidder >= 0 else None
                imp.row("hand_scores", s.session_id, s.hands, seat, *computed,
                        entry.below(seat) if entry is not None else None, entry.above(seat) if entry is not None else None,
                        _at(written.below, seat) if written is not None else None,
                        _at(written.above, seat) if written is not None else None,
                        jo == 2 if jo is not None else None, (winner == seat) if score is not None else None)
        if entry is not None:
            for i, c in enumerate(entry.credits, 1):
                imp.row("credits", s.session_id, s.hands, i, c.seat, c.line, c.amount, c.rule, c.why)

    def record_rows(self, imp, s, v) -> None:
        """The calls of the auction, after the draw and inside the tricks (with the trick and the number of its
        cards before them, `Trick.calls`), the melds declared and the dix."""
        rec, st = v.record, v.state
        sid, seq = s.session_id, s.hands
        in_tricks = [(t.number, k, c) for t in rec.tricks for k, c in t.calls]
        calls = imp.buf["calls"].rows  # a tuple a row (`store._Columns`)
        for phase, made in (("auction", rec.auction), ("after", rec.after)):
            for i, c in enumerate(made, 1):
                calls.append((sid, seq, phase, i, *_call_values(c), None, None))
        for i, (trick_no, after_cards, c) in enumerate(in_tricks, 1):
            calls.append((sid, seq, "trick", i, *_call_values(c), trick_no, after_cards))
        shown = None
        if st is not None and st.phase in (PLAY, DONE) and any(st.melds):
            shown = self.rules.compare_melds(st).shown
        meld_seq = 0
        for i, c in enumerate(rec.after, 1):
            if c.kind == "melds":
                for m in c.melds:
                    meld_seq += 1
                    imp.row("melds", sid, seq, c.seat, meld_seq, i, m.text(), m.kind, "A" if m.kind == "four" else "B",
                            RANK_CHARS.get(m.rank, str(m.rank)), _SUITS[m.suit] if m.suit >= 0 else None, m.length,
                            m.value, (m in shown[c.seat]) if shown is not None else None)
        dixes = [(i, c, None, None) for i, c in enumerate(rec.after, 1) if c.kind == "dix"]
        dixes += [(i, c, t, k) for i, (t, k, c) in enumerate(in_tricks, 1) if c.kind == "dix"]
        turned = rec.turned if rec.turned is not None and rec.turned >= 0 else None
        for i, c, trick_no, after_cards in dixes:  # i: the calls.seq of the dix call in its phase
            imp.row("dix", sid, seq, c.seat, i, card_name(turned) if turned is not None else None,
                    card_name(make_card(turned >> 4, SEVEN)) if turned is not None else None,
                    st is not None and st.dix == c.seat, trick_no, after_cards)

    def trick_rows(self, imp, s, v) -> None:
        """Every card recorded; the winner and points where the replay reached (`Rules.trick_card_points`)."""
        rec, st, rules = v.record, v.state, self.rules
        if not rec.tricks:
            return
        table = POINTS[st.trump + 1] if st is not None and st.phase in (PLAY, DONE) else None
        history = st.history if st is not None else ()
        per_hand = rules.tricks_per_hand
        sid, seq = s.session_id, s.hands
        t_rows, p_rows = imp.buf["tricks"].rows, imp.buf["plays"].rows  # a tuple a row (`store._Columns`)
        ply = 0
        replayed = len(history)
        for k, t in enumerate(rec.tricks):
            number = t.number
            if k < replayed:
                leader, _, win = history[k]
                pts = rules.trick_card_points(st, k + 1)  # JJ-PTS-1/2
            else:  # past the replay: no winner (-2: nor whether a card won) and no points
                leader, win, pts = (t.plays[0].seat if t.plays else -1), -2, -1
            t_rows.append((sid, seq, number, leader, max(win, -1), t.winner if t.winner >= 0 else -1, pts,
                           1 if k + 1 == per_hand else 0, t.line or -1))
            for j, p in enumerate(t.plays, 1):
                ply += 1
                seat, c, comments = p.seat, p.card, p.comments
                row = (sid, seq, number, ply, j, seat, c if c >= 0 else -1,
                       table[c] if c >= 0 and table is not None else -1,
                       -1 if win == -2 else 1 if seat == win else 0, p.announce or None)
                p_rows.append(row + (dd_fields(comments) or _NO_DD) if comments else row + _NO_DD)
        s.plays += ply

    def seat_of(self, issue, rec, s) -> int | None:
        """The player an issue is about: the seat of the call or card it points at, or the player a wrong figure names."""
        loc = issue.loc
        try:
            if loc.trick is not None and loc.card:
                for t in rec.tricks:
                    if t.number == loc.trick:
                        return t.plays[loc.card - 1].seat
            if loc.step and loc.phase == "auction":
                return rec.auction[loc.step - 1].seat
            if loc.step and loc.phase == "after":
                return rec.after[loc.step - 1].seat
        except IndexError:
            return None
        if loc.phase == "deal" and issue.kind == "illegal" and rec.dealer >= 0:
            return rec.dealer  # a wrong deal is the dealer's
        if issue.kind == "score":
            for seat, name in enumerate(s.names):
                if issue.message.startswith(f"{name}'s "):
                    return seat
        return None

    def session_values(self, s, summary) -> tuple:
        rubbers = (s.header.get("Rubbers") or "").strip()
        return (int(rubbers) if plain_digits(rubbers) and not number_too_large("", rubbers) else None), summary.sheet.pool

    def sheet_rows(self, imp, s, summary) -> None:
        sheet, winner, sid = summary.sheet, summary.winner, s.session_id
        for col, label in enumerate(self.columns[:len(sheet.below)]):
            imp.row("session_sheet", sid, col, label, sheet.below[col], sheet.above[col], sheet.total[col],
                    sheet.games_total[col], sheet.rubbers[col], winner == col)
        for n, (rubber_winner, points) in enumerate(sheet.rubber_results, 1):
            for col in range(len(points)):
                imp.row("rubbers", sid, n, col, points[col], rubber_winner == col)


def _contract(st) -> tuple:
    """``contract, denomination, trump, declarer_seat, nullo_seat, mult, doubler_seat, slam, dix_seat`` of a
    Jo-Jotte state, as far as the replay went."""
    if st is None:
        return (None,) * 9
    if st.phase == VOID_HAND:
        return ("void",) + (None,) * 8
    if st.bidder < 0:
        return (None,) * 9
    if st.denomination == "nullo" or st.nullo_bidder >= 0:
        contract, denomination, trump, nullo = "nullo", "nullo", None, st.nullo_bidder
    elif st.denomination == "nt":
        contract, denomination, trump, nullo = "nt", "nt", None, None
    else:
        trump = _SUITS[st.trump] if st.trump >= 0 else None
        contract = "turned_suit" if st.turned >= 0 and st.trump == st.turned >> 4 else "other_suit"
        denomination, nullo = "suit", None
    return (contract, denomination, trump, st.bidder, nullo, st.mult, _opt(st.doubler), st.slam, _opt(st.dix))


def _call_values(c) -> tuple:
    """``seat, kind, suit, melds, line, col`` of one call."""
    return (c.seat, c.kind, _SUITS[c.suit] if c.kind == "name" and 0 <= c.suit < 4 else None,
            " ".join(m.text() for m in c.melds) if c.melds else None, c.line or None, c.column or None)


# --- the session ---------------------------------------------------------------------------

def add_session(imp, s, summary, key: str, content_hash: str, source: str, when: tuple) -> None:
    """The rows of a finished session: ``sessions``, ``players``, the sheet and its rubbers, the session's issues
    (its canonical text is in ``session_text``, a line a row); ``when``: the session's game (its
    registered name), date and year."""
    h, sid, form = s.header, s.session_id, s.form
    game, d, year = when
    rubbers_agreed, pool = form.session_values(s, summary)
    winners = summary.winners
    # the winner's name, as the sheet names its column: a player, or a side's players ("Nora & Sam")
    winner_name = " and ".join(summary.names[c] for c in winners) or None
    imp.row("sessions", sid, key, content_hash, imp.import_id, source, s.index, h.line or None, game,
            h.get("Event"), h.get("Site"), h.get("Date"), d, year, h.get("Round"), h.get("Table"), h.get("Players"),
            h.get("FirstDealer"), h.get("Variant"), rubbers_agreed, h.get("Scorer"),
            [{"name": k, "value": v} for k, v in h.tags], len(form.labels), summary.hands, summary.bad_hands,
            len(summary.issues), _opt(summary.winner), winner_name, pool)
    for seat, label in enumerate(form.labels):
        imp.row("players", sid, seat, label, s.names[seat], sheet_column(seat, form.labels, form.columns))
    form.sheet_rows(imp, s, summary)
    for i, issue in enumerate(summary.issues, 1):
        imp.issue(sid, None, i, issue, None)
