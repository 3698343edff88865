"""The plausible player of every form of Jo-Jotte (two, three, box, four in partnerships, four solo).

It bids by counting what a hand is worth in a denomination (the trumps' honours and length, aces and
guarded tens), doubles with trumps of the bidder's suit behind him, bids Slam only when every card it
holds is a sure winner (JJ-SLAM-1) and Nullo only when every suit is low enough to duck under the
opponent (JJ-NULLO-1), declares every meld it holds (JJ-MELD-1), takes the dix (JJ-DIX-2) just before
the first card of trick 1, when the contract can no longer change, and plays by `policy.follow_card` and
`policy.lead_card`.
"""

from __future__ import annotations

from ..cards import ACE, JACK, KING, NINE, QUEEN, SEVEN, TEN, iter_cards, make_card
from ..rules.base import Action
from ..rules.jojotte_cards import POINTS, STRENGTH
from .policy_common import TrickView, follow_card, lead_card, losing_card, lowest_card

TRUMP_WORTH = {JACK: 3.0, NINE: 2.2, ACE: 1.6, TEN: 1.3, KING: 1.0, QUEEN: 1.0, 8: 0.7, SEVEN: 0.7}
TRUMP_ORDER = (JACK, NINE, ACE, TEN, KING, QUEEN, 8, SEVEN)  # JJ-DECK-2
PLAIN_ORDER = (ACE, TEN, KING, QUEEN, JACK, NINE, 8, SEVEN)  # JJ-DECK-3
PLAIN_RANK = {r: 8 - i for i, r in enumerate(PLAIN_ORDER)}


class Bar:
    """What a hand must be worth to make each call, by form of the game."""

    def __init__(self, accept: float, name: float, last: float, nt: float, nt_over: float, double: float,
                 double_nt: float, redouble: float):
        self.accept, self.name, self.last, self.nt, self.nt_over = accept, name, last, nt, nt_over
        self.double, self.double_nt, self.redouble = double, double_nt, redouble


# two players: 6 cards at the auction, 9 after the draw, half the pack out of play
BAR_TWO = Bar(accept=5.0, name=4.8, last=4.2, nt=5.4, nt_over=5.8, double=6.0, double_nt=7.0, redouble=2.5)
# three players: two opponents, so a little more is needed
BAR_THREE = Bar(accept=5.4, name=5.0, last=4.6, nt=5.7, nt_over=6.1, double=6.2, double_nt=7.2, redouble=2.5)
# partners: the other half of the side's strength sits opposite
BAR_FOUR = Bar(accept=4.6, name=4.4, last=4.0, nt=5.2, nt_over=5.6, double=5.8, double_nt=6.8, redouble=2.2)


def _bar(rules) -> Bar:
    if rules.trick_size == 4:
        return BAR_FOUR
    return BAR_THREE if rules.bidders == 3 else BAR_TWO


def _has(hand: int, suit: int, rank: int) -> bool:
    return bool(hand >> make_card(suit, rank) & 1)


def _ranks(hand: int, suit: int) -> list[int]:
    return [r for r in range(7, 15) if _has(hand, suit, r)]


def suit_value(hand: int, trump: int) -> float:
    """What ``hand`` is worth with ``trump`` as trumps: honours and length in trumps, aces and guarded tens."""
    v = 0.0
    trumps = _ranks(hand, trump)
    v += sum(TRUMP_WORTH[r] for r in trumps) + 0.5 * max(0, len(trumps) - 2)
    for su in range(4):
        if su == trump:
            continue
        rs = _ranks(hand, su)
        a, t = ACE in rs, TEN in rs
        v += 1.2 * a + (0.9 if a else 0.4) * t + (0.3 if a or t else 0.1) * (KING in rs)
        if not rs and len(trumps) >= 3:
            v += 0.3  # a void to ruff in
    return v


