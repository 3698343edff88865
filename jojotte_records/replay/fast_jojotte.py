"""The fast replay of a two-player Jo-Jotte hand (issue 14): the same final state as the explaining loop, or None.

`fast_hand` vouches only for a hand recorded in full (every card dealt and drawn, the turned and information
cards, nine tricks of two cards, no ``?``, no claim, no result line, no stock) whose every event is legal and
whose written trick winners are right, or a hand all passed (JJ-BID-12) recorded as its six cards a seat, the
turned card and the auction; anything else returns None and `replay.JojotteCodec.steps` explains it. No rule is written here: the deal, the draw, the calls after the draw that name melds or the dix, and
every card said with an announcement are checked and applied by the rules themselves (`Rules.check`,
`Rules.advance`); the auction and the other calls after the draw, which do not look at the cards, are
memoised on what decides them (the state less its cards) and replayed once through the rules; a card is
checked by the rules' own play function (`jojotte_cards.legal_play_mask`, JJ-PLAY-2…7) and a trick scored
by the rules' own `trick_winner` and `trick_points`. Within the hand the card play keeps its state in local
variables and builds the final `JJState` once. A property test (tests/test_fast_path.py) holds this to the
explaining loop on simulated and mutated records.
"""

from __future__ import annotations

from operator import itemgetter

from ..cards import mask_of
from ..notation.model import UNKNOWN_CARD
from ..rules.base import CHANCE, Action
from ..rules.jojotte import AFTER, AUCTION, DONE, PLAY, VOID_HAND, JJState, JojotteRules
from ..rules.jojotte_cards import legal_play_mask, trick_points, trick_winner

_FIELDS = JJState._fields
# what the calls of the auction and the calls after the draw other than melds and the dix never read
_CARD_FIELDS = frozenset(("hands", "unknown", "seen", "info"))
_KEY_OF = itemgetter(*(i for i, f in enumerate(_FIELDS) if f not in _CARD_FIELDS))
_CARD_AT = tuple(i for i, f in enumerate(_FIELDS) if f in _CARD_FIELDS)
assert _CARD_AT == (2, 3, 4, 6), _CARD_AT  # `_with_cards` puts them back by these places
_CARDS = JojotteRules.pack.cards
_WIDTH = max(_CARDS) + 1


def _trick_tables() -> tuple[list[list[int]], list[list[list[int]]]]:
    """Per trump (-1 for none, then 0…3; index ``trump + 1``), for every two-card trick ``a, b`` at ``a * _WIDTH + b``:
    the index of the card that wins it, and (per Nullo or not) the points it carries when it is not the last
    trick, both from the rules' own `trick_winner` and `trick_points` (JJ-PLAY-8, JJ-PTS-1)."""
    winners, points = [], [[], []]
    for trump in range(-1, 4):
        w = [0] * (_WIDTH * _WIDTH)
        p = [[0] * (_WIDTH * _WIDTH), [0] * (_WIDTH * _WIDTH)]
        for a in _CARDS:
            for b in _CARDS:
                w[a * _WIDTH + b] = trick_winner((a, b), trump)
                for nullo in (0, 1):
                    p[nullo][a * _WIDTH + b] = trick_points((a, b), trump, False, bool(nullo))
        winners.append(w)
        points[0].append(p[0])
        points[1].append(p[1])
    return winners, points


_WINNER, _POINTS = _trick_tables()


def _with_cards(after: JJState, state: JJState) -> JJState:
    """``after`` with the cards of ``state`` (hands, unknown, seen, info: `_CARD_AT`), all else ``after``'s."""
    return tuple.__new__(JJState, (after[0], after[1], state[2], state[3], state[4], after[5], state[6], *after[7:]))


def fast_for(rules) -> "JojotteFast | None":
    """The fast replay of a session's rules when it knows the game (the two-player game itself, not a form built
    on it), else None."""
    return JojotteFast(rules) if type(rules) is JojotteRules else None


