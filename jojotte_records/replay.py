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
from .games import first_dealer, player_names, rules_for
from .rules.base import CHANCE, Action, Violation, violation_message
from .rules.jojotte import DEAL, DONE, PLAY, VOID_HAND, HandScore, JJState, JojotteRules
from .rules.jojotte_sheet import ScoreSheet, SheetEntry
from .engine import Codec, HandRun, replay_hand
from .fast_jojotte import fast_for


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
        self.sheet_labels = cls.sheet_labels or self.labels
        self.sheet_names = cls.sheet_names(self.names)
        self.sheet = ScoreSheet.empty(len(self.sheet_labels))
        self.codec = JojotteCodec(rules)
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
        return violation_message(v, self.names)

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
            issues.append(Issue(v.rule, violation_message(v, self.names), loc(**kw), "illegal", see_also=v.see_also))

        # the dealer (JJ-DEAL-2; the first dealer by JJ-DEAL-1)
        if hand.dealer >= 0:
            v = self.wrong_dealer(hand.dealer, first=self.hands == 1)
            if v is not None:
                line, col = hand.mark("dealer") or (hand.line, 1)
                illegal(v, phase="deal", line=line, column=col)
            self.expected_dealer = self.rules.next_dealer(hand.dealer)
        rubbers_before = sum(self.sheet.rubbers)
        state = self._replay(hand, issues, unchecked)
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

    def _replay(self, hand: HandRecord, issues, unchecked):
        if hand.dealer < 0:
            return None
        run = HandRun(self.rules, self.names, issues, unchecked, self.source, self.session_index, hand.number)
        v = self.rules.check_dealer(hand.dealer)  # who may deal (the adviser in jojotte-3box does not)
        if v is not None:
            line, col = hand.mark("dealer") or (hand.line, 1)
            run.illegal(v, phase="deal", line=line, column=col)
            return None
        state = replay_hand(self.rules, self.codec, hand, run, hand.dealer)
        return None if state is None or state.phase == DEAL else state  # no deal: nothing to show

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
            if hand.claim >= 0:  # a claim the validator could not settle (unrecorded cards): the tricks are conceded
                issues.append(Issue("JJ-INV-3", f"only {state.tricks_done} of {rules.tricks_per_hand} tricks are recorded and"
                                    " the claim cannot be settled", loc(phase="trick", line=hand.line, column=1), "consistency"))
            elif state.tricks_done or state.trick:
                # §0.3: a missing trick cites JJ-PLAY-10 at the first trick that is missing
                missing = state.tricks_done + 1
                last = hand.tricks[-1] if hand.tricks else None
                issues.append(Issue("JJ-PLAY-10", f"trick {missing} is missing: only {state.tricks_done} of {rules.tricks_per_hand}"
                                    " tricks are recorded, and every trick is played in every contract (write 'claim X' for a"
                                    " conceded rest) (see also JJ-INV-3)", loc(phase="trick", trick=missing, line=last.line if last else hand.line,
                                                           column=1), "illegal", see_also=("JJ-INV-3",)))
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
        collects = winner >= 0 and not (nullo and self.rules.options.prisoners_skip_nullo)
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


# --- the Jo-Jotte record codec: a HandRecord as located steps ----------------------------

def _at_mark(hand: HandRecord, v: Violation, key: str, word: str):
    """The place of a chance action's fault: its own part (the turned or information card) when the
    violation names it, else the deal line."""
    at = hand.mark(key) if word in v.text else None
    line, col = at or hand.mark("deal") or (hand.line, 1)
    return dict(phase="deal", line=line, column=col), None


def _deal_where(hand, a, v):
    return _at_mark(hand, v, "turned", "turned card")


def _draw_where(hand, a, v):
    return _at_mark(hand, v, "info", "information card")


def _call_where(ctx, a, v):
    phase, i, call, earlier = ctx
    if v.at:  # the violation belongs to an earlier call, which this one showed to be illegal (JJ-DIX-1)
        i, call = next(((j, c) for j, c in enumerate(earlier[:i - 1], 1) if (c.kind, c.seat) == tuple(v.at)), (i, call))
    return dict(phase=phase, step=i, line=call.line, column=call.column), None


def _claim_where(hand, a, v):
    return dict(phase="trick", line=hand.line, column=1), None


