"""Pitch, ten-point with jokers (rules spec `pitch.md`): the deal of nine, bidding, trump, discard, refill,
the bidder's remainder, burning, trumps-only play with players going out, hand scoring, shoot the moon
and the game to 52; every point-count variant, dirty, reverse and the five-handed game are `PitchOptions`.

The state is an immutable `PitchState`; `PitchRules.legal_actions`, ``check`` and ``apply`` are the
whole hand, chance events (the deal, the refill) included as actions with seat `CHANCE`. `score_hand`
turns a finished hand into a `PitchHandScore` and `PitchSheet` adds hands into a game to 52.

Actions (``Action.kind``): ``deal`` and ``draw`` (chance; one mask per seat in ``cards``), ``pass``,
``bid`` (the amount in ``info``), ``moon``, ``name`` (``suit``), ``call`` (five-handed; ``card``),
``discard`` (``cards=(mask,)``), ``remainder`` (the recipient's seat in ``info``), ``burn`` (one
``card`` at a time) and ``play`` (``card``).

>>> r = PitchRules()
>>> s = r.apply(r.initial_state(dealer=3), deal_action(r, list(r.pack.cards), 3))
>>> [(a.kind, a.info) for a in r.legal_actions(s)][:3]
[('pass', -1), ('bid', 4), ('bid', 5)]
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from ..cards import card_name, iter_cards, mask_of, parse_card
from ..errors import number_too_large, plain_digits
from .base import CHANCE, Action, EventRules, Options, Violation, quick_replace, register
from .pitch_cards import AUTO_CHOICES, POINT_VARIANTS, TrumpTable, pitch_pack, trump_table

MOON = 100  # the MOON bid ranks above every number (PIT-BID-2)
GAME_TARGET = 52  # PIT-GAME-2, PIT-VAR-5
LIVE_LIMIT = 6  # PIT-DRAW-3, PIT-DRAW-7
RESULT_MEMO = 4096  # `PitchRules.hand_result`'s memo: entries kept per options (it starts afresh beyond)
_RESULTS: dict = {}  # that memo, by options: shared by the rules of every session of one game and options
SUIT_WORDS = {0: "spades", 1: "hearts", 2: "diamonds", 3: "clubs"}
_CARD_ACTIONS = {"call": "call", "burn": "burn", "trick": "play"}
_ACT_WORDS = {"name": "naming of trump", "call": "call of a card", "play": "card", "remainder": "word on the remainder"}
_CARD_CODES = {card_name(c): c for c in pitch_pack().cards}  # the canonical spellings; others go through parse_card
_CARD_BITS = {w: 1 << c for w, c in _CARD_CODES.items()}
_SUIT_OF_WORD = {"S": 0, "H": 1, "D": 2, "C": 3, "SPADES": 0, "HEARTS": 1, "DIAMONDS": 2, "CLUBS": 3}

# phases
DEAL, AUCTION, TRUMP, CALL, DISCARD, REFILL, REMAINDER, BURN, PLAY, DONE = (
    "deal", "auction", "trump", "call", "discard", "refill", "remainder", "burn", "play", "done")
CHANCE_PHASES = (DEAL, REFILL)


@dataclass(frozen=True)
class PitchOptions(Options):
    """The options of §14; every default is the spec's. Values are written in lower case (``made_score=points_won``)."""

    values_any_case = True  # the spec writes values in capitals (``made_score=POINTS_WON``)

    points: int = 10  # opt.points: N, the point-count variant (§11)
    made_score: str = "bid"  # opt.made_score (PIT-SCORE-2)
    opponents_score: str = "points_won"  # opt.opponents_score (PIT-SCORE-4)
    auto: str = "two_and_three"  # opt.auto (PIT-PTS-3, PIT-VAR-4)
    dirty: bool = False  # opt.dirty (PIT-VAR-6)
    reverse: bool = False  # opt.reverse (PIT-VAR-7)
    jokers: str = "order_of_play"  # opt.jokers (PIT-DECK-4); MARKED: X1 is the high joker
    trump_discard: str = "forbidden"  # opt.trump_discard (PIT-DRAW-2)
    burn: str = "any"  # opt.burn (PIT-DRAW-7)
    moon_at_zero: str = "stay_zero"  # opt.moon_at_zero (PIT-MOON-3)
    uncounted: str = "keep_rank"  # opt.uncounted (§11)
    min_bid: int = 4  # opt.min_bid (PIT-BID-2, PIT-VAR-5)
    players: int = 4  # opt.players (§13)

    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {
        "made_score": ("bid", "points_won"),
        "opponents_score": ("points_won", "none"),
        "auto": AUTO_CHOICES,
        "jokers": ("order_of_play", "marked"),
        "trump_discard": ("forbidden", "allowed_dead"),
        "burn": ("any", "non_point_first"),
        "moon_at_zero": ("stay_zero", "to_52"),
        "uncounted": ("keep_rank", "remove"),
    }

    def __post_init__(self):
        if self.points not in POINT_VARIANTS:
            raise ValueError(f"option 'points' takes one of {', '.join(map(str, POINT_VARIANTS))}, not '{self.points}'")
        if self.players not in (4, 5):
            raise ValueError(f"option 'players' takes 4 or 5, not '{self.players}'")
        if not 1 <= self.min_bid <= self.points:
            raise ValueError(f"option 'min_bid' must be between 1 and {self.points}, not '{self.min_bid}'")



@quick_replace
class PitchState(NamedTuple):
    """A hand of Pitch at one moment. Hands are bitmasks; after trump is named they hold live cards only."""

    phase: str
    dealer: int
    hands: tuple[int, ...]
    stock: int  # the face-down stock (four players) or the blind (five)
    dead: int  # discarded, burned and dead-on-arrival cards (PIT-PTS-4)
    calls: tuple[tuple[int, int], ...]  # (seat, bid): 0 PASS, n, MOON
    high: int  # the standing bid, 0 before any
    bidder: int
    contract: int  # the bidder's contract (MOON for a moon), 0 before the auction ends
    trump: int
    called: int  # five-handed: the called card, -1
    partner: int  # the bidder's partner; -1 when he plays alone
    step: int  # discards made so far
    remainder_to: int  # who took the remainder of the stock, -1
    leader: int
    trick: tuple[tuple[int, int], ...]  # (seat, card) in play order
    taken: tuple[int, ...]  # points credited to each seat so far
    history: tuple[tuple[int, tuple[tuple[int, int], ...], int], ...]  # (leader, plays, winner) per trick

    @property
    def tricks_done(self) -> int:
        return len(self.history)


class PitchCredit(NamedTuple):
    """One line of a hand's score: a column (team or, five-handed, player), an amount and the rule."""

    column: int
    amount: int
    rule: str
    why: str


