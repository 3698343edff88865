"""Three-player Jo-Jotte (rules spec §18, ``JJ3-…``), its box-and-captain form (``JJ3-ALT-1``), and the
four-player game without partners (§20, ``JJ4S-…``), which is the three-player game with the dealer
sitting out.

Three players deal, bid, double and draw; then an active defender is chosen (DEFEND / WITHDRAW /
NULLO calls, ``JJ3-ACT``) and only he and the declarer declare melds and play, exactly as in the
two-player game. The inactive player (and, in ``jojotte-4s``, the dealer) is credited what the active
player of his side is credited, above the line (``JJ3-SCORE-6``, ``JJ4S-2/3``).

The calls of a hand, in the record's two lines:

* ``auction``: round 1 (ACCEPT / PASS), round 2 (NAME / NT / PASS), the NT overcall chances after a
  suit bid, the doubling turn, the side chosen after a double (``with declarer`` / ``with doubler``)
  and the declarer's REDOUBLE / PASS;
* ``after``: DEFEND / WITHDRAW / NULLO (or the third player's NULLO / PASS in a doubled hand), the
  declarer's SLAM / PASS, the choice of the active defender of a Nullo or a Slam, then the melds of
  the active defender and of the declarer; the dix exchange once the active defender is fixed.
  A player who has only one possible call (the opponent who must defend after a withdrawal) makes
  none.
"""

from __future__ import annotations

from ..cards import mask_of
from .base import Action, Violation, register
from .jojotte import DONE, DRAW, PLAY, VOID_HAND, Credit, HandScore, JojotteRules, MeldResult, deal_cards
from .jojotte_cards import NO_TRUMP, SUIT_WORDS
from .jojotte_table import TableRules, TableState, replace_at

# auction nodes
R1, R2, OVER, DBL, SIDE, REDBL, ENDED, VOID = "r1", "r2", "over", "dbl", "side", "redbl", "end", "void"
# steps after the draw
ACT_L, ACT_R, ACT_THIRD, SLAM = "act_left", "act_right", "act_third", "slam"
NULLO_DEF, SLAM_DEF, MELD_DEF, MELD_DECL, AFTER_DONE = "nullo_defender", "slam_defender", "meld_defender", "meld_declarer", "after_done"

NODE_RULE = {R1: "JJ3-BID-1", R2: "JJ3-BID-2", OVER: "JJ3-BID-3", DBL: "JJ3-DBL-1", SIDE: "JJ3-DBL-2", REDBL: "JJ3-DBL-3"}
STEP_RULE = {ACT_L: "JJ3-ACT-1", ACT_R: "JJ3-ACT-2", ACT_THIRD: "JJ3-ACT-3", SLAM: "JJ3-ACT-4", NULLO_DEF: "JJ3-ACT-5",
             SLAM_DEF: "JJ3-ACT-6", MELD_DEF: "JJ3-MELD-1", MELD_DECL: "JJ3-MELD-1"}
SIDE_CALLS = {"with_declarer": "WITH DECLARER", "with_doubler": "WITH DOUBLER"}
TRICK_RULES = ("JJ3-SCORE-1", "JJ3-SCORE-2", "JJ3-SCORE-3", "JJ-SLAM-4", "JJ3-NULLO-1")


def call_word(kind: str, suit: int = -1) -> str:
    """A call as a club player says it: ``NAME hearts``, ``WITH DECLARER``."""
    if kind == "name":
        return f"NAME {SUIT_WORDS.get(suit, '?')}"
    return SIDE_CALLS.get(kind, kind.upper())


