"""Shared fixtures: the rules, and helpers to validate a record given as text."""

from __future__ import annotations

from pathlib import Path

import pytest

from jojotte_records.notation.text import iter_records
from jojotte_records.replay.jojotte import validate_stream
from jojotte_records.rules.jojotte import JojotteOptions, JojotteRules

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


@pytest.fixture
def rules() -> JojotteRules:
    return JojotteRules()


def validate_text(text: str):
    """(summaries, verdicts) of every session in ``text``, all hands kept."""
    summaries, verdicts = [], []
    for summary, hands in validate_stream(iter_records(text, "test.jjt")):
        summaries.append(summary)
        verdicts.extend(hands)
    return summaries, verdicts


def session(hands: str, *, first_dealer: str = "B", variant: str = "") -> str:
    """A two-player session around the hand lines ``hands``."""
    tags = f'[Game "jojotte"]\n[Players "Alice; Bob"]\n[FirstDealer "{first_dealer}"]\n'
    if variant:
        tags += f'[Variant "{variant}"]\n'
    return tags + "\n" + hands


@pytest.fixture
def options_class():
    return JojotteOptions
