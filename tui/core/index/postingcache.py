"""Recently used posting lists in memory, read from each segment's arrays
(`postarrays`), or from Whoosh's blocks where a segment has none, with what the scorer
derives from them kept beside each list."""

from __future__ import annotations

from array import array
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence

from tui.core.index.postarrays import SegmentArrays, key_hash
from tui.core.index.readat import ReadAt
from tui.core.whoosh_compat import deleted_docnums, posting_blocks, unfiltered_postings

Postings = tuple[array, array]
TYPE_CHECKING = False  # as typing's: a cold search need not import typing (2 ms)
if TYPE_CHECKING:
    from typing import TypeVar
    T = TypeVar("T")


class PostingCache:
    """Recently used posting lists, bounded by what they hold (counted in postings),
    each with what was derived from it (`beside`)."""

    def __init__(self, reader, max_postings: int = 32_000_000) -> None:
        # A posting is 8 bytes (a docnum and a frequency), so the bound is 256 MB at
        # most, with what is kept beside a list counted in: each posting's impact (a
        # posting's worth), a split list's top part (`tiers`), the byte map of a list
        # of a quarter of the papers or more (`plans`). When the lists a session keeps
        # using overflow the bound, a least recently used cache is at its worst
        # (queries typed again read every list again): the 260 queries of
        # bench/scale.py over 250k papers hold about 10M postings' worth, and the
        # bound leaves room for three times that, under the reader's memory goal.
        self._reader = reader
        self._arrays: dict[str, SegmentArrays | None] = {}
        """Each segment's arrays (`postarrays`), by segment id, opened when first read."""
        self._by_leaf: dict[int, tuple[object, SegmentArrays | None]] = {}
        """The same, by segment reader (its id, with the reader, which keeps the id its
        own): a search asks for each list's segments, and a segment reader's id is
        several calls into Whoosh away."""
        self._files: list[ReadAt] = []
        self._max = max_postings
        self._held = 0
        self._lists: OrderedDict[tuple[str, str], Postings] = OrderedDict()
        self._beside: dict[tuple[str, str], dict[str, tuple[object, int]]] = {}

    def get(self, fieldname: str, text: str) -> Postings:
        key = (fieldname, text)
        found = self._lists.get(key)
        if found is not None:
            self._lists.move_to_end(key)
            return found
        found = read_postings(self._reader, fieldname, text, self.arrays_of)
        self._lists[key] = found
        self._hold(len(found[0]))
        return found

    def doc_frequency(self, fieldname: str, text: str) -> int:
        """How many documents hold the term, deleted ones included (as Whoosh counts):
        from the segments' directories, which cost no lookup in Whoosh's term files."""
        return self._summed(fieldname, text, "count", "doc_frequency")

    def frequency(self, fieldname: str, text: str) -> float:
        """How often the documents hold the term (the sum of its weights), deleted ones
        included, as Whoosh's `frequency` gives it: from the directories too."""
        return self._summed(fieldname, text, "frequency", "frequency")

    def _summed(self, fieldname: str, text: str, ours: str, whooshs: str) -> int | float:
        """A term's statistic summed over the segments: each directory's method `ours`,
        or the segment reader's `whooshs` where there is none."""
        hashed = key_hash(fieldname, text.encode("utf-8"))
        total = 0
        for leaf, _ in self._reader.leaf_readers():
            found = self.arrays_of(leaf)
            value = getattr(found, ours)(fieldname, text, hashed) if found is not None else None
            total += getattr(leaf, whooshs)(fieldname, text) if value is None else value
        return total

    def arrays_of(self, leaf) -> SegmentArrays | None:
        """A segment reader's arrays (`postarrays`), None when it has none."""
        known = self._by_leaf.get(id(leaf))
        if known is not None and known[0] is leaf:
            return known[1]
        segment_id = leaf.segment().segment_id()
        if segment_id not in self._arrays:
            self._arrays[segment_id] = SegmentArrays.open(leaf.storage(), segment_id,
                                                          self.open_at)
        self._by_leaf[id(leaf)] = (leaf, self._arrays[segment_id])
        return self._arrays[segment_id]

    def open_at(self, storage, name: str) -> ReadAt:
        """What the file `name` of the index is read through while the cache is open:
        a descriptor kept open (`readat`), closed with the cache."""
        found = ReadAt(storage, name, keep=True)
        self._files.append(found)
        return found

    def close(self) -> None:
        """Close the files the lists are read from (a read after this opens them anew)."""
        for found in self._files:
            found.close()

    def beside(self, fieldname: str, text: str, kind: str,
               make: Callable[[Postings], tuple[T, int]]) -> T:
        """What `make(postings)` gives of the term's list: (a value, what it holds in
        postings' worth of memory); made once per `kind`, kept beside the list and
        forgotten with it."""
        key = (fieldname, text)
        postings = self.get(fieldname, text)
        derived = self._beside.setdefault(key, {})
        found = derived.get(kind)
        if found is None:
            found = derived[kind] = make(postings)
            self._hold(found[1])
        return found[0]  # type: ignore[return-value]

    def _hold(self, count: int) -> None:
        """Count `count` more postings' worth held; forget the least recently used
        lists while over the bound (never the last one used)."""
        self._held += count
        while self._held > self._max and len(self._lists) > 1:
            gone, (ids, _) = self._lists.popitem(last=False)
            self._held -= len(ids) + sum(c for _, c in self._beside.pop(gone, {}).values())


def read_postings(reader, fieldname: str, text: str,
                  arrays: Callable[[object], SegmentArrays | None] = lambda leaf: None,
                  ) -> Postings:
    """All (docnums, term frequencies) of a term, across segments, as arrays; deleted
    documents (of lists removed from a reused segment) left out. `arrays` gives a
    segment reader's arrays (`postarrays`), read in place of Whoosh's blocks."""
    ids, weights = array("i"), array("f")
    hashed = key_hash(fieldname, text.encode("utf-8"))  # once for every segment
    for leaf, base in reader.leaf_readers():
        found = arrays(leaf)
        whole = found.postings(fieldname, text, base, hashed) if found is not None else None
        if whole is not None:
            if not whole[0]:
                continue
            blocks: Iterable[tuple[array, Sequence[float]]] = [whole]
        elif (fieldname, text) in leaf:
            # Block access: the leaf matcher decodes a whole block of ids and weights.
            blocks = posting_blocks(unfiltered_postings(leaf, fieldname, text), base)
        else:
            continue
        deleted = deleted_docnums(leaf)
        low, high = (min(deleted) + base, max(deleted) + base) if deleted else (0, -1)
        try:
            for block, block_weights in blocks:
                # Deleted documents are whole lists, so most blocks lie outside their
                # span and are taken as they are.
                if deleted and block and block[0] <= high and block[-1] >= low:
                    kept = [(d, w) for d, w in zip(block, block_weights)
                            if d - base not in deleted]
                    block = array("i", [d for d, _ in kept])
                    block_weights = [w for _, w in kept]
                ids.extend(block)
                weights.extend(block_weights)
        except AttributeError:
            # Another codec: the slower public API gives the same answer.
            for docnum, weight in leaf.postings(fieldname, text).items_as("weight"):
                ids.append(docnum + base)
                weights.append(weight)
    return ids, weights
