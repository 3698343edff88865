"""Undo never takes a saved hand off the disk before its replacement is durable (issue 16 item 4).

`undo` at the first question of a new hand reopens the last saved hand in memory; the file keeps it, byte for
byte, until the hand is complete again and the file is rewritten at once (temporary file, fsync, os.replace).
A crash in between — the recorder object dropped, or the process killed — leaves the saved hand in the file.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys

from test_recorder import README_HAND, README_TEXT, enter, new
from test_recorder_events import PITCH_HAND, PITCH_TEXT, new_pitch

from jojotte_records.notation.text import read_sessions
from jojotte_records.table.recorder import Accepted, Recorder


def test_undo_at_the_first_prompt_of_hand_2_keeps_hand_1_on_disk(tmp_path):
    path = tmp_path / "s.jjt"
    rec = new(tmp_path)
    enter(rec, README_HAND)
    saved = path.read_bytes()
    assert saved.decode().endswith("\n" + README_TEXT)
    out = rec.answer("undo")  # nothing entered in hand 2: hand 1 is reopened without its last card
    assert isinstance(out, Accepted) and "hand 1 reopened" in out.text and "undone: B 8D" in out.text
    assert path.read_bytes() == saved
    del rec  # the recorder is gone (a crash) before hand 1 is complete again
    assert path.read_bytes() == saved
    again = Recorder(path)
    assert len(again.hands) == 1 and again.hand_number == 2 and again.torn is None


def test_undo_then_reentered_hand_replaces_it_in_the_file(tmp_path):
    path = tmp_path / "s.jjt"
    rec = new(tmp_path)
    enter(rec, README_HAND)
    saved = path.read_bytes()
    rec.answer("undo")  # B 8D
    rec.answer("undo")  # A QD: two cards of hand 1 are undone, the file still holds all of it
    assert path.read_bytes() == saved
    q = rec.question()
    assert (q.key, q.seat) == ("play", 0)
    out = enter(rec, ["QD", "8D"])
    assert out.verdict is not None and out.verdict.ok
    assert path.read_bytes() == saved  # the same hand, re-entered the same: the file is as it was
    assert len(read_sessions(path.read_text())[0].hands) == 1
    assert not list(tmp_path.glob("*.tmp"))  # the temporary file was renamed over the session file


def test_undo_of_hand_2s_dealer_then_into_hand_1(tmp_path):
    path = tmp_path / "s.jjt"
    rec = new(tmp_path)
    enter(rec, README_HAND)
    enter(rec, ["A"])  # hand 2 begun: its dealer
    assert rec.answer("undo").text == "undone: dealer A"
    out = rec.answer("undo")  # at hand 2's first question again: hand 1 reopened
    assert "hand 1 reopened" in out.text
    assert path.read_text().endswith("\n" + README_TEXT)  # still on disk while reopened
    out = enter(rec, ["8D"])
    assert out.verdict is not None
    assert path.read_text().endswith("\n" + README_TEXT) and path.read_text().count("hand 1 dealer") == 1
    assert rec.hand_number == 2


def test_a_killed_recorder_after_undo_leaves_the_saved_hand(tmp_path):
    path = tmp_path / "k.jjt"
    rec = new(tmp_path, name="k.jjt")
    enter(rec, README_HAND)
    del rec
    saved = path.read_bytes()
    # a real process: reopen the hand with undo, undo two more cards, then SIGKILL before it is saved again
    script = ("import sys, time\n"
              "from jojotte_records.table.recorder import Recorder\n"
              f"rec = Recorder({str(path)!r})\n"
              "for _ in range(3):\n"
              "    rec.answer('undo')\n"
              "print('undone', flush=True)\n"
              "time.sleep(60)\n")
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "undone"
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    assert path.read_bytes() == saved
    again = Recorder(path)
    assert len(again.hands) == 1 and again.torn is None


def test_pitch_undo_into_the_saved_hand_keeps_it_on_disk(tmp_path):
    path = tmp_path / "p.jjt"
    rec = new_pitch(tmp_path)
    enter(rec, PITCH_HAND)
    saved = path.read_bytes()
    out = rec.answer("undo")
    assert isinstance(out, Accepted) and "hand 1 reopened" in out.text and "undone: S 5H" in out.text
    assert path.read_bytes() == saved
    del rec
    assert path.read_bytes() == saved and len(Recorder(path).hands) == 1
    rec = Recorder(path)
    rec.answer("undo")
    out = enter(rec, ["5H"])
    assert out.verdict is not None and path.read_bytes() == saved and path.read_text().endswith("\n" + PITCH_TEXT)


def test_quit_after_undo_into_the_saved_hand_says_the_file_keeps_it(tmp_path):
    pexpect = __import__("pytest").importorskip("pexpect")
    from test_recorder_pty import PROMPT, spawn

    path = tmp_path / "q.jjt"
    rec = new(tmp_path, name="q.jjt")
    enter(rec, README_HAND)
    del rec
    saved = path.read_bytes()
    child = spawn(path)
    child.expect_exact("hand 2: who deals?")
    child.expect_exact(PROMPT)
    child.sendline("undo")
    child.expect_exact("hand 1 reopened (the file keeps it as saved until it is complete again); undone: B 8D")
    child.expect_exact(PROMPT)
    child.sendline("quit")
    child.expect_exact("stopped: the corrections to hand 1 are not saved; the file keeps it as it was.")
    child.expect_exact(f"1 hand(s) saved in {path}.")
    child.expect(pexpect.EOF)
    assert path.read_bytes() == saved
