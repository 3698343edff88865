"""Events: a tournament's rounds and tables, each table's session file, checks, standings and duplicate deals.

An event file is a small TOML file (``docs/tournament.md``)::

    [event]
    name = "Autumn Cup"
    game = "jojotte"
    players = ["Alice", "Bob", "Carol", "Dan"]
    hands = 8            # hands a table plays in a round (optional; else the session's [Rubbers])
    duplicate = true     # every table of a round plays the same deals
    rank_by = "matches"  # or "rubbers"

    [teams]              # partnership games: a team is the players of one column of the sheet
    "North Stars" = ["Alice", "Bob"]

    [[round]]
    number = 1
    [[round.table]]
    table = 1
    players = ["Alice", "Bob"]     # in seat order (A, B; N, E, S, W …)
    file = "r1t1.jjt"              # relative to the event file

`load_event` reads it (errors are `EventError` with the place), `check_event` validates
every table's file and lists what is missing or disputed (`Problem` values),
`standings` ranks the players or teams, and `duplicate_boards` compares the results
of the deals played at several tables (recognised by `deal_hash`).

**Ranking** (`standings`): first the matches won (a table's session winner, ``JJ-SESSION-1``;
a tied session counts half to each) or, with ``rank_by = "rubbers"``, the rubbers won;
then the total points (below + above the line, over all tables); then head to head: among
the players still tied, the matches (or rubbers) won in their games against each other;
who is still tied shares the rank. Scores are those the validator recomputes (the rules'
figures, not the figures written at the table), so a disputed hand counts as the rules score it.

**Pitch and Baloot** (the games recorded as a log of events, `rules.base.EventRules`): a table's
session is one game (Pitch to 52) or match (Baloot to 152), won by the side(s) the sheet names
(``PIT-GAME-2``…``4``, ``PIT-FIVE-8``, ``BAL-MATCH-2``…``5``); a game cut short (the event's
``hands`` played) is won by the side with the most points, a tie counting half. Ranking: games won,
then total points (the sheet's scores), then head to head. ``[event] variant`` gives the
``[Variant]`` of every table (``players=5`` for five-handed Pitch, where each player is a column and
two called partners may both win).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, NamedTuple, Sequence

from ..errors import JojotteError, number_too_large, plain_digits
from ..notation.deals import deal_hash
from ..notation.model import EventHand, SessionHeader
from ..notation.text import iter_records, sheet_column
from ..replay.jojotte import HandVerdict, SessionSummary, validate_stream
from ..rules.base import EventRules, find_variant

RANK_BY = ("matches", "rubbers")


class EventError(JojotteError):
    """The event file cannot be read or does not describe an event."""


class TableEntry(NamedTuple):
    round: int
    table: int
    players: tuple[str, ...]  # in seat order
    file: str  # as written in the event file
    path: Path  # resolved


class Event(NamedTuple):
    name: str
    game: str
    source: Path
    players: tuple[str, ...]
    teams: dict  # team name -> tuple of players
    rounds: tuple[int, ...]
    tables: tuple[TableEntry, ...]
    hands: int | None = None
    duplicate: bool = False
    rank_by: str = "matches"
    site: str = ""
    date: str = ""
    variant: str = ""  # the [Variant] every table plays (games with options: Pitch's players=5 …)


def event_rules(event: Event):
    """The rules object the event's tables play (the game with the event's variant)."""
    cls = find_variant(event.game)
    return cls(cls.options_class.parse(event.variant)) if event.variant else cls()


def is_event_game(event: Event) -> bool:
    """Whether the event plays a game recorded as a log of events (Pitch, Baloot)."""
    return issubclass(find_variant(event.game), EventRules)


class Problem(NamedTuple):
    """Something missing, disputed or wrong at one table (or in the event file): a value, with a rule ID when a rule is broken."""

    round: int | None
    table: int | None
    kind: str  # missing, unreadable, disputed, players, game, incomplete, duplicate, tags
    message: str
    rule: str = ""

    def text(self) -> str:
        where = "event" if self.round is None else f"round {self.round}" + (f" table {self.table}" if self.table is not None else "")
        return f"{where}: {self.message}" + (f" ({self.rule})" if self.rule else "")


class TableResult(NamedTuple):
    """What one table played: its session checked by the validator."""

    entry: TableEntry
    summary: SessionSummary | None
    verdicts: tuple[HandVerdict, ...]
    units: tuple[str, ...]  # the player or team of each column of the sheet
    problems: tuple[Problem, ...]

    @property
    def played(self) -> bool:
        return self.summary is not None and self.summary.hands > 0

    @property
    def events(self) -> bool:
        """Whether the table played a game recorded as a log of events (Pitch, Baloot): a sheet of scores."""
        return self.summary is not None and self.summary.rules.notation == "events"

    @property
    def winners(self) -> tuple[str, ...]:
        """The units that won the table's session, () for a tie or nothing played.

        The Jo-Jotte family: the session's winner (JJ-SESSION-1). Pitch and Baloot: the game's winners as the sheet
        says (two called partners may both win a five-handed game); a game not finished is won by the most points."""
        if not self.played:
            return ()
        if not self.events:
            return (self.units[self.summary.winner],) if self.summary.winner >= 0 else ()
        sheet = self.summary.sheet
        cols = tuple(sheet.winners) if sheet.over else ()
        if not sheet.over:
            best = max(sheet.scores)
            cols = tuple(c for c, x in enumerate(sheet.scores) if x == best)
        if len(cols) == len(self.units):  # every side: a tie
            return ()
        if not sheet.over and len(cols) > 1:  # a game cut short with the lead shared: a tie
            return ()
        return tuple(self.units[c] for c in cols)

    @property
    def winner(self) -> str | None:
        """The unit that won the table's session (JJ-SESSION-1), None for a tie, shared wins or nothing played."""
        w = self.winners
        return w[0] if len(w) == 1 else None

    def total(self, col: int) -> int:
        if not self.summary:
            return 0
        return self.summary.sheet.scores[col] if self.events else self.summary.sheet.total[col]

    def rubbers(self, col: int) -> int:
        return self.summary.sheet.rubbers[col] if self.summary and not self.events else 0


