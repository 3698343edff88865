"""``validate --jobs N`` (issue 14, item 4): sessions validated in worker processes give the same output, byte for
byte, as one process: text, ``--json``, ``-v``, ``--restore``, the exit code, and every location.

The expected output is the one process's (``--jobs 1``, the command as it always ran), an independent
computation of the same verdicts; the pieces are made small (`files.PIECE_CHARS`) so that a file is cut at
every session boundary the cheap scan finds, and the cuts, the read errors and the long sessions all happen.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from jojotte_records.cli.main import app
from typer.testing import CliRunner

from jojotte_records.notation.text import iter_records, mark_session_starts
from jojotte_records.replay import files

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
runner = CliRunner()


def run(*args: str, stdin: bytes | None = None):
    r = runner.invoke(app, list(args), input=stdin, catch_exceptions=False)
    return r.exit_code, r.stdout


def simulated(tmp_path: Path, game: str, hands: int, seed: int) -> str:
    out = tmp_path / f"{game}-{seed}.jjt"
    code, _ = run("simulate", "--game", game, "--hands", str(hands), "--seed", str(seed), "--out", str(out))
    assert code == 0
    return out.read_text(encoding="utf-8")


def wrong_scores(text: str, every: int = 5) -> str:
    """Every ``every``-th written Jo-Jotte score off by 10 below the line: a finding (JJ-SCORE-…) at that line."""
    n = 0

    def bump(m):
        nonlocal n
        n += 1
        return f"below {int(m.group(1)) + 10}" if n % every == 0 else m.group(0)
    return re.sub(r"(?<=^score A )below (\d+)", bump, text, flags=re.M)


@pytest.fixture
def small_pieces(monkeypatch):
    monkeypatch.setattr(files, "PIECE_CHARS", 1)  # a piece per session: every boundary is a cut


@pytest.fixture
def multi_session(tmp_path) -> Path:
    """Three two-player sessions (with wrong written scores), a Pitch file of many games and a comment between."""
    parts = [wrong_scores(simulated(tmp_path, "jojotte", 40, seed)) for seed in (1, 2, 3)]
    parts.insert(2, "{ a note between the sessions,\n[Event \"not a tag\"] still the comment }\n")
    path = tmp_path / "multi.jjt"
    path.write_text("\n".join(parts) + simulated(tmp_path, "pitch", 120, 4), encoding="utf-8")
    return path


def same_with_jobs(*args: str, stdin: bytes | None = None) -> tuple[int, str]:
    one = run(*args, "--jobs", "1", stdin=stdin)
    two = run(*args, "--jobs", "2", stdin=stdin)
    assert two == one
    return one


@pytest.mark.parametrize("flags", [[], ["-v"], ["--json"], ["--quiet"]], ids=["text", "verbose", "json", "quiet"])
def test_examples_the_same_with_two_jobs(flags, small_pieces):
    code, out = same_with_jobs("validate", str(EXAMPLES), *flags)
    assert code == 1  # the disputes' findings
    n = sum(1 for _ in EXAMPLES.rglob("*.jjt"))  # every example was read, not only some pieces
    assert f"{n} file(s)" in out or f'"files": {n}' in out


def test_restore_the_same_with_two_jobs():
    disputes = sorted(str(p) for p in (EXAMPLES / "disputes").glob("0[1-4]-*.jjt"))
    code, out = same_with_jobs("validate", *disputes, "--restore")
    assert code == 1 and ": restore: " in out


def test_a_multi_session_file_the_same_with_two_jobs(multi_session, small_pieces):
    code, out = same_with_jobs("validate", str(multi_session), "-v")
    assert code == 1
    # the findings are located by line in the whole file: each one's line is a score line of the file
    lines = multi_session.read_text(encoding="utf-8").split("\n")
    found = re.findall(rf"^{re.escape(str(multi_session))}:(\d+):\d+: hand \d+, score: ", out, flags=re.M)
    assert len(found) >= 8
    assert all(lines[int(n) - 1].startswith("score A below") for n in found)
    code, doc = same_with_jobs("validate", str(multi_session), "--json")
    assert '"sessions": ' in doc


def test_standard_input_the_same_with_two_jobs(multi_session, small_pieces):
    data = multi_session.read_bytes()
    code, out = same_with_jobs("validate", "-", stdin=data)
    assert code == 1 and "<stdin>:" in out


def test_the_session_index_of_each_location_is_the_files(multi_session, small_pieces):
    def issues(jobs):
        return [(i, si) for r in files.check_paths([str(multi_session)], keep_hands=False, jobs=jobs)
                for si, (s, hs) in enumerate(r.sessions, 1) for v in hs for i in v.issues]
    one, two = issues(1), issues(2)
    assert two == one  # Issue and Location compared whole: the session index included
    assert {i.loc.session for i, _ in one} == {1, 2, 3}  # the wrong scores are in the three Jo-Jotte sessions
    assert all(i.loc.session == si for i, si in one)


@pytest.mark.parametrize("where", ["tags", "hand", "first-line"])
def test_a_file_that_stops_being_utf8_the_same_with_two_jobs(tmp_path, small_pieces, where):
    """A byte that is not UTF-8: the sessions the reader closed before it, then the file's read error (FILE)."""
    text = "\n".join(simulated(tmp_path, "jojotte", 30, seed) for seed in (1, 2, 3, 4))
    starts = [m.start() for m in re.finditer(r"^\[Event ", text, flags=re.M)]
    at = {"tags": starts[2] + 3, "hand": text.index("trick 4:", starts[2]), "first-line": 2}[where]
    data = text[:at].encode() + b"\xff" + text[at:].encode()
    path = tmp_path / "bad.jjt"
    path.write_bytes(data)
    code, out = same_with_jobs("validate", str(path))
    assert code == 2 and "is not UTF-8" in out
    code, doc = same_with_jobs("validate", str(path), "--json")
    assert '"read_error": {' in doc


