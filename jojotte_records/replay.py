"""The replay validator: re-runs every call and card of a record through the rules core.

`SessionValidator` takes a session's header, then its hands one at a time
(so a file of any size is checked in bounded memory). For each hand it finds
the first illegal event, recomputes the score, writes it on the `ScoreSheet`
and compares it with the figures written at the table. Everything it finds is
an `Issue` with a rule ID and a location.
"""

from __future__ import annotations

from typing import Iterable, Iterator, NamedTuple

from .cards import card_name, iter_cards, make_card, mask_of, SEVEN
from .errors import Issue, Location, number_too_large
from .record import UNKNOWN_CARD, Call, HandRecord, SessionHeader
from .games import first_dealer, read_players, rules_for
from .rules.base import CHANCE, Action, Violation, format_message
from .rules.jojotte import DONE, PLAY, VOID_HAND, HandScore, JJState, JojotteRules
from .rules.jojotte_sheet import ScoreSheet, SheetEntry


class HandVerdict(NamedTuple):
    """What the validator found in one hand."""

    number: int
    record: HandRecord
    issues: tuple[Issue, ...]  # errors: syntax, illegal events, wrong scores, contradictions
    unchecked: tuple[Issue, ...]  # checks the record's information did not allow
    score: HandScore | None
    entry: SheetEntry | None  # what the hand wrote on the sheet (None if it could not be scored)
    state: JJState | None  # the last state reached by the replay
    sheet: ScoreSheet  # the sheet after this hand
    used_written_score: bool = False  # the sheet took the written figures (hand illegal or incomplete)

    @property
    def ok(self) -> bool:
        return not self.issues

    @property
    def first_illegal(self) -> Issue | None:
        return next((i for i in self.issues if i.kind == "illegal"), None)


class SessionSummary(NamedTuple):
    header: SessionHeader
    hands: int
    bad_hands: int
    sheet: ScoreSheet
    issues: tuple[Issue, ...]  # session-level issues (header, session length)
    winner: int
    labels: tuple[str, ...]  # the score sheet's columns: the players, or the sides in a partnership game
    names: tuple[str, ...]
    seat_labels: tuple[str, ...] = ()  # the players' seats and names (the same as above but for sides)
    seat_names: tuple[str, ...] = ()


def player_names(header: SessionHeader, labels: tuple[str, ...]) -> tuple[str, ...]:
    return read_players(header, labels)[0] or labels


