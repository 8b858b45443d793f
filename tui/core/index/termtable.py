"""The text field's terms in order, with the number of papers holding each: a typed
prefix's terms found by bisection instead of read from the index.

A prefix that starts few terms (`sidefiles.PREFIX_SCAN` or fewer) has no row in the
prefix table: its terms are all read and the most frequent kept. Read from the index,
that walks the term dictionary of every segment at once, a few milliseconds for the
few hundred terms of a prefix such as `trans` at 21k papers and more than ten at 250k,
on every keystroke. The table, written with the index, gives the same terms and
counts from memory: every term of the live papers' text, sorted, with its count.

The file holds the number of terms n, their n counts (4 bytes each), then the terms,
one per line, in UTF-8: it loads in one pass, whatever the vocabulary.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Mapping

_END = chr(0x10FFFF)
"""Sorts after every character a term has: the end of a prefix's range."""


def encode(counts: Mapping[str, int]) -> bytes:
    """The table's file content for terms and their counts (terms counted 0 left out)."""
    terms = sorted(term for term, count in counts.items() if count > 0)
    head = array("I", [len(terms), *(counts[term] for term in terms)])
    return head.tobytes() + "\n".join(terms).encode("utf-8")


class TermTable:
    """Terms in code point order (the index's own order) and each one's count."""

    def __init__(self, terms: list[str], counts: array) -> None:
        if len(terms) != len(counts):
            raise ValueError("a term table needs a count for each term")
        self._terms = terms
        self._counts = counts

    @classmethod
    def parse(cls, data: bytes) -> TermTable:
        """A table from `encode`'s bytes; raises ValueError on anything else."""
        size = array("I")
        size.frombytes(data[:size.itemsize])
        n = size[0] if size else 0
        end = size.itemsize * (n + 1)
        counts = array("I")
        counts.frombytes(data[size.itemsize:end])
        text = data[end:].decode("utf-8")
        return cls(text.split("\n") if text else [], counts)

    def starting(self, prefix: str, scan: int) -> list[tuple[str, int]]:
        """The first `scan` terms (in term order) that start with `prefix`, each with
        its count."""
        terms = self._terms
        low = bisect_left(terms, prefix)
        high = min(bisect_left(terms, prefix + _END, low), low + scan)
        return list(zip(terms[low:high], self._counts[low:high]))