@register
class Jojotte3Rules(TableRules):
    """Culbertson's recommended three-player game (§18): two play, the third is credited with his side."""

    draw_rule = "JJ3-DRAW-1"

    name = "jojotte-3"
    aliases = ("jj3", "jojotte3", "jo-jotte-3")
    title = "Jo-Jotte, three players"
    seats = 3
    seat_labels = ("A", "B", "C")
    sheet_labels = ("A", "B", "C")
    rule_prefix = "JJ3"
    tricks_per_hand = 9
    dealt_per_seat = 6
    drawn_per_seat = 3
    trick_size = 2
    bidders = 3
    dealing_seats = 3

    # --- who takes part ----------------------------------------------------------------
    def sits_out(self, dealer: int) -> int:
        """The seat that takes no part in the hand (the dealer in JJ4S-1), -1 for none."""
        return -1

    def players(self, dealer: int) -> tuple[int, ...]:
        """The three players of a hand, clockwise from the dealer's left (JJ3-DEAL-1, JJ4S-1)."""
        n = self.seats
        out = ((dealer + i) % n for i in range(1, n + 1))
        return tuple(p for p in out if p != self.sits_out(dealer))

    def left(self, s: TableState, seat: int) -> int:
        p = self.players(s.dealer)
        return p[(p.index(seat) + 1) % 3]

    def right(self, s: TableState, seat: int) -> int:
        p = self.players(s.dealer)
        return p[(p.index(seat) + 2) % 3]

    def pair(self, s: TableState) -> tuple[int, int]:
        """The two players who meld and play: the declarer (the Nullo bidder in a Nullo) and the active defender."""
        return (s.nullo_bidder if s.denomination == "nullo" else s.bidder), s.active

    def inactive(self, s: TableState) -> int:
        x, y = self.pair(s)
        return next((p for p in self.players(s.dealer) if p != x and p != y), -1)

    def seat_role(self, s, dealer: int, seat: int) -> str:
        """JJ4S-1: the dealer sits out; JJ3-ACT-7: once the active defender is fixed, the third player is inactive."""
        if dealer >= 0 and seat == self.sits_out(dealer):
            return "sits out"
        if s is not None and getattr(s, "active", -1) >= 0 and self.inactive(s) == seat:
            return "inactive"
        return ""

    def dealt_to(self, seat: int, dealer: int) -> int:
        return 0 if seat == self.sits_out(dealer) else self.dealt_per_seat

    def drawn_to(self, seat: int, dealer: int) -> int:
        return 0 if seat == self.sits_out(dealer) else self.drawn_per_seat

    def playing_seats(self, s: TableState) -> tuple[int, ...]:
        return self.pair(s) if s.active >= 0 else self.players(s.dealer)

    def deal(self, order: list[int], dealer: int):
        """JJ3-DEAL-1, JJ3-DRAW-1: six cards each in threes from the dealer's left, the 19th turned, three more
        each, then the bottom card of the stock as information card (OP-28)."""
        players = self.players(dealer)
        hands = [0] * self.seats
        pos = 0
        for _ in range(2):
            for seat in players:
                hands[seat] |= mask_of(order[pos:pos + 3])
                pos += 3
        turned = order[pos]
        pos += 1
        draws = [0] * self.seats
        for seat in players:
            draws[seat] = mask_of(order[pos:pos + 3])
            pos += 3
        info = -1 if self.options.jj3_no_information_card else order[-1]
        return tuple(hands), turned, tuple(draws), info

    # --- the auction (JJ3-BID, JJ3-DBL) -------------------------------------------------
    def _auction_start(self, s: TableState) -> TableState:
        return s._replace(node=R1, turn=self.players(s.dealer)[0], count=0)

    def _auction_calls(self, s: TableState) -> list[tuple[str, int]]:
        node = s.node
        if node == R1:
            return [("pass", -1), ("accept", -1)] + ([("nt", -1)] if self.options.nt_direct_in_round1 else [])
        if node == R2:
            turned_suit = s.turned >> 4 if s.turned >= 0 else -1
            return [("pass", -1)] + [("name", su) for su in range(4) if su != turned_suit] + [("nt", -1)]
        if node == OVER:
            return [("pass", -1), ("nt", -1)]
        if node == DBL:
            return [("pass", -1), ("double", -1)]
        if node == SIDE:
            return [("with_declarer", -1), ("with_doubler", -1)]
        if node == REDBL:
            return [("pass", -1), ("redouble", -1)]
        return []

    def _next_call(self, s: TableState, a: Action) -> TableState:
        k, node = a.kind, s.node
        if node in (R1, R2):
            if k == "pass":
                count = s.count + 1
                if count < 3:
                    return s._replace(count=count, turn=self.players(s.dealer)[count])
                if node == R1:
                    return s._replace(node=R2, count=0, turn=self.players(s.dealer)[0])
                return s._replace(node=VOID, phase=VOID_HAND, turn=-1)  # JJ3-BID-4
            if k == "nt":
                return self._doubles(s._replace(bidder=a.seat, denomination="nt", trump=NO_TRUMP))
            s = s._replace(bidder=a.seat, denomination="suit", trump=a.suit if k == "name" else s.turned >> 4)
            if k == "accept" and self.options.nt_overcall_round2_only:
                return self._doubles(s)  # OP-05 variant: NT overcalls only a suit named in round 2
            return s._replace(node=OVER, count=0, turn=self.left(s, a.seat))  # JJ3-BID-3
        if node == OVER:
            if k == "nt":
                return self._doubles(s._replace(bidder=a.seat, denomination="nt", trump=NO_TRUMP))
            if s.count == 0:
                return s._replace(count=1, turn=self.right(s, s.bidder))
            return self._doubles(s)
        if node == DBL:
            if k == "double":  # JJ3-DBL-2: the other opponent declares a side
                third = self.right(s, s.bidder) if a.seat == self.left(s, s.bidder) else self.left(s, s.bidder)
                return s._replace(node=SIDE, mult=2, doubler=a.seat, third=third, turn=third)
            if s.count == 0:
                return s._replace(count=1, turn=self.right(s, s.bidder))
            return self._end_auction(s)
        if node == SIDE:
            return s._replace(node=REDBL, side=s.bidder if k == "with_declarer" else s.doubler, turn=s.bidder)
        if node == REDBL:
            return self._end_auction(s._replace(mult=4) if k == "redouble" else s)
        return s

    def _doubles(self, s: TableState) -> TableState:
        return s._replace(node=DBL, count=0, turn=self.left(s, s.bidder))  # JJ3-DBL-1

    @staticmethod
    def _end_auction(s: TableState) -> TableState:
        return s._replace(node=ENDED, phase=DRAW, turn=-1, count=0)

    def check(self, s: TableState, a: Action) -> Violation | None:
        v = self.check_actor(s, a)
        if v is not None:
            return v
        if a.seat >= 0 and a.seat == self.sits_out(s.dealer):
            doing = "plays no cards" if a.kind == "play" else "makes no calls"
            return Violation("JJ4S-1", f"{{p{a.seat}}} is the dealer: he sits out this hand and {doing}")
        return super().check(s, a)

    def _check_call(self, s: TableState, a: Action) -> Violation | None:
        who = f"{{p{a.seat}}}"
        word = call_word(a.kind, a.suit)
        node, caller = s.node, s.turn
        if a.seat != caller:
            if a.kind == "redouble" and node == REDBL:
                return Violation("JJ3-DBL-3", f"{who} redoubled, but only the declarer may redouble")
            if a.kind == "double" and node == DBL and a.seat == s.bidder:
                return Violation("JJ3-DBL-1", f"{who} doubled his own contract; only the declarer's two opponents may double")
            if a.kind in SIDE_CALLS and node == SIDE:
                return Violation("JJ3-DBL-2", f"{who} chose a side, but it is {{p{caller}}}, the opponent who did not double, who declares a side")
            return Violation(NODE_RULE.get(node, "JJ-BID-10"), f"{who} called {word}, but it is {{p{caller}}}'s turn to call")
        if (a.kind, a.suit if a.kind == "name" else -1) in self._auction_calls(s):
            return None
        if a.kind == "double" and node in (R1, R2, OVER):
            if node == OVER:
                return Violation("JJ3-DBL-1", f"{who} doubled before the contract was fixed: the chances to overcall NT come first")
            return Violation("JJ3-DBL-1", f"{who} doubled, but there is no contract to double yet")
        if a.kind == "redouble" and node != REDBL:
            return Violation("JJ3-DBL-3", f"{who} redoubled, but only the declarer may redouble, after a double and the choice of a side")
        if node == R1:
            return Violation("JJ3-BID-1", f"{who} called {word} in round 1, where each player may only ACCEPT the turned suit or PASS")
        if node == R2:
            if a.kind == "name":
                return Violation("JJ-BID-5", f"{who} named {SUIT_WORDS[a.suit]}, the turned suit; the suit named in round 2 must differ from it")
            return Violation("JJ3-BID-2", f"{who} called {word} in round 2, where only NAME a suit, NT or PASS is possible")
        if node == OVER:
            if a.kind in ("name", "accept"):
                return Violation("JJ-BID-7", f"{who} called {word}, but a suit contract can never be replaced by another suit")
            return Violation("JJ3-BID-3", f"{who} called {word}, but after a suit bid each other player may only overcall NT or PASS")
        if node == DBL:
            if a.kind == "nt":
                if s.denomination == "nt":
                    return Violation("JJ3-BID-3", f"{who} overcalled NT, but a NT contract cannot be overcalled")
                return Violation("JJ3-BID-3", f"{who} overcalled NT after the two chances to overcall the suit were over")
            if a.kind in ("name", "accept"):
                return Violation("JJ-BID-10", f"{who} called {word}, but once a contract exists no further ACCEPT or NAME is possible")
            return Violation("JJ3-DBL-1", f"{who} called {word}, but the declarer's opponents may now only DOUBLE or PASS")
        if node == SIDE:
            return Violation("JJ3-DBL-2", f"{who} called {word}, but after the double he must declare a side: WITH DECLARER or WITH DOUBLER")
        if node == REDBL:
            if a.kind == "double":
                return Violation("JJ3-DBL-1", f"{who} doubled, but the contract is already doubled")
            return Violation("JJ3-DBL-3", f"{who} called {word}, but after the double the declarer may only REDOUBLE or PASS")
        return Violation("JJ-BID-10", f"{who} called {word} after the bidding was over")

    def call_after_end(self, s: TableState, seat: int, kind: str) -> Violation:
        who = f"{{p{seat}}}"
        if seat >= 0 and seat == self.sits_out(s.dealer):
            return Violation("JJ4S-1", f"{who} is the dealer: he sits out this hand and makes no calls")
        if s.phase == VOID_HAND:
            return Violation("JJ3-BID-4", f"{who} called {call_word(kind)}, but all three passed in both rounds: the hand is void")
        if kind == "double":
            return Violation("JJ3-DBL-1", f"{who} doubled after the doubling turn was over")
        if kind == "redouble":
            return Violation("JJ3-DBL-3", f"{who} redoubled after the bidding was over; a redouble only answers a double")
        if kind in SIDE_CALLS:
            return Violation("JJ3-DBL-2", f"{who} chose a side, but nobody doubled")
        return Violation("JJ-BID-10", f"{who} called {call_word(kind)} after the bidding was over")

    # --- the draw ------------------------------------------------------------------------
    def _check_draw(self, s: TableState, a: Action) -> Violation | None:
        sitter = self.sits_out(s.dealer)
        if sitter >= 0 and sitter < len(a.cards) and a.cards[sitter]:
            return Violation("JJ4S-1", f"{{p{sitter}}} is the dealer and sits out: he draws no cards")
        if self.options.jj3_no_information_card and a.info >= 0:
            return Violation("JJ3-DRAW-1", "no information card is turned after the draw (variant jj3_no_information_card)")
        return super()._check_draw(s, a)

    # --- after the draw: the active defender, Nullo, Slam, melds (JJ3-ACT, JJ3-MELD) --------
    def _after_start(self, s: TableState) -> TableState:
        if s.mult > 1:  # JJ3-ACT-3: the doubler is the active defender
            s = s._replace(active=s.doubler)
            if s.side == s.bidder or self.options.nullo_after_double:
                return s._replace(step=ACT_THIRD, turn=s.third)
            return s._replace(step=SLAM, turn=s.bidder)
        return s._replace(step=ACT_L, turn=self.left(s, s.bidder))

    def _after_calls(self, s: TableState) -> tuple[str, ...]:
        step = s.step
        if step == ACT_L:
            return ("defend", "nullo", "withdraw")
        if step == ACT_R:
            return ("withdraw", "nullo") if s.active >= 0 else ("defend", "nullo")
        if step == ACT_THIRD:
            return ("pass", "nullo")
        if step == SLAM:
            return ("pass", "slam")
        if step in (NULLO_DEF, SLAM_DEF):
            return ("defend", "withdraw")
        if step in (MELD_DEF, MELD_DECL):
            return ("pass", "melds")
        return ()

    def _next_after(self, s: TableState, a: Action) -> TableState:
        k, step, seat = a.kind, s.step, a.seat
        if step == ACT_L:
            if k == "nullo":
                return self._slam_turn(s._replace(nullo_bidder=seat))
            s = s._replace(active=seat if k == "defend" else -1)
            return s._replace(step=ACT_R, turn=self.right(s, s.bidder))
        if step == ACT_R:
            if k == "nullo":
                return self._slam_turn(s._replace(nullo_bidder=seat))
            return self._slam_turn(s._replace(active=seat) if k == "defend" else s)
        if step == ACT_THIRD:
            return self._slam_turn(s._replace(nullo_bidder=seat) if k == "nullo" else s)
        if step == SLAM:
            if k == "slam":  # JJ3-ACT-4: a Slam voids any Nullo; JJ3-ACT-6
                s = s._replace(slam=True, nullo_bidder=-1)
                if s.mult > 1:
                    return self._melds_start(s._replace(active=s.doubler))
                return s._replace(step=SLAM_DEF, turn=self.left(s, s.bidder), active=-1)
            if s.nullo_bidder >= 0:  # JJ3-ACT-5: the Nullo stands; its bidder is its declarer
                s = s._replace(denomination="nullo", trump=NO_TRUMP, mult=1, active=-1)
                return s._replace(step=NULLO_DEF, turn=self.left(s, s.nullo_bidder))
            return self._melds_start(s)  # JJ3-ACT-7
        if step == NULLO_DEF:
            return self._melds_start(s._replace(active=seat if k == "defend" else self.right(s, s.nullo_bidder)))
        if step == SLAM_DEF:
            return self._melds_start(s._replace(active=seat if k == "defend" else self.right(s, s.bidder)))
        if k == "melds":
            s = s._replace(melds=replace_at(s.melds, seat, a.melds))
        if step == MELD_DEF:
            return s._replace(step=MELD_DECL, turn=self.pair(s)[0])
        if step == MELD_DECL:  # JJ3-PLAY-1: the active defender leads
            x, y = self.pair(s)
            leader = x if s.denomination == "nullo" and self.options.nullo_bidder_leads else y
            return s._replace(step=AFTER_DONE, turn=-1, phase=PLAY, leader=leader)
        return s

    @staticmethod
    def _slam_turn(s: TableState) -> TableState:
        return s._replace(step=SLAM, turn=s.bidder)

    @staticmethod
    def _melds_start(s: TableState) -> TableState:
        return s._replace(step=MELD_DEF, turn=s.active)  # JJ3-MELD-1: the active defender first

    def _check_after(self, s: TableState, a: Action) -> Violation | None:
        seat, k = a.seat, a.kind
        who = f"{{p{seat}}}"
        if k == "dix":
            if s.phase != PLAY and s.step not in (MELD_DEF, MELD_DECL):
                return Violation("JJ3-DIX-1", f"{who} exchanged the dix before the active defender was fixed;"
                                 " only the declarer or the active defender may exchange")
            if seat not in self.pair(s):
                return Violation("JJ3-DIX-1", f"{who} is the inactive player and may not make the dix exchange")
            return super()._check_after(s, a)
        caller = s.turn
        if seat != caller:
            if k == "melds":
                if s.step in (MELD_DEF, MELD_DECL):
                    if seat not in self.pair(s):
                        return Violation("JJ3-ACT-7", f"{who} is the inactive player: he declares no melds")
                    return Violation("JJ3-MELD-1", f"{who} declared melds out of turn: the active defender {{p{s.active}}}"
                                     " declares first, then the declarer")
                return Violation("JJ3-MELD-1", f"{who} declared melds before the active defender was fixed")
            if k == "nullo":
                if seat == s.doubler:
                    return Violation("JJ3-ACT-3", f"{who} doubled and is the active defender; he may not bid Nullo")
                if s.mult > 1 and seat == s.third and s.side == s.doubler:
                    return Violation("JJ3-ACT-3", f"{who} sided with the doubler and may not bid Nullo")
                if seat == s.bidder:
                    return Violation("JJ3-ACT-1", f"{who} is the declarer and may not bid Nullo against his own contract")
            if k == "slam" and seat != s.bidder:
                return Violation("JJ3-ACT-4", f"{who} bid Slam, but only the declarer may")
            return Violation(STEP_RULE.get(s.step, "JJ3-ACT-7"), f"it is {{p{caller}}}'s turn after the draw, not {who}'s")
        if k not in self._after_calls(s):
            return self._explain_after(s, a)
        if k == "melds":
            return super()._check_after(s, a)  # JJ-MELD-2…5, JJ-MELD-15
        return None

    def _explain_after(self, s: TableState, a: Action) -> Violation:
        who, word, step = f"{{p{a.seat}}}", call_word(a.kind), s.step
        if a.kind == "melds":
            return Violation("JJ3-MELD-1", f"{who} declared melds before the active defender was fixed")
        if step == ACT_L:
            return Violation("JJ3-ACT-1", f"{who} called {word}; the player on the declarer's left calls DEFEND, NULLO or WITHDRAW")
        if step == ACT_R:
            left = self.left(s, s.bidder)
            if s.active >= 0:
                return Violation("JJ3-ACT-2", f"{who} called {word}, but {{p{left}}} defends: {who} must WITHDRAW or bid NULLO")
            return Violation("JJ3-ACT-2", f"{who} called {word}, but {{p{left}}} withdrew: {who} must DEFEND or bid NULLO")
        if step == ACT_THIRD:
            return Violation("JJ3-ACT-3", f"{who} called {word}; having sided with the declarer he may only bid NULLO or PASS")
        if step == SLAM:
            return Violation("JJ3-ACT-4", f"{who} called {word}; the declarer now calls SLAM or PASS")
        if step == NULLO_DEF:
            return Violation("JJ3-ACT-5", f"{who} called {word}; the player on the Nullo bidder's left calls DEFEND or WITHDRAW")
        if step == SLAM_DEF:
            return Violation("JJ3-ACT-6", f"{who} called {word}; against the Slam the player on the declarer's left calls"
                             " DEFEND or WITHDRAW")
        return Violation("JJ3-MELD-1", f"{who} called {word}; he may only declare melds or pass now")

    def _contract_pending(self, s: TableState) -> bool:
        """Melds and the dix wait until the active defender is fixed, after the Nullo and Slam calls (JJ3-DIX-1,
        JJ3-MELD-1): nothing is ever judged on a contract that may still change."""
        return False

    def _dix_seats(self, s: TableState) -> tuple[int, ...]:
        if s.active >= 0 and (s.phase == PLAY or s.step in (MELD_DEF, MELD_DECL)):
            return self.pair(s)  # JJ3-DIX-1
        return ()

    # --- trick play: the declarer and the active defender (JJ3-PLAY-1) ---------------------
    def _to_play(self, s: TableState) -> int:
        if not s.trick:
            return s.leader
        x = s.nullo_bidder if s.denomination == "nullo" else s.bidder
        return s.active if s.leader == x else x

    def _trick_seats(self, s: TableState) -> tuple[int, ...]:
        x = s.nullo_bidder if s.denomination == "nullo" else s.bidder
        return (s.leader, s.active if s.leader == x else x)

    def _check_play(self, s: TableState, a: Action) -> Violation | None:
        if a.seat not in self.pair(s):
            if a.seat == self.sits_out(s.dealer):
                return Violation("JJ4S-1", f"{{p{a.seat}}} is the dealer: he sits out this hand and plays no cards")
            return Violation("JJ3-ACT-7", f"{{p{a.seat}}} is the inactive player: his hand is out of play")
        if not s.trick and s.tricks_done == 0 and a.seat != s.leader:
            return Violation("JJ3-PLAY-1", f"{{p{s.leader}}} leads to trick 1 (the active defender leads), not {{p{a.seat}}}")
        return super()._check_play(s, a)

    # --- melds and scoring: the two-player core on the two active players -----------------
    def two_seats(self, s: TableState):
        x, y = self.pair(s)
        return self.two_view(s, ((x,), (y,)), 0, 0 if s.denomination == "nullo" else -1)

    def two_player_view(self, s: TableState | None):
        """The hand between the declarer (the Nullo bidder in a Nullo) and the active defender, the inactive
        player's hand out of play (JJ3-ACT, JJ4S-1); no seats (``()``) when the hand has no card play to view."""
        if s is None or s.phase not in (PLAY, DONE) or s.active < 0:
            return self.two, None, ()
        x, y = self.pair(s)
        idx = {x: 0, y: 1}
        view = self.two_seats(s)._replace(history=tuple((idx[lead], cards, idx[win]) for lead, cards, win in s.history))
        return self.two, view, (x, y)

    def compare_melds(self, s: TableState) -> MeldResult:
        """JJ3-MELD-1: the melds of the declarer and the active defender compared as in JJ-MELD."""
        x, y = self.pair(s)
        if y < 0:
            return MeldResult(-1, -1, (0,) * self.seats, ((),) * self.seats)
        return self.lift_melds(self.two.compare_melds(self.two_seats(s)), (x, y), self.seats)

    def score_hand(self, s: TableState, won: tuple[int, ...] | None = None,
                   trick_scores: tuple[int, ...] | None = None) -> HandScore:
        """JJ3-SCORE, JJ3-NULLO-1 (and JJ4S-2/3): the two-player score of the active players, the inactive
        player credited with his side, and the dealer of the four-player game with the inactive player."""
        if s.phase == VOID_HAND:
            return self.void_score()
        x, y = self.pair(s)
        won = tuple(won) if won is not None else s.won
        ts = (trick_scores[x], trick_scores[y]) if trick_scores is not None else None
        return self._three_player_score(s, self.two.score_hand(self.two_seats(s), (won[x], won[y]), ts))

    def score_two_player_end(self, s: TableState, end) -> HandScore:
        """The three-player score of the hand ``s`` had its card play ended as ``end``, a finished state of the
        two-player view (`two_player_view`): the inactive player (and JJ4S's dealer) credited as in `score_hand`."""
        return self._three_player_score(s, self.two.score_hand(end))

    def _three_player_score(self, s: TableState, two: HandScore) -> HandScore:
        """The two-player score ``two`` of the declarer (view seat 0) and the active defender, on the table."""
        o = self.options
        x, y = self.pair(s)
        base = self.lift_score(two, (x, y), self.seats)
        nullo = s.denomination == "nullo"
        doubled = s.mult > 1 and not nullo
        side_player = s.side if doubled else y  # JJ3-SCORE-6: the active player of the inactive player's side
        credits: list[Credit] = []
        for c in base.credits:
            if c.rule == "JJ-SCORE-3":
                c = c._replace(rule="JJ3-SCORE-1")
            elif c.rule == "JJ-SCORE-4":  # OP-25: above the line for both defenders
                c = c._replace(rule="JJ3-SCORE-2", line="below" if o.jj3_defence_win_below_line else "above",
                               why=c.why + ", the active defender's total being higher")
            elif c.rule == "JJ-SCORE-5":
                c = c._replace(rule="JJ3-SCORE-3")
            elif c.rule == "JJ-SLAM-4" and not doubled and c.line == "below" and not o.jj3_defence_win_below_line:
                c = c._replace(line="above", why=c.why + " (undoubled: above the line in the three-player game)")
            elif c.rule == "JJ-NULLO-6":
                c = c._replace(rule="JJ3-NULLO-1")
            elif c.rule == "JJ-NULLO-7":
                n = two.tricks[0]  # the Nullo bidder's tricks: he is the view's seat 0 (`two_seats`)
                if o.jj3_nullo_penalty_full:
                    amount, formula = 200 + 100 * (n - 1), f"200 + 100 × {n - 1}"
                else:
                    amount, formula = 100 + 50 * (n - 1), f"100 + 50 × {n - 1}"
                c = c._replace(rule="JJ3-NULLO-1", amount=amount,
                               why=f"Nullo failed with {n} trick{'s' if n > 1 else ''}: {formula}, to each opponent")
            credits.append(c)
        inactive = self.inactive(s)
        if doubled:
            whose = "the declarer, whose side he chose" if side_player == s.bidder else "the doubler, whose side he chose"
        else:
            whose = "the active defender"
        mirrored = []
        for c in credits:
            if c.seat != side_player or (o.jj3_inactive_mirrors_tricks_only and c.rule not in TRICK_RULES):
                continue
            rule = c.rule if c.rule in TRICK_RULES and c.rule != "JJ-SLAM-4" else "JJ3-SCORE-6"
            mirrored.append(Credit(inactive, "above", c.amount, rule, f"as {whose}: {c.why}"))
        credits.extend(mirrored)
        sitter = self.sits_out(s.dealer)
        if sitter >= 0:  # JJ4S-2/3: the dealer is credited what the inactive player is credited
            rule = "JJ4S-3" if doubled else "JJ4S-2"
            credits.extend(Credit(sitter, "above", c.amount, rule, f"the dealer sitting out, {c.why}") for c in mirrored)
        to = (inactive,) + ((sitter,) if sitter >= 0 else ())
        mirror = () if o.jj3_inactive_mirrors_tricks_only else ((side_player, to),)
        return base._replace(credits=tuple(credits), mirror=mirror)


