"""The text notation (``.jjt``): a forgiving streaming reader and a canonical writer.

A file holds one or many sessions. A session is a block of ``[Tag "value"]``
lines followed by its hands; a hand starts with ``hand N dealer X`` and has
one line per part (``deal``, ``turned``, ``info``, ``auction``, ``after``,
``trick N:``, ``result``, ``claim``, ``score``). ``docs/notation.md`` gives the
grammar. Reading collects problems as `Issue` values with line and column;
writing gives one canonical text, and ``write(read(canonical)) == canonical``.

>>> text = '[Game "jojotte"]\\n\\nhand 1 dealer b\\nauction a pass, b pass, a pass, b pass\\n'
>>> print(write_session(read_sessions(text)[0]), end="")
[Format "1"]
[Game "jojotte"]
<BLANKLINE>
hand 1 dealer B
auction A pass, B pass, A pass, B pass
"""

from __future__ import annotations

import io
import itertools
import re
from typing import Callable, Iterable, Iterator, Sequence, TextIO

from ..cards import PLAIN_SUITS, card_name, parse_card
from ..errors import MAX_NUMBER, MAX_TAG_VALUE, Issue, Location, NotationError, number_too_large, plain_digits, shown
from ..games import is_event_game, rules_for
from ..rules.base import EventRules, find_variant
from ..rules.jojotte_cards import parse_meld
from .codec import HandBuilder, HandCodec, KeptText
from .event_text import EventHandBuilder, write_event_hand
from .model import (
    FORMAT_VERSION,
    TAG_ORDER,
    UNKNOWN_CARD,
    Call,
    EventHand,
    HandRecord,
    Play,
    SeatResult,
    Session,
    SessionHeader,
    Trick,
    WrittenScore,
)

_TOKEN = re.compile(r"\{[^}]*\}?|[,;:}]|[^\s,;:{}]+")
_TAG_NAME = re.compile(r"\[\s*([A-Za-z][\w.-]*)\s+\"")


class _TagMatch:
    """A ``[Name "value"]`` read by `_match_tag`: the name, the value as written (escapes kept), where it ends."""

    __slots__ = ("name", "raw", "_end")

    def __init__(self, name: str, raw: str, end: int):
        self.name, self.raw, self._end = name, raw, end

    def group(self, k: int) -> str:
        return self.name if k == 1 else self.raw

    def end(self) -> int:
        return self._end


def _match_tag(text: str) -> _TagMatch | None:
    """``[Name "value"]`` at the start of ``text``, read by a plain scan (time and memory linear in the line).

    A regular expression with a repeated group kept ~170 bytes per character of the value (issue 16).
    """
    m = _TAG_NAME.match(text)
    if m is None:
        return None
    start = pos = m.end()
    while True:
        q = text.find('"', pos)
        if q < 0:
            return None
        backslashes = 0
        while q - 1 - backslashes >= start and text[q - 1 - backslashes] == "\\":
            backslashes += 1
        if backslashes % 2 == 0:
            break
        pos = q + 1
    end = q + 1
    while end < len(text) and text[end].isspace():
        end += 1
    if end >= len(text) or text[end] != "]":
        return None
    return _TagMatch(m.group(1), text[start:q], end + 1)

SUIT_WORDS = {"S": 0, "H": 1, "D": 2, "C": 3, "SPADES": 0, "HEARTS": 1, "DIAMONDS": 2, "CLUBS": 3,
              "♠": 0, "♥": 1, "♦": 2, "♣": 3, "SPADE": 0, "HEART": 1, "DIAMOND": 2, "CLUB": 3}
CALL_WORDS = {
    "pass": "pass", "p": "pass", "-": "pass", "accept": "accept", "acc": "accept", "take": "accept",
    "name": "name", "nt": "nt", "notrump": "nt", "no-trump": "nt", "sa": "nt",
    "double": "double", "x": "double", "dbl": "double", "redouble": "redouble", "xx": "redouble", "rdbl": "redouble",
    "nullo": "nullo", "slam": "slam", "melds": "melds", "meld": "melds", "dix": "dix",
    # three players (JJ3-ACT, JJ3-DBL-2): the active defender, and the side chosen after a double
    "defend": "defend", "withdraw": "withdraw", "with": "with",
    "with_declarer": "with_declarer", "with-declarer": "with_declarer", "with_doubler": "with_doubler",
    "with-doubler": "with_doubler",
}
# the calls a trick line may hold among its cards: made during the play, they are irregular (JJ-DIX-3, JJ-MELD-1,
# JJ-POST-9) unless made before the first card of trick 1
TRICK_CALLS = ("dix", "melds", "nullo", "slam")
SIDE_WORDS = {"declarer": "with_declarer", "doubler": "with_doubler"}  # 'C with declarer', 'C with doubler'
# the spellings the fast path knows; anything else goes through the full tokenizer
_FAST_CARDS: dict[str, int] = {}
_FAST_DIGITS = len(str(MAX_NUMBER))  # the fast paths read numbers shorter than this; the full reader bounds the rest


def _read_once(cache: dict, text: str, read: Callable[[str], object], bound: int = 4096):
    """What ``read(text)`` gives (False for nothing), memoised in ``cache`` on the line's text, at most ``bound`` lines:
    the fast paths read a canonical line once per process and seats (`_line_memos`), since hands repeat most of their lines."""
    value = cache.get(text)
    if value is None:
        value = read(text) or False
        if len(cache) < bound:
            cache[text] = value
    return value
for _s in PLAIN_SUITS:
    for _r in range(2, 15):
        _code = _s * 16 + _r
        _FAST_CARDS[card_name(_code)] = _code
        _FAST_CARDS[card_name(_code).lower()] = _code
_FAST_BITS = {name: 1 << code for name, code in _FAST_CARDS.items()}  # a card's spelling -> its bit (`compact_deal`)
_FAST_ANNOUNCE = {"jo": "jo", "jotte": "jotte", "Jo": "jo", "Jotte": "jotte", "JO": "jo", "JOTTE": "jotte"}
_FAST_CALLS = {"pass": ("pass", -1), "accept": ("accept", -1), "nt": ("nt", -1), "double": ("double", -1),
               "redouble": ("redouble", -1), "nullo": ("nullo", -1), "slam": ("slam", -1), "dix": ("dix", -1),
               "defend": ("defend", -1), "withdraw": ("withdraw", -1)}
_FAST_SUITS = {"S": 0, "H": 1, "D": 2, "C": 3}  # ``name S`` (SUIT_WORDS, the canonical spellings)
_FAST_MELDS: dict = {}  # a meld's canonical text -> what `parse_meld` reads from it (a value: shared safely)

_CANONICAL_TAGS = {t.lower(): t for t in TAG_ORDER}
LINE_KEYS = ("hand", "deal", "turned", "info", "stock", "auction", "after", "trick", "result", "claim", "score")


class _Tok:
    __slots__ = ("text", "line", "col")

    def __init__(self, text: str, line: int, col: int):
        self.text = text
        self.line = line
        self.col = col

    @property
    def is_comment(self) -> bool:
        return self.text.startswith("{")

    @property
    def comment(self) -> str:
        return self.text[1:-1].strip() if self.text.endswith("}") else self.text[1:].strip()


def _tokenize(text: str, line: int, starts: list[int] | None) -> list[_Tok]:
    """Tokens of a logical line; ``starts`` holds the offsets of its physical lines."""
    out = []
    if starts is None:
        for m in _TOKEN.finditer(text):
            out.append(_Tok(m.group(), line, m.start() + 1))
        return out
    for m in _TOKEN.finditer(text):
        pos = m.start()
        k = 0
        while k + 1 < len(starts) and starts[k + 1] <= pos:
            k += 1
        out.append(_Tok(m.group(), line + k, pos - starts[k] + 1))
    return out


def _ends_inside_comment(text: str, inside: bool = False) -> bool:
    """Whether a ``{`` comment is still open at the end of ``text`` (``{`` inside a comment is text).

    In a tag line, braces inside the quoted value are text too.
    """
    if not inside and text.lstrip().startswith("["):
        m = _match_tag(text.lstrip())
        if m:
            text = text.lstrip()[m.end():]
    pos = 0
    while True:
        if inside:
            pos = text.find("}", pos)
            if pos < 0:
                return True
            inside = False
        else:
            pos = text.find("{", pos)
            if pos < 0:
                return False
            inside = True
        pos += 1


def _numbered(lines: Iterable[str], first_line: int = 1) -> Iterator[tuple[int, str]]:
    """The physical lines with their numbers, a byte-order mark stripped from the first."""
    it = iter(lines)
    head = next(it, None)
    if head is None:
        return iter(())
    if head.startswith("\ufeff"):
        head = head[1:]  # a byte-order mark is stripped
    return enumerate(itertools.chain((head,), it), first_line)


