"""What the tests that drive a command in a pseudo-terminal share."""

from __future__ import annotations

import fcntl
import os
import signal
import termios


def controlling_terminal() -> None:
    """In the child: a session of its own with the pseudo-terminal (its stdin) as its controlling terminal, and
    Ctrl-C's SIGINT handled as at a shell (pytest-xdist's workers ignore SIGINT, an ignored signal stays ignored
    across exec, and Python then installs no KeyboardInterrupt handler)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
