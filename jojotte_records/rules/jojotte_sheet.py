"""The Jo-Jotte score sheet: held-aside points, games, rubbers and the session (JJ-PRIS, JJ-GAME, JJ-RUBBER, JJ-SESSION).

`ScoreSheet.add` is pure: it takes the sheet before a hand and the hand's
`HandScore`, and returns the sheet after it with the credits the hand caused
on the sheet itself (held-aside points awarded, the rubber bonus).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

# `HandScore` and `JojotteOptions` (in annotations only) are rules.jojotte's, which imports this module


class Credit(NamedTuple):
    """One line written on the score sheet for a hand: who, where, how much and why."""

    seat: int
    line: str  # "below" or "above"
    amount: int
    rule: str
    why: str

    @property
    def column(self) -> int:
        """The sheet's column credited (the common shape of every game's credits): the seat, or the side."""
        return self.seat


class SheetEntry(NamedTuple):
    """What one hand wrote on the sheet, with the sheet's own credits added."""

    credits: tuple[Credit, ...]  # the hand's credits + held-aside award + rubber bonus
    held_aside: int
    pool_after: int
    game_won_by: int  # -1
    rubber_won_by: int  # -1
    columns: int = 0  # the sheet's columns

    @property
    def delta(self) -> tuple[int, ...]:
        """What the hand added to each column, below and above the line together."""
        return tuple(self.below(c) + self.above(c) for c in range(self.columns))

    def below(self, seat: int) -> int:
        return sum(c.amount for c in self.credits if c.seat == seat and c.line == "below")

    def above(self, seat: int) -> int:
        return sum(c.amount for c in self.credits if c.seat == seat and c.line == "above")


class RubberResults(Sequence):
    """The finished rubbers of a sheet, (winner, points) each, oldest first: an immutable sequence that shares the
    rubbers before it (``then`` adds one in constant time), so a session of n rubbers is written in O(n), not the
    O(n²) of a tuple copied at every rubber. It is a `Sequence` (len and ``[-1]`` in constant time, ``[i]`` in
    the distance from the end, iteration, slices as tuples) and equals the tuple of the same rubbers."""

    __slots__ = ("_before", "_last", "_len")

    def __init__(self, before: "RubberResults | None" = None, last: tuple | None = None):
        self._before = before
        self._last = last
        self._len = 0 if before is None else before._len + 1

    @classmethod
    def of(cls, items) -> "RubberResults":
        """``items`` (any iterable of rubbers) as a `RubberResults` (itself when it is one)."""
        if isinstance(items, RubberResults):
            return items
        out = EMPTY_RUBBERS
        for item in items:
            out = RubberResults(out, item)
        return out

    def then(self, item: tuple) -> "RubberResults":
        """These rubbers and ``item`` after them."""
        return RubberResults(self, item)

    def __len__(self) -> int:
        return self._len

    def _nodes(self, count: int) -> list:
        """The last ``count`` rubbers, newest first."""
        out, node = [], self
        for _ in range(count):
            out.append(node._last)
            node = node._before
        return out

    def __iter__(self):
        out = self._nodes(self._len)
        out.reverse()
        return iter(out)

    def __reversed__(self):
        return iter(self._nodes(self._len))

    def __getitem__(self, index):
        if isinstance(index, slice):
            return tuple(self)[index]
        n = self._len
        i = index.__index__()
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("rubber index out of range")
        node = self
        for _ in range(n - 1 - i):
            node = node._before
        return node._last

    def after(self, count: int) -> tuple:
        """The rubbers after the first ``count`` (``self[count:]``), in the time of their number."""
        items = self._nodes(max(self._len - count, 0))
        items.reverse()
        return tuple(items)

    def extended(self, items) -> "RubberResults":
        out = self
        for item in items:
            out = RubberResults(out, item)
        return out

    def __eq__(self, other) -> bool:
        if self is other:
            return True
        if isinstance(other, RubberResults):
            if self._len != other._len:
                return False
            a, b = self, other
            while a is not b:  # two sheets of one session share their earlier rubbers
                if a._last != b._last:
                    return False
                a, b = a._before, b._before
            return True
        if isinstance(other, tuple):
            return len(other) == self._len and tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))

    def __reduce__(self):  # flat (a --jobs chunk's sheet is pickled): not one nested object per rubber
        return RubberResults.of, (tuple(self),)


