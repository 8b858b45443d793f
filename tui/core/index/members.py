"""Sets of papers as byte maps: the union, intersection and size of long posting lists
at C speed.

Counting the papers a query matches takes the union (and, for all the words, the
intersection) of its terms' docnums. As Python sets that is a hash per posting, most
of a top-k query's time at 250k papers. Here a long list's papers are one Python
integer with a byte per docnum (1 where the paper has the term): a union is `|`, an
intersection `&`, and the count one `bit_count`, a few passes over n bytes whatever
the lengths of the lists. Long lists keep their maps beside them in the posting
cache (see `topk.LONG`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


def byte_map(docnums: Iterable[int], size: int) -> int:
    """The integer whose byte d (little-endian) is 1 for each of `docnums`, else 0."""
    marks = bytearray(size)
    for docnum in docnums:  # a plain loop: faster than map(marks.__setitem__, ...)
        marks[docnum] = 1
    return int.from_bytes(marks, "little")


@dataclass
class Selection:
    """Papers given as a byte per docnum (1: selected), with their number."""

    marks: bytes
    count: int
    _docnums: set[int] | None = field(default=None, repr=False)

    @classmethod
    def of(cls, bits: int, size: int) -> Selection:
        """The papers of the byte map `bits` over `size` docnums."""
        return cls(bits.to_bytes(size, "little"), bits.bit_count())

    @property
    def docnums(self) -> set[int]:
        """The selected docnums as a set (found byte by byte: for few papers)."""
        if self._docnums is None:
            found, find = set(), self.marks.find
            at = find(1)
            while at >= 0:
                found.add(at)
                at = find(1, at + 1)
            self._docnums = found
        return self._docnums
