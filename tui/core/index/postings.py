"""A segment's postings, collected compactly per field and term, spilled to disk in
sorted runs past a bound, then merged and written a block at a time.

Whoosh's writer puts every posting into a pool as one tuple, sorts the whole pool when
the segment is written, and hands the codec one posting at a time. The builder adds
papers in docnum order, so each term's postings arrive already sorted: collecting them
per field and term makes the sort unnecessary, and the codec's postings writer can be
given whole blocks.

A positional posting is held as machine integers in one array per term (docnum,
count, then the positions), about 14 bytes where a tuple of Python objects took about
a hundred; its Whoosh encoding is made only when it is written. Past `spill_after`
integers held, the tables are written to a run file in term order and emptied, so a
build's memory is bounded whatever the size of the lists. `write` merges the runs with
what is still held, term by term: runs are made in docnum order, so a term's postings
from each run follow one another. The bytes written are exactly those Whoosh's own
writer would write, spilled or not (a test compares them).
"""

from __future__ import annotations

import heapq
from bisect import bisect_left
import os
import pickle
import tempfile
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from itertools import groupby

from whoosh.codec.whoosh3 import W3FieldWriter
from whoosh.fields import Schema
from whoosh.system import pack_uint
from whoosh.util.numeric import byte_to_length, length_to_byte

from tui.core.index.postarrays import ArraysWriter
from tui.core.whoosh_compat import block_limit, block_writer, fill_block, write_block

SPILL_AFTER = 12_000_000
"""Integers held (about 4 bytes each, plus each term's own array) before a spill."""
_TERM_COST = 16
"""What a term's own array and table entry cost, counted in integers."""
_ITEM_COST = 8
"""What one encoded (docnum, weight, value) posting costs, counted in integers."""

Posting = tuple[int, float, bytes]
"""(docnum, weight, value bytes): one posting as Whoosh's codec takes it."""