def test_a_session_too_long_to_send_is_validated_here_the_same(multi_session, small_pieces, monkeypatch):
    monkeypatch.setattr(files, "LONG_SESSION_CHARS", 3000)
    code, out = same_with_jobs("validate", str(multi_session), "-v")
    assert code == 1


def test_unreadable_and_empty_inputs_the_same_with_two_jobs(tmp_path, small_pieces):
    (tmp_path / "empty.jjt").write_text("", encoding="utf-8")
    (tmp_path / "tags-only.jjt").write_text('[Event "x"]\n', encoding="utf-8")
    code, out = same_with_jobs("validate", str(tmp_path / "empty.jjt"), str(tmp_path / "missing.jjt"),
                               str(tmp_path / "tags-only.jjt"), str(EXAMPLES / "spec-rubber.jjt"))
    assert code == 2 and "no session found" in out and "cannot read the file" in out


def test_the_pieces_read_as_the_whole_file(multi_session):
    """The cheap scan's cuts: reading each piece from its first line gives the items of the whole file."""
    text = multi_session.read_text(encoding="utf-8")
    pieces, current, first = [], [], 1
    for no, group, cut in mark_session_starts(text.splitlines(keepends=True)):
        if cut:
            pieces.append((first, current))
            current, first = [], no
        current.extend(group)
    pieces.append((first, current))
    assert len(pieces) >= 10  # the three Jo-Jotte sessions and the Pitch games (the comment is no cut)
    whole = list(iter_records(text.splitlines(keepends=True), "f"))
    cut = [item for first, lines in pieces for item in iter_records(lines, "f", first_line=first)]
    assert cut == whole


def test_jobs_zero_is_every_core_and_a_negative_number_is_a_usage_error():
    code, out = run("validate", str(EXAMPLES / "spec-rubber.jjt"), "--jobs", "0")
    assert code == 0 and "4 hand(s)" in out
    assert run("validate", str(EXAMPLES / "spec-rubber.jjt"), "--jobs", "-1")[0] == 2


def test_an_error_in_the_tags_of_a_session_leaves_the_one_before_unclosed_with_two_jobs(tmp_path, small_pieces):
    """Python decodes a file in blocks of 8,192 bytes: a bad byte just after that edge stops the reading at the
    last line of the block before, here in the tags of the second session. The one reader has not closed the
    first session then (a session is closed by the first hand line of the next), so it reports none; the
    workers, given the first session whole, must report none as well."""
    s1, s2 = simulated(tmp_path, "jojotte", 5, 1), simulated(tmp_path, "jojotte", 5, 2)
    pad = 8192 - 60 - len(s1.encode()) - 3  # the second session's tags span the edge
    data = (s1 + "{" + "x" * pad + "}\n" + s2).encode()
    assert data.index(b"[Event", len(s1.encode()) + 10) < 8192 < data.index(b"hand 1", len(s1.encode()) + 10)
    path = tmp_path / "edge.jjt"
    path.write_bytes(data[:8192 + 30] + b"\xff" + data[8192 + 30:])
    code, out = same_with_jobs("validate", str(path))
    assert code == 2 and "1 file(s), 0 session(s)" in out


def test_the_progress_counts_every_hand_across_the_workers(multi_session, small_pieces):
    counted = []
    results = list(files.check_paths([str(multi_session), str(EXAMPLES / "baloot-match.jjt")], keep_hands=False,
                                     jobs=2, on_hands=counted.append))
    assert sum(counted) == sum(r.hands for r in results) == 3 * 40 + 120 + results[1].hands
    assert len(counted) > 3  # counted piece by piece, as the results come in
