"""Each segment's posting lists of the scored fields as machine arrays, beside Whoosh's.

Whoosh's codec keeps a block of postings as one pickle of a tuple of docnum gaps, a
tuple of weights and a tuple of position bytes: reading a list unpickles three Python
objects per posting, positions the scorer never uses included. At a million papers
that cost about 450 ns a posting (280 of them unpickling), so a query whose lists had
left the posting cache spent most of its time there. The builder therefore also
writes, for every term of a scored field, its docnums (in the segment) and its term
frequencies as arrays (`<segment id>.pa`), and a directory (`<segment id>.pad`): the
keys' 64-bit hashes in order, and each list's offset, length, sum of weights and field.
A list is then one read and two `frombytes`, and the segment's base is added to its
docnums as one addition of big integers (`decode`). Docnums are kept whole, not as
gaps: gaps were no smaller (4 bytes each all the same), and summing them back cost
about 90 ns a posting, a tenth of a second for a cold search's lists at 250k papers.

A directory also answers which terms a segment holds, how many papers each, and how
often they hold it (what Whoosh's term files give, without a lookup there): each
key's entry carries a second, independent 32-bit hash, checked on every lookup, so a
term the segment lacks is taken for another with a chance of about n in 2^96 (n the
segment's keys); the builder
writes no directory when two keys share the 64-bit hash, so a hash names one list. A
segment without a directory (a collision, an index in memory, files of another byte
order), and a field that has no arrays, are read from Whoosh's own files, which give
the same lists.
"""

from __future__ import annotations

import json
import sys
from array import array
from bisect import bisect_left
from collections.abc import Callable, Sequence
from itertools import islice

from tui.core.index.readat import ReadAt
from tui.core.python_compat import blake2b

DATA_EXT = ".pa"
"""The extension of a segment's arrays, after the segment's id."""
DIRECTORY_EXT = ".pad"
"""The extension of their directory."""
_FORMAT = b"paperscope-postarrays-5-"
_MAGIC = _FORMAT + sys.byteorder.encode("ascii")[:1]
"""A directory's first bytes: the format, and the byte order its arrays are in."""
_COLUMNS = (("Q", 8), ("I", 4), ("Q", 8), ("I", 4), ("f", 4), ("B", 1))
"""A directory's columns after its header, one entry per key each: hash, check hash,
offset, count, sum of weights, and the field (its place in the directory's fields)."""
_ENTRY = sum(width for _, width in _COLUMNS)


def key_hash(fieldname: str, term: bytes) -> tuple[int, int]:
    """The 64-bit hash a list is found by, and the 32-bit one its entry is checked by."""
    digest = blake2b(fieldname.encode("utf-8") + b"\0" + term, digest_size=12).digest()
    return int.from_bytes(digest[:8], "little"), int.from_bytes(digest[8:], "little")


class ArraysWriter:
    """Writes one segment's arrays of the lists of `fields`, a list at a time in any
    order, then its directory."""

    def __init__(self, storage, segment_id: str, fields: list[str]) -> None:
        self._storage = storage
        self._segment_id = segment_id
        self._fields = sorted(fields)
        self._data = storage.create_file(segment_id + DATA_EXT)
        self._hashes, self._checks = array("Q"), array("I")
        self._offsets, self._counts = array("Q"), array("I")
        self._weights = array("f")
        self._field_numbers = array("B")
        self._offset = 0

    def add(self, fieldname: str, term: bytes, ids: Sequence[int],
            weights: Sequence[float]) -> None:
        """One term's list: its ascending docnums in the segment and their weights."""
        self._data.write(array("i", ids).tobytes())
        self._data.write(array("f", weights).tobytes())
        found, check = key_hash(fieldname, term)
        self._hashes.append(found)
        self._checks.append(check)
        self._offsets.append(self._offset)
        self._counts.append(len(ids))
        self._weights.append(sum(weights))  # summed as Whoosh sums a term's weight
        self._field_numbers.append(self._fields.index(fieldname))
        self._offset += 8 * len(ids)

    def __enter__(self) -> ArraysWriter:
        return self

    def __exit__(self, kind, *_) -> None:
        """Write the directory (`close`), unless the lists were not all written: then
        only close the data file (the failed segment is discarded with it)."""
        if kind is None:
            self.close()
        else:
            self._data.close()

    def close(self) -> None:
        """Write the directory, unless two keys share a hash (the segment is then read
        through Whoosh)."""
        self._data.close()
        hashes = self._hashes
        order = sorted(range(len(hashes)), key=hashes.__getitem__)
        ordered = array("Q", map(hashes.__getitem__, order))
        if any(a == b for a, b in zip(ordered, islice(ordered, 1, None))):
            return
        fields = json.dumps(self._fields).encode("utf-8")
        handle = self._storage.create_file(self._segment_id + DIRECTORY_EXT)
        try:
            handle.write(_MAGIC + array("Q", [len(order), len(fields)]).tobytes() + fields)
            handle.write(ordered.tobytes())
            for column in (self._checks, self._offsets, self._counts, self._weights,
                           self._field_numbers):
                handle.write(array(column.typecode, map(column.__getitem__, order)).tobytes())
        finally:
            handle.close()


