"""What the three- and four-player forms of Jo-Jotte share (rules spec §18–20).

`TableState` is the two-player `JJState` with the same fields, sized for any
number of seats, plus what the larger tables need: whose turn it is to call,
how many calls the current round has seen, the side chosen after a double and
the active defender (three players). `TableRules` is the two-player core
(`JojotteRules`) with its seat hooks filled in for ``n`` seats: the draw, and
trick play with two or four cards to a trick.

Melds are compared and hands scored by the two-player core itself, on a
two-seat view of the hand (`two_view`): the declarer and the active defender
in the three-player game, the two sides in the partnership game.
"""

from __future__ import annotations

from typing import NamedTuple

from .base import CHANCE, Action, Violation
from .jojotte import AFTER, AUCTION, DEAL, DONE, DRAW, PLAY, HandScore, JJState, JojotteRules, MeldResult
from .jojotte_cards import NO_TRUMP, trick_points, trick_winner


class TableState(NamedTuple):
    """A hand of three or four players at one moment. The fields up to ``history`` are those of `JJState`
    (per seat where they are tuples); the others belong to the larger tables."""

    phase: str
    dealer: int
    hands: tuple[int, ...]
    unknown: tuple[int, ...]
    seen: int
    turned: int
    info: int
    node: str  # auction node
    bidder: int  # the player whose contract stands (the original bidder, also in a Nullo), -1 before
    denomination: str  # "suit", "nt" or "nullo"; "" before a contract
    trump: int
    mult: int
    doubler: int
    step: str  # after-draw step
    nullo_bidder: int
    slam: bool
    melds: tuple[tuple, ...]
    dix: int
    tricks_done: int
    leader: int
    trick: tuple[int, ...]
    won: tuple[int, ...]
    card_pts: tuple[int, ...]
    last_trick: int
    jo: tuple[int, ...]
    history: tuple[tuple[int, tuple[int, ...], int], ...]
    turn: int = -1  # who calls now (auction and after the draw); -1 when nobody
    count: int = 0  # calls made in the current round
    side: int = -1  # 3P: the player the third player sided with after a double (JJ3-DBL-2), -1
    third: int = -1  # 3P: the opponent who did not double and chose a side, -1
    active: int = -1  # 3P: the active defender (of the Nullo, in a Nullo hand), -1 while not fixed
    slam_by: int = -1  # 4P: the declaring partner who bid Slam

    @property
    def declarer(self) -> int:
        return self.bidder

    @property
    def defender(self) -> int:
        return self.active


_new_state = tuple.__new__  # a state from the list of its fields, in order (`TableRules._next_play`)
(_PHASE, _HANDS, _UNKNOWN, _SEEN, _TRICKS_DONE, _LEADER, _TRICK, _WON, _CARD_PTS, _LAST_TRICK, _JO, _HISTORY) = (
    TableState._fields.index(n) for n in ("phase", "hands", "unknown", "seen", "tricks_done", "leader", "trick", "won",
                                          "card_pts", "last_trick", "jo", "history"))


def replace_at(t: tuple, i: int, value) -> tuple:
    return t[:i] + (value,) + t[i + 1:]


