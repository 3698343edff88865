"""Jo-Jotte's rank orders, card points, trick play and honor melds (JJ-DECK, JJ-PTS, JJ-PLAY, JJ-MELD).

Small pure functions over bitmask card sets, shared by every Jo-Jotte form
(two, three and four players). ``trump`` is a suit, or -1 in NT and Nullo.
"""

from __future__ import annotations

from typing import NamedTuple

from ..cards import ACE, JACK, KING, NINE, QUEEN, SEVEN, SUIT_MASKS, TEN, card_name, iter_cards, make_card

NO_TRUMP = -1

# JJ-DECK-2: trump order J 9 A T K Q 8 7; JJ-DECK-3: plain order A T K Q J 9 8 7
TRUMP_STRENGTH = {JACK: 8, NINE: 7, ACE: 6, TEN: 5, KING: 4, QUEEN: 3, 8: 2, SEVEN: 1}
PLAIN_STRENGTH = {ACE: 8, TEN: 7, KING: 6, QUEEN: 5, JACK: 4, NINE: 3, 8: 2, SEVEN: 1}
# JJ-PTS-1
PLAIN_POINTS = {ACE: 10, TEN: 10, KING: 5, QUEEN: 5, JACK: 0, NINE: 0, 8: 0, SEVEN: 0}
TRUMP_POINTS = {**PLAIN_POINTS, JACK: 20, NINE: 15}
LAST_TRICK = 10  # JJ-PTS-2
JOJOTTE = 20  # JJ-PTS-3

SUIT_WORDS = {0: "spades", 1: "hearts", 2: "diamonds", 3: "clubs"}

# POINTS[trump + 1][card] and STRENGTH[trump + 1][card]: table look-ups on the hot path
POINTS: list[list[int]] = []
STRENGTH: list[list[int]] = []
for _t in range(-1, 4):
    _p = [0] * 80
    _s = [0] * 80
    for _suit in range(4):
        for _r in range(7, 15):
            _c = make_card(_suit, _r)
            if _suit == _t:
                _p[_c] = TRUMP_POINTS[_r]
                _s[_c] = 100 + TRUMP_STRENGTH[_r]
            else:
                _p[_c] = PLAIN_POINTS[_r]
                _s[_c] = PLAIN_STRENGTH[_r]
    POINTS.append(_p)
    STRENGTH.append(_s)

# BEATS[trump][card]: mask of trumps that beat trump `card`
BEATS: dict[int, int] = {}
for _suit in range(4):
    for _r in range(7, 15):
        _m = 0
        for _r2 in range(7, 15):
            if TRUMP_STRENGTH[_r2] > TRUMP_STRENGTH[_r]:
                _m |= 1 << make_card(_suit, _r2)
        BEATS[make_card(_suit, _r)] = _m


def card_points(card: int, trump: int) -> int:
    return POINTS[trump + 1][card]


def mask_points(mask: int, trump: int) -> int:
    table = POINTS[trump + 1]
    return sum(table[c] for c in iter_cards(mask))


def trick_points(cards: tuple[int, ...], trump: int, last: bool, nullo: bool) -> int:
    """Points a trick carries to its winner: its cards (JJ-PTS-1), and 10 for the last trick except in Nullo (JJ-PTS-2)."""
    return sum(map(POINTS[trump + 1].__getitem__, cards)) + (LAST_TRICK if last and not nullo else 0)


def trick_winner(cards: tuple[int, ...], trump: int) -> int:
    """Index (in play order) of the card that wins the trick (JJ-PLAY-8)."""
    strength = STRENGTH[trump + 1]
    led = cards[0] >> 4
    best, best_i = -1, 0
    for i, c in enumerate(cards):
        s = c >> 4
        if s == trump or s == led:
            v = strength[c]
            if v > best:
                best, best_i = v, i
    return best_i


class PlayRule(NamedTuple):
    """The cards a player may play to a trick, and the rule that limits them."""

    mask: int
    rule: str
    reason: str


