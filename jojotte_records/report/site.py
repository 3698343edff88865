"""HTML reports: a static site of session summaries, score sheets, hand replays and statistics.

`build_site` validates record files (or the sessions of an archive) hand by
hand and writes, into one folder that opens from the file system with no
server and no network:

* ``index.html``: every session (date, players, result, rubbers, hands, disputes);
* ``sessions/<slug>/index.html``: the score sheet drawn like a paper score pad,
  a chart of the running totals and the hands;
* ``sessions/<slug>/hands-NNNN.html#hand-N``: each hand: the deal, the bidding,
  the melds, the dix exchange, the tricks (stepped with buttons and the arrow
  keys when JavaScript runs, all shown at once when it does not), the score
  breakdown and the validator's verdict, with the event it names highlighted
  and the text of the rule it breaks. `HANDS_PER_FILE` hands share a file
  (creating a file costs about as much as rendering a hand); with JavaScript
  the page shows only the hand its address names;
* ``stats.html``: counts and bar charts computed from the verdicts;
* ``assets/report.css`` and ``assets/report.js``, shared by every page.

Pages are Jinja2 templates (``templates/``; autoescape on, undefined names an
error), each rendered from one frozen context dataclass (`IndexContext`,
`SessionContext`, `HandsContext`, `StatsContext`); a ``templates`` folder given
by the user is searched first, so any template can be overridden. Every rule is
the rules core's: the report only presents what the validator computed.

A manifest (``.jojotte-report.json``) keeps a content hash per page, so a page
whose bytes did not change is not written again, and pages of sessions that
are gone are removed.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Callable, Iterable, Iterator, NamedTuple, Sequence

from jinja2 import Template
from jinja2 import pass_context as _pass_context
from markupsafe import Markup, escape

from ..cycles import cycle_collection_paused
from ..errors import JojotteError, win_verb
from ..notation.model import SessionHeader
from ..replay.jojotte import HandVerdict, validate_stream
from ..replay.pool import jobs_count
from . import HANDS_PER_FILE, HANDS_PER_SHEET  # in the package: the command line reads them without the site's imports
from .jojotte_pages import SEAT_COLORS, HandsContext, HandView, SessionContext
from .session import SessionPages
from .stats_page import SiteStats, StatsContext, archive_tables
from .views import SessionRow, escape_text, issue_key, rule_texts

__all__ = ["build_site", "ReportError", "SiteResult", "IndexContext", "SessionContext", "HandsContext", "HandView",
           "StatsContext", "make_environment", "rule_texts", "MANIFEST_NAME", "HANDS_PER_FILE", "HANDS_PER_SHEET", "Site",
           "issue_key", "slugify"]

MANIFEST_NAME = ".jojotte-report.json"
MANIFEST_FORMAT = 1
ASSETS = ("report.css", "report.js")


class ReportError(JojotteError):
    """The report cannot be written (a missing archive module, a bad templates folder, an unwritable folder, a
    template that cannot be read or that fails while a page is rendered: ``template`` and ``line`` say where)."""

    def __init__(self, message: str, template: str | None = None, line: int | None = None):
        where = f"template '{template}'" + (f", line {line}" if line is not None else "") + ": " if template else ""
        super().__init__(where + message)
        self.message = message
        self.template = template
        self.line = line

    def __reduce__(self):  # from a worker (--jobs) with its place
        return type(self), (self.message, self.template, self.line)


def template_error(exc: BaseException, page: str, env) -> ReportError | None:
    """The located error of ``exc``, raised while the template ``page`` was read or rendered: the template and line
    where it was raised (a syntax error's own; else the innermost template frame of the traceback, which Jinja2
    rewrites to the template's file and line), with a plain message. None when no template is found in it."""
    from jinja2 import TemplateSyntaxError, UndefinedError

    message = exc.message if isinstance(exc, TemplateSyntaxError) and exc.message else str(exc)
    if isinstance(exc, TemplateSyntaxError):
        return ReportError(message, exc.name or page, exc.lineno)
    files = {t.filename: t.name for t in env.cache.values() if t.filename} if env.cache is not None else {}
    name = line = None
    tb = exc.__traceback__
    while tb is not None:
        names = files.get(tb.tb_frame.f_code.co_filename)
        if names is not None:
            name, line = names, tb.tb_lineno
        tb = tb.tb_next
    if name is None:
        return None
    if not isinstance(exc, UndefinedError):
        message = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    return ReportError(message, name, line)


class FileProblem(NamedTuple):
    source: str
    message: str


# --- the page contexts (one frozen dataclass per page; docs/report.md lists their fields) -----------------

@dataclass(frozen=True, slots=True)
class IndexContext:
    """``index.html``: every session, sortable and filterable by player."""

    title: str
    root: str  # the relative path to the site's root ("" here)
    sessions: tuple[SessionRow, ...]
    players: tuple[str, ...]  # every player's name, sorted (the filter's list)
    problems: tuple[FileProblem, ...]  # files that could not be read
    hands: int
    bad_hands: int


def context_fields(ctx) -> dict:
    """The top-level names a template sees: the fields of its context dataclass."""
    return {f.name: getattr(ctx, f.name) for f in fields(ctx)}


# --- templates -------------------------------------------------------------------------------------------

def make_environment(templates: str | os.PathLike | None = None):
    """The Jinja2 environment: a user's ``templates`` folder first, then the package's.

    Raises:
        ReportError: ``templates`` is not a folder.
    """
    from jinja2 import ChoiceLoader, Environment, FileSystemLoader, StrictUndefined

    from ..resources import templates_dir

    loaders = []
    if templates is not None:
        path = Path(templates)
        if not path.is_dir():
            raise ReportError(f"templates folder '{templates}' does not exist")
        loaders.append(FileSystemLoader(str(path)))
    loaders.append(FileSystemLoader(str(templates_dir())))
    env = Environment(loader=ChoiceLoader(loaders), autoescape=True, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True, auto_reload=False, keep_trailing_newline=True,
                      bytecode_cache=_bytecode_cache())
    env.template_class = _Template
    env.hand_template = None  # _hand.html, once `_render_hand` has loaded it
    env.globals["seat_colors"] = SEAT_COLORS
    env.globals["render_hand"] = _render_hand
    env.globals["cards_html"] = cards_html
    env.filters["win_verb"] = win_verb  # {{ side|win_verb }}: "win" for a side named by two players
    return env


def _escape_output(value):
    """What ``{{ value }}`` writes with autoescape on: `markupsafe.escape`'s text, as a plain string for the common
    types (the page joins its pieces into one string anyway), without making a Markup of every piece."""
    kind = type(value)
    if kind is str:
        return escape_text(value)
    if kind is Markup:
        return value
    if kind is int or kind is float:
        return str(value)  # digits, a sign, a point, an exponent: nothing to escape
    return escape(value)


class _Template(Template):
    """A template whose ``{{ … }}`` output is escaped by `_escape_output`: the name ``escape`` of its compiled module
    serves that output alone (every block, macro, call and include still makes Markup of its whole output, so
    nothing is escaped twice)."""

    @classmethod
    def from_code(cls, environment, code, globals, uptodate=None):
        template = super().from_code(environment, code, globals, uptodate)
        template.root_render_func.__globals__["escape"] = _escape_output
        return template


def _bytecode_cache():
    """Jinja2's cache of compiled templates (``FileSystemBytecodeCache``: the user's own folder in the system's
    temporary folder, made and checked private to him by Jinja2), so a run does not compile the templates again
    (parsing and compiling them costs as much as rendering a few hundred hands). An entry is found by the
    template's name and file and checked against its source's hash and the Python version, so a changed or
    user-given template is compiled afresh. None (compile every run) when no such folder can be made."""
    from jinja2 import FileSystemBytecodeCache

    class Cache(FileSystemBytecodeCache):
        def dump_bytecode(self, bucket) -> None:
            try:
                super().dump_bytecode(bucket)
            except OSError:  # the folder went or is full: the template is still rendered, only not kept
                pass

    try:
        return Cache(pattern="__jojotte_report_%s.cache")
    except (OSError, RuntimeError):  # no private folder can be made (Jinja2 raises RuntimeError when unsafe)
        return None


def cards_html(cards) -> Markup:
    """``{{ cards_html(s.dealt) }}``: the cards' HTML (`CardView.html`, made once per card) joined, as one output
    (a loop in the template costs an escape and a step of its generator per card)."""
    return Markup("".join([c.html for c in cards]))


@_pass_context
def _render_hand(context, hand):
    """``{{ render_hand(hand) }}``: ``_hand.html`` with the page's names and ``hand``.

    It does what ``{% include "_hand.html" %}`` does, rendered to one string: an include inside
    ``{% extends %}`` passes every piece of a hand through four generators, which doubles the time
    a hands page takes. The names are handed to the template's context as they are (``shared``: not
    copied again with the globals they already hold), and its output is joined as `Template.make_module`
    does, without the module; an error inside is reported by the page's render.
    """
    env = context.environment
    template = env.hand_template  # looked up once: the environment never reloads a template
    if template is None:
        template = env.hand_template = env.get_template("_hand.html")
    return Markup("".join(template.root_render_func(template.new_context({**context.get_all(), "hand": hand}, shared=True))))


# --- one session: the pages of its hands, then its own page ------------------------------------------------

def slugify(text: str, limit: int = 60) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:limit].strip("-")
    return slug or "session"


