"""Reading and writing the hands of games recorded as a log of events (Pitch, Baloot).

A hand is ``hand N dealer X`` followed by lines ``keyword [N:] LABEL words, LABEL words … [-> WINNER]``
and a ``score`` line; each item is one event, which the game's rules read (`EventRules.read_item`).
Lines of card lists (``deal``) are written ``LABEL: cards; LABEL: cards``. The reader keeps the lines as
written, with line and column, and collects what it cannot read as `Issue` values; the writer gives
one canonical text, so ``write(read(canonical)) == canonical``.
"""

from __future__ import annotations

from typing import Sequence

from ..errors import MAX_NUMBER, Issue, Location, number_too_large, plain_digits, shown
from ..rules.base import EventRules
from .model import EventHand, EventItem, EventLine, EventScore

SEPARATORS = (",", ";")
# `EventHandBuilder.fast_line`: an item of one word or none (a card played, a call) read once, by the game's seat
# labels: text -> (label, words), or False
_CHUNKS: dict[tuple[str, ...], dict] = {}
CHUNK_LIMIT = 65536  # items kept per game; the rest are read each time


def _c(comments) -> str:
    return "".join(f" {{{c}}}" for c in comments) if comments else ""


class EventHandBuilder:
    """Collects the lines of one hand; `build` gives the `EventHand`."""

    def __init__(self, rules: EventRules, source: str | None, toks: Sequence):
        self.rules = rules
        self.source = source
        self._labels = {lab.upper(): lab for lab in rules.seat_labels}
        self._chunks = _CHUNKS.setdefault(tuple(rules.seat_labels), {})
        self.issues: list[Issue] = []
        self.lines: list[EventLine] = []
        self.score: EventScore | None = None
        self.comments: list[str] = [t.comment for t in toks if t.is_comment]
        words = [t for t in toks if not t.is_comment]
        first = words[0]
        self.line = first.line
        self.number = 0
        self.dealer = -1
        self.column = 0
        number = len(words) > 1 and plain_digits(words[1].text)
        if number and (big := number_too_large("hand number", words[1].text)):
            self.error(words[1], big)
        elif number:
            self.number = int(words[1].text)
        else:
            self.error(words[1] if len(words) > 1 else first, "a hand line is 'hand N dealer X'")
        if len(words) >= 4 and words[2].text.lower() == "dealer":
            self.dealer = self.seat(words[3])
            self.column = words[3].col
            for extra in words[4:]:
                self.error(extra, f"unexpected '{shown(extra.text)}' on the hand line")
        elif number:
            self.error(words[2] if len(words) > 2 else first, "the hand line names the dealer: 'hand N dealer X'")

    def error(self, tok, message: str) -> None:
        self.issues.append(Issue("NOTATION", message, Location(source=self.source, hand=self.number or None,
                                                               line=tok.line, column=tok.col), "syntax", tok.text))

    def seat(self, tok) -> int:
        labels = [lab.upper() for lab in self.rules.seat_labels]
        key = tok.text.upper()
        if key in labels:
            return labels.index(key)
        self.error(tok, f"'{shown(tok.text)}' is not a seat (seats: {', '.join(self.rules.seat_labels)})")
        return -1

    def label(self, text: str) -> str:
        lab = self._labels.get(text)
        if lab is None:
            lab = self._labels.get(text.upper()) or text.lower()
        return lab

    def add_comments(self, comments: list[str]) -> None:
        """Comments on a line of their own bind to what came before them."""
        if self.score is not None:
            self.score = self.score._replace(comments=self.score.comments + tuple(comments))
        elif self.lines:
            last = self.lines[-1]
            if last.items:
                item = last.items[-1]
                items = last.items[:-1] + (item._replace(comments=item.comments + tuple(comments)),)
                self.lines[-1] = last._replace(items=items)
            else:
                self.lines[-1] = last._replace(comments=last.comments + tuple(comments))
        else:
            self.comments.extend(comments)

    def add_line(self, toks: Sequence, text: str | None = None) -> None:
        first = toks[0]
        keyword = first.text.lower()
        rest = list(toks[1:])
        if keyword == "score":
            self._score(first, rest)
            return
        number = -1
        if len(rest) >= 2 and plain_digits(rest[0].text) and rest[1].text == ":":
            big = number_too_large(f"{keyword} number", rest[0].text)
            if big:
                self.error(rest[0], big)
            else:
                number = int(rest[0].text)
            rest = rest[2:]
        line_comments: list[str] = []
        while rest and rest[0].is_comment:
            line_comments.append(rest.pop(0).comment)
        items: list[EventItem] = []
        winner = ""
        chunk: list = []
        for tok in rest + [None]:
            if tok is None or tok.text in SEPARATORS:
                if chunk:
                    item, w = self._item(chunk)
                    if item is not None:
                        items.append(item)
                    winner = w or winner
                elif tok is not None:
                    self.error(tok, f"an empty item before '{shown(tok.text)}'")
                chunk = []
            else:
                chunk.append(tok)
        self.lines.append(EventLine(keyword, number, tuple(items), winner, first.line, first.col, tuple(line_comments)))

    @classmethod
    def fast_start(cls, rules: EventRules, source: str | None, text: str, line_no: int) -> "EventHandBuilder | None":
        """The builder of a canonical hand line ``hand N dealer X`` (single spaces, the seat as written by the writer)
        without the tokenizer, or None to leave the line to it; the same builder as ``__init__`` gives."""
        parts = text.split(" ")
        if (len(parts) != 4 or parts[0] != "hand" or parts[2] != "dealer" or not plain_digits(parts[1])
                or len(parts[1]) >= len(str(MAX_NUMBER))):
            return None
        dealer = rules.seat_labels.index(parts[3]) if parts[3] in rules.seat_labels else -1
        if dealer < 0:
            return None
        hb = cls.__new__(cls)
        hb.rules = rules
        hb.source = source
        hb._labels = {lab.upper(): lab for lab in rules.seat_labels}
        hb._chunks = _CHUNKS.setdefault(tuple(rules.seat_labels), {})
        hb.issues = []
        hb.lines = []
        hb.score = None
        hb.comments = []
        hb.line = line_no
        hb.number = int(parts[1])
        hb.dealer = dealer
        hb.column = len(text) - len(parts[3]) + 1
        return hb

    def fast_line(self, text: str, line_no: int) -> bool:
        """Read a canonical line (no comment, single spaces, no other blank) without the tokenizer; False to leave it to `add_line`.

        It gives exactly what `add_line` gives for the same text (a test holds the two to each other).
        """
        sp = text.find(" ")
        # a blank other than a space (a tab, a no-break space: the tokenizer splits on every one) is left to it
        if sp <= 0 or "  " in text or "}" in text or text[-1] == " " or not text.isprintable():
            return False
        keyword = text[:sp].lower()
        if keyword == "score":
            return self._fast_score(text[sp + 1:], line_no)
        if keyword == "hand" or not keyword.isalpha():
            return False
        start = sp + 1
        rest = text[start:]
        number = -1
        if rest[:1].isdigit():
            c = rest.find(":")
            if (c < 0 or not plain_digits(rest[:c]) or c >= len(str(MAX_NUMBER))
                    or rest[c + 1:c + 2] != " "):
                return False
            number = int(rest[:c])
            start += c + 2
            rest = text[start:]
        winner = ""
        arrow = rest.find(" -> ")
        if arrow >= 0:
            w = rest[arrow + 4:]
            if w not in self.rules.seat_labels:
                return False
            winner = w
            rest = rest[:arrow]
        if "->" in rest:
            return False
        if ";" in rest:
            if "," in rest or rest.count(";") != rest.count("; "):
                return False
            sep = "; "
        else:
            if rest.count(",") != rest.count(", "):
                return False  # a comma not followed by a space: left to the tokenizer
            sep = ", "
        items = []
        pos = start + 1
        chunks = self._chunks
        new = tuple.__new__  # the named tuples built without their Python-level constructor (all fields given)
        for chunk in rest.split(sep):
            read = chunks.get(chunk)
            if read is None:
                read = self._chunk(chunk)
                if len(chunks) < CHUNK_LIMIT and (read is False or len(read[1]) <= 1):  # not a list of cards dealt
                    chunks[chunk] = read
            if read is False:
                return False
            items.append(new(EventItem, (read[0], read[1], line_no, pos, ())))
            pos += len(chunk) + 2
        self.lines.append(new(EventLine, (keyword, number, tuple(items), winner, line_no, 1, ())))
        return True

    def _chunk(self, chunk: str) -> tuple[str, tuple[str, ...]] | bool:
        """(label, words) of one item of a canonical line, False to leave the line to the tokenizer."""
        # no double space and no space at the end (`fast_line`): a chunk's words are never empty
        if not chunk:
            return False
        label, *words = chunk.split(" ")
        if ":" in chunk:
            # one colon, ending the label (``S: 9S TH``); any other is left to the tokenizer
            if chunk.count(":") != 1 or len(label) < 2 or label[-1] != ":":
                return False
            label = label[:-1]
        lab = self._labels.get(label)
        return (self.label(label) if lab is None else lab), tuple(words)

    def _fast_score(self, rest: str, line_no: int) -> bool:
        """A canonical score line (``score NS 4, EW 14``: every column once, in the sheet's order, plain numbers), as
        `_score` reads it; False to leave any other to it."""
        if self.score is not None:
            return False
        columns = self.rules.sheet_labels
        chunks = rest.split(", ")
        if len(chunks) != len(columns):
            return False
        values = []
        for chunk, col in zip(chunks, columns):
            lab, _, num = chunk.partition(" ")
            digits = num[1:] if num[:1] == "-" else num
            if lab != col or not plain_digits(digits) or len(digits) >= len(str(MAX_NUMBER)):
                return False
            values.append(int(num))
        self.score = EventScore(tuple(values), line_no, 1)
        return True

    def _item(self, chunk: list) -> tuple[EventItem | None, str]:
        comments = [t.comment for t in chunk if t.is_comment]
        toks = [t for t in chunk if not t.is_comment]
        winner = ""
        if any(t.text == "->" for t in toks):
            k = next(i for i, t in enumerate(toks) if t.text == "->")
            after = toks[k + 1:]
            if len(after) != 1:
                self.error(toks[k], "'->' is followed by the seat that won the trick")
            else:
                s = self.seat(after[0])
                winner = self.rules.seat_labels[s] if s >= 0 else ""
            toks = toks[:k]
        if not toks:
            if not winner:
                self.error(chunk[0], "an item is a seat (or a word such as 'stock') and what it did")
            return None, winner
        head = toks[0]
        words = [t.text for t in toks[1:] if t.text != ":"]
        return EventItem(self.label(head.text), tuple(words), head.line, head.col, tuple(comments)), winner

    def _score(self, first, rest: list) -> None:
        columns = [c.upper() for c in self.rules.sheet_labels]
        values = [0] * len(columns)
        comments = [t.comment for t in rest if t.is_comment]
        toks = [t for t in rest if not t.is_comment and t.text not in SEPARATORS]
        if len(toks) == 1 and toks[0].text.lower() == "none":
            toks = []
        if len(toks) % 2:
            self.error(toks[-1] if toks else first, "a score line is 'score " + ", ".join(f"{c} N" for c in self.rules.sheet_labels) + "'")
        for k in range(0, len(toks) - 1, 2):
            lab, num = toks[k], toks[k + 1]
            if lab.text.upper() not in columns:
                self.error(lab, f"'{shown(lab.text)}' is not a column of the score sheet ({', '.join(self.rules.sheet_labels)})")
                continue
            if (big := number_too_large("score", num.text)) and plain_digits(num.text.lstrip("+-")):
                self.error(num, big)
                continue
            try:
                values[columns.index(lab.text.upper())] = int(num.text)
            except ValueError:
                self.error(num, f"'{shown(num.text)}' is not a number of points")
        if self.score is not None:
            self.error(first, "a second score line in the hand")
        self.score = EventScore(tuple(values), first.line, first.col, tuple(comments))

    def build(self) -> EventHand:
        return EventHand(self.number, self.dealer, tuple(self.lines), self.score, self.line, self.column,
                         tuple(self.comments), tuple(self.issues))


