"""Double-dummy analysis of two-player Jo-Jotte: exact values of play positions and the cost of every card.

Once the first card is led every card of a two-player hand is known, so the rest
of the hand is a game of perfect information. `Solver` finds its exact value
under best play by both players with an alpha-beta search over bitmask card
sets, a transposition table and move ordering; the cards a player holds that
are equivalent (adjacent in the rank order among the cards still in play, with
the same card points) are searched once.

Three values are searched, each a zero-sum game:

* **points**: the trick points still to come (card points, last trick 10,
  Jo-Jotte 20) of each player, both playing to maximise their own points minus
  the opponent's; `Value.points` is the split along the principal line;
* **tricks**: the most tricks each player can force; in a Nullo also the fewest
  tricks the Nullo bidder can hold himself to (both playing to lose tricks);
* **outcome**: who wins the hand (``score_hand`` on every finished line: melds,
  totals, Nullo, bid Slam), each player playing first to win it.

Every legal play comes from ``legal_play_mask`` (the function behind
``JojotteRules.legal_actions``), every announcement ("Jo", "Jotte") from
``JojotteRules.legal_actions``, trick winners from ``trick_winner`` and points
from ``POINTS``, ``LAST_TRICK`` and ``JOJOTTE``; the search mirrors the trick
accounting of ``JojotteRules._next_play`` on a compact position, and the tests
hold it to a brute force over ``legal_actions``/``apply``.

`analyze_hand` gives each card of a recorded hand its cost and marks: the cost is
measured in the trick-score difference in suit and NT contracts, and in the
Nullo's score (``score_hand`` of the tricks the Nullo bidder is forced to take)
in a Nullo, where trick points decide nothing. `annotate_hand` writes them into
the record as ``{[%dd eval=… cost=… best=… mark=…]}`` comments, which the
notation reads and writes back unchanged.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import SUIT_MASKS, KING, QUEEN, card_name, iter_cards, make_card, parse_card
from .errors import JojotteError
from .record import HandRecord
from .rules.base import Action
from .rules.jojotte import DONE, PLAY, HandScore, JJState, JojotteRules
from .rules.jojotte_cards import JOJOTTE, LAST_TRICK, POINTS, STRENGTH, legal_play_mask, trick_winner

INF = 10_000
DD_TAG = "[%dd"  # the comment command the analyzer writes and replaces
MISTAKE_POINTS = 20  # JJ issue 8: a mistake costs 20 points or more

# a position of the search: (hand of A, hand of B, leader, card led to the current trick or -1, 4 × jo A + jo B)
Pos = tuple


class AnalysisError(JojotteError):
    """A position or a hand that cannot be analysed (unknown cards, not two-player Jo-Jotte, not in play)."""


class Outcome(NamedTuple):
    """The forced outcome of the hand."""

    winner: int  # seat that wins the hand (score_hand), -1 for equal totals (points held aside)
    slam_made: bool | None  # bid Slam: whether the declarer can force every trick; None without a Slam
    nullo_made: bool | None  # Nullo: whether the Nullo bidder can avoid every trick; None without a Nullo

    def rank_for(self, seat: int, declarer: int) -> tuple[int, int]:
        """How good the outcome is for ``seat`` (higher is better): the hand's winner, then the Slam."""
        win = 0 if self.winner < 0 else (1 if self.winner == seat else -1)
        slam = 0 if self.slam_made is None else (1 if self.slam_made == (seat == declarer) else -1)
        return win, slam

    def text(self, labels: tuple[str, ...] = ("A", "B")) -> str:
        parts = ["equal totals" if self.winner < 0 else f"{labels[self.winner]} wins the hand"]
        if self.slam_made is not None:
            parts.append("Slam made" if self.slam_made else "Slam failed")
        if self.nullo_made is not None:
            parts.append("Nullo made" if self.nullo_made else "Nullo failed")
        return ", ".join(parts)


class Value(NamedTuple):
    """The exact value of a position under best play by both players."""

    diff: int  # trick points still to come: A's minus B's, both playing for the difference
    points: tuple[int, int]  # the trick points still to come of A and B along the principal line
    tricks: tuple[int, int]  # the most tricks each player can force from here
    outcome: Outcome
    line: tuple[Action, ...]  # the principal line (best play for the points) to the end of the hand
    score: HandScore  # score_hand of the hand finished along the principal line


# --- the solver -------------------------------------------------------------------

# words said with a card, as move codes: card | word << 6; the code is also the mark JJState.jo takes
WORDS = ("", "jo", "jotte")
WORD_CODE = {"": 0, "jo": 1, "jotte": 2}
_TABLES: dict = {}  # per (pack, trump): the tables a Solver builds from the core's functions