class SessionValidator:
    """Checks one session hand by hand. Build it from the header, feed `check_hand`, then call `finish`."""

    def __init__(self, header: SessionHeader, session_index: int = 1):
        self.header = header
        self.session_index = session_index
        self.source = header.source
        rules, issues = rules_for(header)
        self.session_issues: list[Issue] = list(header.issues) + issues
        self.rules: JojotteRules = rules  # type: ignore[assignment]
        cls = type(rules)
        self.labels = cls.seat_labels
        self.names = player_names(header, self.labels)
        # the sheet has a column per player, or per side (JJ4P-SCORE-1, JJ3-ALT-1)
        self.sheet_labels = getattr(cls, "sheet_labels", self.labels)
        self.sheet_names = cls.sheet_names(self.names) if hasattr(cls, "sheet_names") else self.names
        self.sheet = ScoreSheet.empty(len(self.sheet_labels))
        self.expected_dealer = self._first_dealer()
        self.hands = 0
        self.bad_hands = 0
        self.agreed_rubbers = None
        r = header.get("Rubbers")
        if r and (big := number_too_large("rubbers", r.strip())) and r.strip().isdigit():
            self.session_issues.append(Issue("NOTATION", f"[Rubbers \"{r}\"]: {big}", Location(source=self.source, line=header.tag_line("Rubbers"), column=1), "syntax"))
        elif r:
            try:
                self.agreed_rubbers = int(r)
            except ValueError:
                self.session_issues.append(Issue("NOTATION", f"[Rubbers \"{r}\"] is not a number", Location(source=self.source, line=header.tag_line("Rubbers"), column=1), "syntax"))

    def _first_dealer(self) -> int:
        return first_dealer(self.header, self.labels, self.names, self.session_issues)

    def msg(self, v: Violation) -> str:
        return format_message(v.text, self.names)

    def wrong_dealer(self, dealer: int, first: bool) -> Violation | None:
        """Why ``dealer`` may not deal the next hand (``first``: the session's first), or None: the deal alternates
        (JJ-DEAL-2) from the ``[FirstDealer]`` (JJ-DEAL-1), and is cut again for each rubber under
        ``recut_each_rubber``."""
        exp = self.expected_dealer
        if exp < 0 or dealer == exp or (not self.sheet.rubber_in_progress and self.rules.options.recut_each_rubber):
            return None
        if first:
            return Violation("JJ-DEAL-1", f"{{p{dealer}}} deals, but it is {{p{exp}}}'s deal ([FirstDealer])")
        return Violation("JJ-DEAL-2", f"{{p{dealer}}} deals, but it is {{p{exp}}}'s deal (the deal alternates)")

    # --- one hand -----------------------------------------------------------------
    def check_hand(self, hand: HandRecord) -> HandVerdict:
        self.hands += 1
        issues: list[Issue] = list(hand.issues)
        unchecked: list[Issue] = []
        n = hand.number
        src = self.source

        def loc(**kw) -> Location:
            return Location(source=src, session=self.session_index, hand=n, **kw)

        def illegal(v: Violation, **kw):
            issues.append(Issue(v.rule, self.msg(v), loc(**kw), "illegal"))

        # the dealer (JJ-DEAL-2; the first dealer by JJ-DEAL-1)
        if hand.dealer >= 0:
            v = self.wrong_dealer(hand.dealer, first=self.hands == 1)
            if v is not None:
                line, col = hand.mark("dealer") or (hand.line, 1)
                illegal(v, phase="deal", line=line, column=col)
            self.expected_dealer = self.rules.next_dealer(hand.dealer)
        rubbers_before = sum(self.sheet.rubbers)
        state, _ = self._replay(hand, issues, unchecked, loc, illegal)
        score: HandScore | None = None
        if state is not None and not any(i.kind in ("illegal", "syntax") for i in issues):
            score = self._score(hand, state, issues, unchecked, loc)
        entry: SheetEntry | None = None
        used_written = False
        if score is not None:
            self.sheet, entry = self.sheet.add(score, self.rules.options)
            if hand.score is not None:
                self._compare_written(hand, entry, issues, loc)
        elif hand.score is not None:
            # the hand cannot be scored from its events: the sheet goes on with what was written
            used_written = True
            self.sheet = self._add_written(hand)
            unchecked.append(Issue("JJ-SCORE-1", "the hand could not be scored from its events; the session sheet uses the written score",
                                   loc(phase="score", line=hand.score.line, column=hand.score.column), "unchecked"))
        else:
            unchecked.append(Issue("JJ-SCORE-1", "the hand could not be scored and has no written score; the sheet skips it",
                                   loc(phase="score", line=hand.line, column=1), "unchecked"))
        if self.agreed_rubbers is not None and rubbers_before >= self.agreed_rubbers:
            issues.append(Issue("JJ-SESSION-1", f"the session was agreed at {self.agreed_rubbers} rubber(s), which were finished before this hand",
                                loc(phase="sheet", line=hand.line, column=1), "consistency"))
        if issues:
            self.bad_hands += 1
        return HandVerdict(n, hand, tuple(issues), tuple(unchecked), score, entry, state, self.sheet, used_written)

    def _replay(self, hand: HandRecord, issues, unchecked, loc, illegal):
        rules = self.rules
        seats = rules.seats
        if hand.dealer < 0:
            return None, None
        # --- the cards of each hand: dealt, drawn, or rebuilt from the play
        dealt = list(hand.dealt)
        drawn = list(hand.drawn) if hand.drawn is not None else [None] * seats
        split = hand.split
        void_auction = _is_void_auction(hand.auction, rules.bidders)
        rebuilt = []
        for seat in range(seats):
            if dealt[seat] is None and not void_auction:
                cards = self._rebuild(hand, seat)
                if cards is not None:
                    dealt[seat] = cards
                    drawn[seat] = None
                    rebuilt.append(seat)
        if rebuilt:
            unchecked.append(Issue("JJ-INV-2", "no deal recorded for " + " and ".join(self.names[s] for s in rebuilt)
                                   + ": the hand was rebuilt from the cards played, so the first six cards are not known",
                                   loc(phase="deal", line=hand.line, column=1), "unchecked"))
        init = []
        unknown = []
        draw_cards = []
        for seat in range(seats):
            d = dealt[seat]
            if d is None:
                init.append(0)
                unknown.append(rules.dealt_to(seat, hand.dealer))
                draw_cards.append(0)
                continue
            full_after = not split and (len(d) > rules.dealt_to(seat, hand.dealer) or seat in rebuilt)
            if full_after:
                init.append(0)
                unknown.append(0)
                draw_cards.append(mask_of(c for c in d if c != UNKNOWN_CARD))
            else:
                init.append(mask_of(d) if UNKNOWN_CARD not in d else mask_of(c for c in d if c != UNKNOWN_CARD))
                unknown.append(rules.dealt_to(seat, hand.dealer) - init[-1].bit_count())
                dr = drawn[seat] if split else None
                draw_cards.append((mask_of(dr) if UNKNOWN_CARD not in dr else mask_of(c for c in dr if c != UNKNOWN_CARD)) if dr else 0)
        # who may deal, and who may hold cards at all (the dealer in jojotte-4s, the adviser in jojotte-3box)
        for held, mark in (((0,) * seats, "dealer"), (tuple(i | d for i, d in zip(init, draw_cards)), "deal")):
            v = rules.check_seating(hand.dealer, held)
            if v is not None:
                line, col = hand.mark(mark) or (hand.line, 1)
                illegal(v, phase="deal", line=line, column=col)
                return None, None
        for seat in range(seats):
            d = dealt[seat]
            if d is not None and seat not in rebuilt:
                n_dealt, n_drawn = rules.dealt_to(seat, hand.dealer), rules.drawn_to(seat, hand.dealer)
                expected = n_dealt + (0 if void_auction else n_drawn)
                have = len(d) + (len(drawn[seat]) if split and drawn[seat] else 0)
                if have not in (n_dealt, expected) or (split and have != expected and not void_auction):
                    issues.append(Issue("JJ-DEAL-3", f"{self.names[seat]}'s hand has {have} cards; a hand has {n_dealt} dealt"
                                        f" and {n_drawn} drawn", loc(phase="deal", line=hand.line, column=1), "consistency"))
                    return None, None
        turned = hand.turned if hand.turned is not None else -1
        v = rules.check_deal(tuple(init), turned)
        if v is not None:
            at = hand.mark("turned") if "turned card" in v.text else None
            line, col = at or hand.mark("deal") or (hand.line, 1)
            illegal(v, phase="deal", line=line, column=col)
            return None, None
        state = rules.initial_state(hand.dealer, tuple(init), turned, tuple(unknown))
        if hand.stock is not None:
            dup = mask_of(hand.stock) & (state.seen | mask_of(c for m in draw_cards for c in iter_cards(m)))
            if dup or len(set(hand.stock)) != len(hand.stock):
                illegal(Violation("JJ-INV-1", "a card of the stock is also dealt, drawn or turned"), phase="deal", line=hand.line, column=1)
                return None, None
        if turned < 0 and not void_auction:
            unchecked.append(Issue("JJ-DIX-1", "the turned card was not recorded: round-1 suit and the dix exchange were checked as far as possible",
                                   loc(phase="deal", line=hand.line, column=1), "unchecked"))
        # --- the auction
        for i, call in enumerate(hand.auction, 1):
            if state.phase != "auction":
                illegal(rules.call_after_end(state, call.seat, call.kind),
                        phase="auction", step=i, line=call.line, column=call.column)
                return state, None
            if call.kind == "accept" and turned < 0:
                unchecked.append(Issue("JJ-BID-1", "the suit accepted is not known (no turned card recorded)",
                                       loc(phase="auction", step=i, line=call.line, column=call.column), "unchecked"))
                return state, None
            a = Action(call.seat, call.kind, suit=call.suit)
            v = rules.check(state, a)
            if v is not None:
                illegal(v, phase="auction", step=i, line=call.line, column=call.column)
                return state, None
            state = rules._next(state, a)
        if state.phase == "auction":
            if hand.auction or hand.tricks or hand.after:
                issues.append(Issue("JJ-BID-1", "the auction stops before the bidding is over", loc(phase="auction", line=hand.line, column=1), "consistency"))
            else:
                unchecked.append(Issue("JJ-BID-1", "no auction recorded: nothing of the hand can be checked", loc(phase="auction", line=hand.line, column=1), "unchecked"))
            return None, None
        if state.phase == VOID_HAND:
            if hand.after or hand.tricks:
                c = (hand.after or hand.tricks)[0]
                illegal(Violation("JJ-BID-12", "all passed, so the hand is void and nothing is played"), phase="after", line=c.line, column=c.column)
                return state, None
            return state, None
        # --- the draw (a chance event)
        info = hand.info if hand.info is not None else -1
        a = Action(CHANCE, "draw", cards=tuple(draw_cards), info=info)
        v = rules.check(state, a)
        if v is not None:
            at = hand.mark("info") if "information card" in v.text else None
            line, col = at or hand.mark("deal") or (hand.line, 1)
            illegal(v, phase="deal", line=line, column=col)
            return state, None
        state = rules._next(state, a)
        state = state._replace(unknown=tuple(rules.dealt_to(s, hand.dealer) + rules.drawn_to(s, hand.dealer) - h.bit_count()
                                             for s, h in enumerate(state.hands)))
        if any(state.unknown):
            who = [self.names[s] for s in range(len(state.unknown)) if state.unknown[s]]
            unchecked.append(Issue("JJ-PLAY-3", f"part of the hand of {' and '.join(who)} was not recorded: following suit, melds and"
                                   " announcements were checked only against the known cards", loc(phase="deal", line=hand.line, column=1), "unchecked"))
        # --- after the draw
        for i, call in enumerate(hand.after, 1):
            if state.phase not in ("after", PLAY) or (state.phase == PLAY and call.kind != "dix"):
                illegal(Violation("JJ-POST-9", f"{call.kind.upper()} by {{p{call.seat}}} comes after the calls after the draw are over"),
                        phase="after", step=i, line=call.line, column=call.column)
                return state, None
            a = Action(call.seat, call.kind, melds=call.melds)
            v = rules.check(state, a)
            if v is not None:
                illegal(v, phase="after", step=i, line=call.line, column=call.column)
                return state, None
            state = rules._next(state, a)
        if state.phase == "after":
            if hand.tricks:
                t = hand.tricks[0]
                who = rules.current_player(state)
                illegal(Violation("JJ-POST-9", f"trick play starts before the calls after the draw are over ({{p{who}}} has not called)"),
                        phase="after", line=t.line, column=t.column)
            else:
                issues.append(Issue("JJ-POST-1", "the calls after the draw are not complete", loc(phase="after", line=hand.line, column=1), "consistency"))
            return state, None
        # --- the tricks
        check_play, next_play = rules._check_play, rules._next_play
        done_phase, unknown_card = DONE, UNKNOWN_CARD
        for t in hand.tricks:
            for p in t.plays:
                if state.phase == done_phase or p.card == unknown_card:
                    j = t.plays.index(p) + 1
                    if p.card == unknown_card:
                        unchecked.append(Issue("JJ-INV-2", f"trick {t.number}: a card was not recorded; the rest of the play is not checked",
                                               loc(phase="trick", trick=t.number, card=j, line=p.line, column=p.column), "unchecked"))
                        return state, "unknown-card"
                    illegal(Violation("JJ-INV-2", f"all {rules.tricks_per_hand} tricks were already played"),
                            phase="trick", trick=t.number, card=j, line=p.line, column=p.column)
                    return state, None
                # a Play has the seat, card and announce that the play functions read
                v = check_play(state, p)
                if v is not None:
                    illegal(v, phase="trick", trick=t.number, card=t.plays.index(p) + 1, line=p.line, column=p.column)
                    return state, None
                state = next_play(state, p)
            if len(t.plays) != rules.trick_size:
                issues.append(Issue("JJ-INV-2", f"trick {t.number} has {len(t.plays)} cards, not {rules.trick_size}",
                                    loc(phase="trick", trick=t.number, line=t.line, column=t.column), "consistency"))
                return state, None
            if t.winner >= 0 and state.history:
                real = state.history[-1][2]
                if real != t.winner:
                    issues.append(Issue("JJ-PLAY-8", f"trick {t.number} is written as won by {self.names[t.winner]}, but {self.names[real]}"
                                        f" wins it with {card_name(next(p.card for p in t.plays if p.seat == real))}",
                                        loc(phase="trick", trick=t.number, line=t.line, column=t.column), "consistency"))
        if hand.claim >= 0 and state.phase == PLAY:
            state = self._apply_claim(state, hand.claim, unchecked, loc, hand)
        return state, None

    def _rebuild(self, hand: HandRecord, seat: int) -> tuple[int, ...] | None:
        cards = [p.card for t in hand.tricks for p in t.plays if p.seat == seat]
        if len(cards) != self.rules.tricks_per_hand or UNKNOWN_CARD in cards:
            return None
        if any(c.kind == "dix" and c.seat == seat for c in hand.after):
            if hand.turned is None:
                return None
            trump = hand.turned >> 4
            cards = [make_card(trump, SEVEN) if c == hand.turned else c for c in cards]
        return tuple(cards)

    def _apply_claim(self, state: JJState, claimer: int, unchecked, loc, hand) -> JJState:
        if any(state.unknown):
            unchecked.append(Issue("JJ-INV-3", "a claim with unrecorded cards: the points of the remaining tricks are not known",
                                   loc(phase="trick", line=hand.line, column=1), "unchecked"))
            return state
        from .rules.jojotte_cards import trick_points

        rest = self.rules.tricks_per_hand - state.tricks_done
        remaining = mask_of(state.trick)
        for seat in self.rules.playing_seats(state):
            remaining |= state.hands[seat]
        # the conceded tricks carry their cards and the last trick to the claimer
        pts = trick_points(tuple(iter_cards(remaining)), state.trump, True, state.denomination == "nullo")
        card_pts = tuple(p + pts if i == claimer else p for i, p in enumerate(state.card_pts))
        won = tuple(w + rest if i == claimer else w for i, w in enumerate(state.won))
        return state._replace(phase=DONE, card_pts=card_pts, won=won, tricks_done=self.rules.tricks_per_hand,
                              last_trick=claimer, hands=(0,) * len(state.hands), trick=())

    # --- scoring --------------------------------------------------------------------
    def _score(self, hand: HandRecord, state: JJState, issues, unchecked, loc) -> HandScore | None:
        rules = self.rules
        if state.phase == VOID_HAND:
            return rules.score_hand(state)
        if state.phase == DONE:
            score = rules.score_hand(state)
            if hand.result:
                for r in hand.result:
                    got_tricks, got_points = rules.seat_result(state, score, r.seat)
                    if r.tricks != got_tricks or r.points != got_points:
                        issues.append(Issue("JJ-PTS-4", f"the result line gives {self.names[r.seat]} {r.tricks} tricks and {r.points} points,"
                                            f" but the play gives {got_tricks} tricks and {got_points} points",
                                            loc(phase="score", line=hand.line, column=1), "consistency"))
            return score
        if state.phase == PLAY and state.tricks_done == 0 and not state.trick and hand.result:
            # a hand recorded as auction and result only
            won = [0] * rules.seats
            pts = [0] * rules.seats
            for r in hand.result:
                won[r.seat] = r.tricks
                pts[r.seat] = r.points
            if sum(won) != rules.tricks_per_hand:
                issues.append(Issue("JJ-INV-3", f"the result gives {sum(won)} tricks in all, not {rules.tricks_per_hand}",
                                    loc(phase="score", line=hand.line, column=1), "consistency"))
                return None
            if not any(state.unknown):
                from .rules.jojotte_cards import JOJOTTE, trick_points

                in_play = 0
                for seat in rules.playing_seats(state):
                    in_play |= state.hands[seat]
                # JJ-INV-4: the cards in play and the last trick, as if one trick took them all
                value = trick_points(tuple(iter_cards(in_play)), state.trump, True, state.denomination == "nullo")
                allowed = {value} if state.denomination != "suit" else {value, value + JOJOTTE}
                if sum(pts) not in allowed:
                    issues.append(Issue("JJ-INV-4", f"the trick points add up to {sum(pts)}, but the cards in play are worth "
                                        + " or ".join(str(x) for x in sorted(allowed)), loc(phase="score", line=hand.line, column=1), "consistency"))
                    return None
            unchecked.append(Issue("JJ-PLAY-3", "no tricks recorded: the card play was not checked; the score uses the result line",
                                   loc(phase="trick", line=hand.line, column=1), "unchecked"))
            # who won the last trick is unknown; it is inside the trick points given
            return rules.score_hand(state._replace(phase=DONE, won=tuple(won)), won=tuple(won), trick_scores=tuple(pts))
        if state.phase == PLAY:
            if state.tricks_done or state.trick:
                issues.append(Issue("JJ-INV-3", f"only {state.tricks_done} of {rules.tricks_per_hand} tricks are recorded (write 'claim X' for a conceded rest)",
                                    loc(phase="trick", line=hand.line, column=1), "consistency"))
            else:
                unchecked.append(Issue("JJ-PLAY-3", "no tricks and no result recorded: the hand cannot be scored from its events",
                                       loc(phase="trick", line=hand.line, column=1), "unchecked"))
        return None

    def _compare_written(self, hand: HandRecord, entry: SheetEntry, issues, loc) -> None:
        w = hand.score
        for seat in range(len(self.sheet_labels)):
            for line, written, real in (("below", w.below[seat], entry.below(seat)), ("above", w.above[seat], entry.above(seat))):
                if written == real:
                    continue
                parts = [c for c in entry.credits if c.seat == seat and c.line == line]
                rule = _rule_for_difference(parts, real - written, line)
                if not parts:
                    breakdown = "nothing goes there in this hand"
                elif len(parts) == 1:
                    breakdown = parts[0].why
                else:
                    breakdown = " + ".join(f"{c.amount} for {c.why} [{c.rule}]" for c in parts)
                issues.append(Issue(rule, f"{self.sheet_names[seat]}'s score {line} the line is written {written}, but is {real}: {breakdown}",
                                    loc(phase="score", line=w.line, column=w.column), "score"))
        if w.aside != entry.held_aside:
            issues.append(Issue("JJ-PRIS-1", f"{w.aside} points are written as held aside, but the hand holds aside {entry.held_aside}",
                                loc(phase="score", line=w.line, column=w.column), "score"))

    def _add_written(self, hand: HandRecord) -> ScoreSheet:
        """Go on with the written figures of a hand that cannot be scored from its events.

        The hand's winner (who collects the held-aside pool, JJ-PRIS-3) is read from the figures: the
        seat written below the line; in a Nullo hand (a Nullo bid and no Slam) the seat with most above;
        a hand that puts points aside with nothing below is a tie; otherwise the seat with most above.
        """
        from .rules.jojotte import Credit, HandScore

        w = hand.score
        n = len(self.sheet_labels)
        credits = []
        for seat in range(n):
            if w.below[seat]:
                credits.append(Credit(seat, "below", w.below[seat], "JJ-SCORE-1", "as written"))
            if w.above[seat]:
                credits.append(Credit(seat, "above", w.above[seat], "JJ-SCORE-1", "as written"))
        nullo = any(c.kind == "nullo" for c in hand.after) and not any(c.kind == "slam" for c in hand.after)
        winner = -1
        if any(w.below) and not nullo:
            winner = max(range(n), key=lambda s: w.below[s])
        elif nullo and any(w.above):
            winner = max(range(n), key=lambda s: w.above[s])
        elif not w.aside and any(w.above):
            winner = max(range(n), key=lambda s: w.above[s])
        zero = (0,) * n
        score = HandScore(zero, zero, zero, zero, tuple(credits), w.aside, winner, zero, nullo=nullo)
        # the written figures already hold any held-aside award: the pool is emptied, not paid twice
        collects = winner >= 0 and not (nullo and getattr(self.rules.options, "prisoners_skip_nullo", False))
        sheet = self.sheet._replace(pool=self.sheet.pool if not collects else 0)
        sheet, _ = sheet.add(score, self.rules.options)
        return sheet

    def finish(self) -> SessionSummary:
        issues = list(self.session_issues)
        return SessionSummary(self.header, self.hands, self.bad_hands, self.sheet, tuple(issues),
                              self.sheet.session_winner(self.rules.options), self.sheet_labels, self.sheet_names,
                              self.labels, self.names)