def nt_value(hand: int) -> float:
    """What ``hand`` is worth in NT: aces, tens behind them, long suits headed by the ace."""
    v = 0.0
    for su in range(4):
        rs = _ranks(hand, su)
        a, t = ACE in rs, TEN in rs
        v += 2.0 * a + (1.2 if a else 0.4) * t + (0.6 if a and t else 0.2) * (KING in rs)
        if a and len(rs) >= 4:
            v += 0.4 * (len(rs) - 3)
    return v


def _top_run(ranks: list[int], order: tuple[int, ...]) -> int:
    n = 0
    for r in order:
        if r not in ranks:
            break
        n += 1
    return n


def slam_ok(hand: int, trump: int) -> bool:
    """Every card of the hand a sure winner (JJ-SLAM-1): at least four trumps, held from the top down (or five
    headed by J 9 A, which draw the rest), and every plain suit held from the ace down; in NT all four suits
    held from the ace, since the defender leads (JJ-PLAY-1)."""
    for su in range(4):
        rs = _ranks(hand, su)
        if not rs:
            if trump < 0:
                return False
            continue
        order = TRUMP_ORDER if su == trump else PLAIN_ORDER
        top = _top_run(rs, order)
        if top < len(rs) and not (su == trump and top >= 3 and len(rs) >= 5):
            return False
    return trump < 0 or len(_ranks(hand, trump)) >= 4


def nullo_ok(hand: int) -> bool:
    """Every suit low enough to lose every trick (JJ-NULLO-1): its lowest card a 7 or 8, the next no higher than
    a jack, the third no higher than a king (plain order, JJ-DECK-3)."""
    for su in range(4):
        ranks = sorted(PLAIN_RANK[r] for r in _ranks(hand, su))
        if any(st > 2 * (i + 1) for i, st in enumerate(ranks)):
            return False
    return True


def meld_points(melds) -> int:
    return sum(100 if m.kind == "four" else {3: 20, 4: 40}.get(m.length, 50) for m in melds)


def choose(rules, s, legal: tuple[Action, ...]) -> Action:
    if s.phase == "auction":
        return _auction(rules, s, legal)
    if s.phase == "after":
        return _after(rules, s, legal)
    if s.phase == "play":
        return _play(rules, s, legal)
    return legal[0]


def _first(legal, kind: str) -> Action | None:
    return next((a for a in legal if a.kind == kind), None)


def _contract_value(s, hand: int) -> float:
    return nt_value(hand) if s.denomination == "nt" else suit_value(hand, s.trump)


def _auction(rules, s, legal) -> Action:
    seat = legal[0].seat
    hand = s.hands[seat]
    bar = _bar(rules)
    kinds = {a.kind for a in legal}
    passing = _first(legal, "pass") or legal[0]
    if "accept" in kinds:
        t = s.turned >> 4
        v = suit_value(hand, t)
        turned_rank = s.turned & 15
        gets_turned = (_has(hand, t, SEVEN) and turned_rank != SEVEN) or (rules.trick_size == 4 and seat == s.dealer)
        if gets_turned:  # the dix (JJ-DIX-2), or the dealer's draw of the turned card (JJ4P-DRAW-1)
            v += TRUMP_WORTH[turned_rank] - (0.7 if rules.trick_size != 4 else 0)
        return _first(legal, "accept") if v >= bar.accept else passing
    if "name" in kinds:
        last = s.node == "R2b" or (s.node in ("r2", "phase2") and getattr(s, "count", 0) >= rules.bidders - 1)
        need = bar.last if last else bar.name
        best, margin = passing, 0.0
        for a in legal:
            if a.kind == "name":
                m = suit_value(hand, a.suit) - need
            elif a.kind == "nt":
                m = nt_value(hand) - (bar.nt - (need - bar.name))
            else:
                continue
            if m >= margin:
                best, margin = a, m
        return best
    if "redouble" in kinds:
        v = _contract_value(s, hand)
        need = (bar.nt if s.denomination == "nt" else bar.accept) + bar.redouble
        return _first(legal, "redouble") if v >= need else passing
    if "double" in kinds:
        v = _contract_value(s, hand)
        if v >= (bar.double_nt if s.denomination == "nt" else bar.double):
            return _first(legal, "double")
    if "nt" in kinds and nt_value(hand) >= bar.nt_over:
        return _first(legal, "nt")
    if "with_doubler" in kinds:
        # the third player sides with the doubler when he too holds the bidder's trumps (JJ3-DBL-2)
        strong = nt_value(hand) >= 4.0 if s.denomination == "nt" else suit_value(hand, s.trump) >= 3.0
        return _first(legal, "with_doubler" if strong else "with_declarer")
    return passing