class Postings:
    """The postings of one segment, added a document at a time in docnum order."""

    def __init__(self, spill_after: int = SPILL_AFTER, spill_dir: str | None = None) -> None:
        self._positional: dict[str, dict[str, array]] = {}
        """field → term → array of (docnum, count, position × count) runs."""
        self._encoded: dict[str, dict[bytes, list[Posting]]] = {}
        """field → term bytes → postings, for fields Whoosh encodes itself (ID, NUMERIC)."""
        self._spill_after = spill_after
        self._spill_dir = spill_dir
        self._runs: list[str] = []
        self.held = 0
        """Integers held in memory now (see `_TERM_COST`, `_ITEM_COST`)."""

    def add_terms(self, fieldname: str, docnum: int, terms: Sequence[str]) -> None:
        """Add one document's analysed `terms` of `fieldname`, positions in list order."""
        if not terms:
            return  # Whoosh writes no field it has no postings of.
        table = self._positional.get(fieldname)
        if table is None:
            table = self._positional[fieldname] = {}
        positions: dict[str, list[int]] = {}
        for pos, term in enumerate(terms):
            found = positions.get(term)
            if found is None:
                positions[term] = [pos]
            else:
                found.append(pos)
        held = 0
        for term, found in positions.items():
            packed = table.get(term)
            if packed is None:
                packed = table[term] = array("I")
                held += _TERM_COST
            packed.append(docnum)
            packed.append(len(found))
            packed.extend(found)
            held += 2 + len(found)
        self._count(held)

    def add_encoded(self, fieldname: str, docnum: int,
                    items: Iterable[tuple[bytes, float, bytes]]) -> None:
        """Add one document's (term bytes, weight, value bytes) postings of `fieldname`."""
        table = self._encoded.get(fieldname)
        if table is None:
            table = self._encoded[fieldname] = {}
        held = 0
        for tbytes, weight, vbytes in items:
            found = table.get(tbytes)
            if found is None:
                found = table[tbytes] = []
                held += _TERM_COST
            found.append((docnum, weight, vbytes))
            held += _ITEM_COST
        self._count(held)

    def _count(self, held: int) -> None:
        self.held += held
        if self.held > self._spill_after:
            self._spill()

    def _held_records(self) -> list[tuple[str, bytes, bool, object]]:
        """What is held, as (field, term bytes, positional?, payload), in term order."""
        out: list[tuple[str, bytes, bool, object]] = []
        for name, table in self._positional.items():
            # UTF-8 keeps code point order, so str terms sort as their bytes do.
            out += ((name, term.encode("utf-8"), True, table[term]) for term in sorted(table))
        for name, encoded in self._encoded.items():
            out += ((name, term, False, encoded[term]) for term in sorted(encoded))
        out.sort(key=_record_key)
        return out

    def _spill(self) -> None:
        """Write everything held to a new run file, in term order, and let it go."""
        handle, path = tempfile.mkstemp(prefix="postings-", suffix=".run", dir=self._spill_dir)
        self._runs.append(path)
        with os.fdopen(handle, "wb") as out:
            # One pickle per record, read back one at a time. Without a memo: a
            # Pickler's would hold every record written, and the Unpickler that reads
            # the run back would fill its own with every record read (the whole run, in
            # memory while it is merged), since memos outlive a `load`.
            pickler = pickle.Pickler(out, pickle.HIGHEST_PROTOCOL)
            pickler.fast = True
            for name, term, positional, payload in self._held_records():
                if positional:
                    payload = payload.tobytes()
                pickler.dump((name, term, positional, payload))
        self._positional.clear()
        self._encoded.clear()
        self.held = 0

    def _merged(self) -> Iterator[tuple[str, bytes, list[tuple[bool, Any]]]]:
        """(field, term bytes, its payloads in docnum order), fields and terms in order."""
        sources = [_read_run(path) for path in self._runs] + [iter(self._held_records())]
        # Ties go to the earlier source: the earlier run, so docnums stay in order.
        merged = heapq.merge(*sources, key=_record_key)
        for (name, term), group in groupby(merged, key=_record_key):
            yield name, term, [(positional, payload) for _, _, positional, payload in group]

    def records(self) -> Iterator[tuple[str, bytes, list[Posting]]]:
        """Every (field, term bytes, postings), fields and terms in order."""
        for name, term, payloads in self._merged():
            yield name, term, list(zip(*_columns(payloads)))

    def write(self, fieldwriter: W3FieldWriter, schema: Schema,
              lengths: Mapping[str, Sequence[int]], count_field: str = "text",
              starts: Sequence[int] = (0,), arrays: ArraysWriter | None = None,
              ) -> TermCounts:
        """Write every posting list through `fieldwriter`, fields and terms in order;
        returns each `count_field` term's document frequency in each run of docnums
        beginning at `starts` (ascending: the segment's lists, so that a list removed
        later takes its own words out of the prefix table).

        `lengths` holds each scored field's length per docnum; Whoosh records the
        shortest and longest (as its one-byte approximation) in every block. The lists
        of those fields also go to `arrays` when given (see `postarrays`). The run
        files are deleted afterwards.
        """
        counts = TermCounts([], [(array("I"), array("I")) for _ in starts])
        try:
            current = None
            postwriter = limit = column = None
            for name, term, payloads in self._merged():
                if name != current:
                    if current is not None:
                        fieldwriter.finish_field()
                    current = name
                    fieldwriter.start_field(name, schema[name])
                    postwriter = block_writer(fieldwriter)
                    limit = block_limit(postwriter)
                    column = lengths.get(name)
                    if column is not None:
                        # What the per-document reader gives back: each length's
                        # one-byte approximation.
                        column = [byte_to_length(length_to_byte(n)) for n in column]
                ids, weights, values = _columns(payloads)
                if name == count_field:
                    counts.add(term.decode("utf-8"), starts, ids)
                if arrays is not None and name in lengths:
                    arrays.add(name, term, ids, weights)
                fieldwriter.start_term(term)
                for begin in range(0, len(ids), limit):
                    end = begin + limit
                    _fill_block(postwriter, ids[begin:end], weights[begin:end],
                                values[begin:end], column)
                    if end < len(ids):
                        write_block(postwriter)
                fieldwriter.finish_term()
            if current is not None:
                fieldwriter.finish_field()
        finally:
            self.discard()
        return counts

    def discard(self) -> None:
        """Forget what is held and delete the run files."""
        self._positional.clear()
        self._encoded.clear()
        self.held = 0
        for path in self._runs:
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
        self._runs.clear()


