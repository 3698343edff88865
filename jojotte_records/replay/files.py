"""Validating files: finding record files, reading text or JSON, and the JSON verdict.

`check_paths` is what ``jojotte validate`` runs: it streams every file hand by
hand through `replay.SessionValidator` (every game) and yields one `FileResult` per file.
`verdict_json` turns results into the documented JSON document.
"""

from __future__ import annotations

import io
import itertools
import json
import os
import sys
import tempfile
from collections import deque
from dataclasses import replace
from pathlib import Path
from typing import Callable, Iterable, Iterator, NamedTuple, TextIO

from ..errors import Issue, Location, NotationError, printable_json
from ..notation.model import SessionHeader
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
        if cb is None:  # nothing to count: the stream's own iterator, no Python frame per line
            return iter(self.stream)
        return self._counted(cb)

    def _counted(self, cb: Callable[[int], None]):
        n = 0
        for line in self.stream:
            n += len(line)
            if n > 65536:
                cb(n)
                n = 0
            yield line
        if n:
            cb(n)


# --- standard input, read once and spooled: every reader of `-` reads it like a file ---------------------------

STDIN_MEMORY_BYTES = 8 << 20  # standard input is kept in memory up to this many bytes, then in a temporary file


class _StdinSpool:
    """What has been read of one standard input: in memory up to `STDIN_MEMORY_BYTES`, then in a temporary file.

    Reading is lazy: a reader that asks for bytes beyond what was read pulls them from standard input, so the
    first reader streams (a pipe is validated while it is written) and a later one reads the same bytes again
    (issue 16: `report -` could not look at the tags of its input a second time).
    """

    def __init__(self, source):
        self.source = source
        self.memory = bytearray()
        self.file = None  # the temporary file, once the input is longer than the bound
        self.size = 0
        self.ended = False

    def _more(self) -> bool:
        if self.ended:
            return False
        read = getattr(self.source, "read1", self.source.read)
        chunk = read(1 << 16)
        if not chunk:
            self.ended = True
            return False
        if self.file is None and self.size + len(chunk) > STDIN_MEMORY_BYTES:
            self.file = tempfile.TemporaryFile(prefix="jojotte-stdin-")
            self.file.write(self.memory)
            self.memory = bytearray()
        if self.file is None:
            self.memory += chunk
        else:
            self.file.seek(0, os.SEEK_END)
            self.file.write(chunk)
        self.size += len(chunk)
        return True

    def read_at(self, pos: int, n: int) -> bytes:
        while pos >= self.size and self._more():
            pass
        n = min(n, self.size - pos)
        if n <= 0:
            return b""
        if self.file is None:
            return bytes(self.memory[pos:pos + n])
        self.file.seek(pos)
        return self.file.read(n)


class _SpoolReader(io.RawIOBase):
    """One reader of the spool, from its first byte."""

    def __init__(self, spool: _StdinSpool):
        self.spool = spool
        self.pos = 0

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        data = self.spool.read_at(self.pos, len(b))
        b[:len(data)] = data
        self.pos += len(data)
        return len(data)


_SPOOLS: list[_StdinSpool] = []  # the spool of the process's standard input (a new one when sys.stdin is replaced)


def open_stdin() -> io.BufferedReader:
    """Standard input as a binary file from its first byte, as often as asked (`_StdinSpool`)."""
    source = sys.stdin.buffer
    if not _SPOOLS or _SPOOLS[0].source is not source:
        if _SPOOLS and _SPOOLS[0].file is not None:
            _SPOOLS[0].file.close()
        _SPOOLS[:] = [_StdinSpool(source)]
    return io.BufferedReader(_SpoolReader(_SPOOLS[0]))


def open_text(path: str) -> TextIO:
    """A record file, or standard input for ``-``, as text: strict UTF-8, a byte-order mark dropped."""
    if path == "-":
        return io.TextIOWrapper(open_stdin(), encoding="utf-8-sig", errors="strict")
    return open(path, encoding="utf-8-sig", errors="strict")


def looks_like_json(path: str, first_line: str) -> bool:
    """JSON by suffix, or a first line that opens an object (``{"`` or a lone ``{``), which a comment never does."""
    head = first_line.lstrip()
    return path.endswith(".json") or head.startswith('{"') or head.rstrip() == "{"