def _logical_line(raw: str, numbered: Iterator[tuple[int, str]]) -> tuple[str, list[int] | None]:
    """The physical line ``raw`` as a logical line: its text, as it is (offsets None) or, when it ends inside a ``{``
    comment, joined with the next lines of ``numbered`` until the comment is closed (or the lines end), with the
    offsets of its physical lines."""
    raw = raw.rstrip("\r\n")
    if "{" not in raw or not _ends_inside_comment(raw):
        return raw, None
    buf = [raw]
    for _, raw in numbered:
        raw = raw.rstrip("\r\n")
        buf.append(raw)
        if not _ends_inside_comment(raw, True) or not _ends_inside_comment("\n".join(buf)):
            break
    offsets = [0]
    for b in buf[:-1]:
        offsets.append(offsets[-1] + len(b) + 1)
    return "\n".join(buf), offsets


def _logical_lines(lines: Iterable[str], first_line: int = 1) -> Iterator[tuple[int, str, list[int] | None]]:
    """Physical lines joined while a ``{`` comment is open (`_logical_line`): (line number, text, line offsets)."""
    numbered = _numbered(lines, first_line)
    for no, raw in numbered:
        yield (no, *_logical_line(raw, numbered))


class _HandBuilder:
    """Collects the lines of one hand and builds its `HandRecord`, recording what it cannot read."""

    def __init__(self, reader: "SessionReader", number: int, dealer: int, line: int):
        self.r = reader
        self.number = number
        self.dealer = dealer
        self.line = line
        self.dealt: list = [None] * reader.seats
        self.drawn: list | None = None
        self.split = False
        self.turned: int | None = None
        self.info: int | None = None
        self.stock = None
        self.auction: list[Call] = []
        self.after: list[Call] = []
        self.tricks: list[Trick] = []
        self.claim = -1
        self.result: list[SeatResult] = []
        self.score: WrittenScore | None = None
        self.notes: dict[str, list[str]] = {}
        self.issues: list[Issue] = []
        self.extra: list[tuple[str, str]] = []
        self.marks: list[tuple[str, int, int]] = []

    def error(self, tok: _Tok | None, message: str, rule: str = "NOTATION", line: int | None = None):
        loc = Location(source=self.r.source, line=tok.line if tok else line, column=tok.col if tok else 1,
                       hand=self.number)
        self.issues.append(Issue(rule, message, loc, kind="syntax", token=tok.text if tok else None))

    # --- the `HandBuilder` interface (notation/codec.py) ---------------------------------
    def fast_line(self, text: str, line_no: int) -> bool:
        """A plain canonical line read without the tokenizer; False: the full reader reads it."""
        r = self.r
        key = text[:6]
        if key == "trick ":
            return r.fast_trick(self, text, line_no)
        if key == "auctio":
            return text.startswith("auction ") and r.fast_calls(self, text, line_no, self.auction)
        if key == "after ":
            return r.fast_calls(self, text, line_no, self.after)
        if key[:5] == "deal ":
            return r.fast_deal(self, text, line_no)
        if key == "turned" or key[:5] == "info ":
            return r.fast_card_line(self, text, line_no)
        if key == "score ":
            return r.fast_score(self, text, line_no)
        return False

    def add_line(self, toks: Sequence, text: str | None = None) -> None:
        first = toks[0]
        key = first.text.lower()
        if key in LINE_KEYS and key != "hand":
            try:
                self.r.line(self, key, list(toks[1:]), first)
            except (IndexError, ValueError) as e:  # a line too short to read
                self.error(first, f"cannot read this '{key}' line ({shown(str(e))})")
        else:
            rest = " ".join(t.text for t in toks[1:]) if text is None else text[first.col - 1 + len(first.text):].strip()
            self.extra.append((first.text, rest))
            self.error(first, f"unknown line '{shown(first.text)}' (kept; known lines: {', '.join(LINE_KEYS)})")

    def add_comments(self, comments: list[str]) -> None:
        _bind_trailing(self, comments)

    def build(self) -> HandRecord:
        return HandRecord(
            self.number, self.dealer, tuple(self.dealt), tuple(self.drawn) if self.drawn is not None else None,
            self.split, self.turned, self.info, self.stock, tuple(self.auction), tuple(self.after), tuple(self.tricks),
            self.claim, tuple(self.result), self.score, self.line,
            tuple((k, tuple(v)) for k, v in self.notes.items()), tuple(self.issues), tuple(self.extra), tuple(self.marks))


_NO_DEAL = (None, None)


class CompactHand:
    """A two-player hand written in plain canonical lines, read only as far as the fast replay reads it (issue 14):
    the dealer, the deal and the draw (``masks``: each seat's first cards then each seat's draw as bitmasks, when the
    deal line is canonical, `SessionReader.compact_deal`; else ``dealt`` and ``drawn`` as card codes), the turned and
    information cards, the calls, the tricks as plain
    values (`SessionReader.compact_trick`) and the written score (of lines seen before: shared, with no places). `iter_records` yields it with
    ``compact=True``; its `HandBuilder` methods read a line or refuse it (anything else: `full` hands the lines read
    so far to the full reader, which goes on). `record` is the full reader's `HandRecord` of the same lines, for a
    validator that needs more than the fast replay (any finding, any doubt)."""

    __slots__ = ("codec", "number", "dealer", "line", "dealer_col", "lines", "masks", "dealt", "drawn", "split", "turned",
                 "info", "auction", "after", "tricks", "score")
    stock = None
    claim = -1
    result = ()
    issues = ()
    extra = ()

    def __init__(self, codec: "JojotteHands", number: int, dealer: int, line: int, dealer_col: int):
        self.codec = codec
        self.number = number
        self.dealer = dealer
        self.line = line
        self.dealer_col = dealer_col
        self.lines: list[tuple[int, str]] = []  # the hand's lines after the first, as read
        self.masks = None
        self.dealt = _NO_DEAL
        self.drawn = None
        self.split = False
        self.turned = self.info = self.score = None
        self.auction = self.after = ()
        self.tricks: list[tuple] = []  # `SessionReader.compact_trick`'s values

    def mark(self, key: str) -> None:
        """Where the hand writes ``key``: never known, the compact reading keeps no place (`HandRecord.mark`)."""
        return None

    def fast_line(self, text: str, line_no: int) -> bool:
        """Read a plain line; False: not one this reader takes (the caller hands the hand to `full`)."""
        r = self.codec.reader
        key = text[:6]
        if key == "trick ":
            t = r.compact_lines.get(text) or _read_once(r.compact_lines, text, r.compact_trick, 32768)
            if not t or t[0] != len(self.tricks) + 1:
                return False
            self.tricks.append(t)
        elif key == "auctio":
            if self.auction or not text.startswith("auction "):
                return False
            calls = r.compact_lines.get(text) or _read_once(r.compact_lines, text, r.compact_calls, 32768)
            if not calls:
                return False
            self.auction = calls
        elif key == "after ":
            calls = None if self.after else r.compact_lines.get(text) or _read_once(r.compact_lines, text, r.compact_calls, 32768)
            if not calls:
                return False
            self.after = calls
        elif key[:5] == "deal ":
            if self.dealt is not _NO_DEAL or self.masks is not None:
                return False
            masks = r.compact_deal(text)
            if masks is not None:
                self.masks = masks
                self.split = True
            else:
                got = r.read_deal(text)
                if got is None:
                    return False
                self.dealt, self.drawn = got
                self.split = self.drawn is not None
        elif key == "turned" or key[:5] == "info ":
            read = _read_once(r.card_lines, text, r._read_card_line)
            if not read:
                return False
            if read[0] == "turned":
                if self.turned is not None:
                    return False
                self.turned = read[1]
            else:
                if self.info is not None:
                    return False
                self.info = read[1]
        elif key == "score ":
            score = None if self.score is not None else _read_once(r.compact_lines, text, r.compact_score, 32768)
            if not score:
                return False
            self.score = score
        else:
            return False
        self.lines.append((line_no, text))
        return True

    def build(self) -> "CompactHand":
        return self

    def full(self) -> _HandBuilder:
        """The full reader's builder of this hand, having read its lines so far (as `iter_records` reads them)."""
        hb = _HandBuilder(self.codec.reader, self.number, self.dealer, self.line)
        hb.marks.append(("dealer", self.line, self.dealer_col))
        for no, text in self.lines:
            if not hb.fast_line(text, no):
                hb.add_line(_tokenize(text, no, None), text)
        return hb

    def record(self) -> HandRecord:
        """The hand as the full reader reads it."""
        return self.full().build()


