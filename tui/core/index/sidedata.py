"""What the side files are made from, kept per segment so that a build can reuse it.

Every segment the builder writes gets a record of what its papers give the side files
(see `sidefiles`): each scored field's length per paper and each paper's name-sort
key, and, for each list (or part of one) apart, its unstemmed words and each `text`
term's document frequency, so that a list removed from a reused segment (see `reuse`)
takes its words out of the vocabulary and the prefix table. It is saved beside
the segment (`<segment id>.sides`, a name Whoosh keeps and deletes with the segment),
so a later build that reuses the segment merges these records instead of analysing its
papers again: the side files of an index are a function of its segments' records, in
docnum order, whichever build wrote each segment.
"""

from __future__ import annotations

import base64
import json
from array import array
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field

from whoosh.filedb.filestore import Storage

from tui.core.index import termtable
from tui.core.index.norms import norms_for
from tui.core.index.schema import SCORED_FIELDS
from tui.core.index.sidefiles import (
    LIST_ORDER_FILE, NAME_ORDER_FILE, NORMS_FILE, PREFIX_FANOUT, PREFIX_FILE, PREFIX_SCAN, SHORT_PREFIX,
    TERMS_FILE, WORDS_FILE,
)

_KEYS_AT_ONCE = 4096
"""Name keys encoded together when a record is saved (see `SegmentData.chunks`)."""
SIDES_EXT = ".sides"
"""The extension of a segment's record, after the segment's id."""


def _empty_lengths() -> dict[str, array]:
    return {name: array("I") for name in SCORED_FIELDS}


@dataclass
class PartData:
    """What one list (or part of one) of a segment gives the side files beyond its
    papers' lengths and names: kept apart, so that a list removed from a reused
    segment takes its words out of the vocabulary and the prefix table. As indexes
    into its segment's tables (`SegmentData.words`, `.terms`): a list's words as
    strings, and a `Counter` of its terms, held for every list of a segment at once,
    cost each worker of a 250,000-paper build about a hundred megabytes."""

    papers: int = 0
    words: array = field(default_factory=lambda: array("I"))
    """The part's unstemmed words (indexes into `SegmentData.words`)."""
    terms: array = field(default_factory=lambda: array("I"))
    """The part's `text` terms (indexes into `SegmentData.terms`)..."""
    counts: array = field(default_factory=lambda: array("I"))
    """...and each one's document frequency among the part's papers."""


@dataclass
class SegmentData:
    """What one segment's papers (or several segments', merged) give the side files."""

    lengths: dict[str, array] = field(default_factory=_empty_lengths)
    """Each scored field's length per paper, in docnum order."""
    name_keys: list[str] = field(default_factory=list)
    """Each paper's name-sort key, in docnum order."""
    parts: list[PartData] = field(default_factory=list)
    """Each list's (or part's) words, in docnum order."""
    words: list[str] = field(default_factory=list)
    """The segment's unstemmed words, which its parts' `words` index."""
    terms: list[str] = field(default_factory=list)
    """The segment's `text` terms, which its parts' `terms` index."""
    vocab: set[str] = field(default_factory=set)
    """Merged (see `merge`): the unstemmed words of the papers kept."""
    text_df: Counter[str] = field(default_factory=Counter)
    """Merged: each `text` term's document frequency among the papers kept."""

    def merge(self, other: SegmentData, dead: bytearray | None = None) -> None:
        """Add `other`'s papers after this one's, and to `vocab` and `text_df` the
        words of its parts whose papers are not marked in `dead` (by docnum in the
        merged numbering): merged data keep no parts, only what the index's side files
        are made of."""
        base = len(self.name_keys)
        self.name_keys += other.name_keys
        for name, column in other.lengths.items():
            self.lengths[name].extend(column)
        self.vocab |= other.vocab
        self.text_df.update(other.text_df)
        for part in other.parts:
            if not (dead and part.papers and dead[base]):
                self.vocab.update(map(other.words.__getitem__, part.words))
                text_df = self.text_df
                for term, count in zip(map(other.terms.__getitem__, part.terms), part.counts):
                    text_df[term] += count
            base += part.papers

    def to_bytes(self) -> bytes:
        """The record as saved beside its segment (`chunks`, joined)."""
        return b"".join(self.chunks())

    def chunks(self) -> Iterator[bytes]:
        """The record as saved beside its segment, a piece at a time: one JSON object,
        with columns of numbers as base64 of their bytes (as JSON lists, each number
        would be a Python object first), each column, list and few thousand name keys
        encoded on its own. Encoded whole, the record cost a worker eight times its
        size: at 124,000 papers, 201 MB of Python objects for 25 MB of JSON."""
        def dumps(value: object) -> bytes:
            return json.dumps(value, ensure_ascii=False).encode("utf-8")

        yield b'{"lengths": {'
        for i, (name, column) in enumerate(self.lengths.items()):
            yield (b", " if i else b"") + dumps(name) + b": " + dumps(_packed(column))
        yield b'}, "words": ' + dumps(self.words) + b', "terms": ' + dumps(self.terms)
        yield b', "parts": ['
        for i, p in enumerate(self.parts):
            yield (b", " if i else b"") + dumps({
                "papers": p.papers, "words": _packed(p.words), "terms": _packed(p.terms),
                "counts": _packed(p.counts)})
        yield b'], "name_keys": ['
        keys = self.name_keys
        for start in range(0, len(keys), _KEYS_AT_ONCE):
            yield (b", " if start else b"") + dumps(keys[start:start + _KEYS_AT_ONCE])[1:-1]
        yield b"]}"

    @classmethod
    def from_bytes(cls, data: bytes) -> SegmentData:
        """A record saved by `to_bytes`; raises on anything else."""
        loaded = json.loads(data.decode("utf-8"))
        lengths = {name: _unpacked(loaded["lengths"][name]) for name in SCORED_FIELDS}
        parts = [PartData(int(p["papers"]), _unpacked(p["words"]), _unpacked(p["terms"]),
                          _unpacked(p["counts"])) for p in loaded["parts"]]
        return cls(lengths, list(loaded["name_keys"]), parts, list(loaded["words"]),
                   list(loaded["terms"]))


