"""Which rules a session plays: the `Rules` of its ``[Game]`` tag with the options of its ``[Variant]`` tag."""

from __future__ import annotations

from .errors import Issue, Location
from .record import SessionHeader
from .rules.base import EventRules, Rules, find_variant


def rules_for(header: SessionHeader) -> tuple[Rules, list[Issue]]:
    """The rules of a session and what was wrong with its tags (an unknown game is read as two-player Jo-Jotte)."""
    from .rules.jojotte import JojotteRules

    issues: list[Issue] = []
    src = header.source
    try:
        cls = find_variant(header.get("Game") or "jojotte")
    except ValueError as e:
        cls = JojotteRules
        issues.append(Issue("NOTATION", str(e), Location(source=src, line=header.tag_line("Game"), column=1), "syntax"))
    options = None
    variant = header.get("Variant")
    if variant:
        try:
            options = cls.options_class.parse(variant)
        except ValueError as e:
            issues.append(Issue("NOTATION", f"[Variant]: {e}", Location(source=src, line=header.tag_line("Variant"), column=1), "syntax"))
    return cls(options), issues


def is_event_game(header: SessionHeader) -> bool:
    """Whether a session's game is recorded as a log of events (Pitch, Baloot)."""
    try:
        return issubclass(find_variant(header.get("Game") or "jojotte"), EventRules)
    except ValueError:
        return False


def player_names(header: SessionHeader, labels: tuple[str, ...]) -> tuple[str, ...]:
    """The players' names of the ``[Players]`` tag, one per seat (``Alice; Bob`` or ``N=Ann; E=Ed; …``); the
    seat labels when the tag is missing or does not name every seat."""
    raw = header.get("Players")
    if not raw:
        return labels
    names = [n.strip() for n in raw.replace(",", ";").split(";")]
    names = [n.split("=", 1)[1].strip() if "=" in n else n for n in names]
    if len(names) != len(labels) or not all(names):
        return labels
    return tuple(names)


def first_dealer(header: SessionHeader, labels: tuple[str, ...], names: tuple[str, ...], issues: list[Issue]) -> int:
    """The seat the ``[FirstDealer]`` tag names (a seat label or a player's name), -1 if none; a name that fits
    no seat is added to ``issues``."""
    fd = header.get("FirstDealer")
    if not fd:
        return -1
    key = fd.strip().upper()
    for i, lab in enumerate(labels):
        if key in (lab.upper(), names[i].upper()):
            return i
    issues.append(Issue("NOTATION", f"[FirstDealer \"{fd}\"] names no seat or player",
                        Location(source=header.source, line=header.tag_line("FirstDealer"), column=1), "syntax"))
    return -1