class TableRules(JojotteRules):
    """The two-player core for ``n`` seats: states, the draw and trick play. Subclasses give the
    auction, the calls after the draw, who plays, and the scoring."""

    def __init__(self, options=None):
        super().__init__(options)
        # the two-player core that compares melds and scores a hand seen as two seats (players or sides)
        self.two = JojotteRules(self.options)
        self.two.tricks_per_hand = self.tricks_per_hand

    # --- the state before the deal, and the deal ------------------------------------
    def two_player_view(self, state):
        """Four players in partnerships do not play between two players: no two-player view."""
        return None

    def initial_state(self, dealer: int, sheet=None) -> TableState:
        """The state before the deal (a chance node)."""
        z = (0,) * self.seats
        return TableState(DEAL, dealer, z, z, 0, -1, -1, "", -1, "", NO_TRUMP, 1, -1, "", -1, False, ((),) * self.seats,
                          -1, 0, -1, (), z, z, -1, z, ())

    def _deal_state(self, s: TableState, a: Action) -> TableState:
        """The state after the deal: the first cards of each seat and the turned card."""
        n, dealer, hands, turned = self.seats, s.dealer, tuple(a.cards), a.info
        unknown = tuple(a.unknown) if a.unknown else tuple(self.dealt_to(i, dealer) - hands[i].bit_count() for i in range(n))
        seen = 0
        for h in hands:
            seen |= h
        if turned >= 0:
            seen |= 1 << turned
        return self._auction_start(s._replace(phase=AUCTION, hands=hands, unknown=unknown, seen=seen, turned=turned))

    draw_rule = "JJ-DRAW-1"  # the rule of the form's draw, cited when a draw comes out of place

    def check_actor(self, s: TableState, a: Action) -> Violation | None:
        """The checks every table form makes first: a real seat, chance only for the draw, the draw once."""
        if a.seat != CHANCE and not 0 <= a.seat < self.seats:
            return Violation("JJ-INV-2", f"there is no seat {a.seat}")
        if a.seat == CHANCE and a.kind not in ("draw", "deal"):
            return Violation("JJ-INV-2", f"{a.kind} is a player's action, not a chance event")
        if a.kind == "draw" and s.phase != DRAW:
            return Violation(self.draw_rule, "the draw comes once, when the bidding has ended with a contract")
        return None

    def _auction_start(self, s: TableState) -> TableState:
        raise NotImplementedError

    def _after_start(self, s: TableState) -> TableState:
        raise NotImplementedError

    # --- whose turn ------------------------------------------------------------------
    def _caller(self, s: TableState) -> int:
        return s.turn

    def _after_caller(self, s: TableState) -> int:
        return s.turn

    def _trick_seats(self, s: TableState) -> tuple[int, ...]:
        """The seats that play to the current trick, the leader first."""
        raise NotImplementedError

    def trick_seats(self, s: TableState) -> tuple[int, ...]:
        return self._trick_seats(s)

    def playing_seats(self, s: TableState) -> tuple[int, ...]:
        return tuple(range(self.seats))

    # --- the next state --------------------------------------------------------------
    def advance(self, s: TableState, a: Action) -> TableState:
        if a.kind == "deal":
            return self._deal_state(s, a)
        if a.kind == "draw":
            return self._next_draw(s, a)
        if s.phase == AFTER and a.kind not in ("dix", "play"):
            return self._next_after(s, a)
        return super().advance(s, a)

    def _next_draw(self, s: TableState, a: Action) -> TableState:
        """JJ-DRAW-1/2 for n seats: each seat's drawn cards join his hand; the information card is seen."""
        hands = tuple(h | m for h, m in zip(s.hands, a.cards))
        # cards nobody recorded: the rest of the seat's share (a record may give the whole hand in the draw)
        unknown = tuple(self.dealt_to(i, s.dealer) + self.drawn_to(i, s.dealer) - h.bit_count() for i, h in enumerate(hands))
        seen = s.seen
        for m in a.cards:
            seen |= m
        if a.info >= 0:
            seen |= 1 << a.info
        return self._after_start(s._replace(phase=AFTER, hands=hands, unknown=unknown, seen=seen, info=a.info, node="end",
                                            turn=-1, count=0))

    def _next_play(self, s: TableState, a: Action) -> TableState:
        """One card; the trick is gathered when every player of it has played (JJ-PLAY-8, JJ-PLAY-11, JJ-PTS-2)."""
        # the hot path of every replay and search: the next state built once from a list of its fields
        seat, card = a.seat, a.card
        bit = 1 << card
        f = list(s)
        hands = s.hands
        if hands[seat] & bit:
            f[_HANDS] = replace_at(hands, seat, hands[seat] ^ bit)
        else:
            f[_UNKNOWN] = replace_at(s.unknown, seat, s.unknown[seat] - 1)
        if a.announce:
            f[_JO] = replace_at(s.jo, seat, 1 if a.announce.lower() == "jo" else 2)
        trick = f[_TRICK] = s.trick + (card,)
        f[_SEEN] = s.seen | bit
        if len(trick) < self.trick_size:
            return _new_state(TableState, f)
        trump = s.trump
        win = self._trick_seats(s)[trick_winner(trick, trump)]
        done = s.tricks_done + 1
        gained = trick_points(trick, trump, done == self.tricks_per_hand, s.denomination == "nullo")
        f[_PHASE] = DONE if done == self.tricks_per_hand else PLAY
        f[_TRICK] = ()
        f[_TRICKS_DONE] = done
        f[_LEADER] = win
        f[_WON] = replace_at(s.won, win, s.won[win] + 1)
        f[_CARD_PTS] = replace_at(s.card_pts, win, s.card_pts[win] + gained)
        f[_LAST_TRICK] = win if done == self.tricks_per_hand else -1
        f[_HISTORY] = s.history + ((s.leader, trick, win),)
        return _new_state(TableState, f)

    # --- the two-seat view: melds and scores through the two-player core --------------
    def two_view(self, s: TableState, groups: tuple[tuple[int, ...], tuple[int, ...]], bidder: int,
                 nullo_bidder: int) -> JJState:
        """The hand seen as a two-player hand between ``groups[0]`` and ``groups[1]`` (a player or a side each).

        ``bidder`` and ``nullo_bidder`` are 0, 1 or -1 in the view's seats.
        """
        def join(values, op):
            return tuple(op(values[i] for i in g) for g in groups)

        def union(masks):
            m = 0
            for x in masks:
                m |= x
            return m

        def index_of(seat):
            for i, g in enumerate(groups):
                if seat in g:
                    return i
            return -1

        jo = tuple(2 if any(s.jo[i] == 2 for i in g) else (1 if any(s.jo[i] == 1 for i in g) else 0) for g in groups)
        melds = tuple(tuple(m for i in g for m in s.melds[i]) for g in groups)
        return JJState(s.phase, s.dealer, join(s.hands, union), join(s.unknown, sum), s.seen, s.turned, s.info, s.node,
                       bidder, s.denomination, s.trump, s.mult, index_of(s.doubler) if s.doubler >= 0 else -1, s.step,
                       nullo_bidder, s.slam, melds, index_of(s.dix) if s.dix >= 0 else -1, s.tricks_done,
                       index_of(s.leader) if s.leader >= 0 else -1, s.trick, join(s.won, sum), join(s.card_pts, sum),
                       index_of(s.last_trick) if s.last_trick >= 0 else -1, jo, ())

    def lift_score(self, two: HandScore, targets: tuple[int, int], columns: int) -> HandScore:
        """A two-seat score written back on ``columns`` columns: view seat 0 to ``targets[0]``, 1 to ``targets[1]``."""
        def spread(pair):
            out = [0] * columns
            for i, t in enumerate(targets):
                out[t] += pair[i]
            return tuple(out)

        credits = tuple(c._replace(seat=targets[c.seat]) for c in two.credits)
        return HandScore(spread(two.trick_points), spread(two.meld_points), spread(two.bonus), spread(two.total), credits,
                         two.held_aside, targets[two.winner] if two.winner >= 0 else -1, spread(two.tricks),
                         two.void, two.nullo)

    def lift_melds(self, r: MeldResult, targets: tuple[int, int], seats: int) -> MeldResult:
        points = [0] * seats
        shown: list[tuple] = [()] * seats
        for i, t in enumerate(targets):
            points[t] += r.points[i]
            shown[t] = shown[t] + r.shown[i]
        return MeldResult(targets[r.class_a] if r.class_a >= 0 else -1, targets[r.class_b] if r.class_b >= 0 else -1,
                          tuple(points), tuple(shown))

    def void_score(self) -> HandScore:
        z = (0,) * len(self.sheet_labels)
        return HandScore(z, z, z, z, (), 0, -1, z, void=True)