class Solver:
    """Exact double-dummy values of the play positions of one two-player hand.

    Build it from any state of the hand in phase ``play`` (the contract, melds and
    multiplier are read from it); the transposition tables are kept between calls,
    so analysing every card of one hand reuses the work of the earlier positions.

    A position is ``(hand of A, hand of B, leader, card led to the trick or -1, jo)``
    with ``jo = 4 × jo[A] + jo[B]`` (the marks of `JJState.jo`); a move is the pair
    ``(card, word)``.

    Raises:
        AnalysisError: not two-player Jo-Jotte, or the state is not a play position with known hands.
    """

    def __init__(self, rules: JojotteRules, state: JJState, max_entries: int = 2_000_000):
        if type(rules).seats != 2 or not isinstance(rules, JojotteRules) or rules.trick_size != 2:
            raise AnalysisError(f"the analyzer solves two-player Jo-Jotte only, not {rules.name}")
        check_position(state)
        self.rules = rules
        self.root = state
        self.trump = state.trump
        self.pts = POINTS[state.trump + 1]
        self.nullo = state.denomination == "nullo"
        self.last_trick = not self.nullo  # JJ-PTS-2: no last-trick 10 in Nullo
        self.overtrump = rules.options.overtrump_on_ruff
        self.max_entries = max_entries
        # the only cards that can carry an announcement (JJ-JOJOTTE-8); the core decides when it is offered
        if state.denomination == "suit" and state.nullo_bidder < 0:
            self.jo_cards = 1 << make_card(state.trump, KING) | 1 << make_card(state.trump, QUEEN)
        else:
            self.jo_cards = 0
        key = (rules.pack.name, state.trump)
        if key not in _TABLES:
            _TABLES[key] = _tables(rules.pack.cards, state.trump)
        self.strength, self.up, self.second_wins, self.lead_key, self.follow_key = _TABLES[key]
        self.suit_masks = tuple(SUIT_MASKS[:4])
        self.tt_points: dict = {}
        self.tt_tricks: dict = {}
        self.tt_misere: dict = {}
        self.tt_outcome: dict = {}
        self._moves_cache: dict = {}
        self._redundant: dict = {}
        self._legal: dict = {}
        self._sorted: dict = {}
        self._announce_cache: dict = {}
        self._leaf_cache: dict = {}
        self.nodes = 0

    # --- positions and moves ------------------------------------------------------
    @staticmethod
    def position(state: JJState) -> Pos:
        return (state.hands[0], state.hands[1], state.leader, state.trick[0] if state.trick else -1,
                4 * state.jo[0] + state.jo[1])

    @staticmethod
    def to_move(pos: Pos) -> int:
        return pos[2] if pos[3] < 0 else 1 - pos[2]

    def _announcements(self, seat: int, card: int, pos: Pos) -> tuple[int, ...]:
        """The words (codes) the core offers with this card here, announcing first."""
        h0, h1, leader, tc, jo = pos
        hand = h0 if seat == 0 else h1
        key = (seat, card, hand, tc, jo)
        words = self._announce_cache.get(key)
        if words is None:
            s = self.root._replace(phase=PLAY, hands=(h0, h1), leader=leader, trick=(tc,) if tc >= 0 else (),
                                   jo=(jo >> 2, jo & 3))
            found = {WORD_CODE[a.announce.lower()] for a in self.rules.legal_actions(s) if a.kind == "play" and a.card == card}
            words = tuple(sorted(found, reverse=True))
            self._announce_cache[key] = words
        return words

    def moves(self, pos: Pos, reduce: bool = True) -> list[tuple[int, str]]:
        """The moves (card, word) to search, best first by a cheap guess.

        With ``reduce`` a run of equivalent cards in one hand counts as its strongest card.
        """
        return [(m & 63, WORDS[m >> 6]) for m in self._gen(pos, reduce)]

    def _gen(self, pos: Pos, reduce: bool = True) -> list[int]:
        if reduce:
            got = self._moves_cache.get(pos)
            if got is not None:
                return got
        h0, h1, leader, tc, jo = pos
        seat = leader if tc < 0 else 1 - leader
        hand = h0 if seat == 0 else h1
        lkey = (hand, tc)
        mask = self._legal.get(lkey)
        if mask is None:
            mask = self._legal[lkey] = legal_play_mask(hand, (tc,) if tc >= 0 else (), self.trump, self.overtrump).mask
        if reduce:
            live = h0 | h1 | ((1 << tc) if tc >= 0 else 0)
            cache = self._redundant
            for sm in self.suit_masks:
                ms = mask & sm
                if ms & (ms - 1):  # two cards or more of the suit
                    key = (hand & sm, live & sm)
                    r = cache.get(key)
                    if r is None:
                        r = cache[key] = self._redundant_cards(hand & sm, live & sm)
                    mask &= ~r
        jo_here = mask & self.jo_cards
        skey = (mask, tc)
        cards = self._sorted.get(skey)
        if cards is None:
            cards = []
            while mask:
                low = mask & -mask
                mask ^= low
                cards.append(low.bit_length() - 1)
            cards.sort(key=self.lead_key.__getitem__ if tc < 0 else self.follow_key[tc].__getitem__)
            self._sorted[skey] = cards
        if jo_here:
            out: list[int] = []
            for c in cards:
                if jo_here >> c & 1:
                    out.extend(c | w << 6 for w in self._announcements(seat, c, pos))
                else:
                    out.append(c)
        else:
            out = cards[:]  # a list of its own: _ab reorders it
        if reduce:
            if len(self._moves_cache) > self.max_entries:
                self._moves_cache.clear()
                self._legal.clear()
                self._sorted.clear()
            self._moves_cache[pos] = out
        return out

    def _redundant_cards(self, hand: int, live: int) -> int:
        """Cards of ``hand`` (one suit) equivalent to the next stronger live card of the suit, also in ``hand``."""
        out = 0
        up, pts, jo_cards = self.up, self.pts, self.jo_cards
        for c in iter_cards(hand & ~jo_cards):
            for u in up[c]:
                if live >> u & 1:
                    if hand >> u & 1 and pts[u] == pts[c] and not jo_cards >> u & 1:
                        out |= 1 << c
                    break
        return out

    def _representative(self, pos: Pos, card: int) -> int:
        """The strongest card of the run of equivalent cards ``card`` belongs to (itself if none)."""
        h0, h1, leader, tc, _ = pos
        hand = h0 if Solver.to_move(pos) == 0 else h1
        live = h0 | h1 | ((1 << tc) if tc >= 0 else 0)
        if self.jo_cards >> card & 1:
            return card
        while True:
            for u in self.up[card]:
                if live >> u & 1:
                    break
            else:
                return card
            if hand >> u & 1 and self.pts[u] == self.pts[card] and not self.jo_cards >> u & 1:
                card = u
            else:
                return card

    def child(self, pos: Pos, move: tuple[int, str], count_tricks: int = 0) -> tuple[Pos, int, bool]:
        """The position after a move, what it gains for the player who made it, and whether he moves next."""
        return self._child(pos, move[0] | WORD_CODE[move[1].lower()] << 6, count_tricks)

    def _child(self, pos: Pos, m: int, count_tricks: int) -> tuple[Pos, int, bool]:
        h0, h1, leader, tc, jo = pos
        card, w = m & 63, m >> 6
        seat = leader if tc < 0 else 1 - leader
        bit = 1 << card
        if seat == 0:
            h0 ^= bit
        else:
            h1 ^= bit
        gain = 0
        if w:
            jo = (w << 2 | jo & 3) if seat == 0 else (jo & 12 | w)
            if w == 2 and not count_tricks:
                gain = JOJOTTE
        if tc < 0:
            return (h0, h1, leader, card, jo), gain, False
        win = 1 - leader if self.second_wins[tc][card] else leader
        if count_tricks:
            got = int(count_tricks)
        else:
            got = self.pts[tc] + self.pts[card]
            if not (h0 | h1) and self.last_trick:
                got += LAST_TRICK
        return (h0, h1, win, -1, jo), gain + got if win == seat else gain - got, win == seat

    # --- points and tricks: negamax with alpha-beta -----------------------------------
    def search(self, pos: Pos, alpha: int = -INF, beta: int = INF, count_tricks: int = 0) -> int:
        """The value of ``pos`` for the player to move: his points to come minus the opponent's.

        ``count_tricks=1``: his tricks to come minus the opponent's; ``-1`` (the Nullo game, both
        playing to lose tricks): the opponent's tricks minus his.

        Exact when it lies strictly inside (alpha, beta); otherwise a bound on the same side.
        """
        tt = self.tt_points if not count_tricks else (self.tt_tricks if count_tricks > 0 else self.tt_misere)
        if len(tt) > self.max_entries:
            tt.clear()
        return self._ab(pos, alpha, beta, tt, count_tricks)

    def _ab(self, pos: Pos, alpha: int, beta: int, tt: dict, count_tricks: int) -> int:
        h0, h1, leader, tc, jo = pos
        if not (h0 | h1):
            return 0
        self.nodes += 1
        e = tt.get(pos)
        first = -1
        if e is not None:
            lo, hi, first = e
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        a0 = alpha
        moves = self._gen(pos)
        if first >= 0 and moves[0] != first:
            moves.remove(first)  # the cached list keeps the best move first from now on
            moves.insert(0, first)
        best, best_move = -INF, -1
        ab = self._ab
        seat = leader if tc < 0 else 1 - leader
        pts, jo_cards = self.pts, self.jo_cards
        last_bonus = LAST_TRICK if self.last_trick and not count_tricks else 0
        if tc >= 0:
            wins = self.second_wins[tc]
            led_pts = pts[tc]
        for m in moves:
            card = m & 63
            bit = 1 << card
            if seat == 0:
                n0, n1 = h0 ^ bit, h1
            else:
                n0, n1 = h0, h1 ^ bit
            gain = 0
            njo = jo
            if m > 63:
                w = m >> 6
                njo = (w << 2 | jo & 3) if seat == 0 else (jo & 12 | w)
                if w == 2 and not count_tricks:
                    gain = JOJOTTE
            if tc < 0:
                reply = n1 if seat == 0 else n0
                if reply & (reply - 1) == 0 and not reply & jo_cards:
                    # the last trick: the reply is the opponent's last card, with nothing to announce
                    other = reply.bit_length() - 1
                    got = int(count_tricks) if count_tricks else pts[card] + pts[other] + last_bonus
                    v = gain - got if self.second_wins[card][other] else gain + got
                else:
                    v = gain - ab((n0, n1, leader, card, njo), gain - beta, gain - alpha, tt, count_tricks)
            else:
                if count_tricks:
                    got = int(count_tricks)
                else:
                    got = led_pts + pts[card]
                    if not (n0 | n1):
                        got += last_bonus
                if wins[card]:  # the second player, who is to move, takes the trick and leads next
                    gain += got
                    v = gain + ab((n0, n1, seat, -1, njo), alpha - gain, beta - gain, tt, count_tricks)
                else:
                    gain -= got
                    v = gain - ab((n0, n1, leader, -1, njo), gain - beta, gain - alpha, tt, count_tricks)
            if v > best:
                best, best_move = v, m
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        if e is not None:
            lo, hi = e[0], e[1]
        else:
            lo, hi = -INF, INF
        if best <= a0:
            hi = min(hi, best)
        elif best >= beta:
            lo = max(lo, best)
        else:
            lo = hi = best
        tt[pos] = (lo, hi, best_move)
        return best

    def move_value(self, pos: Pos, move: tuple[int, str], alpha: int = -INF, beta: int = INF,
                   count_tricks: int = 0) -> int:
        """The value of a move for the player who makes it (same sense and bounds as `search`)."""
        nxt, gain, again = self.child(pos, move, count_tricks)
        if not (nxt[0] | nxt[1]) and nxt[3] < 0:
            return gain
        if again:
            return gain + self.search(nxt, alpha - gain, beta - gain, count_tricks)
        return gain - self.search(nxt, gain - beta, gain - alpha, count_tricks)

    def mtdf(self, pos: Pos, guess: int = 0, count_tricks: int = 0) -> int:
        """The exact value of ``pos`` by a series of null-window searches from ``guess`` (MTD(f))."""
        lo, hi = -INF, INF
        g = guess
        while lo < hi:
            beta = g + 1 if g == lo else g
            g = self.search(pos, beta - 1, beta, count_tricks)
            if g < beta:
                hi = g
            else:
                lo = g
        return g

    # --- the outcome: who wins the hand (score_hand on each finished line) ----------------
    def outcome_search(self, state: JJState, alpha: int = -2, beta: int = 2) -> int:
        """For the player to move: 1 when he can force winning the hand, 0 equal totals, -1 losing."""
        if len(self.tt_outcome) > self.max_entries:
            self.tt_outcome.clear()
        acc = (state.card_pts, state.won)
        return self._oc(self.position(state), acc, alpha, beta)

    def _leaf(self, acc, jo: int, last: int) -> int:
        key = (acc, jo, last)
        w = self._leaf_cache.get(key)
        if w is None:
            s = self.root._replace(phase=DONE, hands=(0, 0), trick=(), card_pts=acc[0], won=acc[1], jo=(jo >> 2, jo & 3),
                                   last_trick=last, tricks_done=self.rules.tricks_per_hand)
            w = self.rules.score_hand(s).winner
            self._leaf_cache[key] = w
        return 0 if w < 0 else (1 if w == 0 else -1)

    def _oc(self, pos: Pos, acc, alpha: int, beta: int) -> int:
        key = (pos, acc)
        tt = self.tt_outcome
        e = tt.get(key)
        first = -1
        if e is not None:
            lo, hi, first = e
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            alpha, beta = max(alpha, lo), min(beta, hi)
        self.nodes += 1
        if first < 0:  # no outcome move yet: try the best move for the points first
            ep = self.tt_points.get(pos)
            if ep is not None:
                first = ep[2]
        a0 = alpha
        tc = pos[3]
        seat = Solver.to_move(pos)
        moves = self._gen(pos)
        if first >= 0 and moves[0] != first:
            moves.remove(first)
            moves.insert(0, first)
        best, best_move = -INF, -1
        for m in moves:
            nxt, _, _ = self._child(pos, m, False)
            if tc < 0:
                v = -self._oc(nxt, acc, -beta, -alpha)
            else:
                win = nxt[2]
                got = self.pts[tc] + self.pts[m & 63]
                last = not (nxt[0] | nxt[1])
                if last and self.last_trick:
                    got += LAST_TRICK
                cp, won = acc
                cp = (cp[0] + got, cp[1]) if win == 0 else (cp[0], cp[1] + got)
                won = (won[0] + 1, won[1]) if win == 0 else (won[0], won[1] + 1)
                if last:
                    v0 = self._leaf((cp, won), nxt[4], win)
                    v = v0 if seat == 0 else -v0
                elif win == seat:
                    v = self._oc(nxt, (cp, won), alpha, beta)
                else:
                    v = -self._oc(nxt, (cp, won), -beta, -alpha)
            if v > best:
                best, best_move = v, m
                if v > alpha:
                    alpha = v
                    if alpha >= beta or v >= 1:
                        break
        lo, hi = (e[0], e[1]) if e is not None else (-INF, INF)
        if best <= a0:
            hi = min(hi, best)
        elif best >= beta or best >= 1:
            lo = max(lo, best)
        else:
            lo = hi = best
        tt[key] = (lo, hi, best_move)
        return best

    def outcome(self, state: JJState) -> Outcome:
        """The forced outcome of the hand from this position."""
        check_position(state)
        mover = Solver.to_move(self.position(state))
        v = self.outcome_search(state)
        winner = -1 if v == 0 else (mover if v > 0 else 1 - mover)
        slam_made = nullo_made = None
        if state.slam:
            decl = state.bidder
            slam_made = state.won[1 - decl] == 0 and self.forced_tricks(state)[1 - decl] == 0
        if state.denomination == "nullo":
            nullo_made = winner == state.nullo_bidder
        return Outcome(winner, slam_made, nullo_made)

    def forced_tricks(self, state: JJState) -> tuple[int, int]:
        """The most tricks each player can force in the rest of the hand."""
        pos = self.position(state)
        rest = self.rules.tricks_per_hand - state.tricks_done
        d = self.search(pos, count_tricks=True)
        mover = Solver.to_move(pos)
        mine = (rest + d) // 2
        return (mine, rest - mine) if mover == 0 else (rest - mine, mine)

    def forced_nullo_tricks(self, state: JJState) -> int:
        """The fewest tricks the Nullo bidder can hold himself to in the rest of the hand, against best defence."""
        pos = self.position(state)
        rest = self.rules.tricks_per_hand - state.tricks_done
        v = self.search(pos, count_tricks=-1)
        return (rest - v) // 2 if Solver.to_move(pos) == state.nullo_bidder else (rest + v) // 2

    # --- whole values -------------------------------------------------------------
    def diff(self, state: JJState, guess: int | None = None) -> int:
        """Best trick points to come, A's minus B's (``guess``: a close value from A's side, for MTD(f))."""
        pos = self.position(state)
        sign = 1 if Solver.to_move(pos) == 0 else -1
        v = self.search(pos) if guess is None else self.mtdf(pos, sign * guess)
        return sign * v

    def best_moves(self, state: JJState, count_tricks: int = 0) -> tuple[int, list[tuple[int, str]]]:
        """The value for the player to move, and every move (card, word) that reaches it (``count_tricks`` as in `search`)."""
        pos = self.position(state)
        v = self.search(pos, count_tricks=count_tricks)
        known: dict[tuple[int, str], bool] = {}
        best = []
        for card, word in self.moves(pos, reduce=False):
            rep = (self._representative(pos, card), word)  # equivalent cards have one value
            if rep not in known:
                known[rep] = self.move_value(pos, rep, v - 1, v, count_tricks) >= v
            if known[rep]:
                best.append((card, word))
        return v, best

    def principal_line(self, state: JJState) -> list[Action]:
        """Best play for the points from ``state`` to the end of the hand (the first best move each time)."""
        line = []
        s = state
        while s.phase == PLAY:
            pos = self.position(s)
            v = self.search(pos)
            seat = Solver.to_move(pos)
            for mv in self.moves(pos):
                if self.move_value(pos, mv, v - 1, v) >= v:
                    break
            a = Action(seat, "play", card=mv[0], announce=mv[1])
            line.append(a)
            s = self.rules._next(s, a)
        return line

    def solve(self, state: JJState) -> Value:
        """Every value of the position: points, tricks, outcome, principal line and its score."""
        check_position(state)
        d = self.diff(state)
        line = self.principal_line(state)
        s = state
        for a in line:
            s = self.rules.apply(s, a)
        got = tuple(s.card_pts[i] - state.card_pts[i] + (JOJOTTE if s.jo[i] == 2 and state.jo[i] != 2 else 0)
                    for i in (0, 1))
        return Value(d, got, self.forced_tricks(state), self.outcome(state), tuple(line),
                     self.rules.score_hand(s) if s.phase == DONE else None)


