"""Double-dummy analysis of two-player Jo-Jotte: exact values of play positions and the cost of every card.

Once the first card is led every card of a two-player hand is known, so the rest
of the hand is a game of perfect information. `Solver` finds its exact value
under best play by both players with an alpha-beta search over bitmask card
sets, a trick at a time (MTD(f) null windows, a bounded transposition table per
position at the start of a trick holding its leads and replies best first, the
points left as a bound, the last two tricks solved outright and kept); the cards
a player holds that are equivalent (adjacent in the rank order among the cards
still in play, with the same card points) are searched once. `bench/analyze.py`
measures it.

Three values are searched, each a zero-sum game:

* **points**: the trick points still to come (card points, last trick 10,
  Jo-Jotte 20) of each player, both playing to maximise their own points minus
  the opponent's; `Value.points` is the split along the principal line;
* **tricks**: the most tricks each player can force; in a Nullo also the fewest
  tricks the Nullo bidder can hold himself to (both playing to lose tricks);
* **outcome**: who wins the hand (``score_hand`` on every finished line: melds,
  totals, Nullo, bid Slam), each player playing first to win it. When probes of
  ``score_hand`` on finished hands show it is decided by a threshold of the final
  trick-score difference (or, in a Nullo or a bid Slam, by the tricks), it is
  answered by null-window points searches (`Solver.outcome_by_points`); otherwise
  by a search of its own.

Three-player forms (jojotte-3, jojotte-4s, the box) are analysed as the two-player
hand of the two who play (`two_player_form`); four players in partnerships from the
first card (`analyze_partnership`, by the one solver of `solver`; ``ENDGAME_CARDS``: every card), the outcome read
from the forced trick-score difference where the same probes of ``score_hand`` allow it (`outcome_by_difference`).

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

from ..cards import KING, QUEEN, SUIT_MASKS, card_name, iter_cards, make_card, parse_card
from ..cycles import without_cycle_collection
from ..errors import JojotteError, wins
from ..notation.dd_comment import format_dd_comment, without_dd
from ..notation.model import HandRecord
from ..rules.base import Action, format_message
from ..rules.jojotte import DONE, PLAY, HandScore, JJState, JojotteRules
from ..rules.jojotte_cards import JOJOTTE, LAST_TRICK, POINTS, STRENGTH, legal_play_mask, mask_points, trick_winner
from .endings import ENDGAME_CARDS
from .marks import MARKS, card_marks

INF = 10_000
MISTAKE_POINTS = 20  # JJ issue 8: a mistake costs 20 points or more
END_CARDS = 4  # the last two tricks (four cards) without a king or queen of trumps: a full minimax, kept

# a position of the search: (hand of A, hand of B, leader, card led to the current trick or -1, 4 × jo A + jo B)
Pos = tuple


class AnalysisError(JojotteError):
    """A position or a hand that cannot be analysed (unknown cards, not two-player Jo-Jotte, not in play)."""


class IllegalPlayError(AnalysisError):
    """The card a what-if plays is not legal there: a finding (`analyze --play` exits 1), where any other
    `AnalysisError` (no such hand, trick or card, a hand that cannot be analysed) is a usage error (2)."""


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
        parts = ["equal totals" if self.winner < 0 else wins(labels[self.winner], "the hand")]
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
        self.last_bonus = LAST_TRICK if self.last_trick else 0
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
        trumps = SUIT_MASKS[state.trump] if state.trump >= 0 else 0
        self.follow_masks = [SUIT_MASKS[c >> 4] | trumps if c >> 4 < 4 else 0 for c in range(64)]
        self.tt_points: dict = {}
        self.tt_tricks: dict = {}
        self.tt_misere: dict = {}
        self.tt_outcome: dict = {}
        self._moves_cache: dict = {}
        self._redundant: dict = {}
        self._reps: dict = {}
        self._end_cache: dict = {}
        self._replies: dict = {}
        self._leads_cache: dict = {}
        self._oc_end_cache: dict = {}
        self._legal: dict = {}
        self._sorted: dict = {}
        self._announce_cache: dict = {}
        self._leaf_cache: dict = {}
        self._thresholds = False  # not probed yet (see `thresholds`)
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
        key = (seat, card, hand & self.jo_cards, jo)  # the words depend on the king and queen held and said
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

    def _gen(self, pos: Pos, reduce: bool = True, cache: bool = True) -> list[int]:
        """The move codes of `moves`, a new list (kept in a cache of its own with ``cache``)."""
        if reduce and cache:
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
        if reduce and cache:
            if len(self._moves_cache) > self.max_entries:
                self._moves_cache.clear()
                self._legal.clear()
                self._sorted.clear()
            self._moves_cache[pos] = out
        return out

    def _fast_gen(self, hand: int, live: int, tc: int, seat: int, pos: Pos) -> list[int]:
        """`_gen` (reduced, a new list) for the hand of the player to move, ``live`` the cards in play with ``tc``."""
        rkey = None
        if tc < 0:
            mask = hand
        else:
            rel = hand & self.follow_masks[tc]  # `_legal_mask`, inline: this is on the search's hot path
            if rel:
                mask = self._legal.get((rel, tc))
                if mask is None:
                    mask = self._legal_mask(hand, tc)
            else:
                mask = hand
            if not mask & self.jo_cards:
                # the replies depend on the cards that may be played and the live cards of their suits only
                cover = self.follow_masks[tc]
                rkey = (mask, tc, live & cover if not mask & ~cover else live)
                got = self._replies.get(rkey)
                if got is not None:
                    return list(got)
        reps = self._reps
        cards: list[int] = []
        for sm in self.suit_masks:
            ms = mask & sm
            if ms:
                if ms & (ms - 1):
                    key = (ms, live & sm)
                    r = reps.get(key)
                    if r is None:
                        r = reps[key] = tuple(iter_cards(ms & ~self._redundant_cards(ms, live & sm)))
                    cards += r
                else:
                    cards.append(ms.bit_length() - 1)
        if len(cards) > 1:
            cards.sort(key=self.lead_key.__getitem__ if tc < 0 else self.follow_key[tc].__getitem__)
        if rkey is not None:
            if len(self._replies) > self.max_entries:
                self._replies.clear()
            self._replies[rkey] = tuple(cards)
            return cards
        jo_here = mask & self.jo_cards
        if jo_here:
            out: list[int] = []
            for c in cards:
                if jo_here >> c & 1:
                    out.extend(c | w << 6 for w in self._announcements(seat, c, pos))
                else:
                    out.append(c)
            return out
        return cards

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
        return self._search(pos, alpha, beta, tt, count_tricks)

    def _search(self, pos: Pos, alpha: int, beta: int, tt: dict, count_tricks: int) -> int:
        h0, h1, leader, tc, jo = pos
        if not (h0 | h1):
            return 0
        if tc < 0:
            if jo and not (h0 | h1) & self.jo_cards:
                jo = 0  # no king or queen of trumps left: the marks change nothing to come
            if count_tricks:
                rest = (h0 | h1).bit_count() // 2  # tricks to come
            else:
                rest = mask_points(h0 | h1, self.trump)
            return self._ab(h0, h1, leader, jo, alpha, beta, tt, count_tricks, rest)
        # the second card of a trick: each reply, then the search of the next trick (as in `_ab`)
        self.nodes += 1
        best = -INF
        in_hands = 0 if count_tricks else mask_points(h0 | h1, self.trump)
        pts, jo_cards = self.pts, self.jo_cards
        for m in self._gen(pos):
            nxt, gain, again = self._child(pos, m, count_tricks)
            n0, n1, nlead, _, njo = nxt
            left = n0 | n1
            if not left:
                v = gain
            else:
                if not left & jo_cards:
                    njo = 0
                    if left.bit_count() <= END_CARDS:  # the last two tricks: solved outright
                        child = self._end(n0, n1, nlead, count_tricks)
                        v = gain + child if again else gain - child
                        if v > best:
                            best = v
                            if v > alpha:
                                alpha = v
                                if alpha >= beta:
                                    break
                        continue
                nrest = left.bit_count() // 2 if count_tricks else in_hands - pts[m & 63]
                if again:
                    v = gain + self._ab(n0, n1, nlead, njo, alpha - gain, beta - gain, tt, count_tricks, nrest)
                else:
                    v = gain - self._ab(n0, n1, nlead, njo, gain - beta, gain - alpha, tt, count_tricks, nrest)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best

    def tt_key(self, pos: Pos) -> tuple | None:
        """The key of a position at the start of a trick in the transposition tables of `search` (None mid-trick)."""
        h0, h1, leader, tc, jo = pos
        if tc >= 0:
            return None
        if jo and not (h0 | h1) & self.jo_cards:
            jo = 0
        return (h0, h1, leader, jo)

    def _ab(self, h0: int, h1: int, leader: int, jo: int, alpha: int, beta: int, tt: dict, ct: int, rest: int,
            acc: tuple | None = None) -> int:
        """Alpha-beta over whole tricks, from the start of a trick: the value for the leader.

        Points and tricks (``acc`` None): the points (``ct``: tricks) to come of the leader minus the follower's.
        The outcome (``acc = (card_pts, won)`` so far, `tt_outcome`): 1 when the leader can force winning the hand,
        0 equal totals, -1 losing, each finished line judged by ``score_hand`` (`_leaf`).

        The transposition table holds, per position at the start of a trick, the bounds found so far
        and the leads to search (best first, one list for both searches), each with the replies to it once
        generated (best first). A trick's leads and replies come from `_gen`, so equivalent cards are searched
        once. ``rest`` is the card points still in the hands (with ``ct``: the tricks to come); with the last
        trick and a Jo-Jotte still possible it bounds the value either way, which cuts the search near the end.
        """
        # one function for the whole trick, lead and reply, and both searches: it is the solver's inner loop,
        # where a call costs (bench/analyze.py, CPU, median of 3 runs: the points solve 15.6 ms with two loops, 14.1 with
        # one, in noise; the outcome search 12.4 ms then 5.2, by the bound of 1 it now shares)
        if acc is None:
            bound = rest if ct else rest + self.last_bonus + (JOJOTTE if (h0 | h1) & self.jo_cards else 0)
            key = (h0, h1, leader, jo)
        else:
            bound = 1  # the outcome is -1, 0 or 1
            key = (h0, h1, leader, jo, acc)
        if bound <= alpha:
            return bound
        if -bound >= beta:
            return -bound
        e = tt.get(key)
        if e is not None:
            lo, hi, leads = e
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
        else:
            lo, hi = -INF, INF
            leads = self._leads(h0, h1, leader, jo)
        self.nodes += 1
        a0 = alpha
        ab = self._ab
        pts, jo_cards, second_wins = self.pts, self.jo_cards, self.second_wins
        lh, fh = (h0, h1) if leader == 0 else (h1, h0)
        follower = 1 - leader
        n_after = (lh | fh).bit_count() - 2  # cards left after this trick
        deep = n_after > END_CARDS
        if acc is None:
            end = self._end
            last_bonus = LAST_TRICK if self.last_trick and not ct else 0
            bonus_after = last_bonus + (0 if ct else JOJOTTE)  # bounds the value after the trick, with its points left
            points = not ct
        else:
            end, leaf = self._oc_end, self._leaf
            last_bonus = self.last_bonus
            (cp0, cp1), (won0, won1) = acc
            sign = 1 if leader == 0 else -1  # leaf values are A's
            points = False  # no gain: the points go to ``acc``, the value is the outcome's
        best, best_i = -INF, 0
        for i, entry in enumerate(leads):
            m, replies = entry
            card = m & 63
            nl = lh ^ (1 << card)
            gain = 0
            njo = jo
            if m > 63:
                w = m >> 6
                njo = (w << 2 | jo & 3) if leader == 0 else (jo & 12 | w)
                if w == 2 and points:
                    gain = JOJOTTE
            if replies is None:
                replies = entry[1] = self._fast_gen(fh, lh | fh, card, follower,
                                                    (nl, fh, 0, card, njo) if leader == 0 else (fh, nl, 1, card, njo))
            wins = second_wins[card]
            lead_pts = pts[card]
            bl = beta  # the leader's value of this lead is below bl
            vl = INF
            for j, f in enumerate(replies):
                fc = f & 63
                nf = fh ^ (1 << fc)
                g = gain
                fjo = njo
                if f > 63:
                    w = f >> 6
                    fjo = (w << 2 | njo & 3) if follower == 0 else (njo & 12 | w)
                    if w == 2 and points:
                        g -= JOJOTTE
                left = nl | nf
                if acc is not None:  # the outcome: the trick's points and trick into acc, the leaf at the end
                    got = lead_pts + pts[fc] + (0 if left else last_bonus)
                    win = follower if wins[fc] else leader
                    nacc = ((cp0 + got, cp1), (won0 + 1, won1)) if win == 0 else ((cp0, cp1 + got), (won0, won1 + 1))
                    n0, n1 = (nl, nf) if leader == 0 else (nf, nl)
                    if not left:
                        v = sign * leaf(nacc, fjo, win)
                    elif not deep and not left & jo_cards:
                        v = end(n0, n1, win, fjo, *nacc) if win == leader else -end(n0, n1, win, fjo, *nacc)
                    elif win == leader:
                        v = ab(n0, n1, win, fjo, alpha, bl, tt, 0, 0, nacc)
                    else:
                        v = -ab(n0, n1, win, fjo, -bl, -alpha, tt, 0, 0, nacc)
                else:
                    got = ct if ct else lead_pts + pts[fc]
                    nrest = rest - (1 if ct else got)
                    if not n_after:
                        v = g - got - last_bonus if wins[fc] else g + got + last_bonus
                    elif deep or left & jo_cards:
                        if fjo and not left & jo_cards:
                            fjo = 0
                        # the points left bound what comes next: no search when that settles the reply
                        span = nrest + (bonus_after if left & jo_cards else last_bonus)
                        if wins[fc]:
                            g -= got
                            if g + span <= alpha or g - span >= bl:
                                v = g + span if g + span <= alpha else g - span
                            elif leader == 0:
                                v = g - ab(nl, nf, 1, fjo, g - bl, g - alpha, tt, ct, nrest)
                            else:
                                v = g - ab(nf, nl, 0, fjo, g - bl, g - alpha, tt, ct, nrest)
                        else:
                            g += got
                            if g + span <= alpha or g - span >= bl:
                                v = g + span if g + span <= alpha else g - span
                            elif leader == 0:
                                v = g + ab(nl, nf, 0, fjo, alpha - g, bl - g, tt, ct, nrest)
                            else:
                                v = g + ab(nf, nl, 1, fjo, alpha - g, bl - g, tt, ct, nrest)
                    elif wins[fc]:  # the last two tricks, without a king or queen of trumps: solved outright
                        v = g - got - (end(nl, nf, 1, ct) if leader == 0 else end(nf, nl, 0, ct))
                    else:
                        v = g + got + (end(nl, nf, 0, ct) if leader == 0 else end(nf, nl, 1, ct))
                if v < vl:
                    vl = v
                    if j:  # the best reply so far is tried first next time
                        replies.insert(0, replies.pop(j))
                    if v < bl:
                        bl = v
                        if bl <= alpha:
                            break
            if vl > best:
                best, best_i = vl, i
                if vl > alpha:
                    alpha = vl
                    if alpha >= beta:
                        break
        if best_i:
            leads.insert(0, leads.pop(best_i))
        if best <= a0:  # `_bounds`, inline
            tt[key] = (lo, best if best < hi else hi, leads)
        elif best >= beta:
            tt[key] = (best if best > lo else lo, hi, leads)
        else:
            tt[key] = (best, best, leads)
        return best

    def _leads(self, h0: int, h1: int, leader: int, jo: int) -> list:
        """The leads of a position at the start of a trick, each ``[move, replies]`` (replies made when first
        needed), one list for every search of the position, reordered by them best first."""
        key = (h0, h1, leader, jo)
        leads = self._leads_cache.get(key)
        if leads is None:
            if len(self._leads_cache) > self.max_entries:
                self._leads_cache.clear()
            leads = self._leads_cache[key] = [[m, None] for m in self._fast_gen(h0 if leader == 0 else h1, h0 | h1, -1,
                                                                              leader, (h0, h1, leader, -1, jo))]
        return leads

    def _end(self, h0: int, h1: int, leader: int, ct: int) -> int:
        """The exact value for the leader of the last ``END_CARDS`` cards or fewer, no king or queen of trumps
        among them (a full minimax, kept: an exact value serves every window)."""
        key = (h0, h1, leader, ct)
        v = self._end_cache.get(key)
        if v is not None:
            return v
        lh, fh = (h0, h1) if leader == 0 else (h1, h0)
        pts, sw = self.pts, self.second_wins
        bonus = 0 if ct else self.last_bonus
        if lh & (lh - 1) == 0:  # the last trick
            a, b = lh.bit_length() - 1, fh.bit_length() - 1
            got = ct if ct else pts[a] + pts[b] + bonus
            v = -got if sw[a][b] else got
        else:
            end = self._end
            v = -INF
            for a in iter_cards(lh):
                nl = lh ^ (1 << a)
                wins = sw[a]
                worst = INF
                for b in iter_cards(self._legal_mask(fh, a)):
                    nf = fh ^ (1 << b)
                    got = ct if ct else pts[a] + pts[b]
                    if wins[b]:  # the follower takes the trick and leads the next
                        w = -got - (end(nl, nf, 1, ct) if leader == 0 else end(nf, nl, 0, ct))
                    else:
                        w = got + (end(nl, nf, 0, ct) if leader == 0 else end(nf, nl, 1, ct))
                    if w < worst:
                        worst = w
                if worst > v:
                    v = worst
        if len(self._end_cache) > self.max_entries:
            self._end_cache.clear()
        self._end_cache[key] = v
        return v

    def _legal_mask(self, hand: int, led: int) -> int:
        """The cards of ``hand`` that may follow ``led`` (legal_play_mask of the core, cached)."""
        # only the cards of the suit led and the trumps decide (JJ-PLAY-3…6); a hand without any may
        # play every card (JJ-PLAY-7), so the table is kept by that part of the hand
        rel = hand & self.follow_masks[led]
        if not rel:
            return hand
        lkey = (rel, led)
        mask = self._legal.get(lkey)
        if mask is None:
            if len(self._legal) > self.max_entries:
                self._legal.clear()
            mask = self._legal[lkey] = legal_play_mask(rel, (led,), self.trump, self.overtrump).mask
        return mask

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
        """The exact value of ``pos`` by a series of null-window searches from ``guess`` (MTD(f), `_mtd`)."""
        return _mtd(lambda alpha, beta: self.search(pos, alpha, beta, count_tricks), guess)

    # --- the outcome: who wins the hand (score_hand on each finished line) ----------------
    def outcome_search(self, state: JJState, alpha: int = -2, beta: int = 2) -> int:
        """For the player to move: 1 when he can force winning the hand, 0 equal totals, -1 losing."""
        if len(self.tt_outcome) > self.max_entries:
            self.tt_outcome.clear()
            self._oc_end_cache.clear()
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
        if pos[3] < 0:  # the start of a trick (a position in play: the hands hold cards)
            return self._ab(pos[0], pos[1], pos[2], pos[4], alpha, beta, self.tt_outcome, 0, 0, acc)
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
        if first < 0 and pos[3] < 0:  # no outcome move yet: try the best lead for the points first
            ep = self.tt_points.get(self.tt_key(pos))
            if ep is not None and ep[2]:
                first = ep[2][0][0]
        a0 = alpha
        tc = pos[3]
        seat = Solver.to_move(pos)
        moves = self._gen(pos)
        if first >= 0 and moves[0] != first and first in moves:
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

    def _oc_end(self, h0: int, h1: int, leader: int, jo: int, cp: tuple, won: tuple) -> int:
        """`_oc` for the leader of the last one or two tricks, no king or queen of trumps among them."""
        key = (h0, h1, leader, jo, cp, won)
        v = self._oc_end_cache.get(key)
        if v is not None:
            return v
        lh, fh = (h0, h1) if leader == 0 else (h1, h0)
        pts, sw, leaf, bonus = self.pts, self.second_wins, self._leaf, self.last_bonus

        def final(first: int, x: int, y: int, cp: tuple, won: tuple) -> int:
            # the last trick: ``first`` leads x, the other plays y; the outcome for A
            got = pts[x] + pts[y] + bonus
            win = 1 - first if sw[x][y] else first
            if win == 0:
                return leaf(((cp[0] + got, cp[1]), (won[0] + 1, won[1])), jo, win)
            return leaf(((cp[0], cp[1] + got), (won[0], won[1] + 1)), jo, win)

        sign = 1 if leader == 0 else -1
        if lh & (lh - 1) == 0:
            v = sign * final(leader, lh.bit_length() - 1, fh.bit_length() - 1, cp, won)
        else:
            v = -INF
            for a in iter_cards(lh):
                x = (lh ^ (1 << a)).bit_length() - 1
                worst = INF
                for b in iter_cards(self._legal_mask(fh, a)):
                    y = (fh ^ (1 << b)).bit_length() - 1
                    got = pts[a] + pts[b]
                    win = 1 - leader if sw[a][b] else leader
                    if win == 0:
                        ncp, nwon = (cp[0] + got, cp[1]), (won[0] + 1, won[1])
                    else:
                        ncp, nwon = (cp[0], cp[1] + got), (won[0], won[1] + 1)
                    w = sign * (final(win, y, x, ncp, nwon) if win != leader else final(win, x, y, ncp, nwon))
                    if w < worst:
                        worst = w
                        if w <= v or w == -1:
                            break  # no better than a lead already found, or the worst there is
                if worst > v:
                    v = worst
                    if v == 1:
                        break  # the best there is
        self._oc_end_cache[key] = v
        return v

    def outcome(self, state: JJState, cap: tuple[int, int] | None = None) -> Outcome:
        """The forced outcome of the hand from this position.

        ``cap = (seat, v)``: the hand is known to be worth at most ``v`` to ``seat`` (1 he wins it, 0 equal
        totals, -1 he loses it), as after a card of his from a position worth ``v`` to him; the search
        then only asks whether he still reaches ``v``.
        """
        check_position(state)
        mover = Solver.to_move(self.position(state))
        v = self.outcome_by_points(state)  # None: score_hand has no threshold shape here, search the outcome
        if v is None and cap is None:
            v = self.outcome_search(state)
        elif v is None and cap[0] == mover:
            v = -1 if cap[1] == -1 else min(self.outcome_search(state, -2, cap[1]), cap[1])
        elif v is None:
            v = 1 if cap[1] == -1 else max(self.outcome_search(state, -cap[1], 2), -cap[1])
        winner = -1 if v == 0 else (mover if v > 0 else 1 - mover)
        slam_made = nullo_made = None
        if state.slam:
            decl = state.bidder
            slam_made = state.won[1 - decl] == 0 and self.forced_tricks(state)[1 - decl] == 0
        if state.denomination == "nullo":
            nullo_made = winner == state.nullo_bidder
        return Outcome(winner, slam_made, nullo_made)

    # --- the outcome from the points: thresholds of the final trick-score difference ----------------
    def thresholds(self):
        """How ``score_hand`` decides this hand, probed on finished hands: ``(tot, t_a, t_b, all_a, all_b)`` or None.

        ``d`` is the final trick-score difference, A minus B (card points, last trick, Jo-Jotte), ``tot`` the
        points of the hand's cards and last trick. When a hand in which neither player took every trick is
        won by A exactly when ``d >= t_a`` and by B exactly when ``d <= t_b`` (None: never) — the totals compare
        the trick scores plus fixed melds, whatever the Jo-Jotte and the tricks won — the outcome is a points
        question. ``all_a`` and ``all_b``: the winners of the hands in which A, or B, took every trick (the
        unbid Slam bonus). None for a Nullo, a bid Slam, or when the probes show another shape.
        """
        if self._thresholds is not False:
            return self._thresholds
        self._thresholds = None
        s0 = self.root
        n = self.rules.tricks_per_hand
        if n < 2 or not probes_apply(self.rules.options):
            return None
        tot = (s0.card_pts[0] + s0.card_pts[1] + mask_points(s0.hands[0] | s0.hands[1], s0.trump)
               + sum(self.pts[c] for c in s0.trick) + self.last_bonus)
        jo_possible = bool(self.jo_cards) or any(s0.jo)
        jos = ((0, 0), (2, 0), (0, 2)) if jo_possible else ((0, 0),)

        winner = finished_hand_winner(self.rules, s0, tot)
        if s0.denomination == "nullo" or s0.slam:
            # a Nullo: its bidder wins exactly when he takes no trick; a bid Slam: the declarer exactly when
            # he takes every trick (then his totals, with the Slam bonus, must win)
            x = s0.nullo_bidder if s0.denomination == "nullo" else s0.bidder
            if x not in (0, 1):
                return None
            clean = (0, n) if x == 0 else (n, 0)  # the Nullo bidder took none
            if s0.slam:
                clean = clean[::-1]  # the declarer took every trick
            other = (1, n - 1) if x == 0 else (n - 1, 1)
            all_x = tot if x == 0 else 0  # A's card points when the declarer takes every trick
            wins = {winner(all_x, jo, clean) for jo in jos} if s0.slam else {winner(tot - all_x, (0, 0), clean)}
            loses = {winner(cp, (0, 0), won) for cp in (0, tot // 10 * 5, tot) for won in (other, other[::-1], (n // 2, n - n // 2))}
            if wins == {x} and loses == {1 - x}:
                self._thresholds = ("nullo" if s0.denomination == "nullo" else "slam", x)
            return self._thresholds

        self._thresholds = score_shape(winner, tot, n, jos)
        return self._thresholds

    def outcome_by_points(self, state: JJState) -> int | None:
        """`outcome_search` answered with at most two null-window points searches (which share the points'
        tables), when `thresholds` allows it here; None when it does not."""
        tab = self.thresholds()
        if tab is None:
            return None
        mover = Solver.to_move(self.position(state))
        if len(tab) == 2:  # a Nullo or a bid Slam: a question of tricks
            kind, x = tab
            if kind == "nullo":
                made = state.won[x] == 0 and self.forced_nullo_tricks(state) == 0
            else:
                made = state.won[1 - x] == 0 and self.forced_tricks(state)[1 - x] == 0
            return 1 if (x if made else 1 - x) == mover else -1
        tot, t_a, t_b, all_a, all_b = tab
        now = _whole(state, 0)
        live = state.hands[0] | state.hands[1] | sum(1 << c for c in state.trick)
        rest = mask_points(live, self.trump) + self.last_bonus
        jo_spread = JOJOTTE if live & self.jo_cards else 0
        a_all = state.won[1] == 0  # A may still take every trick
        b_all = state.won[0] == 0
        lo_all_a, hi_all_b = now + rest - jo_spread, now - rest + jo_spread  # d if A (B) takes every trick

        def can_force(seat: int) -> bool | None:
            """Whether ``seat`` can force winning the hand; None when the thresholds do not settle it."""
            t = t_a if seat == 0 else t_b
            own_all, other_all = (a_all, b_all) if seat == 0 else (b_all, a_all)
            own_wins, other_wins = (all_a, all_b) if seat == 0 else (all_b, all_a)
            if own_all and own_wins != {seat}:
                return None  # taking every trick might not win
            if other_all and seat in other_wins:
                return None  # losing every trick might win
            if t is None:
                return False if not own_all else None
            if seat == 0:
                if (own_all and lo_all_a < t) or (other_all and hi_all_b >= t):
                    return None
                return self._at_least(state, t - now)
            if (own_all and hi_all_b > t) or (other_all and lo_all_a <= t):
                return None
            return not self._at_least(state, t - now + 1)  # B forces d <= t: A cannot force d >= t + 1

        mine = can_force(mover)
        if mine is None:
            return None
        if mine:
            return 1
        theirs = can_force(1 - mover)
        if theirs is None:
            return None
        return -1 if theirs else 0

    def _at_least(self, state: JJState, target: int) -> bool:
        """Whether A can force at least ``target`` trick points to come more than B (a null-window search)."""
        pos = self.position(state)
        if Solver.to_move(pos) == 0:
            return self.search(pos, target - 1, target) >= target
        return self.search(pos, -target, -target + 1) <= -target

    def forced_tricks(self, state: JJState, guess: tuple[int, int] | None = None) -> tuple[int, int]:
        """The most tricks each player can force in the rest of the hand (``guess``: tricks close to them, as along
        the principal line, for null-window searches from there)."""
        pos = self.position(state)
        rest = self.rules.tricks_per_hand - state.tricks_done
        mover = Solver.to_move(pos)
        if guess is None:
            d = self.search(pos, count_tricks=True)
        else:
            d = self.mtdf(pos, guess[mover] - guess[1 - mover], count_tricks=True)
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

    def best_moves(self, state: JJState, count_tricks: int = 0, value: int | None = None) -> tuple[int, list[tuple[int, str]]]:
        """The value for the player to move, and every move (card, word) that reaches it (``count_tricks`` as in `search`;
        ``value``: that value when known already)."""
        pos = self.position(state)
        v = self.search(pos, count_tricks=count_tricks) if value is None else value
        known: dict[tuple[int, str], bool] = {}
        best = []
        moves = self.moves(pos, reduce=False)
        if len({(self._representative(pos, c), w) for c, w in moves}) == 1:
            return v, moves  # one move in effect (equivalent cards): it is the best
        for card, word in moves:
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
            s = self.rules.advance(s, a)
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
        along = tuple(s.won[i] - state.won[i] for i in (0, 1))  # the tricks of the principal line: the guess
        return Value(d, got, self.forced_tricks(state, along), self.outcome(state), tuple(line),
                     self.rules.score_hand(s) if s.phase == DONE else None)


def probes_apply(options) -> bool:
    """Whether `score_shape`'s probes may read the winner from the trick-score difference under these options: not
    when the totals are compared after the multiplier (OP-10) with Jo-Jotte above the line (OP-08), where the
    multiplier reaches the card points but not the Jo-Jotte that the difference counts."""
    return not (options.compare_after_multiplier and options.jojotte_above_line)


def finished_hand_winner(rules, s, tot: int):
    """`score_shape`'s probe: ``winner(cp_a, jo, won)``, ``score_hand``'s winner (0 A, 1 B, -1 equal totals) of the hand
    ``s`` finished with A (seat 0, or North-South) taking ``cp_a`` of the ``tot`` card and last-trick points, B the
    rest, the Jo-Jotte marks ``jo`` and the tricks ``won``; the other seats of a four-player hand count nothing."""
    pad = (0,) * (len(s.hands) - 2)
    n = rules.tricks_per_hand

    def winner(cp_a: int, jo: tuple[int, int], won: tuple[int, int]) -> int:
        end = s._replace(phase=DONE, hands=(0,) * len(s.hands), trick=(), card_pts=(cp_a, tot - cp_a, *pad),
                         won=(*won, *pad), jo=(*jo, *pad), last_trick=0, tricks_done=n, history=())
        return rules.score_hand(end).winner
    return winner


def score_shape(winner, tot: int, n: int, jos: tuple[tuple[int, int], ...]):
    """How ``score_hand`` decides a hand of ``n`` tricks between A and B, probed on finished hands:
    ``(tot, t_a, t_b, all_a, all_b)`` (see `Solver.thresholds`), or None when a hand in which neither took every
    trick is not won by a monotone function of the final trick-score difference ``d`` (A minus B).

    ``winner(cp_a, jo, won)``: ``score_hand``'s winner (0 A, 1 B, -1 equal totals) of the finished hand in which A
    took ``cp_a`` of the ``tot`` card and last-trick points, the Jo-Jotte marks were ``jo`` (one of ``jos``) and
    the tricks ``won``.
    """
    by_d: dict[int, set[int]] = {}
    for cp_a in range(0, tot + 1, 5):
        for jo in jos:
            d = 2 * cp_a - tot + (JOJOTTE if jo[0] == 2 else 0) - (JOJOTTE if jo[1] == 2 else 0)
            for won in ((1, n - 1), (n - 1, 1)):
                by_d.setdefault(d, set()).add(winner(cp_a, jo, won))
    ds = sorted(by_d)
    if any(len(w) > 1 for w in by_d.values()):
        return None  # not a function of d alone
    seq = [next(iter(by_d[d])) for d in ds]
    # B wins, then equal totals, then A wins, as d grows
    rank = {1: 0, -1: 1, 0: 2}
    if any(rank[a] > rank[b] for a, b in zip(seq, seq[1:])):
        return None
    t_a = next((d for d, w in zip(ds, seq) if w == 0), None)
    t_b = next((d for d, w in zip(reversed(ds), reversed(seq)) if w == 1), None)
    all_a = {winner(tot, jo, (n, 0)) for jo in jos}
    all_b = {winner(0, jo, (0, n)) for jo in jos}
    return tot, t_a, t_b, all_a, all_b


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


def _bounds(best: int, alpha: int, beta: int, lo: int, hi: int) -> tuple[int, int]:
    """The bounds a position's table entry keeps after a search of window (alpha, beta) that found ``best``:
    an upper bound when it failed low, a lower bound when it failed high, else the exact value."""
    if best <= alpha:
        return lo, min(hi, best)
    if best >= beta:
        return max(lo, best), hi
    return best, best


def check_position(state: JJState) -> None:
    """Raises `AnalysisError` unless ``state`` is a two-player play position with every card known."""
    if state.phase != PLAY:
        raise AnalysisError(f"not a position of the card play (phase {state.phase})")
    if any(state.unknown):
        raise AnalysisError("the hands are not fully known (cards nobody recorded)")
    if len(state.hands) != 2:
        raise AnalysisError("the analyzer solves two-player Jo-Jotte only")


@without_cycle_collection
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
    marks: tuple[str, ...]  # one mark at most (`marks.card_marks`): "inaccuracy", "mistake" or "blunder"
    alts: tuple[tuple[int, str, int], ...] = ()  # every legal card there (card, word) and the value after it (as after)

    @property
    def mark(self) -> str:
        """The strongest mark, or ''."""
        for m in MARKS:
            if m in self.marks:
                return m
        return ""

    def comment(self, sides: str = "") -> str:
        """The machine-readable comment: ``[%dd eval=25 cost=15 best=KS mark=mistake]``; ``sides`` (``vs=A-C``,
        three-player forms): whose value ``eval`` is, the first seat's minus the second's (A minus B without it)."""
        best = [card_name(c) + (f"+{w}" if w else "") for c, w in self.best]
        alts = [(card_name(c) + (f"+{w}" if w else ""), v) for c, w, v in self.alts]
        return format_dd_comment(self.after, self.cost, best, self.mark, sides, alts)

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


@without_cycle_collection
def analyze_hand(verdict, rules: JojotteRules | None = None, solver_entries: int = 2_000_000,
                 solver: Solver | None = None, game=None) -> list[CardAnalysis]:
    """Every card played in a recorded two-player hand, judged double-dummy (up to an illegal card, if any).

    ``verdict`` is a `replay.HandVerdict`; ``rules`` the session's rules (default options if None);
    ``solver``: a `Solver` of the hand to use (its tables serve later questions about the hand); ``game``: for
    the two-player view of a three-player hand, ``(the game's rules, its state, the view's seats)``, so that a
    Nullo's costs are the game's penalties (JJ3-NULLO-1), not the two-player game's.

    Raises:
        AnalysisError: the hand cannot be analysed (no card play, unknown cards, not two-player).
    """
    rules = rules or JojotteRules()
    if not isinstance(rules, JojotteRules) or rules.seats != 2:
        raise AnalysisError(f"the analyzer solves two-player Jo-Jotte only, not {rules.name}")
    state = play_start(rules, verdict.state)
    solver = solver or Solver(rules, state, solver_entries)
    nullo = state.denomination == "nullo"
    ct = -1 if nullo else 0
    out: list[CardAnalysis] = []
    end = verdict.state
    # the guess of the first value: the hand as played (its trick-score difference), which is seldom far from it
    guess = 0 if nullo or end.phase != DONE else _whole(end, 0) * (1 if Solver.to_move(solver.position(state)) == 0 else -1)
    target = None  # the mover's value to come (`Solver.move_value`'s scale): the value after the card before
    value_before = oc_before = None
    declarer = state.bidder
    for t in verdict.record.tricks:
        for j, p in enumerate(t.plays, 1):
            if state.phase != PLAY:
                return out
            a = Action(p.seat, "play", card=p.card, announce=p.announce)
            if rules.check(state, a) is not None:
                return out  # the validator names the illegal card; the analysis stops before it
            mover = p.seat
            sign = 1 if mover == 0 else -1
            best, alts, top, values = _card_values(rules, solver, state, target, guess, game)
            if value_before is None:  # the first card: the value of the hand is its best card's
                value_before, oc_before = top, solver.outcome(state)
            key = (p.card, (p.announce or "").lower())
            value_after = next(v for c, w, v in alts if (c, w) == key)
            _, gain, again = solver.child(solver.position(state), key, ct)
            target = values[key] - gain if again else gain - values[key]
            nxt = rules.advance(state, a)
            if nxt.phase == PLAY:
                oc_after = solver.outcome(nxt, (mover, oc_before.rank_for(mover, declarer)[0]))
            else:
                oc_after = _final_outcome(rules, nxt)
            cost = sign * (value_before - value_after)
            marks = _marks(cost, oc_after.rank_for(mover, declarer) < oc_before.rank_for(mover, declarer))
            out.append(CardAnalysis(t.number, j, mover, p.card, p.announce, value_before, value_after, cost,
                                    tuple(best), oc_before, oc_after, marks, alts))
            state, value_before, oc_before = nxt, value_after, oc_after
    return out


def _card_values(rules, solver: Solver, state: JJState, target: int | None, guess: int = 0, game=None):
    """The best moves (card, word) at ``state``, in the solver's order; every legal move with the forced value
    of the whole hand after it (A's trick score minus B's; in a Nullo the Nullo's score, `_nullo_score`), in the
    order of ``legal_actions``; the forced value of the whole hand (its best move's); and each move's value for the
    mover (`Solver.move_value`).

    Each move's value is the mover's value of the move (the points to come; in a Nullo the tricks, both playing to
    lose them) found by null-window tests (MTD(f)). ``target`` is the position's value for the mover when known
    (the value after the card before): no move is worth more, so a move that reaches it is exact with one test,
    and one that fails low gets its upper bound as the next guess. Without it (the first card) the first move
    is searched from ``guess`` and each next one from the best value found so far. Equivalent cards are searched
    once, and the one solver's tables serve every move and every position of the hand.
    """
    pos = solver.position(state)
    mover = Solver.to_move(pos)
    sign = 1 if mover == 0 else -1
    nullo = state.denomination == "nullo"
    ct = -1 if nullo else 0
    already = _whole(state, 0)
    moves = solver.moves(pos, reduce=False)  # best first by the solver's guess
    known = target is not None
    by_rep: dict[tuple[int, str], int] = {}
    values: dict[tuple[int, str], int] = {}
    for card, word in moves:
        rep = (solver._representative(pos, card), word)
        v = by_rep.get(rep)
        if v is None:
            if known:  # no move is worth more than the position (``target``): a move that reaches it is exact there
                v = _move_mtdf(solver, pos, rep, target, ct, target)
            else:
                v = _move_mtdf(solver, pos, rep, guess if target is None else target, ct)
                target = v if target is None else max(target, v)
            by_rep[rep] = v
        values[(card, word)] = v
    top = max(values.values())
    best = tuple(m for m in moves if values[m] == top)
    rest = rules.tricks_per_hand - state.tricks_done  # the tricks to come, the one in play with them
    nb = state.nullo_bidder

    def whole(v: int) -> int:
        if not nullo:
            return already + sign * v
        n = state.won[nb] + ((rest - v) // 2 if mover == nb else (rest + v) // 2)
        return _nullo_score(rules, state, n, game)

    alts = []
    for m in rules.legal_actions(state):
        if m.kind == "play":
            key = (m.card, (m.announce or "").lower())
            if key not in values:  # not among the solver's moves (never, by construction): a search of its own
                values[key] = _move_mtdf(solver, pos, key, top, ct, top)
            alts.append((*key, whole(values[key])))
    return best, tuple(alts), whole(top), values


def _move_mtdf(solver: Solver, pos: Pos, move: tuple[int, str], guess: int, ct: int, hi: int = INF) -> int:
    """The exact value of ``move`` at ``pos`` for its player (`Solver.move_value`), by null windows from ``guess``
    (``hi``: a known upper bound of it)."""
    return _mtd(lambda alpha, beta: solver.move_value(pos, move, alpha, beta, ct), guess, hi)


def _mtd(test, guess: int, hi: int = INF) -> int:
    """The exact value that ``test(alpha, beta)`` (a fail-soft alpha-beta search) bounds, by null-window tests from
    ``guess`` (MTD(f)), ``hi`` a known upper bound of it (a test that reaches it ends the search). A second test the
    same way as the one before steps past its bound, by a step that doubles (10, 20, 40 …): a guess far from the
    value costs a few tests, not one per ten points (each bound found by a test is kept, so the value is still
    exact)."""
    lo, beta, step, way = -INF, min(guess, hi), 0, 0
    while lo < hi:
        g = test(beta - 1, beta)
        if g < beta:
            hi = g
            step = step * 2 or 10 if way < 0 else 0
            way = -1
            beta = max(hi - step, lo + 1)
        else:
            lo = g
            step = step * 2 or 10 if way > 0 else 0
            way = 1
            beta = min(lo + 1 + step, hi)
    return lo


def _nullo_score(rules: JojotteRules, s: JJState, n: int, game=None) -> int:
    """The Nullo's score, A's minus B's (above and below the line), when its bidder takes ``n`` tricks in the hand;
    ``game`` (`analyze_hand`): scored by the three-player game, the view's A and B being its two players."""
    nb = s.nullo_bidder
    rest = rules.tricks_per_hand - n
    won = (n, rest) if nb == 0 else (rest, n)
    end = s._replace(phase=DONE, won=won)
    if game is None:
        score, a, b = rules.score_hand(end), 0, 1
    else:
        table, state, (a, b) = game
        score = table.score_two_player_end(state, end)
    return score.above(a) + score.below(a) - score.above(b) - score.below(b)


def _final_outcome(rules: JojotteRules, s: JJState) -> Outcome:
    score = rules.score_hand(s)
    slam = None if not s.slam else s.won[s.bidder] == rules.tricks_per_hand
    nullo = None if s.denomination != "nullo" else score.winner == s.nullo_bidder
    return Outcome(score.winner, slam, nullo)


def annotate_hand(hand: HandRecord, analysis: list[CardAnalysis], sides: str = "") -> HandRecord:
    """The hand with each analysed card's ``[%dd …]`` comment (replacing an earlier one, other comments kept);
    ``sides`` as in `CardAnalysis.comment`."""
    by_card = {(a.trick, a.card_index): a for a in analysis}
    tricks = []
    for t in hand.tricks:
        plays = []
        for j, p in enumerate(t.plays, 1):
            a = by_card.get((t.number, j))
            if a is not None:
                p = p._replace(comments=without_dd(p.comments) + (a.comment(sides),))
            plays.append(p)
        tricks.append(t._replace(plays=tuple(plays)))
    return hand._replace(tricks=tuple(tricks))


# --- four players in partnerships: from the first card, exactly --------------------------------------

# four-player forms are analysed from the point where at most `ENDGAME_CARDS` cards remain (trick 3), as Baloot is


def _partnership_start(rules, state):
    """The state of a four-player hand at its first lead, rebuilt from a later state of its play."""
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
        for seat, c in zip(rules.trick_seats(state._replace(leader=lead)), cards):
            hands[seat] |= 1 << c
    zero = (0,) * len(hands)
    first = tricks[0][0] if tricks else state.leader
    return state._replace(phase=PLAY, hands=tuple(hands), trick=(), leader=first, tricks_done=0, won=zero,
                          card_pts=zero, last_trick=-1, jo=zero, history=())


def analyze_partnership(verdict, rules, cards: int = ENDGAME_CARDS) -> tuple[list[CardAnalysis], str]:
    """The cards of a four-player partnership hand from the point where at most ``cards`` (`ENDGAME_CARDS`) remain,
    judged double-dummy for their side by the one solver (`solver.Solver`; values: North-South's trick score minus
    East-West's; in a Nullo the Nullo's score, the sides playing for its tricks), and where the analysis starts
    ("from trick 5, card 1 (16 cards left)").

    Raises:
        AnalysisError: no card play, unknown cards, or the hand ends before the point.
    """
    from .solver import JojotteOutcomeView, JojotteSidesView
    from .solver import Solver as OneSolver

    s = _partnership_start(rules, verdict.state)
    view = JojotteSidesView(rules, s)
    solver = OneSolver(view)
    forced = _sides_forced(rules, s, view, solver)
    by_difference = outcome_by_difference(rules, s)
    if by_difference is None:  # score_hand is not monotone in the difference here: the outcome is searched
        outcomes = OneSolver(JojotteOutcomeView(rules, s))

    def outcome(x, value: int, guess: int | None = None) -> int:
        return outcomes.value(x, guess) if by_difference is None else by_difference(value)
    nullo = s.denomination == "nullo"
    out: list[CardAnalysis] = []
    note = ""
    before = oc_before = None
    for t in verdict.record.tricks:
        for j, p in enumerate(t.plays, 1):
            if s.phase != PLAY:
                return out, note
            a = Action(p.seat, "play", card=p.card, announce=p.announce)
            if rules.check(s, a) is not None:
                return out, note  # the validator names the illegal card
            left = sum(h.bit_count() for h in s.hands)
            if left > cards:
                s = rules.advance(s, a)
                continue
            side = p.seat % 2
            opts = None
            if before is None:
                note = f"from trick {t.number}, card {j} ({left} cards left)"
                if nullo:
                    before = forced(s)
                else:  # the value of the first position is the best of its cards' values, all searched anyway
                    opts = solver.options(s)
                    before = (max if side == 0 else min)(v for _, v in opts)
                oc_before = outcome(s, before)
            values, alts = {}, []
            # every legal card and the value it leads to (merged cards: their twin's); the value of the position, where
            # it is on the solver's scale (not a Nullo's score), is MTD(f)'s first guess
            for m, v in opts or solver.options(s, None if nullo else before):
                values[(m.card, (m.announce or "").lower())] = v
                # the option's value is the forced value of its child (`_sides_forced`), but for a Nullo's score
                alts.append((m.card, (m.announce or "").lower(), forced(rules.advance(s, m), v) if nullo else v))
            target = max(values.values()) if side == 0 else min(values.values())
            best = tuple(k for k, v in values.items() if v == target)
            nxt = rules.advance(s, a)
            after = forced(nxt)
            oc_after = outcome(nxt, after, oc_before)
            out.append(_judged(t.number, j, p, before, after, best, oc_before, oc_after, side, tuple(alts)))
            before, oc_before = after, oc_after
            s = nxt
    return out, note


def outcome_by_difference(rules, s):
    """Who wins a four-player hand from ``s`` as a function of its forced final trick-score difference (North-South's
    minus East-West's: the value of `solver.JojotteSidesView`), 1 North-South, 0 equal totals, -1 East-West; None
    where `score_shape`'s probes of ``score_hand`` do not show a monotone function of it (a Nullo, a bid Slam, an
    unbid Slam that the difference does not decide), where the outcome is searched.

    Both sides playing for the difference force the outcome too: minimax commutes with a monotone function."""
    if s.denomination == "nullo" or s.slam or not probes_apply(rules.options):
        return None
    n = rules.tricks_per_hand
    live = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3] | sum(1 << c for c in s.trick)
    tot = sum(s.card_pts) + mask_points(live, s.trump) + LAST_TRICK
    jo_spread = JOJOTTE if s.denomination == "suit" else 0  # JJ-JOJOTTE-8: the king and queen of trumps
    jos = ((0, 0), (2, 0), (0, 2)) if jo_spread or any(s.jo) else ((0, 0),)

    shape = score_shape(finished_hand_winner(rules, s, tot), tot, n, jos)
    if shape is None:
        return None
    _, t_a, t_b, all_a, all_b = shape
    # a side taking every trick ends at least ``tot - jo_spread`` ahead: the thresholds must give it the hand there too
    if (all_a != {0} or all_b != {1} or t_a is None or t_b is None or tot - jo_spread < t_a
            or jo_spread - tot > t_b):
        return None
    return lambda d: 1 if d >= t_a else (-1 if d <= t_b else 0)


def _sides_forced(rules, s, view, solver):
    """The forced value of a four-player position on the scale of the analysis: the trick-score difference, or in a
    Nullo the Nullo's score (the sides play for its tricks: the view's value is the Nullo side's tricks)."""
    if s.denomination != "nullo":
        return lambda x, guess=None: solver.value(x, guess)
    nb_side = s.nullo_bidder % 2

    def forced(x, guess=None) -> int:
        to_come = solver.rest(x) if x.phase == PLAY else 0
        n = sum(w for seat, w in enumerate(x.won) if seat % 2 == nb_side) + (-to_come if nb_side == 0 else to_come)
        won = [0] * len(x.won)
        won[x.nullo_bidder] = n
        won[(x.nullo_bidder + 1) % len(won)] = rules.tricks_per_hand - n
        sc = rules.score_hand(x._replace(phase=DONE, won=tuple(won)))
        return sc.above(0) + sc.below(0) - sc.above(1) - sc.below(1)
    return forced


def _marks(cost: int, outcome_worse: bool) -> tuple[str, ...]:
    """A card's mark (`marks.card_marks`: one, the worst), `MISTAKE_POINTS` making a mistake."""
    return card_marks(cost, MISTAKE_POINTS, outcome_worse)


def _judged(trick, j, p, before, after, best, oc_before, oc_after, side, alts) -> CardAnalysis:
    """One card of a four-player hand with its cost for its side and its marks."""
    sign = 1 if side == 0 else -1
    cost = sign * (before - after)
    marks = _marks(cost, sign * oc_after < sign * oc_before)

    def outcome(v: int) -> Outcome:
        return Outcome(-1 if v == 0 else (0 if v > 0 else 1), None, None)

    return CardAnalysis(trick, j, p.seat, p.card, (p.announce or "").lower(), before, after, cost, best,
                        outcome(oc_before), outcome(oc_after), marks, alts)


# --- what-if -----------------------------------------------------------------------

class WhatIf(NamedTuple):
    """A hand replayed with another card at one point, and best play by both afterwards."""

    state: JJState  # the position after the substituted card
    line: tuple[Action, ...]  # the record's cards up to the point, the new card, then best play
    score: HandScore  # the score of the hand so finished
    actual: HandScore | None  # the score of the hand as recorded
    end: JJState | None = None  # the hand so finished (in the seats of its two-player view, for three players)

    def document(self, hand: int, at: str, play: str, names: tuple[str, ...]) -> dict:
        """The JSON document of ``analyze --hand N --at T.C --play CARD --json``."""
        def sc(s):
            return {names[i]: {"trick_points": s.trick_points[i], "total": s.total[i], "below": s.below(i),
                               "above": s.above(i)} for i in range(len(s.total))} | {
                "winner": names[s.winner] if s.winner >= 0 else None, "held_aside": s.held_aside}
        return {"hand": hand, "at": at, "play": play,
                "line": [card_name(a.card) + (f" {a.announce}" if a.announce else "") for a in self.line],
                "score": sc(self.score), "as_played": sc(self.actual) if self.actual else None}

    def text(self, hand: int, at: str, play: str, names: tuple[str, ...]) -> list[str]:
        """The lines ``analyze --hand N --at T.C --play CARD`` prints."""
        out = [f"hand {hand}, {at}: {play} then best play: " + _score_text(self.score, names)]
        if self.actual is not None:
            out.append("as played: " + _score_text(self.actual, names))
        return out


def _score_text(score, names) -> str:
    items = []
    for i in range(len(score.total)):
        parts = [f"{w} {n}" for w, n in (("below", score.below(i)), ("above", score.above(i))) if n]
        items.append(f"{names[i]} {' '.join(parts) if parts else 'nothing'} (trick score {score.trick_points[i]})")
    who = wins(names[score.winner], "the hand") if score.winner >= 0 else "equal totals"
    aside = f", {score.held_aside} held aside" if score.held_aside else ""
    return ", ".join(items) + f"; {who}{aside}"


@without_cycle_collection
def what_if(verdict, rules: JojotteRules | None, trick: int, card_index: int, card: str | int,
            announce: str = "", labels: tuple[str, ...] | None = None) -> WhatIf:
    """Replay the hand of ``verdict`` up to card ``card_index`` of trick ``trick``, play ``card`` there,
    then best play (for the points) to the end, and score the hand. ``labels``: the seats' names in messages
    (default: the rules' seat labels).

    Raises:
        AnalysisError: no such point, the card is illegal there, or the hand cannot be analysed.
    """
    rules = rules or JojotteRules()
    code = parse_card(card) if isinstance(card, str) else card
    if _partnership(rules):
        return _sides_what_if(verdict, rules, trick, card_index, code, announce)[0]
    if type(rules).seats != 2:
        # three-player forms: the two-player hand of the two who play, scored by the game (JJ3-SCORE, JJ3-NULLO-1,
        # JJ4S-2/3: the inactive player and the dealer sitting out credited too)
        core, view, seats = two_player_form(rules, verdict)
        names = tuple((labels or rules.seat_labels)[x] for x in seats)
        state, line, end = _replayed(view, core, trick, card_index, code, announce, names)
        return WhatIf(state, line, rules.score_two_player_end(verdict.state, end), _as_played(verdict), end)
    state, line, end = _replayed(verdict, rules, trick, card_index, code, announce, labels)
    return WhatIf(state, line, rules.score_hand(end), _as_played(verdict), end)


def _replayed(verdict, rules, trick: int, card_index: int, card: int, announce: str, labels):
    """Two players: (the position after ``card``, the line, the end of the hand so played with best play after)."""
    state = play_start(rules, verdict.state)
    line: list[Action] = []
    for t in verdict.record.tricks:
        for j, p in enumerate(t.plays, 1):
            if (t.number, j) == (trick, card_index):
                return _finish_line(rules, state, line, card, announce, labels)
            a = Action(p.seat, "play", card=p.card, announce=p.announce)
            if state.phase != PLAY or rules.check(state, a) is not None:
                raise AnalysisError(f"the record's play stops before trick {trick}, card {card_index}")
            line.append(a)
            state = rules.advance(state, a)
    if state.phase == PLAY and (trick, card_index) == (state.tricks_done + 1, len(state.trick) + 1):
        return _finish_line(rules, state, line, card, announce, labels)
    raise AnalysisError(f"the hand has no trick {trick}, card {card_index}")


def _finish_line(rules, state, line, card, announce, labels=None):
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
        from ..rules.base import format_message

        raise IllegalPlayError(f"{card_name(card)} cannot be played there: {format_message(v.text, labels or rules.seat_labels)} ({v.rule})")
    state = rules.advance(state, a)
    line.append(a)
    end = state
    if state.phase == PLAY:
        solver = Solver(rules, state)
        for b in solver.principal_line(state):
            line.append(b)
            end = rules.advance(end, b)
    return state, tuple(line), end


def _as_played(verdict) -> HandScore | None:
    """The score of the hand as recorded, when its play was finished."""
    return verdict.score if verdict.state is not None and verdict.state.phase == DONE else None


def _partnership(rules) -> bool:
    return isinstance(rules, JojotteRules) and type(rules).seats == 4 and rules.trick_size == 4


def _sides_what_if(verdict, rules, trick: int, card_index: int, card: int | None, announce: str):
    """Four players in partnerships: `WhatIf` of ``card`` (None: the best legal card) at a point, solved from there
    by the one solver (`solver.substitute`: North-South's trick score minus East-West's, in a Nullo its tricks);
    also the `solver.Substitution`."""
    from .solver import JojotteSidesView, substitute

    s = _partnership_start(rules, verdict.state)
    line: list[Action] = []
    reached = False
    for t in verdict.record.tricks:
        for j, p in enumerate(t.plays, 1):
            if (t.number, j) == (trick, card_index):
                reached = True
                break
            a = Action(p.seat, "play", card=p.card, announce=(p.announce or "").lower())
            if s.phase != PLAY or rules.check(s, a) is not None:
                raise AnalysisError(f"the record's play stops before trick {trick}, card {card_index}")
            line.append(a)
            s = rules.advance(s, a)
        if reached:
            break
    if s.phase != PLAY or (s.tricks_done + 1, len(s.trick) + 1) != (trick, card_index):
        raise AnalysisError(f"the hand has no trick {trick}, card {card_index}")
    try:
        sub = substitute(JojotteSidesView(rules, s), s, card, (announce or "").lower())
    except ValueError as e:
        raise IllegalPlayError(f"{card_name(card)} cannot be played there: "
                            f"{format_message(str(e), rules.seat_labels)}") from None
    after = rules.advance(s, sub.action)
    return WhatIf(after, tuple(line) + sub.line, rules.score_hand(sub.end), _as_played(verdict)), sub


class Restoration(NamedTuple):
    """A hand with an illegal card, replayed with the best legal card in its place (``validate --restore``)."""

    trick: int
    card_index: int
    seat: int  # the player to move there (who should have played)
    played: int  # the illegal card recorded
    offender: int  # who played it (another seat when it was played out of turn)
    played_word: str  # the word said with it ("jo", "jotte" or "")
    best: tuple[tuple[int, str], ...]  # every best legal card there (card, word)
    restored: WhatIf  # the first best card, then best play by both to the end
    seats: tuple[int, ...] = (0, 1)  # the seats of the restored score's columns (the game's, for three players)
    sides: bool = False  # four players in partnerships: the score's columns are the two sides

    def text(self, names: tuple[str, ...]) -> str:
        best = " or ".join(card_name(c) + (f" {w}" if w else "") for c, w in self.best)
        played = card_name(self.played) + (f" {self.played_word}" if self.played_word else "")
        if self.offender == self.seat:
            return (f"trick {self.trick}, card {self.card_index}: had {names[self.seat]} played {best} instead of "
                    f"{played} (best play afterwards)")
        return (f"trick {self.trick}, card {self.card_index}: {names[self.offender]} played {played} out of "
                f"turn; had {names[self.seat]} played {best} (best play afterwards)")

    def as_json(self, names: tuple[str, ...], columns: tuple[str, ...] | None = None) -> dict:
        """``names``: the players by seat; ``columns``: the score's columns (the sides, when `sides`)."""
        s = self.restored.score
        col = ({i: (columns or ("side 1", "side 2"))[i] for i in (0, 1)} if self.sides
               else {i: (columns or names)[seat] for i, seat in enumerate(self.seats)})
        return {"trick": self.trick, "card": self.card_index, "seat": names[self.seat], "offender": names[self.offender],
                "played": card_name(self.played) + (f" {self.played_word}" if self.played_word else ""),
                "best": [card_name(c) + (f" {w}" if w else "") for c, w in self.best],
                "line": [card_name(a.card) + (f" {a.announce}" if a.announce else "") for a in self.restored.line],
                "score": {col[i]: {"trick_points": s.trick_points[i], "total": s.total[i], "below": s.below(i),
                                   "above": s.above(i)} for i in col}
                         | {"winner": col[s.winner] if s.winner >= 0 else None, "held_aside": s.held_aside}}


@without_cycle_collection
def restore(verdict, rules: JojotteRules | None = None) -> Restoration:
    """What the hand of ``verdict`` would have scored had its first illegal card been the best legal card
    there (the most the player to move can force: trick-score difference; in a Nullo the Nullo's tricks),
    with best play by both afterwards, so that an arbiter can restore the equity.

    Raises:
        AnalysisError: no illegal card in the play, or a hand that cannot be analysed.
    """
    rules = rules or JojotteRules()
    issue = verdict.first_illegal
    loc = issue.loc if issue is not None else None
    if issue is None:
        raise AnalysisError("the hand has no illegal event")
    if loc is None or loc.trick is None or loc.card is None:
        raise AnalysisError(f"the illegal event is not a card ({issue.rule}), so there is no card to restore")
    if _partnership(rules):  # four players in partnerships: the one solver (`solver`), from any card
        found = [(p.card, p.seat, (p.announce or "").lower()) for t in verdict.record.tricks
                 for j, p in enumerate(t.plays, 1) if (t.number, j) == (loc.trick, loc.card)]
        if not found:
            raise AnalysisError(f"the record has no trick {loc.trick}, card {loc.card}")
        played, offender, word = found[0]
        w, sub = _sides_what_if(verdict, rules, loc.trick, loc.card, None, "")
        return Restoration(loc.trick, loc.card, sub.seat, played, offender, word,
                           tuple((a.card, a.announce) for a in sub.best if a.kind == "play"), w, (0, 1), True)
    core, view, seats = two_player_form(rules, verdict)  # three-player forms: the two players' game
    found = [(p.card, p.seat, (p.announce or "").lower()) for t in verdict.record.tricks
             for j, p in enumerate(t.plays, 1) if (t.number, j) == (loc.trick, loc.card)]
    if not found:
        raise AnalysisError(f"the record has no trick {loc.trick}, card {loc.card}")
    played, offender, word = found[0]
    state = play_start(core, view.state)
    for t in view.record.tricks:
        for j, p in enumerate(t.plays, 1):
            if (t.number, j) == (loc.trick, loc.card) or state.phase != PLAY:
                break
            state = core.advance(state, Action(p.seat, "play", card=p.card, announce=p.announce))
        else:
            continue
        break
    if state.phase != PLAY or (state.tricks_done + 1, len(state.trick) + 1) != (loc.trick, loc.card):
        raise AnalysisError(f"trick {loc.trick}, card {loc.card} is not in the replay")
    solver = Solver(core, state)
    _, best = solver.best_moves(state, -1 if state.denomination == "nullo" else 0)
    card, best_word = best[0]
    restored = what_if(verdict, rules, loc.trick, loc.card, card, best_word)  # three players: scored by the game
    columns = seats if view is verdict else tuple(range(len(restored.score.total)))
    return Restoration(loc.trick, loc.card, seats[core.current_player(state)], played, offender, word, tuple(best),
                       restored, columns)


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
    if trick < 1 or not 1 <= card <= 4:
        raise ValueError(f"invalid point '{text}' (trick from 1, card 1 to 4)")
    return trick, card


# --- files: analysing, JSON, annotated records ------------------------------------------

class HandAnalysis(NamedTuple):
    """The analysis of one recorded hand; ``reason`` says why it was not analysed (then ``cards`` is empty)."""

    number: int
    record: HandRecord  # annotated with [%dd …] comments when analysed
    cards: tuple[CardAnalysis, ...]
    reason: str | None = None
    start: Value | None = None  # the value at the first lead (None for four players: see ``note``)
    seats: tuple[int, int] = (0, 1)  # the seats of the two players (the cards' seats, values and outcomes are 0, 1 for them)
    sides: bool = False  # four players in partnerships: the cards' seats are the players', values are side 0's (N-S)
    note: str = ""  # four players: where the analysis starts ("from trick 5, card 1 (16 cards left)")
    ending: object = None  # Baloot: the last tricks, exactly (`analyze_events.EndingAnalysis`)

    def labels(self, labels: tuple[str, ...]) -> tuple[str, str]:
        """The two players' (or, four players, the two sides') labels or names among the session's ``labels``."""
        if self.sides:
            return tuple(" and ".join(labels[s] for s in range(len(labels)) if s % 2 == side) for side in (0, 1))
        return tuple(labels[s] for s in self.seats)

    def side(self, c: CardAnalysis) -> int:
        """Whose values a card's are: 0 or 1 (the player, or with ``sides`` his side)."""
        return c.seat % 2 if self.sides else c.seat

    def cost(self, seat: int) -> int:
        return sum(c.cost for c in self.cards if self.side(c) == seat)

    def count(self, seat: int, mark: str) -> int:
        return sum(1 for c in self.cards if self.side(c) == seat and mark in c.marks)


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
    from ..rules.base import find_variant

    try:
        cls = find_variant(header.get("Game") or "jojotte")
        variant = header.get("Variant")
        return cls(cls.options_class.parse(variant) if variant else None)
    except ValueError:
        return JojotteRules()


class _View(NamedTuple):
    """A hand of a three-player form seen as the two-player hand its two active players play."""

    number: int
    record: HandRecord  # the plays of the two players, their seats 0 (declarer or Nullo bidder) and 1
    state: JJState
    first_illegal: object = None
    score: object = None  # the two players' score of the hand as played (the core's), when it was finished


def two_player_form(rules, verdict):
    """The two-player game a hand is played as: (its rules, the verdict seen in it, the seats of its players).

    Two-player Jo-Jotte is itself; the box form (JJ3-ALT-1) is the two-player game of the box and the
    captain; the three-player game (JJ3) and the four-player game without partners (JJ4S) are the
    two-player game of the declarer (the Nullo bidder in a Nullo) and the active defender, whose view
    the core gives (``two_seats``): the analysis is theirs, the inactive player's hand is out of play.

    Raises:
        AnalysisError: a form whose play is not between two players (four players in partnerships, Baloot).
    """
    st = verdict.state
    if not isinstance(rules, JojotteRules):
        raise AnalysisError(f"{rules.name} is not analysed (Jo-Jotte forms only)")
    if rules.trick_size != 2:
        raise AnalysisError(f"{rules.name}: four players in partnerships are analysed by the one solver "
                            "(`analyze_partnership`), not as a two-player hand")
    duel = rules.two_player_view(st)
    if duel is None:
        raise AnalysisError(f"{rules.name} is not analysed (two-player play only)")
    two, view, seats = duel
    if not seats:
        raise AnalysisError("the hand has no card play to analyse")
    if view is st:  # two players, or the box form (a two-player hand between the box and the captain)
        return two, verdict, seats
    x, y = seats
    idx = {x: 0, y: 1}
    tricks = []
    for t in verdict.record.tricks:
        plays = []
        for p in t.plays:
            if p.seat not in idx:
                break  # a card of the inactive player: the validator names it, the analysis stops before it
            plays.append(p._replace(seat=idx[p.seat]))
        tricks.append(t._replace(plays=tuple(plays)))
        if len(plays) < len(t.plays):
            break
    record = verdict.record._replace(tricks=tuple(tricks))
    score = two.score_hand(view) if view.phase == DONE else None
    return two, _View(verdict.number, record, view, verdict.first_illegal, score), (x, y)


@without_cycle_collection
def analyze_verdict(verdict, rules: JojotteRules, cards: int | None = None) -> HandAnalysis:
    """One hand: its cards judged and its record annotated, or the reason it cannot be analysed. ``cards``: four
    players in partnerships and Baloot are analysed from the point where that many cards are left (`ENDGAME_CARDS`
    by default; 32: from the first card)."""
    last = ENDGAME_CARDS if cards is None else cards
    if rules.name == "baloot":  # the last tricks, exactly (analyze_events)
        from . import endings

        if verdict.issues:
            return HandAnalysis(verdict.number, verdict.record, (), "the hand has findings; its play is not analysed")
        ending = endings.analyze_ending(rules, verdict, last)
        if ending is None:
            return HandAnalysis(verdict.number, verdict.record, (), f"the play stops before {last} cards remain")
        return HandAnalysis(verdict.number, endings.annotate_ending(verdict.record, ending), (), None, None, (0, 1), True,
                            "from the first lead" if ending.start_trick == 1 else
                            f"from trick {ending.start_trick} ({last} cards left)", ending)
    if rules.name == "pitch":  # from the first lead (after the refill and burn), the one solver
        from .endings import analyze_pitch, annotate_ending

        if verdict.issues:
            return HandAnalysis(verdict.number, verdict.record, (), "the hand has findings; its play is not analysed")
        ending = analyze_pitch(rules, verdict)
        if ending is None:
            return HandAnalysis(verdict.number, verdict.record, (), "no card play to analyse")
        return HandAnalysis(verdict.number, annotate_ending(verdict.record, ending), (), None, None, (0, 1), True,
                            "from the first lead", ending)
    if isinstance(rules, JojotteRules) and type(rules).seats == 4 and rules.trick_size == 4:
        try:  # four players in partnerships: the last tricks, exactly
            judged, note = analyze_partnership(verdict, rules, last)
        except AnalysisError as e:
            return HandAnalysis(verdict.number, verdict.record, (), str(e))
        if not judged:
            return HandAnalysis(verdict.number, verdict.record, (), f"the play stops before {last} cards remain")
        labels = rules.seat_labels
        sides = "+".join(labels[0::2]) + "-" + "+".join(labels[1::2])
        return HandAnalysis(verdict.number, annotate_hand(verdict.record, judged, sides), tuple(judged), None, None,
                            (0, 1), True, note)
    try:
        core, view, seats = two_player_form(rules, verdict)
        start = play_start(core, view.state)
        solver = Solver(core, start)
        game = None if view is verdict else (rules, verdict.state, seats)
        cards = analyze_hand(view, core, solver=solver, game=game)
        value = solver.solve(start)
    except AnalysisError as e:
        return HandAnalysis(verdict.number, verdict.record, (), str(e))
    sides = "" if type(rules).seats == 2 else "-".join(rules.seat_labels[s] for s in seats)
    return HandAnalysis(verdict.number, annotate_hand(verdict.record, cards, sides), tuple(cards), None, value, seats)


def analyze_paths(paths, on_hand=None, jobs: int = 1, from_trick: int | None = None):
    """Analyse every hand of the record files and folders ``paths``; yields a `FileAnalysis` per file.

    ``from_trick``: four players in partnerships and Baloot (eight tricks of four cards) are analysed from that
    trick on (1: from the first card; by default from the point where `ENDGAME_CARDS` cards are left, trick 3).

    ``on_hand(analysis)`` is called after each hand (progress). ``jobs``: the hands are fanned out to that many
    worker processes (`replay.pool.ordered_map`; 0: every core), the results taken in the input's order, so the
    analysis is the same as with one process.
    """
    from ..games import player_names
    from ..replay.files import check_paths
    from ..replay.pool import ordered_map

    files: dict[int, object] = {}
    cards = None if from_trick is None else (9 - from_trick) * 4

    def items():  # every hand to analyse, and a mark where a file or a session starts (passed through as it is)
        for i, result in enumerate(check_paths(paths, keep_hands=True)):
            files[i] = result
            yield ("file", i)
            for summary, verdicts in result.sessions:
                rules = rules_for(summary.header)
                yield ("session", rules)
                for v in verdicts:
                    yield (v, rules, cards)
        yield ("file", -1)

    current, sessions, hands, header = None, [], [], None

    def session_done():
        if header is not None:
            summary, rules = header
            labels = summary.seat_labels or rules.seat_labels
            sessions.append(SessionAnalysis(summary.header, labels, player_names(summary.header, labels), tuple(hands)))

    summaries = None
    for got in ordered_map(_analyze_item, items(), jobs, preload=("jojotte_records.analyze.jojotte",)):
        if isinstance(got, HandAnalysis):
            hands.append(got)
            if on_hand is not None:
                on_hand(got)
        elif got[0] == "session":
            session_done()
            header, hands = (next(summaries), got[1]), []
        else:  # a file starts (or the input ends): the file before is complete
            session_done()
            if current is not None:
                yield FileAnalysis(current.source, tuple(sessions), current.read_error)
            if got[1] < 0:
                return
            current = files.pop(got[1])
            summaries = (summary for summary, _ in current.sessions)
            sessions, hands, header = [], [], None


def _analyze_item(item):
    """One piece of `analyze_paths`: a hand's analysis, or a mark passed through."""
    if isinstance(item[0], str):
        return item
    return analyze_verdict(*item)


def hand_json(h: HandAnalysis, labels: tuple[str, ...]) -> dict:
    doc = {"hand": h.number, "analysed": h.reason is None, "reason": h.reason}
    if h.ending is not None:  # Baloot: the declaring team's card points over the last tricks
        e = h.ending
        doc.update({"from": h.note, "team": e.label.replace("+", "") or ("NS", "WE")[e.team],
                    ("card_points" if e.unit == "card points" else "points"): e.value,
                    "cards": [{"trick": c.trick, "card": c.index, "seat": labels[c.seat], "played": card_name(c.card),
                               "before": c.before, "after": c.after, "cost": c.cost,
                               "best": [card_name(b) for b in c.best], "marks": list(c.marks)} for c in e.cards]})
        return doc
    if h.reason is None:
        seat_labels = labels
        labels = h.labels(labels)
        doc["sides"] = list(labels)  # whose values: "before" and "after" are the first's minus the second's
        v = h.start
        if v is None:  # four players: from the last tricks
            doc["start"] = None
            doc["from"] = h.note
            doc["players"] = {labels[s]: {"cost": h.cost(s), "inaccuracies": h.count(s, "inaccuracy"),
                                          "mistakes": h.count(s, "mistake"), "blunders": h.count(s, "blunder")}
                              for s in (0, 1)}
            doc["cards"] = [c.as_json(seat_labels) | {"outcome_before": c.outcome_before.text(labels),
                                                      "outcome_after": c.outcome_after.text(labels)} for c in h.cards]
            return doc
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
            cards += sum(len(h.cards) + (len(h.ending.cards) if h.ending is not None else 0) for h in s.hands)
        files.append({"source": r.source, "read_error": str(r.read_error) if r.read_error else None, "sessions": sessions})
    return {"format_version": 1, "summary": {"files": len(results), "hands": hands, "analysed": analysed, "cards": cards},
            "files": files}


def write_annotated(results: list[FileAnalysis], out) -> None:
    """The annotated records, in canonical notation, every session of every file."""
    from ..notation.text import write_stream

    write_stream((item for r in results for s in r.sessions for item in (s.header, *(h.record for h in s.hands))), out)


def what_if_file(path: str, hand: int, at: str, card: str, session: int = 1) -> tuple[WhatIf, tuple[str, ...]]:
    """`what_if` for hand ``hand`` of session ``session`` of a record file; also the players' names.

    Raises:
        IllegalPlayError: the card is not legal there.
        AnalysisError: no such hand or point, or a hand that cannot be analysed.
        ValueError: ``at`` or ``card`` cannot be read.
    """
    from ..replay.files import check_file

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
    rules = rules_for(summary.header)
    if not isinstance(rules, JojotteRules):  # Baloot, Pitch: the one solver, from any card (`analyze_events`)
        from .endings import NoSuchPoint, what_if_event

        sheet = rules.new_sheet()
        for v in verdicts:
            if v.number == hand:
                try:
                    return what_if_event(v, rules, trick, index, code, word, sheet), summary.seat_names or summary.names
                except NoSuchPoint as e:
                    raise AnalysisError(f"hand {hand}: {e}") from None
                except ValueError as e:
                    raise IllegalPlayError(f"{card_name(code)} at {trick}.{index}: "
                                        f"{format_message(str(e), summary.seat_names or rules.seat_labels)}") from None
            sheet = v.sheet
        raise AnalysisError(f"{path} has no hand {hand}")
    for v in verdicts:
        if v.number == hand:
            return what_if(v, rules, trick, index, code, word, summary.seat_names or None), summary.names  # columns
    raise AnalysisError(f"{path} has no hand {hand}")