# The fast paths' memos of lines read (`SessionReader`), shared by the sessions of one process with the same seats and
# sheet's columns, which alone decide what a line reads as (a --jobs worker reads many chunks of sessions, a file many
# sessions: each would otherwise start cold). (seat labels, score labels) -> the memos.
_LINE_MEMOS: dict = {}
LINE_MEMO_LIMIT = 40_000  # lines in all the memos of one key; a session beyond starts them afresh


def _line_memos(key: tuple) -> tuple[dict, ...]:
    got = _LINE_MEMOS.get(key)
    if got is None or sum(map(len, got)) > LINE_MEMO_LIMIT:
        got = _LINE_MEMOS[key] = tuple({} for _ in range(6))
    return got


class SessionReader:
    """Reads one session's hands from logical lines. Used through `iter_records`."""

    def __init__(self, header: SessionHeader):
        self.header = header
        self.source = header.source
        game = header.get("Game") or "jojotte"
        try:
            self.rules_class = find_variant(game)
        except ValueError:
            from ..rules.jojotte import JojotteRules

            self.rules_class = JojotteRules
        self.labels = self.rules_class.seat_labels
        self.seats = len(self.labels)
        self.seat_of = {lab.upper(): i for i, lab in enumerate(self.labels)}
        # a full trick written canonically, one item a seat (see `fast_trick`)
        seat = "(" + "|".join(sorted(map(re.escape, self.seat_of), key=len, reverse=True)) + ")"
        item = seat + r" (\S\S)(?: (jo|jotte))?"
        self.trick_line = re.compile(r"trick (\d{1,6}): " + ", ".join([item] * self.seats) + "(?: -> " + seat + ")?$")
        self.trick_body = re.compile(", ".join([item] * self.seats) + "(?: -> " + seat + ")?$")  # what follows ``trick N: ``
        # the score line names the sheet's columns: the players, or the sides (NS, EW) in a partnership game
        self.score_labels = (self.rules_class.sheet_labels or self.labels)
        self.score_of = {lab.upper(): i for i, lab in enumerate(self.score_labels)}
        # the lines read by the fast paths, by their text: `fast_calls`' lines of calls, `fast_score`'s score lines,
        # `fast_trick`'s two-player trick lines, `fast_card_line`'s turned and info lines, `CompactHand.fast_line`'s
        # trick, calls and score lines, `compact_trick`'s two-player tricks' items (`_line_memos`)
        (self.call_lines, self.score_lines, self.trick_lines, self.card_lines, self.compact_lines,
         self.trick_bodies) = _line_memos((self.labels, self.score_labels))
        labels_of = {s: lab for lab, s in self.seat_of.items()}
        self.deal_heads = (labels_of[0] + ":", labels_of[1] + ":") if self.seats == 2 else ()  # `compact_deal`

    # --- helpers -----------------------------------------------------------------
    def seat(self, hb: _HandBuilder, tok: _Tok | None) -> int | None:
        if tok is None:
            hb.error(None, "a seat is missing", line=hb.line)
            return None
        s = self.seat_of.get(tok.text.upper())
        if s is None:
            hb.error(tok, f"unknown seat '{shown(tok.text)}' (seats are {' '.join(self.labels)})")
        return s

    def card(self, hb: _HandBuilder, tok: _Tok) -> int | None:
        if tok.text == "?":
            return UNKNOWN_CARD
        try:
            return parse_card(tok.text)
        except ValueError:
            hb.error(tok, f"invalid card '{shown(tok.text)}' (expected a rank A K Q J T 9 8 7 then a suit S H D C)")
            return None

    @staticmethod
    def split_items(toks: list[_Tok], sep: str = ",") -> list[list[_Tok]]:
        items: list[list[_Tok]] = [[]]
        for t in toks:
            if t.text == sep or (sep == "," and t.text == ";"):
                items.append([])
            else:
                items[-1].append(t)
        return [i for i in items if i]

    @staticmethod
    def peel_comments(toks: list[_Tok]) -> tuple[list[_Tok], tuple[str, ...]]:
        words = [t for t in toks if not t.is_comment]
        return words, tuple(t.comment for t in toks if t.is_comment)

    def int_of(self, hb: _HandBuilder, tok: _Tok | None, what: str) -> int | None:
        if tok is None:
            hb.error(None, f"{what} is missing", line=hb.line)
            return None
        if plain_digits(tok.text.lstrip("+")) and (big := number_too_large(what, tok.text)):
            hb.error(tok, big)
            return None
        try:
            return int(tok.text.lstrip("+"))
        except ValueError:
            hb.error(tok, f"expected {what}, found '{shown(tok.text)}'")
            return None

    # --- fast paths for plain canonical lines (no comments); None means "use the full reader" ---
    def fast_trick(self, hb: _HandBuilder, text: str, line_no: int) -> bool:
        if self.seats == 2:
            # two players (the common case): a canonical trick line read once (memoised on its text)
            two = _read_once(self.trick_lines, text, self._read_trick2, 32768)
            if two and two[0] == len(hb.tricks) + 1:
                number, sa, ca, aa, col_a, sb, cb, ab, col_b, w = two
                play = Play._make
                hb.tricks.append(Trick._make((number, (play((sa, ca, aa, line_no, col_a, ())),
                                                       play((sb, cb, ab, line_no, col_b, ()))), w, line_no, 1, (), ())))
                return True
        m = self.trick_line.match(text)
        if m is not None:
            # the canonical line of a full trick (``trick 3: A KH jo, B AH -> B``): one match, columns from it
            g = m.groups()
            number = len(hb.tricks) + 1
            if g[0] == str(number):
                seat_of = self.seat_of
                plays = []
                for k in range(1, 3 * self.seats, 3):
                    card = _FAST_CARDS.get(g[k + 1])
                    if card is None:
                        break
                    plays.append(Play(seat_of[g[k]], card, g[k + 2] or "", line_no, m.start(k + 2) + 1))
                else:
                    w = g[-1]
                    hb.tricks.append(Trick(len(hb.tricks) + 1, tuple(plays), -1 if w is None else seat_of[w], line_no, 1))
                    return True
        colon = text.find(":")
        if colon < 0:
            return False
        head = text[:colon].split()
        number = len(hb.tricks) + 1
        if len(head) != 2 or head[1] != str(number):
            return False
        body = text[colon + 1:]
        winner = -1
        arrow = body.find("->")
        if arrow >= 0:
            w = self.seat_of.get(body[arrow + 2:].strip().upper())
            if w is None:
                return False
            winner = w
            body = body[:arrow]
        plays = []
        pos = colon
        seat_of = self.seat_of
        for item in body.split(","):
            parts = item.split()
            n = len(parts)
            if n != 2 and n != 3:
                return False
            seat = seat_of.get(parts[0])
            card = _FAST_CARDS.get(parts[1])
            if seat is None or card is None:
                return False
            announce = ""
            if n == 3:
                announce = _FAST_ANNOUNCE.get(parts[2])
                if announce is None:
                    return False
            pos = text.find(parts[1], text.find(parts[0], pos + 1) + 1)
            plays.append(Play(seat, card, announce, line_no, pos + 1))
        hb.tricks.append(Trick(number, tuple(plays), winner, line_no, 1))
        return True

    def _read_trick2(self, text: str) -> tuple | None:
        """A canonical two-player trick line as ``(number, seat, card, announce, column, seat, card, announce,
        column, winner)``, None when it is not one."""
        m = self.trick_line.match(text)
        if m is None:
            return None
        number, sa, ca, aa, sb, cb, ab, w = m.groups()
        card_a, card_b = _FAST_CARDS.get(ca), _FAST_CARDS.get(cb)
        if card_a is None or card_b is None or number != str(int(number)):
            return None
        seat_of = self.seat_of
        return (int(number), seat_of[sa], card_a, aa or "", m.start(3) + 1, seat_of[sb], card_b, ab or "", m.start(6) + 1,
                -1 if w is None else seat_of[w])

    def compact_trick(self, text: str) -> tuple | None:
        """A canonical two-player trick line as the plain values the fast replay reads (no places: a
        `CompactHand`'s), ``(number, seat, card, announce, seat, card, announce, winner)``, None when it is not one:
        what `_read_trick2` reads of it, its items read once whatever the trick's number (`_read_trick_body`,
        memoised on the text after ``trick N: ``)."""
        head, sep, body = text.partition(": ")
        number = head[6:]
        if (head[:6] != "trick " or not sep or not 0 < len(number) <= 6 or not plain_digits(number)
                or number != str(int(number))):
            return None
        got = _read_once(self.trick_bodies, body, self._read_trick_body, 32768)
        return (int(number), *got) if got else None

    def _read_trick_body(self, body: str) -> tuple | None:
        """The items of a canonical two-player trick line after ``trick N: ``, as the end of its `compact_trick`:
        ``(seat, card, announce, seat, card, announce, winner)``; None when they are not canonical."""
        m = self.trick_body.match(body)
        if m is None:
            return None
        sa, ca, aa, sb, cb, ab, w = m.groups()
        card_a, card_b = _FAST_CARDS.get(ca), _FAST_CARDS.get(cb)
        if card_a is None or card_b is None:
            return None
        seat_of = self.seat_of
        return seat_of[sa], card_a, aa or "", seat_of[sb], card_b, ab or "", -1 if w is None else seat_of[w]

    def compact_calls(self, text: str) -> tuple[Call, ...] | None:
        """The calls of a canonical line as the `Call` values the fast replay reads (no places), None when it is not
        one."""
        calls = None if "}" in text else self._read_calls(text)
        return None if not calls else tuple(Call(seat, kind, suit, melds, 0, 0) for seat, kind, suit, melds, _ in calls)

    def compact_score(self, text: str) -> WrittenScore | None:
        """The written figures of a canonical score line (no place), None when it is not one."""
        figures = self._read_score(text)
        return None if figures is None else WrittenScore(*figures, 0, 1)

    def fast_deal(self, hb: _HandBuilder, text: str, line_no: int) -> bool:
        got = self.read_deal(text)
        if got is None:
            return False
        hb.dealt, hb.drawn = got
        hb.split = hb.drawn is not None
        hb.marks.append(("deal", line_no, 1))
        return True

    def compact_deal(self, text: str) -> tuple[int, int, int, int] | None:
        """The cards `read_deal` reads of a two-player deal line written canonically with six cards a seat and three
        drawn (``deal A: 8S 8H KD QD KC TC + QH AD TD; B: …``), in one split, as the bitmasks the fast replay reads:
        each seat's first cards, then each seat's draw (a card written twice is there once: the replay's count of
        the cards refuses it, `JojotteRules.dealt_in_full`); None for any other line."""
        parts = text.split(" ")
        if len(parts) != 23 or parts[1] != self.deal_heads[0] or parts[12] != self.deal_heads[1] or parts[8] != "+" \
                or parts[19] != "+" or parts[11][2:] != ";":
            return None
        b = _FAST_BITS.__getitem__
        try:
            return (b(parts[2]) | b(parts[3]) | b(parts[4]) | b(parts[5]) | b(parts[6]) | b(parts[7]),
                    b(parts[13]) | b(parts[14]) | b(parts[15]) | b(parts[16]) | b(parts[17]) | b(parts[18]),
                    b(parts[9]) | b(parts[10]) | b(parts[11][:2]), b(parts[20]) | b(parts[21]) | b(parts[22]))
        except KeyError:
            return None

    def read_deal(self, text: str) -> tuple[list, list | None] | None:
        """``(dealt, drawn)`` of a plain deal line (``drawn`` None when no draw is written), None when the full
        reader reads it."""
        if ":" not in text or "?" in text or "-" in text:
            return None
        dealt = [None] * self.seats
        drawn = None
        card = _FAST_CARDS.__getitem__  # a spelling the fast path does not know raises KeyError: the full reader
        try:
            for group in text[5:].split(";"):
                lab, colon, body = group.partition(":")
                seat = self.seat_of.get(lab.strip())
                if seat is None or not colon or dealt[seat] is not None:
                    return None
                first, plus, second = body.partition("+")
                dealt[seat] = tuple(map(card, first.split()))
                if plus:
                    if drawn is None:
                        drawn = [None] * self.seats
                    drawn[seat] = tuple(map(card, second.split()))
        except KeyError:
            return None
        if drawn is not None and None in drawn:
            return None
        return dealt, drawn

    def fast_card_line(self, hb: _HandBuilder, text: str, line_no: int) -> bool:
        """A canonical ``turned`` or ``info`` line, read once (memoised on its text)."""
        read = _read_once(self.card_lines, text, self._read_card_line)
        if not read:
            return False
        key, card, col = read
        if key == "turned":
            hb.turned = card
        else:
            hb.info = card
        hb.marks.append((key, line_no, col))
        return True

    def _read_card_line(self, text: str) -> tuple | None:
        """``(turned or info, card, column)`` of a canonical ``turned`` or ``info`` line, None when it is not one."""
        parts = text.split()
        if len(parts) != 2 or parts[0] not in ("turned", "info"):
            return None
        card = _FAST_CARDS.get(parts[1])
        if card is None:
            return None
        return parts[0], card, text.find(parts[1], len(parts[0])) + 1

    def fast_score(self, hb: _HandBuilder, text: str, line_no: int) -> bool:
        """A canonical score line, read once (memoised on its text: the figures repeat)."""
        figures = _read_once(self.score_lines, text, self._read_score)
        if not figures:
            return False
        hb.score = WrittenScore._make((*figures, line_no, 1))
        return True

    def _read_score(self, text: str) -> tuple | None:
        """``(below, above, aside)`` of a canonical score line, None when it is not one."""
        below = [0] * len(self.score_labels)
        above = [0] * len(self.score_labels)
        aside = 0
        body = text[6:]
        if body.strip() != "none":
            for item in body.split(","):
                parts = item.split()
                if len(parts) == 2 and parts[0] == "aside" and plain_digits(parts[1]) and len(parts[1]) < _FAST_DIGITS:
                    aside = int(parts[1])
                    continue
                if len(parts) not in (3, 5):
                    return None
                seat = self.score_of.get(parts[0])
                if seat is None:
                    return None
                for i in range(1, len(parts), 2):
                    if not plain_digits(parts[i + 1]) or len(parts[i + 1]) >= _FAST_DIGITS:
                        return None
                    if parts[i] == "below":
                        below[seat] += int(parts[i + 1])
                    elif parts[i] == "above":
                        above[seat] += int(parts[i + 1])
                    else:
                        return None
        return tuple(below), tuple(above), aside

    def fast_calls(self, hb: _HandBuilder, text: str, line_no: int, target: list) -> bool:
        """A canonical line of calls (``auction B pass, A name S``, ``after A melds KH-JH 4K, B pass``): what
        `_calls` reads from it, each call located at its seat's column; False to leave the line to `_calls`. A line
        is read once (`_read_calls`, memoised on its text); only its line number differs."""
        calls = _read_once(self.call_lines, text, self._read_calls)
        if not calls:
            return False
        call = Call._make
        target.extend([call((seat, kind, suit, melds, line_no, col, ())) for seat, kind, suit, melds, col in calls])
        return True

    def _read_calls(self, text: str) -> tuple | None:
        """The calls of a canonical line as ``(seat, kind, suit, melds, column)``, None when it is not one."""
        key_end = text.find(" ")
        if key_end < 0 or ";" in text or ":" in text:
            return None
        out = []
        start = key_end  # the offset of the current item in ``text``
        seat_of = self.seat_of
        for item in text[key_end:].split(","):
            parts = item.split()
            n = len(parts)
            if n < 2:
                return None
            seat = seat_of.get(parts[0])
            if seat is None:
                return None
            col = start + len(item) - len(item.lstrip()) + 1
            start += len(item) + 1
            if n == 2:
                call = _FAST_CALLS.get(parts[1])
                if call is None:
                    return None
                out.append((seat, call[0], call[1], (), col))
            elif parts[1] == "name":
                suit = _FAST_SUITS.get(parts[2])
                if n != 3 or suit is None:
                    return None
                out.append((seat, "name", suit, (), col))
            elif parts[1] == "melds":
                melds = []
                for w in parts[2:]:
                    m = _FAST_MELDS.get(w)
                    if m is None:
                        try:
                            m = parse_meld(w)
                        except ValueError:
                            return None  # `_calls` says why
                        if len(_FAST_MELDS) < 4096:
                            _FAST_MELDS[w] = m
                    melds.append(m)
                out.append((seat, "melds", -1, tuple(melds), col))
            else:
                return None
        return tuple(out)

    # --- lines -------------------------------------------------------------------
    def line(self, hb: _HandBuilder, key: str, toks: list[_Tok], first: _Tok):
        # comments right after the keyword (before any item) bind to the whole line
        lead = []
        while toks and toks[0].is_comment:
            lead.append(toks.pop(0).comment)
        if lead:
            hb.notes.setdefault(key, []).extend(lead)
        getattr(self, "line_" + key)(hb, toks, first)

    def line_deal(self, hb, toks, first):
        hb.marks.append(("deal", first.line, first.col))
        words, comments = self.peel_comments(toks)
        if comments:
            hb.notes.setdefault("deal", []).extend(comments)
        groups = self.split_items(words, ";")
        for g in groups:
            if len(g) >= 2 and g[1].text == ":":
                g = [g[0]] + g[2:]
            seat = self.seat(hb, g[0])
            if seat is None:
                continue
            if hb.dealt[seat] is not None:
                hb.error(g[0], f"the hand of {self.labels[seat]} is given twice")
            body = g[1:]
            if len(body) == 1 and body[0].text == "-":
                continue
            cards: list[int] = []
            drawn: list[int] | None = None
            for t in body:
                if t.text in ("+", "/", "|"):
                    if drawn is not None:
                        hb.error(t, "a hand has one '+' between the dealt and the drawn cards")
                    drawn = []
                    continue
                c = self.card(hb, t)
                if c is not None:
                    (drawn if drawn is not None else cards).append(c)
            hb.dealt[seat] = tuple(cards)
            if drawn is not None:
                if hb.drawn is None:
                    hb.drawn = [None] * self.seats
                hb.drawn[seat] = tuple(drawn)
        hb.split = hb.drawn is not None
        if hb.drawn is not None and any(d is None and h is not None for d, h in zip(hb.drawn, hb.dealt)):
            hb.error(first, "give the drawn cards (after '+') for every hand, or for none")
            hb.split = False

    def _single_card(self, hb, toks, first, key):
        words, comments = self.peel_comments(toks)
        if comments:
            hb.notes.setdefault(key, []).extend(comments)
        if len(words) != 1:
            hb.error(words[1] if len(words) > 1 else first, f"'{key}' takes one card")
            return None
        hb.marks.append((key, words[0].line, words[0].col))
        return self.card(hb, words[0])

    def line_turned(self, hb, toks, first):
        words = [t for t in toks if not t.is_comment]
        # "turned 9H info 8C" on one line is accepted
        if len(words) >= 3 and words[1].text.lower() == "info":
            i = toks.index(words[1])
            hb.info = self._single_card(hb, toks[i + 1:], words[1], "info")
            toks = toks[:i]
        c = self._single_card(hb, toks, first, "turned")
        hb.turned = None if c == UNKNOWN_CARD else c

    def line_info(self, hb, toks, first):
        c = self._single_card(hb, toks, first, "info")
        hb.info = None if c == UNKNOWN_CARD else c

    def line_stock(self, hb, toks, first):
        words, comments = self.peel_comments(toks)
        if comments:
            hb.notes.setdefault("stock", []).extend(comments)
        cards = [self.card(hb, t) for t in words]
        hb.stock = tuple(c for c in cards if c is not None)

    def _calls(self, hb, toks, after: bool) -> list[Call]:
        out: list[Call] = []
        for item in self.split_items(toks):
            words = [t for t in item if not t.is_comment]
            comments = tuple(t.comment for t in item if t.is_comment)
            if not words:
                if out:
                    out[-1] = out[-1]._replace(comments=out[-1].comments + comments)
                continue
            seat = self.seat(hb, words[0])
            if len(words) < 2:
                hb.error(words[0], f"a call is a seat and a word, e.g. '{self.labels[0]} pass'")
                continue
            verb_tok = words[1]
            verb = verb_tok.text.lower()
            suit = -1
            melds: tuple = ()
            kind = CALL_WORDS.get(verb)
            rest = words[2:]
            if kind is None and verb.upper() in SUIT_WORDS:
                kind, suit = "name", SUIT_WORDS[verb.upper()]
            elif kind == "name":
                if not rest or rest[0].text.upper() not in SUIT_WORDS:
                    hb.error(rest[0] if rest else verb_tok, "NAME needs a suit (S, H, D or C)")
                    continue
                suit = SUIT_WORDS[rest[0].text.upper()]
                rest = rest[1:]
            elif kind == "with":
                if not rest or rest[0].text.lower() not in SIDE_WORDS:
                    hb.error(rest[0] if rest else verb_tok, "a side is chosen 'with declarer' or 'with doubler'")
                    continue
                kind = SIDE_WORDS[rest[0].text.lower()]
                rest = rest[1:]
            elif kind == "melds":
                ms = []
                for t in rest:
                    try:
                        ms.append(parse_meld(t.text))
                    except ValueError as e:
                        hb.error(t, str(e))
                melds = tuple(ms)
                rest = []
            if kind is None:
                hb.error(verb_tok, f"unknown call '{shown(verb_tok.text)}'")
                continue
            if rest:
                hb.error(rest[0], f"unexpected '{shown(rest[0].text)}' after the call")
            if seat is None:
                continue
            out.append(Call(seat, kind, suit, melds, words[0].line, words[0].col, comments))
        return out

    def line_auction(self, hb, toks, first):
        hb.auction.extend(self._calls(hb, toks, after=False))

    def line_after(self, hb, toks, first):
        hb.after.extend(self._calls(hb, toks, after=True))

    def line_trick(self, hb, toks, first):
        number = len(hb.tricks) + 1
        if toks and not toks[0].is_comment and plain_digits(toks[0].text.rstrip(".")):
            big = number_too_large("trick number", toks[0].text.rstrip("."))
            n = -1 if big else int(toks[0].text.rstrip("."))
            if big:
                hb.error(toks[0], big)
            elif n != number:
                hb.error(toks[0], f"trick {n} follows trick {number - 1}; tricks are numbered in order")
            toks = toks[1:]
        if toks and toks[0].text == ":":
            toks = toks[1:]
        winner = -1
        for i, t in enumerate(toks):
            if t.text in ("->", "=>", "=", ">"):
                w = [x for x in toks[i + 1:] if not x.is_comment]
                if w:
                    s = self.seat(hb, w[0])
                    winner = -1 if s is None else s
                toks = toks[:i] + [x for x in toks[i + 1:] if x.is_comment]
                break
        plays: list[Play] = []
        calls: list[tuple[int, Call]] = []
        pending_comments: list[str] = []
        for item in self.split_items(toks):
            words = [t for t in item if not t.is_comment]
            comments = tuple(t.comment for t in item if t.is_comment)
            if not words:
                if calls and calls[-1][0] == len(plays):
                    k, c = calls[-1]
                    calls[-1] = (k, c._replace(comments=c.comments + comments))
                elif plays:
                    plays[-1] = plays[-1]._replace(comments=plays[-1].comments + comments)
                else:
                    pending_comments.extend(comments)
                continue
            if len(words) >= 2 and CALL_WORDS.get(words[1].text.lower()) in TRICK_CALLS:
                # a call made during the play (a late dix, JJ-DIX-3): data, for the validator to rule on
                calls.extend((len(plays), c) for c in self._calls(hb, item, after=True))
                continue
            if len(words) < 2:
                hb.error(words[0], f"a card played is a seat and a card, e.g. '{self.labels[0]} KS'")
                continue
            seat = self.seat(hb, words[0])
            card = self.card(hb, words[1])
            announce = ""
            if len(words) > 2:
                a = words[2].text.lower()
                if a in ("jo", "jotte"):
                    announce = a
                else:
                    announce = a  # kept as written; the validator rules on it (JJ-JOJOTTE-8)
                if len(words) > 3:
                    hb.error(words[3], f"unexpected '{shown(words[3].text)}' after the card")
            if seat is None or card is None:
                continue
            plays.append(Play(seat, card, announce, words[1].line, words[1].col, comments))
        hb.tricks.append(Trick(number, tuple(plays), winner, first.line, first.col, tuple(pending_comments), tuple(calls)))

    def line_claim(self, hb, toks, first):
        words, comments = self.peel_comments(toks)
        if comments:
            hb.notes.setdefault("claim", []).extend(comments)
        if not words:
            hb.error(first, "'claim' names the player who takes the remaining tricks")
            return
        s = self.seat(hb, words[0])
        if s is not None:
            hb.claim = s

    def line_result(self, hb, toks, first):
        words, comments = self.peel_comments(toks)
        if comments:
            hb.notes.setdefault("result", []).extend(comments)
        for item in self.split_items(words):
            seat = self.seat(hb, item[0])
            tricks = points = None
            rest = item[1:]
            i = 0
            while i < len(rest):
                n = self.int_of(hb, rest[i], "a number")
                unit = rest[i + 1].text.lower() if i + 1 < len(rest) else ""
                if unit.startswith("trick"):
                    tricks = n
                elif unit.startswith("point") or unit.startswith("pt"):
                    points = n
                else:
                    hb.error(rest[i + 1] if i + 1 < len(rest) else rest[i], "write 'N tricks' and 'N points'")
                i += 2
            if seat is not None and tricks is not None and points is not None:
                hb.result.append(SeatResult(seat, tricks, points))
            elif seat is not None:
                hb.error(item[0], "a result gives both the tricks and the points, e.g. 'A 6 tricks 110 points'")

    def line_score(self, hb, toks, first):
        words, comments = self.peel_comments(toks)
        if comments:
            hb.notes.setdefault("score", []).extend(comments)
        below = [0] * len(self.score_labels)
        above = [0] * len(self.score_labels)
        aside = 0
        if len(words) == 1 and words[0].text.lower() in ("none", "-", "0"):
            hb.score = WrittenScore(tuple(below), tuple(above), 0, first.line, first.col)
            return
        for item in self.split_items(words):
            head = item[0].text.lower()
            if head in ("aside", "held", "pool"):
                aside = self.int_of(hb, item[1] if len(item) > 1 else None, "the points held aside") or 0
                continue
            seat = self.score_of.get(item[0].text.upper())
            if seat is None:
                hb.error(item[0], f"unknown seat '{shown(item[0].text)}' on the score line (the sheet's columns are {' '.join(self.score_labels)})")
            rest = item[1:]
            if not rest:
                hb.error(item[0], "write 'below N' and/or 'above N' after the seat")
            for i in range(0, len(rest), 2):
                where = rest[i].text.lower()
                n = self.int_of(hb, rest[i + 1] if i + 1 < len(rest) else None, f"points {where}")
                if n is None:
                    continue
                if where.startswith("bel") or where == "b":
                    if seat is not None:
                        below[seat] += n
                elif where.startswith("ab") or where == "a":
                    if seat is not None:
                        above[seat] += n
                else:
                    hb.error(rest[i], f"expected 'below' or 'above', found '{shown(rest[i].text)}'")
        hb.score = WrittenScore(tuple(below), tuple(above), aside, first.line, first.col)