def open_records(path: str, on_progress: Callable[[int], None] | None = None, compact: bool = False,
                 texts: list | None = None) -> Iterator:
    """The items (`SessionHeader`, `HandRecord`) of a text or JSON record file; ``-`` reads standard input.
    ``compact``: a text file's plain two-player hands as `notation.text.CompactHand`; ``texts``: the lines of the
    hands the fast paths read wholly (both: `iter_records`).

    Raises:
        OSError, UnicodeDecodeError: the file cannot be read.
        pydantic.ValidationError, ValueError: a JSON file that does not follow the schema.
    """
    stream = open_text(path)
    name = "<stdin>" if path == "-" else path
    first = stream.readline()
    if looks_like_json(path, first):
        from ..notation.json_form import iter_json_records

        text = first + stream.read()
        if on_progress:
            on_progress(len(text))
        stream.close()
        yield from iter_json_records(text, name)
        return

    try:
        yield from iter_records(_CountingLines(itertools.chain((first,), stream), on_progress), name, compact=compact,
                                texts=texts)
    finally:
        stream.close()


def read_record_text(path: str) -> str:
    """The whole text of a record file, or of standard input for ``-``: read as bytes, decoded as strict UTF-8
    (a byte-order mark dropped), exactly as `open_records` decodes it.

    Raises:
        OSError, UnicodeDecodeError: the file cannot be read (`read_error` says why).
    """
    with (open_stdin() if path == "-" else open(path, "rb")) as f:
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


def check_file(path: str, keep_hands: bool = True, on_hand=None, on_progress=None, compact: bool | None = None) -> FileResult:
    """Validate one file (or ``-``), hand by hand. ``compact`` (by default: when no hand is kept or shown to
    ``on_hand``): the plain two-player hands are read only as far as the fast replay needs (`CompactHand`); a clean
    hand's verdict then holds that reading as its ``record``, every other hand's the full reading."""
    name = "<stdin>" if path == "-" else path
    sessions: list = []
    if compact is None:
        compact = not keep_hands and on_hand is None
    try:
        for summary, hands in validate_stream(open_records(path, on_progress, compact), keep_hands=keep_hands,
                                              on_hand=on_hand):
            sessions.append((summary, hands))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return FileResult(name, sessions, read_error(path, exc))
    if not sessions:
        return FileResult(name, sessions, _no_session(name))
    return FileResult(name, sessions)


def _no_session(name: str) -> Issue:
    return Issue("NOTATION", "no session found (a session starts with [Tag \"value\"] lines or a 'hand' line)",
                 Location(source=name, line=1, column=1), "syntax")


def check_paths(paths: Iterable[str], keep_hands: bool = True, on_hand=None, on_progress=None, jobs: int = 1,
                on_hands: Callable[[int], None] | None = None) -> Iterator[FileResult]:
    """`check_file` of every record file (`iter_record_files`), in order.

    ``jobs`` (``--jobs``; 0: every core): with more than one, the files' sessions are validated in that many
    worker processes (`pool.ordered_map`), and the results are the same as with one. ``on_hands(n)``: n more
    hands done (a progress bar; with workers, ``on_hand`` and ``on_progress`` are not called).
    """
    if jobs != 1:
        from .pool import jobs_count

        if jobs_count(jobs) > 1:
            yield from _check_paths_jobs(paths, keep_hands, on_hands, jobs)
            return
    compact = not keep_hands and on_hand is None  # nothing reads a clean hand's record (`check_file`)
    if on_hands is not None and on_hand is None:
        def on_hand(v):
            on_hands(1)
    for path in iter_record_files(paths):
        yield check_file(path, keep_hands, on_hand, on_progress, compact)


# --- --jobs: sessions validated in worker processes --------------------------------

PIECE_CHARS = 1 << 18  # whole sessions sent to a worker together, up to about this many characters
LONG_SESSION_CHARS = 1 << 23  # a session longer than this is validated here, streaming: memory stays bounded
# a session longer than SPLIT_CHARS whose game's sheet can be cut (`Rules.sheet_carry`: Jo-Jotte) is sent in chunks of
# hands of about CHUNK_CHARS each; each chunk's worker first replays the WARM_HANDS hands before it (`_check_chunk`)
SPLIT_CHARS = 1 << 18
CHUNK_CHARS = 1 << 20
WARM_HANDS = 64