class PitchHandScore(NamedTuple):
    """The score of one finished hand."""

    taken: tuple[int, ...]  # points credited to each seat (PIT-PTS-2/3)
    bidding_points: int  # T_b
    other_points: int  # T_o
    dead_points: int  # PIT-PTS-4
    contract: int
    moon: bool
    made: bool
    bidding_columns: tuple[int, ...]
    credits: tuple[PitchCredit, ...]
    delta: tuple[int, ...]  # per column
    moon_failed: bool


class PitchSheet(NamedTuple):
    """A game to 52: each column's score (team N–S/E–W, or player when five-handed) and the result."""

    scores: tuple[int, ...]
    hands: int = 0
    winners: tuple[int, ...] = ()
    over: bool = False

    @classmethod
    def empty(cls, columns: int) -> "PitchSheet":
        return cls((0,) * columns)  # PIT-GAME-1

    def add(self, hand: PitchHandScore) -> "PitchSheet":
        """The sheet after one hand (PIT-GAME-2…4, PIT-FIVE-8).

        Raises:
            ValueError: the game is already over.
        """
        if self.over:
            raise ValueError(f"the game is over (won by column {', '.join(map(str, self.winners))}); no more hands")
        scores = tuple(s + d for s, d in zip(self.scores, hand.delta))
        n = len(scores)
        if hand.moon_failed:  # PIT-MOON-4, PIT-GAME-4
            winners = tuple(c for c in range(n) if c not in hand.bidding_columns)
            return PitchSheet(scores, self.hands + 1, winners, True)
        qualified = [c for c in range(n) if scores[c] >= GAME_TARGET]
        if not qualified:
            return PitchSheet(scores, self.hands + 1)
        bidders = [c for c in qualified if c in hand.bidding_columns]
        if len(qualified) > 1 and bidders:  # PIT-GAME-3 / PIT-FIVE-8
            winners = tuple(bidders)
        else:
            best = max(scores[c] for c in qualified)
            winners = tuple(c for c in qualified if scores[c] == best)
        return PitchSheet(scores, self.hands + 1, winners, True)


