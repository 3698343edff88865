"""The mark of an analysed card, one meaning for every game the analyzer judges.

A card gets one mark at most, the worst that applies, as a chess board's ``??`` / ``?`` / ``?!``: ``blunder``
(it makes the forced outcome worse for its player or side: the hand, the Slam, the Nullo), else ``mistake`` (it
costs ``mistake`` points or more), else ``inaccuracy`` (it costs anything); a best card has none
(docs/notation.md, the ``mark=`` of ``[%dd …]``).
"""

from __future__ import annotations

MARKS = ("blunder", "mistake", "inaccuracy")  # the worst first


def card_marks(cost: int, mistake: int, outcome_worse: bool = False) -> tuple[str, ...]:
    """The card's mark as a tuple of one (or none): the worst of `MARKS` that applies."""
    if outcome_worse:
        return ("blunder",)
    if cost >= mistake:
        return ("mistake",)
    return ("inaccuracy",) if cost > 0 else ()
