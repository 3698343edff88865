"""The fast replay of a two-player Jo-Jotte hand (issue 14): the same final state as the explaining loop, or None.

`fast_hand` vouches only for a hand recorded in full (every card dealt and drawn, the turned and information
cards, nine tricks of two cards, no ``?``, no claim, no result line, no stock) whose every event is legal and
whose written trick winners are right, or a hand all passed (JJ-BID-12) recorded as its six cards a seat, the
turned card and the auction; anything else returns None and `replay.JojotteCodec.steps` explains it. No rule is
written here. The deal and the draw are checked by the rules' one bitmask test of a record in full
(`JojotteRules.dealt_in_full`); the state after the draw is reached once through the rules' `check` and `advance` and
memoised on the dealer, the turned card and the auction (which never read the cards, JJ-BID); each call after the
draw is memoised on what it reads (the state less its cards, dealer and turned card, and for shown melds the cards
of those melds and the neighbours of their sequences, JJ-MELD-4/15), a dix or an unshown meld going through the
rules on the whole state, as does every trick with an announcement; the second card of a trick not plainly following is checked by the rules'
own play function (`jojotte_cards.legal_play_mask`, JJ-PLAY-2…7), memoised on the cards of the suit led and of
trumps it reads; a trick is scored from one table of the rules' `trick_winner` and `trick_points`. Within the hand
the card play keeps its state in local variables and builds the final `JJState` once. Tests
(tests/test_fast_path.py) hold this to the explaining loop on simulated and mutated records, and on hands built to
defeat each shortcut.
"""

from __future__ import annotations

from functools import lru_cache
from operator import itemgetter

from ..cards import SUIT_MASKS, mask_of
from ..notation.model import UNKNOWN_CARD, Play
from ..notation.text import CompactHand
from ..rules.base import CHANCE, Action
from ..rules.jojotte import AFTER, AUCTION, DONE, DRAW, PLAY, VOID_HAND, JJState, JojotteRules
from ..rules.jojotte_cards import legal_play_mask, trick_points, trick_winner

_FIELDS = JJState._fields
# what the calls of the auction and the calls after the draw other than melds and the dix never read
_CARD_FIELDS = frozenset(("hands", "unknown", "seen", "info"))
_KEY_OF = itemgetter(*(i for i, f in enumerate(_FIELDS) if f not in _CARD_FIELDS))
_CARD_AT = tuple(i for i, f in enumerate(_FIELDS) if f in _CARD_FIELDS)
assert _CARD_AT == (2, 3, 4, 6), _CARD_AT  # `_with_cards` puts them back by these places
# and what the calls after the draw other than the dix never read either: who dealt and the turned card (their
# caller and their choices follow the declarer, the step and the double, JJ-POST-1…6; the dix reads the turned card)
_AFTER_KEY_OF = itemgetter(*(i for i, f in enumerate(_FIELDS) if f not in _CARD_FIELDS | {"dealer", "turned"}))
assert _FIELDS.index("dealer") == 1 and _FIELDS.index("turned") == 5  # `_with_hand` puts them back by these places
_CALL_KEY = itemgetter(0, 1, 2, 3)  # a call's seat, kind, suit and melds: what the rules read of it
_CARDS = JojotteRules.pack.cards
_WIDTH = max(_CARDS) + 1


@lru_cache(maxsize=None)
def _trick_tables(nullo: bool, trump: int) -> tuple[list[int], list[int]]:
    """For Nullo or not and a trump (-1 for none, then 0…3), not the last trick and the last trick: for every
    two-card trick ``a, b`` at ``a * _WIDTH + b``, twice the points it carries plus the index of the card that wins
    it, from the rules' own `trick_points` and `trick_winner` (JJ-PTS-1/2, JJ-PLAY-8). Made on first use: a run
    that replays one hand makes one pair of the ten (start-up, issue 14)."""
    both = []
    for last in (False, True):
        t = [0] * (_WIDTH * _WIDTH)
        for a in _CARDS:
            for b in _CARDS:
                t[a * _WIDTH + b] = 2 * trick_points((a, b), trump, last, nullo) + trick_winner((a, b), trump)
        both.append(t)
    return both[0], both[1]


