"""``jojotte report --jobs N`` (issue 14): files validated and rendered in worker processes (`replay.pool`), the
same site byte for byte as one process, page for page."""

from __future__ import annotations

import shutil
from pathlib import Path

from jojotte_records.cli.main import app
from typer.testing import CliRunner

from conftest import EXAMPLES
from jojotte_records.report.site import build_site

runner = CliRunner()


def _files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def test_two_processes_write_the_same_site_as_one(tmp_path):
    # the examples, plus two files of one name in two folders (the second session's folder is "doubles-2", which a
    # worker on its own cannot know) and an unreadable file (listed on the index)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    shutil.copy(EXAMPLES / "doubles.jjt", tmp_path / "a" / "doubles.jjt")
    shutil.copy(EXAMPLES / "spec-rubber.jjt", tmp_path / "b" / "doubles.jjt")
    (tmp_path / "bad.jjt").write_bytes(b"\xff\xfe not text")
    inputs = [str(EXAMPLES), str(tmp_path / "a" / "doubles.jjt"), str(tmp_path / "b" / "doubles.jjt"), str(tmp_path / "bad.jjt")]
    one = build_site(inputs, tmp_path / "one", jobs=1)
    two = build_site(inputs, tmp_path / "two", jobs=2)
    assert one.sessions == two.sessions > 120 and one.hands == two.hands and one.bad_hands == two.bad_hands
    assert [p.source for p in one.problems] == [p.source for p in two.problems] == [str(tmp_path / "bad.jjt")]
    a, b = _files(tmp_path / "one"), _files(tmp_path / "two")
    assert sorted(a) == sorted(b)
    assert "sessions/doubles-2/index.html" in a and "sessions/doubles-3/index.html" in a
    assert [rel for rel in a if a[rel] != b[rel]] == []


def test_report_jobs_on_the_command_line(tmp_path):
    src = [str(EXAMPLES / "doubles.jjt"), str(EXAMPLES / "pitch-game.jjt"), str(EXAMPLES / "baloot-match.jjt")]
    r1 = runner.invoke(app, ["report", *src, "--out", str(tmp_path / "one"), "-q"])
    r2 = runner.invoke(app, ["report", *src, "--out", str(tmp_path / "two"), "-q", "--jobs", "2"])
    assert r1.exit_code == r2.exit_code == 0, (r1.output, r2.output)
    assert _files(tmp_path / "one") == _files(tmp_path / "two")
