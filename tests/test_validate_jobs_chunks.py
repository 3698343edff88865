"""``validate --jobs N`` on one long session (issue 14, item 4): its hands cut into chunks validated in worker
processes give the same output, byte for byte, as one process: text, ``-v``, ``--json``, the exit code.

The expected output is the one process's (``--jobs 1``, the command as it always ran, which never cuts a session),
an independent computation of the same verdicts. The chunks are made a few hands long (`files.CHUNK_CHARS`), so
that rubbers end inside chunks and across their edges, and the sessions carry illegal cards, wrong written scores
and wrong dealers, so that the sheet a chunk starts from is not the empty one.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from jojotte_records.cli.main import app
from typer.testing import CliRunner

from jojotte_records.games import rules_for
from jojotte_records.notation.model import SessionHeader
from jojotte_records.notation.text import iter_records
from jojotte_records.replay import files
from jojotte_records.replay.jojotte import validate_stream

runner = CliRunner()
JOJOTTE = ["jojotte", "jojotte-3", "jojotte-4p"]


def run(*args: str, stdin: bytes | None = None):
    r = runner.invoke(app, list(args), input=stdin, catch_exceptions=False)
    return r.exit_code, r.stdout


def simulated(tmp_path: Path, game: str, hands: int, seed: int = 1) -> str:
    out = tmp_path / f"{game}-{seed}.jjt"
    code, _ = run("simulate", "--game", game, "--hands", str(hands), "--seed", str(seed), "--out", str(out))
    assert code == 0
    return out.read_text(encoding="utf-8")


def one_session(text: str) -> str:
    """Pitch and Baloot are simulated one session per game: every tag line after the first hand dropped, their
    games become one long session (whose hands after the first game's end are found, PIT-GAME-2, BAL-MATCH-2)."""
    head, body = text.split("\nhand ", 1)
    return head + "\nhand " + re.sub(r"^\[.*\n", "", body, flags=re.M)


def mutated(text: str, every: int = 7) -> str:
    """Every ``every``-th hand: its trick 2's first two cards swapped (each player plays a card the other holds:
    illegal); every ``every - 2``-th written score line: its first figure 10 more (a wrong written score); every
    ``3 * every``-th hand line: the dealer of the hand before (a wrong deal)."""
    n = {"trick": 0, "score": 0, "hand": 0}

    def swap(m):
        n["trick"] += 1
        if n["trick"] % every:
            return m.group(0)
        return f"trick 2: {m.group(1)} {m.group(4)}, {m.group(3)} {m.group(2)}"

    def bump(m):
        n["score"] += 1
        return f"{m.group(1)}{int(m.group(2)) + 10}" if n["score"] % (every - 2) == 0 else m.group(0)

    def deal(m):
        n["hand"] += 1
        before, n["dealer"] = n.get("dealer"), m.group(2)
        if n["hand"] % (3 * every):
            return m.group(0)
        return m.group(1) + before  # the dealer of the hand before deals again

    text = re.sub(r"^trick 2: (\w+) (\w\w), (\w+) (\w\w)\b(?=,|$)", swap, text, flags=re.M)
    text = re.sub(r"^(score \w+ (?:below |above )?)(\d+)", bump, text, flags=re.M)
    return re.sub(r"^(hand \d+ dealer )(\w+)$", deal, text, flags=re.M)


@pytest.fixture
def small_chunks(monkeypatch):
    """Sessions are cut past 3,000 characters, into chunks of about 1,500 (three to five hands), each replaying the
    8 hands before it first."""
    monkeypatch.setattr(files, "PIECE_CHARS", 1)
    monkeypatch.setattr(files, "SPLIT_CHARS", 3000)
    monkeypatch.setattr(files, "CHUNK_CHARS", 1500)
    monkeypatch.setattr(files, "WARM_HANDS", 8)
    files.SPLIT_COUNTS.update(chunks=0, again=0)


def same_with_jobs(*args: str, stdin: bytes | None = None) -> tuple[int, str]:
    one = run(*args, "--jobs", "1", stdin=stdin)
    two = run(*args, "--jobs", "2", stdin=stdin)
    assert two == one
    return one


def chunk_lines(path: Path) -> list[int]:
    """The first line of each chunk after a session's first that the parent sends (the cheap scan alone)."""
    return [p.chunk_line for p in files._file_pieces(0, str(path), False, None)
            if isinstance(p, files._Chunk) and not p.session_start]


def reaching_back(path: Path, cuts: list[int]) -> int:
    """How many of the chunks starting at ``cuts`` have a warm-up that reaches back to the session's first hand (they
    start from the true sheet, whatever the game)."""
    lines = path.read_text(encoding="utf-8").split("\n")
    hands = [k for k, line in enumerate(lines, 1) if line.startswith("hand ")]
    return sum(1 for c in cuts if sum(1 for h in hands if h < c) <= files.WARM_HANDS)


def one_process(path: Path):
    return list(validate_stream(iter_records(path.read_text(encoding="utf-8").splitlines(keepends=True), str(path))))


@pytest.mark.parametrize("game", JOJOTTE)
def test_a_long_jojotte_session_the_same_with_two_jobs(tmp_path, small_chunks, game):
    path = tmp_path / "long.jjt"
    path.write_text(mutated(simulated(tmp_path, game, 90)), encoding="utf-8")
    [(summary, verdicts)] = one_process(path)
    assert summary.hands == 90 and summary.bad_hands >= 12  # the illegal cards, wrong scores and deals
    kinds = {i.kind for v in verdicts for i in v.issues}
    assert {"illegal", "score"} <= kinds
    assert any("DEAL" in i.rule for v in verdicts for i in v.issues)
    # rubbers end inside chunks, not only at their edges (a chunk's warm-up must find the games of a rubber begun)
    cuts = chunk_lines(path)
    assert len(cuts) >= 15
    ends = [v.record.line for v in verdicts if v.entry is not None and v.entry.rubber_won_by >= 0]
    assert sum(1 for line in ends if line not in cuts and line > cuts[0]) >= 5
    for flags in ([], ["-v"], ["--json"]):
        code, out = same_with_jobs("validate", str(path), *flags)
        assert code == 1
    assert files.SPLIT_COUNTS["chunks"] >= 3 * len(cuts)  # the workers' chunks were taken, three times


@pytest.mark.parametrize("game", ["pitch", "baloot"])
@pytest.mark.parametrize("cut", [False, True], ids=["whole", "cut"])
def test_a_long_pitch_or_baloot_session_the_same_with_two_jobs(tmp_path, small_chunks, monkeypatch, game, cut):
    """A game to 52 or 152 has no running totals apart from what decides the next hand (its `Rules.sheet_carry` is
    None): a long session of it goes whole to one worker; cut anyway (``cut``), every chunk's worker starts from a
    sheet the parent finds wrong, and the parent validates the chunk again itself, with the same output."""
    if cut:
        monkeypatch.setattr(files._Chunker, "splittable", lambda self: True)
    path = tmp_path / "long.jjt"
    path.write_text(mutated(one_session(simulated(tmp_path, game, 60))), encoding="utf-8")
    [(summary, verdicts)] = one_process(path)
    assert summary.hands == 60 and summary.bad_hands >= 20  # the hands after the game's end, and the mutations
    assert summary.rules.sheet_carry(summary.sheet, None) is None
    for flags in ([], ["-v"], ["--json"]):
        code, out = same_with_jobs("validate", str(path), *flags)
        assert code == 1
    cuts = chunk_lines(path) if cut else []
    whole = reaching_back(path, cuts)
    assert files.SPLIT_COUNTS == {"chunks": 3 * len(cuts), "again": 3 * (len(cuts) - whole)}
    assert len(cuts) - whole >= 10 if cut else not cuts


@pytest.mark.parametrize("cut", [False, True], ids=["whole", "cut"])
def test_a_long_session_agreed_at_some_rubbers_the_same_with_two_jobs(tmp_path, small_chunks, monkeypatch, cut):
    """``[Rubbers "8"]``: the hands after the eighth rubber are found (JJ-SESSION-1), so a hand depends on the rubbers
    played before it; the session goes whole to one worker, or, cut anyway, each chunk is validated again here."""
    if cut:
        monkeypatch.setattr(files._Chunker, "splittable", lambda self: True)
    path = tmp_path / "agreed.jjt"
    path.write_text(mutated(simulated(tmp_path, "jojotte", 90)).replace("[FirstDealer", '[Rubbers "8"]\n[FirstDealer'),
                    encoding="utf-8")
    [(summary, verdicts)] = one_process(path)
    assert sum(1 for v in verdicts for i in v.issues if i.rule == "JJ-SESSION-1") >= 20
    for flags in ([], ["--json"]):
        code, out = same_with_jobs("validate", str(path), *flags)
        assert code == 1
    cuts = chunk_lines(path) if cut else []
    assert files.SPLIT_COUNTS == {"chunks": 2 * len(cuts), "again": 2 * (len(cuts) - reaching_back(path, cuts))}
    assert len(cuts) >= 15 if cut else not cuts


def test_the_warm_up_finds_the_true_state_of_a_legal_session(tmp_path, small_chunks, monkeypatch):
    """On a legal session, each chunk's worker reaches the true state (but for running totals) after its warm-up of
    64 hands (the default): no chunk is validated again here. The warm-up starts in a rubber whose games won it does
    not know; its count of games meets the true one at a rubber's end that both see. Measured on the 50,000 hands of
    ``simulate --seed 1`` in 932 chunks: 141 missed it after 16 hands, 33 after 32, 3 after 64. Without a warm-up,
    many chunks start from the wrong game or rubber and are validated again in the parent, with the same output."""
    path = tmp_path / "legal.jjt"
    path.write_text(simulated(tmp_path, "jojotte", 120), encoding="utf-8")
    monkeypatch.setattr(files, "WARM_HANDS", 64)
    code, out = same_with_jobs("validate", str(path), "--json")
    assert code == 0
    assert files.SPLIT_COUNTS["chunks"] >= 20 and files.SPLIT_COUNTS["again"] == 0
    files.SPLIT_COUNTS.update(chunks=0, again=0)
    monkeypatch.setattr(files, "WARM_HANDS", 0)
    assert same_with_jobs("validate", str(path), "--json") == (code, out)
    assert files.SPLIT_COUNTS["again"] >= files.SPLIT_COUNTS["chunks"] // 3 > 0


def test_a_long_session_among_others_with_comments_the_same_with_two_jobs(tmp_path, small_chunks):
    """Comments (on their own line, across lines, holding a tag line) inside a long session end the scan by blocks
    of plain lines there; a session before it and after it; standard input."""
    long = mutated(simulated(tmp_path, "jojotte", 60, 2)).split("\n")
    for at in (200, 420, 600):
        long.insert(at, "{ a note,\n[Event \"not a tag\"] still the note }")
    long.insert(300, "{ a note on its own line }")
    text = "\n".join([simulated(tmp_path, "jojotte", 3, 1), "\n".join(long), simulated(tmp_path, "jojotte", 30, 3),
                      simulated(tmp_path, "pitch", 20, 4)])
    path = tmp_path / "mixed.jjt"
    path.write_text(text, encoding="utf-8")
    code, out = same_with_jobs("validate", str(path), "-v")
    assert code == 1 and "4 session(s)" not in out  # the Pitch games make more sessions
    code, doc = same_with_jobs("validate", str(path), "--json")
    assert code == 1
    code, out = same_with_jobs("validate", "-", "-v", stdin=text.encode())
    assert code == 1 and "<stdin>:" in out
    assert len(chunk_lines(path)) >= 20


@pytest.mark.parametrize("where", [0.5, 0.99])
def test_a_long_session_that_stops_being_utf8_the_same_with_two_jobs(tmp_path, small_chunks, where):
    """A byte that is not UTF-8 inside a long session: the one reader never closes the session, so the file
    reports the sessions before it and the read error (FILE); the chunks already sent are dropped."""
    text = simulated(tmp_path, "jojotte", 5, 1) + "\n" + simulated(tmp_path, "jojotte", 80, 2)
    at = text.index("\ntrick", int(len(text) * where))
    path = tmp_path / "bad.jjt"
    path.write_bytes(text[:at].encode() + b"\xff" + text[at:].encode())
    code, out = same_with_jobs("validate", str(path))
    assert code == 2 and "is not UTF-8" in out and "1 session(s)" in out
    code, doc = same_with_jobs("validate", str(path), "--json")
    assert '"read_error": {' in doc


def test_the_progress_counts_every_hand_of_a_long_session_across_the_workers(tmp_path, small_chunks):
    path = tmp_path / "long.jjt"
    path.write_text(mutated(simulated(tmp_path, "jojotte", 90)), encoding="utf-8")
    counted = []
    results = list(files.check_paths([str(path)], keep_hands=False, jobs=2, on_hands=counted.append))
    assert sum(counted) == results[0].hands == 90
    assert len(counted) >= 15  # chunk by chunk, as the results come in


def test_a_sheet_moved_onto_another_with_the_same_carry_is_the_one_its_hands_reach_from_there(tmp_path):
    """`Rules.sheet_rebase` (JJ-GAME, JJ-RUBBER, JJ-PRIS-3): the hands of a session written from the empty sheet and
    from one with the same carry but other running totals (a rubber won, points, games and hands) reach sheets that
    differ by those totals only, and what each hand writes (`add_score`'s entry) is the same from both."""
    path = tmp_path / "s.jjt"
    path.write_text(simulated(tmp_path, "jojotte", 40), encoding="utf-8")
    header = next(x for x in iter_records(path.read_text(encoding="utf-8"), "s") if isinstance(x, SessionHeader))
    rules, _ = rules_for(header)
    [(_, verdicts)] = one_process(path)
    empty = rules.new_sheet()
    other = empty._replace(below=(500, 120), above=(900, 40), games_total=(4, 3), rubbers=(2, 1), hands=17,
                           rubber_results=((0, (700, 100)), (1, (90, 400)), (0, (610, 60))))
    assert rules.sheet_carry(other, None) == rules.sheet_carry(empty, None)
    assert rules.sheet_carry(empty, 3) is None  # a session agreed at 3 rubbers: JJ-SESSION-1 counts those played
    a, b = empty, other
    for v in verdicts:
        a, entry_a = rules.add_score(a, v.score)
        b, entry_b = rules.add_score(b, v.score)
        assert entry_a == entry_b
        assert rules.sheet_rebase(a, empty, other) == b
    assert sum(b.rubbers) - sum(a.rubbers) == 3 and b.hands - a.hands == 17 and len(a.rubber_results) >= 3


def test_a_plain_line_with_a_bracket_inside_a_long_session_the_same_with_two_jobs(tmp_path, small_chunks):
    """A line of a hand with a ``[`` that does not begin it (not a tag line: the one reader reads it in the hand)
    is a plain line for the scan by blocks (it stopped the scan with an error)."""
    long = simulated(tmp_path, "jojotte", 60, 2).split("\n")
    for at in (150, 400, 650):
        long.insert(at, "note [not a tag]")
    long.insert(500, "\ufeff[Event \"not a tag either: a BOM first\"]")
    path = tmp_path / "brackets.jjt"
    path.write_text("\n".join(long), encoding="utf-8")
    code, out = same_with_jobs("validate", str(path), "-v")
    assert code == 2 and "1 session(s)" in out
    assert len(chunk_lines(path)) >= 10


def test_short_sessions_read_by_blocks_are_cut_at_each_first_tag_line(tmp_path, monkeypatch):
    """Sessions too short to be cut in chunks are read by blocks of plain lines too: the scan must still find each
    session's first tag line (a tag line after a line of a hand), where a piece may begin."""
    monkeypatch.setattr(files, "PIECE_CHARS", 1)  # a piece at every session
    texts = [simulated(tmp_path, "jojotte", 4, 1), simulated(tmp_path, "pitch", 3, 2), simulated(tmp_path, "jojotte", 5, 3)]
    path = tmp_path / "short.jjt"
    path.write_text("\n".join(texts), encoding="utf-8")
    lines = path.read_text(encoding="utf-8").split("\n")
    firsts, before = [], ""  # the tag lines whose last line before that is not blank is not a tag line
    for k, line in enumerate(lines, 1):
        if line.startswith("[") and not before.startswith("["):
            firsts.append(k)
        before = line if line.strip() else before
    pieces = list(files._file_pieces(0, str(path), False, None))
    assert all(isinstance(p, files._Piece) for p in pieces)
    assert [p.first_line for p in pieces] == firsts and len(firsts) >= 3
    assert same_with_jobs("validate", str(path), "-v")[0] == 0


@pytest.mark.parametrize("keep_hands", [False, True])
def test_a_worker_reads_plain_two_player_hands_compactly_unless_hands_are_kept(keep_hands):
    """A worker of `validate --jobs` reads a piece's or a chunk's plain two-player hands as one process does
    (`check_file`): compactly (`replay.jojotte.COMPACT`) when no hand is kept but for its issues, in full when the
    hands are kept; either way with the verdicts of the full reading."""
    from jojotte_records.notation.text import write_stream
    from jojotte_records.play.simulate import simulate_items
    from jojotte_records.replay.jojotte import COMPACT

    out = io.StringIO()
    write_stream(list(simulate_items("jojotte", 40, 9)), out)
    text = out.getvalue()
    lines = text.splitlines(keepends=True)
    chunk_line = next(i for i, ln in enumerate(lines, 1) if ln.startswith("hand 20 "))
    works = [files._Piece(0, "s.jjt", "s.jjt", False, 1, text, keep_hands, True),
             files._Chunk(0, "s.jjt", "s.jjt", text, 1, chunk_line, keep_hands, False, True, True)]
    for work in works:
        before = COMPACT["read"]
        files._check_work(work)
        read = COMPACT["read"] - before
        assert (read == 0) if keep_hands else (read >= 15), (type(work).__name__, read)


@pytest.mark.parametrize("warm", [2, 8])
@pytest.mark.parametrize("comments", [False, True])
def test_each_chunk_is_the_session_tags_then_the_warm_up_hands_then_its_own_lines(tmp_path, small_chunks, monkeypatch,
                                                                                 comments, warm):
    """What the parent sends, derived from the file's lines alone: a chunk after the session's first is the lines
    before the first hand (the tags), then the `WARM_HANDS` whole hands before the chunk's first line (from the
    session's first hand when fewer), then its own lines up to the next chunk's. With comments, some lines are read
    one by one (`_Chunker.add`) and others by blocks (`add_plain`). A chunk holds three to five hands: a warm-up of 2
    is taken from the chunk before alone, one of 8 from the chunks before it too."""
    monkeypatch.setattr(files, "WARM_HANDS", warm)
    text = mutated(simulated(tmp_path, "jojotte", 60))
    if comments:  # a comment after every fifth trick 3 line, alone on its line
        n = iter(range(10**6))
        text = re.sub(r"^(trick 3: .*)$", lambda m: m.group(1) + ("\n{ a note }" if next(n) % 5 == 0 else ""),
                      text, flags=re.M)
    path = tmp_path / "s.jjt"
    path.write_text(text, encoding="utf-8")
    lines = text.splitlines(keepends=True)
    hands = [k for k, line in enumerate(lines, 1) if line.startswith("hand ")]
    tags = "".join(lines[:hands[0] - 1])
    chunks = [p for p in files._file_pieces(0, str(path), False, None) if isinstance(p, files._Chunk)]
    later = [c for c in chunks if not c.session_start]
    assert len(later) >= 10 and chunks[0].session_start
    ends = [c.chunk_line for c in later[1:]] + [len(lines) + 1]
    for c, end in zip(later, ends):
        before = [h for h in hands if h < c.chunk_line]
        warm_from = before[-files.WARM_HANDS] if len(before) >= files.WARM_HANDS else hands[0]
        assert c.chunk_line in hands
        assert c.text == tags + "".join(lines[warm_from - 1:c.chunk_line - 1]) + "".join(lines[c.chunk_line - 1:end - 1])
        assert c.first_line == warm_from - tags.count("\n")
