"""An exclusive lock between processes, on a lock file: what the index build and the
reading state both take.

`flock` is released when its descriptor is closed, so a process that dies holds no lock.
Where there is no `fcntl` (Windows), nothing is locked: builds and saves then rely on
their atomic renames alone.
"""

from __future__ import annotations

import errno
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - not on the platforms the tests run on
    fcntl = None  # type: ignore[assignment]


class LockTimeout(OSError):
    """Another process held the lock for longer than the caller waits."""


def open_lock_file(path: Path, mode: int = 0o666) -> int:
    """Open (creating it) the lock file; its descriptor, for `holding`.

    The file is never deleted: deleting it would let two processes lock two files.
    """
    return os.open(path, os.O_RDWR | os.O_CREAT, mode)


@contextmanager
def holding(fd: int, timeout: float | None = None, busy: str = "the lock is held") -> Iterator[None]:
    """Hold an exclusive flock on `fd` (closed afterwards, which releases it).

    With a `timeout`, poll instead of blocking and raise LockTimeout(`busy`) after that
    many seconds: a stopped process (ctrl+z) holding the lock must not freeze every
    other one. Without, wait as long as it takes.
    """
    try:
        if fcntl is not None:
            if timeout is None:
                fcntl.flock(fd, fcntl.LOCK_EX)
            else:
                _poll(fd, timeout, busy)
        yield
    finally:
        os.close(fd)


def _poll(fd: int, timeout: float, busy: str) -> None:
    deadline = time.monotonic() + timeout
    delay = 0.001
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise LockTimeout(errno.EWOULDBLOCK, busy) from None
            time.sleep(delay)
            delay = min(delay * 2, 0.05)


def exclusive_lock(path: Path, timeout: float | None = None, *, mode: int = 0o666,
                   busy: str = "the lock is held") -> Iterator[None]:
    """`holding` the lock file at `path`, opened (and created) first."""
    return holding(open_lock_file(path, mode), timeout, busy)


def hold_while_alive(path: Path, mode: int = 0o600) -> int | None:
    """Take the lock at `path` without waiting and keep it: the caller's descriptor,
    which holds it until closed (or the process ends); None where nothing is locked.

    This is how a process says "I am still running" to others (see `held_by_another`).
    Raises BlockingIOError when another process already holds it.
    """
    if fcntl is None:
        return None
    fd = open_lock_file(path, mode)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise
    return fd


def held_by_another(path: Path) -> bool:
    """Whether some other process holds the lock at `path` right now.

    False when the lock file is missing or unreadable, and where nothing is locked. The
    probe takes the lock for an instant when it is free, and releases it at once.
    """
    if fcntl is None:
        return False
    try:
        fd = os.open(path, os.O_RDWR)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)
    return False
