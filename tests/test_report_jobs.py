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


def test_workers_write_their_sessions_and_a_rerun_rewrites_nothing(tmp_path):
    # a file of two sessions ("multi": folders multi and multi-2), then files whose own folder names are those the
    # first one's sessions take or extend (multi-2, multi-2-2), and one of another name: the workers write each
    # session's files themselves, and the folders are the ones a single process gives
    text = (EXAMPLES / "doubles.jjt").read_text(encoding="utf-8")
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "multi.jjt").write_text(text + "\n" + text, encoding="utf-8")
    for name in ("multi-2", "multi-2-2", "other"):
        shutil.copy(EXAMPLES / "doubles.jjt", tmp_path / "in" / f"{name}.jjt")
    inputs = [str(tmp_path / "in")]
    one = build_site(inputs, tmp_path / "one", jobs=1)
    two = build_site(inputs, tmp_path / "two", jobs=2)
    a, b = _files(tmp_path / "one"), _files(tmp_path / "two")
    assert sorted(a) == sorted(b) and [rel for rel in a if a[rel] != b[rel]] == []
    # one process names them in the folder's order (multi-2-2.jjt, multi-2.jjt, multi.jjt, other.jjt: "-" sorts
    # before "."): multi-2-2, multi-2, then multi and its second session, whose "multi-2" and "multi-2-2" are taken
    # by then: multi-2-3; other
    assert sorted({rel.split("/")[1] for rel in a if rel.startswith("sessions/")}) == [
        "multi", "multi-2", "multi-2-2", "multi-2-3", "other"]
    assert (one.written, one.unchanged) == (two.written, two.unchanged)
    again = build_site(inputs, tmp_path / "two", jobs=2)  # nothing changed: no page is written again
    assert (again.written, again.unchanged, again.removed) == (0, one.written, 0)
    assert _files(tmp_path / "two") == b


def test_with_jobs_the_workers_write_the_session_pages(tmp_path, monkeypatch):
    # the main process writes only the site's own pages (index, statistics, assets) when no two inputs can take one
    # folder name: each session's pages are written by the worker that replayed and rendered it
    from jojotte_records.report import site

    src = [str(EXAMPLES / name) for name in ("doubles.jjt", "spec-rubber.jjt", "pitch-game.jjt")]
    one = build_site(src, tmp_path / "one", jobs=1)
    written = []
    original = site._Writer.write
    monkeypatch.setattr(site._Writer, "write", lambda self, rel, text: (written.append(rel), original(self, rel, text))[1])
    two = build_site(src, tmp_path / "two", jobs=2)
    assert two.sessions == one.sessions == 3 and two.written == one.written == 3 * 2 + 4  # a hands file and a session page each; index, stats, 2 assets
    assert sorted(written) == ["assets/report.css", "assets/report.js", "index.html", "stats.html"]
    assert _files(tmp_path / "two") == _files(tmp_path / "one")
