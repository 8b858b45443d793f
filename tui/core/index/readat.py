"""Byte ranges of an index file, read without opening the file each time.

A search reads each term's list from every segment's posting arrays and impacts file:
opening, seeking and closing a file per list and segment was about 1,600 opens for
five short prefixes typed cold at 250k papers, more time than reading the bytes. A
file of an index on disk is therefore opened once, and its ranges are read with
`os.pread`, which takes the offset with it, so that threads need no shared position.
Where there is no `pread` (Windows) or no file (an index in memory), each read opens
the file through the storage, as before.

The descriptor is closed with the reader (`close`), or when it is collected. Segment
files are never rewritten in place by the index, so a descriptor kept open reads what
the reader opened; a file cut short or damaged under it reads short, which the callers
check, as they did.
"""

from __future__ import annotations

import os
import weakref


class ReadAt:
    """Reads ranges of the file `name` of a Whoosh storage: through a descriptor kept
    open when asked to `keep` it (and the storage is a folder), else opening the file
    for each read."""

    def __init__(self, storage, name: str, keep: bool = False) -> None:
        self._storage = storage
        self._name = name
        self._fd: int | None = None
        folder = getattr(storage, "folder", None)  # a FileStorage's; none in memory
        if keep and folder is not None and hasattr(os, "pread"):
            try:
                self._fd = os.open(os.path.join(folder, name),
                                   os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
            except OSError:
                self._fd = None  # read through the storage, which says what is wrong
        self._closer = None if self._fd is None else weakref.finalize(self, os.close, self._fd)

    def read(self, offset: int, size: int) -> bytes:
        """Up to `size` bytes from `offset` (fewer only at the end of the file)."""
        if self._fd is None:
            handle = self._storage.open_file(self._name)
            try:
                handle.seek(offset)
                return handle.read(size)
            finally:
                handle.close()
        data = os.pread(self._fd, size, offset)
        if len(data) == size or not data:
            return data
        parts = [data]  # a read may stop short of the end (a signal): read on
        while size > (done := sum(map(len, parts))):
            more = os.pread(self._fd, size - done, offset + done)
            if not more:
                break
            parts.append(more)
        return b"".join(parts)

    def close(self) -> None:
        """Close the file now (later reads open it through the storage)."""
        if self._closer is not None:
            self._closer()
            self._closer = self._fd = None