def mark_session_starts(lines: Iterable[str]) -> Iterator[tuple[int, list[str], bool]]:
    """The physical lines of a text record, grouped by logical line (a ``{`` comment may span lines):
    ``(number of its first line, its lines, cut)``, ``cut`` True where `iter_records` surely begins a new session.

    A cheap scan for ``--jobs``: the text before a cut and the text from it on read, each by `iter_records`,
    exactly as the whole does (the second with ``first_line``). A new session begins at a tag line after a
    hand's lines (the reader's session boundary); a cut is marked only after a line that is surely part of
    a hand (no ``{`` or ``}`` in it: a line of comments alone does not end the tags), so a piece may hold
    several sessions, never part of one. Lines are consumed as they are grouped: nothing is read ahead.
    """
    pending: list[str] = []

    def physical() -> Iterator[str]:
        for raw in lines:
            pending.append(raw)
            yield raw

    after_hand_line = False
    for no, text, starts in _logical_lines(physical()):
        group = pending[:]
        pending.clear()
        stripped = text.lstrip()
        if not stripped:
            yield no, group, False
        elif stripped.startswith("["):
            yield no, group, after_hand_line
            after_hand_line = False
        else:
            if starts is None and "{" not in text and "}" not in text:
                after_hand_line = True
            yield no, group, False