class _Piece(NamedTuple):
    """Whole sessions of one file for a worker: text (from line ``first_line``) or a JSON record file."""

    file: int
    source: str
    path: str
    json: bool
    first_line: int
    text: str
    keep_hands: bool
    last: bool  # the file's last piece


class _Checked(NamedTuple):
    """What a piece gave: its sessions (their indexes counted from 1 in the piece), or the file's read error."""

    file: int
    source: str
    last: bool
    sessions: list
    read_error: Issue | None
    drop_previous: bool  # the input failed before the previous piece's last session was closed (see `_checked`)
    hands: int  # hands validated, for the progress bar (0 when counted already)


def _checked(piece_file: int, source: str, path: str, items: Iterable, keep_hands: bool, last: bool,
             on_hand=None) -> _Checked:
    """`check_file`'s loop over ``items``. A read error (the stream raises) ends the file; when it comes before
    the piece's first session header, the session before the piece was never closed by the reader (the one
    process reading the whole file gives it no summary either): ``drop_previous``."""
    sessions: list = []
    hands = 0
    header_seen = False

    def seen(stream):
        nonlocal header_seen
        for item in stream:
            if isinstance(item, SessionHeader):
                header_seen = True
            yield item

    def count(v):
        nonlocal hands
        hands += 1
        if on_hand is not None:
            on_hand(v)

    try:
        for done in validate_stream(seen(items), keep_hands=keep_hands, on_hand=count):
            sessions.append(done)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return _Checked(piece_file, source, True, sessions, read_error(path, exc), not header_seen, 0 if on_hand else hands)
    return _Checked(piece_file, source, last, sessions, None, False, 0 if on_hand else hands)


class _Chunk(NamedTuple):
    """Hands of one long session for a worker (`_Chunker`): the session's first chunk from its first line, or the
    lines before the session's first hand (its tags), the `WARM_HANDS` hands before the chunk, then the chunk's own
    hands (from line ``chunk_line``); ``first_line``: the number given to the text's first line, so that the
    warm-up's and the chunk's lines have their own."""

    file: int
    source: str
    path: str
    text: str
    first_line: int
    chunk_line: int
    keep_hands: bool
    session_start: bool  # the session's first chunk
    session_last: bool
    file_last: bool


class _ChunkDone(NamedTuple):
    """What a chunk gave: its hands' verdicts (kept as `check_file` keeps them) and the session's state before and
    after it as the worker found it. The parent takes them when the state before is the true one (`_take_chunk`)."""

    hands: int
    bad_hands: int
    kept: list
    start: tuple | None  # (`Rules.sheet_carry` of the sheet before the chunk, the dealer expected), None: no hand
    start_sheet: object
    end_sheet: object
    end_dealer: int
    summary: SessionSummary | None  # the first chunk's: the session's header, rules and session-level issues
    length: int | None  # the session's agreed length (`SessionValidator.session_length`)
    error: Issue | None


def _check_chunk(c: _Chunk, given: tuple | None = None) -> _ChunkDone:
    """Validate a chunk's hands. Its first chunk starts the session as one process does; another starts from the
    state its warm-up hands reach, from an empty sheet and any dealer: after a rubber is over and the pool paid,
    that is the true state but for running totals (`Rules.sheet_carry`), which the parent checks. ``given``: the
    true (sheet, expected dealer) before the chunk, when the parent validates it again itself."""
    from .jojotte import SessionValidator

    validator = None
    kept: list = []
    start = start_sheet = None
    hands0 = bad0 = 0
    in_chunk = c.session_start
    try:
        # a verdict kept only for its issues: plain two-player hands read compactly, as `check_file` reads them
        items = iter_records(io.StringIO(c.text), c.source, first_line=c.first_line, compact=not c.keep_hands)
        for item in items:
            if isinstance(item, SessionHeader):  # a chunk holds one session (a tag line after a hand ends it)
                validator = SessionValidator(item, 1)
                if not c.session_start:
                    validator.expected_dealer = -1  # anybody: the warm-up finds whose deal it is
                continue
            if validator is None:
                validator = SessionValidator(SessionHeader(()), 1)
            if not in_chunk:
                if item.line < c.chunk_line:
                    if given is None:
                        validator.check_hand(item)  # the warm-up: its verdicts are not kept
                    continue
                in_chunk = True
                if given is not None:
                    validator.sheet, validator.expected_dealer = given
                validator.hands = max(validator.hands, 1)  # not the session's first hand (that is the first chunk's)
                hands0, bad0 = validator.hands, validator.bad_hands
                start_sheet = validator.sheet
                start = (_carry(validator.rules, start_sheet, validator.session_length), validator.expected_dealer)
            v = validator.check_hand(item)
            if c.keep_hands or v.issues:
                kept.append(v)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return _ChunkDone(0, 0, [], None, None, None, -1, None, None, read_error(c.path, exc))
    if validator is None:
        return _ChunkDone(0, 0, [], None, None, None, -1, None, None, None)
    return _ChunkDone(validator.hands - hands0, validator.bad_hands - bad0, kept, start, start_sheet, validator.sheet,
                      validator.expected_dealer, validator.finish() if c.session_start else None,
                      validator.session_length, None)