def _tables(cards: tuple[int, ...], trump: int):
    """Strength, stronger cards of each suit, trick winners and move-ordering keys, from the core's tables."""
    strength = STRENGTH[trump + 1]
    pts = POINTS[trump + 1]
    up: dict[int, tuple[int, ...]] = {}
    for c in cards:
        up[c] = tuple(sorted((d for d in cards if d >> 4 == c >> 4 and strength[d] > strength[c]), key=lambda d: strength[d]))
    # second_wins[led][card]: 1 when the second card takes the trick (trick_winner of the core)
    second_wins = [[0] * 64 for _ in range(64)]
    for a in cards:
        for b in cards:
            if a != b:
                second_wins[a][b] = trick_winner((a, b), trump)
    # move ordering: lead the top of each suit first; the second hand wins with most points, else loses cheapest
    lead_key = [0] * 64
    follow_key = [[0] * 64 for _ in range(64)]
    for a in cards:
        lead_key[a] = -(strength[a] % 100) * 10 - (strength[a] >= 100)
        for b in cards:
            follow_key[a][b] = -100 - pts[b] if second_wins[a][b] else pts[b]
    return strength, up, second_wins, lead_key, follow_key


def check_position(state: JJState) -> None:
    """Raises `AnalysisError` unless ``state`` is a two-player play position with every card known."""
    if state.phase != PLAY:
        raise AnalysisError(f"not a position of the card play (phase {state.phase})")
    if any(state.unknown):
        raise AnalysisError("the hands are not fully known (cards nobody recorded)")
    if len(state.hands) != 2:
        raise AnalysisError("the analyzer solves two-player Jo-Jotte only")


