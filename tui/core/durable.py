"""Making writes durable: what the index builder and the reading state both need."""

from __future__ import annotations

import errno
import os
from pathlib import Path

_UNSUPPORTED = (errno.EINVAL, errno.ENOTSUP, errno.EBADF, errno.EACCES)


def fsync_folder(folder: Path) -> None:
    """Make a folder's entries (a rename into it) durable.

    File systems that cannot open or fsync a folder are let be: the data itself was
    already flushed, and there is nothing better to do there.
    """
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in _UNSUPPORTED:
            raise
    finally:
        os.close(fd)