def _carry(rules, sheet, length: int | None):
    """What of ``sheet`` the next hands depend on (`Rules.sheet_carry`), the whole sheet for a game that does not say."""
    carry = rules.sheet_carry(sheet, length)
    return ("sheet", sheet) if carry is None else carry


_HAND_FIRST = [0]  # `_Chunker.hands`: a block whose first line alone begins a hand


class _Chunker:
    """A long session cut into `_Chunk` pieces at the lines that surely begin a hand (``hand N …`` alone on its line,
    no comment brace), as its lines come (`add`, then `close` at the session's end)."""

    def __init__(self, file: int, source: str, path: str, keep_hands: bool):
        self.file, self.source, self.path, self.keep_hands = file, source, path, keep_hands
        self.header: list[str] = []  # the session's lines before its first such hand line
        self.in_header = True
        self.lines: list[str] = []  # the chunk being read
        self.first = 0  # its first line
        self.size = 0
        # where the chunk's hands begin, a block at a time: (line of the block's first line, its index in lines, the
        # hand lines' offsets in the block)
        self.hands: list[tuple[int, int, list[int]]] = []
        self.warm: list[tuple[int, str]] = []  # the hands before the chunk being read, at most WARM_HANDS: (line, text)
        self.chunks = 0

    def splittable(self) -> bool:
        """Whether the session's sheet can be cut (`Rules.sheet_carry`: its game's, with its agreed length), from its tags."""
        from .jojotte import SessionValidator

        header = next((x for x in iter_records(self.header) if isinstance(x, SessionHeader)), SessionHeader(()))
        v = SessionValidator(header)
        return v.rules.sheet_carry(v.sheet, v.session_length) is not None

    @property
    def seen_hand(self) -> bool:
        return not self.in_header

    def add_plain(self, no: int, block: list[str]) -> Iterator[_Chunk]:
        """Plain lines (`_Lines.plain`: each a logical line of its own, no tag), from line ``no``, after a hand line."""
        starts = list(itertools.compress(itertools.count(), map(str.startswith, block, itertools.repeat("hand "))))
        if not self.lines:
            self.first = no
        size = sum(map(len, block))
        if not starts or self.size + size < CHUNK_CHARS:  # no cut in the block (one comes only at a hand line)
            if starts:
                self.hands.append((no, len(self.lines), starts))
            self.lines += block
            self.size += size
            return
        at = 0
        for k in starts:
            part = block[at:k]
            self.lines += part
            self.size += sum(map(len, part))
            if self.size >= CHUNK_CHARS:
                yield self._emit(False, False)
                self.first = no + k
            self.hands.append((no + k, len(self.lines), _HAND_FIRST))
            at = k
        part = block[at:]
        self.lines += part
        self.size += sum(map(len, part))

    def add(self, no: int, group: list[str]) -> _Chunk | None:
        out = None
        line = group[0]
        if len(group) == 1 and line.startswith("hand ") and "{" not in line and "}" not in line:
            if self.in_header:
                self.in_header = False
            elif self.size >= CHUNK_CHARS:
                out = self._emit(False, False)
            self.hands.append((no, len(self.lines), _HAND_FIRST))
        if self.in_header:
            self.header.extend(group)
        if not self.lines:
            self.first = no
        self.lines.extend(group)
        self.size += sum(map(len, group))
        return out

    def close(self, file_last: bool) -> _Chunk:
        return self._emit(True, file_last)

    def _emit(self, last: bool, file_last: bool) -> _Chunk:
        lines = self.lines
        if self.chunks == 0:
            c = _Chunk(self.file, self.source, self.path, "".join(lines), self.first, self.first, self.keep_hands,
                       True, last, file_last)
        else:
            begin = self.warm[0][0] if self.warm else self.first
            text = "".join(self.header) + "".join(t for _, t in self.warm) + "".join(lines)
            c = _Chunk(self.file, self.source, self.path, text, begin - len(self.header), self.first, self.keep_hands,
                       False, last, file_last)
        self.chunks += 1
        # the next chunk's warm-up: the last WARM_HANDS whole hands read (a chunk is cut where a hand begins)
        hands: list[tuple[int, int]] = []  # the last WARM_HANDS: (line, index in lines), last first
        for no, base, starts in reversed(self.hands):
            hands.extend((no + k, base + k) for k in reversed(starts))
            if len(hands) >= WARM_HANDS:
                break
        hands = hands[WARM_HANDS - 1::-1] if WARM_HANDS else []
        ends = [at for _, at in hands[1:]] + [len(lines)]
        warm = [(no, "".join(lines[at:end])) for (no, at), end in zip(hands, ends)]
        self.warm = (self.warm + warm)[-WARM_HANDS:] if len(warm) < WARM_HANDS else warm
        self.lines, self.size, self.hands = [], 0, []
        return c


