"""Each segment's impacts and splits, written once the build knows its norms.

The first time a search uses a long list, weighing it costs more than reading it: each
posting's impact, tf / (tf + norm) (`tiers.impacts`), about 120 ns in Python, and its
split into a top part and the rest (`tiers.split`), about 90 ns, against about 90 ns
to read it from the arrays. Both depend on the field's BM25 norms, which depend on the
average length over the whole library, known only once every segment is written. So
the builder then writes, for each new segment (`<segment id>.pim`), every list of its
posting arrays with each posting's impact and a byte saying whether it is in the
list's top part, and the cut the others are under; and the scorer reads them instead
of weighing the list again.

They are right only for the norms they were weighed with: the file carries a digest of
the segment's norms per field, and a segment whose norms have changed since (a list
was added to or removed from the library, which moves the average length) or that has
deleted papers is weighed as before. The impacts read are the very numbers the scorer
computes (the same expression over the same float32 inputs), so a paper's score does
not depend on which way its lists were weighed.

A segment's part of a list is split on its own; the parts of one list from several
segments join as one split whose rest is bounded by the largest of their cuts, which
keeps pruning exact (`tiers.parts`).
"""

from __future__ import annotations

import json
import sys
from array import array
from collections.abc import Callable, Iterable, Mapping

from tui.core.index.postarrays import SegmentArrays, decode, key_hash
from tui.core.index.readat import ReadAt
from tui.core.index.tiers import impacts, split
from tui.core.python_compat import blake2b

EXT = ".pim"
"""The extension of a segment's impacts, after the segment's id."""
_FORMAT = b"paperscope-impacts-1-"
_MAGIC = _FORMAT + sys.byteorder.encode("ascii")[:1]
_WHOLE = -1.0
"""The cut recorded for a list kept whole (impacts are positive)."""


def norms_digest(norms: array | None) -> str | None:
    """What says that a segment's norms of a field are the ones its impacts were
    weighed with (None: the field has none)."""
    if norms is None:
        return None
    return blake2b(norms.tobytes(), digest_size=16).hexdigest()


def write_impacts(storage, segment_id: str, norms: Mapping[str, array],
                  name: str | None = None) -> None:
    """Write the impacts file of the segment `segment_id` (under `name`, when given),
    whose papers' norms per field are `norms` (indexed by the segment's own docnums);
    nothing for a segment without posting arrays.

    Lists are weighed in the order of the arrays' data file, read a list at a time, so
    that memory is bounded by the longest list; a list's impacts and marks are at 9/8
    of its offset there (after the header), its cut in a last column in the
    directory's order."""
    arrays = SegmentArrays.open(storage, segment_id)
    if arrays is None:
        return
    fields = sorted(arrays.fields)
    header = json.dumps({name: norms_digest(norms.get(name)) for name in fields}).encode()
    cuts = array("d", bytes(8 * len(arrays.counts)))
    source = arrays.open_data()
    handle = storage.create_file(name or segment_id + EXT)
    try:
        handle.write(_MAGIC + array("Q", [len(arrays.counts), len(header)]).tobytes() + header)
        for entry in sorted(range(len(cuts)), key=arrays.offsets.__getitem__):
            count = arrays.counts[entry]
            ids, weights = decode(memoryview(source.read(8 * count)), count)
            weighed = impacts(ids, weights, norms.get(fields[arrays.field_numbers[entry]]))
            made = split(weighed)
            handle.write(weighed.tobytes())
            handle.write(b"\1" * count if made is None else made[0])
            cuts[entry] = _WHOLE if made is None else made[1]
        handle.write(cuts.tobytes())
    finally:
        handle.close()
        source.close()


def weigh_segments(storage, segments: list, fresh: set[str],
                   norms: Mapping[str, array]) -> None:
    """Write the impacts file of each of an index's `segments` (in docnum order) whose
    id is in `fresh`, from its papers' part of the index's `norms`."""
    base = 0
    for segment in segments:
        count = segment.doc_count_all()
        if segment.segment_id() in fresh:
            write_impacts(storage, segment.segment_id(),
                          {name: column[base:base + count] for name, column in norms.items()})
        base += count