@register
class PitchRules(EventRules):
    """Ten-point Pitch with jokers, four players in partnerships (or five with a called partner)."""

    name = "pitch"
    aliases = ("pitch-10", "ten-point-pitch")
    title = "Pitch, ten-point with jokers"
    line_keywords = ("deal", "bids", "trump", "call", "discard", "refill", "remainder", "burn", "trick", "score")
    seats = 4
    seat_labels = ("N", "E", "S", "W")
    pack = pitch_pack()
    options_class = PitchOptions
    rule_prefix = "PIT"
    list_lines = frozenset({"deal", "discard", "refill"})
    game_target = GAME_TARGET
    dealer_rule = "PIT-DEAL-3"
    trick_rule = "PIT-PLAY-5"
    play_rule = "PIT-PLAY-3"
    game_rule = "PIT-GAME-2"
    options: PitchOptions

    def __init__(self, options: Options | None = None):
        super().__init__(options)
        o = self.options
        self.seats = o.players
        self.seat_labels = ("N", "E", "S", "W") if o.players == 4 else ("A", "B", "C", "D", "E")
        self.sheet_labels = ("NS", "EW") if o.players == 4 else self.seat_labels
        self.pack = pitch_pack(o.points, o.uncounted)
        self.dealt_per_seat = 9 if o.players == 4 else 10  # PIT-DEAL-4, PIT-FIVE-2
        self.total = o.points
        self._card_codes = frozenset(self.pack.cards)
        self._seat_index = {lab: i for i, lab in enumerate(self.seat_labels)}
        self._tables: dict[int, TrumpTable] = {}
        self._results = _RESULTS.setdefault(o, {})  # `hand_result`'s credits by what they depend on

    # --- tables -------------------------------------------------------------------
    def table(self, trump: int) -> TrumpTable:
        """The trump set, order and points of the variant with ``trump`` named."""
        t = self._tables.get(trump)
        if t is None:
            o = self.options
            t = self._tables[trump] = trump_table(o.points, trump, reverse=o.reverse, dirty=o.dirty, auto=o.auto,
                                                  jokers=o.jokers, uncounted=o.uncounted)
        return t

    @property
    def five(self) -> bool:
        return self.seats == 5

    def columns(self) -> int:
        """Columns of the score sheet: two teams, or five players."""
        return 5 if self.five else 2

    def column_of(self, seat: int) -> int:
        return seat if self.five else seat % 2

    def bidding_seats(self, s: PitchState) -> tuple[int, ...]:
        """The bidder and his partner (PIT-DEAL-1; PIT-FIVE-4/5: the called card's holder, or nobody)."""
        if not self.five:
            return (s.bidder, (s.bidder + 2) % 4)
        return (s.bidder,) if s.partner < 0 else (s.bidder, s.partner)

    def next_dealer(self, dealer: int) -> int:
        """PIT-DEAL-3: the deal passes to the left."""
        return (dealer + 1) % self.seats

    # --- building the first state ------------------------------------------------
    def initial_state(self, dealer: int, sheet=None) -> PitchState:
        """The state before the deal; the deal itself is a chance action (`deal_action`). A hand of Pitch does not
        depend on the score before it (``sheet`` is part of the `EventRules` shape and is not used)."""
        z = (0,) * self.seats
        return PitchState(DEAL, dealer, z, 0, 0, (), 0, -1, 0, -1, -1, -1, 0, -1, -1, (), z, ())

    # --- whose turn ---------------------------------------------------------------
    def current_player(self, s: PitchState) -> int:
        p = s.phase
        if p in CHANCE_PHASES:
            return CHANCE
        if p == AUCTION:
            return (s.dealer + 1 + len(s.calls)) % self.seats  # PIT-BID-1
        if p in (TRUMP, CALL, REMAINDER):
            return s.bidder
        if p == DISCARD:
            return self.discarder(s.dealer, s.step)
        if p == BURN:
            return self._burner(s)
        if p == PLAY:
            return self._to_play(s)
        return -1

    def discarder(self, dealer: int, step: int) -> int:
        """PIT-DRAW-1: who discards after ``step`` discards, in turn from the dealer's left."""
        return (dealer + 1 + step) % self.seats

    def is_terminal(self, s: PitchState) -> bool:
        return s.phase == DONE

    def _burner(self, s: PitchState) -> int:
        for k in range(1, self.seats + 1):
            seat = (s.dealer + k) % self.seats
            if s.hands[seat].bit_count() > LIVE_LIMIT:
                return seat
        return -1

    def _to_play(self, s: PitchState) -> int:
        if not s.trick:
            return s.leader
        return self.next_in_trick(s.hands, s.trick, s.leader)

    def next_in_trick(self, hands: tuple[int, ...], trick, leader: int) -> int:
        """PIT-PLAY-3: the next active player clockwise who has not played to this trick, or -1."""
        last = trick[-1][0]
        for k in range(1, self.seats):
            seat = (last + k) % self.seats
            if seat == leader:
                return -1
            if hands[seat]:
                return seat
        return -1

    def first_active(self, hands: tuple[int, ...], start: int) -> int:
        """PIT-PLAY-2/6: ``start`` if active, else the first active player clockwise from him; -1 if none."""
        for k in range(self.seats):
            seat = (start + k) % self.seats
            if hands[seat]:
                return seat
        return -1

    # --- legal actions ------------------------------------------------------------
    def legal_actions(self, s: PitchState) -> tuple[Action, ...]:
        """Every action the player to act may take; ``()`` at a chance event and when the hand is over."""
        p = s.phase
        if p == AUCTION:
            seat = self.current_player(s)
            acts = [Action(seat, "pass")]
            acts += [Action(seat, "bid", info=n) for n in self._bid_range(s)]
            if s.high < MOON:
                acts.append(Action(seat, "moon"))
            return tuple(acts)
        if p == TRUMP:
            return tuple(Action(s.bidder, "name", suit=su) for su in range(4))
        if p == CALL:
            return tuple(Action(s.bidder, "call", card=c) for c in self.pack.cards if not s.hands[s.bidder] >> c & 1)
        if p == DISCARD:
            seat = self.current_player(s)
            return tuple(Action(seat, "discard", cards=(m,)) for m in self._discard_choices(s, seat))
        if p == REMAINDER:
            return tuple(Action(s.bidder, "remainder", info=r) for r in self.bidding_seats(s))
        if p == BURN:
            seat = self._burner(s)
            return tuple(Action(seat, "burn", card=c) for c in iter_cards(self._burnable(s, seat)))
        if p == PLAY:
            seat = self._to_play(s)
            return tuple(Action(seat, "play", card=c) for c in iter_cards(self._playable(s, seat)))
        return ()

    def _bid_range(self, s: PitchState) -> range:
        """PIT-BID-2/3: the numbers a player may bid now."""
        return range(max(self.options.min_bid, s.high + 1), self.total + 1)

    def _discard_choices(self, s: PitchState, seat: int) -> list[int]:
        """PIT-DRAW-1/2: every non-trump; with ``trump_discard=allowed_dead`` any trumps besides."""
        t = self.table(s.trump)
        hand = s.hands[seat]
        must = hand & ~t.mask
        if self.options.trump_discard != "allowed_dead":
            return [must]
        trumps = list(iter_cards(hand & t.mask))
        out = []
        for bits in range(1 << len(trumps)):
            out.append(must | mask_of(c for i, c in enumerate(trumps) if bits >> i & 1))
        return out

    def _burnable(self, s: PitchState, seat: int) -> int:
        """PIT-DRAW-7 (and ``burn=non_point_first``; PIT-FIVE-5: never the called card the bidder must lead)."""
        hand = s.hands[seat]
        if seat == s.bidder and self.must_lead_called(s):
            hand &= ~(1 << s.called)
        if self.options.burn == "non_point_first":
            pts = self.table(s.trump).points
            plain = mask_of(c for c in iter_cards(hand) if not pts[c])
            if plain:
                return plain
        return hand

    def must_lead_called(self, s: PitchState) -> bool:
        """PIT-FIVE-5: the called card lay in the blind, so the bidder's first lead must be it (if it is live)."""
        return (self.five and s.called >= 0 and s.partner < 0 and bool(s.hands[s.bidder] >> s.called & 1)
                and not any(seat == s.bidder for _, plays, _ in s.history for seat, _ in plays))

    def _playable(self, s: PitchState, seat: int) -> int:
        """PIT-PLAY-1/4: any live card; PIT-FIVE-5: the bidder alone leads the called card first."""
        hand = s.hands[seat]
        if seat == s.bidder and not s.trick and self.must_lead_called(s):
            return 1 << s.called
        return hand

    # --- checking one action ----------------------------------------------------
    def check(self, s: PitchState, a: Action) -> Violation | None:
        """``None`` if the action is legal now, else the rule it breaks."""
        p = s.phase
        if p == DONE:
            return Violation("PIT-PLAY-7", f"{a.kind} after the end of the hand: no player holds a live card")
        if p == DEAL:
            return self._check_deal(s, a)
        if p == REFILL:
            return self._check_refill(s, a)
        if a.seat != CHANCE and not 0 <= a.seat < self.seats:
            return Violation("PIT-FIVE-1" if self.five else "PIT-DEAL-1", f"there is no seat {a.seat} at a table of {self.seats}")
        if a.kind in ("call", "burn", "play") and a.card not in self._card_codes:
            return Violation("PIT-DECK-1", f"{a.kind} of {a.card}, which is not a card of the {len(self.pack)}-card pack")
        if a.seat == CHANCE or a.kind in ("deal", "draw"):
            if self.five and a.kind == "draw":
                return Violation("PIT-FIVE-6", "there is no refill in the five-handed game")
            return Violation("PIT-DRAW-3" if a.kind == "draw" else "PIT-DEAL-4", f"a {a.kind} is not possible now (phase {p})")
        who = f"{{p{a.seat}}}"
        if p == AUCTION:
            return self._check_call(s, a)
        if a.kind in ("pass", "bid", "moon"):  # PIT-BID-1: each player speaks exactly once, the dealer last
            return Violation("PIT-FIVE-3" if self.five else "PIT-BID-1", f"{who} called after the auction was over; "
                             "each player speaks once, the dealer last")
        if a.kind == "name" and p != TRUMP:
            return Violation("PIT-BID-6", f"{who} named {SUIT_WORDS.get(a.suit, 'a suit')} after {SUIT_WORDS[s.trump]} was "
                             "named trump; the bidder names it once")
        if p == TRUMP:
            if a.kind == "name" and a.seat != s.bidder:
                return Violation("PIT-BID-6", f"{who} named trump, but {{p{s.bidder}}} won the bidding and names it")
            if a.seat != s.bidder or a.kind != "name":
                return Violation("PIT-BID-6", f"{{p{s.bidder}}}, the bidder, names trump now; {who} made a {a.kind}")
            if a.suit not in (0, 1, 2, 3):
                return Violation("PIT-BID-6", f"{who} named no suit; trump is one of the four suits")
            return None
        if p == CALL:
            if a.seat != s.bidder or a.kind != "call":
                return Violation("PIT-FIVE-4", f"{{p{s.bidder}}}, the bidder, calls his partner's card now; not {a.kind} by {who}")
            if s.hands[a.seat] >> a.card & 1:
                return Violation("PIT-FIVE-4", f"{who} called {card_name(a.card)}, which is in his own hand")
            return None
        if p == DISCARD:
            return self._check_discard(s, a)
        if p == REMAINDER:
            if a.seat != s.bidder or a.kind != "remainder":
                return Violation("PIT-DRAW-5", f"{{p{s.bidder}}}, the bidder, says who takes the remainder of the stock; not {a.kind} by {who}")
            if a.info not in self.bidding_seats(s):
                return Violation("PIT-DRAW-5", f"the remainder goes to the bidder or his partner, not to {{p{a.info}}}" if 0 <= a.info < self.seats
                                 else "the record must name who takes the remainder of the stock")
            return None
        if a.kind == "remainder" and p in (BURN, PLAY):
            return self._check_empty_remainder(s, a)
        if p == BURN:
            return self._check_burn(s, a)
        return self._check_play(s, a)

    def _check_empty_remainder(self, s: PitchState, a: Action) -> Violation | None:
        """PIT-DRAW-5: when the refill has used up the stock there is no remainder, but a record may still name a
        recipient (of nothing): the bidder, before the first card, once, himself or his partner. (Not among
        `legal_actions`: it changes nothing, and a simulator never writes it.)"""
        if self.five or s.remainder_to >= 0 or s.stock or s.history or s.trick:
            return Violation("PIT-DRAW-5", f"{{p{a.seat}}} named who takes the remainder of the stock, but it was already"
                             " given or play has started")
        if a.seat != s.bidder:
            return Violation("PIT-DRAW-5", f"{{p{s.bidder}}}, the bidder, says who takes the remainder of the stock; not"
                             f" {{p{a.seat}}}")
        if a.info not in self.bidding_seats(s):
            return Violation("PIT-DRAW-5", f"the remainder goes to the bidder or his partner, not to {{p{a.info}}}"
                             if 0 <= a.info < self.seats else "the record must name who takes the remainder of the stock")
        return None

    def _check_deal(self, s: PitchState, a: Action) -> Violation | None:
        n = self.dealt_per_seat
        rule = "PIT-FIVE-2" if self.five else "PIT-DEAL-4"
        if a.seat != CHANCE or a.kind != "deal" or len(a.cards) != self.seats:
            return Violation(rule, f"the hand starts with the deal: {n} cards to each of the {self.seats} players")
        seen = 0
        for seat, m in enumerate(a.cards):
            if m & ~self.pack.mask:
                bad = next(iter_cards(m & ~self.pack.mask))
                return Violation("PIT-DECK-1", f"{{p{seat}}} is dealt a card that is not in the {len(self.pack)}-card pack (code {bad})")
            if m & seen:
                return Violation(rule, f"{card_name(next(iter_cards(m & seen)))} is dealt twice (again to {{p{seat}}})")
            seen |= m
            if m.bit_count() != n:
                return Violation(rule, f"{{p{seat}}} is dealt {m.bit_count()} cards, not {n}")
        return None

    def auction_key(self, s: PitchState, keyword: str):
        """What reading, checking and making the calls of a ``bids`` line depend on, None outside the auction (the fast
        path memoises whole lines on it): the dealer and the calls so far, which give whose turn it is and the
        standing bid (PIT-BID-1…4, PIT-FIVE-3). And so of the ``trump`` line after it: the bidder, who alone names
        trump (PIT-BID-6)."""
        if keyword == "trump" and s.phase == TRUMP:
            return ("trump", s.bidder)
        if keyword != "bids" or s.phase != AUCTION:
            return None
        return (s.dealer, s.calls)

    def _check_call(self, s: PitchState, a: Action) -> Violation | None:
        caller = self.current_player(s)
        who = f"{{p{a.seat}}}"
        if a.kind in ("name", "call", "discard", "remainder", "burn", "play"):  # a later step before the auction ended
            return Violation("PIT-FIVE-3" if self.five else "PIT-BID-1",
                             f"the auction is not over: {{p{caller}}} has still to speak before {who}'s "
                             + _ACT_WORDS.get(a.kind, a.kind))
        if a.seat != caller:
            return Violation("PIT-FIVE-3" if self.five else "PIT-BID-1",
                             f"{who} called out of turn; it is {{p{caller}}}'s turn (each player speaks once, from the dealer's left)")
        if a.kind == "pass":
            return None
        if a.kind == "moon":
            if s.high >= MOON:
                return Violation("PIT-BID-3", f"{who} bid MOON over a MOON; a bid must be higher than the standing bid")
            return None
        if a.kind != "bid":
            return Violation("PIT-BID-2", f"{who} called {a.kind.upper()}; a call is PASS, a bid or MOON")
        lo = self.options.min_bid
        if not lo <= a.info <= self.total:
            return Violation("PIT-BID-2", f"{who} bid {a.info}; bids run from {lo} to {self.total}, then MOON")
        if a.info <= s.high:
            standing = "MOON" if s.high >= MOON else str(s.high)
            return Violation("PIT-BID-3", f"{who} bid {a.info}, not higher than the standing bid {standing}")
        return None

    def _check_discard(self, s: PitchState, a: Action) -> Violation | None:
        seat = self.current_player(s)
        if a.kind == "burn":
            return Violation("PIT-DRAW-7", f"{{p{a.seat}}} burned before every player had discarded")
        if a.kind != "discard" or a.seat != seat:
            return Violation("PIT-DRAW-1", f"every player discards his non-trumps now, in turn from the dealer's left: {{p{seat}}} next")
        m = a.cards[0] if len(a.cards) == 1 else -1
        hand = s.hands[seat]
        if m >= 0 and self.discard_ok(hand, m, s.trump):
            return None
        if m < 0 or m & ~hand:
            return Violation("PIT-DRAW-1", f"{{p{seat}}} discarded a card that is not in his hand")
        t = self.table(s.trump)
        kept = hand & ~t.mask & ~m
        if kept:
            return Violation("PIT-DRAW-1", f"{{p{seat}}} kept the non-trump {card_name(next(iter_cards(kept)))}; every non-trump is discarded")
        thrown = m & t.mask
        if thrown and self.options.trump_discard != "allowed_dead":
            return Violation("PIT-DRAW-2", f"{{p{seat}}} discarded the trump {card_name(next(iter_cards(thrown)))}; only non-trumps are discarded")
        return None

    def discard_ok(self, hand: int, m: int, trump: int) -> bool:
        """PIT-DRAW-1/2: the cards ``m`` are a legal discard from ``hand`` with ``trump`` named: held, every non-trump
        among them, and a trump only with ``trump_discard=allowed_dead``."""
        t = self.table(trump).mask
        return not (m & ~hand or hand & ~t & ~m or (m & t and self.options.trump_discard != "allowed_dead"))

    def _refill_counts(self, s: PitchState) -> list[int]:
        """PIT-DRAW-3: what each seat draws, in turn from the dealer's left, while the stock lasts."""
        left = s.stock.bit_count()
        counts = [0] * self.seats
        for k in range(1, self.seats + 1):
            seat = (s.dealer + k) % self.seats
            want = min(max(0, LIVE_LIMIT - s.hands[seat].bit_count()), left)
            counts[seat] = want
            left -= want
        return counts

    def _check_refill(self, s: PitchState, a: Action) -> Violation | None:
        if a.seat != CHANCE or a.kind != "draw" or len(a.cards) != self.seats:
            return Violation("PIT-DRAW-3", "after the discards comes the refill from the stock: one set of cards for each player")
        counts = self._refill_counts(s)
        seen = 0
        for seat, m in enumerate(a.cards):
            if m & ~s.stock or m & seen:
                return Violation("PIT-DRAW-3", f"{card_name(next(iter_cards((m & ~s.stock) | (m & seen))))}, drawn by {{p{seat}}}, is not in the stock")
            seen |= m
            if m.bit_count() != counts[seat]:
                return Violation("PIT-DRAW-3", f"{{p{seat}}} drew {m.bit_count()} cards, not {counts[seat]} (up to six live cards, while the stock lasts)")
        return None

    def _check_burn(self, s: PitchState, a: Action) -> Violation | None:
        seat = self._burner(s)
        if a.kind == "play":
            return Violation("PIT-DRAW-8", f"{{p{seat}}} still holds {s.hands[seat].bit_count()} live cards; the surplus over six"
                             " is burned before play", ("PIT-DRAW-7",))
        if a.kind != "burn":
            return Violation("PIT-DRAW-7", f"{{p{seat}}} burns his surplus over six live cards now")
        if a.seat != seat:
            if 0 <= a.seat < self.seats and s.hands[a.seat].bit_count() <= LIVE_LIMIT:
                return Violation("PIT-DRAW-7", f"{{p{a.seat}}} holds {s.hands[a.seat].bit_count()} live cards and may not burn")
            return Violation("PIT-DRAW-7", f"{{p{seat}}} burns now, not {{p{a.seat}}}")
        if not s.hands[seat] >> a.card & 1:
            return Violation("PIT-DRAW-7", f"{{p{seat}}} burned a card that is not among his live cards")
        if not self._burnable(s, seat) >> a.card & 1:
            if a.card == s.called:
                return Violation("PIT-FIVE-5", f"{{p{seat}}} burned {card_name(a.card)}, the called card he must lead")
            return Violation("PIT-DRAW-7", f"{{p{seat}}} burned the point card {card_name(a.card)} while holding cards worth nothing (burn=non_point_first)")
        return None

    def _check_play(self, s: PitchState, a: Action) -> Violation | None:
        seat = self._to_play(s)
        if a.kind == "burn":  # PIT-DRAW-7: exactly the surplus over six, before play
            return Violation("PIT-DRAW-7", f"{{p{a.seat}}} burned {card_name(a.card)} holding {s.hands[a.seat].bit_count()} live"
                             " cards; only the surplus over six is burned" + (", before play" if s.history or s.trick else ""))
        if a.kind != "play":
            return Violation("PIT-PLAY-3", f"only cards are played now; {{p{a.seat}}} made a {a.kind}")
        if a.seat != seat:
            if s.trick:
                return Violation("PIT-PLAY-3", f"it is {{p{seat}}}'s turn to play to trick {s.tricks_done + 1}, not {{p{a.seat}}}'s")
            if not s.history:
                return Violation("PIT-PLAY-2", f"{{p{seat}}} leads the first trick, not {{p{a.seat}}}")
            return Violation("PIT-PLAY-6", f"{{p{seat}}} leads trick {s.tricks_done + 1}, not {{p{a.seat}}}")
        if not s.hands[seat] >> a.card & 1:
            if s.dead >> a.card & 1:
                return Violation("PIT-PLAY-1", f"{{p{seat}}} played {card_name(a.card)}, a dead card (discarded, burned or a non-trump)")
            return Violation("PIT-PLAY-1", f"{{p{seat}}} played {card_name(a.card)}, which is not one of his live cards")
        if not self._playable(s, seat) >> a.card & 1:
            return Violation("PIT-FIVE-5", f"{{p{seat}}} must lead the called card {card_name(s.called)} to his first trick")
        return None

    # --- the next state -----------------------------------------------------------
    def advance(self, s: PitchState, a: Action) -> PitchState:
        p = s.phase
        if a.kind == "remainder" and p in (BURN, PLAY):  # PIT-DRAW-5: the recipient of nothing is noted, no card moves
            return s._replace(remainder_to=a.info)
        if p == PLAY:
            return self._next_play(s, a)
        if p == DEAL:
            union = 0
            for m in a.cards:
                union |= m
            return s._replace(phase=AUCTION, hands=tuple(a.cards), stock=self.pack.mask & ~union)
        if p == AUCTION:
            value = {"pass": 0, "moon": MOON}.get(a.kind, a.info)
            calls = s.calls + ((a.seat, value),)
            high, bidder = s.high, s.bidder
            if value > high:
                high, bidder = value, a.seat
            if len(calls) < self.seats:
                return s._replace(calls=calls, high=high, bidder=bidder)
            if bidder < 0:  # PIT-BID-4: the dealer is stuck with the minimum
                bidder, high = s.dealer, self.options.min_bid
            partner = -1 if self.five else (bidder + 2) % 4
            return s._replace(phase=TRUMP, calls=calls, high=high, bidder=bidder, contract=high, partner=partner)
        if p == TRUMP:
            return s._replace(phase=CALL if self.five else DISCARD, trump=a.suit)
        if p == CALL:
            t = self.table(s.trump)
            partner = next((i for i, h in enumerate(s.hands) if h >> a.card & 1), -1)
            blind = s.stock
            hands = list(s.hands)
            hands[s.bidder] |= blind & t.mask  # PIT-FIVE-5 with PIT-DRAW-6: the blind's non-trumps are dead
            return s._replace(phase=DISCARD, called=a.card, partner=partner, hands=tuple(hands), stock=0,
                              dead=s.dead | (blind & ~t.mask), remainder_to=s.bidder)
        if p == DISCARD:
            hands, dead, step = self.after_discard(s.hands, s.dead, s.step, a.seat, a.cards[0])
            s = s._replace(hands=hands, dead=dead, step=step)
            if step < self.seats:
                return s
            return self._after_draw(s) if self.five else s._replace(phase=REFILL)
        if p == REFILL:
            t = self.table(s.trump)
            drawn = 0
            for m in a.cards:
                drawn |= m
            hands = tuple(h | (m & t.mask) for h, m in zip(s.hands, a.cards))  # PIT-DRAW-4
            s = s._replace(hands=hands, dead=s.dead | (drawn & ~t.mask), stock=s.stock & ~drawn)
            return s._replace(phase=REMAINDER) if s.stock else self._after_draw(s)
        if p == REMAINDER:
            t = self.table(s.trump)
            hands = tuple(h | (s.stock & t.mask) if i == a.info else h for i, h in enumerate(s.hands))  # PIT-DRAW-5/6
            s = s._replace(hands=hands, dead=s.dead | (s.stock & ~t.mask), stock=0, remainder_to=a.info)
            return self._after_draw(s)
        if p == BURN:
            hands = tuple(h & ~(1 << a.card) if i == a.seat else h for i, h in enumerate(s.hands))
            return self._after_draw(s._replace(hands=hands, dead=s.dead | 1 << a.card))
        raise ValueError(f"no transition from phase {p}")

    @staticmethod
    def after_discard(hands: tuple[int, ...], dead: int, step: int, seat: int, m: int) -> tuple[tuple[int, ...], int, int]:
        """PIT-DRAW-1, PIT-PTS-4: (hands, dead cards, discards made) after ``seat`` discards the cards ``m``: they
        leave his hand for the dead cards, and the turn passes on. What follows the round's last discard is
        `advance`'s."""
        return tuple(h & ~m if i == seat else h for i, h in enumerate(hands)), dead | m, step + 1

    def _after_draw(self, s: PitchState) -> PitchState:
        """Burn while someone holds more than six live cards (PIT-DRAW-7), then the bidder leads (PIT-PLAY-2)."""
        if self._burner(s) >= 0:
            return s._replace(phase=BURN)
        leader = self.first_active(s.hands, s.bidder)
        return s._replace(phase=PLAY if leader >= 0 else DONE, leader=leader)

    def _next_play(self, s: PitchState, a: Action) -> PitchState:
        seat, card = a.seat, a.card
        hands = tuple(h & ~(1 << card) if i == seat else h for i, h in enumerate(s.hands))
        trick = s.trick + ((seat, card),)
        if self.next_in_trick(hands, trick, s.leader) >= 0:
            return s._replace(hands=hands, trick=trick)
        # the trick is complete (PIT-PLAY-5, PIT-PTS-2/3)
        t = self.table(s.trump)
        win = trick[t.winner_index(tuple(c for _, c in trick))][0]
        taken = list(s.taken)
        for who, c in trick:
            taken[t.credited(who, c, win)] += t.points[c]
        leader = self.first_active(hands, win)  # PIT-PLAY-6
        return s._replace(phase=PLAY if leader >= 0 else DONE, hands=hands, trick=(), leader=leader,
                          taken=tuple(taken), history=s.history + ((s.leader, trick, win),))

    # --- scoring ------------------------------------------------------------------
    def score_hand(self, s: PitchState, before: tuple[int, ...] | None = None) -> PitchHandScore:
        """Score a finished hand (PIT-PTS, PIT-SCORE, PIT-MOON, PIT-FIVE-7) given the sheet before it.

        Raises:
            ValueError: the hand is not finished.
        """
        if s.phase != DONE:
            raise ValueError(f"the hand is not finished (phase {s.phase})")
        side = self.bidding_seats(s)
        tb = sum(s.taken[i] for i in side)
        to = sum(s.taken) - tb
        dead_pts = self.table(s.trump).mask_points(s.dead)
        missed = self.points_missed(s, side) if s.contract >= MOON and tb != self.total else ""
        return self.hand_result(s.contract, s.bidder, side, tb, to, dead_pts, before, s.taken, missed)

    def points_missed(self, s: PitchState, side: tuple[int, ...]) -> str:
        """Why a moon failed (PIT-MOON-2): each point card not credited to the bidding ``side``, and where it went
        (to whom, PIT-PTS-2/3, or dead, PIT-PTS-4)."""
        t = self.table(s.trump)
        credited = {c: t.credited(who, c, win) for _, plays, win in s.history for who, c in plays}
        went: dict[int, list[int]] = {}  # seat credited, or -1: dead
        for c in self.pack.sorted(c for c in self.pack.cards if t.points[c]):
            if c in credited and credited[c] not in side:
                went.setdefault(credited[c], []).append(c)
            elif c not in credited and s.dead >> c & 1:
                went.setdefault(-1, []).append(c)
        out = []
        for seat in sorted(went, key=lambda x: x if x >= 0 else self.seats):
            pts = sum(t.points[c] for c in went[seat])
            what = f"{' '.join(card_name(c) for c in went[seat])} ({pts} point{'s' if pts > 1 else ''})"
            out.append(f"{what} went to {self.seat_labels[seat]}" if seat >= 0
                       else f"{what} {'was' if len(went[seat]) == 1 else 'were'} dead")
        return "; ".join(out)

    def hand_result(self, contract: int, bidder: int, side: tuple[int, ...], tb: int, to: int, dead_pts: int = 0,
                    before: tuple[int, ...] | None = None, taken: tuple[int, ...] = (), missed: str = "") -> PitchHandScore:
        """The score of a hand from its totals: contract, bidding side, T_b and T_o (§8, §9, PIT-FIVE-7); ``missed``
        says which points a failed moon did not take (`points_missed`)."""
        moon = contract >= MOON
        key = (contract, side, tb, to, before if moon else None, missed)  # what the credits depend on
        e = self._results.get(key)
        if e is None:
            if len(self._results) >= RESULT_MEMO:
                self._results.clear()
            e = self._results[key] = self._credits(contract, side, tb, to, before, missed)
        bcols, credits, delta, made, failed = e
        return PitchHandScore(tuple(taken), tb, to, dead_pts, contract, moon, made, bcols, credits, delta, failed)

    def _credits(self, contract: int, side: tuple[int, ...], tb: int, to: int, before: tuple[int, ...] | None,
                 missed: str) -> tuple:
        """`hand_result`'s columns and credits: (bidding columns, credits, delta per column, made, moon failed)."""
        o = self.options
        ncol = self.columns()
        before = before if before is not None else (0,) * ncol
        bcols = tuple(sorted({self.column_of(i) for i in side}))
        ocols = tuple(c for c in range(ncol) if c not in bcols)
        credits: list[PitchCredit] = []
        moon = contract >= MOON
        failed = False
        if moon:
            made = tb == self.total  # PIT-MOON-2
            if made:
                for c in bcols:
                    b = before[c]
                    target = GAME_TARGET if b > 0 or (b == 0 and o.moon_at_zero == "to_52") else 0
                    why = (f"moon made from {b}: the score becomes {target}" if target != b
                           else f"moon made from {b}: the score stays {b}")
                    credits.append(PitchCredit(c, target - b, "PIT-MOON-3", why))
            else:
                failed = True
                for c in bcols:
                    credits.append(PitchCredit(c, 0, "PIT-MOON-4", f"moon failed with {tb} of {self.total}"
                                               + (f": {missed}; " if missed else ": ") + "the game is lost"))
                for c in ocols:  # PIT-SCORE-4 scores the points won only in a non-MOON hand
                    credits.append(PitchCredit(c, 0, "PIT-MOON-4", f"the moon failed, which wins the game; the points won"
                                               f" ({to}) are not scored in a moon hand"))
        else:
            made = tb >= contract  # PIT-SCORE-1
            for c in bcols:
                if made:
                    amount = contract if o.made_score == "bid" else tb
                    credits.append(PitchCredit(c, amount, "PIT-SCORE-2", f"bid {contract} made with {tb}"))
                else:
                    credits.append(PitchCredit(c, -contract, "PIT-SCORE-3", f"bid {contract} set with {tb}"))
            if o.opponents_score == "points_won" and to:
                for c in ocols:
                    credits.append(PitchCredit(c, to, "PIT-SCORE-4", f"the points won against the bid ({to})"))
        delta = [0] * ncol
        for cr in credits:
            delta[cr.column] += cr.amount
        return bcols, tuple(credits), tuple(delta), made, failed

    # --- the notation (`EventRules`): one written item <-> one action --------------------
    def read_item(self, s: PitchState, keyword: str, number: int, label: str, words: tuple[str, ...]) -> Action | Violation:
        """Read ``bids E 5``, ``trump S hearts``, ``discard N: 4C 5D``, ``trick 2: S AH`` … (docs/notation.md, Pitch)."""
        if keyword not in self.line_keywords:  # the line first: a seat means nothing on a line of another game
            return self.unknown_line(keyword)
        seat = self._seat_of(label)
        if seat < 0:
            return Violation("NOTATION", f"'{label}' is not a seat (seats: {', '.join(self.seat_labels)})")
        word = words[0].lower() if words else ""
        if keyword in ("deal", "refill"):
            cards = self._read_cards(words)
            if isinstance(cards, Violation):
                return cards
            masks = [0] * self.seats
            masks[seat] = cards
            return Action(CHANCE, "deal" if keyword == "deal" else "draw", cards=tuple(masks))
        if keyword == "bids":
            if len(words) != 1:
                return Violation("NOTATION", f"a call is 'pass', a number or 'moon', not '{' '.join(words)}'")
            if word in ("pass", "p", "-"):
                return Action(seat, "pass")
            if word == "moon":
                return Action(seat, "moon")
            if plain_digits(word):
                big = number_too_large("a bid of", word)
                return Violation("NOTATION", big) if big else Action(seat, "bid", info=int(word))
            return Violation("NOTATION", f"a call is 'pass', a number or 'moon', not '{words[0]}'")
        if keyword == "trump":
            suit = _SUIT_OF_WORD.get(word.upper(), -1) if len(words) == 1 else -1
            if suit < 0:
                return Violation("NOTATION", f"trump is a suit (spades, hearts, diamonds, clubs or S H D C), not '{' '.join(words)}'")
            return Action(seat, "name", suit=suit)
        if keyword == "discard":
            cards = self._read_cards(words)
            return cards if isinstance(cards, Violation) else Action(seat, "discard", cards=(cards,))
        if keyword == "remainder":
            if words and word == "keep" and len(words) == 1:
                return Action(seat, "remainder", info=seat)
            to = self._seat_of(words[-1]) if words and (len(words) == 1 or word == "to") and len(words) <= 2 else -1
            if to < 0:
                return Violation("NOTATION", "the remainder is written 'remainder N keep' or 'remainder N to S'")
            return Action(seat, "remainder", info=to)
        if keyword in ("call", "burn", "trick"):
            if len(words) != 1:
                return Violation("NOTATION", f"one card after {label}, not '{' '.join(words)}'")
            try:
                card = self._card(words[0])
            except ValueError as e:
                return Violation("NOTATION", str(e))
            return Action(seat, _CARD_ACTIONS[keyword], card=card)
        return self.unknown_line(keyword)

    def items_of(self, s: PitchState, a: Action) -> list[tuple[str, int, str, tuple[str, ...]]]:
        labels = self.seat_labels
        if a.kind in ("deal", "draw"):
            key = "deal" if a.kind == "deal" else "refill"
            return [(key, -1, labels[seat], self._card_words(m)) for seat, m in enumerate(a.cards)
                    if key == "deal" or m]
        lab = labels[a.seat]
        if a.kind in ("pass", "moon"):
            return [("bids", -1, lab, (a.kind,))]
        if a.kind == "bid":
            return [("bids", -1, lab, (str(a.info),))]
        if a.kind == "name":
            return [("trump", -1, lab, (SUIT_WORDS[a.suit],))]
        if a.kind == "discard":
            return [("discard", -1, lab, self._card_words(a.cards[0]))]
        if a.kind == "remainder":
            return [("remainder", -1, lab, ("keep",) if a.info == a.seat else ("to", labels[a.info]))]
        if a.kind == "play":
            return [("trick", s.tricks_done + 1, lab, (card_name(a.card),))]
        return [(a.kind, -1, lab, (card_name(a.card),))]  # call, burn

    def _seat_of(self, label: str) -> int:
        seat = self._seat_index.get(label)
        return self._seat_index.get(label.upper(), -1) if seat is None else seat

    def _card(self, word: str) -> int:
        """A card's code; raises ValueError for a word that is not a card."""
        card = _CARD_CODES.get(word)
        return parse_card(word) if card is None else card

    def _read_cards(self, words: tuple[str, ...]) -> int | Violation:
        try:  # the common case: canonical spellings, each card once (the sum of distinct bits has one bit a card)
            mask = sum(map(_CARD_BITS.__getitem__, words))
            if mask.bit_count() == len(words):
                return mask
        except KeyError:
            pass
        if words == ("-",):
            return 0
        mask = 0
        for w in words:
            try:
                c = self._card(w)
            except ValueError as e:
                return Violation("NOTATION", str(e))
            if mask >> c & 1:
                return Violation("NOTATION", f"{card_name(c)} is written twice")
            mask |= 1 << c
        return mask

    def _card_words(self, mask: int) -> tuple[str, ...]:
        return tuple(card_name(c) for c in self.pack.sorted(iter_cards(mask))) or ("-",)

    # --- the sheet, the tricks and the facts of a hand (`EventRules`) ----------------------
    def new_sheet(self) -> "PitchSheet":
        return PitchSheet.empty(self.columns())

    def hand_score(self, s: PitchState, sheet: "PitchSheet") -> PitchHandScore:
        return self.score_hand(s, sheet.scores)

    def written_score(self, values: tuple[int, ...]) -> PitchHandScore:
        """A hand known only by its written figures, for the sheet to go on (a failed moon cannot be read from them)."""
        zero = (0,) * self.seats
        return PitchHandScore(zero, 0, 0, 0, 0, False, False, (), (), tuple(values), False)

    def tricks(self, s: PitchState) -> tuple:
        return s.history

    def card_points(self, s: PitchState, card: int) -> int:
        return self.table(s.trump).points[card] if s.trump >= 0 else 0

    def trick_card_points(self, s: PitchState, number: int) -> int | None:
        """The points of the point cards in trick ``number`` (PIT-PTS-1, PIT-VAR-1), whoever they are credited to."""
        if s.trump < 0 or not 1 <= number <= len(s.history):
            return None
        points = self.table(s.trump).points
        return sum(points[c] for _, c in s.history[number - 1][1])

    def card_points_taken(self, s: PitchState) -> tuple[int, ...] | None:
        """Per column, the points credited to its players (PIT-PTS-2/3; with the dead points, PIT-PTS-4, they add up
        to the variant's N, PIT-PTS-5). None for a hand not played to its end."""
        if s.phase != DONE or s.trump < 0:
            return None
        out = [0] * self.columns()
        for seat, pts in enumerate(s.taken):
            out[self.column_of(seat)] += pts
        return tuple(out)

    def column_scores(self, s: PitchState, score: PitchHandScore) -> tuple[tuple[int, int, int], ...]:
        """Per column the points won (PIT-PTS-2/3), which are the tricks' whole score and the total that decides the
        bid (T_b, T_o: PIT-SCORE-1); Pitch has no melds."""
        won = [0] * self.columns()
        for seat, pts in enumerate(score.taken):
            won[self.column_of(seat)] += pts
        return tuple((w, 0, w) for w in won)

    def captures(self, s: PitchState) -> tuple[tuple[int, int, int], ...]:
        """Every point card played: (card, the seat credited with it, its points) (PIT-PTS-2/3)."""
        if s.trump < 0:
            return ()
        t = self.table(s.trump)
        out = []
        for _, plays, win in s.history:
            for who, c in plays:
                if t.points[c]:
                    out.append((c, t.credited(who, c, win), t.points[c]))
        return tuple(out)

    def hand_facts(self, s: PitchState, score: PitchHandScore | None) -> dict:
        facts: dict = {"contract": bid_text(s.contract) if s.contract else None,
                       "declarer": s.bidder if s.bidder >= 0 else None,
                       "trump": "SHDC"[s.trump] if s.trump >= 0 else None,
                       "partner": s.partner if s.partner >= 0 else None,
                       "called": card_name(s.called) if s.called >= 0 else None,
                       "moon": s.contract >= MOON}
        if score is not None:
            facts.update(made=score.made, bidding_points=score.bidding_points, other_points=score.other_points,
                         dead_points=score.dead_points)
        return facts

    def contract_text(self, s: PitchState) -> str:
        """``S bids 6, hearts`` — for reports."""
        if s.bidder < 0:
            return "no contract"
        text = f"{self.seat_labels[s.bidder]} bids {bid_text(s.contract)}"
        if s.trump >= 0:
            text += f", {SUIT_WORDS[s.trump]}"
        if s.called >= 0:
            text += f", calls {card_name(s.called)}" + (" (alone)" if s.partner < 0 else "")
        return text

    @staticmethod
    def sim_choice(actions: tuple[Action, ...], rng: random.Random) -> Action:
        return modest_choice(actions, rng)

    # --- chance: what a simulator deals --------------------------------------------
    def chance_action(self, s: PitchState, rng: random.Random) -> Action:
        """A random outcome of the chance event now (the deal or the refill)."""
        if s.phase == DEAL:
            order = list(self.pack.cards)
            rng.shuffle(order)
            return deal_action(self, order, s.dealer)
        if s.phase == REFILL:
            order = list(iter_cards(s.stock))
            rng.shuffle(order)
            return refill_action(self, s, order)
        raise ValueError(f"no chance event in phase {s.phase}")


