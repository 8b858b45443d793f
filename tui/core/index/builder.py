"""Building an index: parse the lists (in parallel when there are many), then write.

Parsing, rendering, naming and analysing a paper cost far more than Whoosh's writing,
and they are independent per file, so large builds spread them over worker processes
and the parent only commits the segments they write. Docnums follow list order (files
in order, papers by position), which is what an empty query shows: segments are
contiguous runs of lists, committed in list order.

A build of every list cuts them into a few runs (`reuse.target_segments`); a build
that follows another in the same index root takes the previous index's segments whose
lists are unchanged as they are (see `reuse`) and writes segments only for the rest.
Lists removed from a reused segment stay in it as deleted documents, and a changed
list's new version comes after that segment, so docnums then depart from list order:
the build records the list order (see `removed`) for the reads to follow.

Next to the index the builder writes small side files (see `sidefiles`), merged from
each segment's record (see `sidedata`): `prefixes.json` (for each 1–3 letter prefix,
the indexed terms it most often starts), `words.json` (the unstemmed vocabulary, for
"did you mean"), each scored field's BM25 length norms, and `order-name.bin` (docnums
in name order, so that sorting by name loads no paper). With the norms known, it then
weighs each new segment's lists (`impactfiles`).
"""

from __future__ import annotations

import gc
import math
import os
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from whoosh.codec.whoosh3 import W3Codec
from whoosh.filedb.filestore import FileStorage, Storage

from tui.core.index import prefixtops, sidedata
from tui.core.index.analysis import words
from tui.core.index.impactfiles import weigh_segments
from tui.core.index.postarrays import ArraysWriter
from tui.core.index.postings import Postings
from tui.core.index.reuse import (
    Block, FileKey, Piece, Previous, link_files, plan, runs_for,
)
from tui.core.index.reweigh import unweighed
from tui.core.index.schema import document, make_schema
from tui.core.index.removed import list_order, mark_deleted
from tui.core.index.sidedata import PartData, SegmentData, write_side_files
from tui.core.index.sidefiles import name_key
from tui.core.lists.parts import Part, merge_summaries, split_parts
from tui.core.lists.reader import open_list
from tui.core.render.plain import rendered_text
from tui.core.whoosh_compat import (
    commit_segments, finish_segment, mark_added, toc_segments, unlocked_segment_writer,
)

_PARALLEL_BYTES = 2_000_000
"""Below this much list text, starting worker processes costs more than it saves."""
_LIMIT_MB = 256
"""Whoosh's posting pool, which stays empty: postings go through `postings.Postings`."""


def _documents(part: Part, summary: dict[str, object],
               vocab: set[str]) -> Iterator[dict[str, object]]:
    """The Whoosh documents of one list (or part of one), one at a time, adding its
    words to `vocab`.

    Streamed: a JSON Lines snapshot of millions of records never has more than one
    paper's document in memory. `summary` gets the list's title, paper count and what
    was skipped once the documents are exhausted (`parts.merge_summaries` makes one
    summary of a file's parts).
    """
    stream = open_list(part)
    count = 0
    for paper in stream.papers:
        text = rendered_text(paper.raw)
        vocab.update(words(text))
        count += 1
        yield document(paper, text)
    summary.update(title=stream.title, file=stream.file, path=stream.path, papers=count,
                   tally=stream.tally, part=not part.whole)


def make_codec() -> W3Codec:
    """Whoosh's codec with larger, uncompressed posting blocks.

    The scorer reads whole posting lists, so it gains nothing from small blocks or
    from skipping, while every block costs a pickle, and compression costs a zlib call,
    when writing and again when reading.
    """
    return W3Codec(blocklimit=512, compression=0)