class _Open(NamedTuple):
    """A session being put together chunk by chunk in the parent: the true state after its chunks so far."""

    summary: SessionSummary
    rules: object
    length: int | None
    sheet: object
    dealer: int
    hands: int
    bad_hands: int
    kept: list


def _take_chunk(o: _Open | None, c: _Chunk, d: _ChunkDone) -> tuple[_Open | None, Issue | None]:
    """The session after chunk ``c`` (its worker's result ``d``): the worker's verdicts when it started from the
    true state but for running totals (their sheets moved onto the true ones, `Rules.sheet_rebase`); else the chunk
    validated again here, from the true state. Returns the session, or the read error that ends the file."""
    if c.session_start:
        if d.error is not None:
            return None, d.error
        return _Open(d.summary, d.summary.rules, d.length, d.end_sheet, d.end_dealer, d.hands, d.bad_hands,
                     list(d.kept)), None
    rules = o.rules
    if d.error is not None or d.start is None or d.start != (_carry(rules, o.sheet, o.length), o.dealer):
        SPLIT_COUNTS["again"] += 1
        d = _check_chunk(c, (o.sheet, o.dealer))
        if d.error is not None:
            return None, d.error
    SPLIT_COUNTS["chunks"] += 1
    kept = o.kept
    if d.start_sheet is not None and d.start_sheet != o.sheet:
        rebase, was, to = rules.sheet_rebase, d.start_sheet, o.sheet
        kept.extend(v._replace(sheet=rebase(v.sheet, was, to)) for v in d.kept)
        end = rebase(d.end_sheet, was, to)
    else:
        kept.extend(d.kept)
        end = d.end_sheet
    return o._replace(sheet=end, dealer=d.end_dealer, hands=o.hands + d.hands, bad_hands=o.bad_hands + d.bad_hands), None


SPLIT_COUNTS = {"chunks": 0, "again": 0}  # chunks after a session's first taken, and those validated again here


def _check_work(p):
    """What a worker does with a piece of whole sessions or a chunk of a long one."""
    return _check_chunk(p) if isinstance(p, _Chunk) else _check_piece(p)


def _check_piece(p: _Piece) -> _Checked:
    """What a worker does with a piece."""
    if p.json:
        from ..notation.json_form import iter_json_records

        items = iter_json_records(p.text, p.source)
    else:
        items = iter_records(io.StringIO(p.text), p.source, first_line=p.first_line, compact=not p.keep_hands)
    return _checked(p.file, p.source, p.path, items, p.keep_hands, p.last)


def _failing(lines: Iterable[str], exc: BaseException) -> Iterator[str]:
    yield from lines
    raise exc