# --- writing the site ----------------------------------------------------------------------------------------

class SiteResult(NamedTuple):
    out: Path
    index: Path
    sessions: int
    hands: int
    bad_hands: int
    written: int  # pages (and assets) written
    unchanged: int  # pages whose content did not change (not rewritten)
    removed: int  # pages of sessions that are gone
    problems: tuple[FileProblem, ...]
    removed_sessions: tuple[str, ...] = ()  # the folders (``sessions/<slug>``) of the sessions whose pages went


def read_manifest(out: Path, unfinished: bool = False) -> dict[str, str]:
    """The page hashes the last run into ``out`` saved (``{}`` when there is none, or it cannot be read).

    A manifest marked ``writing`` is that of a run that began writing and did not finish (`_Writer.begin`): its
    pages are kept (a page of a session that is gone is still removed) but not its hashes, so every page is
    written again and none that run left half-written or changed is taken as up to date. ``unfinished``: the
    hashes of the mark as they are (a worker of ``--jobs`` reads the mark its own run made)."""
    try:
        doc = json.loads((out / MANIFEST_NAME).read_text(encoding="utf-8"))
        if doc.get("format") == MANIFEST_FORMAT and isinstance(doc.get("pages"), dict):
            if doc.get("writing") and not unfinished:
                return dict.fromkeys(doc["pages"], "")
            return doc["pages"]
    except (OSError, ValueError):
        pass
    return {}


