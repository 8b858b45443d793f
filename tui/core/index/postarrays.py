"""Each segment's posting lists of the scored fields as machine arrays, beside Whoosh's.

Whoosh's codec keeps a block of postings as one pickle of a tuple of docnum gaps, a
tuple of weights and a tuple of position bytes: reading a list unpickles three Python
objects per posting, positions the scorer never uses included. At a million papers
that cost about 450 ns a posting (280 of them unpickling), so a query whose lists had
left the posting cache spent most of its time there. The builder therefore also
writes, for every term of a scored field, its docnum gaps and its term frequencies as
arrays (`<segment id>.pa`), and a directory (`<segment id>.pad`): the keys' 64-bit
hashes in order, and each list's offset and length. A list is then one read and two
`frombytes`, its docnums summed from the gaps at C speed.

Whoosh's term dictionary still says whether a segment holds a term: the directory is
only asked for terms the segment holds, and the builder writes no directory when two
of a segment's keys share a hash, so a hash always names one list. A segment without
a directory (a collision, an index in memory, files of another byte order) is read
from Whoosh's own files, which give the same lists.
"""

from __future__ import annotations

import sys
from array import array
from bisect import bisect_left
from collections.abc import Sequence
from hashlib import blake2b
from itertools import accumulate, chain, islice
from operator import sub

DATA_EXT = ".pa"
"""The extension of a segment's arrays, after the segment's id."""
DIRECTORY_EXT = ".pad"
"""The extension of their directory."""
_MAGIC = b"paperscope-postarrays-1-" + sys.byteorder.encode("ascii")[:1]
"""A directory's first bytes: the format, and the byte order its arrays are in."""


def key_hash(fieldname: str, term: bytes) -> int:
    """The 64-bit hash a list is found by."""
    digest = blake2b(fieldname.encode("utf-8") + b"\0" + term, digest_size=8).digest()
    return int.from_bytes(digest, "little")


class ArraysWriter:
    """Writes one segment's arrays, a list at a time in any order, then its directory."""

    def __init__(self, storage, segment_id: str) -> None:
        self._storage = storage
        self._segment_id = segment_id
        self._data = storage.create_file(segment_id + DATA_EXT)
        self._hashes = array("Q")
        self._offsets = array("Q")
        self._counts = array("I")
        self._offset = 0

    def add(self, fieldname: str, term: bytes, ids: Sequence[int],
            weights: Sequence[float]) -> None:
        """One term's list: its ascending docnums in the segment and their weights."""
        gaps = array("i", map(sub, ids, chain((0,), ids)))
        self._data.write(gaps.tobytes())
        self._data.write(array("f", weights).tobytes())
        self._hashes.append(key_hash(fieldname, term))
        self._offsets.append(self._offset)
        self._counts.append(len(ids))
        self._offset += 8 * len(ids)

    def close(self) -> None:
        """Write the directory, unless two keys share a hash (the segment is then read
        through Whoosh)."""
        self._data.close()
        hashes = self._hashes
        order = sorted(range(len(hashes)), key=hashes.__getitem__)
        ordered = array("Q", map(hashes.__getitem__, order))
        if any(a == b for a, b in zip(ordered, islice(ordered, 1, None))):
            return
        handle = self._storage.create_file(self._segment_id + DIRECTORY_EXT)
        try:
            handle.write(_MAGIC + array("Q", [len(order)]).tobytes())
            handle.write(ordered.tobytes())
            handle.write(array("Q", map(self._offsets.__getitem__, order)).tobytes())
            handle.write(array("I", map(self._counts.__getitem__, order)).tobytes())
        finally:
            handle.close()


class SegmentArrays:
    """One segment's arrays, found by their directory."""

    def __init__(self, storage, segment_id: str, hashes: array, offsets: array,
                 counts: array) -> None:
        self._storage = storage
        self._name = segment_id + DATA_EXT
        self._hashes, self._offsets, self._counts = hashes, offsets, counts

    @classmethod
    def open(cls, storage, segment_id: str) -> SegmentArrays | None:
        """The segment's arrays; None when it has no readable directory of this format
        and byte order (its lists are then read through Whoosh)."""
        name = segment_id + DIRECTORY_EXT
        if not (storage.file_exists(name) and storage.file_exists(segment_id + DATA_EXT)):
            return None
        handle = storage.open_file(name)
        try:
            data = handle.read()
        finally:
            handle.close()
        start = len(_MAGIC) + 8
        if not data.startswith(_MAGIC) or len(data) < start:
            return None
        count = array("Q", data[len(_MAGIC):start])[0]
        if len(data) != start + 20 * count:
            return None
        columns = []
        for code, width in (("Q", 8), ("Q", 8), ("I", 4)):
            column = array(code)
            column.frombytes(data[start:start + width * count])
            columns.append(column)
            start += width * count
        return cls(storage, segment_id, *columns)

    def postings(self, fieldname: str, term: str, base: int) -> tuple[array, array] | None:
        """The docnums (+ `base`) and weights of a term the segment holds; None when
        it has no array of it (a field that is not scored)."""
        wanted = key_hash(fieldname, term.encode("utf-8"))
        i = bisect_left(self._hashes, wanted)
        if i == len(self._hashes) or self._hashes[i] != wanted:
            return None
        count = self._counts[i]
        handle = self._storage.open_file(self._name)
        try:
            handle.seek(self._offsets[i])
            data = memoryview(handle.read(8 * count))
        finally:
            handle.close()
        if len(data) != 8 * count:  # the library reopens an index whose files changed
            raise OSError(f"{self._name}: {len(data)} bytes where the list has {8 * count}")
        gaps, weights = array("i"), array("f")
        gaps.frombytes(data[:4 * count])
        weights.frombytes(data[4 * count:])
        return array("i", islice(accumulate(gaps, initial=base), 1, None)), weights