class SegmentArrays:
    """One segment's arrays, found by their directory."""

    def __init__(self, storage, segment_id: str, fields: frozenset[str],
                 columns: list[array], data: ReadAt | None = None) -> None:
        self._storage = storage
        self._name = segment_id + DATA_EXT
        self._data = data or ReadAt(storage, self._name)
        self.fields = fields
        """The fields whose lists are all here: a term of one that is not, the segment
        does not hold."""
        (self._hashes, self._checks, self.offsets, self.counts, self._weights,
         self.field_numbers) = columns
        """`offsets`, `counts`, `field_numbers`: each entry's, in the directory's order
        (`field_numbers` index `sorted(fields)`)."""

    @classmethod
    def open(cls, storage, segment_id: str, open_at: Callable[..., ReadAt] = ReadAt,
             ) -> SegmentArrays | None:
        """The segment's arrays; None when it has no directory of this format and byte
        order (its lists are then read through Whoosh). Raises OSError for a damaged
        one. `open_at(storage, name)` gives what the lists are read through."""
        name = segment_id + DIRECTORY_EXT
        if not (storage.file_exists(name) and storage.file_exists(segment_id + DATA_EXT)):
            return None
        handle = storage.open_file(name)
        try:
            data = handle.read()
        finally:
            handle.close()
        start = len(_MAGIC) + 16
        if data.startswith(_FORMAT) and not data.startswith(_MAGIC):
            return None  # written on a machine of the other byte order
        if not data.startswith(_MAGIC) or len(data) < start:
            raise OSError(f"{name}: not a directory of posting arrays")
        count, size = array("Q", data[len(_MAGIC):start])
        if len(data) != start + size + _ENTRY * count:  # the library reopens a damaged index
            raise OSError(f"{name}: {len(data)} bytes, not the {start + size + _ENTRY * count}"
                          " its header gives")
        fields = frozenset(json.loads(data[start:start + size].decode("utf-8")))
        start += size
        columns = []
        for code, width in _COLUMNS:
            column = array(code)
            column.frombytes(data[start:start + width * count])
            columns.append(column)
            start += width * count
        return cls(storage, segment_id, fields, columns, open_at(storage, segment_id + DATA_EXT))

    def find(self, fieldname: str, term: str, hashed: tuple[int, int] | None = None) -> int:
        """The entry of a term of one of `fields` (`hashed`: its `key_hash`, when known);
        -1 when the segment lacks it."""
        found, check = hashed or key_hash(fieldname, term.encode("utf-8"))
        i = bisect_left(self._hashes, found)
        if i < len(self._hashes) and self._hashes[i] == found and self._checks[i] == check:
            return i
        return -1

    def count(self, fieldname: str, term: str, hashed: tuple[int, int] | None = None,
              ) -> int | None:
        """How many papers of the segment (deleted ones included) hold the term; None
        for a field that has no arrays. `hashed`: the term's `key_hash`, when known."""
        if fieldname not in self.fields:
            return None
        i = self.find(fieldname, term, hashed)
        return self.counts[i] if i >= 0 else 0

    def frequency(self, fieldname: str, term: str, hashed: tuple[int, int] | None = None,
                  ) -> float | None:
        """The sum of the term's weights in the segment (deleted papers included), as
        Whoosh's `frequency` gives it; None for a field that has no arrays."""
        if fieldname not in self.fields:
            return None
        i = self.find(fieldname, term, hashed)
        return self._weights[i] if i >= 0 else 0.0

    def postings(self, fieldname: str, term: str, base: int,
                 hashed: tuple[int, int] | None = None) -> tuple[array, array] | None:
        """The docnums (+ `base`) and weights of the term, deleted papers included;
        None for a field that has no arrays. `hashed`: the term's `key_hash`, when known."""
        if fieldname not in self.fields:
            return None
        i = self.find(fieldname, term, hashed)
        if i < 0:
            return array("i"), array("f")
        count = self.counts[i]
        data = memoryview(self._data.read(self.offsets[i], 8 * count))
        if len(data) != 8 * count:  # the library reopens an index whose files changed
            raise OSError(f"{self._name}: {len(data)} bytes where the list has {8 * count}")
        return decode(data, count, base)

    def open_data(self):
        """The data file, open at its start: entry `i`'s list is at `offsets[i]`, and the
        lists follow one another in the order they were added."""
        return self._storage.open_file(self._name)


def decode(data: memoryview, count: int, base: int = 0) -> tuple[array, array]:
    """The docnums (+ `base`) and weights of a list of `count` postings stored at the
    start of `data`."""
    ids, weights = array("i"), array("f")
    stored = data[:4 * count]
    if base:
        # Every docnum plus `base` at once: the list read as one integer of 32-bit
        # digits, plus `base` in each digit. A digit's sum is below 2^32 (docnums are
        # below 2^31), so none carries into the next, in either byte order.
        order = sys.byteorder
        shifted = (int.from_bytes(stored, order)
                   + int.from_bytes(base.to_bytes(4, order) * count, order))
        stored = shifted.to_bytes(4 * count, order)
    ids.frombytes(stored)
    weights.frombytes(data[4 * count:8 * count])
    return ids, weights