def _split(parts: list[Part], runs: int) -> list[list[Part]]:
    """Cut `parts` into up to `runs` contiguous runs of about equal size in bytes.

    Contiguous, so that the segments written from them keep list order in docnums.
    """
    sizes = [p.size for p in parts]
    target = sum(sizes) / runs
    out: list[list[Part]] = [[]]
    filled = 0.0
    for part, size in zip(parts, sizes):
        if out[-1] and filled >= target * len(out) and len(out) < runs:
            out.append([])
        out[-1].append(part)
        filled += size
    return out


def _add_prepared(writer, doc: dict[str, object], postings: Postings) -> None:
    """Whoosh's `add_document` for documents whose text fields are term lists.

    It writes the same stored fields and lengths, and collects the same postings in
    `postings`, but skips what pre-analysed terms do not need (a Token object per word,
    a generator per field, a size estimate and a pool tuple per posting), which is
    most of the writer's cost per document.
    """
    schema, perdoc, docnum = writer.schema, writer.perdocwriter, writer.docnum
    perdoc.start_doc(docnum)
    for name in sorted(k for k in doc if not k.startswith("_")):
        field, value = schema[name], doc[name]
        length = 0
        if field.indexed and isinstance(value, list):
            postings.add_terms(name, docnum, value)
            length = len(value)
        elif field.indexed:
            postings.add_encoded(name, docnum, ((tbytes, weight, vbytes)
                                                for tbytes, _, weight, vbytes in field.index(value)))
        stored = doc.get(f"_stored_{name}", value)
        perdoc.add_field(name, field, stored if field.stored else None, length)
    perdoc.finish_doc()
    mark_added(writer)
    writer.docnum += 1


def _write_segment(writer, files: list[Part], spill_dir: str | None,
                   progress=None) -> tuple[SegmentData, list[dict[str, object]]]:
    """Parse `files` (whole lists or parts of them) and add their papers to `writer`;
    returns what they give the side files and each list's (or part's) summary.

    Postings past a bound are spilled to run files in `spill_dir` (the system's
    temporary folder when None), so memory does not grow with the lists.
    """
    lists: list[dict[str, object]] = []
    data = SegmentData()
    starts: list[int] = []
    postings = Postings(spill_dir=spill_dir)
    word_ids: dict[str, int] = {}
    try:
        for path in files:
            summary: dict[str, object] = {}
            part = PartData()
            vocab: set[str] = set()
            starts.append(writer.docnum)
            for doc in _documents(path, summary, vocab):
                _add_prepared(writer, doc, postings)
                data.name_keys.append(name_key(str(doc["_stored_name"]),
                                               str(doc["_stored_title"])))
                for name, column in data.lengths.items():
                    column.append(len(doc[name]))
            part.papers = writer.docnum - starts[-1]
            part.words.extend(word_ids.setdefault(w, len(word_ids)) for w in vocab)
            data.parts.append(part)
            lists.append(summary)
            if progress:
                progress(1)
        # Whoosh's own flush then finds its posting pool empty and only closes the files.
        with ArraysWriter(writer.storage, writer.newsegment.segment_id(),
                          list(data.lengths)) as arrays:
            counts = postings.write(writer.fieldwriter, writer.schema, data.lengths,
                                    starts=starts or [0], arrays=arrays)
        data.words, data.terms = list(word_ids), counts.terms
        for part, (terms, frequencies) in zip(data.parts, counts.runs):
            part.terms, part.counts = terms, frequencies
    finally:
        postings.discard()
    return data, lists


def _new_segment(ix, files: list[Part], limitmb: int, spill_dir: str | None,
                 progress=None):
    """Write one segment of `ix` from `files`, to be committed by the caller."""
    # The caller holds the index lock and commits every segment at once.
    writer = unlocked_segment_writer(ix, limitmb=limitmb, compound=False, codec=make_codec())
    try:
        data, lists = _write_segment(writer, files, spill_dir, progress)
        segment = finish_segment(writer)
        sidedata.save(ix.storage, segment.segment_id(), data)
    except BaseException:
        writer.cancel()
        raise
    return segment, data, lists


