"""Every program-checkable rule ID of §1–17 of the rules spec is cited by at least one test.

The IDs are read from the spec itself (``ROOT.parent / "shared" / "rules" / "jojotte.md"``): every
``**JJ-…-n**`` defined between the heading of section 1 and the heading of section 18. A rule counts
as cited when its exact ID (``JJ-PLAY-1`` is not ``JJ-PLAY-10``) appears in some file under tests/
other than this one (in a comment, a docstring or an expected value), or in the form a test name
spells it, ``test_jj_play_1_…`` (read as JJ-PLAY-1).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT.parent / "shared" / "rules" / "jojotte.md"
TESTS = Path(__file__).resolve().parent

FAMILIES = ("DECK", "PTS", "DEAL", "BID", "DBL", "DRAW", "POST", "MELD", "DIX", "PLAY", "JOJOTTE", "SCORE", "PRIS",
            "NULLO", "SLAM", "GAME", "RUBBER", "SESSION", "INV")

# Rule IDs of §1–17 that no program can check from a record. Keep this list as short as honest.
# It is empty: every rule has a checkable part. In particular JJ-DEAL-1 (the physical cut) is not
# listed because its checkable part, "a validator that does not receive the cut accepts the recorded
# first dealer", is tested (hand 1 must be dealt by [FirstDealer]); the cut itself is never recorded.
NOT_CHECKABLE: dict[str, str] = {}

_ID = re.compile(r"JJ-[A-Z]+-\d+(?!\d)")
_TEST_NAME_ID = re.compile(r"(?<![a-z0-9])jj_([a-z]+)_(\d+)(?!\d)")


def _spec_ids(first: int, after: int, pattern: str) -> list[str]:
    """The rule IDs (``pattern``) defined in the spec's sections ``first`` up to ``after`` (excluded), in order."""
    if not SPEC.is_file():
        pytest.skip(f"the rules spec is not at {SPEC} (shared/ beside the repository); cannot list its rule IDs")
    text = SPEC.read_text(encoding="utf-8")
    start = re.search(rf"^## {first}\. ", text, re.M)
    end = re.search(rf"^## {after}\. ", text, re.M)
    assert start and end, f"the spec's section headings for §{first} and §{after} were not found"
    ids = re.findall(rf"\*\*({pattern})\*\*", text[start.start():end.start()])
    assert ids, f"no rule IDs found in §{first}–{after - 1}"
    return list(dict.fromkeys(ids))


def _test_texts():
    """The text of every file of the tests but this one."""
    for path in TESTS.rglob("*"):
        if not path.is_file() or path.resolve() == Path(__file__).resolve() or "__pycache__" in path.parts:
            continue
        try:
            yield path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):  # binary data, or a file removed while scanning
            continue


def spec_rule_ids() -> list[str]:
    return _spec_ids(1, 18, r"JJ-[A-Z]+-\d+")


def cited_ids() -> set[str]:
    found: set[str] = set()
    for text in _test_texts():
        found.update(_ID.findall(text))
        found.update(f"JJ-{fam.upper()}-{n}" for fam, n in _TEST_NAME_ID.findall(text))
    return found


def test_spec_defines_every_rule_family():
    ids = spec_rule_ids()
    families = {i.split("-")[1] for i in ids}
    assert families == set(FAMILIES)
    assert len(ids) == len(set(ids))


def test_every_rule_id_of_sections_1_to_17_is_cited_by_a_test():
    ids = spec_rule_ids()
    cited = cited_ids()
    missing = [i for i in ids if i not in cited and i not in NOT_CHECKABLE]
    assert not missing, f"rule IDs of §1–17 cited by no test: {', '.join(missing)}"


def test_not_checkable_list_is_honest():
    ids = set(spec_rule_ids())
    assert set(NOT_CHECKABLE) <= ids, "NOT_CHECKABLE names IDs the spec does not define"
    cited = cited_ids()
    stale = sorted(set(NOT_CHECKABLE) & cited)
    assert not stale, f"these IDs are tested, so remove them from NOT_CHECKABLE: {stale}"


# --- §18–20: three players, four in partnerships, four without partners --------------------------------

_ID_18_20 = re.compile(r"JJ(?:3|4P|4S)-(?:[A-Z]+-)?\d+(?!\d)")
# test_jj3_act_1_… is JJ3-ACT-1, test_jj4s_2_… is JJ4S-2
_TEST_NAME_ID_18_20 = re.compile(r"(?<![a-z0-9])jj(3|4p|4s)_(?:([a-z]+)_)?(\d+)(?!\d)")


def spec_rule_ids_18_to_20() -> list[str]:
    return _spec_ids(18, 21, r"JJ(?:3|4P|4S)-(?:[A-Z]+-)?\d+")


def cited_ids_18_to_20() -> set[str]:
    found: set[str] = set()
    for text in _test_texts():
        found.update(_ID_18_20.findall(text))
        for form, family, n in _TEST_NAME_ID_18_20.findall(text):
            found.add(f"JJ{form.upper()}-{family.upper()}-{n}" if family else f"JJ{form.upper()}-{n}")
    return found


def test_spec_defines_the_rules_of_the_larger_tables():
    ids = spec_rule_ids_18_to_20()
    assert {i.split("-")[0] for i in ids} == {"JJ3", "JJ4P", "JJ4S"}
    assert len(ids) == len(set(ids))


def test_every_rule_id_of_sections_18_to_20_is_cited_by_a_test():
    cited = cited_ids_18_to_20()
    missing = [i for i in spec_rule_ids_18_to_20() if i not in cited]
    assert not missing, f"rule IDs of §18–20 cited by no test: {', '.join(missing)}"
