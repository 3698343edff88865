"""A long tag value is read in memory linear in its length and bounded; messages never quote more than a few words.

Issue 16 item 6: the tag regex kept ~170 bytes per character of a tag value (a 5 MB [Event] took 975 MB),
and a 50 MB line was printed back whole in its message.
"""

from __future__ import annotations

import tracemalloc

from jojotte_records.errors import MAX_QUOTE, MAX_TAG_VALUE, shown
from jojotte_records.notation.text import read_sessions

BIG = 5_000_000


def _peak_of(fn) -> int:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_five_megabyte_tag_reads_in_bounded_memory_with_a_located_error():
    text = '[Event "' + "x" * BIG + '"]\n[Game "jojotte"]\n\nhand 1 dealer B\n-\n'
    result = {}
    peak = _peak_of(lambda: result.setdefault("s", read_sessions(text, "big.jjt")))
    # The input itself is 5 MB (one byte per ASCII character); a linear reader copies the line a few times at most.
    # 50 MB is ten copies: the regex took ~850 MB here.
    assert peak < 50_000_000, peak
    (session,) = result["s"]
    issues = session.header.issues
    assert len(issues) == 1, issues
    issue = issues[0]
    assert (issue.loc.line, issue.loc.column) == (1, 1)
    assert issue.kind == "syntax"
    assert f"{BIG:,}" in issue.message and f"{MAX_TAG_VALUE:,}" in issue.message
    assert len(str(issue)) < 200
    assert session.header.get("Event") is None  # not kept
    assert session.header.get("Game") == "jojotte"


def test_a_tag_at_the_bound_is_kept_and_escapes_still_read():
    # the bound counts the characters written between the quotes: \" and \\ are two each
    value = "a" * (MAX_TAG_VALUE - 5) + '\\"b\\\\'
    assert len(value) == MAX_TAG_VALUE
    (session,) = read_sessions(f'[Event "{value}"]\n[Game "jojotte"]\n\nhand 1 dealer B\n-\n', "t.jjt")
    assert session.header.issues == ()
    assert session.header.get("Event") == "a" * (MAX_TAG_VALUE - 5) + '"b\\'
    (session,) = read_sessions(f'[Event "a{value}"]\n[Game "jojotte"]\n\nhand 1 dealer B\n-\n', "t.jjt")
    assert [i.loc.line for i in session.header.issues] == [1]


def test_a_tag_with_an_unclosed_quote_is_a_located_error():
    (session,) = read_sessions('[Event "Club]\n[Game "jojotte"]\n\nhand 1 dealer B\n-\n', "t.jjt")
    assert [(i.loc.line, i.kind) for i in session.header.issues] == [(1, "syntax")]


def test_shown_cuts_a_long_token():
    assert shown("KS") == "KS"
    assert shown("x" * MAX_QUOTE) == "x" * MAX_QUOTE
    cut = shown("x" * (MAX_QUOTE + 1))
    assert cut == "x" * (MAX_QUOTE - 1) + "…" and len(cut) == MAX_QUOTE


def test_messages_quote_at_most_a_few_words_of_a_huge_token_in_both_readers():
    huge = "Z" * 1_000_000
    jj = f'[Game "jojotte"]\n[Players "Alice; Bob"]\n\nhand 1 dealer B\ntrick 1: {huge} KS\nfoo{huge}\n'
    pitch = (f'[Game "pitch"]\n[Players "Ann; Ben; Cy; Di"]\n\nhand 1 dealer N\nbids N 5, E pass, S pass, W pass\n'
             f'score {huge} 4, EW 0\nscore NS {huge}\n')
    for text in (jj, pitch):
        (session,) = read_sessions(text, "t.jjt")
        issues = [i for h in session.hands for i in h.issues]
        assert issues, text[:80]
        for issue in issues:
            # the file position, the hand, the message's own words and at most MAX_QUOTE characters of input
            assert len(str(issue)) < 250, str(issue)[:300]


