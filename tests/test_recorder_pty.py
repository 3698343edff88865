"""`jojotte record` driven through a pseudo-terminal (pexpect): what a scorer at the table does."""

from __future__ import annotations

import sys

import pytest

pexpect = pytest.importorskip("pexpect")

from test_recorder import README_HAND, README_TEXT  # noqa: E402

from jojotte_records.notation.text import iter_records, read_sessions  # noqa: E402
from jojotte_records.replay.jojotte import validate_stream  # noqa: E402

PROMPT = "> "


def spawn(path, *args):
    child = pexpect.spawn(sys.executable, ["-m", "jojotte_records.cli.main", "record", str(path), *args],
                          encoding="utf-8", timeout=30, dimensions=(40, 200))
    return child


def say(child, answer: str, expect: str = PROMPT):
    child.sendline(answer)
    child.expect_exact(expect)


def hands_in(path):
    return read_sessions(path.read_text())[0].hands


def test_a_whole_hand_entered_at_the_terminal(tmp_path):
    path = tmp_path / "t1.jjt"
    child = spawn(path, "--players", "Alice,Bob", "--event", "Club night", "--round", "1", "--table", "2")
    child.expect_exact("hand 1: who deals?")
    child.expect_exact(PROMPT)
    for a in README_HAND[:-1]:
        say(child, a)
    child.sendline(README_HAND[-1])
    child.expect_exact("hand 1 saved: score A below 110 above 20, B above 40")
    child.expect_exact("Alice")
    child.expect_exact("hand 2: who deals? [A]")
    child.expect_exact(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    text = path.read_text()
    assert text.endswith("\n" + README_TEXT)
    assert '[Round "1"]' in text and '[Table "2"]' in text
    [(summary, _)] = list(validate_stream(iter_records(text, "t1.jjt")))
    assert summary.bad_hands == 0


def test_an_illegal_card_is_refused_with_its_rule(tmp_path):
    path = tmp_path / "t2.jjt"
    child = spawn(path, "--players", "Alice,Bob")
    child.expect_exact(PROMPT)
    for a in README_HAND[:14]:  # up to Bob's ace of clubs
        say(child, a)
    child.sendline("8S")  # Alice has trumps: she must trump
    child.expect_exact("refused: Alice played 8S with no clubs but holds the trump")
    child.expect_exact("(JJ-PLAY-5); legal: KH, KH jo, QH, JH, 9H")
    child.expect_exact("trick 1: A (Alice) plays")
    child.expect_exact(PROMPT)
    child.sendline("KH jo")
    child.expect_exact("trick 2: A (Alice) plays")
    child.expect_exact(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_tab_completes_card_names(tmp_path):
    path = tmp_path / "t5.jjt"
    child = spawn(path, "--players", "Alice,Bob")
    child.expect_exact(PROMPT)
    for a in README_HAND[:13]:
        say(child, a)
    child.send("K\t")  # Bob's only king is the king of clubs
    child.sendline("")
    child.expect_exact("trick 1: A (Alice) plays")
    child.expect_exact(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_ctrl_c_in_the_middle_of_a_hand_then_resume(tmp_path):
    path = tmp_path / "t3.jjt"
    child = spawn(path, "--players", "Alice,Bob")
    child.expect_exact(PROMPT)
    for a in README_HAND:
        say(child, a)
    for a in ["", "7S 8S 9S TS JS QS"]:  # hand 2 begins: A deals
        say(child, a)
    child.sendintr()
    child.expect_exact("interrupted: hand 2 was not finished and is not saved; 1 hand(s) are saved")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert len(hands_in(path)) == 1
    # the same command again resumes at hand 2
    child = spawn(path, "--players", "Alice,Bob")
    child.expect_exact("resuming: 1 hand(s) already recorded")
    child.expect_exact("hand 2: who deals? [A]")
    child.expect_exact(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert path.read_text().endswith(README_TEXT)


def test_undo_the_last_entry(tmp_path):
    path = tmp_path / "t4.jjt"
    child = spawn(path, "--players", "Alice,Bob")
    child.expect_exact(PROMPT)
    for a in README_HAND[:14]:
        say(child, a)
    child.sendline("undo")
    child.expect_exact("undone: B AC")
    child.expect_exact("trick 1: B (Bob) plays")
    child.expect_exact(PROMPT)
    for a in README_HAND[13:]:
        say(child, a)
    assert len(hands_in(path)) == 1
    child.sendline("undo")  # at hand 2's first question: hand 1 comes back, without its last card
    child.expect_exact("hand 1 reopened (the file keeps it as saved until it is complete again); undone: B 8D")
    child.expect_exact("trick 9: B (Bob) plays")
    child.expect_exact(PROMPT)
    assert len(hands_in(path)) == 1  # the file keeps hand 1 until it is saved again (issue 16)
    child.sendline("8D")
    child.expect_exact("hand 1 saved")
    child.expect_exact(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert path.read_text().endswith("\n" + README_TEXT)


def test_pitch_entered_at_the_terminal_with_a_refusal_then_ctrl_c_and_resume(tmp_path):
    from test_recorder_events import PITCH_HAND, PITCH_TEXT

    path = tmp_path / "pitch.jjt"
    child = spawn(path, "--game", "pitch", "--players", "Nell,Ed,Sue,Walt")
    child.expect_exact("hand 1: who deals?")
    child.expect_exact(PROMPT)
    for a in PITCH_HAND[:6]:  # the dealer, the deal, N bids 5
        say(child, a)
    child.sendline("4")  # Ed may not bid under Nell's 5
    child.expect_exact("refused: Ed bid 4, not higher than the standing bid 5 (PIT-BID-3); legal: pass, 6, 7, 8, 9, 10, moon")
    child.expect_exact("bids: E (Ed)")
    child.expect_exact(PROMPT)
    for a in PITCH_HAND[6:-1]:
        say(child, a)
    child.sendline(PITCH_HAND[-1])
    child.expect_exact("hand 1 saved: score NS 6, EW 1")
    child.expect_exact("│ Nell & Sue │     6 │")  # the sheet, a rich table (issue 16 item 12)
    child.expect_exact("hand 2: who deals? [N]")
    child.expect_exact(PROMPT)
    assert path.read_text().endswith("\n" + PITCH_TEXT)
    say(child, "")  # N deals hand 2
    child.sendline("QS")
    child.expect_exact("(PIT-DEAL-4)")
    child.expect_exact(PROMPT)
    child.sendintr()
    child.expect_exact("interrupted: hand 2 was not finished and is not saved; 1 hand(s) are saved")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    child = spawn(path)
    child.expect_exact("resuming: 1 hand(s) already recorded")
    child.expect_exact("│ Nell & Sue │     6 │")  # the sheet, a rich table (issue 16 item 12)
    child.expect_exact("hand 2: who deals? [N]")
    child.expect_exact(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert path.read_text().endswith("\n" + PITCH_TEXT)
