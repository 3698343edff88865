"""`jojotte convert` reads its input exactly as `validate` does, and says what is wrong in plain words (issue 16 items 10, 11).

`convert -` with non-UTF-8 input raised a PydanticSerializationError traceback (--to json) or wrote the bad bytes
back (--to text), while validate said "the file is not UTF-8 text"; a JSON record off the schema printed pydantic's
raw error and its pydantic.dev link.
"""

from __future__ import annotations

import pytest
from jojotte_records.cli.main import app
from typer.testing import CliRunner

runner = CliRunner()

LATIN1 = b'[Event "caf\xe9"]\n[Game "jojotte"]\n\nhand 1 dealer B\n-\n'  # \xe9 is Latin-1 e-acute: not UTF-8
BAD_AT = LATIN1.index(b"\xe9")


@pytest.mark.parametrize("to", ["json", "text"])
def test_convert_stdin_not_utf8_says_what_validate_says(to):
    validated = runner.invoke(app, ["validate", "-"], input=LATIN1)
    assert validated.exit_code == 2
    message = f"<stdin>: the file is not UTF-8 text (byte {BAD_AT})"
    assert message in validated.output
    result = runner.invoke(app, ["convert", "-", "--to", to], input=LATIN1)
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert message in result.output
    assert "caf" not in result.output  # nothing of the record is written back


def test_convert_file_not_utf8_says_what_validate_says(tmp_path):
    path = tmp_path / "latin1.jjt"
    path.write_bytes(LATIN1)
    result = runner.invoke(app, ["convert", str(path), "--to", "text"])
    assert result.exit_code == 2
    assert f"{path}: the file is not UTF-8 text (byte {BAD_AT})" in result.output


def test_convert_json_off_the_schema_is_one_plain_sentence(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"format_version": 1, "sessions": [{"tags": 3}]}', encoding="utf-8")
    result = runner.invoke(app, ["convert", str(path), "--to", "text"])
    assert result.exit_code == 2
    assert "pydantic" not in result.output and "https://" not in result.output, result.output
    assert f"{path}: JSON record does not follow the schema at sessions.0.tags:" in result.output