class JojotteFast:
    """The fast replay of one session's rules, with its memos (one per validator)."""

    def __init__(self, rules: JojotteRules):
        self.rules = rules
        self.memo: dict = {}
        self.trick_size = rules.trick_size
        self.tricks_per_hand = rules.tricks_per_hand
        self.dealt = rules.dealt_per_seat
        self.drawn = rules.drawn_per_seat
        self.overtrump = rules.options.overtrump_on_ruff

    def _calls(self, state: JJState, calls: tuple, phase: str):
        """The state after ``calls`` (each checked and applied by the rules, while the phase is ``phase``), or
        None when one is illegal or comes after the phase ended. Memoised on the state less its cards: these
        calls never read the cards (JJ-BID, JJ-POST-1…6)."""
        key = (_KEY_OF(state), tuple([(c.seat, c.kind, c.suit) for c in calls]))
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
            a = Action(c.seat, c.kind, suit=c.suit)
            if rules.check(s, a) is not None:
                s = None
                break
            s = rules.advance(s, a)
        if s is None:
            memo[key] = None
            return None
        if any(s[i] != state[i] for i in _CARD_AT):  # never: these calls do not touch the cards
            memo[key] = None
            return None
        memo[key] = s  # any state of the same key reaches it, with its own cards
        return s

    def hand(self, hand) -> JJState | None:
        if hand.claim >= 0 or hand.result or hand.stock is not None or hand.turned is None:
            return None
        if hand.drawn is None:
            return self._void(hand)
        rules = self.rules
        if hand.info is None or not hand.split or len(hand.tricks) != self.tricks_per_hand:
            return None
        init = []
        draws = []
        for d, dr in zip(hand.dealt, hand.drawn):
            if (d is None or dr is None or len(d) != self.dealt or len(dr) != self.drawn
                    or UNKNOWN_CARD in d or UNKNOWN_CARD in dr):
                return None
            m, n = mask_of(d), mask_of(dr)
            if m.bit_count() != self.dealt or n.bit_count() != self.drawn:
                return None  # a card written twice in a hand (or a ``?``): the explaining path counts them
            init.append(m)
            draws.append(n)
        if UNKNOWN_CARD in (hand.turned, hand.info):
            return None
        # the deal and the draw: chance actions, checked by the rules (JJ-DEAL-3/5, JJ-INV-1, JJ-DRAW-1/4)
        s = rules.initial_state(hand.dealer)
        deal = rules.deal_action(tuple(init), hand.turned, (0, 0), tuple(draws))
        if rules.check(s, deal) is not None:
            return None
        s = rules.advance(s, deal)
        s = self._calls(s, hand.auction, AUCTION)
        if s is None or s.phase == AUCTION or s.phase != "draw":
            return None  # unfinished, void (recorded without the draw) or illegal: explained
        draw = Action(CHANCE, "draw", cards=tuple(draws), info=hand.info)
        if rules.check(s, draw) is not None:
            return None
        s = rules.advance(s, draw)
        after = hand.after
        if any(c.kind in ("melds", "dix") for c in after):
            for c in after:
                if s.phase not in (AFTER, PLAY) or (s.phase == PLAY and c.kind != "dix"):
                    return None
                a = Action(c.seat, c.kind, melds=c.melds)
                if rules.check(s, a) is not None:
                    return None
                s = rules.advance(s, a)
        else:
            s = self._calls(s, after, AFTER)
            if s is None:
                return None
        if s.phase != PLAY or any(s.unknown) or s.trick or s.tricks_done:
            return None
        return self._play(s, hand.tricks)

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
        """The nine tricks from the first lead (JJ-PLAY-1…8), or None at the first card not plainly legal."""
        rules = self.rules
        h0, h1 = s.hands
        trump = s.trump
        nullo = s.denomination == "nullo"
        leader = s.leader
        seen, jo = s.seen, s.jo
        w0 = w1 = p0 = p1 = 0
        history = []
        overtrump = self.overtrump
        winner_of, points_of = _WINNER[trump + 1], _POINTS[nullo][trump + 1]
        width = _WIDTH
        last_no = self.tricks_per_hand
        unknown = UNKNOWN_CARD
        done = 0
        win = -1
        for t in tricks:
            _, plays, written, _, _, _, calls = t
            if len(plays) != 2 or calls:  # a call among the cards (a late dix): explained
                return None
            a, b = plays
            sa, ca, na, _, _, _ = a
            sb, cb, nb, _, _, _ = b
            if sa != leader or sb == leader or ca == unknown or cb == unknown:
                return None
            if na or nb:
                # said with a card (JJ-JOJOTTE): the rules check and apply the trick from a state built here
                st = JJState(PLAY, s.dealer, (h0, h1), (0, 0), seen, s.turned, s.info, s.node, s.bidder,
                             s.denomination, trump, s.mult, s.doubler, s.step, s.nullo_bidder, s.slam, s.melds, s.dix,
                             done, leader, (), (w0, w1), (p0, p1), -1, jo, tuple(history))
                for p in plays:
                    if rules.check(st, p) is not None:
                        return None
                    st = rules.advance(st, p)
                if any(st.unknown):
                    return None
                h0, h1 = st.hands
                seen, jo = st.seen, st.jo
                w0, w1 = st.won
                p0, p1 = st.card_pts
                history.append(st.history[-1])
                win = leader = st.leader
                done += 1
            else:
                ba, bb = 1 << ca, 1 << cb
                if leader == 0:
                    ha, hb = h0, h1
                else:
                    ha, hb = h1, h0
                if not ha & ba or not hb & bb:
                    return None  # a card the player does not hold (JJ-INV-2): explained
                led = ca >> 4
                if cb >> 4 != led or led == trump:
                    if not legal_play_mask(hb, (ca,), trump, overtrump).mask & bb:
                        return None
                if leader == 0:
                    h0, h1 = ha ^ ba, hb ^ bb
                else:
                    h1, h0 = ha ^ ba, hb ^ bb
                trick = (ca, cb)
                done += 1
                at = ca * width + cb
                win = (leader + winner_of[at]) % 2
                gained = points_of[at] if done != last_no else trick_points(trick, trump, True, nullo)
                if win == 0:
                    w0 += 1
                    p0 += gained
                else:
                    w1 += 1
                    p1 += gained
                history.append((leader, trick, win))
                leader = win
            if written >= 0 and written != win:
                return None  # a wrong trick winner written (JJ-PLAY-8): explained
        return JJState(DONE, s.dealer, (h0, h1), (0, 0), seen, s.turned, s.info, s.node, s.bidder, s.denomination,
                       trump, s.mult, s.doubler, s.step, s.nullo_bidder, s.slam, s.melds, s.dix, done, win, (),
                       (w0, w1), (p0, p1), win, jo, tuple(history))