def _plain_tricks(tricks) -> list[tuple] | None:
    """A `HandRecord`'s tricks as the plain values `JojotteFast._play` reads (those of
    `notation.text.SessionReader.compact_trick`), or None when one is not two cards with no call among them (a late
    dix: explained)."""
    out = []
    for t in tricks:
        if t.calls or len(t.plays) != 2:
            return None
        a, b = t.plays
        out.append((t.number, a.seat, a.card, a.announce, b.seat, b.card, b.announce, t.winner))
    return out


def _with_cards(after: JJState, state: JJState) -> JJState:
    """``after`` with the cards of ``state`` (hands, unknown, seen, info: `_CARD_AT`), all else ``after``'s."""
    return JJState._make((after[0], after[1], state[2], state[3], state[4], after[5], state[6], *after[7:]))


def _with_hand(after: JJState, state: JJState) -> JJState:
    """``after`` with the cards, the dealer and the turned card of ``state``, all else ``after``'s."""
    return JJState._make((after[0], state[1], state[2], state[3], state[4], state[5], state[6], *after[7:]))


# The memos of `JojotteFast`, shared by the sessions of one process with the same options (a worker of ``--jobs``
# validates many chunks of sessions: each would otherwise start cold): options -> (memo, drawn_memo, after_ids,
# legal). What they hold is decided by the rules of the two-player game and its options alone.
_MEMOS: dict = {}
MEMO_LIMIT = 100_000  # entries per options in the calls', the steps', the draws' memos and the draws' numbers; a session beyond starts them afresh


def _memos(options) -> tuple:
    got = _MEMOS.get(options)
    if got is None or sum(map(len, got[:4])) > MEMO_LIMIT:
        got = _MEMOS[options] = ({}, {}, {}, {}, tuple({} for _ in range(5)))
    return got


def fast_for(rules) -> "JojotteFast | None":
    """The fast replay of a session's rules when it knows the game (the two-player game itself, not a form built
    on it), else None."""
    return JojotteFast(rules) if type(rules) is JojotteRules else None