def solve(rules: JojotteRules, state: JJState) -> Value:
    """The exact double-dummy value of a play position (a one-off `Solver`)."""
    return Solver(rules, state).solve(state)


# --- analysis of a recorded hand -------------------------------------------------

class CardAnalysis(NamedTuple):
    """One card of a record, judged double-dummy."""

    trick: int
    card_index: int  # 1 or 2 in the trick
    seat: int
    card: int
    announce: str
    before: int  # forced value of the whole hand for A minus B before the card (trick score; Nullo: its score)
    after: int  # ... after it
    cost: int  # points the card gives away, for its player (0 for a best card)
    best: tuple[tuple[int, str], ...]  # the best cards (card, word)
    outcome_before: Outcome
    outcome_after: Outcome
    marks: tuple[str, ...]  # "inaccuracy", "mistake", "blunder"

    @property
    def mark(self) -> str:
        """The strongest mark, or ''."""
        for m in ("blunder", "mistake", "inaccuracy"):
            if m in self.marks:
                return m
        return ""

    def comment(self) -> str:
        """The machine-readable comment: ``[%dd eval=25 cost=15 best=KS mark=mistake]``."""
        best = ",".join(card_name(c) + (f"+{w}" if w else "") for c, w in self.best)
        text = f"{DD_TAG} eval={self.after} cost={self.cost} best={best}"
        if self.mark:
            text += f" mark={self.mark}"
        return text + "]"

    def as_json(self, labels: tuple[str, ...] = ("A", "B")) -> dict:
        return {"trick": self.trick, "card": self.card_index, "seat": labels[self.seat], "played": card_name(self.card),
                "announce": self.announce or None, "before": self.before, "after": self.after, "cost": self.cost,
                "best": [card_name(c) + (f" {w}" if w else "") for c, w in self.best],
                "outcome_before": self.outcome_before.text(labels), "outcome_after": self.outcome_after.text(labels),
                "mark": self.mark or None}


