"""One double-dummy solver for every game whose whole deal is known: Baloot, four-player Jo-Jotte, Pitch.

Once every card is known the card play is a game of perfect information between two sides. `Solver` searches
it with one alpha-beta loop, driven only by the game's own rules object: the moves are its
``legal_actions`` (the cards, each with the words that may go with it), the next state its transition, the end
its ``is_terminal``, and the value its own accounting of the state (the card points a Baloot team has taken, a
Jo-Jotte side's trick score, the Pitch points credited to the bidding side). No rule is written again here.

A `GameView` says, for one game, which side a seat is on, what the side's score so far is, how much can still
change (the points left, a bound that cuts the search), what the rest of the play depends on (the key of the
transposition table: the cards held, the trick so far, the words said, whose lead) and how the game ranks the
cards within a suit (for merging equivalent cards: cards of one hand adjacent in that order among the cards
still out, with equal card points, win the same tricks, so only the highest is searched).

The search returns the score the maximising side (side 0) adds from a position to the end of the hand, under
best play by both sides; the root driver is MTD(f) (null windows over a table of bounds). Positions are kept
between calls, so analysing every card of a hand reuses the work of the earlier positions.

Speed (issue 17): the table holds, for each position, its bounds and its moves with the positions after them
(`Node`), so that each transition of the rules is computed once however often MTD(f)'s passes and the other
orders of the same cards come back to it; the states stay the rules' own immutable states (a mutable state with
undo would mean writing the transitions again outside the rules). At the start of a trick the key is the cards
held by relative rank (`GameView.relative_hands`), so that positions that differ only in which of the low cards
were played share an entry; and the entries of one shape (the same holders high to low in every suit, the card
points aside: `GameView.shape`) lend each other their bounds, widened by the points in which they differ
(`Solver._borrow`, partition search in the manner of DDS: Baloot's deal 5 of bench/analyze.py searches 71,413
positions, not 275,016). Following cards are tried in the order of a trick player (`Solver._follow_order`:
the rules' own trick winner says who wins so far); the points still out bound the window.

It calls the rules only through the public protocol (``legal_actions``, ``check``, ``advance``,
``is_terminal``, ``current_player``).
"""

from __future__ import annotations

from typing import Callable, NamedTuple

from ..cycles import without_cycle_collection
from ..rules.baloot_cards import can_ekka, ekka_open, legal_case, trick_winner
from ..rules.base import Action

INF = 1_000_000


# --- what the solver needs to know of a game ---------------------------------------------------------------