def deal_action(rules: PitchRules, order: list[int], dealer: int) -> Action:
    """Deal a shuffled pack (PIT-DEAL-4 / PIT-FIVE-2): nine (ten) cards each from the dealer's left; the rest is the stock."""
    n = rules.dealt_per_seat
    hands = [0] * rules.seats
    for k in range(rules.seats):
        seat = (dealer + 1 + k) % rules.seats
        hands[seat] = mask_of(order[k * n:(k + 1) * n])
    return Action(CHANCE, "deal", cards=tuple(hands))


def refill_action(rules: PitchRules, s: PitchState, order: list[int]) -> Action:
    """The refill (PIT-DRAW-3) from the stock in ``order``, top card first."""
    counts = rules._refill_counts(s)
    drawn = [0] * rules.seats
    pos = 0
    for k in range(1, rules.seats + 1):
        seat = (s.dealer + k) % rules.seats
        drawn[seat] = mask_of(order[pos:pos + counts[seat]])
        pos += counts[seat]
    return Action(CHANCE, "draw", cards=tuple(drawn))


def modest_choice(actions: tuple[Action, ...], rng: random.Random) -> Action:
    """A simulator's player: uniform choices, except an auction where it passes half the time and rarely shoots the moon."""
    if actions and actions[0].kind == "pass" and any(a.kind == "bid" for a in actions):
        x = rng.random()
        if x < 0.5:
            return actions[0]
        bids = [a for a in actions if a.kind == "bid"]
        if x < 0.98 or len(bids) == len(actions) - 1:
            return rng.choice(bids[:3])
        return actions[-1]
    if len(actions) == 2 and actions[0].kind == "pass" and actions[1].kind == "moon":
        return actions[1] if rng.random() < 0.03 else actions[0]  # nothing left to bid but the moon
    return rng.choice(actions)