@register
class Jojotte4SRules(Jojotte3Rules):
    """Four players without partners (§20): the dealer sits out and the other three play the three-player game."""

    name = "jojotte-4s"
    aliases = ("jj4s", "jojotte4s", "jo-jotte-4s")
    title = "Jo-Jotte, four players without partners"
    seats = 4
    seat_labels = ("A", "B", "C", "D")
    sheet_labels = ("A", "B", "C", "D")
    rule_prefix = "JJ4S"
    dealing_seats = 4

    def sits_out(self, dealer: int) -> int:
        return dealer  # JJ4S-1

    def _check_seating(self, dealer: int, hands: tuple[int, ...]) -> Violation | None:
        if 0 <= dealer < len(hands) and hands[dealer]:
            return Violation("JJ4S-1", f"{{p{dealer}}} deals and sits out, but is dealt cards; the dealer takes no cards")
        return None


ADVISER = 2


@register
class Jojotte3BoxRules(JojotteRules):
    """Culbertson's second three-player form (JJ3-ALT-1): a two-player hand between the box (A) and the
    captain (B); the adviser (C) makes no calls and plays no cards and is credited whatever the captain is
    (the sheet's column ``BC``); the box keeps his own score against both."""

    name = "jojotte-3box"
    aliases = ("jj3-box", "jojotte-box", "jj3-alt")
    title = "Jo-Jotte, three players: box, captain and adviser"
    seats = 3
    seat_labels = ("A", "B", "C")
    sheet_labels = ("A", "BC")
    rule_prefix = "JJ3"
    bidders = 2
    dealing_seats = 2

    def __init__(self, options=None):
        super().__init__(options)
        self.core = JojotteRules(self.options)  # the two-player game between the box and the captain

    def two_player_view(self, state):
        """The two-player game between the box and the captain, in the same seats (JJ3-ALT-1)."""
        return self.core, state, (0, 1)

    def seat_role(self, s, dealer: int, seat: int) -> str:
        return "adviser" if seat == ADVISER else ""  # JJ3-ALT-1

    def dealt_to(self, seat: int, dealer: int) -> int:
        return 0 if seat == ADVISER else self.dealt_per_seat

    def drawn_to(self, seat: int, dealer: int) -> int:
        return 0 if seat == ADVISER else self.drawn_per_seat

    def next_dealer(self, dealer: int) -> int:
        return 1 - dealer if dealer in (0, 1) else 0  # JJ-DEAL-2 between the box and the captain

    def _check_seating(self, dealer: int, hands: tuple[int, ...]) -> Violation | None:
        if dealer == ADVISER:
            return Violation("JJ3-ALT-1", "{p2} is the adviser and does not deal: the box and the captain deal in turn")
        if len(hands) > ADVISER and hands[ADVISER]:
            return Violation("JJ3-ALT-1", "{p2} is the adviser and holds no cards, but is dealt some")
        return None

    @classmethod
    def sheet_names(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        return (names[0], f"{names[1]} and {names[2]}") if len(names) == 3 else names[:2]

    def deal(self, order: list[int], dealer: int):
        return deal_cards(self, order, dealer)

    def _check_draw(self, s, a: Action) -> Violation | None:
        # the two-player draw between the box and the captain (the adviser's empty share is checked in `check`)
        return self.core._check_draw(s, a._replace(cards=tuple(a.cards[:2])))

    def check(self, s, a: Action) -> Violation | None:
        if a.seat == ADVISER:
            return Violation("JJ3-ALT-1", "{p2} is the adviser: he makes no calls and plays no cards")
        if a.kind == "draw":
            if any(a.cards[ADVISER:]):
                return Violation("JJ3-ALT-1", "{p2} is the adviser and draws no cards")
        return super().check(s, a)

    def _check_play(self, s, a: Action) -> Violation | None:
        if a.seat == ADVISER:
            return Violation("JJ3-ALT-1", "{p2} is the adviser: he makes no calls and plays no cards")
        return super()._check_play(s, a)

    def call_after_end(self, s, seat: int, kind: str) -> Violation:
        if seat == ADVISER:
            return Violation("JJ3-ALT-1", "{p2} is the adviser: he makes no calls and plays no cards")
        return super().call_after_end(s, seat, kind)

    def advance(self, s, a: Action):
        if a.kind == "draw":
            a = a._replace(cards=tuple(a.cards[:2]))
        return super().advance(s, a)