class GameView:
    """One game seen by the solver. Subclasses give the sides, the score, the bound, the key and the card order.

    ``script``: actions that are not card choices (Baloot's project declarations and shows), by ``(trick index
    0-based, seat)``; they are taken, in order, when that seat is to play in that trick and they are legal.
    """

    rules: object

    def __init__(self, rules, script: dict | None = None):
        self.rules = rules
        self.script = script or {}
        self._script_tricks = frozenset(t for t, _ in self.script)  # the tricks in which something is scripted

    def side_of(self, seat: int) -> int:  # 0: the side whose score is maximised
        raise NotImplementedError

    memos: tuple[str, ...] = ()  # the view's own memos (dicts) that grow with the search: `forget` empties them

    def forget(self) -> None:
        """Empty the memos that grow with the search (the solver's memory bound, `Solver._shed`)."""
        for name in self.memos:
            memo = self.__dict__.get(name)
            if memo is not None:
                memo.clear()

    def score(self, s) -> int:
        """The maximising side's score so far (the game's own accounting)."""
        raise NotImplementedError

    def bounds(self, s) -> tuple[int, int]:
        """The least and the most the maximising side's score can still change by, to the end."""
        raise NotImplementedError

    def final(self, s) -> int:
        """What a finished hand adds to the score (0: the score is all; an outcome view: the outcome)."""
        return 0

    def facts(self, s) -> tuple[int, int, bool, int] | None:
        """What a new table entry needs of ``s`` in one answer: None at the end of the hand (`is_end`), else its
        `bounds`, whether the side to move maximises and the cards still to be played."""
        if self.is_end(s):
            return None
        lo, hi = self.bounds(s)
        left = len(self.trick_cards(s))
        for h in self.hands(s):
            left += h.bit_count()
        return lo, hi, self.side_of(self.to_move(s)) == 0, left

    def mask_facts(self, s, maximise: bool) -> tuple[int, int, bool, int] | None:
        """`facts` of a view whose hand ends when no card is `live` and whose bounds are worked out from the cards
        still out (``_bounds(s, live)``), ``maximise`` said by the view."""
        live = self.live(s)
        if not live:
            return None
        lo, hi = self._bounds(s, live)
        return lo, hi, maximise, live.bit_count()

    def key(self, s) -> tuple:
        raise NotImplementedError

    def tricks_done(self, s) -> int:
        return len(s.history)

    def completes_trick(self, s) -> bool:
        """The next card ends the trick (used only to order the moves)."""
        return len(self.trick_cards(s)) == 3

    def hands(self, s) -> tuple[int, ...]:
        return s.hands

    def trick_cards(self, s) -> tuple[int, ...]:
        raise NotImplementedError

    def live(self, s) -> int:
        """The cards still held or in the trick so far, a mask."""
        live = 0
        for h in self.hands(s):
            live |= h
        for c in self.trick_cards(s):
            live |= 1 << c
        return live

    def order(self, s, card: int) -> int | None:
        """The card's rank within its suit (higher wins), or None: never merged with another. Fixed for the deal
        (``s`` is not read: `Solver.representatives` keeps its merges by the cards alone)."""
        return None

    def winning(self, s, card: int | None = None) -> int | None:
        """The seat winning the trick so far (with ``card`` added: its index in play order, from the rules' own
        trick winner), or None when the view does not say (the moves are then ordered by rank and points only).
        Used only to order the moves."""
        return None

    def winner(self, cards: tuple[int, ...]) -> int | None:
        """The index (in play order) of the card winning ``cards`` so far (the rules' own trick winner), or None."""
        return None

    def card_points(self, s, card: int) -> int:
        """The card's points, fixed for the deal like `order`."""
        return 0

    def points_of(self, cards: int) -> int:
        """The card points (`card_points`) of the cards of the mask ``cards`` (of 64 cards), summed a byte at a time."""
        bytes_ = self.__dict__.get("_byte_points")
        if bytes_ is None:
            pts = [self.card_points(None, c) for c in range(64)]
            bytes_ = self._byte_points = [[sum(pts[8 * i + j] for j in range(8) if m >> j & 1) for m in range(256)]
                                          for i in range(8)]
        return sum([bytes_[i][cards >> (8 * i) & 255] for i in range(8)])

    def suit_order(self, s, suit: int) -> list[int]:
        """The cards of a suit that `order` ranks, high to low."""
        got = self._suit_orders.get(suit) if hasattr(self, "_suit_orders") else None
        if got is None:
            cards = [c for c in range(suit * 16, suit * 16 + 16) if self.order(s, c) is not None]
            got = sorted(cards, key=lambda c: self.order(s, c), reverse=True)
            self.__dict__.setdefault("_suit_orders", {})[suit] = got
        return got

    def moves(self, s) -> list[Action]:
        return list(self.rules.card_plays(s))

    def moves_key(self, s):
        """What decides `moves` at ``s`` (two positions with the same key have the same moves), or None: not said."""
        return None

    def relative_hands(self, hands: tuple[int, ...]) -> tuple:
        """The cards held as the rest of the play sees them at the start of a trick: in each suit, high to low in the
        game's order, the holder and the card points of each card still held, not which ranks they are (the cards
        played are gone, and the rules compare the rest only with each other, BAL-PLAY-4, JJ-PLAY-2). The cards a
        rule names by rank (the Jo-Jotte's king and queen of trumps, the Baloot's) are kept as they are, in their
        place in the order. Two positions with the same relative hands have the same value (the tests of the solver
        hold it against a plain minimax). Each suit's pattern is given by a number of its own (equal numbers, equal
        patterns), so that the key is hashed at the cost of a few numbers, not of every card's tuple."""
        un = self._unranked
        wide = held = 0  # every hand in one number, 64 bits a hand: a suit's cards of every hand are one mask away
        for i, h in enumerate(hands):
            wide |= h << (64 * i)
            held |= h
        out = [tuple([h & un for h in hands]) if held & un else self._no_unranked[len(hands)]]  # what no suit ranks
        ids = self._pattern_ids
        for shift, mask, ranked, cache in self._ranked:
            k = wide & mask  # the suit's cards of every hand, in place
            got = cache.get(k)
            if got is None:
                parts = []
                for bit, points, exact in ranked:
                    for seat in range(len(hands)):
                        if k >> (64 * seat + shift) & bit:
                            parts.append((bit, seat) if exact else seat << 8 | points)
                parts = tuple(parts)
                got = ids.get(parts)
                if got is None:
                    got = ids[parts] = len(ids)
                    shape = tuple(x if type(x) is tuple else x >> 8 for x in parts)
                    shapes = self._shape_ids
                    self._shapes.append((shapes.setdefault(shape, len(shapes)),
                                         tuple(x & 0xFF for x in parts if type(x) is not tuple)))
                cache[k] = got
            out.append(got)
        return tuple(out)

    # --- positions of one shape: bounds lent across the card points (partition search, in the manner of DDS) ------
    taken = (1, 0)  # what a card point taken by side 0, and by side 1, adds to the value (Baloot: the team's points)

    def shape(self, s, key: tuple):
        """At the start of a trick: (the shape, the points), or None (the view lends no bounds there). The shape is
        the key without the card points of the relative hands (each suit's holders high to low, and the cards kept by
        rank); the points are each suit's pattern number, from which `shift` reads the card points. Positions of one
        shape play out alike, card for card, with the same tricks to the same seats (the rules compare the cards
        only by their order within the suit, JJ-PLAY-2, BAL-PLAY-4; a led card with no higher card out is an ace
        for BAL-PLAY-11 once Ekka is said, BAL-EKKA-2/4, and the leader may always say it): only the points of
        the cards differ, so their values differ by no more than those points (`shift`)."""
        return None

    def relative_shape(self, rel: tuple) -> tuple[tuple, tuple]:
        """The shape and the points (`shape`) of the relative hands ``rel``."""
        shapes = self._shapes
        return (rel[0], *[shapes[x][0] for x in rel[1:]]), rel[1:]

    def shift(self, a: tuple, b: tuple) -> tuple[int, int]:
        """How much less and how much more the value of a position with points ``b`` can be than that of one of the
        same shape with points ``a``: each card's difference in points goes to either side (`taken`)."""
        memo = self._shifts
        lo = hi = 0
        for x, y in zip(a, b):
            if x != y:
                got = memo.get((x, y))
                if got is None:
                    d_lo = d_hi = 0
                    shapes, w0, w1 = self._shapes, *self.taken
                    for p, q in zip(shapes[x][1], shapes[y][1]):
                        d = q - p
                        d_lo += min(w0 * d, w1 * d)
                        d_hi += max(w0 * d, w1 * d)
                    got = memo[(x, y)] = (d_lo, d_hi)
                lo += got[0]
                hi += got[1]
        return lo, hi

    def rank_cards(self, cards, strength: Callable[[int], int], exact: int = 0) -> None:
        """Make the table `relative_hands` reads: each suit's cards high to low by ``strength`` (the rules' order of
        the cards within a suit) with their points and whether they are kept by rank (in ``exact``)."""
        by_suit: dict[int, list] = {}
        for c in cards:
            by_suit.setdefault(c >> 4, []).append(c)
        self._ranked = [(suit * 16, sum(0xFFFF << (suit * 16 + 64 * i) for i in range(8)),  # eight hands at most
                         [(1 << (c & 15), self.card_points(None, c), bool(exact >> c & 1))
                          for c in sorted(cs, key=strength, reverse=True)], {})
                        for suit, cs in sorted(by_suit.items())]
        self._no_unranked = [(0,) * n for n in range(9)]
        ranked = 0
        for suit in by_suit:
            ranked |= 0xFFFF << (suit * 16)
        self._unranked = ~ranked
        self._pattern_ids: dict[tuple, int] = {}  # a suit's pattern (holders and points, high to low): its number
        self._shape_ids: dict[tuple, int] = {}  # a suit's pattern without the points: its number
        self._shapes: list[tuple[int, tuple]] = []  # by pattern number: its shape's number and its card points
        self._shifts: dict = {}  # by two pattern numbers of one shape: `shift` of that suit

    # --- sure winners at a lead (a quick-trick bound in the manner of DDS) --------------------------------------
    free_leads = False  # any card may be led whatever was played before (JJ-PLAY-2): sure winners are cashed in a row

    def beat_table(self, cards, winner: Callable[[tuple[int, int]], int]) -> None:
        """``self._beats[c]``: the cards that beat ``c`` when ``c`` is led (the rules' own trick winner on the two
        cards). The trick goes to the card of the led suit or trump that beats every other (JJ-PLAY-8, BAL-PLAY-4):
        a led card that no card of the other side beats takes the trick, or its partner's higher card does."""
        beats = [0] * 64
        for c in cards:
            m = 0
            for x in cards:
                if x != c and winner((c, x)) == 1:
                    m |= 1 << x
            beats[c] = m
        self._beats = beats

    def beaten_by(self, card: int) -> int:
        """The cards (a mask) that beat ``card`` when it is led, from `beat_table` (0 before it is built)."""
        beats = getattr(self, "_beats", None)
        return beats[card] if beats is not None else 0

    def seat_sides(self, seats: int) -> tuple[int, ...]:
        """`side_of` of every seat, worked out once."""
        sides = self.__dict__.get("_seat_sides")
        if sides is None:
            sides = self._seat_sides = tuple(self.side_of(x) for x in range(seats))
        return sides

    def sure_points(self, s, leader: int) -> int:
        """At the start of a trick: card points the leader's side takes for sure whatever the others play (0: none
        known). A card of the leader that no card of the other side beats wins its trick for the side, with at least
        its own points; if no card of the partner beats any such card either, the leader keeps the lead and, where
        any card may be led (`free_leads`), cashes them all, with the last trick's points when they are all he
        holds. Otherwise only one such card counts, and only if the rules let him lead it now."""
        beats = getattr(self, "_beats", None)
        if beats is None:
            return 0
        hands = self.hands(s)
        sides = self.seat_sides(len(hands))
        side = sides[leader]
        mate = opp = 0
        for seat, h in enumerate(hands):
            if seat != leader:
                if sides[seat] == side:
                    mate |= h
                else:
                    opp |= h
        mine = hands[leader]
        pts = self.card_points
        one = run = n = 0
        leads = -1 if self.free_leads else None  # the cards he may lead now (`lead_mask`), asked once if needed
        m = mine
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            if beats[c] & opp:
                continue
            p = pts(s, c)
            if p > one:
                if leads is None:
                    leads = self.lead_mask(s, leader)
                if leads & low:
                    one = p
            if not beats[c] & mate:
                run += p
                n += 1
        if self.free_leads and n:
            if n == mine.bit_count():
                run += self.last_points
            return max(one, run)
        return one

    last_points = 0  # what the last trick carries besides its cards

    def may_lead(self, s, leader: int, card: int) -> bool:
        """Whether the rules let ``leader`` lead ``card`` now (a view whose positions are not the rules' states says
        it from its moves)."""
        return self.rules.check(s, Action(leader, "play", card=card)) is None

    def lead_mask(self, s, leader: int) -> int:
        """The cards of ``leader`` that `may_lead` lets him lead now, a mask."""
        out = 0
        m = self.hands(s)[leader]
        while m:
            low = m & -m
            m ^= low
            if self.may_lead(s, leader, low.bit_length() - 1):
                out |= low
        return out

    # --- top trumps: sure points of either side, on lead or not ------------------------------------------------
    _trumps: tuple = ()  # (bit, points) of every trump, high to low in the trump order

    def trump_table(self, cards, strength: Callable[[int], int]) -> None:
        """Make the table `top_trumps` reads: ``cards`` (the trumps) high to low by ``strength`` with their points."""
        self._trumps = tuple((1 << c, self.card_points(None, c)) for c in sorted(cards, key=strength, reverse=True))
        self._trump_mask = sum(bit for bit, _ in self._trumps)

    def top_trumps(self, s) -> tuple[int, int]:
        """(side, points): the card points of the trumps held by the side that holds the highest trump still out, down
        to the first trump still out that it does not hold (a card of the trick so far counts as not its own); (0, 0)
        without trumps. A trick with a trump in it goes to its highest trump (JJ-PLAY-8, BAL-PLAY-4): every trick
        one of these trumps is played to goes to that side, whatever either side plays, so the side takes their
        points for sure, on lead or not."""
        trumps = self._trumps
        if not trumps:
            return 0, 0
        hands = self.hands(s)
        sides = self.seat_sides(len(hands))
        a = b = t = 0
        for seat, h in enumerate(hands):
            if sides[seat]:
                b |= h
            else:
                a |= h
        for c in self.trick_cards(s):
            t |= 1 << c
        m = self._trump_mask
        k = (a & m, b & m, t & m)
        tops = self.__dict__.get("_tops")
        if tops is None:
            tops = self._tops = {}
        got = tops.get(k)
        if got is None:
            a, b, t = k
            side, pts = -1, 0
            for bit, p in trumps:
                if t & bit:
                    break
                if side < 0:
                    if a & bit or b & bit:
                        side, pts = (0 if a & bit else 1), p
                    continue
                if (a if side == 0 else b) & bit:
                    pts += p
                elif (a | b) & bit:
                    break
            got = tops[k] = (side, pts) if side >= 0 else (0, 0)
        return got

    # --- the positions the search walks: the rules' own states, unless a view keeps a leaner one ----------------
    def start(self, s):
        """The search's position for the rules' state ``s`` at a card choice (by default ``s`` itself)."""
        return s

    def to_move(self, p) -> int:
        return self.rules.current_player(p)

    def is_end(self, p) -> bool:
        return self.rules.is_terminal(p)

    def step(self, p, a: Action):
        """The position after card ``a`` (the declarations due then taken, `settle`) and what it adds to the
        maximising side's score: the rules' own transition and accounting."""
        c = self.settle(self.rules.play_card(p, a))
        return c, self.score(c) - self.score(p)

    def settle(self, s):
        """Take the scripted actions due now (declarations), so that the position is one of card choice."""
        if not self.script or self.tricks_done(s) not in self._script_tricks:
            return s
        rules = self.rules
        while not rules.is_terminal(s):
            due = self.script.get((self.tricks_done(s), rules.current_player(s)))
            if not due:
                return s
            for a in due:
                if rules.check(s, a) is None:
                    s = rules.advance(s, a)
                    break
            else:
                return s
        return s