def _segment_task(folder: str, files: list[Part], limitmb: int):
    """Worker process: write one segment of the index in `folder` from `files`."""
    from whoosh.filedb.filestore import FileStorage

    # The worker ends with its segment, so cyclic garbage can wait until then; the
    # collector would otherwise walk every posting list again and again.
    gc.disable()
    segment, _, lists = _new_segment(FileStorage(folder).open_index(), files, limitmb, folder)
    # The segment's record is saved beside it; sent back as well, it would have the
    # parent hold every segment's record at once (at a million papers, 8 × 125,000
    # name keys) before merging them.
    return segment, None, lists


@dataclass
class _Run:
    """Parts of lists written as one segment, within one piece of the plan."""

    piece: int
    parts: list[Part]
    files: list[int]
    """The position in the build's list of the file each part comes from."""


def _runs(pieces: list[Piece], files: list[Path], on_disk: bool, cores: int) -> list[_Run]:
    """The segments to write: each piece to build cut into contiguous runs of parts."""
    total = sum(p.size for p in pieces)
    runs: list[_Run] = []
    for number, piece in enumerate(pieces):
        if piece.block is not None:
            continue
        # A build of every list is cut in `target_segments` runs, so that a changed
        # list brings along only its run; a run of new lists, by its share of the whole.
        count = runs_for(piece.size, total, cores) if on_disk and not piece.folded else 1
        # A large JSON Lines file is cut in parts by its share of those runs (one per
        # core at least), so that its records make segments of the same size as the
        # same bytes of other lists would: two halves of a snapshot would make two
        # segments several times larger, slower to write (more spilled runs to
        # merge) and harder to share evenly between the workers.
        tagged = [(part, i) for i in piece.files
                  for part in (split_parts([files[i]], _parts(files[i], count, piece.size,
                                                              cores), _PARALLEL_BYTES)
                               if on_disk else [Part(files[i])])]
        start = 0
        for cut in _split([part for part, _ in tagged], min(count, len(tagged))):
            chunk = tagged[start:start + len(cut)]
            start += len(cut)
            runs.append(_Run(number, [p for p, _ in chunk], [i for _, i in chunk]))
    return runs


def _parts(path: Path, runs: int, size: int, cores: int) -> int:
    """How many parts a file of a piece of `size` bytes cut in `runs` runs is read as,
    if it can be cut at all (see `split_parts`)."""
    return max(cores, math.ceil(runs * path.stat().st_size / (size or 1)))


