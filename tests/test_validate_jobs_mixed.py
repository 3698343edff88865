"""``validate --jobs 2`` on a folder of mixed files (issue 14): a long Jo-Jotte session cut into chunks, a Pitch file
of many short sessions (the parent's scan by blocks of plain lines, `files._Lines`), a file with illegal hands and a
file that is not UTF-8: the same output, byte for byte, as one process; and the scan's blocks stop where the rule of
`files._Lines.plain` says.

The expected output is the one process's (``--jobs 1``, which never cuts a file), an independent computation.
"""

from __future__ import annotations

import io
import itertools

import pytest
from test_validate_jobs_chunks import mutated, run, simulated

from jojotte_records.replay import files


@pytest.fixture(params=["a piece per session", "default pieces"])
def chunked(request, monkeypatch):
    """Sessions cut past 3,000 characters into chunks of about 1,500, each replaying the 8 hands before it; pieces of
    whole sessions one a session, or of the default size."""
    if request.param == "a piece per session":
        monkeypatch.setattr(files, "PIECE_CHARS", 1)
    monkeypatch.setattr(files, "SPLIT_CHARS", 3000)
    monkeypatch.setattr(files, "CHUNK_CHARS", 1500)
    monkeypatch.setattr(files, "WARM_HANDS", 8)
    files.SPLIT_COUNTS.update(chunks=0, again=0)


def test_a_mixed_folder_the_same_with_two_jobs(tmp_path, chunked):
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "a-long.jjt").write_text(mutated(simulated(tmp_path, "jojotte", 60, 2)), encoding="utf-8")
    pitch = simulated(tmp_path, "pitch", 150, 3).split("\n")
    tags = [k for k, line in enumerate(pitch) if line.startswith("[") and k and not pitch[k - 1].startswith("[")]
    assert len(tags) >= 10  # many short sessions
    for k in tags[::3]:
        pitch[k] = "  \t" + pitch[k]  # a tag line after blanks still begins a session (the reader strips them)
    (folder / "b-pitch.jjt").write_text("\n".join(pitch), encoding="utf-8")
    (folder / "c-illegal.jjt").write_text(mutated(simulated(tmp_path, "jojotte", 12, 4), every=3), encoding="utf-8")
    (folder / "d-not-utf8.jjt").write_bytes(simulated(tmp_path, "jojotte", 3, 5).encode() + b"\xff\xfe\n")
    for flags in ([], ["-v"], ["--json"]):
        one = run("validate", str(folder), *flags, "--jobs", "1")
        two = run("validate", str(folder), *flags, "--jobs", "2")
        assert two == one
        assert one[0] == 2  # the file that is not UTF-8 cannot be read
    assert "d-not-utf8.jjt" in one[1] and "FILE" in one[1]
    assert files.SPLIT_COUNTS["chunks"] > 0  # the long session was cut


def _plain(line: str) -> bool:
    """A line the scan takes in a block: no comment brace, and not a tag line (``[`` first but for blanks)."""
    return "{" not in line and "}" not in line and not line.lstrip().startswith("[")


@pytest.mark.parametrize("n", [1, 3, 4096])
def test_the_scan_by_blocks_stops_at_each_line_that_is_not_plain(n):
    lines = ["hand 1 dealer A\n", "bid A 2 [x] then\n", "  [Event \"b\"]\n", "trick 1: A 2S\n", "{ note }\n",
             "trick 2 } stray\n", "\t[Game \"pitch\"]\n", "\n", "hand 2 dealer B\n", "x [y\n", "[Tag \"z\"]\n",
             "last line without a newline"]
    reader = files._Lines(io.StringIO("".join(lines[1:])), lines[0])
    got: list[str] = []
    while True:
        block = reader.plain(n)
        if block:
            assert len(block) <= n and all(map(_plain, block))  # (it may stop early: at the end of what was read)
            got.extend(block)
            continue
        line = next(reader, None)  # [] only where the next line is not plain, or at the end
        if line is None:
            break
        assert not _plain(line)
        got.append(line)
    assert got == lines


def test_the_scan_reads_the_same_lines_one_by_one_after_a_block():
    text = "".join(f"hand {k} dealer A\n" if k % 5 else f"[Event \"{k}\"]\n" for k in range(1, 40))
    reader = files._Lines(io.StringIO(text), "")
    got = list(itertools.chain(reader.plain(7), itertools.islice(reader, 2), reader.plain(), reader))
    assert "".join(got) == text
