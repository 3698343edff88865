"""One reader of the text notation with a hand codec per game (issue 13): `iter_records` does not branch on
the shape of a game's hands; the codec is chosen once per session from its header (`notation.text.codec_for`)
and every game's hand builder implements `notation.codec.HandBuilder`."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from jojotte_records.notation import codec, text
from jojotte_records.notation.event_text import EventHandBuilder
from jojotte_records.notation.model import EventHand, HandRecord, SessionHeader

TEXT = Path(text.__file__)


def _functions(path: Path):
    for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield n.name, n.end_lineno - n.lineno + 1


def test_no_function_of_the_reader_is_over_80_lines():
    long = [(name, n) for name, n in _functions(TEXT) if n > 80]
    assert not long, f"functions over 80 lines in notation/text.py: {long}"


def test_iter_records_does_not_branch_on_the_shape_of_a_hand():
    body = inspect.getsource(text.iter_records) + inspect.getsource(text._Stream)
    for name in ("EventHandBuilder", "_HandBuilder", "EventRules", "is_event_game", "_event_rules", "SessionReader"):
        assert name not in body, f"the reader loop names {name}"


@pytest.mark.parametrize("game, codec_type", [("jojotte", text.JojotteHands), ("jojotte-4p", text.JojotteHands),
                                              ("pitch", text.EventHands), ("baloot", text.EventHands)])
def test_the_codec_is_chosen_from_the_header(game, codec_type):
    assert type(text.codec_for(SessionHeader((("Game", game),)))) is codec_type


@pytest.mark.parametrize("builder", [text._HandBuilder, EventHandBuilder])
def test_every_hand_builder_has_the_interface(builder):
    for name in ("fast_line", "add_line", "add_comments", "build"):
        want = list(inspect.signature(getattr(codec.HandBuilder, name)).parameters)
        got = list(inspect.signature(getattr(builder, name)).parameters)
        assert got == want, f"{builder.__name__}.{name}{got} is not {want}"


@pytest.mark.parametrize("game, record", [("jojotte", HandRecord), ("pitch", EventHand)])
def test_a_line_before_any_hand_line_is_an_error_of_the_game_s_hand(game, record):
    # the same session reader for both games: the orphan line starts a hand of the game, with its error
    items = list(text.iter_records(f'[Game "{game}"]\n\nscore none\n'))
    assert isinstance(items[0], SessionHeader) and isinstance(items[1], record)
    assert [i.kind for i in items[1].issues][:1] == ["syntax"] and items[1].issues[0].loc.line == 3
