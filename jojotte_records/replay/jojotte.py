"""The replay validator of every game: re-runs every call and card of a record through the rules core.

`SessionValidator` takes a session's header, then its hands one at a time
(so a file of any size is checked in bounded memory). For each hand it finds
the first illegal event, recomputes the score, writes it on the game's sheet
and compares it with the figures written at the table. Everything it finds is
an `Issue` with a rule ID and a location. The Jo-Jotte record codec
(`JojotteCodec`) is here; the event-log one is `events.EventCodec`.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator, NamedTuple

from ..cards import SEVEN, card_name, iter_cards, make_card, mask_of
from ..errors import Issue, Location, number_too_large, plain_digits
from ..games import first_dealer, player_names, rules_for
from ..notation.model import UNKNOWN_CARD, Call, EventHand, HandRecord, SessionHeader
from ..notation.text import CompactHand
from ..rules.base import CHANCE, Action, Rules, Violation, violation_message
from ..rules.jojotte import DEAL, DONE, PLAY, VOID_HAND, HandScore, JJState, JojotteRules
from ..rules.jojotte_cards import JOJOTTE, trick_points
from . import engine
from .engine import Codec, HandRun, replay_hand
from .event_log import EventCodec
from .fast_jojotte import fast_for


class HandVerdict(NamedTuple):
    """What the validator found in one hand, of any game."""

    number: int
    record: HandRecord | EventHand
    issues: tuple[Issue, ...]  # errors: syntax, illegal events, wrong scores, contradictions
    unchecked: tuple[Issue, ...]  # checks the record's information did not allow
    score: Any  # the game's hand score (``delta``, ``credits``), None if the hand could not be scored
    entry: Any  # what the hand wrote on the sheet (`Rules.add_score`: ``delta``, ``credits``), None if not scored
    state: Any  # the last state reached by the replay
    sheet: Any  # the sheet after this hand
    used_written_score: bool = False  # the sheet took the written figures (hand illegal or incomplete)
    actions: tuple[Action, ...] = ()  # the legal actions replayed, in order (a codec that keeps them)

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
    sheet: Any
    issues: tuple[Issue, ...]  # session-level issues (header, session length)
    winners: tuple[int, ...]  # the columns that win the session or game, () for none (yet) or a tie
    labels: tuple[str, ...]  # the score sheet's columns: the players, or the sides in a partnership game
    names: tuple[str, ...]
    seat_labels: tuple[str, ...]  # the players' seats and names (the same as above but for sides)
    seat_names: tuple[str, ...]
    rules: Rules

    @property
    def winner(self) -> int:
        return self.winners[0] if len(self.winners) == 1 else -1


class SessionValidator:
    """Checks one session of any game hand by hand: build it from the header, feed `check_hand`, then call
    `finish`. What differs between games is the record codec (`JojotteCodec`, `events.EventCodec`: how a
    record becomes steps, and its own checks) and the rules' hooks (the sheet, the dealer's turn, the
    written score's reading and comparison, the end of the session)."""

    def __init__(self, header: SessionHeader, session_index: int = 1):
        self.header = header
        self.session_index = session_index
        self.source = header.source
        rules, issues = rules_for(header)
        self.session_issues: list[Issue] = list(header.issues) + issues
        self.rules: Rules = rules
        self.labels = tuple(rules.seat_labels)
        self.names = player_names(header, self.labels)
        # the sheet has a column per player, or per side (JJ4P-SCORE-1, JJ3-ALT-1, PIT-GAME-1)
        self.sheet_labels = rules.columns_of()
        self.sheet_names = rules.column_names(self.names)
        self.sheet = rules.new_sheet()
        self.codec: Codec = CODECS[rules.notation](rules)
        self.expected_dealer = first_dealer(header, self.labels, self.names, self.session_issues)
        self.hands = 0
        self.bad_hands = 0
        self.session_length = self._session_length(rules.session_length_tag)

    def _session_length(self, tag: str) -> int | None:
        """The value of the header tag that says how long the session was agreed to be (``[Rubbers]``)."""
        r = self.header.get(tag) if tag else None
        if not r:
            return None
        at = Location(source=self.source, line=self.header.tag_line(tag), column=1)
        if (big := number_too_large(tag.lower(), r.strip())) and plain_digits(r.strip()):
            self.session_issues.append(Issue("NOTATION", f"[{tag} \"{r}\"]: {big}", at, "syntax"))
            return None
        try:
            return int(r)
        except ValueError:
            self.session_issues.append(Issue("NOTATION", f"[{tag} \"{r}\"] is not a number", at, "syntax"))
            return None

    def msg(self, v: Violation) -> str:
        return violation_message(v, self.names)

    def wrong_dealer(self, dealer: int, first: bool = False) -> Violation | None:
        """Why ``dealer`` may not deal the next hand (``first``: the session's first), or None
        (`Rules.turn_to_deal`: JJ-DEAL-1/2, PIT-DEAL-3, BAL-DEAL-3)."""
        return self.rules.turn_to_deal(self.expected_dealer, dealer, first, self.sheet)

    # --- one hand -----------------------------------------------------------------
    def check_hand(self, hand: HandRecord | EventHand | CompactHand) -> HandVerdict:
        if type(hand) is CompactHand:
            verdict = None
            if engine.FAST and hand.dealer >= 0:
                try:
                    verdict = self._judge(hand, _CleanRun(self.rules, self.names, [], [], self.source,
                                                          self.session_index, hand.number))
                except _Unclean:
                    pass
            if verdict is not None:
                COMPACT["read"] += 1
                engine.COUNTS["fast"] += 1
                return verdict
            COMPACT["full"] += 1
            hand = hand.record()
        return self._judge(hand, HandRun(self.rules, self.names, list(hand.issues), [], self.source,
                                         self.session_index, hand.number))

    def _judge(self, hand: HandRecord | EventHand | CompactHand, run: HandRun) -> HandVerdict:
        """The verdict of one hand, and the session moved on past it (the dealer's turn, the sheet, the counts).

        One sequence for every reading: a hand read compactly (`notation.text.CompactHand`, which keeps no place) is
        judged with a `_CleanRun`, whose first finding of any kind raises `_Unclean` before anything of the session
        has changed; `check_hand` then reads the hand in full and judges it again. A clean hand's verdict names no
        place, so the compact reading gives the same verdict as the full one."""
        rules, codec = self.rules, self.codec
        issues, unchecked = run.issues, run.unchecked
        first = self.hands == 0
        sheet, next_dealer = self.sheet, self.expected_dealer
        # a hand after the end of the game (PIT-GAME-2, BAL-MATCH-2) is found before the replay, one after
        # the agreed rubbers (JJ-SESSION-1) after it
        over = rules.session_over(sheet, self.sheet_names, self.session_length)
        over_phase = rules.session_over_phase
        if over is not None and over_phase == "deal":
            run.note(over.rule, over.text, "consistency", phase="deal", line=hand.line, column=1)
        if hand.dealer >= 0:
            v = self.wrong_dealer(hand.dealer, first=first)
            if v is not None:
                line, col = codec.dealer_at(hand)
                run.illegal(v, phase="deal", line=line, column=col)
            next_dealer = rules.next_dealer(hand.dealer)
        state = self._replay(hand, run)
        score = None
        if state is not None and (not issues or not any(i.kind in ("illegal", "syntax") for i in issues)):
            score = codec.score(hand, state, run, sheet)
        elif (run.fault is not None and state is not None and not any(i.kind == "syntax" for i in issues)
              and sum(i.kind == "illegal" for i in issues) == 1):
            # a house rule that scores a hand stopped by an irregularity of play (Baloot's qaid): reported, and scored
            score = rules.irregularity_score(state, *run.fault, sheet)
        entry = None
        used_written = False
        if score is not None:
            sheet, entry = rules.add_score(sheet, score)
            written = codec.written_values(hand)
            if written is not None:
                w = hand.score
                for rule, message in rules.written_differences(written, entry, self.sheet_names):
                    run.note(rule, message, "score", phase="score", line=w.line, column=w.column)
        else:
            # the hand cannot be scored from its events: the sheet goes on with what was written, if anything
            written = codec.written_score(hand) if not sheet.over else None
            if written is not None:
                used_written = True
                sheet, _ = rules.add_score(sheet, written)
                run.note(*codec.uses_written, "unchecked", phase="score", line=hand.score.line, column=hand.score.column)
            else:
                run.note(*codec.skips, "unchecked", phase="score", line=hand.line, column=1)
        if over is not None and over_phase != "deal":
            run.note(over.rule, over.text, "consistency", phase=over_phase, line=hand.line, column=1)
        self.hands += 1
        self.sheet, self.expected_dealer = sheet, next_dealer
        if issues:
            self.bad_hands += 1
        return HandVerdict(hand.number, hand, tuple(issues), tuple(unchecked), score, entry, state, sheet,
                           used_written, tuple(run.actions))

    def _replay(self, hand, run: HandRun):
        if hand.dealer < 0:
            return None
        v = self.rules.check_dealer(hand.dealer)  # who may deal (the adviser in jojotte-3box does not)
        if v is not None:
            line, col = self.codec.dealer_at(hand)
            run.illegal(v, phase="deal", line=line, column=col)
            return None
        if type(run) is _CleanRun:  # a compact reading has no steps to explain: the codec's fast replay, or none
            state = self.codec.fast(hand, run, hand.dealer, self.sheet)
            if state is None or run.actions:
                raise _Unclean
            run.state = state
        else:
            state = replay_hand(self.rules, self.codec, hand, run, hand.dealer, self.sheet, self.codec.keep_actions)
        return self.codec.end_state(state)

    def finish(self) -> SessionSummary:
        return SessionSummary(self.header, self.hands, self.bad_hands, self.sheet, tuple(self.session_issues),
                              tuple(self.sheet.winners), self.sheet_labels, self.sheet_names, self.labels, self.names,
                              self.rules)


