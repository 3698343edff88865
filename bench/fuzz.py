"""Fuzzing as a figure (issue 16): mutate every record of ``examples/`` and drive every entry point with it.

    python bench/fuzz.py --inputs 5000 --seed 1                  # every entry point, this process
    python bench/fuzz.py --inputs 100000 --seed 7 --jobs 2       # replay.pool.ordered_map over 2 processes
    python bench/fuzz.py --inputs 2000 --entry read,validate     # some entry points only
    python bench/fuzz.py --replay fuzz-failures/000123-validate.jjt   # run one saved input again

The corpus is every ``*.jjt`` of ``examples/`` and the JSON form of each (``convert --to json``). Input ``i`` of
seed ``S`` is one corpus file (``i`` modulo the corpus, so every file is mutated) with one to three mutations chosen
by ``random.Random(f"{S}:{i}")``: byte flips, inserts and deletes; token deletes and duplicates; line deletes,
duplicates and swaps; same-kind token swaps (a card for a card, a seat for a seat, a number for a number); huge
numbers; control characters; truncation; unbalanced braces and brackets; and, for a JSON record, mutations of its
structure (a key removed, a value replaced by another type, a list emptied or doubled, a huge or negative number).

Each input goes through the entry points in-process (``--entry``, default all):

* ``read``: `notation.text.iter_records` and `read_sessions`, or the JSON reader (`notation.json_form`);
* ``validate``: `replay.files.open_records` through `replay.jojotte.validate_stream` (what ``validate`` runs);
* ``convert``: text → JSON → text and JSON → text, as ``jojotte convert`` does;
* ``import``: `archive.store.MemoryArchive` (the importer of ``jojotte import``, into an in-memory DuckDB);
* ``report``: `report.site.build_site` into a temporary folder;
* ``recorder``: `table.recorder.Recorder` resuming the input as its session file, then fed up to 60 answers: a
  legal choice it offers, some of the words it completes (cards), a command (``undo``, ``claim``, ``result`` …),
  or the input's own tokens (its moves, mutated).

An exception counts as **uncaught** unless it is the project's own error value: a `JojotteError` (a located
`NotationError`, an `ArchiveError`, a `ReportError` …), a `RecorderError`, pydantic's `ValidationError` of a JSON
record that does not follow the schema, or a `UnicodeDecodeError` (a file that is not UTF-8; every command says so).
An entry point that returns a "please report it" issue (the importer's catch-all) counts as uncaught too. A **hang**
is an input whose entry point runs past ``--timeout`` seconds of CPU time (``ITIMER_PROF``: the machine may be
shared), or twelve times that of wall time (``ITIMER_REAL``); **over memory**, an input during
which the process's peak RSS (`resource.getrusage`) rose above ``--max-rss-mb``. Each failing input is saved with
its traceback in ``--failures`` (``NNNNNN-ENTRY.jjt`` or ``.json`` and ``.txt``) for ``--replay``.

The figures printed: inputs, uncaught, hangs, over memory, and CPU time (``time.process_time``, summed over the
workers) beside wall time, and inputs/s.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import resource
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ENTRIES = ("read", "validate", "convert", "import", "report", "recorder")

CARD = re.compile(r"\b(?:[2-9TJQKA]|10)[SHDC]\b")
SEAT = re.compile(r"\b(?:A|B|C|N|E|S|W|NS|EW)\b")
NUMBER = re.compile(r"\b\d+\b")
TOKEN = re.compile(r"\S+")
COUNT_ASKED = re.compile(r"the (\d+) card")
CONTROL = ["\x00", "\x1b[2J", "\x07", "\x7f", "\u202e", "\r", "\x0b", "\ufeff", "\x85"]
HUGE = ["2147483648", "9" * 40, "99999999999999999999", "-1", "0", "4294967296", "1" + "0" * 5000, "1e309"]


WALL_FACTOR = 12  # the wall-clock backstop of the time limit, in CPU time limits


class Hang(BaseException):
    """The time limit of one input ran out (a BaseException, so that no `except Exception` of the library hides it)."""


# --- the corpus ------------------------------------------------------------------------------------------

def corpus() -> list[tuple[str, str]]:
    """(name, text) of every example record, and of its JSON form."""
    from jojotte_records.notation.json_form import to_record_file
    from jojotte_records.notation.text import read_sessions

    out = []
    for p in sorted((ROOT / "examples").rglob("*.jjt")):
        text = p.read_text(encoding="utf-8")
        name = str(p.relative_to(ROOT))
        out.append((name, text))
        out.append((name[:-4] + ".json",
                    to_record_file(read_sessions(text, name)).model_dump_json(indent=2, exclude_defaults=False) + "\n"))
    return out


# --- the mutations ----------------------------------------------------------------------------------------

def _swap_same_kind(rng: random.Random, text: str) -> str:
    pattern = rng.choice((CARD, SEAT, NUMBER))
    found = list(pattern.finditer(text))
    if len(found) < 2:
        return text
    a, b = sorted(rng.sample(found, 2), key=lambda m: m.start())
    return text[:a.start()] + b.group() + text[a.end():b.start()] + a.group() + text[b.end():]


def _replace_kind(rng: random.Random, text: str) -> str:
    """A card, seat or number replaced by another of its kind taken from anywhere in the text (or a huge number)."""
    pattern = rng.choice((CARD, SEAT, NUMBER, NUMBER))
    found = list(pattern.finditer(text))
    if not found:
        return text
    m = rng.choice(found)
    new = rng.choice(HUGE) if pattern is NUMBER and rng.random() < 0.5 else rng.choice(found).group()
    return text[:m.start()] + new + text[m.end():]


def _tokens(rng: random.Random, text: str) -> str:
    found = list(TOKEN.finditer(text))
    if not found:
        return text
    m = rng.choice(found)
    if rng.random() < 0.5:
        return text[:m.start()] + text[m.end():]
    return text[:m.end()] + " " + m.group() + text[m.end():]


def _lines(rng: random.Random, text: str) -> str:
    lines = text.splitlines(True)
    if not lines:
        return text
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    op = rng.randrange(3)
    if op == 0:
        del lines[i]
    elif op == 1:
        lines.insert(i, lines[j])
    else:
        lines[i], lines[j] = lines[j], lines[i]
    return "".join(lines)


def _control(rng: random.Random, text: str) -> str:
    i = rng.randrange(len(text) + 1)
    return text[:i] + rng.choice(CONTROL) + text[i:]


def _truncate(rng: random.Random, text: str) -> str:
    return text[:rng.randrange(len(text) + 1)]


def _braces(rng: random.Random, text: str) -> str:
    i = rng.randrange(len(text) + 1)
    return text[:i] + rng.choice("{}[]\"{{}}") * rng.choice((1, 1, 2, 3)) + text[i:]


def _json_structure(rng: random.Random, text: str) -> str:
    try:
        doc = json.loads(text)
    except ValueError:
        return text
    nodes: list = []

    def walk(x):
        if isinstance(x, (dict, list)):
            nodes.append(x)
            for v in (x.values() if isinstance(x, dict) else x):
                walk(v)
    walk(doc)
    node = rng.choice(nodes)
    keys = list(node) if isinstance(node, dict) else list(range(len(node)))
    if not keys:
        return text
    k = rng.choice(keys)
    op = rng.randrange(6)
    if op == 0:
        del node[k]
    elif op == 1:
        node[k] = rng.choice([None, 0, -1, 2 ** 31, 10 ** 30, "", "XX", [], {}, True, 1.5, "AS", "A", [None]])
    elif op == 2 and isinstance(node[k], list):
        node[k] = node[k] * 2 if rng.random() < 0.5 else []
    elif op == 3 and isinstance(node[k], str):
        node[k] = node[k] + rng.choice(["x", " ", "\x1b", "?", "10H", " AS"])
    elif op == 4 and isinstance(node[k], int) and not isinstance(node[k], bool):
        node[k] = rng.choice([node[k] + 1, -node[k], node[k] * 1000, 2 ** 63])
    elif isinstance(node, dict):
        node[rng.choice(["extra", "hands", "tricks", "plays", "tags"])] = rng.choice([[], {}, None, 1, "x"])
    return json.dumps(doc, indent=rng.choice((None, 2)))


TEXT_MUTATIONS = (_swap_same_kind, _replace_kind, _tokens, _lines, _control, _truncate, _braces)


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    b = bytearray(data)
    for _ in range(rng.choice((1, 1, 2, 4))):
        op = rng.randrange(3)
        i = rng.randrange(len(b) + 1)
        if op == 0 and i < len(b):
            b[i] ^= 1 << rng.randrange(8)
        elif op == 1:
            b[i:i] = bytes([rng.randrange(256)])
        elif i < len(b):
            del b[i]
    return bytes(b)


def make_input(seed: int, index: int, files: list[tuple[str, str]]) -> tuple[str, bytes]:
    """Input ``index`` of ``seed``: (the corpus name it came from, its bytes)."""
    rng = random.Random(f"{seed}:{index}")
    name, text = files[index % len(files)]
    for _ in range(rng.choice((1, 1, 2, 3))):
        r = rng.random()
        if r < 0.15:
            return name, mutate_bytes(rng, text.encode("utf-8"))
        if name.endswith(".json") and r < 0.45:
            text = _json_structure(rng, text)
        else:
            text = rng.choice(TEXT_MUTATIONS)(rng, text)
    return name, text.encode("utf-8")


# --- the entry points ------------------------------------------------------------------------------------

def _expected() -> tuple[type, ...]:
    from pydantic import ValidationError

    from jojotte_records.errors import JojotteError
    from jojotte_records.table.recorder import RecorderError

    return (JojotteError, RecorderError, ValidationError, UnicodeDecodeError)


class Reported(Exception):
    """An entry point returned an issue that asks to be reported (a caught bug, not an error value)."""


def _is_json(path: str, data: bytes) -> bool:
    from jojotte_records.replay.files import looks_like_json

    text = data.decode("utf-8-sig", errors="replace")
    return looks_like_json(path, text.split("\n", 1)[0])


def run_read(path: str, data: bytes, work: Path) -> None:
    text = data.decode("utf-8-sig")
    if _is_json(path, data):
        from jojotte_records.notation.json_form import iter_json_records

        list(iter_json_records(text, path))
        return
    from jojotte_records.notation.text import iter_records, read_sessions

    list(iter_records(text.splitlines(True), path))
    read_sessions(text, path)


def run_validate(path: str, data: bytes, work: Path) -> None:
    from jojotte_records.replay.files import FileResult, file_json, open_records
    from jojotte_records.replay.jojotte import validate_stream

    sessions = list(validate_stream(open_records(path)))
    json.dumps(file_json(FileResult(path, sessions)))  # the --json document of it
    for summary, hands in sessions:
        for h in hands:
            for i in h.issues:
                str(i)


def run_convert(path: str, data: bytes, work: Path) -> None:
    from jojotte_records.games import rules_for
    from jojotte_records.notation.json_form import RecordFile, to_record_file, to_session
    from jojotte_records.notation.text import read_sessions, write_sessions

    text = data.decode("utf-8-sig")
    if _is_json(path, data):
        sessions = [to_session(s, path) for s in RecordFile.model_validate_json(text).sessions]
        write_sessions(sessions)
        to_record_file(sessions).model_dump_json(indent=2)
        return
    sessions = read_sessions(text, path)
    if any(i for s in sessions for i in (*s.header.issues, *rules_for(s.header)[1], *(x for h in s.hands for x in h.issues))):
        return  # convert refuses it, with the located issues
    canonical = write_sessions(sessions)
    doc = to_record_file(sessions).model_dump_json(indent=2, exclude_defaults=False)
    back = [to_session(s, path) for s in RecordFile.model_validate_json(doc).sessions]
    write_sessions(back)
    write_sessions(read_sessions(canonical, path))


_ARCHIVE = None


def run_import(path: str, data: bytes, work: Path) -> None:
    global _ARCHIVE
    from jojotte_records.archive.store import MemoryArchive

    if _ARCHIVE is None:
        _ARCHIVE = MemoryArchive()
    rows = _ARCHIVE.file_rows(path, data)
    err = rows.result.error
    if err is not None and "please report it" in err.message:
        raise Reported(err.message)


def run_report(path: str, data: bytes, work: Path) -> None:
    from jojotte_records.report.site import build_site

    out = work / "site"
    result = build_site([path], out, hands_per_file=50)
    for p in result.problems:
        if "please report" in p.message:
            raise Reported(p.message)


def run_recorder(path: str, data: bytes, work: Path) -> None:
    from jojotte_records.table.recorder import Recorder

    target = work / "rec.jjt"
    target.write_bytes(data)
    rec = Recorder(target)
    try:
        words = TOKEN.findall(data.decode("utf-8", errors="replace"))[:200]
        rng = random.Random(len(data))
        for _ in range(60):
            q = rec.question()
            if q is None:
                break
            r = rng.random()
            if r < 0.45 and q.choices:  # a legal choice it offers: the recorder goes deep into the hand
                answer = rng.choice(q.choices[:3])
            elif r < 0.7 and q.words:  # as many of the words it completes (the cards not yet seen) as it asks for
                asked = COUNT_ASKED.search(q.text)
                n = int(asked.group(1)) if asked else 1 if "card" in q.text else rng.randint(1, 9)
                n = n if rng.random() < 0.9 else rng.randint(1, 9)
                pool = [w for w in q.words if w != "?"] or list(q.words)
                answer = " ".join(rng.sample(pool, min(len(pool), n)))
            elif r < 0.75:
                answer = rng.choice(("undo", "", "?", "claim", "result", "keep", "none", "5 82", "undo"))
            elif words:  # the record's own moves, mutated
                answer = " ".join(rng.choice(words) for _ in range(rng.choice((1, 1, 2, 3))))
            else:
                answer = ""
            rec.answer(answer)
            if not rec.in_hand() and rng.random() < 0.2:
                rec.sheet_rows()
    finally:
        rec.unlock()


RUNNERS = {"read": run_read, "validate": run_validate, "convert": run_convert, "import": run_import,
           "report": run_report, "recorder": run_recorder}


def _on_alarm(signum, frame):
    raise Hang()


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_one(index: int, name: str, data: bytes, entries: tuple[str, ...], timeout: float, max_rss_mb: float,
            work_root: Path) -> list[tuple[str, str, str]]:
    """Every entry point on one input: (entry, kind, traceback) of each failure (kind: uncaught, hang, memory)."""
    expected = _expected()
    suffix = ".json" if name.endswith(".json") else ".jjt"
    failures = []
    with tempfile.TemporaryDirectory(dir=work_root) as tmp:
        work = Path(tmp)
        path = str(work / f"input{suffix}")
        Path(path).write_bytes(data)
        for entry in entries:
            before = _peak_mb()
            # CPU time (the machine is shared: a slow input is not a hang), and a wall-clock backstop
            signal.setitimer(signal.ITIMER_PROF, timeout)
            signal.setitimer(signal.ITIMER_REAL, timeout * WALL_FACTOR)
            try:
                RUNNERS[entry](path, data, work)
            except Hang:
                failures.append((entry, "hang", f"over {timeout} s of CPU or {timeout * WALL_FACTOR} s of wall time"))
            except expected:
                pass
            except Exception:  # noqa: BLE001 - the figure: any other exception is a bug
                failures.append((entry, "uncaught", traceback.format_exc()))
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
                signal.setitimer(signal.ITIMER_REAL, 0)
            after = _peak_mb()
            if after > max_rss_mb and after > before:
                failures.append((entry, "memory", f"peak RSS {after:.0f} MiB (bound {max_rss_mb:.0f} MiB)"))
    return failures


# --- a chunk of inputs (one worker's piece) ---------------------------------------------------------------

_FILES: list | None = None


def run_chunk(args: tuple) -> dict:
    """Inputs ``start`` .. ``stop - 1`` of ``seed``: counts, CPU seconds, and each failure (saved in ``failures``)."""
    global _FILES
    seed, start, stop, entries, timeout, max_rss_mb, failures_dir = args
    if _FILES is None:
        _FILES = corpus()
    previous = signal.signal(signal.SIGALRM, _on_alarm), signal.signal(signal.SIGPROF, _on_alarm)
    cpu = time.process_time()
    counts = {"inputs": 0, "uncaught": 0, "hang": 0, "memory": 0}
    by_entry: dict[str, int] = {}
    saved = []
    root = Path(tempfile.gettempdir())
    for i in range(start, stop):
        name, data = make_input(seed, i, _FILES)
        counts["inputs"] += 1
        for entry, kind, tb in run_one(i, name, data, entries, timeout, max_rss_mb, root):
            counts[kind] += 1
            by_entry[f"{entry}:{kind}"] = by_entry.get(f"{entry}:{kind}", 0) + 1
            if failures_dir:
                out = Path(failures_dir)
                out.mkdir(parents=True, exist_ok=True)
                stem = f"{seed}-{i:07d}-{entry}"
                (out / (stem + (".json" if name.endswith(".json") else ".jjt"))).write_bytes(data)
                (out / (stem + ".txt")).write_text(f"seed {seed} input {i} from {name}\n{kind} in {entry}\n{tb}",
                                                   encoding="utf-8")
                saved.append(stem)
    signal.signal(signal.SIGALRM, previous[0])
    signal.signal(signal.SIGPROF, previous[1])
    counts["cpu"] = time.process_time() - cpu
    counts["by_entry"] = by_entry
    counts["saved"] = saved
    return counts


def fuzz(seed: int, inputs: int, entries: tuple[str, ...], jobs: int = 1, timeout: float = 5.0,
         max_rss_mb: float = 1024.0, failures_dir: str | None = "fuzz-failures", chunk: int = 100,
         start: int = 0, quiet: bool = True) -> dict:
    """Run ``inputs`` inputs of ``seed`` (from ``start``) and return the totals."""
    from jojotte_records.replay.pool import ordered_map

    pieces = [(seed, a, min(a + chunk, start + inputs), entries, timeout, max_rss_mb, failures_dir)
              for a in range(start, start + inputs, chunk)]
    total = {"inputs": 0, "uncaught": 0, "hang": 0, "memory": 0, "cpu": 0.0, "by_entry": {}, "saved": []}
    wall = time.perf_counter()
    for r in ordered_map(run_chunk, pieces, jobs):
        for k in ("inputs", "uncaught", "hang", "memory", "cpu"):
            total[k] += r[k]
        for k, v in r["by_entry"].items():
            total["by_entry"][k] = total["by_entry"].get(k, 0) + v
        total["saved"] += r["saved"]
        if not quiet:
            print(f"  {total['inputs']} inputs: {total['uncaught']} uncaught, {total['hang']} hangs, "
                  f"{total['memory']} over memory; CPU {total['cpu']:.1f} s, wall {time.perf_counter() - wall:.1f} s",
                  file=sys.stderr, flush=True)
    return total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--inputs", type=int, default=1000)
    ap.add_argument("--start", type=int, default=0, help="the first input's index (to run a seed in pieces)")
    ap.add_argument("--entry", default=",".join(ENTRIES), help=f"comma-separated, of: {', '.join(ENTRIES)}")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (replay.pool.ordered_map); 0: every core")
    ap.add_argument("--timeout", type=float, default=5.0, help="CPU seconds per entry point and input before it is a hang")
    ap.add_argument("--max-rss-mb", type=float, default=1024.0)
    ap.add_argument("--failures", default="fuzz-failures", help="folder for each failing input and its traceback")
    ap.add_argument("--chunk", type=int, default=100, help="inputs per piece of work")
    ap.add_argument("--replay", nargs="*", help="run these saved inputs through the entry points, print tracebacks")
    ap.add_argument("--progress", action="store_true")
    args = ap.parse_args(argv)
    entries = tuple(e.strip() for e in args.entry.split(",") if e.strip())
    unknown = [e for e in entries if e not in ENTRIES]
    if unknown:
        ap.error(f"unknown entry point(s): {', '.join(unknown)}")
    if args.replay is not None:
        signal.signal(signal.SIGALRM, _on_alarm)
        signal.signal(signal.SIGPROF, _on_alarm)
        bad = 0
        for p in args.replay:
            for entry, kind, tb in run_one(0, p, Path(p).read_bytes(), entries, args.timeout, args.max_rss_mb,
                                            Path(tempfile.gettempdir())):
                bad += 1
                print(f"{p}: {kind} in {entry}\n{tb}")
        print(f"{len(args.replay)} input(s), {bad} failure(s)")
        return 1 if bad else 0
    wall, cpu0 = time.perf_counter(), time.process_time()
    t = fuzz(args.seed, args.inputs, entries, args.jobs, args.timeout, args.max_rss_mb, args.failures or None,
             args.chunk, args.start, quiet=not args.progress)
    wall = time.perf_counter() - wall
    cpu = t["cpu"] if args.jobs != 1 else time.process_time() - cpu0
    print(f"seed {args.seed}, inputs {args.start}..{args.start + args.inputs - 1}, entry points {','.join(entries)}")
    print(f"inputs {t['inputs']}, uncaught {t['uncaught']}, hangs {t['hang']}, over memory {t['memory']} "
          f"(bound {args.max_rss_mb:.0f} MiB, time limit {args.timeout:g} s CPU, {args.timeout * WALL_FACTOR:g} s wall)")
    print(f"CPU {cpu:.1f} s, wall {wall:.1f} s, {t['inputs'] / max(cpu, 1e-9):.1f} inputs/CPU s, "
          f"{t['inputs'] / max(wall, 1e-9):.1f} inputs/s")
    for k, v in sorted(t["by_entry"].items()):
        print(f"  {k}: {v}")
    if t["saved"]:
        print(f"failing inputs saved in {args.failures}/ ({len(t['saved'])}; replay with --replay)")
    return 1 if t["uncaught"] or t["hang"] or t["memory"] else 0


if __name__ == "__main__":
    sys.exit(main())
