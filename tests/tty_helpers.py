"""Running the CLI with standard error on a pseudo-terminal, as at a user's terminal (issue 16 item 1)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading


def _drained(master: int) -> tuple[threading.Thread, bytearray]:
    """A thread reading the pty ``master`` into the returned buffer, so that the command can never block on it."""
    screen = bytearray()

    def drain():
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO once the child has closed its end
                return
            if not chunk:
                return
            screen.extend(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    return reader, screen


def run_with_tty_stderr(args, stdin=None, cwd=None, timeout=240, stdout_file=None):
    """Run ``jojotte ARGS`` with stderr on a pty and stdout on a pipe; return (code, stdout, screen).

    With ``stdout_file`` (an open binary file) stdout goes there, as with ``> file``, and "" is returned for it.
    """
    master, slave = os.openpty()
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="120", LINES="40")
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen([sys.executable, "-m", "jojotte_records.cli.main", *args],
                            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                            stdout=stdout_file if stdout_file is not None else subprocess.PIPE, stderr=slave, cwd=cwd, env=env)
    os.close(slave)
    reader, screen = _drained(master)
    out, _ = proc.communicate(input=stdin, timeout=timeout)
    reader.join(timeout=10)
    os.close(master)
    return proc.returncode, (out or b"").decode("utf-8"), screen.decode("utf-8", "replace")


def run_at_terminal(args, timeout=240):
    """Run ``jojotte ARGS`` with stdout and stderr on one pty, as at a user's prompt; return (code, screen)."""
    master, slave = os.openpty()
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="120", LINES="40")
    proc = subprocess.Popen([sys.executable, "-m", "jojotte_records.cli.main", *args],
                            stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, env=env)
    os.close(slave)
    reader, screen = _drained(master)
    proc.wait(timeout=timeout)
    reader.join(timeout=10)
    os.close(master)
    return proc.returncode, screen.decode("utf-8", "replace")
