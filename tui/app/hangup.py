"""A clean end when the terminal goes away: SIGHUP, SIGTERM, or a terminal hung up.

Textual handles neither SIGHUP nor SIGTERM (its driver only takes SIGTSTP, SIGCONT and
SIGWINCH), so by default either one kills the reader at once: the note being typed is
lost, and a `kill -TERM` from another shell leaves that terminal in the reader's modes.
A terminal that hangs up while SIGHUP is ignored is worse: the driver's input thread
reads end-of-file in a loop, spinning, and its writes fail.

`HangupGuard` turns each of these into the same end:

1. the app keeps what it must (the open note's draft, the reading state);
2. with the terminal still there (a `kill` from another shell), the app exits the
   normal way, which restores the terminal; with the terminal gone, drawing would
   fail or block on a writer thread that died, so the process leaves at once;
3. either way it leaves without waiting for an index build running in a worker
   (`asyncio.run` joins worker threads at its end): the build writes into a temporary
   folder that is only renamed into place when complete, so a cut-off build is
   never used, and the next start builds again. Its worker processes are killed.
"""

from __future__ import annotations

import asyncio
import os
import select
import signal
import sys
from collections.abc import Callable
from contextlib import suppress
from types import FrameType
from typing import Any

HANDLED = (signal.SIGHUP, signal.SIGTERM)
"""The signals that end the reader cleanly."""
GRACE_S = 10
"""After a signal, the reader is killed (SIGALRM) if it has not left by then: a stuck
event loop must not keep a process alive with nobody at its terminal."""
WATCH_S = 1.0
"""How often the reader checks that its terminal is still there."""


def terminal_gone(fd: int) -> bool:
    """Whether `fd` is a terminal that has hung up (its other end closed).

    A hung-up terminal polls as HUP (or ERR) even for writing; a terminal in use, a
    file or a pipe with a reader never does.
    """
    try:
        poller = select.poll()
        poller.register(fd, select.POLLOUT)
        events = poller.poll(0)
    except (OSError, ValueError):
        return True  # the descriptor itself is gone
    return any(mask & (select.POLLHUP | select.POLLERR | select.POLLNVAL)
               for _, mask in events)


class HangupGuard:
    """Ends the reader cleanly on SIGHUP, SIGTERM and a lost terminal (see the module)."""

    def __init__(self, keep: Callable[[], None], exit_app: Callable[[int], None],
                 terminal_fd: int | None = None) -> None:
        """`keep` writes what must survive; `exit_app(code)` ends the app normally."""
        self.keep = keep
        self.exit_app = exit_app
        self.terminal_fd = 2 if terminal_fd is None else terminal_fd
        """The descriptor the reader draws to (Textual's driver writes to stderr)."""
        self.signum: int | None = None
        """The signal (or SIGHUP for a lost terminal) that is ending the reader."""
        self.leave: Callable[[int], Any] = os._exit
        """How the process leaves once all is kept (tests put a recorder here)."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._previous: dict[int, Any] = {}

    def install(self) -> None:
        """Take over SIGHUP and SIGTERM; call from the running event loop's thread."""
        self._loop = asyncio.get_running_loop()
        for signum in HANDLED:
            self._previous[signum] = signal.signal(signum, self._on_signal)

    def uninstall(self) -> None:
        """Give the signals back to what handled them before."""
        for signum, previous in self._previous.items():
            with suppress(ValueError, TypeError):
                signal.signal(signum, previous)
        self._previous.clear()

    def _on_signal(self, signum: int, _frame: FrameType | None) -> None:
        # Runs between two bytecodes of the main thread, maybe in the middle of a draft
        # or state write, whose lock (an RLock) would let this handler in again. So it
        # writes nothing: it arms the last-resort alarm (a plain system call) and hands
        # over to the event loop, which keeps the drafts between two of its callbacks.
        if self.signum is not None:
            return
        self.signum = signum
        signal.alarm(GRACE_S)
        if self._loop is not None:
            with suppress(RuntimeError):  # the loop has closed: `finish` is on its way
                self._loop.call_soon_threadsafe(self.end, signum)

    def check_terminal(self) -> None:
        """End the reader if its terminal hung up without a SIGHUP reaching it."""
        if self.signum is None and terminal_gone(self.terminal_fd):
            self.signum = signal.SIGHUP
            signal.alarm(GRACE_S)
            self.end(signal.SIGHUP)

    def end(self, signum: int) -> None:
        """Keep what must be kept, then leave (see the module docstring)."""
        self.signum = signum
        try:
            self.keep()
        finally:
            if terminal_gone(self.terminal_fd):
                self.finish()
            else:
                self.exit_app(128 + signum)

    def finish(self) -> None:
        """After a signal, leave now: kill the index build's workers, flush, exit.

        A no-op when no signal came (a normal quit goes on as usual).
        """
        if self.signum is None:
            return
        multiprocessing = sys.modules.get("multiprocessing")
        if multiprocessing is not None:
            for child in multiprocessing.active_children():
                # SIGKILL: a forked worker shares this process's handlers, which would
                # only ask a loop it does not run to end.
                with suppress(OSError):
                    child.kill()
        for stream in (sys.stdout, sys.stderr):
            with suppress(Exception):
                stream.flush()
        self.leave(128 + self.signum)