# --- reading the event file -------------------------------------------------------------------

def load_event(path: str | Path) -> Event:
    """Read an event file.

    Raises:
        EventError: unreadable, not TOML, or missing or wrong fields (the message says which).
    """
    path = Path(path)
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise EventError(f"{path}: cannot read the event file: {e.strerror or e}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise EventError(f"{path}: not a TOML event file: {e}") from None
    ev = doc.get("event")
    if not isinstance(ev, dict) or not isinstance(ev.get("name"), str):
        raise EventError(f"{path}: the [event] table with a name is missing")
    game = str(ev.get("game", "jojotte"))
    try:
        cls = find_variant(game)
    except ValueError as e:
        raise EventError(f"{path}: [event] game: {e}") from None
    from ..rules.base import EventRules

    events = issubclass(cls, EventRules)
    variant = ev.get("variant", "")
    if not isinstance(variant, str):
        raise EventError(f"{path}: [event] variant is the [Variant] text of the tables, such as \"players=5\"")
    try:
        rules = cls(cls.options_class.parse(variant)) if variant else cls()
    except ValueError as e:
        raise EventError(f"{path}: [event] variant: {e}") from None
    rank_by = str(ev.get("rank_by", "matches"))
    if events and rank_by == "games":
        rank_by = "matches"
    if rank_by not in RANK_BY:
        raise EventError(f"{path}: [event] rank_by is 'matches' or 'rubbers', not '{rank_by}'")
    if events and rank_by == "rubbers":
        raise EventError(f"{path}: [event] rank_by: {cls.name} has no rubbers; its events rank by games (matches) won")
    hands = ev.get("hands")
    if hands is not None and (not isinstance(hands, int) or hands < 1):
        raise EventError(f"{path}: [event] hands is a number of hands (at least 1)")
    players = ev.get("players", doc.get("players", []))
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise EventError(f"{path}: players is a list of names")
    players = tuple(p.strip() for p in players)
    if len(set(players)) != len(players):
        raise EventError(f"{path}: a player is named twice in the players list")
    teams_doc = doc.get("teams", {})
    if not isinstance(teams_doc, dict):
        raise EventError(f"{path}: [teams] maps a team name to its players")
    teams = {}
    for name, members in teams_doc.items():
        if not isinstance(members, list) or not all(isinstance(m, str) for m in members) or not members:
            raise EventError(f"{path}: team '{name}' is a list of players")
        for m in members:
            if players and m not in players:
                raise EventError(f"{path}: team '{name}': '{m}' is not in the players list")
        teams[str(name)] = tuple(m.strip() for m in members)
    rounds_doc = doc.get("round", [])
    if not isinstance(rounds_doc, list) or not rounds_doc:
        raise EventError(f"{path}: no [[round]] is given")
    seats = rules.seats
    labels = tuple(rules.seat_labels)
    tables: list[TableEntry] = []
    rounds: list[int] = []
    for i, r in enumerate(rounds_doc, 1):
        number = r.get("number", i)
        if not isinstance(number, int) or number in rounds:
            raise EventError(f"{path}: round {number!r}: rounds are numbered 1, 2, … once each")
        rounds.append(number)
        seen_tables: set[int] = set()
        seated: set[str] = set()
        for j, t in enumerate(r.get("table", []), 1):
            tno = t.get("table", j)
            where = f"{path}: round {number} table {tno}"
            if not isinstance(tno, int) or tno in seen_tables:
                raise EventError(f"{where}: tables are numbered once each in a round")
            seen_tables.add(tno)
            ps = t.get("players")
            if not isinstance(ps, list) or len(ps) != seats or not all(isinstance(p, str) for p in ps):
                raise EventError(f"{where}: players is a list of the {seats} players in seat order ({' '.join(labels)})")
            ps = tuple(p.strip() for p in ps)
            for p in ps:
                if players and p not in players:
                    raise EventError(f"{where}: '{p}' is not in the players list")
                if p in seated:
                    raise EventError(f"{where}: '{p}' plays at two tables in round {number}")
                seated.add(p)
            file = t.get("file")
            if not isinstance(file, str) or not file:
                raise EventError(f"{where}: file names the table's session file")
            tables.append(TableEntry(number, tno, ps, file, (path.parent / file)))
    if not players:
        players = tuple(dict.fromkeys(p for t in tables for p in t.players))
    return Event(str(ev["name"]), cls.name, path, players, teams, tuple(rounds), tuple(tables), hands,
                 bool(ev.get("duplicate", False)), rank_by, str(ev.get("site", "")), str(ev.get("date", "")),
                 rules.options.text() if variant else "")


# --- checking the tables --------------------------------------------------------------------------

def column_units(event: Event, players: Sequence[str]) -> tuple[str, ...]:
    """The player or team of each column of a table's score sheet (its seats, or its sides)."""
    rules = event_rules(event)
    labels = tuple(rules.seat_labels)
    columns = tuple(rules.sheet_labels or labels)
    units = []
    for col in range(len(columns)):
        members = tuple(players[s] for s in range(len(labels)) if sheet_column(s, labels, columns) == col)
        team = next((name for name, ms in event.teams.items() if set(ms) == set(members)), None)
        units.append(team or (members[0] if len(members) == 1 else " & ".join(members)))
    return tuple(units)


def _names(header: SessionHeader, seats: int) -> tuple[str, ...] | None:
    raw = header.get("Players")
    if not raw:
        return None
    names = [n.strip() for n in raw.replace(",", ";").split(";")]
    names = [n.split("=", 1)[1].strip() if "=" in n else n for n in names]
    return tuple(names) if len(names) == seats else None


def check_table(event: Event, entry: TableEntry) -> TableResult:
    """Validate one table's session file against the event."""
    cls = find_variant(event.game)
    rules = event_rules(event)
    units = column_units(event, entry.players)
    problems: list[Problem] = []
    r, t = entry.round, entry.table

    def problem(kind: str, message: str, rule: str = ""):
        problems.append(Problem(r, t, kind, message, rule))

    if not entry.path.is_file():
        problem("missing", f"no session file {entry.file}")
        return TableResult(entry, None, (), units, tuple(problems))
    try:
        text = entry.path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        problem("unreadable", f"{entry.file} cannot be read: {e}")
        return TableResult(entry, None, (), units, tuple(problems))
    results = list(validate_stream(iter_records(text, str(entry.path))))
    if len(results) != 1:
        problem("unreadable", f"{entry.file} holds {len(results)} sessions; a table's file holds one")
        if not results:
            return TableResult(entry, None, (), units, tuple(problems))
    summary, verdicts = results[0]
    header = summary.header
    game = (header.get("Game") or "jojotte").strip().lower()
    try:
        same_game = find_variant(game) is cls
    except ValueError:
        same_game = False
    if not same_game:
        problem("game", f"{entry.file} is a session of {game}, the event plays {event.game}")
    elif (event.variant or issubclass(cls, EventRules)) and \
            _variant_text(cls, header.get("Variant") or "") != _variant_text(cls, event.variant):
        problem("game", f"{entry.file} plays [Variant \"{header.get('Variant') or ''}\"], the event plays "
                        f"\"{event.variant}\"")
    names = _names(header, rules.seats)
    if names != entry.players:
        problem("players", f"{entry.file} names the players {', '.join(names) if names else '(none)'}; the event seats "
                + ", ".join(entry.players))
    for tag, want in (("Round", str(r)), ("Table", str(t))):
        got = header.get(tag)
        if got is not None and got.strip() != want:
            problem("tags", f"{entry.file} says [{tag} \"{got}\"], the event has it at {tag.lower()} {want}")
    for issue in summary.issues:
        problem("disputed", f"{entry.file}:{issue.loc.line or ''}: {issue.message}", issue.rule)
    for v in verdicts:
        for issue in v.issues:
            problem("disputed", f"{entry.file}:{issue.loc.line}: hand {v.number}: {issue.message}", issue.rule)
    if event.hands is not None and summary.hands != event.hands:
        if summary.hands < event.hands:
            problem("incomplete", f"{summary.hands} of {event.hands} hands recorded")
        else:
            problem("incomplete", f"{summary.hands} hands recorded, the event plays {event.hands} a round")
    events = summary.rules.notation == "events"
    if event.hands is None and events and summary.hands and not summary.sheet.over:
        problem("incomplete", f"the game is not finished ({', '.join(f'{u} {x}' for u, x in zip(units, summary.sheet.scores))})")
    if event.hands is None and not events:
        agreed = header.get("Rubbers")
        if agreed and plain_digits(agreed.strip()) and not number_too_large("", agreed.strip()) and sum(summary.sheet.rubbers) < int(agreed):
            problem("incomplete", f"{sum(summary.sheet.rubbers)} of {agreed} rubber(s) finished")
    if summary.hands == 0:
        problem("incomplete", "no hand recorded yet")
    return TableResult(entry, summary, tuple(verdicts), units, tuple(problems))


def _variant_text(cls, text: str) -> str:
    """A [Variant] in canonical form (its options that differ from the defaults), or the text when it cannot be read."""
    try:
        return cls.options_class.parse(text).text() if text else ""
    except ValueError:
        return text


class EventCheck(NamedTuple):
    event: Event
    tables: tuple[TableResult, ...]
    problems: tuple[Problem, ...]  # every table's problems, then the event's (duplicate deals)

    @property
    def ok(self) -> bool:
        return not self.problems


def check_event(event: Event) -> EventCheck:
    """Validate every table of the event; with ``duplicate``, also that the tables of a round played the same deals."""
    results = tuple(check_table(event, e) for e in event.tables)
    problems = [p for t in results for p in t.problems]
    if event.duplicate:
        problems.extend(_duplicate_problems(event, results))
    return EventCheck(event, results, tuple(problems))


def _duplicate_problems(event: Event, results: Sequence[TableResult]) -> list[Problem]:
    rules = event_rules(event)
    out = []
    for rnd in event.rounds:
        first: dict[int, tuple[int, str]] = {}
        for t in (t for t in results if t.entry.round == rnd and t.played):
            for v in t.verdicts:
                h = deal_hash(v.record, event.game, rules)
                if h is None:
                    continue
                if v.number not in first:
                    first[v.number] = (t.entry.table, h)
                elif first[v.number][1] != h:
                    out.append(Problem(rnd, t.entry.table, "duplicate",
                                       f"hand {v.number} is not the deal played at table {first[v.number][0]} (a duplicate event plays the same deals)"))
    return out


# --- standings -----------------------------------------------------------------------------------

class Standing(NamedTuple):
    rank: int
    name: str
    played: int
    won: int
    drawn: int
    lost: int
    match_points: float  # won + drawn / 2
    rubbers: int
    points: int
    head_to_head: float | None  # set when it decided (or could not break) a tie

    def as_dict(self) -> dict:
        return self._asdict()


def _unit_rows(event: Event, tables: Iterable[TableResult]):
    rows = {}
    rules = event_rules(event)
    partnership = len(rules.sheet_labels or rules.seat_labels) < len(rules.seat_labels)
    # without [teams], a partnership's unit is its players joined ("Ann & Bob"): no row per player
    order = list(event.teams) if event.teams else ([] if partnership else list(event.players))
    for u in order:
        rows[u] = {"played": 0, "won": 0, "drawn": 0, "lost": 0, "rubbers": 0, "points": 0}
    for t in tables:
        if not t.played:
            continue
        winners = t.winners
        for col, u in enumerate(t.units):
            r = rows.setdefault(u, {"played": 0, "won": 0, "drawn": 0, "lost": 0, "rubbers": 0, "points": 0})
            r["played"] += 1
            r["rubbers"] += t.rubbers(col)
            r["points"] += t.total(col)
            if not winners:
                r["drawn"] += 1
            elif u in winners:
                r["won"] += 1
            else:
                r["lost"] += 1
    return rows


def standings(event: Event, tables: Sequence[TableResult], up_to_round: int | None = None) -> list[Standing]:
    """The ranking after all rounds (or after ``up_to_round``): see the module documentation for the tie-breaks."""
    played = [t for t in tables if up_to_round is None or t.entry.round <= up_to_round]
    rows = _unit_rows(event, played)
    key_name = "rubbers" if event.rank_by == "rubbers" else "match_points"

    def primary(r):
        return r["rubbers"] if key_name == "rubbers" else r["won"] + r["drawn"] / 2

    groups: dict[tuple, list[str]] = {}
    for u, r in rows.items():
        groups.setdefault((primary(r), r["points"]), []).append(u)
    out: list[Standing] = []
    rank = 1
    for key in sorted(groups, reverse=True):
        tied = groups[key]
        h2h: dict[str, float | None] = {u: None for u in tied}
        if len(tied) > 1:
            h2h = {u: _head_to_head(u, set(tied), played, event.rank_by) for u in tied}
            by: dict[float, list[str]] = {}
            for u in tied:
                by.setdefault(h2h[u], []).append(u)
            sub = [by[k] for k in sorted(by, reverse=True)]
        else:
            sub = [tied]
        for group in sub:
            for u in sorted(group, key=str.lower):
                r = rows[u]
                out.append(Standing(rank, u, r["played"], r["won"], r["drawn"], r["lost"], r["won"] + r["drawn"] / 2,
                                    r["rubbers"], r["points"], h2h[u]))
            rank += len(group)
    return out


def _head_to_head(unit: str, group: set[str], tables: Sequence[TableResult], rank_by: str) -> float:
    """Matches (or rubbers) ``unit`` won at the tables where it met only others of ``group``."""
    score = 0.0
    for t in tables:
        if not t.played or unit not in t.units or not set(t.units) <= group:
            continue
        col = t.units.index(unit)
        if rank_by == "rubbers":
            score += t.rubbers(col)
        elif not t.winners:
            score += 0.5
        elif unit in t.winners:
            score += 1
    return score


# --- duplicate deals ----------------------------------------------------------------------------------


class BoardResult(NamedTuple):
    round: int
    table: int
    hand: int
    players: tuple[str, ...]  # in seat order
    contract: str
    tricks: tuple[int, ...]  # per seat ((), when the hand was entered without its tricks)
    below: tuple[int, ...]  # per sheet column, what the hand wrote
    above: tuple[int, ...]
    net: int  # first column's points minus the others' in this hand
    ok: bool
    url: str = ""


class Board(NamedTuple):
    """One deal played at several tables."""

    deal: str  # the hash
    round: int
    hand: int  # the hand number where it was first played
    dealer: str  # seat label
    results: tuple[BoardResult, ...]


def duplicate_boards(event: Event, tables: Sequence[TableResult], urls: dict | None = None) -> list[Board]:
    """The deals played at two tables or more, each with the results side by side (like boards in duplicate bridge)."""
    rules = event_rules(event)
    labels = tuple(rules.seat_labels)
    seen: dict[str, list[BoardResult]] = {}
    first: dict[str, tuple[int, int, int]] = {}
    for t in tables:
        if not t.played:
            continue
        for pos, v in enumerate(t.verdicts):
            h = deal_hash(v.record, event.game, rules)
            if h is None:
                continue
            url = (urls or {}).get((t.entry.round, t.entry.table, pos), "")
            if isinstance(v.record, EventHand):  # Pitch, Baloot: the hand's score per column, written "below"
                n = len(t.units)
                delta = tuple(v.score.delta) if v.score is not None else tuple(v.record.score.values) if v.record.score else (0,) * n
                contract = (rules.contract_text(v.state) or "?") if v.state is not None else "?"
                seen.setdefault(h, []).append(BoardResult(t.entry.round, t.entry.table, v.number, t.entry.players, contract,
                                                          (), delta, (0,) * n, delta[0] - sum(delta[1:]), v.ok, url))
                first.setdefault(h, (t.entry.round, v.number, v.record.dealer))
                continue
            e = v.entry
            n = len(t.units)
            below = tuple(e.below(i) for i in range(n)) if e else tuple(v.record.score.below) if v.record.score else (0,) * n
            above = tuple(e.above(i) for i in range(n)) if e else tuple(v.record.score.above) if v.record.score else (0,) * n
            net = (below[0] + above[0]) - sum(below[1:]) - sum(above[1:])
            tricks = tuple(v.score.tricks) if v.score is not None and v.record.tricks else ()
            url = (urls or {}).get((t.entry.round, t.entry.table, pos), "")
            seen.setdefault(h, []).append(BoardResult(t.entry.round, t.entry.table, v.number, t.entry.players,
                                                      rules.contract_text(v.state) if v.state is not None else "?",
                                                      tricks, below, above, net, v.ok, url))
            first.setdefault(h, (t.entry.round, v.number, v.record.dealer))
    boards = []
    for h, results in seen.items():
        if len(results) < 2:
            continue
        rnd, hand, dealer = first[h]
        boards.append(Board(h, rnd, hand, labels[dealer], tuple(sorted(results, key=lambda r: (r.round, r.table)))))
    boards.sort(key=lambda b: (b.round, b.hand, b.deal))
    return boards


# --- JSON ---------------------------------------------------------------------------------------------

def standings_json(check: EventCheck) -> dict:
    """The standings document of ``jojotte event standings --json``."""
    ev = check.event
    rounds = []
    for rnd in ev.rounds:
        tables = []
        for t in (t for t in check.tables if t.entry.round == rnd):
            tables.append({
                "table": t.entry.table, "file": t.entry.file, "players": list(t.entry.players), "sides": list(t.units),
                "hands": t.summary.hands if t.summary else 0,
                "points": [t.total(i) for i in range(len(t.units))] if t.summary else None,
                "rubbers": [t.rubbers(i) for i in range(len(t.units))] if t.summary and not t.events else None,
                "winner": t.winner, "winners": list(t.winners), "status": _status(t),
            })
        rounds.append({"round": rnd, "tables": tables, "standings": [s.as_dict() for s in standings(ev, check.tables, rnd)]})
    return {"format_version": 1, "event": ev.name, "game": ev.game, "rank_by": ev.rank_by,
            "tie_breaks": tie_breaks(ev),
            "standings": [s.as_dict() for s in standings(ev, check.tables)], "rounds": rounds,
            "problems": [p._asdict() for p in check.problems]}


def tie_breaks(ev: Event) -> list[str]:
    """The ranking keys in words, in order."""
    if is_event_game(ev):
        return ["games won (a tied game half)", "total points", "head to head"]
    return [("matches won (a tied session half)" if ev.rank_by == "matches" else "rubbers won"), "total points", "head to head"]


def _status(t: TableResult) -> str:
    kinds = {p.kind for p in t.problems}
    for k in ("missing", "unreadable", "disputed", "players", "game", "tags", "incomplete"):
        if k in kinds:
            return k
    return "ok"


# --- the report's event pages ---------------------------------------------------------------------------

class EventTableView(NamedTuple):
    table: int
    players: tuple[str, ...]
    sides: tuple[str, ...]
    points: tuple[int, ...]
    rubbers: tuple[int, ...]
    hands: int
    winner: str  # "" for a tie or nothing played
    status: str  # ok, missing, disputed, incomplete …
    url: str  # the session's page ("" when there is none)
    file: str


class EventRoundView(NamedTuple):
    number: int
    tables: tuple[EventTableView, ...]
    standings: tuple[Standing, ...]  # after this round


@dataclass(frozen=True, slots=True)
class EventContext:
    """``event.html``: the event's standings, then each round's tables (linked to their sessions) and standings after it."""

    title: str
    root: str
    event: str
    game: str
    site: str
    date: str
    rank_by: str
    tie_breaks: tuple[str, ...]
    standings: tuple[Standing, ...]
    rounds: tuple[EventRoundView, ...]
    problems: tuple[str, ...]
    boards: int  # deals played at several tables (the duplicate page)
    rubbers: bool  # the game keeps rubbers (Jo-Jotte); Pitch and Baloot count games


@dataclass(frozen=True, slots=True)
class DuplicateContext:
    """``duplicates.html``: every deal played at several tables, the results side by side."""

    title: str
    root: str
    event: str
    labels: tuple[str, ...]  # the seats (A, B …)
    columns: tuple[str, ...]  # the score sheet's columns
    boards: tuple[Board, ...]


class EventSite(NamedTuple):
    index: Path
    event_page: Path
    duplicates_page: Path
    check: EventCheck
    sessions: int
    hands: int


def build_event_site(event: Event, out: str | Path = "report", templates: str | Path | None = None,
                     on_hand=None) -> EventSite:
    """The HTML report of an event: the sessions of every table (as `jojotte report` writes them), an event page
    (``event.html``: standings overall and after each round, links to every session) and ``duplicates.html``.

    Raises:
        report.ReportError: ``out`` cannot be written, a bad templates folder.
    """
    from ..replay.files import open_records
    from ..report.site import HANDS_PER_FILE, ReportError, Site

    check = check_event(event)
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ReportError(f"cannot create the output folder '{out}': {e.strerror or e}") from None
    site = Site(out, templates, on_hand, HANDS_PER_FILE)
    session_urls: dict[tuple[int, int], str] = {}
    for t in check.tables:
        if t.summary is None:
            continue
        before = len(site.rows)
        try:
            site.add_stream(f"round-{t.entry.round}-table-{t.entry.table}", str(t.entry.path), open_records(str(t.entry.path)))
        except (OSError, UnicodeDecodeError, ValueError):
            continue
        if len(site.rows) > before:
            session_urls[(t.entry.round, t.entry.table)] = site.rows[before].url
    hand_urls = {}
    for t in check.tables:
        base = session_urls.get((t.entry.round, t.entry.table))
        if not base:
            continue
        folder = base.rsplit("/", 1)[0]
        for pos in range(len(t.verdicts)):
            first = pos // HANDS_PER_FILE * HANDS_PER_FILE + 1
            hand_urls[(t.entry.round, t.entry.table, pos)] = f"{folder}/hands-{first:04d}.html#hand-{pos + 1}"
    cls = find_variant(event.game)
    rounds = []
    for rnd in event.rounds:
        views = []
        for t in (t for t in check.tables if t.entry.round == rnd):
            n = len(t.units)
            views.append(EventTableView(t.entry.table, t.entry.players, t.units,
                                        tuple(t.total(i) for i in range(n)) if t.summary else (),
                                        tuple(t.rubbers(i) for i in range(n)) if t.summary else (),
                                        t.summary.hands if t.summary else 0, " & ".join(t.winners), _status(t),
                                        session_urls.get((rnd, t.entry.table), ""), t.entry.file))
        rounds.append(EventRoundView(rnd, tuple(views), tuple(standings(event, check.tables, rnd))))
    boards = duplicate_boards(event, check.tables, hand_urls)
    doc = standings_json(check)
    ctx = EventContext(f"{event.name}", "", event.name, cls.title, event.site, event.date, event.rank_by,
                       tuple(doc["tie_breaks"]), tuple(standings(event, check.tables)), tuple(rounds),
                       tuple(p.text() for p in check.problems), len(boards), not is_event_game(event))
    site.write_page("event.html", "event.html", ctx)
    rules = event_rules(event)
    dctx = DuplicateContext(f"Duplicate deals | {event.name}", "", event.name, tuple(rules.seat_labels),
                            tuple(rules.sheet_labels or rules.seat_labels), tuple(boards))
    site.write_page("duplicates.html", "duplicates.html", dctx)
    result = site.finish()
    return EventSite(result.index, out / "event.html", out / "duplicates.html", check, result.sessions, result.hands)
