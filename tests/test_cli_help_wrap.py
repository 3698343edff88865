"""Help texts reflowed to the terminal's width (issue 16, item 11: text hard-wrapped at 80 columns).

The help texts are written in the source at about 110 columns. Rich wrapped each source line at 80 columns and kept
its line break, so a piped ``--help`` showed a short stray line after every source line
("... and the rule it breaks, and" / "every written" / "figure that disagrees ...").
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from jojotte_records.cli.common import reflowed

COMMANDS = ["validate", "convert", "simulate", "schema", "demo", "examples", "analyze", "report", "import",
            "stats", "sql", "export", "record", "event check", "event standings", "event report", "baloot score"]


def test_prose_paragraphs_become_one_line_and_examples_keep_theirs():
    text = "First line\nof the summary.\n\nA paragraph\nover two lines.\n\n- an item\n  continued\n- another\n\n  jojotte a\n  jojotte b"
    assert reflowed(text) == ("First line of the summary.\n\nA paragraph over two lines.\n\n"
                              "- an item continued\n- another\n\n  jojotte a\n  jojotte b")
    assert reflowed("\b\nkept\nas is") == "\b\nkept\nas is"
    assert reflowed(None) is None


@pytest.mark.parametrize("command", COMMANDS)
def test_help_piped_at_80_columns_has_no_stray_short_lines(command):
    env = dict(os.environ, COLUMNS="80", TERM="dumb")
    out = subprocess.run([sys.executable, "-m", "jojotte_records", *command.split(), "--help"],
                         capture_output=True, text=True, env=env, check=True).stdout
    prose = out.split("╭")[0].splitlines()  # the text above the boxes of arguments and options
    assert any(len(line) > 60 for line in prose), out
    # inside a paragraph, a line shorter than 50 columns can only be a paragraph's last line
    stray = [(a.strip(), b.strip()) for a, b in zip(prose, prose[1:])
             if a.strip() and b.strip() and len(a.rstrip()) < 50 and not a.strip().startswith("Usage")]
    assert stray == [], out