class _Lines:
    """The lines of a text file for `_file_pieces`: one by one (for `mark_session_starts`), or by blocks of plain
    lines (`plain`); the lines a block read too far are kept ahead (with their text joined, searched once for
    where the plain lines stop rather than line by line), to be read again one by one or by blocks, and an error
    of the reading is raised at the line it stopped at."""

    def __init__(self, stream: TextIO, first: str):
        self.stream = stream
        self.ahead: list[str] = [first] if first else []  # lines read from the stream and not yet given
        self.at = 0  # the first of them not given
        self.text = first  # "".join(self.ahead)
        self.offset = 0  # where line ``at`` begins in ``text``
        self.error: Exception | None = None

    def __iter__(self):
        return self

    def __next__(self) -> str:
        if self.at < len(self.ahead):
            line = self.ahead[self.at]
            self.at += 1
            self.offset += len(line)
            return line
        if self.error is not None:
            exc, self.error = self.error, None
            raise exc
        line = self.stream.readline()
        if not line:
            raise StopIteration
        return line

    def plain(self, n: int = 4096) -> list[str]:
        """Up to ``n`` next lines, up to the first that is not plain (with a comment brace, or a tag line), which
        is kept ahead with the lines after it; [] at such a line, at the end of the file or at an error."""
        if self.at >= len(self.ahead):
            block: list[str] = []
            if self.error is None:
                try:  # (the lines read before an error stay in the block)
                    block.extend(itertools.islice(iter(self.stream.readline, ""), n))
                except (OSError, UnicodeDecodeError) as exc:
                    self.error = exc
            self.ahead, self.at, self.text, self.offset = block, 0, "".join(block), 0
        at, text, begin = self.at, self.text, self.offset
        end = _not_plain(text, begin)
        # lines end with "\n" (the stream's newlines): the lines before the one at ``end`` are those it counts
        k = min(len(self.ahead), at + n, at + text.count("\n", begin, end) if end >= 0 else at + n)
        block = self.ahead[at:k]
        self.at = k
        self.offset = begin + sum(map(len, block))
        return block


def _not_plain(text: str, begin: int) -> int:
    """Where in ``text`` (lines, from ``begin``, the start of one) the first line that is not plain is, -1 if none:
    one with a comment brace, or a tag line (``[`` first but for blanks; a ``[`` inside a line is plain)."""
    end = len(text)
    for brace in "{}":
        k = text.find(brace, begin, end)
        if k >= 0:
            end = k
    k = text.find("[", begin, end)
    while k >= 0:
        line_start = text.rfind("\n", begin, k) + 1 or begin
        if line_start == k or text[line_start:k].isspace():
            return line_start
        k = text.find("[", k + 1, end)
    if end == len(text):
        return -1
    return text.rfind("\n", begin, end) + 1 or begin


