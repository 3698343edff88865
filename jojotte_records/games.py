"""Which rules a session plays: the `Rules` of its ``[Game]`` tag with the options of its ``[Variant]`` tag."""

from __future__ import annotations

from .errors import Issue, Location, shown
from .notation.model import SessionHeader
from .rules.base import EventRules, Rules, find_variant


def rules_for(header: SessionHeader) -> tuple[Rules, list[Issue]]:
    """The rules of a session and what was wrong with its tags (an unknown game is read as two-player Jo-Jotte)."""
    cls, options, issues = _game_of(header)
    rules = cls(options)
    _, players_issue = read_players(header, tuple(rules.seat_labels))
    if players_issue is not None:
        issues.append(players_issue)
    return rules, issues


def unreadable_tags(header: SessionHeader) -> list[Issue]:
    """What in a session's tags is not the notation: an unknown ``[Game]`` or an unknown ``[Variant]`` option
    (input that cannot be read: exit code 2 for every command that reads records, README "Exit codes")."""
    return _game_of(header)[2]


def _game_of(header: SessionHeader) -> tuple[type[Rules], object, list[Issue]]:
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
    return cls, options, issues


def read_players(header: SessionHeader, labels: tuple[str, ...]) -> tuple[tuple[str, ...] | None, Issue | None]:
    """The names of the ``[Players]`` tag by seat, or None, and what is wrong with the tag (issue 16: it was ignored).

    Names are in seat order, separated by ``;`` (or ``,``). ``SEAT=Name`` puts a name at a seat, where SEAT is a
    seat label of the game (``B=Bob; A=Alice``); any other ``=`` is part of the name (``Jean=Paul``).

    >>> read_players(SessionHeader((("Players", "B=Bob; Jean=Paul"),)), ("A", "B"))
    (('Jean=Paul', 'Bob'), None)
    """
    raw = header.get("Players")
    if not raw:
        return None, None
    upper = [lab.upper() for lab in labels]
    seats: list[str | None] = [None] * len(labels)
    free: list[str] = []
    items = [n.strip() for n in raw.replace(",", ";").split(";")]
    for item in items:
        head, eq, rest = item.partition("=")
        if eq and head.strip().upper() in upper:
            k = upper.index(head.strip().upper())
            if seats[k] is not None:
                return None, Issue("NOTATION", f"[Players] names seat {labels[k]} twice; the sheet shows the seats",
                                   _players_at(header), "syntax")
            seats[k] = rest.strip()
        else:
            free.append(item)
    if len(items) != len(labels) or not all(items):
        return None, Issue("NOTATION", f"[Players] gives {len(items)} name(s) ({'; '.join(shown(n, 20) or '(empty)' for n in items)}) "
                                       f"for the {len(labels)} seats {' '.join(labels)}; the sheet shows the seats",
                           _players_at(header), "syntax")
    for k in range(len(seats)):
        if seats[k] is None:
            seats[k] = free.pop(0)
    if not all(seats):
        return None, Issue("NOTATION", "[Players] gives an empty name; the sheet shows the seats", _players_at(header),
                           "syntax")
    return tuple(seats), None  # type: ignore[arg-type]


def _players_at(header: SessionHeader) -> Location:
    """Where the ``[Players]`` tag is written (looked up only for a finding)."""
    return Location(source=header.source, line=header.tag_line("Players"), column=1)


def is_event_game(header: SessionHeader) -> bool:
    """Whether a session's game is recorded as a log of events (Pitch, Baloot)."""
    try:
        return issubclass(find_variant(header.get("Game") or "jojotte"), EventRules)
    except ValueError:
        return False


def player_names(header: SessionHeader, labels: tuple[str, ...]) -> tuple[str, ...]:
    """The players' names of the ``[Players]`` tag, one per seat (`read_players`); the seat labels when the tag
    is missing or cannot be read (`rules_for` reports why)."""
    return read_players(header, labels)[0] or labels


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
    issues.append(Issue("NOTATION", f"[FirstDealer \"{shown(fd)}\"] names no seat or player",
                        Location(source=header.source, line=header.tag_line("FirstDealer"), column=1), "syntax"))
    return -1