class SegmentImpacts:
    """One segment's impacts file, its lists found by their entry in the segment's
    directory (`SegmentArrays.find`)."""

    def __init__(self, storage, name: str, digests: dict[str, str | None], start: int,
                 arrays: SegmentArrays, cuts: array, data: ReadAt | None = None) -> None:
        self._name = name
        self._data = data or ReadAt(storage, name)
        self.digests = digests
        """Per field, the digest of the norms the impacts were weighed with."""
        self._start = start
        self._arrays = arrays
        self._cuts = cuts

    @classmethod
    def open(cls, storage, segment_id: str, arrays: SegmentArrays,
             open_at: Callable[..., ReadAt] = ReadAt) -> SegmentImpacts | None:
        """The segment's impacts; None when it has none that fit its directory (none
        written, another format or byte order, a file cut short or a garbled header).
        `open_at(storage, name)` gives what the lists are read through."""
        name = segment_id + EXT
        if not storage.file_exists(name):
            return None
        handle = storage.open_file(name)
        try:
            head = handle.read(len(_MAGIC) + 16)
            if not head.startswith(_MAGIC) or len(head) < len(_MAGIC) + 16:
                return None
            count, size = array("Q", head[len(_MAGIC):])
            total = sum(arrays.counts)
            start = len(_MAGIC) + 16 + size
            if (count != len(arrays.counts)
                    or storage.file_length(name) != start + 9 * total + 8 * count):
                return None
            try:
                digests = json.loads(handle.read(size).decode("utf-8"))
            except ValueError:  # a header of the right size, garbled: weigh as before
                return None
            if not isinstance(digests, dict):
                return None
            handle.seek(start + 9 * total)
            cuts = array("d")
            cuts.frombytes(handle.read(8 * count))
        finally:
            handle.close()
        return cls(storage, name, digests, start, arrays, cuts, open_at(storage, name))

    def fits(self, fieldname: str, norms: array | None) -> bool:
        """Whether the lists of `fieldname` were weighed with `norms` (the segment's
        own part of the field's norms now)."""
        return fieldname in self.digests and self.digests[fieldname] == norms_digest(norms)

    def read(self, entry: int) -> tuple[array, bytes, float | None]:
        """The impacts of the list at `entry`, its top part's marks (a byte a posting)
        and the cut the others are under (None: the list was kept whole)."""
        count = self._arrays.counts[entry]
        data = self._data.read(self._start + self._arrays.offsets[entry] // 8 * 9, 9 * count)
        if len(data) != 9 * count:  # the library reopens an index whose files changed
            raise OSError(f"{self._name}: {len(data)} bytes where the list has {9 * count}")
        weighed = array("d")
        weighed.frombytes(data[:8 * count])
        cut = self._cuts[entry]
        return weighed, data[8 * count:], None if cut == _WHOLE else cut


class StoredImpacts:
    """The impacts files of an open index's segments, read where they fit its norms."""

    def __init__(self, reader, norms: Mapping[str, array],
                 arrays_of: Callable[[object], SegmentArrays | None],
                 open_at: Callable[..., ReadAt] = ReadAt) -> None:
        self._reader = reader
        self._norms = norms
        self._arrays_of = arrays_of
        self._open_at = open_at
        """Gives what each segment's impacts are read through (`SegmentImpacts.open`)."""
        self._files: dict[str, SegmentImpacts | None] = {}
        self._fit: dict[tuple[str, str], bool] = {}

    def get(self, fieldname: str, text: str, size: int,
            ) -> tuple[array, tuple[bytes, float] | None] | None:
        """The impacts of the term's list of `size` postings and its split as
        `tiers.split` gives it (joined over segments: see the module docstring); None
        when a segment holding the term has none that fit."""
        hashed = key_hash(fieldname, text.encode("utf-8"))
        pieces = []
        for leaf, base in self._reader.leaf_readers():
            arrays = self._arrays_of(leaf)
            if arrays is None or fieldname not in arrays.fields:
                return None
            entry = arrays.find(fieldname, text, hashed)
            if entry < 0:
                continue
            found = self._fitting(leaf, base, fieldname, arrays)
            if found is None:
                return None
            pieces.append(found.read(entry))
        if not pieces or sum(len(weighed) for weighed, _, _ in pieces) != size:
            return None
        weighed = pieces[0][0]
        for other, _, _ in pieces[1:]:
            weighed.extend(other)
        cuts = [cut for _, _, cut in pieces if cut is not None]
        if not cuts:
            return weighed, None
        high = pieces[0][1] if len(pieces) == 1 else b"".join(h for _, h, _ in pieces)
        return weighed, (high, max(cuts))

    def prepare(self, fieldnames: Iterable[str]) -> None:
        """Open every segment's arrays and impacts file, and check them against the
        norms of `fieldnames` (read here): what the first search of each field would
        do, tens of milliseconds at 250k papers."""
        for leaf, base in self._reader.leaf_readers():
            arrays = self._arrays_of(leaf)
            for fieldname in fieldnames if arrays is not None else ():
                if fieldname in arrays.fields:
                    self._fitting(leaf, base, fieldname, arrays)

    def _fitting(self, leaf, base: int, fieldname: str,
                 arrays: SegmentArrays) -> SegmentImpacts | None:
        """The segment's impacts if they were weighed with its norms of `fieldname` as
        they are now, and it has no deleted papers; else None."""
        segment_id = leaf.segment().segment_id()
        if segment_id not in self._files:
            self._files[segment_id] = SegmentImpacts.open(leaf.storage(), segment_id, arrays,
                                                          self._open_at)
        found = self._files[segment_id]
        key = (segment_id, fieldname)
        if key not in self._fit:
            norms = self._norms.get(fieldname)
            if norms is not None:
                norms = norms[base:base + leaf.doc_count_all()]
            self._fit[key] = (found is not None and not leaf.has_deletions()
                              and found.fits(fieldname, norms))
        return found if self._fit[key] else None