def legal_play_mask(hand: int, trick: tuple[int, ...], trump: int, overtrump_on_ruff: str = "never",
                    ruff_must_beat: tuple[bool, ...] = ()) -> PlayRule:
    """Which cards of ``hand`` may be played to ``trick`` (JJ-PLAY-2…7, JJ4P-PLAY-2).

    ``ruff_must_beat`` gives, for each earlier card of the trick, whether an
    overtrump duty applies against it when ruffing (4P variants of OP-06).
    """
    if not trick:
        return PlayRule(hand, "JJ-PLAY-2", "")
    led = trick[0] >> 4
    same = hand & SUIT_MASKS[led]
    if same:
        if led == trump:
            # JJ-PLAY-4: beat the highest trump in the trick if possible
            high = max(trick, key=lambda c: STRENGTH[trump + 1][c] if c >> 4 == trump else -1)
            higher = same & BEATS[high]
            if higher:
                return PlayRule(higher, "JJ-PLAY-4", "beat the highest trump")
            return PlayRule(same, "JJ-PLAY-4", "follow with a trump")
        return PlayRule(same, "JJ-PLAY-3", f"follow {SUIT_WORDS[led]}")
    if trump >= 0:
        trumps = hand & SUIT_MASKS[trump]
        if trumps:
            if overtrump_on_ruff != "never":
                earlier = [c for i, c in enumerate(trick) if c >> 4 == trump and
                           (overtrump_on_ruff == "always" or (i < len(ruff_must_beat) and ruff_must_beat[i]))]
                if earlier:
                    high = max(earlier, key=lambda c: STRENGTH[trump + 1][c])
                    higher = trumps & BEATS[high]
                    if higher:
                        return PlayRule(higher, "JJ-PLAY-6", "overtrump")
            return PlayRule(trumps, "JJ-PLAY-5", "trump")
    return PlayRule(hand, "JJ-PLAY-7", "")


# --- honor melds (JJ-MELD) ---------------------------------------------------

FOUR_ORDER_SUIT = (JACK, NINE, ACE, TEN, KING, QUEEN)  # JJ-MELD-2, suit contract
FOUR_ORDER_NT = (ACE, TEN, KING, QUEEN, JACK)  # JJ-MELD-2, NT and Nullo
SEQUENCE_VALUES = {3: 20, 4: 40}  # JJ-MELD-3; five or more: 50
RANK_CHARS = {14: "A", 13: "K", 12: "Q", 11: "J", 10: "T", 9: "9", 8: "8", 7: "7"}


class Meld(NamedTuple):
    """A declared honor meld: a four of a kind (``4K``) or a sequence (``KH-JH``).

    Two irregular forms are kept as data for the validator to rule on: the cards shown for a meld that is no
    meld (``KH-QH-JH-9H``, ``KD-QD-JH``, ``KS-KH-KD``: ``cards`` holds them, JJ-MELD-2/3 refuse them), and a meld
    announced by its class and length without its cards (``?-?-?``, ``4?``: ``shown`` is False, JJ-MELD-11).
    """

    kind: str  # "four" or "seq"
    rank: int  # the four's rank, or the sequence's top rank (sequence order JJ-DECK-4); 0 when not shown
    suit: int  # the sequence's suit; -1 for a four, or when not shown
    length: int
    cards: tuple[int, ...] = ()  # an irregular meld: the cards shown, in canonical order
    shown: bool = True  # False: announced by class and length only (JJ-MELD-11)

    @property
    def mask(self) -> int:
        m = _MELD_MASKS.get(self)
        if m is None:
            m = self._mask()
            if len(_MELD_MASKS) < 4096:
                _MELD_MASKS[self] = m
        return m

    def _mask(self) -> int:
        if self.cards:
            return sum(1 << c for c in set(self.cards))
        if not self.shown:
            return 0
        if self.kind == "four":
            return sum(1 << make_card(s, self.rank) for s in range(4))
        return sum(1 << make_card(self.suit, r) for r in range(self.rank - self.length + 1, self.rank + 1))

    @property
    def value(self) -> int:
        if self.kind == "four":
            return 100
        return SEQUENCE_VALUES.get(self.length, 50)

    def text(self) -> str:
        if self.cards:
            return "-".join(card_name(c) for c in self.cards)
        if not self.shown:
            return "4?" if self.kind == "four" else "-".join("?" * self.length)
        if self.kind == "four":
            return "4" + RANK_CHARS[self.rank]
        return f"{card_name(make_card(self.suit, self.rank))}-{card_name(make_card(self.suit, self.rank - self.length + 1))}"

    def describe(self) -> str:
        if self.cards:
            return " ".join(card_name(c) for c in self.cards)
        if not self.shown:
            return "a four of a kind, not shown" if self.kind == "four" else f"a sequence of {self.length} cards, not shown"
        if self.kind == "four":
            return f"four {RANK_CHARS[self.rank]}s"
        return f"sequence {self.text()} ({self.length} cards)"