def play_start(rules: JojotteRules, state: JJState) -> JJState:
    """The state at the first lead of the hand, rebuilt from a later state of its play.

    Raises:
        AnalysisError: the hand never reached the card play, or cards are unknown.
    """
    if state is None or state.phase not in (PLAY, DONE):
        raise AnalysisError("the hand has no card play to analyse")
    if any(state.unknown):
        raise AnalysisError("the hands are not fully known (cards nobody recorded)")
    if len(state.history) != state.tricks_done:
        raise AnalysisError("the hand ends with a claim: the cards of the tricks claimed are not in the replay")
    hands = list(state.hands)
    tricks = [(lead, cards) for lead, cards, _ in state.history]
    if state.trick:
        tricks.append((state.leader, state.trick))
    for lead, cards in tricks:
        for i, c in enumerate(cards):
            hands[(lead + i) % 2] |= 1 << c
    if any(h.bit_count() != rules.tricks_per_hand for h in hands):
        raise AnalysisError("the hands at the first lead cannot be rebuilt from the replay")
    first = tricks[0][0] if tricks else state.leader
    return state._replace(phase=PLAY, hands=tuple(hands), trick=(), leader=first, tricks_done=0, won=(0, 0),
                          card_pts=(0, 0), last_trick=-1, jo=(0, 0), history=())