def _file_pieces(i: int, path: str, keep_hands: bool, on_hand) -> Iterator:
    """One file cut into pieces of whole sessions (`mark_session_starts`), read as `open_records` reads it; the
    work that must stay here (a read error, a very long session) comes done, as `pool.Ready`."""
    from ..notation.text import mark_session_starts
    from .pool import Ready

    name = "<stdin>" if path == "-" else path
    try:
        stream = open_text(path)
    except OSError as exc:
        yield Ready(_Checked(i, name, True, [], read_error(path, exc), False, 0))
        return
    try:
        try:
            first = stream.readline()
            if looks_like_json(path, first):
                text = first + stream.read()
        except (OSError, UnicodeDecodeError) as exc:
            yield Ready(_Checked(i, name, True, [], read_error(path, exc), False, 0))
            return
        if looks_like_json(path, first):
            yield _Piece(i, name, path, True, 1, text, keep_hands, True)
            return
        lines = _Lines(stream, first)
        buf: list[str] = []  # the lines read since the last piece
        size = 0
        start = 1  # the number of buf's first line
        cut = 0  # where in buf the last session that may be cut off begins, and its line
        cut_line = 1
        groups: list | None = []  # the last session's logical lines, until it is found long (None: it cannot be cut)
        session_size = 0
        chunker: _Chunker | None = None  # the long session being cut into chunks of hands
        after = 0  # the number of the line before the next one read from `lines`
        plain_before = False  # a plain line was read by blocks since the last tag line
        try:
            while True:
                # the lines grouped as `iter_records` reads them; in a long session, after a plain hand line, the
                # scan goes on by blocks of plain lines (`_Lines.plain`) and comes back here at any other line
                for no, group, starts in mark_session_starts(lines):
                    no += after
                    if chunker is not None:
                        if chunker.seen_hand and group[0].lstrip().startswith("["):
                            starts = True  # (after a hand line, a tag line is a cut: the scan may have begun anew)
                        if not starts:
                            chunk = chunker.add(no, group)
                            if chunk is not None:
                                yield chunk
                            if chunker.seen_hand:
                                after = no + len(group) - 1
                                break  # to the blocks of plain lines
                            continue
                        yield chunker.close(False)  # a tag line after a hand: the long session is over
                        chunker = None
                        buf, size, start = [], 0, no
                    tag = group[0].lstrip().startswith("[")
                    if tag:
                        starts = starts or plain_before  # (the scan began anew after the blocks of plain lines)
                        plain_before = False
                    if starts:
                        if size >= PIECE_CHARS:
                            yield _Piece(i, name, path, False, start, "".join(buf), keep_hands, False)
                            buf, size, start = [], 0, no
                        cut, cut_line = len(buf), no
                        groups, session_size = [], 0
                    buf.extend(group)
                    n = sum(map(len, group))
                    size += n
                    if groups is not None:
                        groups.append((no, group, False))
                        session_size += n
                        if session_size > SPLIT_CHARS:  # a long session: cut into chunks of hands if its game allows
                            cutter, firsts = _long_session(i, name, path, keep_hands, groups, start, buf[:cut])
                            groups = None
                            if cutter is not None:
                                buf = []
                                yield from firsts
                                chunker = cutter
                                if chunker.seen_hand:
                                    after = no + len(group) - 1
                                    break
                                continue
                    if size > LONG_SESSION_CHARS:  # one session too long to send: the rest of the file is read here
                        if cut:
                            yield _Piece(i, name, path, False, start, "".join(buf[:cut]), keep_hands, False)
                        rest = iter_records(_chain(buf[cut:], lines), name, first_line=cut_line)
                        buf = []
                        yield Ready(_checked(i, name, path, rest, keep_hands, True, on_hand))
                        return
                    if not tag and len(group) == 1 and "{" not in group[0] and "}" not in group[0] and group[0].strip():
                        plain_before = True  # a line of a hand: what follows it up to a tag line is in its session
                        after = no
                        break  # to the blocks of plain lines
                else:
                    break  # the end of the file
                while True:  # plain lines, by blocks: a long session's (`_Chunker.add_plain`), or any other's
                    block = lines.plain()
                    if not block:
                        break
                    if chunker is not None:
                        yield from chunker.add_plain(after + 1, block)
                        after += len(block)
                        continue
                    buf.extend(block)
                    n = sum(map(len, block))
                    size += n
                    if groups is not None:
                        groups.append((after + 1, block, True))  # each line its own group (`_long_session`)
                        session_size += n
                    after += len(block)
                    if groups is not None and session_size > SPLIT_CHARS:  # as for a line read alone, above
                        cutter, firsts = _long_session(i, name, path, keep_hands, groups, start, buf[:cut])
                        groups = None
                        if cutter is not None:
                            buf = []
                            yield from firsts
                            chunker = cutter
                            if not chunker.seen_hand:
                                break
                            continue
                    if size > LONG_SESSION_CHARS:
                        break  # the rest of the file is read here, from the next line (read alone, above)
        except (OSError, UnicodeDecodeError) as exc:  # the sessions the one reader closed before the error
            if chunker is not None:  # in a long session, which the one reader never closed either
                yield Ready(_Checked(i, name, True, [], read_error(path, exc), False, 0))
                return
            yield Ready(_checked(i, name, path, iter_records(_failing(buf, exc), name, first_line=start),
                                 keep_hands, True, on_hand))
            return
        if chunker is not None:
            yield chunker.close(True)
            return
        yield _Piece(i, name, path, False, start, "".join(buf), keep_hands, True)
    finally:
        stream.close()


def _long_session(i: int, name: str, path: str, keep_hands: bool, groups: list, start: int,
                  before: list[str]) -> tuple:
    """A session found long, its lines so far in ``groups``: its `_Chunker` and the pieces to send first (the lines
    ``before`` it, then its first chunks), or ``(None, ())`` when its game is not cut."""
    cutter = _Chunker(i, name, path, keep_hands)
    firsts = [cutter.add(no, [line]) if block else cutter.add(no, g)
              for g_no, g, block in groups for no, line in (enumerate(g, g_no) if block else ((g_no, None),))]
    if not cutter.splittable():
        return None, ()
    head = [_Piece(i, name, path, False, start, "".join(before), keep_hands, False)] if before else []
    return cutter, head + [c for c in firsts if c is not None]