def page_hash(data: bytes) -> str:
    """The manifest's hash of a page: SHA-256 (the SHA extensions of current processors make it about twice as
    fast as BLAKE2b here), its first 128 bits in hex."""
    return hashlib.sha256(data).hexdigest()[:32]


def _save_manifest(out: Path, pages: dict[str, str], writing: bool = False) -> None:
    """The manifest, replaced whole (written beside it, then renamed over it)."""
    doc = {"format": MANIFEST_FORMAT, **({"writing": True} if writing else {}), "pages": pages}
    tmp = out / (MANIFEST_NAME + ".tmp")
    tmp.write_text(json.dumps(doc, indent=0), encoding="utf-8")
    os.replace(tmp, out / MANIFEST_NAME)


_CREATE = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0)


def _write_bytes(path: Path, data: bytes) -> None:
    """``path.write_bytes(data)`` in three system calls (open, write, close): no buffer, size or terminal probe."""
    fd = os.open(path, _CREATE, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


class _Writer:
    """Writes files under ``out`` only when their content changed, and records a hash per file."""

    def __init__(self, out: Path, old: dict[str, str] | None = None):
        self.out = out
        self.old: dict[str, str] = read_manifest(out) if old is None else old
        self.new: dict[str, str] = {}
        self.written = 0
        self.unchanged = 0
        self.made_dirs: set[str] = set()
        self.removed_sessions: set[str] = set()

    def begin(self) -> None:
        """Mark the manifest as being written before any page is (`read_manifest`): a run that is stopped part way
        leaves no hash that a page it changed or half-wrote no longer matches. Also marks a new folder as a report's."""
        _save_manifest(self.out, self.old, writing=True)

    def write(self, rel: str, text: str) -> None:
        data = text.encode("utf-8")
        digest = page_hash(data)
        self.new[rel] = digest
        path = self.out / rel
        if self.old.get(rel) == digest and path.is_file():
            self.unchanged += 1
            return
        parent = rel.rpartition("/")[0]
        if parent not in self.made_dirs:
            (self.out / parent).mkdir(parents=True, exist_ok=True)
            self.made_dirs.add(parent)
        _write_bytes(path, data)
        self.written += 1

    def finish(self) -> int:
        """Remove the files of the last run that this run did not write; save the manifest. Returns how many went."""
        removed = 0
        for rel in self.old.keys() - self.new.keys():
            if not isinstance(rel, str) or Path(rel).is_absolute() or ".." in Path(rel).parts:
                continue  # only ever remove what this writer put inside the folder
            path = self.out / rel
            try:
                path.unlink()
                removed += 1
                self.removed_sessions.add(rel)
            except FileNotFoundError:
                pass
            parent = path.parent
            while parent != self.out:
                try:
                    parent.rmdir()
                except OSError:
                    break
                parent = parent.parent
        _save_manifest(self.out, dict(sorted(self.new.items())))
        kept = {rel.split("/")[1] for rel in self.new if rel.startswith("sessions/")}
        self.removed_sessions = {parts[1] for parts in (rel.split("/") for rel in self.removed_sessions)
                                 if len(parts) > 2 and parts[0] == "sessions" and parts[1] not in kept}
        return removed


class Site:
    """The site being written: the templates, the writer, the statistics and one row per session."""

    def __init__(self, out: Path, templates, on_hand: Callable[[HandVerdict], None] | None, hands_per_file: int,
                 hands_per_sheet: int = HANDS_PER_SHEET, restore: Callable | None = None, writer=None, env=None):
        self.out = out
        self.restore = restore  # restore(verdict, rules, sheet before, names, columns) -> dict, for --restore
        self.hands_per_file = hands_per_file
        self.hands_per_sheet = hands_per_sheet
        self.env = env if env is not None else make_environment(templates)
        self.templates = {}
        self.writer = writer if writer is not None else _Writer(out)
        self.stats = SiteStats()
        self.rows: list[SessionRow] = []
        self.problems: list[FileProblem] = []
        self.slugs: set[str] = set()
        self.on_hand = on_hand
        self.db: str | None = None  # the archive the site is built from, if any

    def template(self, name: str):
        t = self.templates.get(name)
        if t is None:
            t = self.templates[name] = self.env.get_template(name)
        return t

    def write_page(self, rel: str, template: str, ctx) -> None:
        """Render ``template`` from ``ctx`` into the file ``rel``.

        Raises:
            ReportError: the template (or one it uses) cannot be read or fails: its name and line, and why.
        """
        try:
            text = self.template(template).render(context_fields(ctx))
        except Exception as exc:
            error = template_error(exc, template, self.env)
            if error is None:
                raise
            raise error from exc
        self.writer.write(rel, text)

    def slug(self, base: str) -> str:
        slug = slugify(base)
        candidate, n = slug, 1
        while candidate in self.slugs:
            n += 1
            candidate = f"{slug}-{n}"
        self.slugs.add(candidate)
        return candidate

    def add_stream(self, base: str, source: str, items: Iterable) -> None:
        """Validate one stream of records (a file, or one archived session) and write its pages."""
        open_sessions: list[SessionPages] = []
        count = 0

        def tracked() -> Iterator:
            nonlocal count
            for item in items:
                if isinstance(item, SessionHeader) or not open_sessions:
                    header = item if isinstance(item, SessionHeader) else SessionHeader(())
                    count += 1
                    slug = self.slug(base if count == 1 else f"{base}-{count}")
                    open_sessions.append(SessionPages(self, header, slug, source))
                yield item

        def on_hand(v: HandVerdict) -> None:
            open_sessions[-1].add_hand(v)
            if self.on_hand is not None:
                self.on_hand(v)

        for summary, _ in validate_stream(tracked(), keep_hands=False, on_hand=on_hand):
            self.rows.append(open_sessions.pop(0).finish(summary))

    def finish(self) -> SiteResult:
        for name in ASSETS:
            source, _, _ = self.env.loader.get_source(self.env, name)
            self.writer.write(f"assets/{name}", source)
        rows = sorted(self.rows, key=lambda r: (r.event.lower(), r.url))
        rows.sort(key=lambda r: r.date, reverse=True)  # newest first, events in alphabetical order
        players = sorted({p for r in rows for p in r.players}, key=str.lower)
        hands = sum(r.hands for r in rows)
        index = IndexContext("Sessions", "", tuple(rows), tuple(players), tuple(self.problems), hands, self.stats.bad_hands)
        self.write_page("index.html", "index.html", index)
        stats = self.stats.context()
        if self.db is not None:
            stats = dataclasses.replace(stats, archive_tables=archive_tables(self.db))
        self.write_page("stats.html", "stats.html", stats)
        removed = self.writer.finish()
        return SiteResult(self.out, self.out / "index.html", len(rows), hands, self.stats.bad_hands, self.writer.written,
                          self.writer.unchanged, removed, tuple(self.problems), tuple(sorted(self.writer.removed_sessions)))


def shown_source(path: str, root: str) -> str:
    """How the pages name a record file found under the argument ``root``: its path inside the folder, after the
    folder's own name (``examples/disputes/01.jjt`` for ``/…/site-packages/jojotte_records/examples``), or the
    file's name when ``root`` is the file itself; never where the checkout or the package lives.

    >>> shown_source("/x/site-packages/jojotte_records/examples/disputes/a.jjt", "/x/site-packages/jojotte_records/examples/")
    'examples/disputes/a.jjt'
    >>> shown_source("/home/ann/records/club.jjt", "/home/ann/records/club.jjt")
    'club.jjt'
    """
    if path == "-":
        return "<stdin>"
    file, folder = Path(path), Path(root)
    if file == folder:
        return file.name or path
    try:
        inside = file.relative_to(folder)
    except ValueError:
        return file.name
    name = folder.resolve().name if folder.name in ("", ".", "..") else folder.name
    return (Path(name) / inside).as_posix() if name else inside.as_posix()


def _file_streams(paths: Sequence[str]) -> Iterator[tuple[str, str, tuple, str]]:
    """(slug base, source name shown, items, the file's path) for every record file named or found in the folders named."""
    from ..replay.files import iter_record_files

    for p in paths:
        root = Path(p)
        in_folder = root.is_dir()
        for f in iter_record_files([p]):
            if f == "-":
                base = "stdin"
            elif in_folder and Path(f) != root:
                base = str(Path(f).relative_to(root).with_suffix(""))
            elif in_folder:
                base = root.name or "records"  # the folder itself: it holds no record, or cannot be listed
            else:
                base = Path(f).stem
            yield base, shown_source(f, p), ("file", f), ("<stdin>" if f == "-" else f)


def _archive_streams(db: str) -> Iterator[tuple[str, str, tuple, str]]:
    try:
        from ..archive.store import session_texts  # the DuckDB archive: imported only when --db is used
    except ImportError as e:  # an install without it (duckdb missing or broken)
        raise ReportError(f"--db needs the archive module (jojotte_records.archive.store), which is not available: {e}; "
                          "give record files or folders instead") from None
    if not Path(db).is_file():
        raise ReportError(f"archive '{db}' does not exist")
    for key, source, text in session_texts(db):
        # a readable and stable folder name: the source file's name and the start of the session key
        base = f"{Path(str(source)).stem[:40]}-{str(key)[:8]}" if source else str(key)
        yield base, str(source), ("text", text, str(source)), str(source)


def build_site(paths: Sequence[str] = (), out: str | os.PathLike = "report", *, db: str | os.PathLike | None = None,
               templates: str | os.PathLike | None = None, on_hand: Callable[[HandVerdict], None] | None = None,
               hands_per_file: int = HANDS_PER_FILE, hands_per_sheet: int = HANDS_PER_SHEET,
               restore: Callable | None = None, jobs: int = 1) -> SiteResult:
    """Validate the records (files and folders in ``paths``, or the archive ``db``) and write the static site into ``out``.

    ``on_hand(verdict)`` is called after each hand's page is prepared (for progress bars).
    ``hands_per_file`` hands share one page file (1: a file per hand); a session's score sheet shows
    ``hands_per_sheet`` hands a page (its later pages are ``sheet-NNNN.html``).
    ``restore(verdict, rules, sheet_before, names, columns)``: the restoration of a hand with an illegal card
    (`analyze.restore.restore_hand`, which the command line passes for ``--restore``), drawn on its hand page.
    ``jobs``: files (or archived sessions) validated and rendered in that many processes (`replay.pool`; 0: every
    core), the same pages byte for byte as one process; ``on_hand`` is then called with None, once per hand.
    Pages whose content did not change since the last run into ``out`` are not rewritten.

    Raises:
        ReportError: both or neither of ``paths`` and ``db``; no archive module; a bad templates folder;
            ``out`` cannot be written.
    """
    if db is not None and paths:
        raise ReportError("give either record files or --db, not both")
    if db is None and not paths:
        raise ReportError("nothing to report: give record files or folders, or --db FILE")
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ReportError(f"cannot create the output folder '{out}': {e.strerror or e}") from None
    if hands_per_file < 1 or hands_per_sheet < 1:
        raise ReportError("hands_per_file and hands_per_sheet must be at least 1")
    site = Site(out, templates, on_hand, hands_per_file, hands_per_sheet, restore)
    streams = _archive_streams(str(db)) if db is not None else _file_streams(paths)
    site.db = str(db) if db is not None else None
    site.writer.begin()
    if jobs_count(jobs) == 1:
        for base, shown, spec, path in streams:
            _add_stream(site, base, shown, spec, path)
    else:
        _add_streams_in_workers(site, streams, jobs, templates)
    return site.finish()


# --- one stream, here or in a worker (--jobs) -----------------------------------------------------------------

def _items(spec: tuple) -> Iterator:
    from ..replay.files import open_records

    if spec[0] == "file":
        return open_records(spec[1])
    from ..notation.text import iter_records

    return iter_records(spec[1], spec[2])


def _add_stream(site: Site, base: str, shown: str, spec: tuple, path: str) -> None:
    """Validate one stream and write its pages; a stream that cannot be read is listed on the index."""
    try:
        # the views of a hand make no reference cycle; the collector walked them again and again (jojotte_records.cycles)
        with cycle_collection_paused():
            site.add_stream(base, shown, _items(spec))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        from ..replay.files import read_error  # the reason validate gives (a folder without records, not UTF-8 …)

        site.problems.append(FileProblem(path, read_error(path, exc).message))


_WORKER: dict = {}  # a worker's template environments and compiled templates (by templates folder), and the
# hashes of the last run (by output folder): made once per worker process, not once per stream


class _StreamResult(NamedTuple):
    """What a worker sends back of one stream: its index rows and counts, no page (it wrote them)."""

    rows: list  # SessionRow per session
    slugs: list  # the session folders the stream took
    stats: SiteStats
    problems: list
    hands: int
    pages: dict  # rel -> hash of every page of the stream (for the manifest)
    written: int
    unchanged: int


def _stream_job(job: tuple) -> _StreamResult:
    """A worker's piece of ``--jobs``: one stream read, validated, rendered and its session's files written under
    ``out`` (only those whose content changed since the last run), as `_add_stream` does in one process."""
    base, shown, spec, path, out, templates, per_file, per_sheet, restore = job
    key = ("env", templates)
    env = _WORKER.get(key)
    if env is None:
        env = _WORKER[key] = (make_environment(templates), {})
    old = _WORKER.get(("old", out))
    if old is None:  # the main process marked the manifest (`_Writer.begin`) with the hashes it trusts
        old = _WORKER[("old", out)] = read_manifest(Path(out), unfinished=True)
    writer = _Writer(Path(out), old)
    site = Site(Path(out), templates, None, per_file, per_sheet, restore, writer=writer, env=env[0])
    site.templates = env[1]  # compiled once per worker, not once per stream
    _add_stream(site, base, shown, spec, path)
    return _StreamResult(site.rows, sorted(site.slugs), site.stats, site.problems, sum(r.hands for r in site.rows),
                         writer.new, writer.written, writer.unchanged)


_NUMBERED = re.compile(r"-[0-9]+$")


def _slug_roots(slug: str) -> set[str]:
    """``slug`` and what it is with its trailing ``-N`` parts taken off one by one (``a-2-3``: a-2-3, a-2, a)."""
    out = {slug}
    while (m := _NUMBERED.search(slug)) is not None:
        slug = slug[:m.start()]
        out.add(slug)
    return out


def _add_streams_in_workers(site: Site, streams, jobs: int, templates) -> None:
    """``--jobs``: each stream read, validated, rendered and written by a worker process, which sends back only its
    index rows, counts and page hashes, taken here in input order.

    A stream's sessions take the folders ``slugify(base)`` followed by ``-N`` parts (the second session ``base-2``,
    a folder taken ``…-2``, …), so two streams can take one folder only when one's base slug is the other's with
    ``-N`` parts added (or the same). Such a stream, one whose base has no letter or digit (its later sessions are
    named by their number alone) and standard input are done here at their turn, after the streams before them, so
    the folders are the ones one process gives and no two processes write into one folder."""
    from ..replay.pool import Ready, ordered_map

    job_of: dict[int, tuple] = {}  # the streams done here, by their place in the input
    roots_seen: set[str] = set()  # every earlier stream's base slug and its roots
    bases_seen: set[str] = set()

    def jobs_in() -> Iterator:
        out = str(site.out)
        for k, (base, shown, spec, path) in enumerate(streams):
            first = slugify(base)
            roots = _slug_roots(first)
            here = (spec == ("file", "-") or not re.search(r"[a-z0-9]", base.lower())
                    or first in roots_seen or not roots.isdisjoint(bases_seen))
            roots_seen.update(roots)
            bases_seen.add(first)
            if here:
                job_of[k] = (base, shown, spec, path)
                yield Ready(None)
            else:
                yield base, shown, spec, path, out, templates, site.hands_per_file, site.hands_per_sheet, site.restore

    for k, r in enumerate(ordered_map(_stream_job, jobs_in(), jobs, preload=("jojotte_records.report.site",))):
        if r is None:
            _add_stream(site, *job_of.pop(k))
            continue
        site.slugs.update(r.slugs)
        site.writer.new.update(r.pages)
        site.writer.written += r.written
        site.writer.unchanged += r.unchanged
        site.rows.extend(r.rows)
        site.problems.extend(r.problems)
        site.stats.merge(r.stats)
        if site.on_hand is not None:
            for _ in range(r.hands):
                site.on_hand(None)
