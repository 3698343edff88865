"""The one interface of a game's hand body in the text notation (issue 13).

The reader (`notation.text.iter_records`) reads the tags and the comments of every game alike; what a hand's
lines mean is its game's: a `HandCodec` is chosen once per session from its header (`text.codec_for`), and
each hand is read by the `HandBuilder` it starts. The Jo-Jotte grammar (`text.JojotteHands`, `text._HandBuilder`)
and the games written as a log of events (`text.EventHands`, `event_text.EventHandBuilder`) implement it.
"""

from __future__ import annotations

from typing import Protocol, Sequence

from ..errors import Issue
from .model import EventHand, HandRecord


class HandBuilder(Protocol):
    """The lines of one hand as they are read; `build` gives its record."""

    number: int
    issues: list[Issue]

    def fast_line(self, text: str, line_no: int) -> bool:
        """Read a plain line (no comment, no leading space) without the tokenizer, if it can; False: it cannot."""

    def add_line(self, toks: Sequence, text: str | None = None) -> None:
        """Read one line from its tokens (``text``: the line as written, None when its tokens were mended)."""

    def add_comments(self, comments: list[str]) -> None:
        """Comments on a line of their own: they bind to what came before them."""

    def build(self) -> HandRecord | EventHand:
        """The hand's record, with what could not be read as its ``issues``."""


class HandCodec(Protocol):
    """How one session's hands are read: chosen once from the session's header."""

    def start(self, toks: Sequence) -> HandBuilder:
        """The builder of a hand begun by a ``hand N dealer X`` line (its tokens)."""

    def fast_start(self, text: str, line_no: int) -> HandBuilder | None:
        """The builder of a hand begun by a plain ``hand N dealer X`` line read without the tokenizer, or None."""

    def orphan(self, toks: Sequence, text: str | None = None) -> HandBuilder:
        """The builder of lines written before any ``hand`` line: it records that error, then reads the line."""


# a writer's lines remembered per session (text -> written back as it is), at most this many: lines repeat
KEPT_LINES = 32768


class KeptText:
    """The text of a hand read wholly by the reader's fast paths (`iter_records`' ``texts``), kept instead of written
    again when it is exactly what the game's writer writes for the hand (issue 14: import at the speed of validation).
    One per session: what it remembers holds for the session's seat labels and score columns (``context``).

    ``parts(hand)`` gives the writer's lines of a hand, in order, as (line writer, what it writes), None when the hand
    has something no plain line says (a comment); ``read_as(text)`` the line writer whose part the fast paths read from
    a line (by its keyword). The text is kept when the lines are as many as the parts, each is read as its part (then
    each part was read from its own line alone, and the same text gives the same part) and each is what its writer
    writes of its part. That last is asked of the writer at every line of the writers not in ``remembered``, and once
    per session and text for those in it (their lines repeat: tricks, calls, scores), which remember the lines of the
    hands kept.
    """

    def __init__(self, parts, read_as, remembered: tuple, *context):
        self.parts = parts
        self.read_as = read_as
        self.seen: dict = {write: set() for write in remembered}  # line writer -> its lines in hands kept
        self.context = context

    def __call__(self, hand, lines: list[str]) -> str | None:
        """The hand's text (its lines, each ended by a newline) when it is the writer's, else None."""
        parts = self.parts(hand)
        if parts is None or len(parts) != len(lines):
            return None
        seen, read_as, context = self.seen, self.read_as, self.context
        new = []
        for (write, part), text in zip(parts, lines):
            known = seen.get(write)
            if known is not None and text in known:
                continue  # a line of a hand kept: read as this writer's part, and written back as it is
            if read_as(text) is not write or write(part, *context) != text:
                return None
            if known is not None and len(known) < KEPT_LINES:
                new.append((known, text))
        for known, text in new:  # only now is every line of the hand known to be read as its part
            known.add(text)
        return "\n".join(lines) + "\n"