def iter_records(source: TextIO | Iterable[str] | str, name: str | None = None, first_line: int = 1,
                 compact: bool = False, texts: list | None = None) -> Iterator[SessionHeader | HandRecord | CompactHand]:
    """Stream a file: each session's `SessionHeader`, then its `HandRecord` values, one at a time.

    Memory stays bounded by the largest hand, whatever the size of the file.
    Problems are collected on the values (``issues``), never raised. A session's hands are read by the codec
    of its game (`codec_for`), chosen once at its first line after the tags. ``first_line``: the number of the
    source's first line in its file (a piece cut by `mark_session_starts`), so that locations stay right.
    ``compact``: a two-player hand written in plain canonical lines (after a session's first hand) is yielded as a
    `CompactHand` (for a validator that keeps no hands: its `record` is the `HandRecord` yielded without it).
    ``texts`` (not with ``compact``): a list to which each hand read wholly by the fast paths (every line of it plain
    and read without the tokenizer, the hand line included) adds ``(hand, its lines as written)`` before it is
    yielded, for `codec.KeptText`; the hands after a session's first.
    """
    if isinstance(source, str):
        source = io.StringIO(source)
    st = _Stream(name, compact, None if compact else texts)
    numbered = _numbered(source, first_line)
    for line_no, text in numbered:  # the logical lines of `_logical_lines`, without its generator
        text, starts = _logical_line(text, numbered)
        plain = "{" not in text
        stripped = text.lstrip()
        if not stripped:
            continue
        if stripped[0] == "[":
            done = st.tag(line_no, text, stripped)
            if done is not None:
                yield done
            continue
        hb = st.hb
        if plain and hb is not None and len(stripped) == len(text):
            # a plain line: the game's fast reader, without the tokenizer
            if hb.fast_line(stripped, line_no):
                if st.kept is not None:
                    st.kept.append(stripped)
                continue
            new = st.codec.fast_start(stripped, line_no)
            if new is not None:
                yield st.build()
                st.hb = new
                if st.texts is not None:
                    st.kept = [stripped]
                continue
            if type(hb) is CompactHand:  # a line the compact reader does not take: the full reader reads the hand
                hb = st.hb = hb.full()
                if hb.fast_line(stripped, line_no):
                    continue
        if type(st.hb) is CompactHand:
            st.hb = st.hb.full()
        yield from st.line(line_no, text, starts)
    if st.hb is not None:
        yield st.build()
    elif st.codec is None and (st.tags or st.tag_issues):
        yield st.header()