class Node:
    """One position of the transposition table, keyed on what the rest of the play depends on (`GameView.key`).

    ``lo``/``hi``: the bounds proved so far on the score the maximising side adds from here (the view's points-left
    bound to start with); ``kids``: the moves searched here, each with the position after it, the score it adds at
    once and that position's entry (found by its key once, not at every visit), best first. The positions are reached
    again from other orders of the same cards and in every null-window pass of MTD(f): each transition of the rules
    is then computed once. ``pos``: the
    position whose moves ``kids`` are; a move not yet made is made from it, not from another position of the same key
    that reaches the entry later (its cards are not the same cards, only cards of the same relative rank). ``left``:
    the cards still to be played from the position (what searching it again costs grows with them, `Solver._shed`)."""

    __slots__ = ("lo", "hi", "maximise", "kids", "pos", "left", "pts", "group")

    def __init__(self, lo: int, hi: int, maximise: bool, kids: list, pos=None, left: int = 0):
        self.lo, self.hi, self.maximise, self.kids, self.pos, self.left = lo, hi, maximise, kids, pos, left
        self.pts = self.group = None  # the position's points and the entries of its shape (`GameView.shape`)


class Solver:
    """Exact values of the card play of one deal (see the module).

    ``max_entries`` bounds what the solver keeps: the table's positions and the positions after their moves
    (`Node.kids`) together, some 0.6 KB each in Baloot (about 1 GB at most; the benchmark's hardest deals but one
    keep up to 1.2 million and are not slowed). When it is reached the moves are dropped and
    the bounds kept (a position searched again makes its moves again); when the bounds fill half of it, only those
    of the positions with the most cards left are kept (`_shed`), and with either the view's memos are emptied
    (`GameView.forget`). The memos of moves kept here (`_orders`,
    `_merge_suits`, `_runs`) hold a quarter of the bound each at most. Either way every value found stays exact:
    only work is repeated."""

    def __init__(self, view: GameView, max_entries: int = 1_500_000):
        self.view = view
        self.rules = view.rules
        self.tt: dict = {}
        self.max_entries = max_entries
        self.memo_limit = max(16, max_entries // 4)  # entries of each memo of moves
        self.stored = 0  # positions kept: the table's, and those after the moves made (`_expand`)
        self._runs: dict = {}  # a suit's equivalent cards by its cards held, still out and said with a word
        self._merge_suits: dict = {}  # by the view's moves key: the suits where the mover may merge cards, the moves sorted
        self._orders: dict = {}  # by the moves key and the cards still out of those suits: the moves kept, in order
        self.nodes = 0
        self.passes = 0
        self.groups: dict = {}  # the trick starts of one shape (`GameView.shape`): their entries
        self.peers = 16  # the entries of its shape a position borrows bounds from (`_borrow`), the latest; 0: none

    # --- moves ----------------------------------------------------------------------------------
    def child(self, s, a: Action):
        return self.view.settle(self.rules.play_card(s, a))

    def representatives(self, s, acts: list[Action]) -> dict[int, int]:
        """For each card among ``acts``, the card searched in its place (itself, or the highest card of its run of
        equivalent cards in the same hand: adjacent in the game's order within the suit among the cards still out,
        with the same card points, and no word said with it)."""
        rep = {a.card: a.card for a in acts}
        if len(rep) < 2:
            return rep
        view = self.view
        by_suit = self._mergeable(s, rep)
        suits = [x for x, m in by_suit.items() if m & (m - 1)]
        if not suits:
            return rep
        live = view.live(s)
        worded = 0
        for a in acts:
            if a.announce:
                worded |= 1 << a.card
        cache = self._runs
        for suit in suits:
            sm = 0xFFFF << (suit * 16)
            k = (by_suit[suit], live & sm, worded & sm)
            merged = cache.get(k)
            if merged is None:  # the views' order and card points are the card's own: the suit's cards decide
                if len(cache) >= self.memo_limit:
                    cache.clear()
                mine = k[0]
                merged, top = [], -1
                for c in view.suit_order(s, suit):  # high to low
                    if not live >> c & 1:
                        continue
                    if mine >> c & 1:
                        if top >= 0 and not worded >> c & 1 and view.card_points(s, c) == view.card_points(s, top):
                            merged.append((c, top))
                        else:
                            top = c
                    else:
                        top = -1
                merged = cache[k] = tuple(merged)
            for c, top in merged:
                rep[c] = top
        return rep

    def _mergeable(self, s, cards) -> dict[int, int]:
        """``cards`` that the view ranks (`GameView.order`: the others are never merged), a mask by suit; a suit of
        two or more is one where `representatives` may merge."""
        view = self.view
        by_suit: dict[int, int] = {}
        for c in cards:
            if view.order(s, c) is not None:
                by_suit[c >> 4] = by_suit.get(c >> 4, 0) | 1 << c
        return by_suit

    def _gen(self, s) -> list[Action]:
        acts = self.view.moves(s)
        if len(acts) > 1:
            rep = self.representatives(s, acts)
            acts = [a for a in acts if rep[a.card] == a.card]
        return acts

    def _node(self, s) -> Node:
        """A new entry for ``s``: its bounds (the view's points left); its moves are made when it is first searched
        (`_kids`), not when its bounds already cut the window."""
        got = self.view.facts(s)
        if got is None:
            f = self.view.final(s)
            return Node(f, f, True, [])
        lo, hi, maximise, left = got
        return Node(lo, hi, maximise, None, None, left)

    def _kids(self, s, maximise: bool) -> list:
        return [[a, None, 0, None] for a in self._ordered(s, maximise)]  # each position made when first searched

    def _ordered(self, s, maximise: bool | None = None) -> tuple[Action, ...] | list[Action]:
        """The moves `_gen` keeps, in `_sorted`'s order. Where the view says what decides its moves
        (`GameView.moves_key`), they are kept by that and by the cards still out of the suits in which a merge can
        happen (those of which the mover may play two cards or more): what the merge reads besides the moves
        (`representatives`); the order reads only the moves, the trick and the mover, so the moves of a key are
        sorted once (`_merge_suits`) and each position's kept in that order (a stable sort of fewer moves is the same
        order). ``maximise``: whether the mover's side maximises (None: asked of the view when the order is made)."""
        view = self.view
        mk = view.moves_key(s)
        if mk is None:
            if maximise is None:
                maximise = view.side_of(view.to_move(s)) == 0
            return self._sorted(s, self._gen(s), maximise)
        got = self._merge_suits.get(mk)
        if got is None:
            if maximise is None:
                maximise = view.side_of(view.to_move(s)) == 0
            if len(self._merge_suits) >= self.memo_limit:
                self._merge_suits.clear()
                self._orders.clear()
            acts = self._sorted(s, view.moves(s), maximise)
            by_suit = self._mergeable(s, [a.card for a in acts])
            got = self._merge_suits[mk] = (sum(0xFFFF << (x * 16) for x, m in by_suit.items() if m & (m - 1)),
                                           tuple(acts))
        suits, acts = got
        if not suits:
            return acts
        k = (mk, view.live(s) & suits)
        kept = self._orders.get(k)
        if kept is None:
            if len(self._orders) >= self.memo_limit:
                self._orders.clear()
            rep = self.representatives(s, acts)
            kept = self._orders[k] = tuple([a for a in acts if rep[a.card] == a.card])
        return kept

    def _sorted(self, s, acts: list[Action], maximise: bool) -> list[Action]:
        """``acts`` in the order they are searched first: high cards and cards of points first at a lead (ordering
        them by what they win at once when they complete a trick searched more positions on four-player deals:
        measured), the trick player's order when following (`_follow_order`)."""
        view = self.view
        order, points = view.order, view.card_points
        won = view.winning(s) if len(acts) > 1 and view.trick_cards(s) else None
        if won is None:  # a lead: high cards and cards of points first
            acts.sort(key=lambda a: (order(s, a.card) or 0) + 4 * points(s, a.card), reverse=True)
        else:
            acts.sort(key=self._follow_order(s, won, maximise), reverse=True)
        return acts

    def _follow_order(self, s, won: int, maximise: bool):
        """The order of the cards that follow to a trick: if the mover's partner wins it so far, cards of points
        first (lowest rank first among equal points); otherwise the cards that take the trick now first (the highest,
        or the lowest if the mover plays last), then the cheapest cards."""
        view = self.view
        order, points = view.order, view.card_points
        mover = view.to_move(s)
        if view.side_of(won) == view.side_of(mover) and won != mover:
            return lambda a: (points(s, a.card), -(order(s, a.card) or 0))
        cards = view.trick_cards(s)
        n = len(cards)
        last = view.completes_trick(s)
        winner = view.winner

        def key(a):
            o = order(s, a.card) or 0
            if winner((*cards, a.card)) == n:
                return (1, -o if last else o, points(s, a.card))
            return (0, -points(s, a.card), -o)
        return key

    def _expand(self, s, kid: list):
        """Make the position after a move, the score it adds and its entry (`_entry`). A card forced in the middle of a
        trick (the only legal card, or the only one once equivalent cards are merged) is played at once: the move leads to the
        position after it, which keeps no entry of its own (about two positions in five are forced, measured).
        Returns that position's moves when they were worked out on the way (in the middle of a trick), else None."""
        view = self.view
        c, d = view.step(s, kid[0])
        acts = None
        while view.trick_cards(c):
            acts = self._ordered(c)
            if len(acts) != 1:
                break
            c, e = view.step(c, acts[0])
            d += e
            acts = None
        kid[1], kid[2], kid[3] = c, d, self._entry(c)
        self.stored += 1
        return acts

    def _entry(self, s) -> Node:
        """The table's entry for ``s`` (made, with its bounds, if there is none)."""
        key = self.view.key(s)
        node = self.tt.get(key)
        if node is None:
            if self.stored >= self.max_entries:
                self._shed()
            node = self.tt[key] = self._node(s)
            self.stored += 1
            shape = self.view.shape(s, key)
            if shape is not None:
                group = self.groups.get(shape[0])
                if group is None:
                    group = self.groups[shape[0]] = []
                group.append(node)
                node.pts, node.group = shape[1], group
        return node

    def _borrow(self, node: Node) -> tuple[int, int]:
        """Narrow ``node``'s bounds by those of the latest entries of its shape, shifted by the card points in which
        they differ (`GameView.shift`)."""
        lo, hi, mine, shift = node.lo, node.hi, node.pts, self.view.shift
        if self.peers <= 0:  # none (``group[-0:]`` would be every one)
            return lo, hi
        for peer in node.group[-self.peers:]:
            if peer is not node:
                a, b = shift(peer.pts, mine)
                if peer.lo + a > lo:
                    lo = peer.lo + a
                if peer.hi + b < hi:
                    hi = peer.hi + b
        node.lo, node.hi = lo, hi
        return lo, hi

    def _shed(self) -> None:
        """Keep within ``max_entries``: drop every position's moves (the positions after them) and keep its bounds;
        if the bounds fill half of it, keep those of a quarter of it at most, the positions with the most cards left
        (the dearest to search again: emptying the whole table made Baloot's deal 5 of bench/analyze.py search 4.4
        times the positions under a bound of 200,000). The positions on the search's path keep their moves in the
        search's own frames until it returns."""
        tt = self.tt
        for node in tt.values():
            node.kids = node.pos = None
        if len(tt) * 2 >= self.max_entries:
            keep = self.max_entries // 4
            by_left: dict[int, int] = {}
            for node in tt.values():
                by_left[node.left] = by_left.get(node.left, 0) + 1
            cut, kept = 0, 0  # the fewest cards left that an entry kept has
            for left in sorted(by_left, reverse=True):
                if kept + by_left[left] > keep:
                    cut = left + 1
                    break
                kept += by_left[left]
            for k in [k for k, node in tt.items() if node.left < cut]:
                tt.pop(k).group = None
            for key, group in list(self.groups.items()):
                group[:] = [n for n in group if n.group is not None]
                if not group:
                    del self.groups[key]
        self.view.forget()
        self.stored = len(tt)

    # --- the search -----------------------------------------------------------------------------
    def search(self, s, alpha: int, beta: int, node: Node | None = None, moves=None) -> int:
        """The score the maximising side adds from ``s`` to the end (fail-soft: a bound outside (alpha, beta)).
        ``node``: the position's entry (`_entry`) when the caller has it; ``moves``: its moves in order (`_ordered`)
        when the caller has them."""
        if node is None:
            node = self._entry(s)
        lo, hi = node.lo, node.hi
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        if node.group is not None and len(node.group) > 1:
            lo, hi = self._borrow(node)
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
        self.nodes += 1
        a0, b0 = alpha, beta
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
        kids = node.kids
        if kids is None:
            kids = node.kids = self._kids(s, node.maximise) if moves is None else [[a, None, 0, None] for a in moves]
            node.pos = s
            if not kids:  # no card to play (cannot happen in a legal position): nothing more is won
                node.lo = node.hi = 0
                return 0
        else:  # a child's stored bound that cuts the window already (enhanced transposition cutoff)
            if node.maximise:
                for kid in kids:
                    cn = kid[3]
                    if cn is not None:
                        if kid[2] + cn.lo >= beta:
                            v = kid[2] + cn.lo
                            if v > node.lo:
                                node.lo = v
                            return v
            else:
                for kid in kids:
                    cn = kid[3]
                    if cn is not None:
                        if kid[2] + cn.hi <= alpha:
                            v = kid[2] + cn.hi
                            if v < node.hi:
                                node.hi = v
                            return v
        best_i = 0
        search = self.search
        s = node.pos  # the moves are those of the position that made them (`Node`)
        if node.maximise:
            best = -INF
            for i, kid in enumerate(kids):
                moves = self._expand(s, kid) if kid[1] is None else None
                _, c, d, ck = kid
                v = d + search(c, alpha - d, beta - d, ck, moves)
                if v > best:
                    best, best_i = v, i
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            break
        else:
            best = INF
            for i, kid in enumerate(kids):
                moves = self._expand(s, kid) if kid[1] is None else None
                _, c, d, ck = kid
                v = d + search(c, alpha - d, beta - d, ck, moves)
                if v < best:
                    best, best_i = v, i
                    if v < beta:
                        beta = v
                        if v <= alpha:
                            break
        if best_i:
            kids.insert(0, kids.pop(best_i))
        if best <= a0:
            if best < node.hi:
                node.hi = best
        elif best >= b0:
            if best > node.lo:
                node.lo = best
        else:
            node.lo = node.hi = best
        return best

    @without_cycle_collection
    def rest(self, s, guess: int | None = None) -> int:
        """The exact score the maximising side adds from ``s`` to the end (MTD(f))."""
        if self.rules.is_terminal(s):
            return self.view.final(s)
        s = self.view.start(s)
        lower, upper = self.view.bounds(s)
        if guess is not None and lower < guess <= upper:  # a null window at the guess first (MTD(f)'s step)
            g = self.search(s, guess - 1, guess)
            self.passes += 1
            lower, upper = (g, upper) if g >= guess else (lower, g)
            # then the window beside the bound just found: a good guess (the value of the position before, in the
            # analysis of a hand) is settled in two passes, where bisection from the points left took four or five
            m = lower + 1 if g >= guess else upper
            if lower < upper:
                g = self.search(s, m - 1, m)
                self.passes += 1
                lower, upper = (g, upper) if g >= m else (lower, g)
        while lower < upper:  # then bisection with null windows; the fail-soft bounds shrink it faster
            m = (lower + upper + 1) // 2
            g = self.search(s, m - 1, m)
            self.passes += 1
            if g >= m:
                lower = g
            else:
                upper = g
        g = lower
        return g

    def value(self, s, guess: int | None = None) -> int:
        """The maximising side's whole score at the end of the hand from ``s`` with best play (so far + to come)."""
        base = self.view.score(s)
        return base + self.rest(s, None if guess is None else guess - base)

    def options(self, s, guess: int | None = None) -> list[tuple[Action, int]]:
        """Every legal card (with its words) at ``s`` and the whole-hand value it leads to with best play after.

        A card merged with a higher equivalent one has that card's value (the solver searched it in its place). Without
        ``guess`` (the first card of an analysed hand), each card's search takes the best value of the cards searched
        before it as MTD(f)'s first guess (the position's value so far; the cards of a position are mostly worth the
        same), not bisection from the points left: a guess only orders the null windows, every value stays exact."""
        view = self.view
        acts = view.moves(s)
        rep = self.representatives(s, acts) if len(acts) > 1 else {a.card: a.card for a in acts}
        found: dict[tuple[int, str], int] = {}
        out = []
        free = guess is None
        maximise = view.side_of(self.rules.current_player(s)) == 0
        for a in acts:
            k = (rep[a.card], a.announce)
            if k not in found:
                r = a if rep[a.card] == a.card else a._replace(card=rep[a.card])
                found[k] = self.value(self.child(s, r), guess)
                if free:
                    v = found[k]
                    guess = v if guess is None or (v > guess if maximise else v < guess) else guess
            out.append((a, found[k]))
        return out

    def best(self, s, guess: int | None = None) -> tuple[int, list[tuple[Action, int]]]:
        """The value of ``s`` and every option's value (see `options`)."""
        opts = self.options(s, guess)
        maximise = self.view.side_of(self.rules.current_player(s)) == 0
        values = [v for _, v in opts]
        return (max(values) if maximise else min(values)), opts

    def line(self, s) -> list[Action]:
        """A principal line from ``s`` to the end: at each step the first best option."""
        out = []
        guess = None
        while not self.rules.is_terminal(s):
            v, opts = self.best(s, guess)
            a = next(a for a, x in opts if x == v)
            out.append(a)
            s = self.child(s, a)
            guess = v
        return out

    def finish(self, s) -> tuple[object, list[Action]]:
        """The end state reached from ``s`` along a principal line, and the line."""
        line = self.line(s)
        end = s
        for a in line:
            end = self.child(end, a)
        return end, line


# --- the games -----------------------------------------------------------------------------------------------

class BalootPlay(NamedTuple):
    """A Baloot position from the third trick on as the search sees it (`BalootView.start`): what the rest of the card
    play depends on once the projects are declared and shown (BAL-PROJ: tricks 1 and 2), with the field names of the
    rules' state, so that the view reads either."""

    hands: tuple[int, int, int, int]
    leader: int
    trick: tuple[tuple[int, int], ...]  # (seat, card) in play order
    ekka: bool  # the leader of this trick validly said Ekka (BAL-EKKA-4)


class BalootView(GameView):
    """Baloot (BAL-PLAY, BAL-EKKA): the declaring team's card points, the last-trick 10 included (BAL-DECK-6).

    Over tricks 1 and 2 the search walks the rules' own states (the projects are declared and shown there, by the
    script); from the third trick on it walks `BalootPlay` positions, not the rules' 35-field state (issue 17): their
    moves are those of the rules' ``card_plays`` of the state the position stands for, made by the rules' own
    functions of them (``legal_case``, ``ekka_open``, ``can_ekka``) and kept by what decides them, and a
    card's transition and what it adds are the rules' trick winner and card points (BAL-PLAY-4, BAL-DECK-5/6). A
    Baloot said with a card (BAL-BALOOT) adds no card point and changes no later card's legality (``legal_plays``
    does not read it; only a second Baloot, which cannot be said): in these positions its card is searched plain.
    The tests hold `step` to the rules' ``play_card`` and the view's `score`, on random play with every word."""

    memos = ("_plays", "_rest", "_tricks", "_cards", "_shifts")

    def __init__(self, rules, state, script: dict | None = None):
        super().__init__(rules, script)
        self.team = state.declarer % 2
        self.trump = state.trump
        from ..rules.baloot_cards import strength

        pack = set(rules.pack.cards)
        self._points = [rules.card_points(state, c) if c in pack else 0 for c in range(64)]
        self._order = [strength(c, state.trump, c >> 4) if c in pack else None for c in range(64)]
        self.total = sum(self._points) + 10  # every card point of the pack and the last trick's 10 (BAL-DECK-6, -7)
        self.pack_mask = sum(1 << c for c in pack)
        # the king and queen of trumps make the Baloot (BAL-BALOOT): kept by rank
        exact = (1 << (state.trump * 16 + 13) | 1 << (state.trump * 16 + 12)) if state.trump >= 0 else 0
        self.rank_cards(pack, lambda c: strength(c, state.trump, c >> 4), exact)
        self.beat_table(pack, lambda cards: trick_winner(cards, state.trump))
        self._cards: dict = {}
        if state.trump >= 0:
            self.trump_table([c for c in pack if c >> 4 == state.trump], lambda c: strength(c, state.trump, c >> 4))
        self._plain_suits = sum(0xFFFF << (x * 16) for x in range(4) if x != state.trump) if state.trump >= 0 else 0
        self._late = max((t for t, _ in self.script), default=-1) + 1  # the first trick with nothing scripted after
        self.root = None  # a rules' state of the third trick on: what a `BalootPlay` stands for, but its four fields
        self._plays: dict = {}  # the rules' card plays by what decides them (`moves`)
        self._rest: dict = {}  # the card points still out with the last trick's 10, by the cards still out
        self._tricks: dict = {}  # a full trick (and whether it is the last): its winner's index and points

    # --- the positions ---------------------------------------------------------------------------------
    def start(self, s):
        if type(s) is BalootPlay or s.phase != "play" or len(s.history) < max(2, self._late):
            return s
        if self.root is None:
            self.root = s
        return BalootPlay(s.hands, s.leader, s.trick, s.ekka)

    def to_move(self, p) -> int:
        if type(p) is BalootPlay:
            return (p.leader + len(p.trick)) % 4  # play goes round the table (BAL-PLAY-1)
        return self.rules.current_player(p)

    def is_end(self, p) -> bool:
        if type(p) is BalootPlay:
            return not p.trick and not any(p.hands)
        return self.rules.is_terminal(p)

    def step(self, p, a: Action):
        if type(p) is not BalootPlay:
            c = self.settle(self.rules.play_card(p, a))
            return self.start(c), self.score(c) - self.score(p)
        seat = (p.leader + len(p.trick)) % 4
        hands = list(p.hands)
        hands[seat] ^= 1 << a.card
        trick = (*p.trick, (seat, a.card))
        if len(trick) < 4:
            return BalootPlay(tuple(hands), p.leader, trick, p.ekka or a.announce == "ekka"), 0
        last = not any(hands)
        k = (trick, last)
        got = self._tricks.get(k)
        if got is None:
            cards = self.trick_cards(p) + (a.card,)
            pts = sum(self._points[c] for c in cards) + (10 if last else 0)  # BAL-DECK-5/6
            got = self._tricks[k] = (trick[trick_winner(cards, self.trump)][0], pts)
        win, pts = got
        return BalootPlay(tuple(hands), win, (), False), (pts if win % 2 == self.team else 0)

    def live(self, s) -> int:
        h = s.hands
        live = h[0] | h[1] | h[2] | h[3]
        for _, c in s.trick:
            live |= 1 << c
        return live

    # --- what the search reads -------------------------------------------------------------------------
    def side_of(self, seat: int) -> int:
        return 0 if seat % 2 == self.team else 1

    def score(self, s) -> int:
        return s.points[self.team]

    def facts(self, s) -> tuple[int, int, bool, int] | None:
        if type(s) is not BalootPlay:
            return super().facts(s)
        return self.mask_facts(s, (s.leader + len(s.trick)) % 2 == self.team)

    def bounds(self, s) -> tuple[int, int]:
        return self._bounds(s, self.live(s) if type(s) is BalootPlay else 0)

    def _bounds(self, s, live: int) -> tuple[int, int]:
        """`bounds`, ``live`` the cards still out of a `BalootPlay` (`live`)."""
        # the card points not yet taken by either team, and the last trick's 10 (BAL-DECK-6)
        if type(s) is BalootPlay:
            rest = self._rest.get(live)
            if rest is None:
                rest = self._rest[live] = self.points_of(live) + 10
        else:
            rest = self.total - s.points[0] - s.points[1]
            if s.phase != "play":
                return 0, rest
        if s.trick:  # in the middle of a trick the top trumps cut no more than the points left (measured)
            return 0, rest
        side, top = self.top_trumps(s)
        ours, theirs = (top, 0) if side == 0 else (0, top)
        leader = s.leader
        sure = self.sure_points(s, leader)
        if leader % 2 == self.team:
            ours = max(ours, sure)
        else:
            theirs = max(theirs, sure)
        return ours, rest - theirs

    def key(self, s) -> tuple:
        if type(s) is BalootPlay:
            if not s.trick:  # the cards by rank (Ekka's higher cards gone, BAL-EKKA-2, read by rank as well)
                return self.relative_hands(s.hands), s.leader
            return s.hands, s.trick, s.leader, s.ekka
        if not s.trick and len(s.history) >= 2:  # projects are declared and shown by rank in tricks 1 and 2 (BAL-PROJ)
            return self.relative_hands(s.hands), s.leader, s.baloot, s.declared, s.shown, s.best
        return s.hands, s.trick, s.leader, s.ekka, s.baloot, s.declared, s.shown, s.best

    def shape(self, s, key: tuple):
        if type(s) is not BalootPlay or s.trick:
            return None
        shape, pts = self.relative_shape(key[0])
        return (shape, s.leader), pts

    def tricks_done(self, s) -> int:
        if type(s) is BalootPlay:
            return 8 - (sum(h.bit_count() for h in s.hands) + len(s.trick)) // 4
        return len(s.history)

    def trick_cards(self, s) -> tuple[int, ...]:
        trick = s.trick
        if not trick:
            return ()
        got = self._cards.get(trick)  # the cards of the trick so far, without their seats: made once for each trick
        if got is None:
            got = self._cards[trick] = tuple([c for _, c in trick])
        return got

    def moves_key(self, s):
        if type(s) is not BalootPlay:
            return None
        seat = (s.leader + len(s.trick)) % 4
        # what the rules' legal cards read: the hand, the trick, the Ekka; at a lead in Hokum the cards still out of
        # the plain suits (Ekka may be said with a card whose higher cards are gone, BAL-EKKA-1/2)
        return seat, s.hands[seat], s.trick, s.ekka, 0 if s.trick else self.live(s) & self._plain_suits

    def moves(self, s) -> list[Action]:
        if type(s) is BalootPlay:
            key = self.moves_key(s)
            got = self._plays.get(key)
            if got is None:  # the rules' card plays (`card_plays`) of the state it stands for, but Baloot's word
                seat, hand, trump, cards = key[0], key[1], self.trump, self.trick_cards(s)
                legal = legal_case(hand, cards, trump, self.root.locked, s.ekka)[0]  # BAL-PLAY-5…12, BAL-EKKA-4
                ekka = ekka_open(len(cards), trump)
                played = self.pack_mask & ~self.live(s) if ekka else 0
                got = []
                while legal:
                    low = legal & -legal
                    legal ^= low
                    c = low.bit_length() - 1
                    got.append(Action(seat, "play", card=c))
                    if ekka and can_ekka(c, trump, played):
                        got.append(Action(seat, "play", card=c, announce="ekka"))
                self._plays[key] = got
            return list(got)
        plays = self.rules.card_plays(s)
        if plays:
            return list(plays)
        # the owner of the best project shows it before his card in trick 2 (BAL-PROJ-11): no card until then
        return [a for a in self.rules.legal_actions(s) if a.kind == "show"][:1]

    def may_lead(self, s, leader: int, card: int) -> bool:
        if type(s) is BalootPlay:
            return any(a.card == card for a in self.moves(s))
        return super().may_lead(s, leader, card)

    def lead_mask(self, s, leader: int) -> int:
        if type(s) is not BalootPlay:
            return super().lead_mask(s, leader)
        out = 0
        for a in self.moves(s):
            out |= 1 << a.card
        return out

    def order(self, s, card: int) -> int | None:
        return self._order[card]

    def card_points(self, s, card: int) -> int:
        return self._points[card]

    def winning(self, s, card: int | None = None) -> int | None:
        cards = self.trick_cards(s)
        if card is not None:
            return trick_winner((*cards, card), self.trump)
        return s.trick[trick_winner(cards, self.trump)][0]

    def winner(self, cards: tuple[int, ...]) -> int | None:
        return trick_winner(cards, self.trump)


class Partnership(NamedTuple):
    """A four-player Jo-Jotte position as the search sees it (`JojotteSidesView.start`): what the rest of the card
    play depends on, with the field names of the rules' state, so that the view reads either."""

    hands: tuple[int, int, int, int]
    leader: int
    trick: tuple[int, ...]
    jo: tuple[int, int, int, int]


class JojotteSidesView(GameView):
    """Four-player Jo-Jotte in partnerships (JJ4P-PLAY): side 0 (North-South) is maximised.

    The value is North-South's trick score minus East-West's (card points with the last trick, JJ-PTS-2, and the
    Jo-Jotte's 20, JJ-PTS-3); in a Nullo (where trick points decide nothing) the tricks of the Nullo side,
    counted against North-South when it is theirs.

    The search walks `Partnership` positions, not the rules' 26-field state (issue 17: 2.6× the positions a
    second): the moves are the rules' own ``card_plays`` of the state the position stands for, kept by what
    decides them; a card's transition and what it adds are the rules' card and trick functions
    (``trick_winner``, ``trick_points``, JJ-PLAY-8, JJ-PTS-1/2) and the word's mark (JJ-JOJOTTE). The tests hold
    `step` to the rules' ``play_card`` and the view's `score` on random play of every contract."""

    memos = ("_plays", "_rest", "_tricks", "_shifts")

    def __init__(self, rules, state):
        super().__init__(rules)
        from ..rules.jojotte_cards import JOJOTTE, LAST_TRICK, PLAIN_STRENGTH, TRUMP_STRENGTH, card_points

        self.trump = state.trump
        self.nullo = state.denomination == "nullo"
        self.nb_side = state.nullo_bidder % 2 if self.nullo else -1
        self.jojotte = JOJOTTE
        self.last = 0 if self.nullo else LAST_TRICK
        self._points = [0 if self.nullo else card_points(c, state.trump) for c in range(64)]
        special = set()
        if state.denomination == "suit":  # the king and queen of trumps carry the Jo-Jotte (JJ-JOJOTTE-8)
            special = {state.trump * 16 + 13, state.trump * 16 + 12}
        self._order = [None if c in special or not 7 <= (c & 15) <= 14 else
                       (TRUMP_STRENGTH if c >> 4 == state.trump else PLAIN_STRENGTH)[c & 15] for c in range(64)]
        self._rest: dict[int, int] = {}  # the card points still out (and the last trick's), by the cards still out
        pack = [c for c in range(64) if 7 <= (c & 15) <= 14]
        self.rank_cards(pack, lambda c: (TRUMP_STRENGTH if c >> 4 == state.trump else PLAIN_STRENGTH)[c & 15],
                        sum(1 << c for c in special))
        if not self.nullo:  # a Nullo's value is tricks, not points: no sure points
            from ..rules.jojotte_cards import trick_winner

            self.beat_table(pack, lambda cards: trick_winner(cards, state.trump))
            self.last_points = LAST_TRICK
            if state.denomination == "suit":
                self.trump_table([c for c in pack if c >> 4 == state.trump], lambda c: TRUMP_STRENGTH[c & 15])
        from ..rules.jojotte_cards import trick_points
        from ..rules.jojotte_cards import trick_winner as _tw

        self._trick_winner = _tw
        self._trick_points = trick_points
        self.root = state  # the state the positions stand for, all but their four fields
        self._plays: dict = {}  # the rules' card plays by what decides them (`moves`)
        self._tricks: dict = {}  # a full trick (and whether it is the last): its winner's offset and points

    free_leads = True  # JJ-PLAY-2: the leader may lead any card

    def start(self, s) -> Partnership:
        return Partnership(s.hands, s.leader, s.trick, s.jo)

    def to_move(self, p) -> int:
        return (p.leader + len(p.trick)) % 4  # play goes round the table (JJ4P-PLAY)

    def is_end(self, p) -> bool:
        return not p.trick and not any(p.hands)

    def moves_key(self, p):
        seat = (p.leader + len(p.trick)) % 4
        return seat, p.leader, p.hands[seat], p.trick, p.jo[seat]  # what the rules' own memo of them reads

    def moves(self, p) -> list[Action]:
        key = self.moves_key(p)
        got = self._plays.get(key)
        if got is None:
            s = self.root._replace(hands=p.hands, leader=p.leader, trick=p.trick, jo=p.jo)
            got = self._plays[key] = self.rules.card_plays(s)
        return list(got)

    def step(self, p, a: Action):
        seat = (p.leader + len(p.trick)) % 4
        hands = list(p.hands)
        hands[seat] ^= 1 << a.card
        jo, gain = p.jo, 0
        if a.announce:  # the mark the word leaves, as the rules' card play leaves it: 1 jo, 2 jotte (JJ-JOJOTTE)
            w = 1 if a.announce.lower() == "jo" else 2
            jo = (*jo[:seat], w, *jo[seat + 1:])
            if w == 2 and not self.nullo:
                gain = self.jojotte if seat % 2 == 0 else -self.jojotte  # JJ-PTS-3
        trick = (*p.trick, a.card)
        if len(trick) < 4:
            return Partnership(tuple(hands), p.leader, trick, jo), gain
        last = not any(hands)
        got = self._tricks.get((trick, last))
        if got is None:
            got = self._tricks[(trick, last)] = (self._trick_winner(trick, self.trump),
                                                 self._trick_points(trick, self.trump, last, self.nullo))
        win = (p.leader + got[0]) % 4
        if self.nullo:  # the Nullo side's tricks, against North-South when it is theirs
            if win % 2 == self.nb_side:
                gain += -1 if self.nb_side == 0 else 1
        else:
            gain += got[1] if win % 2 == 0 else -got[1]
        return Partnership(tuple(hands), win, (), jo), gain

    def side_of(self, seat: int) -> int:
        return seat % 2

    def score(self, s) -> int:
        if self.nullo:
            n = sum(w for seat, w in enumerate(s.won) if seat % 2 == self.nb_side)
            return -n if self.nb_side == 0 else n
        cp = s.card_pts
        v = cp[0] - cp[1] + cp[2] - cp[3]
        if 2 in s.jo:
            for seat, jo in enumerate(s.jo):
                if jo == 2:
                    v += self.jojotte if seat % 2 == 0 else -self.jojotte
        return v

    def facts(self, s) -> tuple[int, int, bool, int] | None:
        if type(s) is not Partnership:
            return super().facts(s)
        return self.mask_facts(s, (s.leader + len(s.trick)) % 2 == 0)

    def bounds(self, s) -> tuple[int, int]:
        return self._bounds(s, self.live(s))

    def _bounds(self, s, live: int) -> tuple[int, int]:
        """`bounds`, ``live`` the cards still out (`live`)."""
        if self.nullo:
            left = sum(h.bit_count() for h in s.hands) // 4 + (1 if s.trick else 0)
            return -left, left
        rest = self._rest.get(live)
        if rest is None:
            rest = self._rest[live] = self.points_of(live) + self.last
        if 2 not in s.jo:
            rest += self.jojotte
        if s.trick:  # in the middle of a trick the top trumps cut no more than the points left (measured)
            return -rest, rest
        side, top = self.top_trumps(s)
        ns, ew = (top, 0) if side == 0 else (0, top)
        sure = self.sure_points(s, s.leader)
        if s.leader % 2 == 0:
            ns = max(ns, sure)
        else:
            ew = max(ew, sure)
        # each side takes its sure points at least, so the other the rest less them at most
        return 2 * ns - rest, rest - 2 * ew

    def key(self, s) -> tuple:
        if not s.trick:
            return self.relative_hands(s.hands), s.leader, s.jo
        return s.hands, s.leader, s.trick, s.jo

    taken = (1, -1)  # North-South's points less East-West's

    def shape(self, s, key: tuple):
        if self.nullo or s.trick or type(s) is not Partnership:
            return None
        shape, pts = self.relative_shape(key[0])
        return (shape, s.leader, s.jo), pts

    def tricks_done(self, s) -> int:
        return s.tricks_done

    def trick_cards(self, s) -> tuple[int, ...]:
        return s.trick

    def live(self, s) -> int:
        h = s.hands
        live = h[0] | h[1] | h[2] | h[3]
        for c in s.trick:
            live |= 1 << c
        return live

    def order(self, s, card: int) -> int | None:
        return self._order[card]

    def card_points(self, s, card: int) -> int:
        return self._points[card]

    def winning(self, s, card: int | None = None) -> int | None:
        trick_winner = self._trick_winner
        if card is not None:
            return trick_winner((*s.trick, card), self.trump)
        return (s.leader + trick_winner(s.trick, self.trump)) % 4  # play goes round the table (JJ4P-PLAY)

    def winner(self, cards: tuple[int, ...]) -> int | None:
        return self._trick_winner(cards, self.trump)


class JojotteOutcomeView(JojotteSidesView):
    """Four-player Jo-Jotte in partnerships: who wins the hand (``score_hand``: the contract, melds and trick score,
    JJ4P-SCORE), 1 when North-South can force it, 0 equal totals, -1 when East-West can. The score so far counts
    for nothing until the end (`final`), so the key holds what is taken so far; the search walks the rules' own
    states (``score_hand`` reads them whole). The analysis searches it only where the outcome is not a monotone
    function of the trick-score difference (`jojotte.outcome_by_difference`: a Nullo, a bid Slam)."""

    start, to_move, is_end, step, moves_key = GameView.start, GameView.to_move, GameView.is_end, GameView.step, \
        GameView.moves_key
    shape = GameView.shape  # an outcome is not a sum of card points: no bounds lent

    def moves(self, s) -> list[Action]:
        return list(self.rules.card_plays(s))

    def score(self, s) -> int:
        return 0

    def bounds(self, s) -> tuple[int, int]:
        return -1, 1

    def final(self, s) -> int:
        w = self.rules.score_hand(s).winner
        return 0 if w < 0 else (1 if w % 2 == 0 else -1)

    def key(self, s) -> tuple:
        return s.hands, s.leader, s.trick, s.jo, s.card_pts, s.won


class PitchView(GameView):
    """Pitch after the refill and burn (PIT-PLAY, PIT-PTS): the points credited to the bidding side (high, low,
    jack, off-jack, jokers, game, as the rules credit them card by card). No cards are merged: a trump's points
    and who is credited with it (PIT-PTS-3) differ card by card."""

    def __init__(self, rules, state):
        super().__init__(rules)
        self.side = frozenset(rules.bidding_seats(state))
        self._points = [rules.card_points(state, c) for c in range(80)]

    def side_of(self, seat: int) -> int:
        return 0 if seat in self.side else 1

    def score(self, s) -> int:
        return sum(s.taken[i] for i in self.side)

    def bounds(self, s) -> tuple[int, int]:
        pts = self._points
        rest = sum(pts[c] for _, c in s.trick)
        for h in s.hands:
            while h:
                low = h & -h
                rest += pts[low.bit_length() - 1]
                h ^= low
        return 0, rest

    def key(self, s) -> tuple:
        return s.hands, s.trick, s.leader

    def trick_cards(self, s) -> tuple[int, ...]:
        return tuple(c for _, c in s.trick)

    def card_points(self, s, card: int) -> int:
        return self._points[card]


class PitchFiveView(PitchView):
    """Five-handed Pitch (PIT-FIVE): the sides are not fixed by the seats. They are the bidder and the holder of the
    card he called (PIT-FIVE-4), against the other three, or the bidder alone against four when the called card lay
    in the blind (PIT-FIVE-5), as the rules record them at the call (``bidding_seats``): the record's deal says who
    holds the card, so from the first lead on the sides are known to the solver even while they are secret at the
    table. The value is the bidding side's points, the sum of its members' (each player is credited his own,
    PIT-FIVE-1; PIT-FIVE-7 scores the side's points to each member).

    Raises:
        ValueError: the bidder has not called his partner's card yet (no sides to play for).
    """

    def __init__(self, rules, state):
        if state.called < 0 or state.phase != "play":
            raise ValueError("PIT-FIVE-4: the sides are known only once the bidder has called his partner's card")
        super().__init__(rules, state)

    def label(self) -> str:
        """The bidding side's seats, "A+C" (or the bidder alone, "A")."""
        return "+".join(self.rules.seat_labels[x] for x in sorted(self.side))


def view_for(rules, state, script: dict | None = None) -> GameView:
    """The solver's view of a game at a play position."""
    name = rules.name
    if name == "baloot":
        return BalootView(rules, state, script)
    if name == "pitch":
        return PitchFiveView(rules, state) if rules.five else PitchView(rules, state)
    if rules.trick_size == 4 and type(rules).seats == 4:
        return JojotteSidesView(rules, state)
    raise ValueError(f"{name}: no four-hand solver view (two-player forms are solved by analyze.Solver)")


def script_of(actions, is_card: Callable[[Action], bool] | None = None) -> dict:
    """The actions of a replayed hand that are not cards, by (trick index, seat), to be taken as played."""
    is_card = is_card or (lambda a: a.kind == "play")
    out: dict = {}
    cards = 0
    per_trick = 4
    for a in actions:
        if is_card(a):
            cards += 1
            continue
        out.setdefault((cards // per_trick, a.seat), []).append(a)
    return {k: tuple(v) for k, v in out.items()}


# --- what-if and restore at a play position (every game the solver sees) ------------------------------------

class Substitution(NamedTuple):
    """A card put at a play position, then best play by both sides to the end."""

    seat: int  # the player to move there
    action: Action  # the card played (with its word)
    options: tuple[tuple[Action, int], ...]  # every legal card there and its value (the maximising side's, whole hand)
    best: tuple[Action, ...]  # the legal cards of the best value for the mover's side
    value: int  # the maximising side's whole-hand value after the card, with best play
    line: tuple[Action, ...]  # the card, then the principal line to the end
    end: object  # the finished state


def substitute(view: GameView, s, card: int | None = None, announce: str = "") -> Substitution:
    """Play ``card`` (with ``announce``; None: the first best legal card) at play position ``s``, then best play.

    Raises:
        ValueError: the card is not legal there (the rule's text is in the message).
    """
    rules = view.rules
    solver = Solver(view)
    seat = rules.current_player(s)
    guess = solver.value(s)
    opts = tuple(solver.options(s, guess))
    if not opts:
        raise ValueError("no card can be played there")
    maximise = view.side_of(seat) == 0
    top = max(v for _, v in opts) if maximise else min(v for _, v in opts)
    best = tuple(a for a, v in opts if v == top)
    if card is None:
        chosen = best[0]
    else:
        same = [a for a, _ in opts if a.card == card and a.announce == announce]
        if not same and not announce:  # no word given: the best of the words the rules offer with the card
            words = [(a, v) for a, v in opts if a.card == card]
            same = [max(words, key=lambda x: x[1] if maximise else -x[1])[0]] if words else []
        if not same:
            v = rules.check(s, Action(seat, "play", card=card, announce=announce))
            raise ValueError(f"{v.text} ({v.rule})" if v is not None else "the card is not a legal play there")
        chosen = same[0]
    after = view.settle(rules.advance(s, chosen))
    end, line = solver.finish(after)
    value = solver.value(after, guess)
    return Substitution(seat, chosen, opts, best, value, (chosen, *line), end)
