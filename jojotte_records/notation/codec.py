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