class _Stream:
    """What `iter_records` keeps between lines: the session's tags, its hand codec, the hand being read."""

    def __init__(self, name: str | None, compact: bool = False, texts: list | None = None):
        self.name = name
        self.compact = compact
        self.codec: HandCodec | None = None  # chosen at the session's first line after its tags
        self.hb: HandBuilder | None = None
        self.texts = texts  # `iter_records`' ``texts``
        self.kept: list[str] | None = None  # the lines of the hand being read, while the fast paths read every one
        self.in_tags = False
        self.tag_line = 0
        self._new_session()

    def _new_session(self) -> None:
        self.tags: list[tuple[str, str]] = []
        self.tag_lines: list[int] = []
        self.tag_issues: list[Issue] = []
        self.pre_comments: list[str] = []

    def build(self) -> HandRecord | EventHand:
        """The record of the hand being read (into ``texts`` with its lines when the fast paths read every one)."""
        hand = self.hb.build()
        if self.kept is not None:
            self.texts.append((hand, self.kept))
            self.kept = None
        return hand

    def header(self) -> SessionHeader:
        return SessionHeader(tuple(self.tags), self.tag_line, self.name, tuple(self.pre_comments), tuple(self.tag_issues),
                             tuple(self.tag_lines))

    def tag(self, line_no: int, text: str, stripped: str) -> HandRecord | EventHand | None:
        """A ``[Name "value"]`` line; a tag after hands begins a new session (the last hand is returned)."""
        done = None
        name = self.name
        m = _match_tag(stripped)
        if self.codec is not None:
            if self.hb is not None:
                done = self.build()
                self.hb = None
            self.codec = None
            self._new_session()
        if not self.in_tags:
            self.in_tags = True
            self.tag_line = line_no
        if m and len(m.group(2)) > MAX_TAG_VALUE:
            self.tag_issues.append(Issue("NOTATION", f"the value of the tag [{shown(m.group(1))}] is {len(m.group(2)):,} characters "
                                         f"long (at most {MAX_TAG_VALUE:,}); it is not kept",
                                         Location(source=name, line=line_no, column=len(text) - len(stripped) + 1), kind="syntax"))
        elif m:
            tag = _CANONICAL_TAGS.get(m.group(1).lower(), m.group(1))
            self.tags.append((tag, m.group(2).replace('\\"', '"').replace("\\\\", "\\")))
            self.tag_lines.append(line_no)
            for t in _tokenize(stripped[m.end():], line_no, None):
                if t.is_comment:
                    self.pre_comments.append(t.comment)
                else:
                    self.tag_issues.append(Issue("NOTATION", f"unexpected '{shown(t.text)}' after the tag (one tag per line)",
                                                 Location(source=name, line=line_no, column=len(text) - len(stripped) + m.end() + t.col),
                                                 kind="syntax", token=t.text))
                    break
        else:
            col = len(text) - len(stripped) + 1
            self.tag_issues.append(Issue("NOTATION", f"cannot read the tag '{shown(stripped)}' (write [Name \"value\"])",
                                         Location(source=name, line=line_no, column=col), kind="syntax"))
        return done

    def _issue(self, message: str, tok: _Tok, token: str) -> None:
        """A problem of the comments' braces: the hand's, or the header's before any hand."""
        hb = self.hb
        issue = Issue("NOTATION", message, Location(source=self.name, line=tok.line, column=tok.col,
                                                    hand=hb.number if hb is not None else None), kind="syntax", token=token)
        (hb.issues if hb is not None else self.tag_issues).append(issue)

    def line(self, line_no: int, text: str, starts: list[int] | None) -> Iterator[SessionHeader | HandRecord | EventHand]:
        """A line of a session's body, read by the tokenizer: comments, then the game's codec."""
        self.kept = None  # the hand being read, and one this line starts, are not read wholly by the fast paths
        toks = _tokenize(text, line_no, starts)
        if toks and toks[-1].is_comment and not toks[-1].text.endswith("}"):
            # only the last line of a file can end inside a comment (`_logical_line` joins the others)
            self._issue("a '{' comment is never closed (it runs to the end of the file)", toks[-1], "{")
        stray = [t for t in toks if t.text == "}"]
        if stray:
            toks = [t for t in toks if t.text != "}"]
            self._issue("a '}' without an opening '{'", stray[0], "}")
            if not toks:
                return
        if toks and all(t.is_comment for t in toks):
            # a comment on its own line binds to what came before it
            comments = [t.comment for t in toks]
            if self.hb is not None:
                self.hb.add_comments(comments)
            else:
                self.pre_comments.extend(comments)
            return
        if self.codec is None:
            header = self.header()
            self.in_tags = False
            self.codec = codec_for(header, self.compact)
            yield header
        raw = None if stray else text  # the line as written, for a line kept unread
        if toks[0].text.lower() == "hand":
            if self.hb is not None:
                yield self.build()
            self.hb = self.codec.start(toks)
        elif self.hb is None:
            self.hb = self.codec.orphan(toks, raw)
        else:
            self.hb.add_line(toks, raw)


