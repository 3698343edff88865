"""Two-player Jo-Jotte (rules spec `jojotte.md` §1–17): the deal, bidding, draw,
after-draw calls, melds, dix, trick play, Jo-Jotte and the scoring of a hand.

The state is an immutable `JJState`; `JojotteRules.legal_actions`, ``check``
and ``apply`` are the whole game. `score_hand` turns a finished state into a
`HandScore`; `ScoreSheet` (in ``jojotte_sheet``) adds hands into games and
rubbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from ..cards import KING, PIQUET_PACK, QUEEN, SEVEN, SUIT_MASKS, card_name, iter_cards, make_card, mask_of
from .base import CHANCE, Action, Options, Rules, Violation, register
from .jojotte_cards import (
    JOJOTTE,
    LAST_TRICK,
    NO_TRUMP,
    SUIT_WORDS,
    Meld,
    best_four,
    card_points,
    check_melds,
    legal_play_mask,
    sequence_key,
    trick_points,
    trick_winner,
)
from .jojotte_sheet import Credit, ScoreSheet, SheetEntry


@dataclass(frozen=True)
class JojotteOptions(Options):
    """The open points of §22 as named options; every default is the spec's."""

    nullo_bidder_may_meld: bool = False  # OP-01
    melds_in_nullo: bool = True  # OP-02 (variant.melds_in_nullo = false)
    nullo_after_double: bool = False  # OP-03
    nullo_bidder_leads: bool = False  # OP-04
    nt_overcall_round2_only: bool = False  # OP-05
    nt_direct_in_round1: bool = False  # OP-05
    overtrump_on_ruff: str = "never"  # OP-06 (4P)
    no_ruff_if_partner_winning: bool = False  # OP-07 (4P)
    jojotte_above_line: bool = False  # OP-08
    multiply_card_points_only: bool = False  # OP-09
    compare_after_multiplier: bool = False  # OP-10
    multiply_melds: bool = False  # OP-11
    multiply_slam_bonus: bool = False  # OP-11
    multiplier_only_below_line: bool = False  # OP-12
    prisoners_below_line: bool = False  # OP-13
    prisoners_skip_nullo: bool = False  # OP-14
    bonuses_in_total: bool = True  # OP-15 (variant.bonuses_in_total = false)
    sequence_tie: str = "none"  # OP-16
    sequence_compare_by_value: bool = False  # OP-17
    card_in_one_meld_only: bool = False  # OP-18
    sequence_must_be_maximal: bool = False  # OP-18
    dix_from_contract: bool = False  # OP-19 (Kandell: from the moment trump is fixed)
    dix_until_own_first_card: bool = False  # OP-19
    dix_blocked_only_if_scored: bool = False  # OP-20
    cut_order: str = "natural"  # OP-30
    recut_each_rubber: bool = False  # OP-30
    carry_partscore: bool = False  # OP-31
    session_by_points: bool = False  # OP-32
    game_target: int = 80  # JJ-GAME-1
    rubber_bonus: int = 300  # JJ-RUBBER-1
    # three and four players (§18–20); the two-player game ignores them
    jj4p_dix_ignores_dealer_meld: bool = False  # OP-21
    jj4p_first_lead: str = "dealer_left"  # OP-22 (variant: "declarer_left")
    jj4p_no_nt_after_double: bool = False  # OP-23
    jj3_defence_win_below_line: bool = False  # OP-25
    jj3_inactive_mirrors_tricks_only: bool = False  # OP-26
    jj3_nullo_penalty_full: bool = False  # OP-27
    jj3_no_information_card: bool = False  # OP-28
    jj3_box: str = "captain_and_adviser_share"  # JJ3-ALT-1 (the only reading so far)

    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {
        "overtrump_on_ruff": ("never", "always", "over_opponent_only"),
        "sequence_tie": ("none", "defender", "declarer"),
        "cut_order": ("natural", "plain"),
        "jj4p_first_lead": ("dealer_left", "declarer_left"),
        "jj3_box": ("captain_and_adviser_share",),
    }


# auction nodes (JJ-BID state table)
R1A, R1B, R2A, R2B, SUIT, NT, DOUBLED, ENDED, VOID = "R1a", "R1b", "R2a", "R2b", "Suit", "NT", "X", "end", "void"

# phases
DEAL, AUCTION, DRAW, AFTER, PLAY, DONE, VOID_HAND = "deal", "auction", "draw", "after", "play", "done", "void"

# after-draw steps (JJ-POST-1…6)
DEF_CALL, DEF_MELDS, DECL_SLAM, DECL_MELDS, AFTER_DONE = "def_call", "def_melds", "decl_slam", "decl_melds", "after_done"


class JJState(NamedTuple):
    """A two-player hand at one moment. Seats are 0 and 1; hands are bitmasks.

    Cards nobody recorded are counted in ``unknown`` instead of ``hands``; the
    checks that need them are then skipped (the validator says so).
    """

    phase: str
    dealer: int
    hands: tuple[int, ...]
    unknown: tuple[int, ...]
    seen: int  # every card known to be somewhere (hands, turned, information card, played)
    turned: int
    info: int
    node: str
    bidder: int  # the player whose contract currently stands, -1 before
    denomination: str  # "suit", "nt" or "nullo"; "" before a contract
    trump: int
    mult: int
    doubler: int
    step: str
    nullo_bidder: int
    slam: bool
    melds: tuple[tuple[Meld, ...], ...]
    dix: int  # seat that made the exchange, -1
    tricks_done: int
    leader: int
    trick: tuple[int, ...]
    won: tuple[int, ...]
    card_pts: tuple[int, ...]
    last_trick: int  # seat that won the last trick, -1
    jo: tuple[int, ...]  # 0 nothing, 1 said "Jo", 2 scored Jo-Jotte
    history: tuple[tuple[int, tuple[int, ...], int], ...]  # (leader, cards, winner) per finished trick

    @property
    def declarer(self) -> int:
        return self.bidder

    @property
    def defender(self) -> int:
        return 1 - self.bidder if self.bidder >= 0 else -1


class MeldResult(NamedTuple):
    class_a: int  # seat that wins class A, -1
    class_b: int
    points: tuple[int, ...]
    shown: tuple[tuple[Meld, ...], ...]  # the melds each player scores (and so shows)


class HandScore(NamedTuple):
    """The score of one hand, before the sheet adds held-aside points and bonuses of games and rubbers."""

    trick_points: tuple[int, ...]  # trick score: card points + last trick + Jo-Jotte (unmultiplied)
    meld_points: tuple[int, ...]
    bonus: tuple[int, ...]  # Slam bonuses
    total: tuple[int, ...]  # JJ-SCORE-1
    credits: tuple[Credit, ...]
    held_aside: int  # points put into the pool by this hand
    winner: int  # JJ-SCORE-10; -1 for none
    tricks: tuple[int, ...]
    void: bool = False
    nullo: bool = False
    # three-player forms: (seat, seats credited the same held-aside award above the line) (JJ3-SCORE-6/7)
    mirror: tuple[tuple[int, tuple[int, ...]], ...] = ()
    written: bool = False  # made of the figures written at the table (`JojotteRules.written_score`)

    @property
    def delta(self) -> tuple[int, ...]:
        """What the hand's own credits give each column, below and above the line together (the sheet adds the
        held-aside award and the rubber bonus: `SheetEntry.delta`)."""
        return tuple(self.below(c) + self.above(c) for c in range(len(self.total)))

    def below(self, seat: int) -> int:
        return sum(c.amount for c in self.credits if c.seat == seat and c.line == "below")

    def above(self, seat: int) -> int:
        return sum(c.amount for c in self.credits if c.seat == seat and c.line == "above")


_MELD_RESULTS: dict = {}  # `JojotteRules.compare_melds`'s memos, by game and options
_OUTCOMES: dict = {}  # `JojotteRules.score_hand`'s memos of what follows the melds' credits, by game and options
_MELD_CREDITS: dict = {}  # `JojotteRules.score_hand`'s memos of the melds' credits, by game and options