# hands read compactly whose verdict was found from that reading, and those read again in full (tests, benchmarks)
COMPACT = {"read": 0, "full": 0}


class _Unclean(Exception):
    """A hand read compactly has something to be said of it: it is read in full (`SessionValidator.check_hand`)."""


class _CleanRun(HandRun):
    """The run of a hand read compactly: the first finding of any kind ends its judging (`_Unclean`)."""

    __slots__ = ()

    def illegal(self, *args, **where) -> None:
        raise _Unclean

    def note(self, *args, **where) -> None:
        raise _Unclean


def _is_void_auction(calls: tuple[Call, ...], seats: int) -> bool:
    return len(calls) == 2 * seats and all(c.kind == "pass" for c in calls)


# --- driving it over files -------------------------------------------------------

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
            validator = SessionValidator(item, index)
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


def _trick_call_where(ctx, a, v):
    """A call written among the cards of a trick: its place is the card it came before (``card``)."""
    t, k, call = ctx
    return dict(phase="trick", trick=t.number, card=k + 1, line=call.line, column=call.column), None


def _play_where(t, p, v):
    return dict(phase="trick", trick=t.number, card=t.plays.index(p) + 1, line=p.line, column=p.column), None


class JojotteCodec(Codec):
    """A Jo-Jotte `HandRecord` as located steps: the deal (rebuilt from the play when no deal is recorded),
    the auction, the draw, the calls after the draw, the cards, then a claim. What the record leaves out
    (``?`` cards, a hand's first cards, the turned card) becomes unknowns of the chance actions; what it
    says wrongly is reported here with its place."""

    uses_written = ("JJ-SCORE-1", "the hand could not be scored from its events; the session sheet uses the written score")
    skips = ("JJ-SCORE-1", "the hand could not be scored and has no written score; the sheet skips it")

    def __init__(self, rules: JojotteRules):
        self.rules = rules
        self._fast = fast_for(rules)
        self._columns = len(rules.columns_of())

    def fast(self, hand: HandRecord, run: HandRun, dealer: int, sheet):
        return self._fast.hand(hand) if self._fast is not None else None

    def dealer_at(self, hand: HandRecord) -> tuple[int, int]:
        return hand.mark("dealer") or (hand.line, 1)

    def end_state(self, state):
        return None if state is None or state.phase == DEAL else state  # no deal: nothing to show

    def written_values(self, hand: HandRecord) -> tuple[int, ...] | None:
        """The written figures: below the line per column, then above, then held aside (`JojotteRules.written_score`)."""
        w = hand.score
        if w is None:
            return None
        n = self._columns
        if len(w.below) == n and len(w.above) == n:
            return (*w.below, *w.above, w.aside)
        return tuple(w.below[c] for c in range(n)) + tuple(w.above[c] for c in range(n)) + (w.aside,)

    def written_score(self, hand: HandRecord) -> HandScore | None:
        values = self.written_values(hand)
        if values is None:
            return None
        nullo = any(c.kind == "nullo" for c in hand.after) and not any(c.kind == "slam" for c in hand.after)
        return self.rules.written_score(values, nullo=nullo)

    def score(self, hand: HandRecord, state: JJState, run: HandRun, sheet) -> HandScore | None:
        """The hand's score: from its play, or from its result line when no tricks are recorded (checked
        against the auction, JJ-INV-3/4, and against the play when both are, JJ-PTS-4)."""
        rules = self.rules
        if state.phase == VOID_HAND:
            return rules.hand_score(state, sheet)
        if state.phase == DONE:
            score = rules.hand_score(state, sheet)
            for r in hand.result:
                got_tricks, got_points = rules.seat_result(state, score, r.seat)
                if r.tricks != got_tricks or r.points != got_points:
                    run.note("JJ-PTS-4", f"the result line gives {run.names[r.seat]} {r.tricks} tricks and {r.points} points,"
                             f" but the play gives {got_tricks} tricks and {got_points} points", "consistency",
                             phase="score", line=hand.line, column=1)
            return score
        at_hand = dict(line=hand.line, column=1)
        if state.phase == PLAY and state.tricks_done == 0 and not state.trick and hand.result:
            return self._score_result(hand, state, run)
        if state.phase == PLAY:
            if hand.claim >= 0:  # a claim the validator could not settle (unrecorded cards): the tricks are conceded
                run.note("JJ-INV-3", f"only {state.tricks_done} of {rules.tricks_per_hand} tricks are recorded and"
                         " the claim cannot be settled", "consistency", phase="trick", **at_hand)
            elif state.tricks_done or state.trick:
                # §0.3: a missing trick cites JJ-PLAY-10 at the first trick that is missing
                missing = state.tricks_done + 1
                last = hand.tricks[-1] if hand.tricks else None
                run.illegal(Violation("JJ-PLAY-10", f"trick {missing} is missing: only {state.tricks_done} of {rules.tricks_per_hand}"
                                      " tricks are recorded, and every trick is played in every contract (write 'claim X' for a"
                                      " conceded rest)", see_also=("JJ-INV-3",)),
                            phase="trick", trick=missing, line=last.line if last else hand.line, column=1)
            else:
                run.note("JJ-PLAY-3", "no tricks and no result recorded: the hand cannot be scored from its events",
                         "unchecked", phase="trick", **at_hand)
        return None

    def _score_result(self, hand: HandRecord, state: JJState, run: HandRun) -> HandScore | None:
        """A hand recorded as auction and result only."""
        rules = self.rules
        at_hand = dict(line=hand.line, column=1)
        won = [0] * rules.seats
        pts = [0] * rules.seats
        for r in hand.result:
            won[r.seat] = r.tricks
            pts[r.seat] = r.points
        if sum(won) != rules.tricks_per_hand:
            run.note("JJ-INV-3", f"the result gives {sum(won)} tricks in all, not {rules.tricks_per_hand}", "consistency",
                     phase="score", **at_hand)
            return None
        if not any(state.unknown):
            in_play = 0
            for seat in rules.playing_seats(state):
                in_play |= state.hands[seat]
            # JJ-INV-4: the cards in play and the last trick, as if one trick took them all
            value = trick_points(tuple(iter_cards(in_play)), state.trump, True, state.denomination == "nullo")
            allowed = {value} if state.denomination != "suit" else {value, value + JOJOTTE}
            if sum(pts) not in allowed:
                run.note("JJ-INV-4", f"the trick points add up to {sum(pts)}, but the cards in play are worth "
                         + " or ".join(str(x) for x in sorted(allowed)), "consistency", phase="score", **at_hand)
                return None
        run.note("JJ-PLAY-3", "no tricks recorded: the card play was not checked; the score uses the result line",
                 "unchecked", phase="trick", **at_hand)
        # who won the last trick is unknown; it is inside the trick points given
        return rules.score_hand(state._replace(phase=DONE, won=tuple(won)), won=tuple(won), trick_scores=tuple(pts))

    def steps(self, hand: HandRecord, run: HandRun):
        rules = self.rules
        names = run.names
        dealt = self._deal(hand, run)
        if dealt is None:
            return
        deal, draw_cards, turned, void_auction = dealt
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
        yield from self._plays(hand, run)

    def _deal(self, hand: HandRecord, run: HandRun):
        """The deal as a chance action, from the cards of each hand: dealt, drawn, or rebuilt from the play;
        ``(deal, the draw's known cards per seat, the turned card or -1, all passed)``, None when the record
        gives a hand the wrong number of cards (JJ-DEAL-3)."""
        rules = self.rules
        seats = rules.seats
        names = run.names
        dealer = hand.dealer
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
                    return None
        return deal, draw_cards, turned, void_auction

    def _plays(self, hand: HandRecord, run: HandRun):
        """The tricks' cards, then a claim: a `Play` is the play action itself (seat, card, announce)."""
        rules = self.rules
        names = run.names
        done_phase, unknown_card, trick_size = DONE, UNKNOWN_CARD, rules.trick_size
        for t in hand.tricks:
            calls = t.calls
            for j, p in enumerate(t.plays):
                if calls:
                    yield from self._trick_calls(t, j)
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
            if calls:
                yield from self._trick_calls(t, len(t.plays))
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

    @staticmethod
    def _trick_calls(t, played: int):
        """The calls written in trick ``t`` after ``played`` of its cards (a late dix: JJ-DIX-3), as steps."""
        for k, c in t.calls:
            if k == played:
                yield Action(c.seat, c.kind, melds=c.melds), _trick_call_where, (t, k, c)

    def _rebuild(self, hand: HandRecord, seat: int) -> tuple[int, ...] | None:
        cards = [p.card for t in hand.tricks for p in t.plays if p.seat == seat]
        if len(cards) != self.rules.tricks_per_hand or UNKNOWN_CARD in cards:
            return None
        if any(c.kind == "dix" and c.seat == seat for c in (*hand.after, *(c for t in hand.tricks for _, c in t.calls))):
            if hand.turned is None:
                return None
            trump = hand.turned >> 4
            cards = [make_card(trump, SEVEN) if c == hand.turned else c for c in cards]
        return tuple(cards)


CODECS: dict[str, type[Codec]] = {"jojotte": JojotteCodec, "events": EventCodec}  # by `Rules.notation`
