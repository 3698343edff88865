"""Running the CLI with standard error on a pseudo-terminal, as at a user's terminal (issue 16 item 1)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading


def run_with_tty_stderr(args, stdin=None, cwd=None, timeout=240, stdout_file=None):
    """Run ``jojotte ARGS`` with stderr on a pty and stdout on a pipe; return (code, stdout, screen).

    With ``stdout_file`` (an open binary file) stdout goes there, as with ``> file``, and "" is returned for it.
    The pty is drained by a thread so that the progress display can never block the command.
    """
    master, slave = os.openpty()
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="120", LINES="40")
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen([sys.executable, "-m", "jojotte_records.cli.main", *args],
                            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                            stdout=stdout_file if stdout_file is not None else subprocess.PIPE, stderr=slave, cwd=cwd, env=env)
    os.close(slave)
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
    out, _ = proc.communicate(input=stdin, timeout=timeout)
    reader.join(timeout=10)
    os.close(master)
    return proc.returncode, (out or b"").decode("utf-8"), screen.decode("utf-8", "replace")
