"""Every use of a private name of Whoosh, in one place.

paperscope reads postings a block at a time (the scorer, and the positions of a few
papers for proximity), writes them a block at a time
(the builder), commits segments that worker processes wrote, and bounds wildcard
expansion; Whoosh has no public API for any of these. Each function here stands for one
such touch, written against whoosh-reloaded 2.7.x (its W3 codec). tests/test_compat.py
checks each name against the installed Whoosh, so that an upgrade that moves one fails
there, by name, rather than deep inside a build or a search.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from itertools import accumulate, islice

TYPE_CHECKING = False  # as typing's: a cold search need not import typing (2 ms)
if TYPE_CHECKING:  # the writer's module is only needed by a build
    from whoosh import query as wq
    from whoosh.writing import SegmentWriter


def posting_blocks(matcher, base: int = 0) -> Iterator[tuple[array, Sequence[float]]]:
    """A leaf matcher's postings as (docnums + `base`, weights) blocks, decoded a block
    at a time.

    The W3 codec keeps a block's docnums as gaps; Whoosh sums them back one Python
    generator step per posting. Here the sums, with `base` added, are taken at C speed
    (`itertools.accumulate`). Raises AttributeError at once for a matcher of another
    codec, before yielding.
    """
    read_ids, read_weights = matcher._read_ids, matcher._read_weights
    read_data, next_block = matcher._read_data, matcher._next_block
    gaps = not matcher._byteids
    while matcher.is_active():
        if gaps:
            if matcher._data is None:
                read_data()
            ids = array("i", islice(accumulate(matcher._data[0], initial=base), 1, None))
        else:
            read_ids()
            ids = array("i", [d + base for d in matcher._ids])
        read_weights()
        yield ids, matcher._weights
        next_block()


def block_positions(matcher, wanted: Sequence[int]) -> Iterator[tuple[int, Sequence[int]]]:
    """(docnum, positions) for each of `wanted` (ascending, the segment's numbering)
    that a leaf matcher holds.

    Whoosh's `skip_to` steps through a block one posting at a time; here a block is
    decoded only when its docnum range can hold a wanted docnum, and the wanted ones are
    found in it by bisection; the positions are then the public `value_as`'s.
    """
    gaps = not matcher._byteids
    w, count = 0, len(wanted)
    while w < count and matcher.is_active():
        if wanted[w] > matcher._maxid:
            matcher._next_block()
            continue
        if gaps:
            if matcher._data is None:
                matcher._read_data()
            ids = list(accumulate(matcher._data[0]))
        else:
            matcher._read_ids()
            ids = matcher._ids
        low, top = 0, len(ids)
        while w < count and wanted[w] <= matcher._maxid:
            at = bisect_left(ids, wanted[w], low, top)
            if at < top and ids[at] == wanted[w]:
                matcher._i = at
                yield wanted[w], matcher.value_as("positions")
            low, w = at, w + 1
        if w < count:
            matcher._next_block()


def deleted_docnums(leaf) -> frozenset[int]:
    """A segment reader's deleted docnums (in the segment's numbering)."""
    return leaf.deleted_docs_set if leaf.has_deletions() else frozenset()


def unfiltered_postings(leaf, fieldname: str, text: str):
    """A segment reader's matcher of a term's postings, deleted documents included:
    Whoosh otherwise wraps the matcher in one that skips them a posting at a time,
    which has no blocks to read."""
    matcher = leaf.postings(fieldname, text)
    return matcher.child if deleted_docnums(leaf) else matcher


def block_writer(fieldwriter):
    """The W3 field writer's postings writer, which `fill_block` and `write_block` use."""
    return fieldwriter._postwriter


def block_limit(postwriter) -> int:
    """How many postings the postings writer puts in one block."""
    return postwriter._blocklimit


def fill_block(postwriter, ids: Sequence[int], weights: Sequence[float], values: list[bytes],
               lengths: tuple[int | None, int]) -> None:
    """Load one block's postings into the postings writer, as `add_posting` would.

    `lengths` is the block's (shortest, longest) field length, (None, 0) for a field
    without lengths.
    """
    postwriter._ids = array("I", ids)
    postwriter._weights = array("f", weights)
    postwriter._values = values
    postwriter._maxweight = max(0, max(weights))
    postwriter._minlength, postwriter._maxlength = lengths


def write_block(postwriter) -> None:
    """Write the loaded block out and start an empty one."""
    postwriter._write_block()


def mark_added(writer: SegmentWriter) -> None:
    """Tell the writer that documents were added (as `add_document` does), so that it
    writes a segment when committed."""
    writer._added = True


def unlocked_segment_writer(ix, **options) -> SegmentWriter:
    """A segment writer that does not take the index's lock (its parent holds it)."""
    from whoosh.writing import SegmentWriter

    return SegmentWriter(ix, _lk=False, **options)


def finish_segment(writer: SegmentWriter):
    """Close `writer`'s segment and give it back, to be committed by another writer."""
    return writer._finalize_segment()


def commit_segments(writer: SegmentWriter, segments: list) -> None:
    """Commit `segments` (from `finish_segment`) as the index's content, through `writer`."""
    writer._close_segment()
    writer._commit_toc(segments)
    writer._finish()


def toc_segments(ix) -> dict[str, object]:
    """The segments an index's table of contents names, by segment id
    (`<index name>_<segid>`, the prefix of each of the segment's file names)."""
    return {segment.segment_id(): segment for segment in ix._segments()}


def wildcard_terms(pattern: wq.Wildcard, reader) -> Iterator[bytes | str]:
    """The index terms a wildcard matches, in term order, read lazily."""
    return pattern._btexts(reader)


def stem_exceptions() -> dict[str, str]:
    """The words Whoosh's Porter2 stemmer maps by its table rather than by its rules,
    with their stems (e.g. "dying" → "die")."""
    from whoosh.lang.porter2 import exceptional_forms

    return dict(exceptional_forms)
