"""What an installed user has without a git checkout (issue 16 item 12): the bundled examples, --version,
``python -m jojotte_records`` and shell completion."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version

from jojotte_records.cli.main import app
from typer.testing import CliRunner

from conftest import EXAMPLES

runner = CliRunner()


def test_examples_copies_every_bundled_record_and_the_tour_runs_on_them(tmp_path):
    out = tmp_path / "examples"
    result = runner.invoke(app, ["examples", str(out)])
    assert result.exit_code == 0, result.output
    expected = sorted(str(p.relative_to(EXAMPLES)) for pattern in ("*.jjt", "*.json", "*.toml") for p in EXAMPLES.rglob(pattern))
    copied = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    assert copied == expected and f"{len(expected)} file(s) copied" in result.output
    assert (out / "spec-rubber.jjt").read_bytes() == (EXAMPLES / "spec-rubber.jjt").read_bytes()
    # the README's tour, on the copies: spec-rubber is Example 9 of the spec (Alice 1420, Bob 295)
    tour = runner.invoke(app, ["validate", str(out / "spec-rubber.jjt")])
    assert tour.exit_code == 0 and "Alice 1420" in tour.output
    # a folder that holds something is not written into
    again = runner.invoke(app, ["examples", str(out)])
    assert again.exit_code == 2 and "nothing copied" in again.output


def test_version():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"jojotte {version('jojotte-records')}"


def test_python_dash_m_runs_the_command():
    out = subprocess.run([sys.executable, "-m", "jojotte_records", "validate", str(EXAMPLES / "spec-rubber.jjt")],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "4 hand(s), ok" in out.stdout


def test_shell_completion_is_offered_and_prints_a_bash_script(monkeypatch):
    import typer.completion

    # the shell is found from the process's parents, which a run in the background has not got: say it is bash
    monkeypatch.setattr(typer.completion, "_get_shell_name", lambda: "bash")
    help_text = runner.invoke(app, ["--help"]).output
    assert "--install-completion" in help_text and "--show-completion" in help_text
    result = runner.invoke(app, ["--show-completion", "bash"], prog_name="jojotte")
    assert result.exit_code == 0, result.output
    assert "complete" in result.output and "_JOJOTTE_COMPLETE" in result.output.upper()


def test_the_readme_imports_before_it_asks_for_statistics():
    # issue 16 item 12: `jojotte stats` reads the archive, which only `jojotte import` makes; in the README's
    # commands the first `jojotte stats` comes after (or on the line of) a `jojotte import`
    readme = (EXAMPLES.parent / "README.md").read_text(encoding="utf-8")
    blocks = readme.split("```")[1::2]  # the fenced blocks: the commands a reader types
    commands = "\n".join(blocks)
    first_stats = commands.find("jojotte stats")
    assert first_stats >= 0
    first_import = commands.find("jojotte import")
    assert 0 <= first_import < first_stats, commands[max(0, first_stats - 200):first_stats + 40]