EMPTY_RUBBERS = RubberResults()


class ScoreSheet(NamedTuple):
    """A session's sheet: per seat (or side) points below and above the line, games and rubbers."""

    below_game: tuple[int, ...]  # below the line in the current game
    below: tuple[int, ...]  # below the line, whole session
    above: tuple[int, ...]  # above the line, whole session
    games: tuple[int, ...]  # games won in the current rubber
    games_total: tuple[int, ...]
    rubbers: tuple[int, ...]
    rubber_points: tuple[int, ...]  # above + below in the current rubber (JJ-RUBBER-2)
    pool: int
    rubber_results: RubberResults  # (winner, points) per finished rubber (a tuple of them is taken too)
    hands: int = 0
    options: "JojotteOptions | None" = None  # the session's options (who wins it, JJ-SESSION-1); None: the defaults

    @classmethod
    def empty(cls, seats: int, options: "JojotteOptions | None" = None) -> "ScoreSheet":
        z = (0,) * seats
        return cls(z, z, z, z, z, z, z, 0, EMPTY_RUBBERS, 0, options)

    # --- the shape every game's sheet has ---------------------------------------------
    @property
    def scores(self) -> tuple[int, ...]:
        """Each column's points, below and above the line."""
        return self.total

    @property
    def over(self) -> bool:
        """A Jo-Jotte session ends when the players stop (JJ-SESSION-1): the sheet itself never closes."""
        return False

    @property
    def winners(self) -> tuple[int, ...]:
        """The column that wins the session so far (JJ-SESSION-1), () for a tie."""
        w = self.session_winner(self.options)
        return (w,) if w >= 0 else ()

    @property
    def total(self) -> tuple[int, ...]:
        return tuple(b + a for b, a in zip(self.below, self.above))

    @property
    def rubber_in_progress(self) -> bool:
        return any(self.games) or any(self.rubber_points)

    def carry(self, length: int | None = None) -> tuple | None:
        """What of the sheet the hands after it depend on (`Rules.sheet_carry`): the game and the rubber in progress
        (JJ-GAME-1…3, JJ-RUBBER-1, and the recut of the deal, OP-30) and the points held aside (JJ-PRIS-3). `add`
        reads nothing else: the session's totals, games and rubbers won and finished rubbers only add up. None for
        a session agreed at ``length`` rubbers, whose hands depend on the rubbers played (JJ-SESSION-1)."""
        if length is not None:
            return None
        return (self.below_game, self.games, self.rubber_points, self.pool, self.options)

    def rebase(self, start: "ScoreSheet", base: "ScoreSheet") -> "ScoreSheet":
        """This sheet, reached from ``start`` by some hands, as reached from ``base`` by the same hands (``base``
        and ``start`` have the same `carry`): the running totals moved by ``base`` minus ``start``."""
        def moved(now, was, to):
            return tuple(n - w + t for n, w, t in zip(now, was, to))

        return self._replace(below=moved(self.below, start.below, base.below),
                             above=moved(self.above, start.above, base.above),
                             games_total=moved(self.games_total, start.games_total, base.games_total),
                             rubbers=moved(self.rubbers, start.rubbers, base.rubbers),
                             rubber_results=self._moved_rubbers(start, base),
                             hands=self.hands - start.hands + base.hands)

    def _moved_rubbers(self, start: "ScoreSheet", base: "ScoreSheet") -> RubberResults:
        """``base``'s rubbers, then this sheet's after ``start``'s: in the time of the latter alone (this sheet's
        own when ``base`` and ``start`` have the same ones)."""
        mine = RubberResults.of(self.rubber_results)
        if base.rubber_results is start.rubber_results or not (base.rubber_results or start.rubber_results):
            return mine
        return RubberResults.of(base.rubber_results).extended(mine.after(len(start.rubber_results)))

    def add(self, hand: HandScore, options: JojotteOptions | None = None,
            mirror: dict[int, tuple[int, ...]] | None = None) -> tuple["ScoreSheet", SheetEntry]:
        """Write one hand on the sheet (JJ-PRIS-3, JJ-GAME-1…3, JJ-RUBBER-1); ``options``: the sheet's own (the
        sheet of `JojotteRules.new_sheet` carries them).

        ``mirror`` maps a seat to the other seats credited the same above-the-line
        amounts (three- and four-player forms).
        """
        options = options or self.options
        n = len(self.below)
        credits = list(hand.credits)
        pool = self.pool
        # JJ-PRIS-3/4: the pool as it stood before goes to the hand's winner; a void or tied hand waits. A hand
        # scored from the figures written at the table has the award inside them: the pool is emptied, not paid.
        has_winner = hand.winner >= 0 and not (hand.nullo and options.prisoners_skip_nullo)
        if has_winner and pool:
            if not hand.written:
                credits.append(Credit(hand.winner, "below" if options.prisoners_below_line else "above", pool,
                                      "JJ-PRIS-3", "the points held aside in earlier hands"))
            pool = 0
        pool += hand.held_aside  # JJ-PRIS-2, JJ-INV-7
        if mirror is None and hand.mirror:
            mirror = dict(hand.mirror)  # the hand says who mirrors whom (JJ3-SCORE-6/7)
        if mirror:
            for c in list(credits):
                if c.line == "above" and c.rule == "JJ-PRIS-3":
                    for other in mirror.get(c.seat, ()):
                        credits.append(c._replace(seat=other, why=c.why + " (mirrored)"))
        below_game = list(self.below_game)
        below = list(self.below)
        above = list(self.above)
        rubber_points = list(self.rubber_points)
        for c in credits:
            if c.line == "below":
                below_game[c.seat] += c.amount
                below[c.seat] += c.amount
            else:
                above[c.seat] += c.amount
            rubber_points[c.seat] += c.amount
        games, games_total, rubbers = self.games, self.games_total, self.rubbers  # changed only when a game is won
        results = self.rubber_results
        game_won = rubber_won = -1
        target = options.game_target
        for seat in range(n):
            if below_game[seat] >= target:  # JJ-GAME-1 (one seat at most, JJ-GAME-2)
                game_won = seat
                games, games_total = list(games), list(games_total)
                games[seat] += 1
                games_total[seat] += 1
                if options.carry_partscore:
                    below_game[seat] = 0
                else:
                    below_game = [0] * n  # JJ-GAME-3
                break
        if game_won >= 0 and games[game_won] == 2:  # JJ-RUBBER-1
            rubber_won = game_won
            bonus = Credit(game_won, "above", options.rubber_bonus, "JJ-RUBBER-1", "the rubber bonus")
            credits.append(bonus)
            above[game_won] += bonus.amount
            rubber_points[game_won] += bonus.amount
            rubbers = list(rubbers)
            rubbers[game_won] += 1
            results = RubberResults.of(results).then((game_won, tuple(rubber_points)))
            games = [0] * n
            below_game = [0] * n
            rubber_points = [0] * n
        sheet = ScoreSheet(tuple(below_game), tuple(below), tuple(above), tuple(games), tuple(games_total),
                           tuple(rubbers), tuple(rubber_points), pool, results, self.hands + 1, self.options)
        return sheet, SheetEntry(tuple(credits), hand.held_aside, pool, game_won, rubber_won, n)

    def session_winner(self, options: JojotteOptions | None = None) -> int:
        """JJ-SESSION-1: most rubbers (or most points with ``session_by_points``); -1 for a tie."""
        options = options or self.options
        key = self.total if options.session_by_points else self.rubbers
        best = max(key)
        leaders = [i for i, v in enumerate(key) if v == best]
        if len(leaders) == 1:
            return leaders[0]
        if not options.session_by_points:
            tot = self.total
            best_t = max(tot[i] for i in leaders)
            leaders = [i for i in leaders if tot[i] == best_t]
            if len(leaders) == 1:
                return leaders[0]
        return -1