def _rule_for_difference(parts, diff: int, line: str) -> str:
    """The rule behind a wrong figure: the credit that accounts for the difference, if one does."""
    for c in parts:
        if c.amount == abs(diff):
            return c.rule
    if parts:
        return max(parts, key=lambda c: c.amount).rule
    return "JJ-SCORE-9" if line == "below" else "JJ-SCORE-7"


def _is_void_auction(calls: tuple[Call, ...], seats: int) -> bool:
    return len(calls) == 2 * seats and all(c.kind == "pass" for c in calls)


# --- driving it over files -------------------------------------------------------

def session_validator(header: SessionHeader, index: int = 1):
    """The validator of a session's game: `SessionValidator`, or `events.EventSessionValidator` for Pitch and Baloot."""
    from .games import is_event_game

    if is_event_game(header):
        from .events import EventSessionValidator

        return EventSessionValidator(header, index)
    return SessionValidator(header, index)


def validate_stream(items: Iterable, keep_hands: bool = True, on_hand=None) -> Iterator[tuple[SessionSummary, list[HandVerdict]]]:
    """Validate what `notation.iter_records` (or `records.iter_json_records`) yields, session by session.

    With ``keep_hands=False`` only hands with issues are kept (bounded memory);
    ``on_hand(verdict)`` is called for every hand.
    """
    validator: SessionValidator | None = None
    kept: list[HandVerdict] = []
    index = 0
    for item in items:
        if isinstance(item, SessionHeader):
            if validator is not None:
                yield validator.finish(), kept
            index += 1
            validator = session_validator(item, index)
            kept = []
            continue
        if validator is None:
            index += 1
            validator = SessionValidator(SessionHeader(()), index)
        verdict = validator.check_hand(item)
        if on_hand is not None:
            on_hand(verdict)
        if keep_hands or verdict.issues:
            kept.append(verdict)
    if validator is not None:
        yield validator.finish(), kept