def play_random_hand(rules: PitchRules, dealer: int, rng: random.Random,
                     choose=None) -> tuple[PitchState, list[Action]]:
    """One hand with random chance and random legal choices: the final state and the actions taken."""
    choose = choose or (lambda acts, r: r.choice(acts))
    s = rules.initial_state(dealer)
    actions: list[Action] = []
    while not rules.is_terminal(s):
        a = rules.chance_action(s, rng) if rules.current_player(s) == CHANCE else choose(rules.legal_actions(s), rng)
        actions.append(a)
        s = rules.apply(s, a)
    return s, actions


def simulate_game(rules: PitchRules, rng: random.Random, first_dealer: int = 0,
                  max_hands: int = 1000) -> tuple[PitchSheet, list[tuple[PitchState, PitchHandScore]]]:
    """A random game to 52: the final sheet and every hand with its score."""
    sheet = PitchSheet.empty(rules.columns())
    hands: list[tuple[PitchState, PitchHandScore]] = []
    dealer = first_dealer
    while not sheet.over and len(hands) < max_hands:
        s, _ = play_random_hand(rules, dealer, rng, modest_choice)
        score = rules.score_hand(s, sheet.scores)
        sheet = sheet.add(score)
        hands.append((s, score))
        dealer = rules.next_dealer(dealer)
    return sheet, hands


def bid_text(value: int) -> str:
    """``PASS``, a number or ``MOON``."""
    return "PASS" if value == 0 else "MOON" if value >= MOON else str(value)


__all__ = ["PitchOptions", "PitchRules", "PitchState", "PitchHandScore", "PitchSheet", "PitchCredit",
                      "deal_action", "refill_action", "modest_choice", "play_random_hand", "simulate_game", "MOON", "GAME_TARGET"]
