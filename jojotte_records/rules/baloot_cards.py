"""Baloot's cards (spec `baloot.md` §2, §6–§9): orders, card points, the trick winner, the legal plays of
one position, Ekka, projects and their comparison, and the Baloot (K+Q of trumps).

Everything is a pure function of masks and small ints. A card is ``suit * 16 + rank`` (`cards.py`);
``trump`` is a suit, or -1 in Sun.

>>> from jojotte_records.cards import parse_card
>>> trick_winner([parse_card(t) for t in ("AS", "TS", "7H", "KS")], trump=1)
2
>>> project_of(mask_of([parse_card(t) for t in ("KH", "QH", "JH")]), sun=False).text()
'sira KH-JH'
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple, Sequence

from ..cards import ACE, EIGHT, JACK, KING, NINE, QUEEN, SEVEN, SUIT_MASKS, TEN, Pack, card_name, iter_cards, make_card, mask_of

BALOOT_PACK = Pack("baloot-32", (make_card(s, r) for s in range(4) for r in range(7, 15)), suit_order=(0, 1, 2, 3))
RANKS = (ACE, KING, QUEEN, JACK, TEN, NINE, EIGHT, SEVEN)  # BAL-DECK-4, the sequence order, high to low

# BAL-DECK-2 / BAL-DECK-3: trick-taking orders, high to low
TRUMP_ORDER = (JACK, NINE, ACE, TEN, KING, QUEEN, EIGHT, SEVEN)
PLAIN_ORDER = (ACE, TEN, KING, QUEEN, JACK, NINE, EIGHT, SEVEN)
_TRUMP_STRENGTH = {r: 8 - i for i, r in enumerate(TRUMP_ORDER)}
_PLAIN_STRENGTH = {r: 8 - i for i, r in enumerate(PLAIN_ORDER)}

# BAL-DECK-5
TRUMP_POINTS = {JACK: 20, NINE: 14, ACE: 11, TEN: 10, KING: 4, QUEEN: 3, EIGHT: 0, SEVEN: 0}
PLAIN_POINTS = {ACE: 11, TEN: 10, KING: 4, QUEEN: 3, JACK: 2, NINE: 0, EIGHT: 0, SEVEN: 0}
LAST_TRICK_BONUS = 10  # BAL-DECK-6
HAND_TOTAL = {"hokum": 162, "sun": 130}  # BAL-DECK-7

# BAL-PROJ-1: game-point values (Hokum, Sun); None where the kind does not exist in that contract
KINDS = ("sira", "fifty", "hundred", "fourhundred")
KIND_VALUES = {"sira": (2, 4), "fifty": (5, 10), "hundred": (10, 20), "fourhundred": (None, 40)}
QUAD_RANKS = (ACE, KING, QUEEN, JACK, TEN)  # BAL-PROJ-3: nines, eights and sevens make no project


def suit_of(card: int) -> int:
    return card >> 4


def rank_of(card: int) -> int:
    return card & 15


def card_points(card: int, trump: int) -> int:
    return (TRUMP_POINTS if card >> 4 == trump else PLAIN_POINTS)[card & 15]


def mask_points(mask: int, trump: int) -> int:
    return sum(card_points(c, trump) for c in iter_cards(mask))


def strength(card: int, trump: int, led: int) -> int:
    """How strongly ``card`` bids for a trick led in ``led`` (BAL-PLAY-4): trumps above the led suit, other suits 0."""
    suit, rank = card >> 4, card & 15
    if suit == trump:
        return 100 + _TRUMP_STRENGTH[rank]
    if suit == led:
        return _PLAIN_STRENGTH[rank]
    return 0


# `strength` of every card of the pack, by (trump, led suit): what `trick_winner` compares
_STRENGTHS = {(trump, led): {c: strength(c, trump, led) for c in BALOOT_PACK.cards}
              for trump in range(-1, 4) for led in range(4)}


def trick_winner(cards, trump: int) -> int:
    """Index of the card that wins (or, incomplete, currently wins) a trick (BAL-PLAY-4)."""
    st = _STRENGTHS[trump, cards[0] >> 4]
    best, top = 0, st[cards[0]]
    for i in range(1, len(cards)):
        v = st[cards[i]]
        if v > top:
            best, top = i, v
    return best


@lru_cache(maxsize=None)
def higher_in_suit(card: int, trump: int) -> int:
    """The cards of ``card``'s suit that beat it in that suit's order (trump order for a trump)."""
    suit = card >> 4
    table = _TRUMP_STRENGTH if suit == trump else _PLAIN_STRENGTH
    mine = table[card & 15]
    return mask_of(make_card(suit, r) for r, v in table.items() if v > mine)


class PlayRule(NamedTuple):
    """The cards a player may play now, and the rule that limits them (``why`` empty when any card goes)."""

    mask: int
    rule: str
    why: str


# The reason of each case of `legal_case` (BAL-PLAY-1…12, BAL-EKKA-4): (rule, why; empty when any card goes); in a
# sentence, ``{best}`` is the card winning the trick so far and ``{lead}`` the card led
PLAY_REASONS = (
    ("BAL-PLAY-7", "in a locked hand nobody leads a trump while holding a non-trump"),
    ("BAL-PLAY-1", ""),
    ("BAL-PLAY-5", "a player who holds the led suit must follow it"),
    ("BAL-PLAY-6", ""),
    ("BAL-PLAY-8", ""),
    ("BAL-PLAY-9", "trumps were led: a player who holds trumps must play one"),
    ("BAL-PLAY-9", "trumps were led: he must beat {best} with a higher trump"),
    ("BAL-PLAY-10", "void in the led suit with an opponent winning ({best}): he must win the trick with a trump"),
    ("BAL-PLAY-10", ""),
    ("BAL-PLAY-11", ""),
    ("BAL-PLAY-11", "void in the led suit, his partner leading {lead} (neither an ace nor Ekka): he must play a trump"),
    ("BAL-PLAY-12", ""),
)
(_LOCKED, _ANY_LEAD, _FOLLOW, _ANY_VOID, _NO_TRUMPS, _MUST_TRUMP, _OVERTRUMP, _RUFF, _ANY_RUFF, _FREE_THIRD, _THIRD_TRUMPS,
 _ANY_FOURTH) = range(len(PLAY_REASONS))


def legal_case(hand: int, plays: Sequence[int], trump: int, locked: bool = False, ekka: bool = False) -> tuple[int, int]:
    """The legal cards of the player at position ``len(plays)`` of a trick (BAL-PLAY-5…12, BAL-EKKA-4), and the case
    that decides them (an index of `PLAY_REASONS`): `legal_plays` without its sentence, for the fast replay.

    ``plays`` are the cards already in the trick, leader first; ``ekka`` says the leader validly declared Ekka.
    """
    if not plays:
        if trump >= 0 and locked:
            non_trumps = hand & ~SUIT_MASKS[trump]
            if non_trumps and non_trumps != hand:
                return non_trumps, _LOCKED
        return hand, _ANY_LEAD
    led = plays[0] >> 4
    follow = hand & SUIT_MASKS[led]
    if trump < 0:
        if follow:
            return follow, _FOLLOW
        return hand, _ANY_VOID
    trumps = hand & SUIT_MASKS[trump]
    if led == trump and not trumps:
        return hand, _NO_TRUMPS
    if led != trump and follow:
        return follow, _FOLLOW
    # who wins so far decides only from here on (BAL-PLAY-9…12)
    pos = len(plays)
    win = trick_winner(plays, trump)
    partner_winning = win == pos - 2
    best = plays[win]
    if led == trump:
        if partner_winning:
            return trumps, _MUST_TRUMP
        over = trumps & higher_in_suit(best, trump)
        if over:
            return over, _OVERTRUMP
        return trumps, _MUST_TRUMP
    if not partner_winning:
        over = trumps & (higher_in_suit(best, trump) if best >> 4 == trump else SUIT_MASKS[trump])
        if over:
            return over, _RUFF
        return hand, _ANY_RUFF
    if pos == 2:
        # BAL-PLAY-11: third hand, the leader (his partner) winning; an ace or a valid Ekka frees him (BAL-EKKA-4)
        if (plays[0] & 15) == ACE or ekka or not trumps:
            return hand, _FREE_THIRD
        return trumps, _THIRD_TRUMPS
    return hand, _ANY_FOURTH


def legal_plays(hand: int, plays: Sequence[int], trump: int, locked: bool = False, ekka: bool = False) -> PlayRule:
    """The legal cards of the player at position ``len(plays)`` of a trick (`legal_case`), the rule that limits them
    and why."""
    mask, case = legal_case(hand, plays, trump, locked, ekka)
    rule, why = PLAY_REASONS[case]
    if "{" in why:
        why = why.format(best=card_name(plays[trick_winner(plays, trump)]), lead=card_name(plays[0]))
    return PlayRule(mask, rule, why)


def ekka_open(plays: int, trump: int) -> bool:
    """BAL-EKKA-1: Ekka may be said now with some card (which: `can_ekka`): on a trick's lead (``plays``: the cards
    already in the trick), in Hokum."""
    return not plays and trump >= 0


def can_ekka(card: int, trump: int, played: int) -> bool:
    """BAL-EKKA-1/2: Ekka with a non-trump lead in Hokum, every higher card of its suit gone in earlier tricks."""
    if trump < 0 or card >> 4 == trump:
        return False
    return not higher_in_suit(card, -1) & ~played


# --- projects (BAL-PROJ) ------------------------------------------------------------------

class Project(NamedTuple):
    """A project: its kind, its cards, its suit (-1 for four of a kind) and its top rank in sequence order."""

    kind: str
    mask: int
    suit: int
    top: int
    quad: bool

    def text(self) -> str:
        cards = sorted(iter_cards(self.mask), key=lambda c: (c >> 4, -(c & 15)))
        if self.quad:
            return f"{self.kind} ({' '.join(card_name(c) for c in cards)})"
        return f"{self.kind} {card_name(cards[0])}-{card_name(cards[-1])}"


def kind_value(kind: str, sun: bool) -> int | None:
    """BAL-PROJ-1: the game points of a project kind in Hokum or Sun (None where it does not exist)."""
    return KIND_VALUES[kind][1 if sun else 0]


@lru_cache(maxsize=4096)
def project_of(mask: int, sun: bool) -> Project | None:
    """The project these cards make, or None (BAL-PROJ-1…4); memoised (a shown project is read again by every
    hand's score)."""
    cards = list(iter_cards(mask))
    n = len(cards)
    if n == 4 and len({c & 15 for c in cards}) == 1:
        rank = cards[0] & 15
        if rank not in QUAD_RANKS:  # BAL-PROJ-3
            return None
        kind = "fourhundred" if rank == ACE and sun else "hundred"
        return Project(kind, mask, -1, rank, True)
    if n < 3 or len({c >> 4 for c in cards}) != 1:
        return None
    ranks = sorted(c & 15 for c in cards)
    if ranks[-1] - ranks[0] != n - 1:  # BAL-PROJ-2: consecutive in A K Q J T 9 8 7, i.e. in rank number
        return None
    kind = "sira" if n == 3 else "fifty" if n == 4 else "hundred"  # BAL-PROJ-4: a longer run is one hundred
    return Project(kind, mask, cards[0] >> 4, ranks[-1], False)


def iter_projects(hand: int, sun: bool) -> tuple[Project, ...]:
    """Every project a hand holds: each run of three or more inside a longer run, and each four of a kind."""
    return _projects(hand, sun)


@lru_cache(maxsize=4096)
def _projects(hand: int, sun: bool) -> tuple[Project, ...]:
    return tuple(_iter_projects(hand, sun))


def _iter_projects(hand: int, sun: bool):
    for suit in range(4):
        ranks = [r for r in range(7, 15) if hand >> make_card(suit, r) & 1]
        held = set(ranks)
        for lo in ranks:
            hi = lo
            while hi + 1 in held:
                hi += 1
                if hi - lo >= 2:
                    yield project_of(mask_of(make_card(suit, r) for r in range(lo, hi + 1)), sun)
    for rank in QUAD_RANKS:
        quad = mask_of(make_card(s, rank) for s in range(4))
        if hand & quad == quad:
            yield project_of(quad, sun)


def project_key(p: Project, sun: bool, order: int, trump: int = -1, trump_priority: bool = False) -> tuple:
    """Comparison key of BAL-PROJ-9, higher is better: value, four of a kind over a run among hundreds, top
    card, then the earlier player in trick 1 (``order`` = his place in it); ``trump_priority``
    (opt.project_tie_trump_priority) puts a trump run before priority."""
    value = kind_value(p.kind, sun) or 0
    trump_run = int(trump_priority and not p.quad and trump >= 0 and p.suit == trump)
    return (value, int(p.quad), p.top, trump_run, -order)


def adjacent_runs(a: Project, b: Project) -> bool:
    """Two runs of one suit that together make a longer run (a split, which opt.long_runs=five_max forbids)."""
    if a.quad or b.quad or a.suit != b.suit:
        return False
    ra = [c & 15 for c in iter_cards(a.mask)]
    rb = [c & 15 for c in iter_cards(b.mask)]
    return min(ra) == max(rb) + 1 or min(rb) == max(ra) + 1


# --- the Baloot (BAL-BALOOT) ---------------------------------------------------------------

@lru_cache(maxsize=None)
def baloot_mask(trump: int) -> int:
    """The K and Q of trumps (BAL-BALOOT-1); 0 in Sun."""
    if trump < 0:
        return 0
    return 1 << make_card(trump, KING) | 1 << make_card(trump, QUEEN)


def has_baloot(hand: int, trump: int) -> bool:
    m = baloot_mask(trump)
    return bool(m) and hand & m == m


def blocks_baloot(p: Project, trump: int) -> bool:
    """BAL-BALOOT-6/7: a shown hundred with the K and Q of trumps, or four kings or four queens, forbids Baloot."""
    if p.kind not in ("hundred", "fourhundred"):
        return False
    if p.quad:
        return p.top in (KING, QUEEN)
    m = baloot_mask(trump)
    return bool(m) and p.mask & m == m


def carries_baloot(p: Project, trump: int) -> bool:
    """BAL-BALOOT-5: a sira or fifty holding the K and Q of trumps."""
    m = baloot_mask(trump)
    return p.kind in ("sira", "fifty") and bool(m) and p.mask & m == m