class JojotteHands:
    """The Jo-Jotte hand codec (`HandCodec`): its grammar's lines, read by `SessionReader` into `_HandBuilder`."""

    def __init__(self, reader: SessionReader, compact: bool = False):
        self.reader = reader
        self.compact = compact and reader.seats == 2  # `CompactHand`s: two players

    def start(self, toks: Sequence) -> _HandBuilder:
        return _start_hand(self.reader, list(toks))

    def fast_start(self, text: str, line_no: int) -> _HandBuilder | CompactHand | None:
        if text[:5] != "hand ":
            return None
        parts = text.split()
        if not (len(parts) == 4 and parts[2] == "dealer" and plain_digits(parts[1]) and len(parts[1]) < _FAST_DIGITS):
            return None
        dealer = self.reader.seat_of.get(parts[3])
        if dealer is None:
            return None
        if self.compact:
            return CompactHand(self, int(parts[1]), dealer, line_no, len(text) - len(parts[3]) + 1)
        hb = _HandBuilder(self.reader, int(parts[1]), dealer, line_no)
        hb.marks.append(("dealer", line_no, len(text) - len(parts[3]) + 1))
        return hb

    def orphan(self, toks: Sequence, text: str | None = None) -> _HandBuilder:
        hb = _HandBuilder(self.reader, 1, -1, toks[0].line)
        hb.error(toks[0], "a hand starts with 'hand N dealer X'")
        hb.add_line(toks, text)
        return hb


class EventHands:
    """The hand codec (`HandCodec`) of the games written as a log of events: `EventHandBuilder`."""

    def __init__(self, rules: EventRules, source: str | None):
        self.rules = rules
        self.source = source

    def start(self, toks: Sequence) -> EventHandBuilder:
        return EventHandBuilder(self.rules, self.source, toks)

    def fast_start(self, text: str, line_no: int) -> EventHandBuilder | None:
        return EventHandBuilder.fast_start(self.rules, self.source, text, line_no)

    def orphan(self, toks: Sequence, text: str | None = None) -> EventHandBuilder:
        hb = EventHandBuilder(self.rules, self.source, [_Tok("hand", toks[0].line, 1)])
        hb.add_line(toks, text)
        return hb


def codec_for(header: SessionHeader, compact: bool = False) -> HandCodec:
    """The hand codec of a session's game, from its header (once per session); ``compact``: see `iter_records`."""
    events = _event_rules(header)
    if events is not None:
        return EventHands(events, header.source)
    return JojotteHands(SessionReader(header), compact)


def _event_rules(header: SessionHeader) -> EventRules | None:
    if not is_event_game(header):
        return None
    rules, _ = rules_for(header)
    return rules if isinstance(rules, EventRules) else None


def _bind_trailing(hb: _HandBuilder, comments: list[str]) -> None:
    if hb.score is not None:
        hb.notes.setdefault("score", []).extend(comments)
    elif hb.tricks:
        t = hb.tricks[-1]
        if t.plays:
            last = t.plays[-1]
            hb.tricks[-1] = t._replace(plays=t.plays[:-1] + (last._replace(comments=last.comments + tuple(comments)),))
        else:
            hb.tricks[-1] = t._replace(comments=t.comments + tuple(comments))
    else:
        hb.notes.setdefault("hand", []).extend(comments)


def _start_hand(reader: SessionReader, toks: list[_Tok]) -> _HandBuilder:
    words = [t for t in toks if not t.is_comment]
    comments = [t.comment for t in toks if t.is_comment]
    first = words[0]
    number = 0
    dealer = -1
    hb = _HandBuilder(reader, 0, -1, first.line)
    number_written = len(words) > 1 and plain_digits(words[1].text)
    if number_written and (big := number_too_large("hand number", words[1].text)):
        hb.error(words[1], big)
    elif number_written:
        number = int(words[1].text)
    else:
        hb.error(words[1] if len(words) > 1 else first, "a hand line is 'hand N dealer X'")
    i = 2
    while i < len(words):
        w = words[i].text.lower()
        if w == "dealer" and i + 1 < len(words):
            s = reader.seat(hb, words[i + 1])
            dealer = -1 if s is None else s
            hb.marks.append(("dealer", words[i + 1].line, words[i + 1].col))
            i += 2
        else:
            hb.error(words[i], f"unexpected '{shown(words[i].text)}' on the hand line")
            i += 1
    if dealer < 0 and not any(w.text.lower() == "dealer" for w in words):
        hb.error(first, "the hand line names the dealer: 'hand N dealer X'")
    hb.number = number
    hb.dealer = dealer
    hb.issues = [Issue(i.rule, i.message, Location(source=i.loc.source, line=i.loc.line, column=i.loc.column,
                                                   hand=number), i.kind, i.token) for i in hb.issues]
    if comments:
        hb.notes["hand"] = comments
    return hb


def read_sessions(source: TextIO | Iterable[str] | str, name: str | None = None) -> list[Session]:
    """Read every session of a text into memory (for small inputs; use `iter_records` to stream)."""
    sessions: list[Session] = []
    header: SessionHeader | None = None
    hands: list[HandRecord] = []
    for item in iter_records(source, name):
        if isinstance(item, SessionHeader):
            if header is not None:
                sessions.append(Session(header, tuple(hands)))
            header, hands = item, []
        else:
            hands.append(item)
    if header is not None:
        sessions.append(Session(header, tuple(hands)))
    return sessions


def read_session(text: str, name: str | None = None) -> Session:
    """Read a text holding exactly one session.

    Raises:
        NotationError: the text holds no session, or more than one.
    """
    sessions = read_sessions(text, name)
    if len(sessions) != 1:
        raise NotationError(Issue("NOTATION", f"expected one session, found {len(sessions)}", Location(source=name), "syntax"))
    return sessions[0]


# --- writing -----------------------------------------------------------------

def _c(comments: Iterable[str]) -> str:
    return "".join(f" {{{c}}}" for c in comments) if comments else ""


def write_header(header: SessionHeader) -> str:
    tags = dict()
    for k, v in header.tags:
        tags.setdefault(k, v)
    tags.pop("Format", None)
    out = [f'[Format "{FORMAT_VERSION}"]']
    for k in TAG_ORDER:
        if k in tags and k != "Format":
            out.append(_tag(k, tags.pop(k)))
    for k, v in tags.items():
        out.append(_tag(k, v))
    if header.comments:
        out[-1] += _c(header.comments)
    return "\n".join(out) + "\n"


def _tag(k: str, v: str) -> str:
    return f'[{k} "' + v.replace("\\", "\\\\").replace('"', '\\"') + '"]'


# the order cards are written in: by suit, then from the highest rank down (a card's ``(c >> 4, -(c & 15))``)
_CARD_ORDER = {c: (c >> 4) * 16 + 15 - (c & 15) for c in range(5 * 16)}


def _cards(cards: Iterable[int], sort: bool = True) -> str:
    cs = list(cards)
    known = [c for c in cs if c != UNKNOWN_CARD]
    if sort:
        known.sort(key=_CARD_ORDER.__getitem__)
    return " ".join([*map(card_name, known), *["?"] * (len(cs) - len(known))])


