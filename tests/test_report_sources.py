"""The report names record files by where they are in what the user gave, not by where they live on disk
(issue 16 item 11: from a wheel the index showed ``…/site-packages/jojotte_records/examples/…``), and says
which sessions of an earlier report it removes."""

from __future__ import annotations

import re
import shutil

from jojotte_records.cli.main import app
from typer.testing import CliRunner

from conftest import EXAMPLES
from jojotte_records.report.site import build_site

runner = CliRunner()


def _sources(index: str) -> list[str]:
    return re.findall(r'<small class="source">([^<]*)</small>', index)


def test_index_rows_show_paths_inside_the_folder_given(tmp_path):
    installed = tmp_path / "venv" / "lib" / "site-packages" / "jojotte_records" / "examples"
    shutil.copytree(EXAMPLES / "disputes", installed / "disputes")
    shutil.copy(EXAMPLES / "doubles.jjt", installed / "doubles.jjt")
    out = tmp_path / "site"
    result = build_site([str(installed)], out)
    assert result.sessions > 2
    index = (out / "index.html").read_text(encoding="utf-8")
    shown = _sources(index)
    assert len(shown) == result.sessions
    assert "examples/doubles.jjt" in shown
    assert "examples/disputes/01-revoke-follow-suit.jjt" in shown
    assert all(s.startswith("examples/") for s in shown), shown
    assert "site-packages" not in index and str(tmp_path) not in index
    session = (out / "sessions" / "doubles" / "index.html").read_text(encoding="utf-8")
    assert "<code>examples/doubles.jjt</code>" in session and str(tmp_path) not in session


def test_a_file_given_by_its_absolute_path_is_shown_by_its_name(tmp_path):
    out = tmp_path / "site"
    build_site([str((EXAMPLES / "doubles.jjt").resolve())], out)
    assert _sources((out / "index.html").read_text(encoding="utf-8")) == ["doubles.jjt"]


def test_report_names_the_sessions_of_an_earlier_report_it_removes(tmp_path):
    out = tmp_path / "report"
    full = runner.invoke(app, ["report", str(EXAMPLES / "doubles.jjt"), str(EXAMPLES / "spec-rubber.jjt"), "--out", str(out)])
    assert full.exit_code == 0, full.output
    one = runner.invoke(app, ["report", str(EXAMPLES / "doubles.jjt"), "--out", str(out)])
    assert one.exit_code == 0, one.output
    assert "the pages of 1 session(s) that are not in this run's input: spec-rubber" in one.output, one.output
    assert not (out / "sessions" / "spec-rubber").exists() and (out / "sessions" / "doubles" / "index.html").is_file()