def _whole(s: JJState, rest: int) -> int:
    """The trick-score difference of the whole hand, A minus B: what is won so far plus ``rest`` to come."""
    jo = [JOJOTTE if j == 2 else 0 for j in s.jo]
    return (s.card_pts[0] + jo[0]) - (s.card_pts[1] + jo[1]) + rest


def analyze_hand(verdict, rules: JojotteRules | None = None, solver_entries: int = 2_000_000) -> list[CardAnalysis]:
    """Every card played in a recorded two-player hand, judged double-dummy (up to an illegal card, if any).

    ``verdict`` is a `replay.HandVerdict`; ``rules`` the session's rules (default options if None).

    Raises:
        AnalysisError: the hand cannot be analysed (no card play, unknown cards, not two-player).
    """
    rules = rules or JojotteRules()
    if not isinstance(rules, JojotteRules) or rules.seats != 2:
        raise AnalysisError(f"the analyzer solves two-player Jo-Jotte only, not {rules.name}")
    state = play_start(rules, verdict.state)
    solver = Solver(rules, state, solver_entries)
    nullo = state.denomination == "nullo"
    out: list[CardAnalysis] = []
    value_before = _forced_value(rules, solver, state, 0)
    oc_before = solver.outcome(state)
    declarer = state.bidder
    for t in verdict.record.tricks:
        for j, p in enumerate(t.plays, 1):
            if state.phase != PLAY:
                return out
            a = Action(p.seat, "play", card=p.card, announce=p.announce)
            if rules.check(state, a) is not None:
                return out  # the validator names the illegal card; the analysis stops before it
            mover = p.seat
            _, best = solver.best_moves(state, -1 if nullo else 0)
            nxt = rules._next(state, a)
            if nxt.phase == PLAY:
                value_after = _forced_value(rules, solver, nxt, value_before)
                oc_after = solver.outcome(nxt)
            else:
                value_after = _forced_value(rules, solver, nxt, value_before)
                oc_after = _final_outcome(rules, nxt)
            sign = 1 if mover == 0 else -1
            cost = sign * (value_before - value_after)
            marks = []
            if cost > 0:
                marks.append("inaccuracy")
            if cost >= MISTAKE_POINTS:
                marks.append("mistake")
            if oc_after.rank_for(mover, declarer) < oc_before.rank_for(mover, declarer):
                marks.append("blunder")
            out.append(CardAnalysis(t.number, j, mover, p.card, p.announce, value_before, value_after, cost,
                                    tuple(best), oc_before, oc_after, tuple(marks)))
            state, value_before, oc_before = nxt, value_after, oc_after
    return out


def _forced_value(rules: JojotteRules, solver: Solver, s: JJState, guess: int) -> int:
    """The forced value of the whole hand for A (minus B) that a card's cost is measured in.

    Suit and NT: the trick-score difference (what decides the hand with the melds). Nullo, where the
    trick points decide nothing: the Nullo's score (score_hand with the tricks the Nullo bidder is
    forced to take), above the line, A's minus B's.
    """
    if s.denomination == "nullo":
        nb = s.nullo_bidder
        n = s.won[nb] + (solver.forced_nullo_tricks(s) if s.phase == PLAY else 0)
        rest = rules.tricks_per_hand - n
        won = (n, rest) if nb == 0 else (rest, n)
        score = rules.score_hand(s._replace(phase=DONE, won=won))
        return score.above(0) + score.below(0) - score.above(1) - score.below(1)
    if s.phase != PLAY:
        return _whole(s, 0)
    already = _whole(s, 0)
    return already + solver.diff(s, guess=guess - already)  # the guess: the card cost nothing


def _final_outcome(rules: JojotteRules, s: JJState) -> Outcome:
    score = rules.score_hand(s)
    slam = None if not s.slam else s.won[s.bidder] == rules.tricks_per_hand
    nullo = None if s.denomination != "nullo" else score.winner == s.nullo_bidder
    return Outcome(score.winner, slam, nullo)