def _call_text(c: Call, labels: tuple[str, ...]) -> str:
    s = f"{labels[c.seat]} {c.kind.replace('_', ' ')}"
    if c.kind == "name":
        s += " " + "SHDC"[c.suit]
    elif c.kind == "melds":
        s += " " + " ".join(m.text() for m in c.melds)
    return s + _c(c.comments)


# --- the lines of a hand: each writer gets its part, the seat labels and the score sheet's columns

def _hand_line(hand: HandRecord, labels: tuple[str, ...], columns: tuple[str, ...]) -> str:
    return f"hand {hand.number} dealer {labels[hand.dealer] if hand.dealer >= 0 else '?'}" + _c(hand.note("hand"))


def _deal_line(hand: HandRecord, labels: tuple[str, ...], columns: tuple[str, ...]) -> str:
    parts = []
    for seat, cards in enumerate(hand.dealt):
        if cards is None:
            parts.append(f"{labels[seat]}: -")
            continue
        text = f"{labels[seat]}: {_cards(cards)}"
        if hand.split and hand.drawn is not None and hand.drawn[seat] is not None:
            text += " + " + _cards(hand.drawn[seat])
        parts.append(text.rstrip())
    return "deal " + "; ".join(parts) + _c(hand.note("deal"))


def _turned_line(hand: HandRecord, labels: tuple[str, ...], columns: tuple[str, ...]) -> str:
    return f"turned {card_name(hand.turned)}" + _c(hand.note("turned"))


def _info_line(hand: HandRecord, labels: tuple[str, ...], columns: tuple[str, ...]) -> str:
    return f"info {card_name(hand.info)}" + _c(hand.note("info"))


def _stock_line(hand: HandRecord, labels: tuple[str, ...], columns: tuple[str, ...]) -> str:
    return f"stock {_cards(hand.stock)}" + _c(hand.note("stock"))


def _auction_line(hand: HandRecord, labels: tuple[str, ...], columns: tuple[str, ...]) -> str:
    return ("auction" + _c(hand.note("auction")) + (" " if hand.auction else "") +
            ", ".join(_call_text(c, labels) for c in hand.auction))


def _after_line(hand: HandRecord, labels: tuple[str, ...], columns: tuple[str, ...]) -> str:
    return "after" + _c(hand.note("after")) + (" " if hand.after else "") + ", ".join(_call_text(c, labels) for c in hand.after)


def _trick_line(t: Trick, labels: tuple[str, ...], columns: tuple[str, ...]) -> str:
    items = [f"{labels[p.seat]} {card_name(p.card) if p.card != UNKNOWN_CARD else '?'}" + (f" {p.announce}" if p.announce else "")
             + _c(p.comments) for p in t.plays]
    for k, c in reversed(t.calls):  # each call among the cards, where it was made
        items.insert(k, _call_text(c, labels))
    plays = ", ".join(items)
    text = f"trick {t.number}:" + _c(t.comments) + (" " + plays if plays else "")
    if t.winner >= 0:
        text += f" -> {labels[t.winner]}"
    return text


def _claim_line(hand: HandRecord, labels: tuple[str, ...], columns: tuple[str, ...]) -> str:
    return f"claim {labels[hand.claim]}" + _c(hand.note("claim"))


def _result_line(hand: HandRecord, labels: tuple[str, ...], columns: tuple[str, ...]) -> str:
    return ("result " + ", ".join(f"{labels[r.seat]} {r.tricks} tricks {r.points} points" for r in hand.result)
            + _c(hand.note("result")))


def _extra_line(extra: tuple[str, str], labels: tuple[str, ...], columns: tuple[str, ...]) -> str:
    key, rest = extra
    return f"{key} {rest}".rstrip()


def _score_line(hand: HandRecord, labels: tuple[str, ...], columns: tuple[str, ...]) -> str:
    return "score " + written_score_text(hand.score, columns) + _c(hand.note("score"))


def _hand_parts(hand: HandRecord) -> list[tuple[Callable, object]]:
    """The lines `write_hand` writes of a hand, in order: (the line's writer, what it writes)."""
    parts: list[tuple[Callable, object]] = [(_hand_line, hand)]
    if any(d is not None for d in hand.dealt):
        parts.append((_deal_line, hand))
    if hand.turned is not None:
        parts.append((_turned_line, hand))
    if hand.info is not None:
        parts.append((_info_line, hand))
    if hand.stock is not None:
        parts.append((_stock_line, hand))
    if hand.auction or hand.note("auction"):
        parts.append((_auction_line, hand))
    if hand.after or hand.note("after"):
        parts.append((_after_line, hand))
    parts += [(_trick_line, t) for t in hand.tricks]
    if hand.claim >= 0:
        parts.append((_claim_line, hand))
    if hand.result:
        parts.append((_result_line, hand))
    parts += [(_extra_line, e) for e in hand.extra]
    if hand.score is not None:
        parts.append((_score_line, hand))
    return parts


def write_hand(hand: HandRecord, labels: tuple[str, ...], score_labels: tuple[str, ...] | None = None) -> str:
    """The canonical text of one hand; ``score_labels`` names the sheet's columns when they are sides (NS, EW)."""
    columns = score_labels or labels
    return "\n".join([write(part, labels, columns) for write, part in _hand_parts(hand)]) + "\n"


# the line a fast path reads, by its keyword (`_HandBuilder.fast_line`, `JojotteHands.fast_start`)
_READ_AS = {"hand": _hand_line, "deal": _deal_line, "turned": _turned_line, "info": _info_line,
            "auction": _auction_line, "after": _after_line, "trick": _trick_line, "score": _score_line}


def _plain_parts(hand: HandRecord) -> list[tuple[Callable, object]] | None:
    """`_hand_parts` of a hand with no comment bound to a whole line (what `KeptText` remembers depends on its lines
    alone), else None."""
    return None if hand.notes else _hand_parts(hand)


def kept_hand_text(labels: tuple[str, ...], columns: tuple[str, ...]) -> KeptText:
    """A session's `KeptText` for `write_hand` with these seat labels and score columns."""
    return KeptText(_plain_parts, lambda text: _READ_AS.get(text[:text.find(" ")]),
                    (_turned_line, _info_line, _auction_line, _after_line, _trick_line, _score_line), labels, columns)


def written_score_text(score: WrittenScore, labels: tuple[str, ...]) -> str:
    items = []
    for seat, lab in enumerate(labels):
        parts = []
        if score.below[seat]:
            parts.append(f"below {score.below[seat]}")
        if score.above[seat]:
            parts.append(f"above {score.above[seat]}")
        if parts:
            items.append(f"{lab} " + " ".join(parts))
    if score.aside:
        items.append(f"aside {score.aside}")
    return ", ".join(items) if items else "none"


def write_session(session: Session) -> str:
    """The canonical text of a session: fixed tag order, sorted hands, one event form."""
    out = io.StringIO()
    write_stream([session.header, *session.hands], out)
    return out.getvalue()


def seat_labels(header: SessionHeader) -> tuple[str, ...]:
    """Seat labels of a session's game; an unknown game is read and written as two-player Jo-Jotte."""
    return tuple(rules_for(header)[0].seat_labels)


def sheet_column(seat: int, labels: Sequence[str], columns: Sequence[str]) -> int | None:
    """The score sheet column that holds a seat's score: its own, or its side's (``NS`` holds ``N`` and ``S``)."""
    if tuple(columns) == tuple(labels):
        return seat
    for i, col in enumerate(columns):
        if labels[seat] in col:
            return i
    return seat if seat < len(columns) else None


def sheet_labels(header: SessionHeader) -> tuple[str, ...]:
    """The score sheet's columns of a session's game: its seats, or its sides (``NS``, ``EW``)."""
    rules = rules_for(header)[0]
    return tuple(rules.sheet_labels or rules.seat_labels)


def write_sessions(sessions: Iterable[Session]) -> str:
    return "\n".join(write_session(s) for s in sessions)


def write_stream(items: Iterable[SessionHeader | HandRecord], out: TextIO) -> None:
    """Write what `iter_records` yields, one hand at a time (canonical form)."""
    labels: tuple[str, ...] = ("A", "B")
    columns: tuple[str, ...] = labels
    rules = None
    first = True
    for item in items:
        if isinstance(item, SessionHeader):
            if not first:
                out.write("\n")
            first = False
            out.write(write_header(item))
            labels = seat_labels(item)
            columns = sheet_labels(item)
            rules = rules_for(item)[0]
        elif isinstance(item, EventHand):
            out.write("\n")
            out.write(write_event_hand(item, rules))
        else:
            out.write("\n")
            out.write(write_hand(item, labels, columns))
