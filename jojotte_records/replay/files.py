"""Validating files: finding record files, reading text or JSON, and the JSON verdict.

`check_paths` is what ``jojotte validate`` runs: it streams every file hand by
hand through `replay.SessionValidator` (every game) and yields one `FileResult` per file.
`verdict_json` turns results into the documented JSON document.
"""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path
from typing import Callable, Iterable, Iterator, NamedTuple, TextIO

from ..errors import Issue, Location, NotationError, printable_json
from ..games import rules_for
from ..notation.text import iter_records
from .jojotte import HandVerdict, SessionSummary, validate_stream

RECORD_SUFFIXES = (".jjt", ".json")


class FileResult(NamedTuple):
    source: str
    sessions: list[tuple[SessionSummary, list[HandVerdict]]]
    read_error: Issue | None = None

    @property
    def hands(self) -> int:
        return sum(s.hands for s, _ in self.sessions)

    @property
    def bad_hands(self) -> int:
        return sum(s.bad_hands for s, _ in self.sessions)

    @property
    def has_syntax_errors(self) -> bool:
        if self.read_error is not None:
            return True
        return any(i.kind == "syntax" for s, hs in self.sessions for i in (*s.issues, *(x for h in hs for x in h.issues)))

    @property
    def ok(self) -> bool:
        return self.read_error is None and self.bad_hands == 0 and not any(s.issues for s, _ in self.sessions)


def is_record_json(path: str | Path) -> bool:
    """Whether a ``.json`` file is a record file (its object has ``"sessions"``), not other data kept beside records."""
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as f:
            head = f.read(JSON_HEAD_CHARS)
    except OSError:
        return True  # let the reader report it
    return is_record_json_head(head)


JSON_HEAD_CHARS = 1 << 20  # how much of a .json file `is_record_json` reads


def is_record_json_head(head: str) -> bool:
    """Whether the first `JSON_HEAD_CHARS` characters of a ``.json`` file are those of a record file (``"sessions"``)."""
    return '"sessions"' in head


def iter_record_files(paths: Iterable[str]) -> Iterator[str]:
    """Files named, and record files found in folders, recursively and sorted; ``-`` is standard input.

    In a folder, ``*.jjt`` files and the ``*.json`` files that are records (`is_record_json`) are taken;
    a file named on the command line is always taken.
    """
    for p in paths:
        if p == "-":
            yield p
            continue
        path = Path(p)
        if path.is_dir():
            # a folder that cannot be listed is yielded like a file, so that its reader reports it (issue 16: it was skipped)
            unlisted: list[OSError] = []
            found = 0
            for root, dirs, files in os.walk(path, onerror=unlisted.append):
                yield from (str(e.filename) for e in unlisted)
                unlisted.clear()
                dirs.sort()
                for f in sorted(files):
                    full = Path(root) / f
                    if f.endswith(".jjt") or (f.endswith(".json") and is_record_json(full)):
                        found += 1
                        yield str(full)
            yield from (str(e.filename) for e in unlisted)
            if not found and not unlisted:
                yield p  # a folder without a record is an input that cannot be read (its reader says so)
        else:
            yield p


class _CountingLines:
    """Iterates the lines of a text stream and counts the characters read (for progress bars)."""

    def __init__(self, stream: TextIO, on_progress: Callable[[int], None] | None):
        self.stream = stream
        self.on_progress = on_progress

    def __iter__(self):
        cb = self.on_progress
        n = 0
        for line in self.stream:
            n += len(line)
            if cb is not None and n > 65536:
                cb(n)
                n = 0
            yield line
        if cb is not None and n:
            cb(n)


def looks_like_json(path: str, first_line: str) -> bool:
    """JSON by suffix, or a first line that opens an object (``{"`` or a lone ``{``), which a comment never does."""
    head = first_line.lstrip()
    return path.endswith(".json") or head.startswith('{"') or head.rstrip() == "{"


def open_records(path: str, on_progress: Callable[[int], None] | None = None) -> Iterator:
    """The items (`SessionHeader`, `HandRecord`) of a text or JSON record file; ``-`` reads standard input.

    Raises:
        OSError, UnicodeDecodeError: the file cannot be read.
        pydantic.ValidationError, ValueError: a JSON file that does not follow the schema.
    """
    if path == "-":
        stream: TextIO = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8-sig", errors="strict")
        name = "<stdin>"
    else:
        stream = open(path, encoding="utf-8-sig", errors="strict")
        name = path
    first = stream.readline()
    if looks_like_json(path, first):
        from ..notation.json_form import iter_json_records

        text = first + stream.read()
        if on_progress:
            on_progress(len(text))
        stream.close()
        yield from iter_json_records(text, name)
        return

    def lines():
        yield first
        yield from stream
    try:
        yield from iter_records(_CountingLines(lines(), on_progress), name)
    finally:
        if path != "-":
            stream.close()