def test_a_superscript_digit_as_an_event_logs_number_is_a_finding_not_a_crash():
    # '²'.isdigit() is True but int('²') raises: a trick's or a hand's number written so is not a number (both readers:
    # the canonical lines' and the tokenizer's, with a comment on the line)
    from jojotte_records.replay.jojotte import validate_stream

    for line in ("trick ²: N KD", "trick ²: N KD {x}", "trick 1²: N KD"):
        text = f'[Game "baloot"]\n\nhand 1 dealer N\n{line}\n'
        issues = [i for _, hands in validate_stream(read_sessions_items(text)) for h in hands for i in h.issues]
        assert issues and issues[0].rule == "NOTATION" and "²" in issues[0].message, (line, issues)
    for head in ("hand ² dealer N", "hand ² dealer N {x}"):
        text = f'[Game "pitch"]\n\n{head}\n'
        issues = [i for _, hands in validate_stream(read_sessions_items(text)) for h in hands for i in h.issues]
        assert issues[0].message == "a hand line is 'hand N dealer X'", (head, issues)


def read_sessions_items(text: str):
    from jojotte_records.notation.text import iter_records

    return iter_records(text, "t.jjt")


# A hand of examples/nullo-slam-void.jjt (Example 6 of the rules spec), whose lines the tests below spoil one at a time.
_TWO_PLAYER_HAND = """[Game "jojotte"]
[Players "Claire; Daniel"]

hand 1 dealer A
deal A: TS KS QS JS 7C 8C 7D 8D AH; B: 7S 8S 9S AC AD 7H 8H 9H KH
turned QC
info 9C
auction B pass, A pass, B pass, A name S, B pass
after B nullo, A pass, A melds KS-TS
trick 1: A 7C, B AC
"""


def _two_player_issues(text: str) -> list:
    from jojotte_records.replay.jojotte import validate_stream

    return [i for _, hands in validate_stream(read_sessions_items(text)) for h in hands for i in h.issues]


def test_a_superscript_digit_as_a_two_player_number_is_a_plain_finding_not_a_crash():
    # the two-player reader: a hand number (it raised ValueError out of the reader), a trick number (it said
    # "invalid literal for int()"), a score figure (the compact reading of a score line raised)
    hand = _two_player_issues(_TWO_PLAYER_HAND.replace("hand 1 dealer A", "hand ² dealer A"))
    assert hand[0].rule == "NOTATION" and hand[0].message == "a hand line is 'hand N dealer X'", hand
    assert (hand[0].loc.line, hand[0].loc.column) == (4, 6), hand  # '²' is the second word of line 4
    trick = _two_player_issues(_TWO_PLAYER_HAND.replace("trick 1:", "trick ²:"))
    assert trick and trick[0].rule == "NOTATION" and "int()" not in trick[0].message, trick
    score = _two_player_issues(_TWO_PLAYER_HAND + "score A above ², aside 55\n")
    assert score and score[0].rule == "NOTATION" and "²" in score[0].message, score


def test_a_superscript_digit_in_a_pitch_bid_or_in_rubbers_is_a_finding_not_a_crash(tmp_path):
    from jojotte_records.archive.store import import_paths
    from jojotte_records.replay.jojotte import validate_stream

    text = '[Game "pitch"]\n\nhand 1 dealer N\nbids E ², S pass\n'
    issues = [i for _, hands in validate_stream(read_sessions_items(text)) for h in hands for i in h.issues]
    assert issues and issues[0].rule == "NOTATION" and "'²'" in issues[0].message, issues
    # [Rubbers "²"]: validate says the tag is not a number; import keeps the session with no agreed length
    record = tmp_path / "r.jjt"
    record.write_text(_TWO_PLAYER_HAND.replace('[Game "jojotte"]', '[Game "jojotte"]\n[Rubbers "²"]'), "utf-8")
    sessions = list(validate_stream(read_sessions_items(record.read_text("utf-8"))))
    assert any("Rubbers" in i.message for i in sessions[0][0].issues), sessions[0][0].issues
    [done] = list(import_paths(tmp_path / "a.duckdb", [str(record)]))
    assert done.error is None and done.sessions_new == 1 and done.hands == 1, done