def _chain(first: Iterable[str], rest: Iterable[str]) -> Iterator[str]:
    yield from first
    yield from rest


def _shifted(issues: tuple[Issue, ...], by: int) -> tuple[Issue, ...]:
    if not by or not any(i.loc.session is not None for i in issues):
        return issues
    return tuple(replace(i, loc=replace(i.loc, session=i.loc.session + by)) if i.loc.session is not None else i
                 for i in issues)


def _shifted_session(summary: SessionSummary, hands: list, by: int) -> tuple:
    if by:
        summary = summary._replace(issues=_shifted(summary.issues, by))
        hands = [v._replace(issues=_shifted(v.issues, by), unchecked=_shifted(v.unchecked, by)) for v in hands]
    return summary, hands


def _check_paths_jobs(paths: Iterable[str], keep_hands: bool, on_hands, jobs: int) -> Iterator[FileResult]:
    from .pool import jobs_count, ordered_map

    sent: deque[_Chunk] = deque()  # the chunks given to the workers whose results are not taken yet

    def pieces():
        local = (lambda v: on_hands(1)) if on_hands is not None else None
        for i, path in enumerate(iter_record_files(paths)):
            for p in _file_pieces(i, path, keep_hands, local):
                if isinstance(p, _Chunk):
                    sent.append(p)
                yield p

    sessions: list = []
    open_: _Open | None = None  # a long session being put together chunk by chunk
    failed = -1  # a file whose reading stopped in a long session: its chunks still coming are dropped
    # two pieces per worker in flight: one it works on, one waiting (a piece is at most LONG_SESSION_CHARS)
    for done in ordered_map(_check_work, pieces(), jobs, window=2 * jobs_count(jobs), preload=[__name__]):
        if isinstance(done, _ChunkDone):
            c = sent.popleft()
            if c.file == failed:
                continue
            if on_hands is not None and done.hands:
                on_hands(done.hands)
            open_, error = _take_chunk(open_, c, done)
            if error is not None:  # the file ends here, without the long session (the one reader never closed it)
                failed = c.file
                yield FileResult(c.source, sessions, error)
                sessions = []
                continue
            if c.session_last:
                by = len(sessions)
                summary = open_.summary._replace(hands=open_.hands, bad_hands=open_.bad_hands, sheet=open_.sheet,
                                                 winners=tuple(open_.sheet.winners))
                sessions.append(_shifted_session(summary, open_.kept, by))
                open_ = None
            if c.file_last:
                yield FileResult(c.source, sessions) if sessions else FileResult(c.source, sessions, _no_session(c.source))
                sessions = []
            continue
        if done.file == failed:
            continue
        if open_ is not None:  # a read error in a long session: the one reader never closed it
            open_ = None
        if on_hands is not None and done.hands:
            on_hands(done.hands)
        if done.drop_previous and sessions:
            sessions.pop()
        by = len(sessions)  # the sessions of the file before this piece: the piece's indexes start after them
        for summary, hands in done.sessions:
            sessions.append(_shifted_session(summary, hands, by))
        if done.last:
            if done.read_error is not None:
                yield FileResult(done.source, sessions, done.read_error)
            elif not sessions:
                yield FileResult(done.source, sessions, _no_session(done.source))
            else:
                yield FileResult(done.source, sessions)
            sessions = []


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
    """One session of any game: the same keys for every game (README, "validate --json")."""
    labels = summary.labels
    sheet = summary.sheet
    rules = summary.rules
    return {
        "event": summary.header.get("Event"),
        "game": summary.header.get("Game") or "jojotte",
        "line": summary.header.line,
        "players": {lab: name for lab, name in zip(summary.seat_labels, summary.seat_names)},
        "ok": summary.bad_hands == 0 and not summary.issues,
        "hands_checked": summary.hands,
        "bad_hands": summary.bad_hands,
        "errors": [i.to_json() for i in summary.issues],
        "hands": [hand_json(h, labels, rules) for h in hands],
        "sheet": {lab: rules.sheet_figures(sheet, c) for c, lab in enumerate(labels)},
        "pool": sheet.pool if rules.notation == "jojotte" else None,
        "game_over": sheet.over,
        "winner": labels[summary.winner] if summary.winner >= 0 else None,
        "winners": [labels[c] for c in summary.winners],
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