def _record_key(record: tuple) -> tuple[str, bytes]:
    return record[0], record[1]


def _read_run(path: str) -> Iterator[tuple[str, bytes, bool, object]]:
    """The records of one run file, in the order they were written."""
    with open(path, "rb") as handle:
        unpickler = pickle.Unpickler(handle)
        while True:
            try:
                name, term, positional, payload = unpickler.load()
            except EOFError:
                return
            if positional:
                packed = array("I")
                packed.frombytes(payload)
                payload = packed
            yield name, term, positional, payload


def _columns(payloads: list[tuple[bool, Any]]) -> tuple[list[int], list[float], list[bytes]]:
    """One term's postings as (docnums, weights, value bytes), from its payloads (in
    docnum order): three lists, which blocks are cut from without a tuple per posting."""
    ids: list[int] = []
    weights: list[float] = []
    values: list[bytes] = []
    single = _single_position
    for positional, payload in payloads:
        if not positional:
            for docnum, weight, value in payload:
                ids.append(docnum)
                weights.append(weight)
                values.append(value)
            continue
        i, end = 0, len(payload)
        while i < end:
            count = payload[i + 1]
            ids.append(payload[i])
            weights.append(float(count))
            # Most terms occur once in a paper: one position, whose encoding is cached.
            values.append(single(payload[i + 2]) if count == 1
                          else _encode_positions(payload[i + 2:i + 2 + count]))
            i += 2 + count
    return ids, weights, values


@lru_cache(maxsize=4096)
def _single_position(pos: int) -> bytes:
    return pack_uint(1) + pickle.dumps([pos], 2)


def _encode_positions(found: Sequence[int]) -> bytes:
    """Whoosh's Positions encoding (count, then pickled deltas), byte for byte."""
    if len(found) == 1:
        return _single_position(found[0])
    deltas, base = [], 0
    for pos in found:
        deltas.append(pos - base)
        base = pos
    return pack_uint(len(deltas)) + pickle.dumps(deltas, 2)


def _fill_block(postwriter, ids: list[int], weights: list[float], values: list[bytes],
                column: Sequence[int] | None) -> None:
    """Load one block's postings into Whoosh's postings writer, as `add_posting` would."""
    lengths: tuple[int | None, int] = (None, 0)
    if column is not None:
        # A posting means the field has words in that paper, so no length here is 0.
        found = list(map(column.__getitem__, ids))
        lengths = (min(found), max(found))
    fill_block(postwriter, ids, weights, [v for v in values if v], lengths)


@dataclass
class TermCounts:
    """Each term's document frequency in each run of a segment's docnums (its lists),
    compactly: the terms once, and per run the indexes of its terms and their counts.
    (A `Counter` a run held every list's terms apart: at 250,000 papers, about a
    hundred megabytes more in each worker.)"""

    terms: list[str]
    runs: list[tuple[array, array]]
    """Per run of docnums: (indexes into `terms`, document frequencies)."""

    def add(self, term: str, starts: Sequence[int], ids: Sequence[int]) -> None:
        """Count `term`, whose postings are the ascending docnums `ids`, in each run of
        docnums beginning at `starts`."""
        index = len(self.terms)
        self.terms.append(term)
        if len(self.runs) == 1:
            self.runs[0][0].append(index)
            self.runs[0][1].append(len(ids))
            return
        before = 0
        for (indexes, counts), start in zip(self.runs, [*starts[1:], None]):
            cut = len(ids) if start is None else bisect_left(ids, start)
            if cut > before:
                indexes.append(index)
                counts.append(cut - before)
            before = cut
