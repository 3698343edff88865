"""``--restore``: what a hand with an illegal card would have scored had the best legal card been played there.

`restore_hand` is the arbiter's figure for one hand, in every game the solver can see (Jo-Jotte through
`jojotte.restore`, Pitch and Baloot through `endings.restore_event`), as the plain dict that
``jojotte validate --restore --json`` writes for it; `restorations` gives it for every such hand of a
validated file. ``jojotte validate --restore`` prints them and ``jojotte report --restore`` draws them on the
dispute's hand page, beside the score written at the table.
"""

from __future__ import annotations

from ..cards import card_name
from ..rules.jojotte import JojotteRules
from .endings import restore_event
from .jojotte import AnalysisError, restore, rules_for

__all__ = ["restore_hand", "restorations"]


def restore_hand(v, rules, before, names, columns) -> dict:
    """The restoration of the hand ``v`` (a `HandVerdict` with an illegal card) under ``rules``: ``restored`` (None
    when the solver cannot see the position, with its ``reason``) and ``as_written``, the table's figures.

    ``before``: the score sheet before the hand (Pitch's moon depends on it); ``names``: the players by seat;
    ``columns``: the names of the sheet's columns (the players, or the sides)."""
    if not isinstance(rules, JojotteRules):  # the games recorded as events (Pitch, Baloot)
        return _event_hand(v, rules, before, names)
    item: dict = {}
    try:
        r = restore(v, rules)
    except AnalysisError as e:
        item["restored"] = None
        item["reason"] = str(e)
    else:
        item["restored"] = r.as_json(names, columns) | {"text": r.text(names)}
    w = v.record.score  # the score written at the table, when the record has one
    item["as_written"] = None if w is None else {
        n: {"below": _at(w.below, i), "above": _at(w.above, i)} for i, n in enumerate(columns)}
    return item


def _event_hand(v, rules, before, names) -> dict:
    """Baloot and Pitch: the score of a hand with an illegal card had the best legal card been played there."""
    item: dict = {"event": True}
    try:
        w, (offender, card, word) = restore_event(v, rules, before)
    except ValueError as e:
        item["restored"] = None
        item["reason"] = str(e)
    else:
        doc = w.as_json(rules, names)
        best = " or ".join(doc["best"])
        played = card_name(card) + (f" {word}" if word else "")
        who = names[offender] if 0 <= offender < len(names) else "?"
        if offender == w.seat:
            text = f"trick {w.trick}, card {w.card_index}: had {names[w.seat]} played {best} instead of {played} (best play afterwards)"
        else:
            text = (f"trick {w.trick}, card {w.card_index}: {who} played {played} out of turn; had {names[w.seat]} "
                    f"played {best} (best play afterwards)")
        item["restored"] = doc | {"text": text, "played": played, "offender": who}
    w = v.record.score
    item["as_written"] = None if w is None else dict(zip(rules.sheet_labels, w.values))  # an EventScore
    return item


def restorations(result) -> list[dict]:
    """`restore_hand` for every hand with an illegal card of a validated file (`replay.files.FileResult`, its
    hands kept), each with its ``source``, ``session`` (1-based) and ``hand`` number first."""
    out = []
    for index, (summary, hands) in enumerate(result.sessions, 1):
        rules = rules_for(summary.header)
        names = summary.seat_names or summary.names  # the players by seat (the sheet's columns may be sides)
        sheet = rules.new_sheet() if not isinstance(rules, JojotteRules) else None  # the sheet before each hand
        for v in hands:
            before, sheet = sheet, v.sheet
            if v.first_illegal is None:
                continue
            out.append({"source": result.source, "session": index, "hand": v.number,
                        **restore_hand(v, rules, before, names, summary.names)})
    return out


def _at(values, i: int):
    return values[i] if values is not None and i < len(values) else None
