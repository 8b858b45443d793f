"""Writing files atomically, and durably where it matters: the one way paperscope
replaces a file (reading state, exports, the index's caches, the first screen)."""

from __future__ import annotations

import errno
import os
import tempfile
from contextlib import suppress
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


def atomic_write(path: Path, data: bytes, *, durable: bool = True) -> None:
    """Replace ``path`` with ``data`` so that a crash leaves the old file or the new one.

    The temp file sits in the same folder because ``os.replace`` is only atomic within
    one file system. ``durable=False`` skips flushing to disk, for caches: a file lost
    or torn in a crash is not read and is written again. Raises OSError; the temp file
    is removed on failure.
    """
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    except BaseException:
        with suppress(OSError):
            os.unlink(tmp_name)
        raise
    if durable:
        fsync_folder(path.parent)


def atomic_write_text(path: Path, text: str, *, durable: bool = True) -> None:
    """`atomic_write` of ``text`` as UTF-8."""
    atomic_write(path, text.encode("utf-8"), durable=durable)