def _packed(column: array) -> str:
    return base64.b64encode(column.tobytes()).decode("ascii")


def _unpacked(text: str) -> array:
    column = array("I")
    column.frombytes(base64.b64decode(text, validate=True))
    return column


def write_side_files(storage: Storage, data: SegmentData, order: array,
                     dead: bytearray | None = None,
                     ) -> tuple[dict[str, array], dict[str, list[str]]]:
    """Write every side file of an index whose papers, in docnum order, gave `data`
    (merged without the removed lists' words) but the prefixes' best papers, which
    need the index itself (`prefixtops`); `order` is the live docnums in list order and
    `dead` marks the deleted ones. Returns the norms written, per field, and the prefix
    table."""
    prefixes = prefix_table(data.text_df)
    _write_json(storage, PREFIX_FILE, prefixes)
    write_bytes(storage, TERMS_FILE, termtable.encode(data.text_df))
    _write_json(storage, WORDS_FILE, sorted(w for w in data.vocab if w.isalpha()))
    norms = {name: norms_for(column, dead) for name, column in data.lengths.items()}
    for name, column in norms.items():
        write_bytes(storage, NORMS_FILE.format(name), column.tobytes())
    # `order` is in list order and the sort is stable, so papers of one name keep it.
    by_name = array("I", sorted(order, key=data.name_keys.__getitem__))
    write_bytes(storage, NAME_ORDER_FILE, by_name.tobytes())
    write_bytes(storage, LIST_ORDER_FILE, order.tobytes())
    return norms, prefixes


def prefix_table(text_df: Counter[str]) -> dict[str, list[str]]:
    """Prefix → its `PREFIX_FANOUT` most frequent `text` terms, for every prefix of up
    to SHORT_PREFIX letters and every longer one that starts over PREFIX_SCAN terms."""
    starts: Counter[str] = Counter()
    for term in text_df:
        starts.update(term[:n] for n in range(SHORT_PREFIX + 1, len(term) + 1))
    best: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for term, df in text_df.items():
        for n in range(1, len(term) + 1):
            prefix = term[:n]
            if n <= SHORT_PREFIX or starts[prefix] > PREFIX_SCAN:
                best[prefix].append((df, term))
            else:
                break  # a longer prefix starts no more terms than this one
    return {
        prefix: [t for _, t in sorted(cands, key=lambda c: (-c[0], c[1]))[:PREFIX_FANOUT]]
        for prefix, cands in sorted(best.items())
    }


def save(storage: Storage, segment_id: str, data: SegmentData) -> None:
    """Save `data` as the record of the segment `segment_id`, a piece at a time."""
    handle = storage.create_file(segment_id + SIDES_EXT)
    try:
        for chunk in data.chunks():
            handle.write(chunk)
    finally:
        handle.close()


def load(storage: Storage, segment_id: str) -> SegmentData:
    """The record saved for the segment `segment_id`."""
    handle = storage.open_file(segment_id + SIDES_EXT)
    try:
        return SegmentData.from_bytes(handle.read())
    finally:
        handle.close()


def _write_json(storage: Storage, name: str, value: object) -> None:
    write_bytes(storage, name, json.dumps(value, ensure_ascii=False).encode("utf-8"))


def write_bytes(storage: Storage, name: str, data: bytes) -> None:
    handle = storage.create_file(name)
    try:
        handle.write(data)
    finally:
        handle.close()