@register
class JojotteRules(Rules):
    """Culbertson's two-player Jo-Jotte, the main game of the spec (§1–17)."""

    name = "jojotte"
    aliases = ("jojotte-2", "jo-jotte", "jj2")
    title = "Jo-Jotte, two players"
    seats = 2
    seat_labels = ("A", "B")
    pack = PIQUET_PACK
    options_class = JojotteOptions
    rule_prefix = "JJ"
    tricks_per_hand = 9
    dealt_per_seat = 6
    drawn_per_seat = 3
    trick_size = 2  # cards in a trick
    bidders = 2  # players who call in a hand
    dealing_seats = 2  # seats that deal in turn
    sheet_labels: ClassVar[tuple[str, ...]] = ("A", "B")  # columns of the score sheet (players or sides)
    options: JojotteOptions

    def __init__(self, options: JojotteOptions | None = None):
        super().__init__(options)
        # `compare_melds` of a played hand, on what decides it: shared by the rules of one game and options in the
        # process (a --jobs worker validates many chunks of sessions), not pickled with them
        self._meld_results: dict[tuple, MeldResult] = _MELD_RESULTS.setdefault((type(self), self.options), {})
        # `score_hand`: what follows the melds' credits, on what decides it; shared as `_meld_results` is
        self._outcomes: dict[tuple, tuple] = _OUTCOMES.setdefault((type(self), self.options), {})
        self._meld_credits: dict[tuple, tuple] = _MELD_CREDITS.setdefault((type(self), self.options), {})  # `score_hand`'s

    def __getstate__(self):
        return {k: v for k, v in self.__dict__.items() if k not in ("_meld_results", "_outcomes", "_meld_credits")}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._meld_results = _MELD_RESULTS.setdefault((type(self), self.options), {})
        self._outcomes = _OUTCOMES.setdefault((type(self), self.options), {})
        self._meld_credits = _MELD_CREDITS.setdefault((type(self), self.options), {})

    # --- the state before the deal, and the deal (a chance action) ------------------
    def initial_state(self, dealer: int, sheet=None) -> JJState:
        """The state before the deal: a chance node (the deal is `deal_action`'s chance action, JJ-DEAL-3/4)."""
        z = (0, 0)
        return JJState(DEAL, dealer, z, z, 0, -1, -1, R1A, -1, "", NO_TRUMP, 1, -1, "", -1, False, ((), ()), -1, 0, -1,
                       (), z, z, -1, z, ())

    def deal_action(self, hands: tuple[int, ...], turned: int, unknown: tuple[int, ...] | None = None,
                    drawn: tuple[int, ...] = ()) -> Action:
        """The deal as a chance action: the first cards known in each hand (masks), the turned card (-1: not
        recorded), how many more cards each hand holds that nobody recorded (default: the rest of its first
        cards) and, for the seating check only, the cards the record already gives each seat in the draw."""
        return Action(CHANCE, "deal", cards=tuple(hands), info=turned,
                      unknown=tuple(unknown) if unknown is not None else (), drawn=tuple(drawn))

    def check_dealer(self, dealer: int) -> Violation | None:
        return self._check_seating(dealer, (0,) * self.seats)

    def _check_deal_action(self, s: JJState, a: Action) -> Violation | None:
        """The deal: every seat holds only what the form gives it, then JJ-DEAL-5 / JJ-INV-1 / JJ-DEAL-3."""
        if a.kind != "deal" or a.seat != CHANCE:
            return Violation("JJ-DEAL-3", f"{a.kind} comes before the deal")
        held = tuple(h | d for h, d in zip(a.cards, a.drawn)) if a.drawn else tuple(a.cards)
        v = self._check_seating(s.dealer, held)
        if v is not None:
            return v
        return self._check_dealt(tuple(a.cards), a.info)

    def _deal_state(self, s: JJState, a: Action) -> JJState:
        """The state after the deal (JJ-DEAL-3/4): the first cards of each hand and the turned card."""
        hands, turned = tuple(a.cards[:2]), a.info
        unknown = tuple(a.unknown[:2]) if a.unknown else tuple(self.dealt_per_seat - h.bit_count() for h in hands)
        seen = 0
        for h in hands:
            seen |= h
        if turned >= 0:
            seen |= 1 << turned
        return s._replace(phase=AUCTION, hands=hands, unknown=unknown, seen=seen, turned=turned)

    def _check_dealt(self, hands: tuple[int, ...], turned: int) -> Violation | None:
        """JJ-DEAL-5 / JJ-INV-1: the dealt hands and the turned card are distinct cards of the pack."""
        union = 0
        total = 0
        for h in hands:
            union |= h
            total += h.bit_count()
        if turned >= 0:
            union |= 1 << turned
            total += 1
        if union & ~self.pack.mask or union.bit_count() != total:
            seen = 0
            for c in [c for h in hands for c in iter_cards(h)] + ([turned] if turned >= 0 else []):
                if c not in self.pack:
                    return Violation("JJ-DECK-1", f"{card_name(c)} is not a card of the 32-card pack")
                if seen >> c & 1:
                    holders = [f"{{p{i}}}'s hand" for i, h in enumerate(hands) if h >> c & 1]
                    if c == turned:
                        holders.append("the turned card")
                    return Violation("JJ-DEAL-5", f"{card_name(c)} is dealt twice: in {' and as '.join(holders) if len(holders) > 1 else holders[0] + ' twice'}")
                seen |= 1 << c
        for seat, h in enumerate(hands):
            if h.bit_count() > self.dealt_per_seat:
                return Violation("JJ-DEAL-3", f"{{p{seat}}} is dealt {h.bit_count()} cards, not {self.dealt_per_seat}")
        return None

    def dealt_in_full(self, first: tuple[int, ...], turned: int, drawn: tuple[int, ...], info: int) -> int:
        """A deal and draw recorded in full, as masks (every seat's first cards and draw, the turned and the
        information card): the mask of every card they show when they are what `_check_dealt` and `_check_draw`
        accept of such a record, else 0. Each seat holds exactly its cards (JJ-DEAL-3, JJ-DRAW-1), every card is
        of the pack (JJ-DECK-1) and none is there twice (JJ-DEAL-5, JJ-INV-1, JJ-DRAW-4). One bitmask test, for the
        fast replay; 0 says only "not plainly legal" (the checks say why)."""
        if turned < 0 or info < 0:
            return 0
        seen = (1 << turned) | (1 << info)
        count = 2
        dealt, drawn_n = self.dealt_per_seat, self.drawn_per_seat
        for h in first:
            if h.bit_count() != dealt:
                return 0
            seen |= h
            count += dealt
        for d in drawn:
            if d.bit_count() != drawn_n:
                return 0
            seen |= d
            count += drawn_n
        if len(first) != self.seats or len(drawn) != self.seats or seen.bit_count() != count or seen & ~self.pack.mask:
            return 0
        return seen

    # --- hooks the three- and four-player forms override ------------------------------
    def dealt_to(self, seat: int, dealer: int) -> int:
        """Cards a seat is dealt first (JJ-DEAL-3)."""
        return self.dealt_per_seat

    def drawn_to(self, seat: int, dealer: int) -> int:
        """Cards a seat receives in the draw (JJ-DRAW-1)."""
        return self.drawn_per_seat

    def next_dealer(self, dealer: int) -> int:
        """Who deals the next hand (JJ-DEAL-2)."""
        return (dealer + 1) % self.seats

    def _check_seating(self, dealer: int, hands: tuple[int, ...]) -> Violation | None:
        """Whether the dealer may deal and every seat holds only what the form gives it (nothing in 2P)."""
        return None

    def deal(self, order: list[int], dealer: int) -> tuple[tuple[int, ...], int, tuple[int, ...], int]:
        """A shuffled pack dealt: first hands, turned card, draws, information card (-1 for none)."""
        return deal_cards(self, order, dealer)

    def trick_seats(self, s: JJState) -> tuple[int, ...]:
        """The seats that play to the current trick, the leader first."""
        return (s.leader, 1 - s.leader)

    def playing_seats(self, s: JJState) -> tuple[int, ...]:
        """The seats whose cards are played in this hand."""
        return (0, 1)

    def seat_result(self, s: JJState, score: HandScore, seat: int) -> tuple[int, int]:
        """Tricks and trick score of one seat, to check a ``result`` line."""
        return score.tricks[seat], score.trick_points[seat]

    @classmethod
    def sheet_names(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        """The names of the score sheet's columns, from the players' names in seat order."""
        return names

    def _to_play(self, s: JJState) -> int:
        """Who plays the next card."""
        return (s.leader + len(s.trick)) % 2

    def _play_rule(self, s: JJState, seat: int):
        """The cards the player may play to the trick (JJ-PLAY-2…7)."""
        return legal_play_mask(s.hands[seat], s.trick, s.trump, self.options.overtrump_on_ruff)

    def _dix_seats(self, s: JJState) -> tuple[int, ...]:
        """Who may make the dix exchange (JJ-DIX-2)."""
        return (0, 1)

    # --- whose turn ---------------------------------------------------------------
    def current_player(self, s: JJState) -> int:
        if s.phase == DEAL:
            return CHANCE
        if s.phase == AUCTION:
            return self._caller(s)
        if s.phase == DRAW:
            return CHANCE
        if s.phase == AFTER:
            return self._after_caller(s)
        if s.phase == PLAY:
            return self._to_play(s)
        return -1

    def seat_role(self, s, dealer: int, seat: int) -> str:
        """What a seat is in a hand besides a player: "" here; "inactive", "sits out" or "adviser" in other forms."""
        return ""

    def is_terminal(self, s: JJState) -> bool:
        return s.phase in (DONE, VOID_HAND)

    def _caller(self, s: JJState) -> int:
        nd = 1 - s.dealer
        node = s.node
        if node in (R1A, R2A):
            return nd
        if node in (R1B, R2B):
            return s.dealer
        if node in (SUIT, NT):
            return 1 - s.bidder
        if node == DOUBLED:
            return s.bidder
        return -1

    def _after_caller(self, s: JJState) -> int:
        if s.step in (DEF_CALL, DEF_MELDS):
            return 1 - s.bidder if s.nullo_bidder < 0 or s.step == DEF_CALL else s.nullo_bidder
        if s.step in (DECL_SLAM, DECL_MELDS):
            # the declarer of the original contract (JJ-POST-3, JJ-POST-6)
            return s.bidder if s.nullo_bidder < 0 else 1 - s.nullo_bidder
        return -1

    # --- legal actions ------------------------------------------------------------
    def legal_actions(self, s: JJState) -> tuple[Action, ...]:
        if s.phase == AUCTION:
            seat = self._caller(s)
            return tuple(Action(seat, k, suit=su) for k, su in self._auction_calls(s))
        if s.phase == DRAW:
            return ()  # a chance event: the draw comes from the record or the simulator
        if s.phase == AFTER:
            seat = self._after_caller(s)
            acts = [Action(seat, k) for k in self._after_calls(s) if k != "melds"]
            if "melds" in self._after_calls(s):
                acts.extend(Action(seat, "melds", melds=m) for m in self._meld_choices(s, seat))
            if self._contract_pending(s):  # a call that makes a Nullo stand over a dix exchange (JJ-DIX-1)
                acts = [a for a in acts if self._judge_final(s, a) is None]
            acts.extend(self._dix_actions(s))
            return tuple(acts)
        if s.phase == PLAY:
            acts = self._card_actions(s, self._to_play(s))
            acts.extend(self._dix_actions(s))
            return tuple(acts)
        return ()

    def _card_actions(self, s: JJState, seat: int) -> list[Action]:
        """The cards ``seat`` may play now, each followed by the word it may carry (JJ-PLAY, JJ-JOJOTTE)."""
        acts = []
        for c in iter_cards(self._play_rule(s, seat).mask):
            acts.append(Action(seat, "play", card=c))
            ann = self._announcement_for(s, seat, c)
            if ann:
                acts.append(Action(seat, "play", card=c, announce=ann))
        return acts

    def play_card(self, s: JJState, a: Action) -> JJState:
        if a.kind == "play" and s.phase == PLAY:
            return self._next_play(s, a)
        return self.advance(s, a)

    def card_plays(self, s: JJState) -> tuple[Action, ...]:
        """The card actions of `legal_actions` (`_card_actions`), memoised on what decides them: the seat, the
        leader, the hand, the trick so far, the trump, the seat's Jo-Jotte mark and the contract (what `_play_rule`
        and `_announcement_for` read; a form whose `_play_rule` reads more must not use this memo)."""
        if s.phase != PLAY:
            return ()
        seat = self._to_play(s)
        key = (seat, s.leader, s.hands[seat], s.trick, s.trump, s.jo[seat], s.denomination, s.nullo_bidder)
        memo = self.__dict__.setdefault("_play_memo", {})
        got = memo.get(key)
        if got is None:
            if len(memo) >= 1 << 16:
                memo.clear()
            got = memo[key] = tuple(self._card_actions(s, seat))
        return got

    def _auction_calls(self, s: JJState) -> list[tuple[str, int]]:
        node = s.node
        turned_suit = s.turned >> 4 if s.turned >= 0 else -1
        if node in (R1A, R1B):
            calls = [("pass", -1), ("accept", -1)]
            if self.options.nt_direct_in_round1:
                calls.append(("nt", -1))
            return calls
        if node in (R2A, R2B):
            return [("pass", -1)] + [("name", su) for su in range(4) if su != turned_suit] + [("nt", -1)]
        if node == SUIT:
            calls = [("pass", -1), ("double", -1)]
            if not (self.options.nt_overcall_round2_only and s.trump == turned_suit):
                calls.append(("nt", -1))
            return calls
        if node == NT:
            return [("pass", -1), ("double", -1)]
        if node == DOUBLED:
            return [("pass", -1), ("redouble", -1)]
        return []

    def _after_calls(self, s: JJState) -> tuple[str, ...]:
        if s.step == DEF_CALL:
            may_nullo = self.options.nullo_after_double or s.doubler != 1 - s.bidder
            return ("pass", "melds", "nullo") if may_nullo else ("pass", "melds")
        if s.step == DEF_MELDS:
            return ("pass", "melds")
        if s.step == DECL_SLAM:
            return ("pass", "slam")
        if s.step == DECL_MELDS:
            return ("pass", "melds")
        return ()

    def _meld_choices(self, s: JJState, seat: int) -> list[tuple[Meld, ...]]:
        """Every meld the player holds, declared all together (what a simulator offers)."""
        from .jojotte_cards import four_order

        hand = s.hands[seat]
        kind = self._meld_denomination(s)
        melds: list[Meld] = []
        for r in four_order(kind):
            if all(hand >> make_card(su, r) & 1 for su in range(4)):
                melds.append(Meld("four", r, -1, 4))
        for su in range(4):
            r = 14
            while r >= 9:
                if hand >> make_card(su, r) & 1:
                    low = r
                    while low - 1 >= 7 and hand >> make_card(su, low - 1) & 1:
                        low -= 1
                    if r - low + 1 >= 3:
                        melds.append(Meld("seq", r, su, r - low + 1))
                    r = low - 1
                else:
                    r -= 1
        if not melds:
            return []
        fours = tuple(m for m in melds if m.kind == "four")
        seqs = tuple(m for m in melds if m.kind == "seq")
        candidates = [tuple(melds), (melds[0],), fours, seqs]
        o = self.options
        choices: list[tuple[Meld, ...]] = []
        for c in candidates:
            if c and c not in choices and check_melds(c, hand, True, kind, o.card_in_one_meld_only, o.sequence_must_be_maximal) is None:
                choices.append(c)
        return choices

    def _meld_denomination(self, s: JJState) -> str:
        """The denomination whose list of fours applies (JJ-MELD-13: the final contract's). While a Nullo is
        pending it is the bid one: its list holds every four the Nullo's would (NT and Nullo share one), and the
        call that makes the Nullo stand judges the melds again (`_judge_final`)."""
        if self._nullo_final(s):
            return "nullo"
        return s.denomination

    def _contract_pending(self, s: JJState) -> bool:
        """Whether the denomination may still change after the draw (JJ-POST-4/5): the defender may still bid
        Nullo, or has bid it and the declarer has not yet said SLAM or PASS."""
        if s.phase != AFTER:
            return False
        if s.step == DEF_CALL:
            return "nullo" in self._after_calls(s)
        return s.nullo_bidder >= 0 and s.step in (DEF_MELDS, DECL_SLAM)

    def _nullo_final(self, s: JJState) -> bool:
        """Whether the final contract is known to be Nullo."""
        return s.denomination == "nullo" or (s.nullo_bidder >= 0 and not self._contract_pending(s))

    def _judge_final(self, s: JJState, a: Action) -> Violation | None:
        """The call ``a`` that makes the contract final judges what was done while it was not: a dix exchange
        (JJ-DIX-1, "final" literally) and the fours declared (JJ-MELD-13) are illegal if the Nullo stands.
        The violation belongs to the earlier action (``at``)."""
        if not self._contract_pending(s):
            return None
        nxt = self._next_after(s, a)
        if self._contract_pending(nxt) or not self._nullo_final(nxt):
            return None
        if s.dix >= 0:
            return Violation("JJ-DIX-1", f"{{p{s.dix}}} exchanged the dix, but the Nullo stands and there is no dix"
                             " exchange in Nullo (the exchange is judged on the final contract)", at=("dix", s.dix))
        o = self.options
        for seat, ms in enumerate(nxt.melds):
            if ms:
                bad = check_melds(ms, s.hands[seat], s.unknown[seat] == 0, "nullo", o.card_in_one_meld_only,
                                  o.sequence_must_be_maximal)
                if bad:
                    return Violation(bad[0], bad[1].replace("{p}", f"{{p{seat}}}") + " (the Nullo stands)",
                                     at=("melds", seat))
        return None

    def _dix_holder(self, s: JJState) -> int:
        if s.denomination != "suit" or self._nullo_final(s) or s.dix >= 0 or s.turned < 0:
            return -1
        if s.trump != s.turned >> 4 or s.turned & 15 == SEVEN:
            return -1
        seven = make_card(s.trump, SEVEN)
        for seat in self._dix_seats(s):
            if s.hands[seat] >> seven & 1:
                return seat
        return -1

    def _dix_actions(self, s: JJState) -> list[Action]:
        seat = self._dix_holder(s)
        if seat < 0:
            return []
        if self._dix_problem(s, seat) is not None:
            return []
        return [Action(seat, "dix")]

    def _dix_problem(self, s: JJState, seat: int) -> Violation | None:
        if s.phase == PLAY:
            if s.tricks_done > 0 or (s.trick and not (self.options.dix_until_own_first_card and len(s.trick) == 1
                                                       and self._to_play(s) == seat)):
                return Violation("JJ-DIX-3", f"{{p{seat}}} exchanged the dix after the first card of trick 1")
        seven_mask = 1 << make_card(s.trump, SEVEN)
        blocking = s.melds[seat]
        if self.options.dix_blocked_only_if_scored:
            # OP-20 variant: only a meld that scores blocks; before the comparison nothing has scored yet
            blocking = self.compare_melds(s).shown[seat] if s.phase == PLAY else ()
        if any(m.mask & seven_mask for m in blocking):
            return Violation("JJ-DIX-4", f"{{p{seat}}} declared the seven of trumps in a meld and may not exchange it")
        return None

    def _announcement_for(self, s: JJState, seat: int, card: int) -> str:
        if s.denomination != "suit" or s.nullo_bidder >= 0:
            return ""
        if card == make_card(s.trump, KING) and s.hands[seat] >> make_card(s.trump, QUEEN) & 1:
            return "jo"
        if card == make_card(s.trump, QUEEN) and s.jo[seat] == 1:
            return "jotte"
        return ""

    # --- checking one action ----------------------------------------------------
    def check(self, s: JJState, a: Action) -> Violation | None:
        phase = s.phase
        if phase == PLAY and a.kind == "play":
            return self._check_play(s, a)
        if phase == DEAL:
            return self._check_deal_action(s, a)
        if a.kind == "claim":
            if phase != PLAY:
                return Violation("JJ-INV-3", f"{{p{a.seat}}} claims the remaining tricks, but none are left to play")
            return None  # JJ-INV-3: a conceded rest is the claimer's
        if a.kind == "deal":
            return Violation("JJ-DEAL-3", "the cards were already dealt")
        if phase == AUCTION:
            return self._check_call(s, a)
        if phase == DRAW:
            if a.kind != "draw":
                return Violation("JJ-DRAW-1", "the draw comes before any call after the bidding")
            return self._check_draw(s, a)
        if phase == AFTER or (phase == PLAY and a.kind == "dix"):
            v = self._check_after(s, a)
            if v is None and phase == AFTER and (any(not m.shown for m in a.melds)
                                                 or any(not m.shown for ms in s.melds for m in ms)):
                v = self._unshown_scored(s, a)
            return v
        if phase == PLAY:
            if a.kind == "melds":
                return Violation("JJ-MELD-1", f"{{p{a.seat}}} declared melds after the first card of trick 1")
            return Violation("JJ-POST-9", f"{{p{a.seat}}} called {a.kind.upper()} after trick play had started")
        if phase in (DONE, VOID_HAND):
            if s.phase == VOID_HAND:
                return Violation("JJ-BID-12", "the hand was thrown in (all passed); nothing more is played")
            return Violation("JJ-INV-2", f"all {self.tricks_per_hand} tricks have been played")
        return Violation("JJ-INV-2", f"{a.kind} is not possible now")

    def _unshown_scored(self, s: JJState, a: Action) -> Violation | None:
        """JJ-MELD-11: the call that ends the calls after the draw makes the comparison, and the winner of a class
        shows every meld he scores. A meld announced without its cards (``?-?-?``, ``4?``) may stay unshown only
        if it loses whatever its cards (`sequence_key`, `best_four` rank it as the winner otherwise)."""
        nxt = self.advance(s, a)
        if nxt.phase != PLAY:
            return None
        shown = self.compare_melds(nxt).shown
        for seat, ms in enumerate(nxt.melds):
            for m in ms:
                if not m.shown and m in shown[seat]:
                    what = "a four of a kind" if m.kind == "four" else f"a sequence of {m.length} cards"
                    return Violation("JJ-MELD-11", f"{{p{seat}}} announced {what} without showing it, but it wins its"
                                     " class, or only its cards can decide the comparison: the winner shows every meld"
                                     " he scores, so the record must give its cards", at=("melds", seat))
        return None

    def _check_call(self, s: JJState, a: Action) -> Violation | None:
        caller = self._caller(s)
        who = f"{{p{a.seat}}}"
        word = a.kind.upper() + (f" {SUIT_WORDS.get(a.suit, '?')}" if a.kind == "name" else "")
        if a.seat != caller:
            if a.kind == "redouble" and s.node == DOUBLED:
                return Violation("JJ-DBL-2", f"{who} redoubled, but only the declarer may redouble")
            rule = {R1A: "JJ-BID-1", R1B: "JJ-BID-2", R2A: "JJ-BID-4", R2B: "JJ-BID-4", SUIT: "JJ-BID-6", NT: "JJ-BID-8",
                    DOUBLED: "JJ-BID-9"}.get(s.node, "JJ-BID-10")
            return Violation(rule, f"{who} called {word}, but it is {{p{caller}}}'s turn to call")
        legal = self._auction_calls(s)
        if (a.kind, a.suit if a.kind == "name" else -1) in legal:
            return None
        node = s.node
        if a.kind == "redouble" and node != DOUBLED:
            return Violation("JJ-DBL-2", f"{who} redoubled, but only a doubled contract can be redoubled, by its declarer")
        if node in (R1A, R1B):
            if a.kind == "double":
                return Violation("JJ-DBL-1", f"{who} doubled, but there is no contract to double yet")
            return Violation("JJ-BID-3", f"{who} called {word} in round 1, where only ACCEPT or PASS is possible")
        if node in (R2A, R2B):
            if a.kind == "name":
                return Violation("JJ-BID-5", f"{who} named {SUIT_WORDS[a.suit]}, the turned suit; the suit named in round 2 must differ from it")
            if a.kind == "double":
                return Violation("JJ-DBL-1", f"{who} doubled, but there is no contract to double yet")
            return Violation("JJ-BID-4", f"{who} called {word} in round 2, where only NAME a suit, NT or PASS is possible")
        if node == SUIT:
            if a.kind in ("name", "accept"):
                return Violation("JJ-BID-7", f"{who} called {word}, but a suit contract can never be replaced by another suit")
            if a.kind == "nt":
                return Violation("JJ-BID-6", f"{who} overcalled NT, but NT may overcall only a suit named in round 2 (variant nt_overcall_round2_only)")
            return Violation("JJ-BID-6", f"{who} called {word}, but the answer to a suit contract is PASS, DOUBLE or NT")
        if node == NT:
            if a.kind == "nt":
                return Violation("JJ-BID-7", f"{who} overcalled NT, but a NT contract can never be overcalled")
            return Violation("JJ-BID-8", f"{who} called {word}, but the answer to a NT contract is PASS or DOUBLE")
        if node == DOUBLED:
            if a.kind == "double":
                return Violation("JJ-DBL-1", f"{who} doubled, but the contract is already doubled")
            return Violation("JJ-BID-9", f"{who} called {word}, but after a double only REDOUBLE or PASS is possible")
        return Violation("JJ-BID-10", f"{who} called {word} after the bidding was over")

    def call_after_end(self, s: JJState, seat: int, kind: str) -> Violation:
        """Why a call recorded after the bidding ended is illegal (JJ-BID-10, JJ-DBL-1/2)."""
        who = f"{{p{seat}}}"
        if kind == "double":
            return Violation("JJ-DBL-1", f"{who} doubled after the bidding was over; a double is only possible as the answer to a bid")
        if kind == "redouble":
            return Violation("JJ-DBL-2", f"{who} redoubled after the bidding was over; a redouble only answers a double")
        return Violation("JJ-BID-10", f"{who} called {kind.upper()} after the bidding was over")

    def _check_draw(self, s: JJState, a: Action) -> Violation | None:
        if a.seat != CHANCE or len(a.cards) != self.seats:
            return Violation("JJ-DRAW-1", "the draw is dealt by the dealer: one set of cards for each player")
        seen = s.seen
        for seat, m in enumerate(a.cards):
            if m & seen:
                dup = card_name(next(iter_cards(m & seen)))
                return Violation("JJ-DRAW-4", f"{dup}, drawn by {{p{seat}}}, is already in play")
            if m & ~self.pack.mask:
                return Violation("JJ-DECK-1", f"{card_name(next(iter_cards(m & ~self.pack.mask)))} is not a card of the 32-card pack")
            seen |= m
        if a.info >= 0 and seen >> a.info & 1:
            return Violation("JJ-DRAW-4", f"the information card {card_name(a.info)} is already in play")
        for seat, m in enumerate(a.cards):
            if s.hands[seat].bit_count() + s.unknown[seat] + m.bit_count() > self.dealt_per_seat + self.drawn_per_seat:
                return Violation("JJ-DRAW-1", f"{{p{seat}}} would hold more than nine cards after the draw")
        return None

    def _check_after(self, s: JJState, a: Action) -> Violation | None:
        if a.kind == "dix":
            if not 0 <= a.seat < self.seats:
                return Violation("JJ-DIX-2", "the dix exchange is made by a player")
            holder = self._dix_holder(s)
            if s.dix >= 0:
                return Violation("JJ-DIX-5", f"{{p{a.seat}}} made a second dix exchange; it is possible once per hand")
            # JJ-DIX-1: judged on the final contract; while a Nullo may still stand, the call that decides judges it
            if s.denomination != "suit" or self._nullo_final(s):
                return Violation("JJ-DIX-1", f"{{p{a.seat}}} exchanged the dix, but there is no dix exchange in NT or Nullo")
            if s.turned >= 0 and s.trump != s.turned >> 4:
                return Violation("JJ-DIX-1", f"{{p{a.seat}}} exchanged the dix, but trumps are not the turned suit")
            if s.turned >= 0 and s.turned & 15 == SEVEN:
                return Violation("JJ-DIX-6", f"{{p{a.seat}}} exchanged the dix, but the turned card is itself the seven of trumps")
            seven = make_card(s.trump, SEVEN)
            if holder != a.seat:
                if s.unknown[a.seat] and not s.seen >> seven & 1:
                    holder = a.seat  # the seven may be among the cards nobody recorded
                else:
                    return Violation("JJ-DIX-2", f"{{p{a.seat}}} does not hold the seven of trumps ({card_name(seven)})")
            return self._dix_problem(s, a.seat)
        caller = self._after_caller(s)
        if a.seat != caller:
            step_rule = {DEF_CALL: "JJ-POST-1", DEF_MELDS: "JJ-POST-1", DECL_SLAM: "JJ-POST-3", DECL_MELDS: "JJ-POST-6"}[s.step]
            return Violation(step_rule, f"it is {{p{caller}}}'s turn after the draw, not {{p{a.seat}}}'s")
        allowed = self._after_calls(s)
        if a.kind not in allowed:
            if a.kind == "nullo":
                if s.step == DEF_CALL:
                    return Violation("JJ-NULLO-2", f"{{p{a.seat}}} doubled and may not bid Nullo", ("JJ-DBL-6", "JJ-POST-2"))
                return Violation("JJ-NULLO-2", f"{{p{a.seat}}} bid Nullo, but only the defender may, at the first call after the draw")
            if a.kind == "slam":
                return Violation("JJ-SLAM-1", f"{{p{a.seat}}} bid Slam, but only the declarer may, at his call after the defender's")
            if a.kind == "melds" and s.step == DECL_SLAM:
                return Violation("JJ-POST-3", f"{{p{a.seat}}} must first call SLAM or PASS, then declare melds")
            return Violation("JJ-POST-1", f"{{p{a.seat}}} called {a.kind.upper()}, which is not a call at this point after the draw")
        if a.kind == "melds":
            if not a.melds:
                return Violation("JJ-MELD-1", f"{{p{a.seat}}} declared melds without naming any")
            bad = check_melds(a.melds, s.hands[a.seat], s.unknown[a.seat] == 0, self._meld_denomination(s),
                              self.options.card_in_one_meld_only, self.options.sequence_must_be_maximal)
            if bad:
                return Violation(bad[0], bad[1].replace("{p}", f"{{p{a.seat}}}"))
            if s.unknown[a.seat]:
                for m in a.melds:
                    elsewhere = m.mask & s.seen & ~s.hands[a.seat]
                    if elsewhere:
                        return Violation("JJ-MELD-4", f"{m.describe()} needs {card_name(next(iter_cards(elsewhere)))}, which is elsewhere")
            return None
        return self._judge_final(s, a)

    def _check_play(self, s: JJState, a: Action) -> Violation | None:
        seat = self._to_play(s)
        card = a.card
        if a.seat != seat:
            if not s.trick:
                return Violation("JJ-PLAY-11" if s.tricks_done else "JJ-PLAY-1",
                                 f"{{p{seat}}} leads to trick {s.tricks_done + 1}, not {{p{a.seat}}}")
            return Violation("JJ-INV-2", f"it is {{p{seat}}}'s turn to play, not {{p{a.seat}}}'s")
        hand = s.hands[seat]
        if hand >> card & 1 and not a.announce:
            # the common cases need no rule table: a lead, or following a plain suit led
            trick = s.trick
            if not trick:
                return None
            led = trick[0] >> 4
            if card >> 4 == led and led != s.trump:
                return None
        if not hand >> card & 1:
            if s.unknown[seat] == 0 or s.seen >> card & 1 or card not in self.pack:
                where = self._where_is(s, card)
                return Violation("JJ-INV-2", f"{{p{seat}}} played {card_name(card)}, which is not in his hand{where}")
        else:
            rule = self._play_rule(s, seat)
            if not rule.mask >> card & 1:
                return self._explain_play(s, seat, card, rule)
        if s.unknown[seat] and not hand >> card & 1 and s.trick:
            # a card from the unrecorded part of the hand: only what the known cards prove is checked
            rule = self._play_rule(s, seat)
            led, suit, trump = s.trick[0] >> 4, card >> 4, s.trump
            if suit != led and hand & SUIT_MASKS[led]:
                return self._explain_play(s, seat, card, rule)
            if suit != led and trump >= 0 and suit != trump and hand & SUIT_MASKS[trump]:
                # void in the suit led (or it had to follow anyway): it had to trump
                return self._explain_play(s, seat, card, rule)
        if a.announce:
            return self._check_announce(s, seat, card, a.announce)
        return None

    def _where_is(self, s: JJState, card: int) -> str:
        for i, h in enumerate(s.hands):
            if h >> card & 1:
                return f" ({{p{i}}} holds it)"
        for _, cards, _ in s.history:
            if card in cards:
                return " (it was played earlier)"
        if card == s.turned:
            return " (it is the turned card)"
        if card == s.info:
            return " (it is the information card)"
        return ""

    def _explain_play(self, s: JJState, seat: int, card: int, rule) -> Violation:
        legal = " ".join(card_name(c) for c in sorted(iter_cards(rule.mask), key=lambda c: (c >> 4, -(c & 15))))
        led = s.trick[0] >> 4
        word = SUIT_WORDS[led]
        if rule.rule == "JJ-PLAY-3":
            return Violation("JJ-PLAY-3", f"{{p{seat}}} played {card_name(card)} but holds {legal} and had to follow {word}")
        if rule.rule == "JJ-PLAY-4":
            if card >> 4 == s.trump:
                return Violation("JJ-PLAY-4", f"{{p{seat}}} played {card_name(card)} but could beat {card_name(s.trick[0])} with {legal}")
            return Violation("JJ-PLAY-4", f"{{p{seat}}} played {card_name(card)} but holds {legal} and had to follow trumps")
        if rule.rule == "JJ-PLAY-5":
            return Violation("JJ-PLAY-5", f"{{p{seat}}} played {card_name(card)} with no {word} but holds the trump {legal} and had to trump")
        if rule.rule == "JJ-PLAY-6":
            return Violation("JJ-PLAY-6", f"{{p{seat}}} played {card_name(card)} but had to overtrump with {legal}")
        return Violation(rule.rule, f"{{p{seat}}} may not play {card_name(card)}; legal: {legal}")

    def _check_announce(self, s: JJState, seat: int, card: int, word: str) -> Violation | None:
        word = word.lower()
        # §0.3: every announcement error cites the section's checks, JJ-JOJOTTE-8; the rule it rests on is "see also"
        if s.denomination != "suit" or s.nullo_bidder >= 0:
            return Violation("JJ-JOJOTTE-8", f"{{p{seat}}} said \"{word.capitalize()}\" but there is no Jo-Jotte in NT or Nullo",
                             ("JJ-JOJOTTE-1",))
        king, queen = make_card(s.trump, KING), make_card(s.trump, QUEEN)
        if word == "jo":
            if card != king:
                return Violation("JJ-JOJOTTE-8", f"{{p{seat}}} said \"Jo\" with {card_name(card)}; \"Jo\" goes with the king of trumps",
                                 ("JJ-JOJOTTE-3",))
            holds_queen = s.hands[seat] >> queen & 1 or (s.unknown[seat] and not s.seen >> queen & 1)
            if not holds_queen:
                return Violation("JJ-JOJOTTE-8", f"{{p{seat}}} said \"Jo\" without holding the queen of trumps ({card_name(queen)})",
                                 ("JJ-JOJOTTE-2",))
            return None
        if word == "jotte":
            if card != queen:
                return Violation("JJ-JOJOTTE-8", f"{{p{seat}}} said \"Jotte\" with {card_name(card)}; \"Jotte\" goes with the queen of trumps",
                                 ("JJ-JOJOTTE-3",))
            if s.jo[seat] != 1:
                return Violation("JJ-JOJOTTE-8", f"{{p{seat}}} said \"Jotte\" without an earlier legal \"Jo\" with the king",
                                 ("JJ-JOJOTTE-3",))
            return None
        return Violation("JJ-JOJOTTE-8", f"\"{word}\" is not an announcement (only Jo and Jotte)")

    # --- the next state -----------------------------------------------------------
    def advance(self, s: JJState, a: Action) -> JJState:
        if a.kind == "play":
            return self._next_play(s, a)
        if a.kind == "deal":
            return self._deal_state(s, a)
        if a.kind == "claim":
            return self._claim_state(s, a.seat)
        if s.phase == AUCTION:
            return self._next_call(s, a)
        if a.kind == "draw":
            hands = tuple(h | m for h, m in zip(s.hands, a.cards))
            # cards nobody recorded: the rest of the nine (a record may give the whole hand in the draw)
            full = self.dealt_per_seat + self.drawn_per_seat
            unknown = tuple(full - h.bit_count() for h in hands)
            seen = s.seen | a.cards[0] | a.cards[1] | ((1 << a.info) if a.info >= 0 else 0)
            return s._replace(phase=AFTER, hands=hands, unknown=unknown, seen=seen, info=a.info, step=DEF_CALL)
        if a.kind == "dix":
            seven = make_card(s.trump, SEVEN)
            hands = list(s.hands)
            unknown = list(s.unknown)
            if hands[a.seat] >> seven & 1:
                hands[a.seat] &= ~(1 << seven)
            else:
                unknown[a.seat] -= 1
            if s.turned >= 0:
                hands[a.seat] |= 1 << s.turned
            else:
                unknown[a.seat] += 1
            return s._replace(hands=tuple(hands), unknown=tuple(unknown), dix=a.seat, seen=s.seen | 1 << seven)
        return self._next_after(s, a)

    def _claim_state(self, s: JJState, claimer: int) -> JJState:
        """JJ-INV-3: the conceded tricks carry their cards and the last trick to the claimer."""
        rest = self.tricks_per_hand - s.tricks_done
        remaining = mask_of(s.trick)
        for seat in self.playing_seats(s):
            remaining |= s.hands[seat]
        pts = trick_points(tuple(iter_cards(remaining)), s.trump, True, s.denomination == "nullo")
        card_pts = tuple(p + pts if i == claimer else p for i, p in enumerate(s.card_pts))
        won = tuple(w + rest if i == claimer else w for i, w in enumerate(s.won))
        return s._replace(phase=DONE, card_pts=card_pts, won=won, tricks_done=self.tricks_per_hand,
                          last_trick=claimer, hands=(0,) * len(s.hands), trick=())

    def _next_call(self, s: JJState, a: Action) -> JJState:
        node, k = s.node, a.kind
        turned_suit = s.turned >> 4 if s.turned >= 0 else -1
        if k == "accept" or (k == "nt" and node in (R1A, R1B)):
            if k == "nt":
                return s._replace(node=NT, bidder=a.seat, denomination="nt", trump=NO_TRUMP)
            return s._replace(node=SUIT, bidder=a.seat, denomination="suit", trump=turned_suit)
        if k == "name":
            return s._replace(node=SUIT, bidder=a.seat, denomination="suit", trump=a.suit)
        if k == "nt":
            return s._replace(node=NT, bidder=a.seat, denomination="nt", trump=NO_TRUMP)
        if k == "double":
            return s._replace(node=DOUBLED, mult=2, doubler=a.seat)
        if k == "redouble":
            return s._replace(node=ENDED, mult=4, phase=DRAW)
        # pass
        nxt = {R1A: R1B, R1B: R2A, R2A: R2B}.get(node)
        if nxt:
            return s._replace(node=nxt)
        if node == R2B:
            return s._replace(node=VOID, phase=VOID_HAND)
        return s._replace(node=ENDED, phase=DRAW)

    def _next_after(self, s: JJState, a: Action) -> JJState:
        k, step = a.kind, s.step
        melds = s.melds
        if k == "melds":
            melds = tuple(a.melds if i == a.seat else m for i, m in enumerate(melds))
        if step == DEF_CALL:
            if k == "nullo":
                nxt = DEF_MELDS if self.options.nullo_bidder_may_meld else DECL_SLAM
                return s._replace(step=nxt, nullo_bidder=a.seat)
            return s._replace(step=DECL_SLAM, melds=melds)
        if step == DEF_MELDS:
            return s._replace(step=DECL_SLAM, melds=melds)
        if step == DECL_SLAM:
            if k == "slam":
                return s._replace(step=DECL_MELDS, slam=True, nullo_bidder=-1)  # JJ-POST-4
            return s._replace(step=DECL_MELDS)
        # DECL_MELDS: the last call; then the comparison and trick play (JJ-POST-7, JJ-POST-9)
        s = s._replace(step=AFTER_DONE, melds=melds)
        if s.nullo_bidder >= 0:  # JJ-POST-5, JJ-NULLO-4
            leader = s.nullo_bidder if self.options.nullo_bidder_leads else 1 - s.nullo_bidder
            return s._replace(phase=PLAY, denomination="nullo", trump=NO_TRUMP, leader=leader, mult=1)
        return s._replace(phase=PLAY, leader=1 - s.bidder)  # JJ-PLAY-1

    def _next_play(self, s: JJState, a: Action) -> JJState:
        # the hot path of every replay: build the next state directly, without _replace
        seat, card = a.seat, a.card
        bit = 1 << card
        hands = s.hands
        unknown = s.unknown
        if hands[seat] & bit:
            hands = (hands[0] ^ bit, hands[1]) if seat == 0 else (hands[0], hands[1] ^ bit)
        else:
            unknown = tuple(u - (i == seat) for i, u in enumerate(unknown))
        jo = s.jo
        if a.announce:
            mark = 1 if a.announce.lower() == "jo" else 2
            jo = (mark, jo[1]) if seat == 0 else (jo[0], mark)
        trick = s.trick + (card,)
        seen = s.seen | bit
        if len(trick) < 2:
            return JJState(s.phase, s.dealer, hands, unknown, seen, s.turned, s.info, s.node, s.bidder, s.denomination,
                           s.trump, s.mult, s.doubler, s.step, s.nullo_bidder, s.slam, s.melds, s.dix, s.tricks_done,
                           s.leader, trick, s.won, s.card_pts, s.last_trick, jo, s.history)
        trump = s.trump
        win = (s.leader + trick_winner(trick, trump)) % 2
        done = s.tricks_done + 1
        gained = trick_points(trick, trump, done == self.tricks_per_hand, s.denomination == "nullo")
        last = win if done == self.tricks_per_hand else -1
        cp, won = s.card_pts, s.won
        if win == 0:
            cp, won = (cp[0] + gained, cp[1]), (won[0] + 1, won[1])
        else:
            cp, won = (cp[0], cp[1] + gained), (won[0], won[1] + 1)
        return JJState(DONE if done == self.tricks_per_hand else PLAY, s.dealer, hands, unknown, seen, s.turned, s.info,
                       s.node, s.bidder, s.denomination, trump, s.mult, s.doubler, s.step, s.nullo_bidder, s.slam, s.melds,
                       s.dix, done, win, (), won, cp, last, jo, s.history + ((s.leader, trick, win),))

    # --- melds and scoring ------------------------------------------------------
    def compare_melds(self, s: JJState) -> MeldResult:
        """JJ-MELD-6…10: who wins each class and what each player scores. Once the play has begun the result is
        decided by the melds, the final contract and trumps alone (with the session's options), and is memoised on them."""
        if s.phase not in (PLAY, DONE):
            return self._compare_melds(s, self._meld_denomination(s))
        key = (s.melds, s.denomination, s.bidder, s.nullo_bidder, s.trump)
        memo = self._meld_results
        result = memo.get(key)
        if result is None:
            result = self._compare_melds(s, s.denomination)
            if len(memo) < 65536:
                memo[key] = result
        return result

    def _compare_melds(self, s: JJState, kind: str) -> MeldResult:
        if kind == "nullo" and not self.options.melds_in_nullo:
            return MeldResult(-1, -1, (0, 0), ((), ()))
        decl = s.bidder if s.nullo_bidder < 0 else s.nullo_bidder  # JJ-NULLO-4: the Nullo bidder becomes declarer
        fours = [best_four(m, kind) for m in s.melds]
        class_a = -1
        if min(fours) < 99:
            class_a = 0 if fours[0] < fours[1] else 1  # JJ-MELD-7 (no ties possible)
        trump = s.trump if kind == "suit" else NO_TRUMP
        by_value = self.options.sequence_compare_by_value
        keys = [max((sequence_key(m, trump, by_value) for m in ms if m.kind == "seq"), default=None) for ms in s.melds]
        class_b = -1
        if keys[0] and keys[1]:
            if keys[0] != keys[1]:
                class_b = 0 if keys[0] > keys[1] else 1
            elif self.options.sequence_tie == "declarer":
                class_b = decl
            elif self.options.sequence_tie == "defender":
                class_b = 1 - decl
        elif keys[0] or keys[1]:
            class_b = 0 if keys[0] else 1  # JJ-MELD-9
        points = [0, 0]
        shown: list[tuple[Meld, ...]] = [(), ()]
        order = set(best_four_ranks(kind))
        if class_a >= 0:
            fs = tuple(m for m in s.melds[class_a] if m.kind == "four" and not m.cards and (m.rank in order or not m.shown))
            points[class_a] += 100 * len(fs)
            shown[class_a] += fs
        if class_b >= 0:
            ss = tuple(m for m in s.melds[class_b] if m.kind == "seq")
            points[class_b] += sum(m.value for m in ss)
            shown[class_b] += ss
        return MeldResult(class_a, class_b, tuple(points), tuple(shown))

    # --- what a hand shows (`Rules` hooks); also the table forms' states (`jojotte_table.TableState`) ----------
    def card_points(self, s: JJState, card: int) -> int:
        """JJ-PTS-1: what ``card`` counts in this hand, for its trump (NT and Nullo: the plain values)."""
        return card_points(card, s.trump)

    def trick_card_points(self, s: JJState, number: int) -> int | None:
        """JJ-PTS-1/2: the card values of trick ``number`` and, for the last trick, 10 (not in Nullo)."""
        if not 1 <= number <= len(s.history):
            return None
        cards = s.history[number - 1][1]
        return trick_points(cards, s.trump, number == self.tricks_per_hand, s.denomination == "nullo")

    def card_points_taken(self, s: JJState) -> tuple[int, ...] | None:
        """Per column of the sheet, the card values of the tricks won and the last-trick 10 (JJ-PTS-1/2; the
        Jo-Jotte 20 of JJ-PTS-3 is part of the trick score, not a card point); a side's column holds its players'
        (JJ4P-SCORE-1). None unless every trick was played."""
        if len(s.history) != self.tricks_per_hand:
            return None
        columns = self.sheet_labels
        if len(s.card_pts) == len(columns):
            return tuple(s.card_pts)
        return tuple(sum(p for p, lab in zip(s.card_pts, self.seat_labels) if lab in col) for col in columns)

    def column_scores(self, s: JJState, score: HandScore) -> tuple[tuple[int, int, int], ...]:
        """The trick score (JJ-PTS-4, unmultiplied), the meld points and the total (JJ-SCORE-1) per column."""
        return tuple(zip(score.trick_points, score.meld_points, score.total))

    def contract_text(self, s: JJState) -> str:
        """``A S doubled``, ``B NT``, ``A Nullo``, ``all pass``; ``?`` before a contract."""
        labels = self.seat_labels
        if s.phase == VOID_HAND:
            return "all pass"
        if s.bidder < 0:
            return "?"
        if s.denomination == "nullo" or s.nullo_bidder >= 0:
            text = f"{labels[s.nullo_bidder if s.nullo_bidder >= 0 else s.bidder]} Nullo"
        elif s.denomination == "nt":
            text = f"{labels[s.bidder]} NT"
        else:
            text = f"{labels[s.bidder]} {'SHDC'[s.trump] if 0 <= s.trump < 4 else '?'}"
        if s.mult == 2:
            text += " doubled"
        elif s.mult == 4:
            text += " redoubled"
        if s.slam:
            text += ", Slam"
        return text

    def score_hand(self, s: JJState, won: tuple[int, ...] | None = None,
                   trick_scores: tuple[int, ...] | None = None) -> HandScore:
        """Score a finished hand (JJ-SCORE, JJ-NULLO, JJ-SLAM, JJ-MELD-12).

        For a hand recorded without its cards, pass the tricks each player won
        and their trick scores (card points, last trick and Jo-Jotte).
        What follows the melds' credits is decided by the tricks, the trick scores, the announcements, the last
        trick, the meld points and the contract alone, and is memoised on them (`_score_outcome`).
        """
        if s.phase == VOID_HAND:
            return HandScore((0, 0), (0, 0), (0, 0), (0, 0), (), 0, -1, (0, 0), void=True)
        won = tuple(won) if won is not None else s.won
        melds = self.compare_melds(s)
        mp = melds.points
        all_tricks = self.tricks_per_hand
        # of the tricks won, `_score_outcome` reads the Nullo bidder's number, else only whether a side won them all
        # (JJ-SLAM-3…5): the key holds that, whatever the number of tricks a hand has
        won_key = (won[s.nullo_bidder] if s.denomination == "nullo" else None if max(won) < all_tricks else
                   tuple((w > all_tricks) - (w < all_tricks) for w in won))
        key = (won_key, None if trick_scores is None else tuple(trick_scores), s.card_pts, s.jo, s.last_trick, mp,
               s.denomination, s.bidder, s.nullo_bidder, s.mult, s.slam)
        memo = self._outcomes
        got = memo.get(key)
        if got is None:
            got = self._score_outcome(s, won, trick_scores, mp)
            if len(memo) < 65536:
                memo[key] = got
        trick, jo_pts, bonus, total, outcome, held, winner, nullo = got
        above = self.options.jojotte_above_line
        if mp[0] or mp[1] or (above and (jo_pts[0] or jo_pts[1])):
            # the melds' credits (and the Jo-Jotte's above the line), memoised on what they read
            key = (melds.shown, mp, s.mult, jo_pts if above else None)
            credits = self._meld_credits.get(key)
            if credits is None:
                credits = self._credits_of_melds(melds, s.mult, jo_pts)
                if len(self._meld_credits) < 65536:
                    self._meld_credits[key] = credits
            outcome = (*credits, *outcome)
        return HandScore(trick, mp, bonus, total, outcome, held, winner, won, nullo=nullo)

    def _credits_of_melds(self, melds: MeldResult, mult: int, jo_pts: tuple[int, ...]) -> tuple[Credit, ...]:
        """The credits above the line of the melds each player scores (JJ-MELD-12), and of a Jo-Jotte under
        ``jojotte_above_line`` (JJ-PTS-3), before the hand's other credits."""
        o = self.options
        mp = melds.points
        credits: list[Credit] = []
        for seat in (0, 1):
            if mp[seat]:
                shown = ", ".join(m.describe() for m in melds.shown[seat])
                credits.append(Credit(seat, "above", mp[seat] * (mult if o.multiply_melds else 1), "JJ-MELD-12",
                                      f"melds: {shown}"))
            if o.jojotte_above_line and jo_pts[seat]:
                credits.append(Credit(seat, "above", jo_pts[seat], "JJ-PTS-3", "Jo-Jotte (variant jojotte_above_line)"))
        return tuple(credits)

    def _score_outcome(self, s: JJState, won: tuple[int, ...], trick_scores: tuple[int, ...] | None,
                       mp: tuple[int, ...]) -> tuple:
        """What `score_hand` finds after the melds' credits: ``(trick score, Jo-Jotte points, bonus, total, credits,
        held aside, winner, nullo)``, from the tricks won, the trick scores (None: from the state's card points),
        the meld points and what the state says of the announcements, the last trick and the contract."""
        o = self.options
        jo_pts = tuple(JOJOTTE if j == 2 else 0 for j in s.jo)
        last = tuple(LAST_TRICK if s.last_trick == i and s.denomination != "nullo" else 0 for i in (0, 1))
        if trick_scores is None:
            trick = tuple(p + (0 if o.jojotte_above_line else j) for p, j in zip(s.card_pts, jo_pts))
        else:
            trick = tuple(trick_scores)
        credits: list[Credit] = []

        if s.denomination == "nullo":
            nb = s.nullo_bidder
            n = won[nb]
            held = sum(trick)  # JJ-NULLO-5
            if n == 0:
                credits.append(Credit(nb, "above", 200, "JJ-NULLO-6", "Nullo made"))
                winner = nb
            else:
                pen = 200 + 100 * (n - 1)
                credits.append(Credit(1 - nb, "above", pen, "JJ-NULLO-7", f"Nullo failed with {n} trick{'s' if n > 1 else ''}: 200 + 100 × {n - 1}"))
                winner = 1 - nb
            total = tuple(t + m for t, m in zip(trick, mp))
            return trick, jo_pts, (0, 0), total, tuple(credits), held, winner, True

        decl, dfd = s.bidder, 1 - s.bidder
        m = s.mult
        bonus = [0, 0]
        all_tricks = self.tricks_per_hand
        if s.slam and won[decl] == all_tricks:
            bonus[decl] = 500  # JJ-SLAM-3
        elif not s.slam:
            for seat in (0, 1):
                if won[seat] == all_tricks:
                    bonus[seat] = 100  # JJ-SLAM-5
        for seat in (0, 1):
            if bonus[seat]:
                credits.append(Credit(seat, "above", bonus[seat] * (m if o.multiply_slam_bonus else 1),
                                      "JJ-SLAM-3" if s.slam else "JJ-SLAM-5", "bid Slam made" if s.slam else "unbid Slam"))
        in_total = list(bonus) if o.bonuses_in_total else [0, 0]
        if o.jojotte_above_line:  # OP-08: above the line, not multiplied, but still part of the total
            in_total = [b + j for b, j in zip(in_total, jo_pts)]
        if o.compare_after_multiplier:
            total = tuple(m * t + p + b for t, p, b in zip(trick, mp, in_total))
        else:
            total = tuple(t + p + b for t, p, b in zip(trick, mp, in_total))

        if o.multiply_card_points_only and trick_scores is None:
            extra = tuple(l + (0 if o.jojotte_above_line else j) for l, j in zip(last, jo_pts))
            mc = sum(m * (t - e) + e for t, e in zip(trick, extra))
        else:
            mc = m * sum(trick)
        c_plain = sum(trick)
        aside_c = c_plain if o.multiplier_only_below_line else mc
        held = 0
        winner = -1
        if s.slam and won[decl] < all_tricks:  # JJ-SLAM-4
            winner = dfd
            if total[dfd] > total[decl]:
                credits.append(Credit(dfd, "below", mc, "JJ-SLAM-4", f"bid Slam failed; defender's total higher: {self._c_text(m, trick)}"))
            else:
                credits.append(Credit(dfd, "above", aside_c, "JJ-SLAM-4", f"bid Slam failed: {self._c_text(m, trick)}"))
        elif total[decl] > total[dfd]:
            winner = decl
            if m == 1:
                credits.append(Credit(decl, "below", trick[decl], "JJ-SCORE-3", "the declarer's trick score"))
                if trick[dfd]:
                    credits.append(Credit(dfd, "above", trick[dfd], "JJ-SCORE-3", "the defender's trick score"))
            else:
                credits.append(Credit(decl, "below", mc, "JJ-SCORE-5", self._c_text(m, trick)))
        elif total[dfd] > total[decl]:
            winner = dfd
            credits.append(Credit(dfd, "below", mc, "JJ-SCORE-5" if m > 1 else "JJ-SCORE-4", self._c_text(m, trick)))
        else:
            held = aside_c  # JJ-SCORE-6
        return trick, jo_pts, tuple(bonus), total, tuple(credits), held, winner, False

    def jojotte_in_trick_score(self) -> bool:
        """Whether the Jo-Jotte announcement counts in the trick score (JJ-PTS-3; OP-08 writes it above the line)."""
        return not self.options.jojotte_above_line

    def two_player_view(self, state):
        """The hand as two-player Jo-Jotte, for the analyzer: ``(the two-player rules, the state in their seats,
        the seats the view's two seats are)``, the state None when the hand has no card play to view; None when
        the play is not between two players. Two-player Jo-Jotte is itself."""
        return self, state, (0, 1)

    def score_two_player_end(self, s, end: JJState) -> HandScore:
        """The score of the hand ``s`` had its card play ended as ``end``, a finished state of its two-player view
        (`two_player_view`): the analyzer's what-if and restoration are played in the view and scored by the game.
        Two-player Jo-Jotte is its own view."""
        return self.score_hand(end)

    # --- the sheet, through the hooks every game answers ------------------------------
    def sheet_figures(self, sheet: ScoreSheet, column: int) -> dict:
        return {"below": sheet.below[column], "above": sheet.above[column], "games": sheet.games_total[column],
                "rubbers": sheet.rubbers[column], "total": sheet.total[column]}

    def new_sheet(self) -> ScoreSheet:
        """An empty sheet: a column per player, or per side (JJ4P-SCORE-1, JJ3-ALT-1), with the session's options."""
        return ScoreSheet.empty(len(self.columns_of()), self.options)

    def hand_score(self, state: JJState, sheet: ScoreSheet | None = None) -> HandScore:
        return self.score_hand(state)

    def add_score(self, sheet: ScoreSheet, score: HandScore) -> tuple[ScoreSheet, SheetEntry]:
        return sheet.add(score, self.options)

    def sheet_carry(self, sheet: ScoreSheet, length: int | None) -> tuple | None:
        return sheet.carry(length)

    def sheet_rebase(self, sheet: ScoreSheet, start: ScoreSheet, base: ScoreSheet) -> ScoreSheet:
        return sheet.rebase(start, base)

    def turn_to_deal(self, expected: int, dealer: int, first: bool, sheet: ScoreSheet) -> Violation | None:
        """The deal alternates (JJ-DEAL-2) from the ``[FirstDealer]`` (JJ-DEAL-1), and is cut again for each
        rubber under ``recut_each_rubber``."""
        if expected < 0 or dealer == expected or (not sheet.rubber_in_progress and self.options.recut_each_rubber):
            return None
        if first:
            return Violation("JJ-DEAL-1", f"{{p{dealer}}} deals, but it is {{p{expected}}}'s deal ([FirstDealer])")
        return Violation("JJ-DEAL-2", f"{{p{dealer}}} deals, but it is {{p{expected}}}'s deal (the deal alternates)")

    session_length_tag: ClassVar[str] = "Rubbers"
    session_over_phase: ClassVar[str] = "sheet"

    def session_over(self, sheet: ScoreSheet, names: tuple[str, ...], length: int | None) -> Violation | None:
        """JJ-SESSION-1: the rubbers the session was agreed at were all finished before this hand."""
        if length is not None and sum(sheet.rubbers) >= length:
            return Violation("JJ-SESSION-1", f"the session was agreed at {length} rubber(s), which were finished before this hand")
        return None

    def written_score(self, values: tuple[int, ...], nullo: bool = False) -> HandScore:
        """The hand as written at the table, ``values`` the figures below the line per column, then above, then
        the points held aside (JJ-SCORE-1); ``nullo``: a Nullo bid without a Slam.

        The hand's winner (who collects the held-aside pool, JJ-PRIS-3) is read from the figures: the column
        written below the line; in a Nullo hand the column with most above; a hand that puts points aside with
        nothing below is a tie; otherwise the column with most above. The figures already hold any held-aside
        award: the sheet empties the pool rather than paying it twice (``written``).
        """
        n = (len(values) - 1) // 2
        below, above, aside = values[:n], values[n:2 * n], values[2 * n]
        credits = []
        for seat in range(n):
            if below[seat]:
                credits.append(Credit(seat, "below", below[seat], "JJ-SCORE-1", "as written"))
            if above[seat]:
                credits.append(Credit(seat, "above", above[seat], "JJ-SCORE-1", "as written"))
        winner = -1
        if any(below) and not nullo:
            winner = max(range(n), key=lambda s: below[s])
        elif nullo and any(above):
            winner = max(range(n), key=lambda s: above[s])
        elif not aside and any(above):
            winner = max(range(n), key=lambda s: above[s])
        zero = (0,) * n
        return HandScore(zero, zero, zero, zero, tuple(credits), aside, winner, zero, nullo=nullo, written=True)

    def written_differences(self, values: tuple[int, ...], entry: SheetEntry, names: tuple[str, ...]) -> list[tuple[str, str]]:
        """Each written figure (below, above the line per column, then held aside) that is not what the hand
        wrote on the sheet, as ``(rule, message)``: the rule of the credit behind the difference."""
        n = len(names)
        below, above = [0] * n, [0] * n  # `SheetEntry.below` and `above` of every column, in one pass
        for c in entry.credits:
            if 0 <= c.seat < n:
                if c.line == "below":
                    below[c.seat] += c.amount
                elif c.line == "above":
                    above[c.seat] += c.amount
        if values == (*below, *above, entry.held_aside):
            return []
        out = []
        for seat in range(n):
            for line, written, real in (("below", values[seat], below[seat]), ("above", values[n + seat], above[seat])):
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
                out.append((rule, f"{names[seat]}'s score {line} the line is written {written}, but is {real}: {breakdown}"))
        if values[2 * n] != entry.held_aside:
            out.append(("JJ-PRIS-1", f"{values[2 * n]} points are written as held aside, but the hand holds aside {entry.held_aside}"))
        return out

    @staticmethod
    def _c_text(m: int, trick: tuple[int, ...]) -> str:
        c = " + ".join(str(t) for t in trick)
        return f"{m} × the combined trick score ({c})" if m > 1 else f"the combined trick score ({c})"


def _rule_for_difference(parts, diff: int, line: str) -> str:
    """The rule behind a wrong figure: the credit that accounts for the difference, if one does."""
    for c in parts:
        if c.amount == abs(diff):
            return c.rule
    if parts:
        return max(parts, key=lambda c: c.amount).rule
    return "JJ-SCORE-9" if line == "below" else "JJ-SCORE-7"


def best_four_ranks(kind: str) -> tuple[int, ...]:
    from .jojotte_cards import four_order

    return four_order(kind)


def deal_cards(rules: JojotteRules, order: list[int], dealer: int) -> tuple[tuple[int, ...], int, tuple[int, ...], int]:
    """Deal a shuffled pack (JJ-DEAL-3/4, JJ-DRAW-1/2): first hands, turned card, draws, information card."""
    nd = 1 - dealer
    hands = [0, 0]
    pos = 0
    for _ in range(2):
        for seat in (nd, dealer):
            hands[seat] |= mask_of(order[pos:pos + 3])
            pos += 3
    turned = order[pos]
    pos += 1
    draws = [0, 0]
    for seat in (nd, dealer):
        draws[seat] = mask_of(order[pos:pos + 3])
        pos += 3
    info = order[-1]  # the bottom card of the stock (JJ-DRAW-2)
    return tuple(hands), turned, tuple(draws), info