_MELD_MASKS: dict[Meld, int] = {}  # a meld's cards as a mask, by the meld (a value: shared safely)


def _canonical_order(card: int) -> tuple[int, int]:
    return (card >> 4, -(card & 15))


def parse_meld(text: str) -> Meld:
    """``4K`` (four kings) or ``KH-JH`` (KH QH JH); also ``kh-qh-jh``, ``4k`` and ``KS-KH-KD-KC``.

    Cards that make no meld (``KH-QH-JH-9H``, ``KD-QD-JH``, ``KS-KH-KD``) are read as the meld declared, for the
    validator to refuse (JJ-MELD-2/3); ``?-?-?`` and ``4?`` are a sequence of three and a four announced
    without showing their cards (JJ-MELD-11).

    Raises:
        ValueError: not a meld.
    """
    from ..cards import parse_card

    t = text.strip().upper()
    if t == "4?":
        return Meld("four", 0, -1, 4, (), False)
    if len(t) == 2 and t[0] == "4":
        rank = {v: k for k, v in RANK_CHARS.items()}.get(t[1])
        if rank is None:
            raise ValueError(f"invalid meld '{text}': no rank '{t[1]}'")
        return Meld("four", rank, -1, 4)
    if t.startswith("4") and len(t) == 3 and t[1:] == "10":
        return Meld("four", TEN, -1, 4)
    parts = [p for p in t.split("-") if p]
    if len(parts) >= 2 and all(p == "?" for p in parts):
        return Meld("seq", 0, -1, len(parts), (), False)
    if len(parts) >= 2:
        cards = [parse_card(p) for p in parts]
        suits = {c >> 4 for c in cards}
        ranks = sorted((c & 15 for c in cards), reverse=True)
        shown = tuple(sorted(cards, key=_canonical_order))
        if len({c & 15 for c in cards}) == 1:
            if len(set(cards)) == 4:
                return Meld("four", ranks[0], -1, 4)  # the four written card by card
            return Meld("four", ranks[0], -1, len(cards), shown)  # fewer than four of a rank (JJ-MELD-2)
        top, low = ranks[0], ranks[-1]
        if len(suits) != 1 or (len(parts) > 2 and ranks != list(range(top, low - 1, -1))):
            # mixed suits, or cards not consecutive (JJ-MELD-3)
            return Meld("seq", top, shown[0] >> 4, len(cards), shown)
        return Meld("seq", top, suits.pop(), top - low + 1)
    raise ValueError(f"invalid meld '{text}' (write a four as 4K, a sequence as KH-JH)")


def _irregular(m: Meld, contract_kind: str) -> tuple[str, str] | None:
    """Why cards shown as a meld are no meld (JJ-MELD-2 for cards of one rank, JJ-MELD-3 for a sequence)."""
    names = " ".join(card_name(c) for c in m.cards)
    if m.kind == "four":
        return "JJ-MELD-2", (f"{{p}} declared {names} as a four of a kind, but a four of a kind is all four cards"
                             f" of one rank")
    if len({c >> 4 for c in m.cards}) > 1:
        return "JJ-MELD-3", f"{{p}} declared {names} as a sequence, but a sequence is of one suit"
    return "JJ-MELD-3", f"{{p}} declared {names} as a sequence, but the cards are not consecutive"


def longest_run(hand: int) -> int:
    """The longest run of one suit in ``hand`` in sequence order (JJ-MELD-3)."""
    best = 0
    for suit in range(4):
        run = 0
        for r in range(SEVEN, ACE + 1):
            run = run + 1 if hand >> make_card(suit, r) & 1 else 0
            best = max(best, run)
    return best