def _after(rules, s, legal) -> Action:
    seat = legal[0].seat
    hand = s.hands[seat]
    kinds = {a.kind for a in legal}
    # with partners the Nullo binds both hands (JJ4P-NULLO-1) and the partner's is unknown: no bet for a club player
    if "nullo" in kinds and nullo_ok(hand) and rules.trick_size != 4:
        return _first(legal, "nullo")
    if "slam" in kinds and slam_ok(hand, s.trump if s.denomination == "suit" else -1):
        return _first(legal, "slam")
    melds = [a for a in legal if a.kind == "melds"]
    if melds:
        return max(melds, key=lambda a: (meld_points(a.melds), len(a.melds)))
    if "defend" in kinds or "withdraw" in kinds:
        if "defend" not in kinds or "withdraw" not in kinds:
            return _first(legal, "defend") or _first(legal, "withdraw")
        if s.step == "nullo_defender":
            # low cards beat a Nullo: the defender leads under the bidder (JJ3-ACT-5)
            low = sum(1 for c in iter_cards(hand) if c & 15 in (SEVEN, 8))
            return _first(legal, "defend" if low >= 3 else "withdraw")
        return _first(legal, "defend" if _contract_value(s, hand) >= 3.5 else "withdraw")
    return _first(legal, "pass") or next(a for a in legal if a.kind != "dix")


def _play(rules, s, legal) -> Action:
    dix = _first(legal, "dix")
    if dix is not None and s.tricks_done == 0 and not s.trick:
        return dix  # the seven of trumps for the turned card (JJ-DIX-2), the contract now final (JJ-DIX-1)
    plays = [a for a in legal if a.kind == "play"]
    me = plays[0].seat
    cards = sorted({a.card for a in plays})
    trump = s.trump if s.denomination == "suit" else -1
    four = rules.trick_size == 4
    strength, worth = STRENGTH[trump + 1], POINTS[trump + 1]

    def key(card: int, led: int) -> int:
        su = card >> 4
        return strength[card] if su == trump or su == led else 0

    def same_side(a: int, b: int) -> bool:
        return a % 2 == b % 2 if four else a == b

    if four:
        seats = [(s.leader + i) % 4 for i in range(len(s.trick))]
    else:
        seats = [s.leader] + [me] * (len(s.trick) - 1)
    view = TrickView(me, list(zip(seats, s.trick)), key, lambda c: worth[c], same_side,
                     len(s.trick) == rules.trick_size - 1)
    gone = 0
    for _, done, _ in s.history:
        for c in done:
            gone |= 1 << c
    for c in s.trick:
        gone |= 1 << c
    unseen = rules.pack.mask & ~gone & ~s.hands[me]

    def is_master(card: int) -> bool:
        su = card >> 4
        mine = strength[card]
        return not any(c >> 4 == su and strength[c] > mine for c in iter_cards(unseen))

    if s.denomination == "nullo":
        nullo_side = s.nullo_bidder == me or (four and same_side(s.nullo_bidder, me))
        card = losing_card(cards, view) if nullo_side else lowest_card(cards, view)
    elif not s.trick:
        declaring = s.bidder == me or (four and same_side(s.bidder, me))
        trumps_out = trump >= 0 and any(c >> 4 == trump for c in iter_cards(unseen))
        card = lead_card(cards, view, is_master, trump, declaring and trumps_out)
    else:
        card = follow_card(cards, view, is_master, trump)
    said = [a for a in plays if a.card == card]
    return max(said, key=lambda a: a.announce != "")  # "jo" and "jotte" are always said (JJ-JOJOTTE-3)
