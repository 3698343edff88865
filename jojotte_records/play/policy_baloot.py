"""The plausible Baloot player.

It calls Hokum with trumps and Sun with aces and guarded tens (the face-up card counted in, since the
declarer takes it, BAL-BID-21), Ashkal when the face-up card is an ace or a ten for its partner's Sun,
Kawesh whenever the option allows it, climbs the doubling ladder only with hands far above the bid
(BAL-DBL-2…5), declares its best project and shows what it may (BAL-PROJ-7, -11), says Baloot and Ekka
when they are legal (never Ekka on an ace, BAL-EKKA-3), and plays by `policy.follow_card` /
`policy.lead_card` with partners opposite.
"""

from __future__ import annotations

from ..cards import ACE, TEN, iter_cards
from ..rules.baloot_cards import BALOOT_PACK, card_points, strength
from ..rules.base import Action
from .policy_common import TrickView, follow_card, lead_card
from .policy_jojotte import nt_value, suit_value

RAISES = ("double", "triple", "four", "gahwa")
KIND_ORDER = ("sira", "fifty", "hundred", "fourhundred")
HOKUM, SUN, SUN_OVER, ASHKAL_LOW = 4.8, 5.0, 5.8, 3.6
# what the raiser's eight cards must be worth (BAL-DBL-2…5): the doubler's trumps behind the declarer, the declarer
# far above his bid
RAISE_BAR = {"double": 7.5, "triple": 8.5, "four": 8.5, "gahwa": 10.5}
SUN_DOUBLE = 8.0


def choose(rules, s, legal: tuple[Action, ...]) -> Action:
    if s.phase == "auction":
        return _auction(rules, s, legal)
    raises = [a for a in legal if a.kind in RAISES]
    for a in raises:
        hand = s.hands[a.seat]
        v = nt_value(hand) if s.contract == "sun" else suit_value(hand, s.trump)
        bar = SUN_DOUBLE if s.contract == "sun" else RAISE_BAR[a.kind]
        if v >= bar:
            same = [b for b in raises if b.seat == a.seat and b.kind == a.kind]
            return next((b for b in same if b.announce == "open"), same[0])
    declares = [a for a in legal if a.kind == "declare"]
    if declares:
        return max(declares, key=lambda a: KIND_ORDER.index(a.announce) if a.announce in KIND_ORDER else -1)
    shows = [a for a in legal if a.kind == "show"]
    if shows:
        return max(shows, key=lambda a: (a.melds[0].bit_count(), a.melds[0]))
    plays = [a for a in legal if a.kind == "play"]
    if plays:
        return _play(rules, s, plays)
    return next((a for a in legal if a.kind not in RAISES), legal[0])


def _auction(rules, s, legal) -> Action:
    seat = legal[0].seat
    mine = [a for a in legal if a.seat == seat]
    kinds = {a.kind: a for a in mine if a.suit < 0}
    hand = s.hands[seat]
    with_up = hand | (1 << s.up)
    passing = kinds.get("pass", mine[0])
    if "kawesh" in kinds:
        return kinds["kawesh"]  # a hand the option lets him throw in (opt.kawesh)
    sun_v = nt_value(with_up)
    hokums = [a for a in mine if a.kind == "hokum"]
    if hokums or "ashkal" in kinds:
        best, margin = passing, -0.01
        for a in hokums:
            m = suit_value(with_up, a.suit if a.suit >= 0 else s.up >> 4) - HOKUM
            if m > margin:
                best, margin = a, m
        if "sun" in kinds and sun_v - SUN >= max(margin, 0.0):
            return kinds["sun"]
        if best is passing and "ashkal" in kinds and s.up & 15 in (ACE, TEN) and nt_value(hand) >= ASHKAL_LOW:
            return kinds["ashkal"]  # the face-up ace or ten goes to the partner's Sun (BAL-BID-12)
        return best
    if "sun" in kinds:
        # only Sun or pass: an overcall or the Hokum window (BAL-BID-8/9)
        return kinds["sun"] if sun_v >= SUN_OVER else passing
    return passing


def _play(rules, s, plays) -> Action:
    me = plays[0].seat
    trump = s.trump if s.contract == "hokum" else -1
    cards = sorted({a.card for a in plays})

    def key(card: int, led: int) -> int:
        return strength(card, trump, led)

    def same_side(a: int, b: int) -> bool:
        return a % 2 == b % 2

    trick = list(s.trick)
    view = TrickView(me, trick, key, lambda c: card_points(c, trump), same_side, len(trick) == 3)
    gone = s.played
    for _, c in trick:
        gone |= 1 << c
    unseen = BALOOT_PACK.mask & ~gone & ~s.hands[me]

    def is_master(card: int) -> bool:
        su = card >> 4
        mine = key(card, su)
        return not any(c >> 4 == su and key(c, su) > mine for c in iter_cards(unseen))

    if not trick:
        declaring = same_side(me, s.declarer)
        trumps_out = trump >= 0 and any(c >> 4 == trump for c in iter_cards(unseen))
        card = lead_card(cards, view, is_master, trump, declaring and trumps_out)
    else:
        card = follow_card(cards, view, is_master, trump)
    said = [a for a in plays if a.card == card]
    baloot = [a for a in said if a.announce == "baloot"]
    if baloot:
        return baloot[0]  # BAL-BALOOT-3
    ekka = [a for a in said if a.announce == "ekka" and card & 15 != ACE]
    if ekka:
        return ekka[0]  # BAL-EKKA-2: the cards above it are gone
    return next((a for a in said if not a.announce), said[0])