def _unshown_problem(m: Meld, hand: int, hand_known: bool, eligible: tuple[int, ...]) -> tuple[str, str] | None:
    """A meld announced without its cards: a sequence has three cards or more (JJ-MELD-3); a known hand holds
    such a meld (JJ-MELD-4)."""
    if m.kind == "seq":
        if m.length < 3:
            return "JJ-MELD-3", f"{{p}} announced a sequence of {m.length} cards; a sequence has three or more"
        if hand_known and longest_run(hand) < m.length:
            return "JJ-MELD-4", f"{{p}} announced a sequence of {m.length} cards but holds none"
    elif hand_known and not any(all(hand >> make_card(s, r) & 1 for s in range(4)) for r in eligible):
        return "JJ-MELD-4", "{p} announced a four of a kind but holds none that counts"
    return None


def four_order(contract_kind: str) -> tuple[int, ...]:
    return FOUR_ORDER_SUIT if contract_kind == "suit" else FOUR_ORDER_NT


def check_melds(melds: tuple[Meld, ...], hand: int, hand_known: bool, contract_kind: str,
                card_in_one_meld_only: bool = False, sequence_must_be_maximal: bool = False) -> tuple[str, str] | None:
    """Why a declaration is not valid (rule, reason), or None (JJ-MELD-2…5, JJ-MELD-15)."""
    seq_cards = 0
    four_cards = 0
    eligible = four_order(contract_kind)
    for m in melds:
        if m.cards:
            return _irregular(m, contract_kind)
        if not m.shown:
            bad = _unshown_problem(m, hand, hand_known, eligible)
            if bad:
                return bad
            continue
        mask = m.mask
        if m.kind == "four":
            if m.rank not in eligible:
                return "JJ-MELD-2", f"{{p}} declared four {RANK_CHARS[m.rank]}s, which are not a meld in {'a suit contract' if contract_kind == 'suit' else 'NT or Nullo'}"
            if four_cards & mask:
                return "JJ-MELD-15", f"{{p}} declared {m.text()} twice"
            four_cards |= mask
        else:
            if m.length < 3 or m.rank - m.length + 1 < SEVEN or m.rank > ACE:
                return "JJ-MELD-3", f"{{p}} declared {m.text()}, which is not a sequence of three or more cards"
            # JJ-MELD-15: no card in two sequences, no two adjacent sequences of a suit
            widened = mask | (mask << 1) | (mask >> 1)
            if seq_cards & widened:
                return "JJ-MELD-15", f"{{p}} declared {m.text()}, which overlaps or continues another of his sequences (a run is one sequence)"
            seq_cards |= mask
        if hand_known and mask & ~hand:
            missing = " ".join(card_name(c) for c in iter_cards(mask & ~hand))
            return "JJ-MELD-4", f"{{p}} declared {m.describe()} but does not hold {missing}"
    if card_in_one_meld_only and seq_cards & four_cards:
        return "JJ-MELD-5", "{p} used a card in a four and a sequence (variant card_in_one_meld_only)"
    if sequence_must_be_maximal and hand_known:
        for m in melds:
            if m.kind == "seq" and m.shown:
                above = make_card(m.suit, m.rank + 1) if m.rank < ACE else None
                below = make_card(m.suit, m.rank - m.length) if m.rank - m.length >= SEVEN else None
                if (above is not None and hand >> above & 1) or (below is not None and hand >> below & 1):
                    return "JJ-MELD-15", f"{{p}} declared {m.text()}, part of a longer run (variant sequence_must_be_maximal)"
    return None


def best_four(melds: tuple[Meld, ...], contract_kind: str) -> float:
    """Index of the best four in the eligibility order (lower is better), or 99.

    A four announced without its rank (``4?``) is taken as 0.5: it may beat any four but the highest, so it is
    the winner unless the other's four is the highest (JJ-MELD-11 then asks for it to be shown)."""
    order = four_order(contract_kind)
    return min((order.index(m.rank) if m.shown else 0.5 for m in melds
                if m.kind == "four" and not m.cards and (m.rank in order or not m.shown)), default=99)


def sequence_key(m: Meld, trump: int, by_value: bool) -> tuple[int, int, int]:
    """JJ-MELD-8: length (or value class with OP-17's variant), then top card, then trump.

    A sequence announced without its cards ranks above every shown sequence of its length: at equal length
    its top card would decide, so it is the winner until it is shown (JJ-MELD-11)."""
    length = min(m.length, 5) if by_value else m.length
    if not m.shown:
        return (length, 99, 9)
    return (length, m.rank, 1 if m.suit == trump else 0)
