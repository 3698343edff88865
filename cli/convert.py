"""``jojotte convert``: text notation to JSON and back, and canonical rewriting."""

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from .common import echo, fail

HELP = """Convert records between the text notation and JSON, without loss.

--to text also rewrites a hand-typed file in canonical form. The notation has no escape for a control character: a
record that holds one (ESC in an [Event] tag) is written as it is to a file or a pipe, and shown escaped (\\x1b) at a
terminal, where it would act instead of being shown.

Examples:

  jojotte convert session.jjt --to json > session.json

  jojotte convert session.json --to text

  jojotte convert sloppy.jjt --to text --out clean.jjt
"""


class Target(str, Enum):
    json = "json"
    text = "text"


def register(app: typer.Typer) -> None:
    app.command("convert", help=HELP)(convert)


def convert(
    path: Annotated[str, typer.Argument(help="A record file (text or JSON); - for standard input.")],
    to: Annotated[Target, typer.Option("--to", help="Output form.")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write here instead of standard output.")] = None,
) -> None:
    from jojotte_records.errors import printable, printable_json
    from jojotte_records.games import rules_for
    from jojotte_records.notation.text import read_sessions, write_sessions
    from jojotte_records.replay.files import looks_like_json, read_error, read_record_text

    try:
        text = read_record_text(path)
    except (OSError, UnicodeDecodeError) as e:
        echo(str(read_error(path, e)), err=True)  # the message validate gives
        fail(f"{'<stdin>' if path == '-' else path}: cannot be read; nothing written")
    name = "<stdin>" if path == "-" else path
    if looks_like_json(path, text.split("\n", 1)[0]):
        from jojotte_records.notation.json_form import RecordFile, to_session

        try:
            sessions = [to_session(s, name) for s in RecordFile.model_validate_json(text).sessions]
        except ValueError as e:  # pydantic's ValidationError: one plain, located sentence, as validate gives it
            echo(str(read_error(path, e)), err=True)
            fail(f"{name}: not a valid JSON record; nothing written")
    else:
        sessions = read_sessions(text, name)
        problems = [i for s in sessions for i in (*s.header.issues, *rules_for(s.header)[1], *(x for h in s.hands for x in h.issues))]
        if problems:
            for p in problems:
                echo(str(p), err=True)
            fail(f"{name}: {len(problems)} part(s) could not be read; nothing written")
    if not sessions:
        fail(f"{name}: no session found (a session starts with [Tag \"value\"] lines or a 'hand' line); nothing written")
    if to is Target.json:
        from jojotte_records.notation.json_form import to_record_file

        result = printable_json(to_record_file(sessions).model_dump_json(indent=2, exclude_defaults=False)) + "\n"
    else:
        result = write_sessions(sessions)
    if out is None:
        # a terminal would act on a control character from the record (issue 16 item 7); a file or a pipe gets the record
        sys.stdout.write(printable(result) if sys.stdout.isatty() else result)
    else:
        tmp = out.with_name(out.name + ".tmp")
        tmp.write_text(result, encoding="utf-8")
        tmp.replace(out)