def item_text(item: EventItem, listed: bool) -> str:
    words = " ".join(item.words)
    if listed:
        text = f"{item.label}:" + (f" {words}" if words else "")
    else:
        text = item.label + (f" {words}" if words else "")
    return text + _c(item.comments)


def write_event_hand(hand: EventHand, rules: EventRules) -> str:
    """The canonical text of one hand of an event-log game."""
    labels = rules.seat_labels
    dealer = labels[hand.dealer] if 0 <= hand.dealer < len(labels) else "?"
    out = [f"hand {hand.number} dealer {dealer}" + _c(hand.comments)]
    for line in hand.lines:
        listed = line.keyword in rules.list_lines
        head = line.keyword + (f" {line.number}:" if line.number >= 0 else "") + _c(line.comments)
        body = ("; " if listed else ", ").join(item_text(i, listed) for i in line.items)
        text = head + (" " + body if body else "")
        if line.winner:
            text += f" -> {line.winner}"
        out.append(text)
    if hand.score is not None:
        out.append("score " + score_text(hand.score.values, rules.sheet_labels) + _c(hand.score.comments))
    return "\n".join(out) + "\n"


def score_text(values: Sequence[int], columns: Sequence[str]) -> str:
    return ", ".join(f"{c} {v}" for c, v in zip(columns, values))