def _play_where(t, p, v):
    return dict(phase="trick", trick=t.number, card=t.plays.index(p) + 1, line=p.line, column=p.column), None


class JojotteCodec(Codec):
    """A Jo-Jotte `HandRecord` as located steps: the deal (rebuilt from the play when no deal is recorded),
    the auction, the draw, the calls after the draw, the cards, then a claim. What the record leaves out
    (``?`` cards, a hand's first cards, the turned card) becomes unknowns of the chance actions; what it
    says wrongly is reported here with its place."""

    def __init__(self, rules: JojotteRules):
        self.rules = rules
        self._fast = fast_for(rules)

    def fast(self, hand: HandRecord, run: HandRun):
        return self._fast.hand(hand) if self._fast is not None else None

    def steps(self, hand: HandRecord, run: HandRun):
        rules = self.rules
        seats = rules.seats
        names = run.names
        dealer = hand.dealer
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
            run.note("JJ-INV-2", "no deal recorded for " + " and ".join(names[s] for s in rebuilt)
                     + ": the hand was rebuilt from the cards played, so the first six cards are not known",
                     "unchecked", phase="deal", line=hand.line, column=1)
        init = []
        unknown = []
        draw_cards = []
        for seat in range(seats):
            d = dealt[seat]
            n_dealt = rules.dealt_to(seat, dealer)
            if d is None:
                init.append(0)
                unknown.append(n_dealt)
                draw_cards.append(0)
                continue
            full_after = not split and (len(d) > n_dealt or seat in rebuilt)
            if full_after:
                init.append(0)
                unknown.append(0)
                draw_cards.append(mask_of(c for c in d if c != UNKNOWN_CARD))
            else:
                init.append(mask_of(d) if UNKNOWN_CARD not in d else mask_of(c for c in d if c != UNKNOWN_CARD))
                unknown.append(n_dealt - init[-1].bit_count())
                dr = drawn[seat] if split else None
                draw_cards.append((mask_of(dr) if UNKNOWN_CARD not in dr else mask_of(c for c in dr if c != UNKNOWN_CARD)) if dr else 0)
        turned = hand.turned if hand.turned is not None else -1
        deal = rules.deal_action(tuple(init), turned, tuple(unknown), tuple(draw_cards))
        # the number of cards of each hand (JJ-DEAL-3); a seat that may hold no card at all (the dealer in
        # jojotte-4s, the adviser in jojotte-3box) is left to the deal's own check, which comes first
        holds_none = any(m and not rules.dealt_to(s, dealer) + rules.drawn_to(s, dealer)
                         for s, m in enumerate(i | d for i, d in zip(init, draw_cards)))
        for seat in range(seats) if not holds_none else ():
            d = dealt[seat]
            if d is not None and seat not in rebuilt:
                n_dealt, n_drawn = rules.dealt_to(seat, dealer), rules.drawn_to(seat, dealer)
                expected = n_dealt + (0 if void_auction else n_drawn)
                have = len(d) + (len(drawn[seat]) if split and drawn[seat] else 0)
                if have not in (n_dealt, expected) or (split and have != expected and not void_auction):
                    run.note("JJ-DEAL-3", f"{names[seat]}'s hand has {have} cards; a hand has {n_dealt} dealt"
                             f" and {n_drawn} drawn", "consistency", phase="deal", line=hand.line, column=1)
                    run.state = None
                    return
        yield deal, _deal_where, hand
        state = run.state
        if hand.stock is not None:
            dup = mask_of(hand.stock) & (state.seen | mask_of(c for m in draw_cards for c in iter_cards(m)))
            if dup or len(set(hand.stock)) != len(hand.stock):
                run.illegal(Violation("JJ-INV-1", "a card of the stock is also dealt, drawn or turned"),
                            phase="deal", line=hand.line, column=1)
                run.state = None
                return
        if turned < 0 and not void_auction:
            run.note("JJ-DIX-1", "the turned card was not recorded: round-1 suit and the dix exchange were checked as far as possible",
                     "unchecked", phase="deal", line=hand.line, column=1)
        # --- the auction
        for i, call in enumerate(hand.auction, 1):
            state = run.state
            if state.phase != "auction":
                run.illegal(rules.call_after_end(state, call.seat, call.kind),
                            phase="auction", step=i, line=call.line, column=call.column)
                return
            if call.kind == "accept" and turned < 0:
                run.note("JJ-BID-1", "the suit accepted is not known (no turned card recorded)",
                         "unchecked", phase="auction", step=i, line=call.line, column=call.column)
                return
            yield Action(call.seat, call.kind, suit=call.suit), _call_where, ("auction", i, call, hand.auction)
        state = run.state
        if state.phase == "auction":
            if hand.auction or hand.tricks or hand.after:
                run.note("JJ-BID-1", "the auction stops before the bidding is over", "consistency",
                         phase="auction", line=hand.line, column=1)
            else:
                run.note("JJ-BID-1", "no auction recorded: nothing of the hand can be checked", "unchecked",
                         phase="auction", line=hand.line, column=1)
            run.state = None  # nothing to score
            return
        if state.phase == VOID_HAND:
            if hand.after or hand.tricks:
                c = (hand.after or hand.tricks)[0]
                run.illegal(Violation("JJ-BID-12", "all passed, so the hand is void and nothing is played"),
                            phase="after", line=c.line, column=c.column)
            return
        # --- the draw (a chance event)
        yield Action(CHANCE, "draw", cards=tuple(draw_cards), info=hand.info if hand.info is not None else -1), _draw_where, hand
        state = run.state
        if any(state.unknown):
            who = [names[s] for s in range(len(state.unknown)) if state.unknown[s]]
            run.note("JJ-PLAY-3", f"part of the hand of {' and '.join(who)} was not recorded: following suit, melds and"
                     " announcements were checked only against the known cards", "unchecked",
                     phase="deal", line=hand.line, column=1)
        # --- after the draw
        for i, call in enumerate(hand.after, 1):
            state = run.state
            if state.phase not in ("after", PLAY) or (state.phase == PLAY and call.kind != "dix"):
                run.illegal(Violation("JJ-POST-9", f"{call.kind.upper()} by {{p{call.seat}}} comes after the calls after the draw are over"),
                            phase="after", step=i, line=call.line, column=call.column)
                return
            yield Action(call.seat, call.kind, melds=call.melds), _call_where, ("after", i, call, hand.after)
        state = run.state
        if state.phase == "after":
            if hand.tricks:
                t = hand.tricks[0]
                who = rules.current_player(state)
                run.illegal(Violation("JJ-POST-9", f"trick play starts before the calls after the draw are over ({{p{who}}} has not called)"),
                            phase="after", line=t.line, column=t.column)
            else:
                run.note("JJ-POST-1", "the calls after the draw are not complete", "consistency",
                         phase="after", line=hand.line, column=1)
            return
        # --- the tricks: a `Play` is the play action itself (seat, card, announce)
        done_phase, unknown_card, trick_size = DONE, UNKNOWN_CARD, rules.trick_size
        for t in hand.tricks:
            for p in t.plays:
                if p.card == unknown_card or run.state.phase == done_phase:
                    j = t.plays.index(p) + 1
                    if p.card == unknown_card:
                        run.note("JJ-INV-2", f"trick {t.number}: a card was not recorded; the rest of the play is not checked",
                                 "unchecked", phase="trick", trick=t.number, card=j, line=p.line, column=p.column)
                        return
                    run.illegal(Violation("JJ-INV-2", f"all {rules.tricks_per_hand} tricks were already played"),
                                phase="trick", trick=t.number, card=j, line=p.line, column=p.column)
                    return
                yield p, _play_where, t
            if len(t.plays) != trick_size:
                run.note("JJ-INV-2", f"trick {t.number} has {len(t.plays)} cards, not {trick_size}", "consistency",
                         phase="trick", trick=t.number, line=t.line, column=t.column)
                return
            state = run.state
            if t.winner >= 0 and state.history:
                real = state.history[-1][2]
                if real != t.winner:
                    run.note("JJ-PLAY-8", f"trick {t.number} is written as won by {names[t.winner]}, but {names[real]}"
                             f" wins it with {card_name(next(p.card for p in t.plays if p.seat == real))}", "consistency",
                             phase="trick", trick=t.number, line=t.line, column=t.column)
        if hand.claim >= 0 and run.state.phase == PLAY:
            if any(run.state.unknown):
                run.note("JJ-INV-3", "a claim with unrecorded cards: the points of the remaining tricks are not known",
                         "unchecked", phase="trick", line=hand.line, column=1)
                return
            yield Action(hand.claim, "claim"), _claim_where, hand

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
