"""Four-player partnership Jo-Jotte (rules spec §19, ``JJ4P-…``): North-South against East-West.

Six cards each and the bottom card of the remaining eight turned; a clockwise auction that ends after
three passes in a row; two more cards each, the dealer's being one stock card and the turned card; the
defenders' Nullo calls, the declaring side's Slam calls and everybody's melds (in that order, OP-24);
eight tricks of four cards. The hand is scored by the two-player core with sides in place of players
(``JJ4P-SCORE-1``): the score sheet has the columns ``NS`` and ``EW``; game is 125 (``JJ4P-GAME-1``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import SEVEN, card_name, iter_cards, make_card, mask_of
from .base import CHANCE, Action, Violation, register
from .jojotte import AFTER, DONE, DRAW, PLAY, VOID_HAND, HandScore, JojotteOptions, MeldResult
from .jojotte_cards import NO_TRUMP, SUIT_WORDS, PlayRule, best_four, legal_play_mask, sequence_key, trick_winner
from .jojotte_table import TableRules, TableState, replace_at


@dataclass(frozen=True)
class Jojotte4POptions(JojotteOptions):
    """The options of `JojotteOptions`; only the game target differs (JJ4P-GAME-1)."""

    game_target: int = 125  # JJ4P-GAME-1


# auction nodes (JJ4P-BID)
P1, P2, OPEN, ENDED, VOID = "phase1", "phase2", "open", "end", "void"
# after-draw steps (JJ4P-POST, JJ4P-MELD-1, OP-24)
NULLO, SLAM, MELDS, AFTER_DONE = "nullo", "slam", "melds", "after_done"
STEP_RULE = {NULLO: "JJ4P-POST-1", SLAM: "JJ4P-POST-2", MELDS: "JJ4P-MELD-1"}
RULE_4P = {"JJ-NULLO-6": "JJ4P-NULLO-1", "JJ-NULLO-7": "JJ4P-NULLO-1", "JJ-SLAM-3": "JJ4P-SLAM-1"}


def partner(seat: int) -> int:
    return (seat + 2) % 4


def side_of(seat: int) -> int:
    """0 for North-South, 1 for East-West (JJ4P-SEAT-1)."""
    return seat % 2


@register
class Jojotte4PRules(TableRules):
    """Four players in two partnerships, partners opposite (§19)."""

    draw_rule = "JJ4P-DRAW-1"

    name = "jojotte-4p"
    aliases = ("jj4p", "jojotte4p", "jojotte-4", "jo-jotte-4p")
    title = "Jo-Jotte, four players in partnerships"
    seats = 4
    seat_labels = ("N", "E", "S", "W")
    sheet_labels = ("NS", "EW")
    options_class = Jojotte4POptions
    rule_prefix = "JJ4P"
    tricks_per_hand = 8
    dealt_per_seat = 6
    drawn_per_seat = 2
    trick_size = 4
    bidders = 4
    dealing_seats = 4

    @classmethod
    def sheet_names(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        if len(names) != 4:
            return cls.sheet_labels
        return (f"{names[0]} and {names[2]}", f"{names[1]} and {names[3]}")

    def deal(self, order: list[int], dealer: int):
        """JJ4P-DEAL-1, JJ4P-DRAW-1: six cards each in threes from the dealer's left, the bottom card of the
        remaining eight turned; then two each, the dealer's being one stock card and the turned card."""
        players = tuple((dealer + i) % 4 for i in range(1, 5))
        hands = [0] * 4
        pos = 0
        for _ in range(2):
            for seat in players:
                hands[seat] |= mask_of(order[pos:pos + 3])
                pos += 3
        turned = order[31]
        draws = [0] * 4
        for seat in players[:3]:
            draws[seat] = mask_of(order[pos:pos + 2])
            pos += 2
        draws[dealer] = mask_of((order[pos], turned))
        return tuple(hands), turned, tuple(draws), -1

    def seat_result(self, s: TableState, score: HandScore, seat: int) -> tuple[int, int]:
        jo = 20 if s.jo[seat] == 2 and not self.options.jojotte_above_line else 0
        return s.won[seat], s.card_pts[seat] + jo

    # --- the auction (JJ4P-BID) --------------------------------------------------------------
    def _auction_start(self, s: TableState) -> TableState:
        return s._replace(node=P1, turn=(s.dealer + 1) % 4, count=0)

    def _auction_calls(self, s: TableState) -> list[tuple[str, int]]:
        node, seat = s.node, s.turn
        if node == P1:
            return [("pass", -1), ("accept", -1)] + ([("nt", -1)] if self.options.nt_direct_in_round1 else [])
        if node == P2:
            turned_suit = s.turned >> 4 if s.turned >= 0 else -1
            return [("pass", -1)] + [("name", su) for su in range(4) if su != turned_suit] + [("nt", -1)]
        if node != OPEN:
            return []
        calls = [("pass", -1)]
        opponent = side_of(seat) != side_of(s.bidder)
        if opponent and self._may_overcall(s):
            calls.append(("nt", -1))
        if opponent and s.mult == 1:
            calls.append(("double", -1))
        if not opponent and s.mult == 2:
            calls.append(("redouble", -1))
        return calls

    def _may_overcall(self, s: TableState) -> bool:
        """JJ4P-BID-3: NT over the opponents' suit (OP-05, OP-23 variants)."""
        if s.denomination != "suit":
            return False
        if self.options.nt_overcall_round2_only and s.turned >= 0 and s.trump == s.turned >> 4:
            return False
        return not (self.options.jj4p_no_nt_after_double and s.mult > 1)

    def _next_call(self, s: TableState, a: Action) -> TableState:
        k, node = a.kind, s.node
        nxt = (a.seat + 1) % 4
        if k == "pass":
            count = s.count + 1
            if node in (P1, P2):
                if count < 4:
                    return s._replace(count=count, turn=nxt)
                if node == P1:
                    return s._replace(node=P2, count=0, turn=(s.dealer + 1) % 4)
                return s._replace(node=VOID, phase=VOID_HAND, turn=-1)  # JJ4P-BID-2
            if count == 3:  # JJ4P-BID-4
                return s._replace(node=ENDED, phase=DRAW, turn=-1, count=0)
            return s._replace(count=count, turn=nxt)
        if k == "double":
            return s._replace(mult=2, doubler=a.seat, count=0, turn=nxt)
        if k == "redouble":
            return s._replace(mult=4, count=0, turn=nxt)
        # a bid: ACCEPT, NAME or NT (a NT overcall cancels any double, OP-23)
        if k == "nt":
            s = s._replace(denomination="nt", trump=NO_TRUMP)
        else:
            s = s._replace(denomination="suit", trump=a.suit if k == "name" else s.turned >> 4)
        return s._replace(node=OPEN, bidder=a.seat, mult=1, doubler=-1, count=0, turn=nxt)

    def check(self, s: TableState, a: Action) -> Violation | None:
        v = self.check_actor(s, a)
        if v is not None:
            return v
        return super().check(s, a)

    def _check_call(self, s: TableState, a: Action) -> Violation | None:
        who = f"{{p{a.seat}}}"
        word = f"NAME {SUIT_WORDS.get(a.suit, '?')}" if a.kind == "name" else a.kind.upper()
        node, caller = s.node, s.turn
        if a.seat != caller:
            rule = {P1: "JJ4P-BID-1", P2: "JJ4P-BID-2"}.get(node, "JJ4P-BID-3")
            return Violation(rule, f"{who} called {word}, but it is {{p{caller}}}'s turn to call (the calls go clockwise)")
        if (a.kind, a.suit if a.kind == "name" else -1) in self._auction_calls(s):
            return None
        if node == P1:
            return Violation("JJ4P-BID-1", f"{who} called {word} in phase 1, where each player may only ACCEPT the turned suit or PASS")
        if node == P2:
            if a.kind == "name":
                return Violation("JJ-BID-5", f"{who} named {SUIT_WORDS[a.suit]}, the turned suit; the suit named in phase 2 must differ from it")
            return Violation("JJ4P-BID-2", f"{who} called {word} in phase 2, where only NAME a suit, NT or PASS is possible")
        same_side = side_of(a.seat) == side_of(s.bidder)
        if a.kind in ("accept", "name"):
            return Violation("JJ4P-BID-3", f"{who} called {word}, but once a contract exists no ACCEPT or NAME is possible")
        if a.kind == "nt":
            if s.denomination == "nt":
                return Violation("JJ-BID-7", f"{who} overcalled NT, but a NT contract can never be overcalled")
            if same_side:
                return Violation("JJ4P-BID-3", f"{who} overcalled his own side's suit with NT; only an opponent of the declaring side may")
            if self.options.jj4p_no_nt_after_double and s.mult > 1:
                return Violation("JJ4P-BID-3", f"{who} overcalled NT after a double (variant jj4p_no_nt_after_double)")
            return Violation("JJ-BID-6", f"{who} overcalled NT, but NT may overcall only a suit named in phase 2 (variant nt_overcall_round2_only)")
        if a.kind == "double":
            if same_side:
                return Violation("JJ4P-BID-3", f"{who} doubled his own side's contract; only an opponent of the declaring side may double")
            return Violation("JJ4P-BID-3", f"{who} doubled, but the contract is already doubled")
        if a.kind == "redouble":
            if not same_side:
                return Violation("JJ4P-BID-3", f"{who} redoubled, but only the declarer or his partner may redouble")
            if s.mult == 1:
                return Violation("JJ4P-BID-3", f"{who} redoubled, but the contract is not doubled")
            return Violation("JJ4P-BID-3", f"{who} redoubled, but the contract is already redoubled")
        return Violation("JJ4P-BID-3", f"{who} called {word}, which is not a call of the auction")

    def call_after_end(self, s: TableState, seat: int, kind: str) -> Violation:
        who = f"{{p{seat}}}"
        if s.phase == VOID_HAND:
            return Violation("JJ4P-BID-2", f"{who} called {kind.upper()}, but all four passed in both phases: the hand is void")
        return Violation("JJ4P-BID-4", f"{who} called {kind.upper()} after the auction had ended with three passes in a row")

    # --- the draw (JJ4P-DRAW-1) --------------------------------------------------------------
    def _check_draw(self, s: TableState, a: Action) -> Violation | None:
        if a.seat != CHANCE or len(a.cards) != 4:
            return Violation("JJ4P-DRAW-1", "the draw is dealt by the dealer: one set of cards for each player")
        if a.info >= 0:
            return Violation("JJ4P-DRAW-1", f"no information card is turned in the four-player game ({card_name(a.info)} given); all 32 cards are in play")
        d, turned = s.dealer, s.turned
        cards = list(a.cards)
        if turned >= 0:
            for seat, m in enumerate(cards):
                if seat != d and m >> turned & 1:
                    return Violation("JJ4P-DRAW-1", f"{{p{seat}}} drew the turned card {card_name(turned)}; the dealer takes it")
            if cards[d] >> turned & 1:
                cards[d] &= ~(1 << turned)
            elif s.hands[d].bit_count() + cards[d].bit_count() >= 8:
                return Violation("JJ4P-DRAW-1", f"the dealer {{p{d}}} draws one stock card and the turned card {card_name(turned)}, which is missing")
        seen = s.seen
        for seat, m in enumerate(cards):
            if m & seen:
                dup = card_name(next(iter_cards(m & seen)))
                return Violation("JJ-DRAW-4", f"{dup}, drawn by {{p{seat}}}, is already in play")
            if m & ~self.pack.mask:
                return Violation("JJ-DECK-1", "a drawn card is not a card of the 32-card pack")
            seen |= m
            limit = 8 - (1 if seat == d and turned >= 0 else 0)
            if s.hands[seat].bit_count() + s.unknown[seat] + m.bit_count() > limit:
                return Violation("JJ4P-DRAW-1", f"{{p{seat}}} would hold more than eight cards after the draw")
        return None

    def _next_draw(self, s: TableState, a: Action) -> TableState:
        if s.turned >= 0:  # the turned card joins the dealer's hand, whatever the record says
            a = a._replace(cards=replace_at(tuple(a.cards), s.dealer, a.cards[s.dealer] | 1 << s.turned))
        return super()._next_draw(s, a)

    # --- after the draw: Nullo, Slam, melds (JJ4P-POST, JJ4P-MELD-1, OP-24) ----------------------
    def _after_start(self, s: TableState) -> TableState:
        b = s.bidder
        doubled_by_defence = s.doubler >= 0 and side_of(s.doubler) != side_of(b)
        if self.options.nullo_after_double or not doubled_by_defence:  # OP-03
            return s._replace(step=NULLO, turn=(b + 1) % 4, count=0)
        return s._replace(step=SLAM, turn=b, count=0)

    def _after_calls(self, s: TableState) -> tuple[str, ...]:
        return {NULLO: ("pass", "nullo"), SLAM: ("pass", "slam"), MELDS: ("pass", "melds")}.get(s.step, ())

    def _next_after(self, s: TableState, a: Action) -> TableState:
        k, step, b = a.kind, s.step, s.bidder
        if step == NULLO:
            if k == "nullo" or s.count == 1:
                s = s._replace(nullo_bidder=a.seat) if k == "nullo" else s
                return s._replace(step=SLAM, turn=b, count=0)
            return s._replace(count=1, turn=(b + 3) % 4)
        if step == SLAM:
            if k == "slam":  # JJ4P-POST-2: Slam voids Nullo
                return self._melds_start(s._replace(slam=True, slam_by=a.seat, nullo_bidder=-1))
            if s.count == 1:
                return self._melds_start(s)
            return s._replace(count=1, turn=partner(b))
        if k == "melds":
            s = s._replace(melds=replace_at(s.melds, a.seat, a.melds))
        if s.count < 3:
            return s._replace(count=s.count + 1, turn=(a.seat + 1) % 4)
        # JJ4P-PLAY-1 (OP-22): the dealer's left leads, or the declarer's left with the variant
        decl = s.nullo_bidder if s.denomination == "nullo" else b
        first = decl if self.options.jj4p_first_lead == "declarer_left" else s.dealer
        return s._replace(step=AFTER_DONE, turn=-1, count=0, phase=PLAY, leader=(first + 1) % 4)

    def _melds_start(self, s: TableState) -> TableState:
        if s.nullo_bidder >= 0:  # the Nullo stands and binds both partners (JJ4P-POST-1)
            s = s._replace(denomination="nullo", trump=NO_TRUMP, mult=1)
        return s._replace(step=MELDS, turn=(s.bidder + 1) % 4, count=0)

    def _check_after(self, s: TableState, a: Action) -> Violation | None:
        seat, k = a.seat, a.kind
        who = f"{{p{seat}}}"
        if k == "dix":
            if seat == s.dealer:
                return Violation("JJ4P-DIX-1", f"{who} is the dealer: the holder of the seven of trumps exchanges it with him")
            return super()._check_after(s, a)
        caller = s.turn
        b = s.bidder
        if k == "nullo" and (seat != caller or s.step != NULLO):
            if side_of(seat) == side_of(b):
                return Violation("JJ4P-POST-1", f"{who} bid Nullo, but only a defender may bid Nullo")
            if s.doubler >= 0 and side_of(s.doubler) == side_of(seat) and not self.options.nullo_after_double:
                return Violation("JJ4P-POST-1", f"{who} bid Nullo, but his side doubled and may not bid Nullo")
            return Violation("JJ4P-POST-1", f"{who} bid Nullo out of turn: the defenders call Nullo or pass before the Slam"
                             " calls, the one on the declarer's left first")
        if k == "slam" and (seat != caller or s.step != SLAM):
            if side_of(seat) != side_of(b):
                return Violation("JJ4P-POST-2", f"{who} bid Slam, but only the declarer or his partner may bid Slam")
            return Violation("JJ4P-POST-2", f"{who} bid Slam out of turn: the declarer calls Slam or passes, then his partner")
        if k == "melds" and (seat != caller or s.step != MELDS):
            if s.step != MELDS:
                return Violation("JJ4P-MELD-1", f"{who} declared melds before the Nullo and Slam calls were over")
            return Violation("JJ4P-MELD-1", f"{who} declared melds out of turn: it is {{p{caller}}}'s turn (from the declarer's left)")
        if seat != caller:
            return Violation(STEP_RULE.get(s.step, "JJ4P-MELD-1"), f"it is {{p{caller}}}'s turn after the draw, not {who}'s")
        if k not in self._after_calls(s):
            return Violation(STEP_RULE.get(s.step, "JJ4P-MELD-1"), f"{who} called {k.upper()}, which is not a call at this point after the draw")
        if k == "melds":
            return super()._check_after(s, a)  # JJ-MELD-2…5, JJ-MELD-15
        return self._judge_final(s, a)  # JJ-DIX-1: a dix made before a Nullo that stands

    def _contract_pending(self, s: TableState) -> bool:
        """A Nullo may still be bid (JJ4P-POST-1), or is bid and the Slam calls are not over (JJ4P-POST-2)."""
        return s.phase == AFTER and (s.step == NULLO or (s.step == SLAM and s.nullo_bidder >= 0))

    # --- the dix exchange (JJ4P-DIX-1) -----------------------------------------------------------
    def _dix_seats(self, s: TableState) -> tuple[int, ...]:
        return tuple(i for i in range(4) if i != s.dealer)

    def _dix_problem(self, s: TableState, seat: int) -> Violation | None:
        who = f"{{p{seat}}}"
        if s.phase == PLAY:
            if self.options.dix_until_own_first_card:
                late = s.tricks_done > 0 or seat in [(s.leader + i) % 4 for i in range(len(s.trick))]
                when = "after his own first card"
            else:
                late = s.tricks_done > 0 or len(s.trick) >= 2
                when = "after the second card of trick 1"
            if late:
                return Violation("JJ4P-DIX-1", f"{who} exchanged the dix {when}")
            s = s._replace(trick=())  # the two-player window (JJ-DIX-3) is replaced by this one
        v = super()._dix_problem(s, seat)  # JJ-DIX-4: not a seven he declared in a meld
        if v is not None:
            return v
        d, turned = s.dealer, s.turned
        if turned >= 0:
            if not s.hands[d] >> turned & 1 and not s.unknown[d]:
                return Violation("JJ4P-DIX-1", f"{who} exchanged the dix, but the dealer {{p{d}}} no longer holds the turned card")
            if not self.options.jj4p_dix_ignores_dealer_meld and any(m.mask >> turned & 1 for m in s.melds[d]):
                return Violation("JJ4P-DIX-1", f"{who} exchanged the dix, but the dealer {{p{d}}} declared the turned card"
                                 f" {card_name(turned)} in a meld (OP-21)")
        return None

    def advance(self, s: TableState, a: Action) -> TableState:
        if a.kind != "dix":
            return super().advance(s, a)
        # the holder gives the seven of trumps to the dealer and takes the turned card
        seven = make_card(s.trump, SEVEN)
        d, seat = s.dealer, a.seat
        hands, unknown = list(s.hands), list(s.unknown)
        for giver, card in ((seat, seven), (d, s.turned)):
            if card >= 0 and hands[giver] >> card & 1:
                hands[giver] &= ~(1 << card)
            else:
                unknown[giver] -= 1
        for taker, card in ((seat, s.turned), (d, seven)):
            if card >= 0:
                hands[taker] |= 1 << card
            else:
                unknown[taker] += 1
        return s._replace(hands=tuple(hands), unknown=tuple(unknown), dix=seat, seen=s.seen | 1 << seven)

    # --- trick play (JJ4P-PLAY) ------------------------------------------------------------------
    def _to_play(self, s: TableState) -> int:
        return (s.leader + len(s.trick)) % 4

    def _trick_seats(self, s: TableState) -> tuple[int, ...]:
        return tuple((s.leader + i) % 4 for i in range(4))

    def _play_rule(self, s: TableState, seat: int) -> PlayRule:
        """JJ4P-PLAY-2: JJ-PLAY-3…8 with four cards; the overtrump and partner options (OP-06, OP-07)."""
        o = self.options
        trick = s.trick
        beat = ()
        if o.overtrump_on_ruff == "over_opponent_only":
            beat = tuple(side_of(s.leader + i) != side_of(seat) for i in range(len(trick)))
        rule = legal_play_mask(s.hands[seat], trick, s.trump, o.overtrump_on_ruff, beat)
        if o.no_ruff_if_partner_winning and rule.rule in ("JJ-PLAY-5", "JJ-PLAY-6"):
            if (s.leader + trick_winner(trick, s.trump)) % 4 == partner(seat):
                return PlayRule(s.hands[seat], "JJ-PLAY-7", "")  # OP-07 variant: no duty to ruff a partner's trick
        return rule

    def _check_play(self, s: TableState, a: Action) -> Violation | None:
        if not s.trick and s.tricks_done == 0 and a.seat != s.leader:
            first = "the declarer's" if self.options.jj4p_first_lead == "declarer_left" else "the dealer's"
            return Violation("JJ4P-PLAY-1", f"{{p{s.leader}}} leads to trick 1 (the player on {first} left), not {{p{a.seat}}}")
        return super()._check_play(s, a)

    def _explain_play(self, s: TableState, seat: int, card: int, rule) -> Violation:
        v = super()._explain_play(s, seat, card, rule)
        if not s.trick:
            return v
        high = s.trick[trick_winner(s.trick, s.trump)]
        if v.rule == "JJ-PLAY-4" and high != s.trick[0]:  # the trump to beat is the highest so far, not the lead
            v = v._replace(text=v.text.replace(f"could beat {card_name(s.trick[0])}", f"could beat {card_name(high)}"))
        winning = (s.leader + trick_winner(s.trick, s.trump)) % 4
        if winning == partner(seat):
            if v.rule == "JJ-PLAY-4" and card >> 4 == s.trump:
                return Violation("JJ4P-PLAY-2", v.text + ", even though the trump to beat is his partner's")
            if v.rule == "JJ-PLAY-5":
                return Violation("JJ4P-PLAY-2", v.text + ", even with his partner winning the trick")
        return v

    # --- melds and scoring: the two-player core with sides in place of players (JJ4P-SCORE-1) ---------
    def two_sides(self, s: TableState):
        nb = side_of(s.nullo_bidder) if s.nullo_bidder >= 0 else -1
        return self.two_view(s, ((0, 2), (1, 3)), side_of(s.bidder) if s.bidder >= 0 else -1, nb)

    def compare_melds(self, s: TableState) -> MeldResult:
        """JJ4P-MELD-1: per class, the side of the best meld scores all its partners' melds of that class.

        The result is per player: what each scores and shows; ``class_a`` / ``class_b`` is the player whose
        meld won the class."""
        r = self.two.compare_melds(self.two_sides(s))
        kind = s.denomination if s.phase in (PLAY, DONE) else self._meld_denomination(s)
        trump = s.trump if kind == "suit" else NO_TRUMP
        points, shown = [0] * 4, [()] * 4
        for seat in range(4):
            won = [m for m in r.shown[side_of(seat)] if m in s.melds[seat]]
            shown[seat] = tuple(won)
            points[seat] = sum(m.value for m in won)
        class_a = class_b = -1
        if r.class_a >= 0:
            class_a = min((r.class_a, r.class_a + 2), key=lambda p: best_four(s.melds[p], kind))
        if r.class_b >= 0:
            by_value = self.options.sequence_compare_by_value
            class_b = max((r.class_b, r.class_b + 2),
                          key=lambda p: max((sequence_key(m, trump, by_value) for m in s.melds[p] if m.kind == "seq"), default=(0, 0, 0)))
        return MeldResult(class_a, class_b, tuple(points), tuple(shown))

    def score_hand(self, s: TableState, won: tuple[int, ...] | None = None,
                   trick_scores: tuple[int, ...] | None = None) -> HandScore:
        """JJ4P-SCORE-1, JJ4P-NULLO-1, JJ4P-SLAM-1: the two-player score with sides in place of players."""
        if s.phase == VOID_HAND:
            return self.void_score()
        won = tuple(won) if won is not None else s.won
        side_won = (won[0] + won[2], won[1] + won[3])
        ts = (trick_scores[0] + trick_scores[2], trick_scores[1] + trick_scores[3]) if trick_scores is not None else None
        score = self.two.score_hand(self.two_sides(s), side_won, ts)
        credits = tuple(c._replace(rule=RULE_4P.get(c.rule, c.rule)) for c in score.credits)
        return score._replace(credits=credits)