def read_record_text(path: str) -> str:
    """The whole text of a record file, or of standard input for ``-``: read as bytes, decoded as strict UTF-8
    (a byte-order mark dropped), exactly as `open_records` decodes it.

    Raises:
        OSError, UnicodeDecodeError: the file cannot be read (`read_error` says why).
    """
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as f:
            data = f.read()
    return data.decode("utf-8-sig", errors="strict")


def read_error(path: str, exc: Exception) -> Issue:
    """The issue for a file that cannot be read: not UTF-8, missing, or JSON that does not follow the schema."""
    name = "<stdin>" if path == "-" else path
    if isinstance(exc, NotationError):  # already located (a JSON value that cannot be read: its line and column)
        return exc.issue
    if isinstance(exc, UnicodeDecodeError):
        # FILE, not a rule of the notation: the file itself cannot be read (issue 16)
        return Issue("FILE", f"the file is not UTF-8 text (byte {exc.start})", Location(source=name), "syntax")
    if isinstance(exc, OSError):
        what = "file"
        if path != "-" and os.path.isdir(path):  # a folder `iter_record_files` could not list: why
            what = "folder"
            try:
                os.scandir(path).close()
            except OSError as e:
                exc = e
            else:
                return Issue("FILE", "no record file in the folder (*.jjt, or *.json records)", Location(source=name), "syntax")
        return Issue("FILE", f"cannot read the {what}: {exc.strerror or exc}", Location(source=name), "syntax")
    from pydantic import ValidationError

    if isinstance(exc, ValidationError):
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err["loc"])
        at = f" at {where}" if where else ""
        return Issue("NOTATION", f"JSON record does not follow the schema{at}: {err['msg']}", Location(source=name), "syntax")
    return Issue("NOTATION", f"cannot read the record: {exc}", Location(source=name), "syntax")


def check_file(path: str, keep_hands: bool = True, on_hand=None, on_progress=None) -> FileResult:
    """Validate one file (or ``-``), hand by hand."""
    name = "<stdin>" if path == "-" else path
    sessions: list = []
    try:
        for summary, hands in validate_stream(open_records(path, on_progress), keep_hands=keep_hands, on_hand=on_hand):
            sessions.append((summary, hands))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return FileResult(name, sessions, read_error(path, exc))
    if not sessions:
        return FileResult(name, sessions, Issue("NOTATION", "no session found (a session starts with [Tag \"value\"] lines or a 'hand' line)",
                                                Location(source=name, line=1, column=1), "syntax"))
    return FileResult(name, sessions)


def check_paths(paths: Iterable[str], keep_hands: bool = True, on_hand=None, on_progress=None) -> Iterator[FileResult]:
    for path in iter_record_files(paths):
        yield check_file(path, keep_hands, on_hand, on_progress)


def exit_code(results: Iterable[FileResult]) -> int:
    """0: every hand legal and every written score right; 1: an illegal event or a wrong score; 2: input that cannot be read."""
    code = 0
    for r in results:
        if r.has_syntax_errors:
            return 2
        if not r.ok:
            code = 1
    return code


# --- the JSON verdict ---------------------------------------------------------------

def sheet_text(summary) -> str:
    """One line for a session's sheet: ``Ann 420 (1 rubber(s), 2 game(s))`` …, or a game's scores (``NS 52, EW 31; won by NS``)."""
    s = summary.sheet
    names = summary.names
    if summary.rules.notation == "events":
        text = ", ".join(f"{names[i]} {v}" for i, v in enumerate(s.scores))
        if s.over:
            text += "; won by " + " and ".join(names[c] for c in summary.winners)
        return text
    parts = [f"{names[i]} {s.total[i]} ({s.rubbers[i]} rubber(s), {s.games_total[i]} game(s))" for i in range(len(names))]
    return ", ".join(parts) + (f"; held aside {s.pool}" if s.pool else "")


def _column(c: int, card_points, parts, points, below, above, credits) -> dict:
    """One column of a hand's ``score``: the same keys for every game (README, "validate --json")."""
    trick, meld, total = parts[c] if c < len(parts) else (None, None, None)
    return {"card_points": card_points[c] if card_points is not None else None, "trick_points": trick,
            "meld_points": meld, "total": total, "below": below, "above": above, "points": points,
            "credits": credits}


def _credit(cr, line: str | None) -> dict:
    return {"amount": cr.amount, "rule": cr.rule, "why": cr.why, "line": line}