def annotate_hand(hand: HandRecord, analysis: list[CardAnalysis]) -> HandRecord:
    """The hand with each analysed card's ``[%dd …]`` comment (replacing an earlier one, other comments kept)."""
    by_card = {(a.trick, a.card_index): a for a in analysis}
    tricks = []
    for t in hand.tricks:
        plays = []
        for j, p in enumerate(t.plays, 1):
            a = by_card.get((t.number, j))
            if a is not None:
                kept = tuple(c for c in p.comments if not c.lstrip().startswith(DD_TAG))
                p = p._replace(comments=kept + (a.comment(),))
            plays.append(p)
        tricks.append(t._replace(plays=tuple(plays)))
    return hand._replace(tricks=tuple(tricks))


def parse_dd_comment(text: str) -> dict[str, str] | None:
    """The fields of a ``[%dd …]`` comment, or None.

    >>> parse_dd_comment("[%dd eval=-10 cost=15 best=KS,QS mark=mistake]")["best"]
    'KS,QS'
    """
    t = text.strip()
    if not t.startswith(DD_TAG) or not t.endswith("]"):
        return None
    out = {}
    for item in t[len(DD_TAG):-1].split():
        k, _, v = item.partition("=")
        out[k] = v
    return out


# --- what-if -----------------------------------------------------------------------

class WhatIf(NamedTuple):
    """A hand replayed with another card at one point, and best play by both afterwards."""

    state: JJState  # the position after the substituted card
    line: tuple[Action, ...]  # the record's cards up to the point, the new card, then best play
    score: HandScore  # the score of the hand so finished
    actual: HandScore | None  # the score of the hand as recorded


def what_if(verdict, rules: JojotteRules | None, trick: int, card_index: int, card: str | int,
            announce: str = "") -> WhatIf:
    """Replay the hand of ``verdict`` up to card ``card_index`` of trick ``trick``, play ``card`` there,
    then best play (for the points) to the end, and score the hand.

    Raises:
        AnalysisError: no such point, the card is illegal there, or the hand cannot be analysed.
    """
    rules = rules or JojotteRules()
    state = play_start(rules, verdict.state)
    code = parse_card(card) if isinstance(card, str) else card
    line: list[Action] = []
    for t in verdict.record.tricks:
        for j, p in enumerate(t.plays, 1):
            if (t.number, j) == (trick, card_index):
                return _finish_what_if(rules, state, line, code, announce, verdict)
            a = Action(p.seat, "play", card=p.card, announce=p.announce)
            if state.phase != PLAY or rules.check(state, a) is not None:
                raise AnalysisError(f"the record's play stops before trick {trick}, card {card_index}")
            line.append(a)
            state = rules._next(state, a)
    if state.phase == PLAY and (trick, card_index) == (state.tricks_done + 1, len(state.trick) + 1):
        return _finish_what_if(rules, state, line, code, announce, verdict)
    raise AnalysisError(f"the hand has no trick {trick}, card {card_index}")


def _finish_what_if(rules, state, line, card, announce, verdict) -> WhatIf:
    seat = rules.current_player(state)
    words = {a.announce for a in rules.legal_actions(state) if a.kind == "play" and a.card == card}
    if not announce and len(words) > 1 and not any(state.unknown):
        # no word given: the better of the words the rules offer with this card
        solver = Solver(rules, state)
        pos = solver.position(state)
        announce = max(sorted(words), key=lambda w: solver.move_value(pos, (card, w)))
    a = Action(seat, "play", card=card, announce=announce)
    v = rules.check(state, a)
    if v is not None:
        from .rules.base import format_message

        raise AnalysisError(f"{card_name(card)} cannot be played there: {format_message(v.text, rules.seat_labels)} ({v.rule})")
    state = rules._next(state, a)
    line.append(a)
    end = state
    if state.phase == PLAY:
        solver = Solver(rules, state)
        for b in solver.principal_line(state):
            line.append(b)
            end = rules._next(end, b)
    actual = verdict.score if verdict.state is not None and verdict.state.phase == DONE else None
    return WhatIf(state, tuple(line), rules.score_hand(end), actual)


def parse_point(text: str) -> tuple[int, int]:
    """``"3.2"`` -> trick 3, card 2.

    Raises:
        ValueError: not TRICK.CARD.
    """
    t, sep, c = text.partition(".")
    try:
        trick, card = int(t), int(c) if sep else 1
    except ValueError:
        raise ValueError(f"invalid point '{text}' (expected TRICK.CARD, e.g. 3.2)") from None
    if trick < 1 or card not in (1, 2):
        raise ValueError(f"invalid point '{text}' (trick from 1, card 1 or 2)")
    return trick, card


# --- files: analysing, JSON, annotated records ------------------------------------------

class HandAnalysis(NamedTuple):
    """The analysis of one recorded hand; ``reason`` says why it was not analysed (then ``cards`` is empty)."""

    number: int
    record: HandRecord  # annotated with [%dd …] comments when analysed
    cards: tuple[CardAnalysis, ...]
    reason: str | None = None
    start: Value | None = None  # the value at the first lead

    def cost(self, seat: int) -> int:
        return sum(c.cost for c in self.cards if c.seat == seat)

    def count(self, seat: int, mark: str) -> int:
        return sum(1 for c in self.cards if c.seat == seat and mark in c.marks)


class SessionAnalysis(NamedTuple):
    header: object  # record.SessionHeader
    labels: tuple[str, ...]
    names: tuple[str, ...]
    hands: tuple[HandAnalysis, ...]