class JojotteFast:
    """The fast replay of one session's rules (one per validator), with the memos of its options (`_memos`)."""

    def __init__(self, rules: JojotteRules):
        self.rules = rules
        # `_calls`; `_after`; `_drawn`; `_drawn`'s number for each state after the draw, less what no call after it
        # reads; `_legal`, per trump (-1 for none, then 0…3)
        self.memo, self.step_memo, self.drawn_memo, self.after_ids, self.legal = _memos(rules.options)
        self.trick_size = rules.trick_size
        self.tricks_per_hand = rules.tricks_per_hand
        self.dealt = rules.dealt_per_seat
        self.drawn = rules.drawn_per_seat
        self.overtrump = rules.options.overtrump_on_ruff
        self.maximal = rules.options.sequence_must_be_maximal

    def _calls(self, state: JJState, calls: tuple, phase: str):
        """The state after ``calls`` of the auction (each checked and applied by the rules, while the phase is
        ``phase``), or None when one is illegal or comes after the phase ended. Memoised on the state less its cards
        and on the calls: the calls of the auction never read the cards (JJ-BID)."""
        key = (_KEY_OF(state), tuple(map(_CALL_KEY, calls)))
        memo = self.memo
        if key in memo:
            after = memo[key]
            return None if after is None else _with_cards(after, state)
        rules = self.rules
        s = state
        for c in calls:
            if s.phase != phase:
                s = None
                break
            a = Action(c.seat, c.kind, suit=c.suit, melds=c.melds)
            if rules.check(s, a) is not None:
                s = None
                break
            s = rules.advance(s, a)
        if s is not None and any(s[i] != state[i] for i in _CARD_AT):
            s = None  # never: these calls do not touch the cards
        memo[key] = s  # any state of the same key reaches it, with its own cards
        return s

    def _drawn(self, hand, init: tuple, draws: tuple, seen: int) -> tuple[JJState, int] | None:
        """The state after the deal, the auction and the draw of a hand recorded in full whose cards
        `JojotteRules.dealt_in_full` found legal (``seen``: all of them), or None. What the auction decides does
        not read the cards (JJ-BID): the state less its cards is memoised on the dealer, the turned card and the
        calls, and reached once through the rules (the deal, each call, the draw checked and applied). With the
        state, the number of what the calls after the draw read of it (`_AFTER_KEY_OF`), their memo's key."""
        key = (hand.dealer, hand.turned, tuple(map(_CALL_KEY, hand.auction)))
        memo = self.drawn_memo
        got = memo.get(key)
        hands = (init[0] | draws[0], init[1] | draws[1])
        if got is None:
            rules = self.rules
            s = rules.initial_state(hand.dealer)
            deal = rules.deal_action(init, hand.turned, (0, 0), draws)
            if rules.check(s, deal) is not None:
                return None  # never: `dealt_in_full` accepts only what the checks accept
            s = self._calls(rules.advance(s, deal), hand.auction, AUCTION)
            if s is None or s.phase != DRAW:
                memo[key] = False  # unfinished, void (recorded without the draw) or illegal: explained
                return None
            draw = Action(CHANCE, "draw", cards=draws, info=hand.info)
            if rules.check(s, draw) is not None:
                return None  # never, as for the deal
            after = rules.advance(s, draw)
            if (after.phase != AFTER or after.hands != hands or any(after.unknown) or after.seen != seen
                    or after.info != hand.info):
                return None  # never: the cards after the draw are the hands' and the draws'
            ids = self.after_ids
            got = memo[key] = after, ids.setdefault(_AFTER_KEY_OF(after), len(ids))
            return got
        if got is False:
            return None
        after, kid = got
        return JJState._make((after[0], after[1], hands, (0, 0), seen, after[5], hand.info, *after[7:])), kid

    def hand(self, hand) -> JJState | None:
        if hand.claim >= 0 or hand.result or hand.stock is not None or hand.turned is None:
            return None
        compact = type(hand) is CompactHand
        masks = hand.masks if compact else None  # a canonical deal line read as bitmasks (`CompactHand`)
        if masks is not None:
            if hand.info is None or len(hand.tricks) != self.tricks_per_hand:
                return None
            init, draws = masks[:2], masks[2:]
        else:
            got = self._masks(hand)
            if got is None:
                return self._void(hand) if hand.drawn is None else None
            init, draws = got
        # the deal and the draw (JJ-DEAL-3/5, JJ-INV-1, JJ-DRAW-1/4): a card written twice fails the count
        seen = self.rules.dealt_in_full(init, hand.turned, draws, hand.info)
        if not seen:
            return None
        got = self._drawn(hand, init, draws, seen)
        if got is None:
            return None
        s = self._after(*got, hand.after)
        if s is None or s.phase != PLAY or s.trick or s.tricks_done:
            return None
        tricks = hand.tricks if compact else _plain_tricks(hand.tricks)
        return None if tricks is None else self._play(s, tricks)

    def _masks(self, hand) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """The masks of each seat's first cards and of each seat's draw of a hand recorded with its draw, its
        information card and its nine tricks, every seat's cards written in full with no ``?``; else None."""
        if hand.drawn is None or hand.info is None or not hand.split or len(hand.tricks) != self.tricks_per_hand:
            return None
        dealt = self.dealt
        drawn = self.drawn
        d0, d1 = hand.dealt
        r0, r1 = hand.drawn
        if (d0 is None or d1 is None or r0 is None or r1 is None or len(d0) != dealt or len(d1) != dealt
                or len(r0) != drawn or len(r1) != drawn):
            return None
        try:
            return (mask_of(d0), mask_of(d1)), (mask_of(r0), mask_of(r1))
        except ValueError:  # a ``?`` (UNKNOWN_CARD, negative): explained
            return None

    def _after(self, s: JJState, kid: int, calls: tuple) -> JJState | None:
        """The state after the calls that follow the draw (``s``: the state after the draw, ``kid``: the number of
        what they read of it, `_drawn`), or None. Each call is checked and applied by the rules once and memoised
        (`step_memo`) on the number of the state it is made in, the call, and for a declaration of shown melds the
        cards of the declarer's hand its melds read (JJ-MELD-4, and the neighbours of its sequences when they must
        be maximal, JJ-MELD-15): no other call after the draw reads the cards, the dealer or the turned card
        (JJ-POST-1…6). A dix (which moves cards, JJ-DIX) and a declaration of melds not shown or irregular (which
        read more of the hand) are checked and applied by the rules on the whole state, with no memo."""
        memo = self.step_memo
        rules = self.rules
        hands = s.hands
        cur = None  # the state reached (a memo's, with another hand's cards), or None: ``s`` itself
        for c in calls:
            kind = c.kind
            seat = c.seat
            held = 0
            if kind == "melds":
                reads = seqs = 0
                for m in c.melds:
                    if m.cards or not m.shown:
                        reads = -1
                        break
                    reads |= m.mask
                    if m.kind == "seq":
                        seqs |= m.mask
                if reads >= 0 and (seat == 0 or seat == 1):
                    if self.maximal:
                        reads |= (seqs << 1) | (seqs >> 1)
                    held = hands[seat] & reads
                else:
                    kind = "dix"  # through the rules, as a dix
            if kind == "dix":
                full = s if cur is None else _with_hand(cur, s)
                if full.phase != AFTER and (full.phase != PLAY or c.kind != "dix"):
                    return None
                a = Action(seat, c.kind, melds=c.melds)
                if rules.check(full, a) is not None:
                    return None
                s = rules.advance(full, a)
                if any(s.unknown):
                    return None
                hands = s.hands
                cur = None
                ids = self.after_ids
                kid = ids.setdefault(_AFTER_KEY_OF(s), len(ids))
                continue
            key = (kid, seat, kind, c.melds, held)
            got = memo.get(key)
            if got is None:
                got = self._step(s if cur is None else _with_hand(cur, s), c)
                if len(memo) < 65536:
                    memo[key] = got
            if got is False:
                return None
            cur, kid = got
        return s if cur is None else _with_hand(cur, s)

    def _step(self, s: JJState, c) -> tuple[JJState, int] | bool:
        """A call after the draw checked and applied by the rules in ``s``: the state it reaches with the number of
        what the calls after it read (`_AFTER_KEY_OF`), or False when it is illegal or comes after the calls."""
        if s.phase != AFTER:
            return False
        rules = self.rules
        a = Action(c.seat, c.kind, melds=c.melds)
        if rules.check(s, a) is not None:
            return False
        after = rules.advance(s, a)
        if any(after[i] != s[i] for i in _CARD_AT) or after[1] != s[1] or after[5] != s[5]:
            return False  # never: these calls do not touch the cards, the dealer or the turned card
        ids = self.after_ids
        return after, ids.setdefault(_AFTER_KEY_OF(after), len(ids))

    def _void(self, hand) -> JJState | None:
        """A hand all four passed (JJ-BID-12), recorded as its first six cards a seat and the turned card, with no
        draw, information card, calls after the draw or tricks: the state the rules reach after the deal and the
        auction (the deal checked by the rules, JJ-DEAL-3/5, JJ-INV-1), or None for anything else."""
        if hand.split or hand.info is not None or hand.after or hand.tricks or UNKNOWN_CARD == hand.turned:
            return None
        rules = self.rules
        init = []
        for d in hand.dealt:
            if d is None or len(d) != self.dealt or UNKNOWN_CARD in d:
                return None
            m = mask_of(d)
            if m.bit_count() != self.dealt:
                return None
            init.append(m)
        s = rules.initial_state(hand.dealer)
        deal = rules.deal_action(tuple(init), hand.turned, (0, 0), (0, 0))
        if rules.check(s, deal) is not None:
            return None
        s = self._calls(rules.advance(s, deal), hand.auction, AUCTION)
        return s if s is not None and s.phase == VOID_HAND else None

    def _play(self, s: JJState, tricks) -> JJState | None:
        """The nine tricks from the first lead (JJ-PLAY-1…8), or None at the first card not plainly legal. Each trick
        as its plain values (`notation.text.SessionReader.compact_trick`, `_plain_tricks`)."""
        hands = list(s.hands)
        trump = s.trump
        nullo = s.denomination == "nullo"
        leader = s.leader
        seen, jo = s.seen, s.jo
        won = [0, 0]
        pts = [0, 0]
        history = []
        legal = self.legal[trump + 1]
        trumps = SUIT_MASKS[trump] if trump >= 0 else 0
        table, last_table = _trick_tables(nullo, trump)
        width = _WIDTH
        last_no = self.tricks_per_hand
        win = -1
        try:
            for done, (_, sa, ca, aa, sb, cb, ab, written) in enumerate(tricks, 1):
                if aa or ab:
                    # said with a card (JJ-JOJOTTE): the rules check and apply the trick from a state built here
                    st = self._announced(s, hands, seen, done - 1, leader, won, pts, jo, history,
                                         (Play(sa, ca, aa), Play(sb, cb, ab)))
                    if st is None:
                        return None
                    hands = list(st.hands)
                    seen, jo = st.seen, st.jo
                    won = list(st.won)
                    pts = list(st.card_pts)
                    history.append(st.history[-1])
                    win = leader = st.leader
                else:
                    if sa != leader or sb == leader:
                        return None
                    ba, bb = 1 << ca, 1 << cb  # a ``?`` (negative) raises: explained
                    ha, hb = hands[sa], hands[sb]
                    if not ha & ba or not hb & bb:
                        return None  # a card the player does not hold (JJ-INV-2): explained
                    if (ca ^ cb) >> 4 or ca >> 4 == trump:  # not a plain suit followed: the rules' own play check
                        key = (hb & (SUIT_MASKS[ca >> 4] | trumps)) << 6 | ca
                        m = legal.get(key)
                        if m is None:
                            m = self._legal(key, trump, legal)
                        if not m & bb:
                            return None
                    hands[sa] = ha ^ ba
                    hands[sb] = hb ^ bb
                    got = (table if done != last_no else last_table)[ca * width + cb]
                    win = sa ^ (got & 1)  # seats 0 and 1: the leader, or the other
                    won[win] += 1
                    pts[win] += got >> 1
                    history.append((sa, (ca, cb), win))
                    leader = win
                if written >= 0 and written != win:
                    return None  # a wrong trick winner written (JJ-PLAY-8): explained
        except ValueError:
            return None
        return JJState(DONE, s.dealer, tuple(hands), (0, 0), seen, s.turned, s.info, s.node, s.bidder, s.denomination,
                       trump, s.mult, s.doubler, s.step, s.nullo_bidder, s.slam, s.melds, s.dix, last_no, win, (),
                       tuple(won), tuple(pts), win, jo, tuple(history))

    def _legal(self, key: int, trump: int, memo: dict) -> int:
        """The cards the second player may play to a trick led by card ``key & 63``, holding the cards
        ``key >> 6`` of the suit led and of trumps (JJ-PLAY-3…7, the rules' `legal_play_mask`), memoised in
        ``memo``; -1 when any card of the hand may be played. `legal_play_mask` reads the hand only through
        those two suits, and otherwise allows the whole hand (JJ-PLAY-7)."""
        rule = legal_play_mask(key >> 6, (key & 63,), trump, self.overtrump)
        m = -1 if rule.rule == "JJ-PLAY-7" else rule.mask
        if len(memo) < 65536:
            memo[key] = m
        return m

    def _announced(self, s: JJState, hands, seen, done, leader, won, pts, jo, history, plays) -> JJState | None:
        """A trick with an announcement, checked and applied card by card by the rules from the state reached."""
        rules = self.rules
        st = JJState(PLAY, s.dealer, tuple(hands), (0, 0), seen, s.turned, s.info, s.node, s.bidder,
                     s.denomination, s.trump, s.mult, s.doubler, s.step, s.nullo_bidder, s.slam, s.melds, s.dix,
                     done, leader, (), tuple(won), tuple(pts), -1, jo, tuple(history))
        for p in plays:
            if rules.check(st, p) is not None:
                return None
            st = rules.advance(st, p)
        return None if any(st.unknown) else st