def event_session_json(summary: SessionSummary, hands: list[HandVerdict]) -> dict:
    labels = summary.labels
    return {
        "event": summary.header.get("Event"),
        "game": summary.header.get("Game"),
        "line": summary.header.line,
        "players": {lab: name for lab, name in zip(summary.seat_labels, summary.seat_names)},
        "ok": summary.bad_hands == 0 and not summary.issues,
        "hands_checked": summary.hands,
        "bad_hands": summary.bad_hands,
        "errors": [i.to_json() for i in summary.issues],
        "hands": [hand_json(h, labels, summary.rules) for h in hands],
        "sheet": dict(zip(labels, summary.sheet.scores)),
        "game_over": summary.sheet.over,
        "winner": [labels[c] for c in summary.winners] or None,
    }


def hand_json(v: HandVerdict, labels: tuple[str, ...], rules=None) -> dict:
    """One hand of any game; ``rules``: the session's, for the card points and the contract. A Jo-Jotte sheet has
    lines (each column's figures below and above, the held-aside pool); the sheets of the games recorded as a log
    of events (Pitch, Baloot) have none: ``below``/``above`` and the pool are null, ``held_aside`` 0."""
    lined = rules is None or rules.notation == "jojotte"
    score = {}
    st = v.state
    if v.score is not None and (v.entry is not None or not lined):
        card_points = rules.card_points_taken(st) if rules is not None and st is not None else None
        parts = rules.column_scores(st, v.score) if rules is not None else tuple(
            zip(v.score.trick_points, v.score.meld_points, v.score.total))
        for c, lab in enumerate(labels):
            credits = [_credit(cr, cr.line if lined else None) for cr in v.score.credits if cr.column == c]
            if lined:
                below, above = v.entry.below(c), v.entry.above(c)
                score[lab] = _column(c, card_points, parts, below + above, below, above, credits)
            else:
                score[lab] = _column(c, card_points, parts, v.score.delta[c], None, None, credits)
    return {
        "hand": v.number,
        "ok": v.ok,
        "errors": [i.to_json() for i in v.issues],
        "unchecked": [i.to_json() for i in v.unchecked],
        "contract": rules.contract_text(st) or None if rules is not None and st is not None else None,
        "score": score,
        "held_aside": (v.entry.held_aside if v.entry is not None else None) if lined else 0,
        "pool": v.sheet.pool if lined else None,
        "sheet": dict(zip(labels, v.sheet.scores)),
        "written_score_used": v.used_written_score,
    }


def session_json(summary: SessionSummary, hands: list[HandVerdict]) -> dict:
    if summary.rules.notation == "events":
        return event_session_json(summary, hands)
    labels = summary.labels
    sheet = summary.sheet
    rules = rules_for(summary.header)[0]
    return {
        "event": summary.header.get("Event"),
        "game": summary.header.get("Game") or "jojotte",
        "line": summary.header.line,
        "players": {lab: name for lab, name in zip(labels, summary.names)},
        "ok": summary.bad_hands == 0 and not summary.issues,
        "hands_checked": summary.hands,
        "bad_hands": summary.bad_hands,
        "errors": [i.to_json() for i in summary.issues],
        "hands": [hand_json(h, labels, rules) for h in hands],
        "sheet": {lab: {"below": sheet.below[s], "above": sheet.above[s], "games": sheet.games_total[s],
                        "rubbers": sheet.rubbers[s], "total": sheet.total[s]} for s, lab in enumerate(labels)},
        "pool": sheet.pool,
        "winner": labels[summary.winner] if summary.winner >= 0 else None,
    }


def file_json(r: FileResult) -> dict:
    return {
        "source": r.source,
        "ok": r.ok,
        "read_error": r.read_error.to_json() if r.read_error else None,
        "sessions": [session_json(s, hs) for s, hs in r.sessions],
    }


def verdict_json(results: list[FileResult]) -> dict:
    return {
        "format_version": 1,
        "ok": all(r.ok for r in results),
        "exit_code": exit_code(results),
        "files": [file_json(r) for r in results],
        "summary": {
            "files": len(results),
            "sessions": sum(len(r.sessions) for r in results),
            "hands": sum(r.hands for r in results),
            "bad_hands": sum(r.bad_hands for r in results),
        },
    }


def dump_json(doc: dict, out: TextIO) -> None:
    # DEL, C1 and the bidirectional controls escaped as well as C0 (issue 16): the document may reach a terminal
    out.write(printable_json(json.dumps(doc, ensure_ascii=False, indent=1)))
    out.write("\n")