class FileAnalysis(NamedTuple):
    source: str
    sessions: tuple[SessionAnalysis, ...]
    read_error: object | None = None  # errors.Issue


def rules_for(header) -> JojotteRules:
    """The rules of a session (its ``[Game]`` and ``[Variant]``); the default game when they cannot be read."""
    from .rules.base import find_variant

    try:
        cls = find_variant(header.get("Game") or "jojotte")
        variant = header.get("Variant")
        return cls(cls.options_class.parse(variant) if variant else None)
    except ValueError:
        return JojotteRules()


def analyze_verdict(verdict, rules: JojotteRules) -> HandAnalysis:
    """One hand: its cards judged and its record annotated, or the reason it cannot be analysed."""
    if rules.seats != 2 or not isinstance(rules, JojotteRules):
        return HandAnalysis(verdict.number, verdict.record, (), f"{rules.name} is not analysed (two-player Jo-Jotte only)")
    try:
        start = play_start(rules, verdict.state)
        cards = analyze_hand(verdict, rules)
        value = Solver(rules, start).solve(start)
    except AnalysisError as e:
        return HandAnalysis(verdict.number, verdict.record, (), str(e))
    return HandAnalysis(verdict.number, annotate_hand(verdict.record, cards), tuple(cards), None, value)


def analyze_paths(paths, on_hand=None):
    """Analyse every hand of the record files and folders ``paths``; yields a `FileAnalysis` per file.

    ``on_hand(analysis)`` is called after each hand (progress).
    """
    from .replay import player_names
    from .validation import check_paths

    for result in check_paths(paths, keep_hands=True):
        sessions = []
        for summary, verdicts in result.sessions:
            rules = rules_for(summary.header)
            hands = []
            for v in verdicts:
                h = analyze_verdict(v, rules)
                hands.append(h)
                if on_hand is not None:
                    on_hand(h)
            labels = summary.seat_labels or rules.seat_labels
            sessions.append(SessionAnalysis(summary.header, labels, player_names(summary.header, labels), tuple(hands)))
        yield FileAnalysis(result.source, tuple(sessions), result.read_error)


def hand_json(h: HandAnalysis, labels: tuple[str, ...]) -> dict:
    doc = {"hand": h.number, "analysed": h.reason is None, "reason": h.reason}
    if h.reason is None:
        v = h.start
        doc["start"] = {"points": dict(zip(labels, v.points)), "tricks": dict(zip(labels, v.tricks)),
                        "outcome": v.outcome.text(labels), "winner": labels[v.outcome.winner] if v.outcome.winner >= 0 else None,
                        "slam_made": v.outcome.slam_made, "nullo_made": v.outcome.nullo_made}
        doc["players"] = {labels[s]: {"cost": h.cost(s), "inaccuracies": h.count(s, "inaccuracy"),
                                      "mistakes": h.count(s, "mistake"), "blunders": h.count(s, "blunder")} for s in (0, 1)}
        doc["cards"] = [c.as_json(labels) for c in h.cards]
    return doc


def analysis_json(results: list[FileAnalysis]) -> dict:
    """The JSON document of ``jojotte analyze --json``."""
    files = []
    hands = analysed = cards = 0
    for r in results:
        sessions = []
        for s in r.sessions:
            sessions.append({"event": s.header.get("Event"), "game": s.header.get("Game") or "jojotte",
                             "players": dict(zip(s.labels, s.names)),
                             "hands": [hand_json(h, s.labels) for h in s.hands]})
            hands += len(s.hands)
            analysed += sum(1 for h in s.hands if h.reason is None)
            cards += sum(len(h.cards) for h in s.hands)
        files.append({"source": r.source, "read_error": str(r.read_error) if r.read_error else None, "sessions": sessions})
    return {"format_version": 1, "summary": {"files": len(results), "hands": hands, "analysed": analysed, "cards": cards},
            "files": files}


def write_annotated(results: list[FileAnalysis], out) -> None:
    """The annotated records, in canonical notation, every session of every file."""
    from .notation import seat_labels, sheet_labels, write_hand, write_header

    first = True
    for r in results:
        for s in r.sessions:
            if not first:
                out.write("\n")
            first = False
            out.write(write_header(s.header))
            labels, columns = seat_labels(s.header), sheet_labels(s.header)
            for h in s.hands:
                out.write("\n" + write_hand(h.record, labels, columns))


def what_if_file(path: str, hand: int, at: str, card: str, session: int = 1) -> tuple[WhatIf, tuple[str, ...]]:
    """`what_if` for hand ``hand`` of session ``session`` of a record file; also the players' names.

    Raises:
        AnalysisError: no such hand or point, an illegal card, or a hand that cannot be analysed.
        ValueError: ``at`` or ``card`` cannot be read.
    """
    from .validation import check_file

    trick, index = parse_point(at)
    word = ""
    if " " in card.strip():
        card, word = card.split(None, 1)
        word = word.strip().lower()
    code = parse_card(card)
    result = check_file(path, keep_hands=True)
    if result.read_error is not None:
        raise AnalysisError(str(result.read_error))
    if not 1 <= session <= len(result.sessions):
        raise AnalysisError(f"{path} has no session {session}")
    summary, verdicts = result.sessions[session - 1]
    for v in verdicts:
        if v.number == hand:
            return what_if(v, rules_for(summary.header), trick, index, code, word), summary.names
    raise AnalysisError(f"{path} has no hand {hand}")