def build_into(storage: Storage, files: list[Path],
               progress: Callable[[int, int], None] | None = None,
               keys: list[FileKey] | None = None,
               previous: Previous | None = None) -> dict[str, object]:
    """Build the index of `files` into `storage`; returns the index's metadata.

    `keys` are the files' names and content digests; with them, the metadata records
    which segments hold which lists, and the blocks of the `previous` index (a folder
    next to `storage`'s) whose lists are unchanged are linked in rather than built
    (see `reuse`). Large builds on disk run one worker per core, each writing segments
    from contiguous runs of files; small builds, and builds in memory, run in-process.
    """
    ix = storage.create_index(make_schema())
    folder = getattr(storage, "folder", None)
    cores = os.cpu_count() or 1
    pieces = plan(keys or [(f.name, "") for f in files], [f.stat().st_size for f in files],
                  previous if keys and folder else None, cores)
    runs = _runs(pieces, files, folder is not None, cores)
    total = sum(len(r.parts) for r in runs)
    done = 0

    def advance(n: int) -> None:
        nonlocal done
        done += n
        if progress:
            progress(done, total)

    for piece in pieces:
        if piece.block is not None:
            link_files(previous.folder, Path(folder), piece.block.segments)  # type: ignore
    workers = min(cores, len(runs))
    big = sum(p.size for r in runs for p in r.parts) >= _PARALLEL_BYTES
    written = []
    # Separate files, not one compound file per segment: Whoosh opens a compound file
    # by copying it into memory, which costs a cold search tens of milliseconds.
    writer = ix.writer(limitmb=_LIMIT_MB, compound=False, codec=make_codec())
    try:
        if workers > 1 and big and folder is not None:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                futures = [pool.submit(_segment_task, folder, run.parts, _LIMIT_MB // workers)
                           for run in runs]
                for run, future in zip(runs, futures):
                    written.append(future.result())
                    advance(len(run.parts))
        else:
            written = [_new_segment(ix, run.parts, _LIMIT_MB, folder, advance) for run in runs]
        blocks = _blocks(storage, pieces, runs, written, keys, files)
        new = {seg.segment_id(): seg for seg, _, _ in written}
        if previous is not None and any(p.block for p in pieces):
            new.update(toc_segments(FileStorage(str(previous.folder)).open_index()))
        order, dead, lists = list_order(blocks)
        segments = [new[s] for b in blocks for s in b.segments]
        mark_deleted(segments, dead)
        commit_segments(writer, segments)
    except BaseException:
        writer.cancel()
        raise
    data = SegmentData()
    fresh = {seg.segment_id(): d for seg, d, _ in written if d is not None}
    for block in blocks:
        for segment_id in block.segments:
            data.merge(fresh[segment_id] if segment_id in fresh
                       else sidedata.load(storage, segment_id), dead)
    norms, prefixes = write_side_files(storage, data, order, dead)
    del data, fresh
    # Here, with the workers gone: while they lived, their memory and the parent's
    # merged records would add up to a third more than the build's peak otherwise.
    fresh_ids = {seg.segment_id() for seg, _, _ in written}
    weigh_segments(storage, segments, fresh_ids, norms)
    prefixtops.write(storage, norms, prefixes)  # scored with the impacts just written
    return {"papers": len(order), "docnums": len(dead), "lists": lists,
            "blocks": [b.to_json() for b in blocks] if keys else [],
            "unweighed": unweighed(segments, fresh_ids)}


def _blocks(storage: Storage, pieces: list[Piece], runs: list[_Run], written: list,
            keys: list[FileKey] | None, files: list[Path]) -> list[Block]:
    """The index's blocks in docnum order: the reused ones, with their lists' paths as
    given now, and the new segments grouped where a list spans two."""
    blocks: list[Block] = []
    last_piece, last_file = -1, -1
    for run, (segment, _, lists) in zip(runs, written):
        for number in range(last_piece + 1, run.piece):
            if pieces[number].block is not None:
                blocks.append(_reused(pieces[number], files))
        if run.piece == last_piece and run.files[0] == last_file:
            block = blocks[-1]  # a list cut in parts that two runs share
        else:
            block = Block([], [], 0, 0, [])
            blocks.append(block)
        block.segments.append(segment.segment_id())
        for i in run.files:
            key = keys[i] if keys else (files[i].name, "")
            if i != last_file:
                block.files.append(key)
                block.positions.append(i)
                block.size += files[i].stat().st_size
            last_file = i
        block.lists += lists
        last_piece = run.piece
    for number in range(last_piece + 1, len(pieces)):
        if pieces[number].block is not None:
            blocks.append(_reused(pieces[number], files))
    for block in blocks:
        if any("tally" in s for s in block.lists):  # a new block: one summary per file
            block.lists = merge_summaries(block.lists)
            block.papers = sum(block.counts())
    return blocks


def _reused(piece: Piece, files: list[Path]) -> Block:
    """A reused block: its lists' positions and paths as given to this build, and the
    lists it no longer holds removed."""
    block = piece.block
    assert block is not None
    positions: list[int | None] = [None] * len(block.files)
    lists = list(block.lists)
    for i, at in zip(piece.files, piece.kept):
        positions[at] = i
        lists[at] = dict(lists[at], path=str(files[i]))
    removed = [at for at, where in enumerate(positions) if where is None]
    return Block(block.files, block.segments, block.papers, block.size, lists, removed,
                 positions)
