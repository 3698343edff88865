"""The usage lines and help of every command read naturally (issue 16, item 11: usage showed ``{paths}...`` and
``<bool>``): arguments in capitals as click writes them (``PATHS...``; ``[PATHS]...`` when optional), and a flag
shows no type (it takes no value)."""

from __future__ import annotations

import re

import pytest
from jojotte_records.cli.main import app
from typer.testing import CliRunner

runner = CliRunner()

COMMANDS = [["validate"], ["convert"], ["simulate"], ["schema"], ["demo"], ["examples"], ["analyze"], ["report"],
            ["import"], ["stats"], ["sql"], ["export"], ["record"], ["event", "check"], ["event", "standings"],
            ["event", "report"], ["baloot", "score"]]


def help_of(*words: str) -> str:
    r = runner.invoke(app, [*words, "--help"], terminal_width=200)
    assert r.exit_code == 0, r.output
    return r.output


@pytest.mark.parametrize("words", COMMANDS, ids=" ".join)
def test_no_braces_and_no_bool_in_any_help(words):
    out = help_of(*words)
    usage = next(line for line in out.splitlines() if "Usage:" in line)
    assert not re.search(r"[{}]", usage), usage
    assert "<bool>" not in out
    assert "<list[" not in out


def test_the_top_level_help_shows_no_bool():
    """Issue 16 item 11 (audit): ``jojotte --help`` showed ``--install-completion <bool>`` and ``--show-completion
    <bool>``: typer adds the two flags to the group after it is made, so they missed the natural names."""
    r = runner.invoke(app, ["--help"], terminal_width=200)
    assert r.exit_code == 0, r.output
    assert "<bool>" not in r.output
    assert re.search(r"--install-completion\s+Install completion", r.output)
    assert re.search(r"--show-completion\s+Show completion", r.output)


def test_validate_usage_names_its_paths_in_capitals():
    out = help_of("validate")
    assert re.search(r"Usage: jojotte validate \[OPTIONS\] PATHS\.\.\.\s*$", out, flags=re.M)
    assert re.search(r"--json\s+Print one JSON document", out)  # a flag: no type between its name and its help
    assert re.search(r"--jobs\s+-j\s+N", out)  # an option with a value keeps its metavar


def test_an_optional_argument_is_in_brackets_and_an_option_keeps_its_type():
    out = help_of("report")
    assert re.search(r"Usage: jojotte report \[OPTIONS\] \[PATHS\]\.\.\.\s*$", out, flags=re.M)
    assert re.search(r"--hands-per-file\s+<int range>", out)
    assert re.search(r"Usage: jojotte baloot score \[OPTIONS\] CONTRACT\s*$", help_of("baloot", "score"), flags=re.M)


def test_a_missing_argument_is_named_as_in_the_usage():
    r = runner.invoke(app, ["validate"], terminal_width=200)
    assert r.exit_code == 2
    assert "Usage: jojotte validate [OPTIONS] PATHS..." in r.output and "Missing argument 'PATHS...'" in r.output
