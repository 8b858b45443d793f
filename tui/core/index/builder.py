"""Building an index: parse the lists (in parallel when there are many), then write.

Parsing, rendering, naming and analysing a paper cost far more than Whoosh's writing,
and they are independent per file, so large builds spread them over worker processes
and the parent only feeds finished term lists to a single writer. Docnums follow list
order (files in order, papers by position), which is what an empty query shows.

Next to the index the builder writes small side files (see `sidefiles`):
`prefixes.json` (for each 1–3 letter prefix, the indexed terms it most often starts),
`words.json` (the unstemmed vocabulary, for "did you mean"), each scored field's BM25
length norms, and `order-name.bin` (docnums in name order, so that sorting by name loads
no paper).
"""

from __future__ import annotations

import gc
import json
import os
from array import array
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from whoosh.codec.whoosh3 import W3Codec
from whoosh.filedb.filestore import Storage

from tui.core.index.analysis import words
from tui.core.index.postings import Postings
from tui.core.index.schema import SCORED_FIELDS, document, make_schema
from tui.core.index.norms import norms_for
from tui.core.index.sidefiles import (
    NAME_ORDER_FILE, NORMS_FILE, PREFIX_FANOUT, PREFIX_FILE, PREFIX_SCAN, SHORT_PREFIX,
    WORDS_FILE,
    name_key,
)
from tui.core.lists.parts import Part, merge_summaries, split_parts
from tui.core.lists.reader import open_list
from tui.core.render.plain import rendered_text
from tui.core.whoosh_compat import (
    commit_segments, finish_segment, mark_added, unlocked_segment_writer,
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


@dataclass
class _Written:
    """What a segment's writer reports besides the segment."""

    lists: list[dict[str, object]]
    vocab: set[str]
    lengths: dict[str, array]
    """Each scored field's length per paper."""
    text_df: Counter[str]
    """Document frequency of each `text` term, for the prefix table."""
    name_keys: list[str]
    """Each paper's name-sort key, in docnum order."""

    def merge(self, other: _Written) -> None:
        self.lists += other.lists
        self.name_keys += other.name_keys
        self.vocab |= other.vocab
        for name, column in other.lengths.items():
            self.lengths[name].extend(column)
        self.text_df.update(other.text_df)


def _write_segment(writer, files: list[Part], spill_dir: str | None,
                   progress=None) -> _Written:
    """Parse `files` (whole lists or parts of them) and add their papers to `writer`.

    Postings past a bound are spilled to run files in `spill_dir` (the system's
    temporary folder when None), so memory does not grow with the lists.
    """
    lists, vocab = [], set()
    lengths = {name: array("I") for name in SCORED_FIELDS}
    name_keys: list[str] = []
    postings = Postings(spill_dir=spill_dir)
    try:
        for path in files:
            summary: dict[str, object] = {}
            for doc in _documents(path, summary, vocab):
                _add_prepared(writer, doc, postings)
                name_keys.append(name_key(str(doc["_stored_name"]), str(doc["_stored_title"])))
                for name, column in lengths.items():
                    column.append(len(doc[name]))
            lists.append(summary)
            if progress:
                progress(1)
        # Whoosh's own flush then finds its posting pool empty and only closes the files.
        text_df = postings.write(writer.fieldwriter, writer.schema, lengths)
    finally:
        postings.discard()
    return _Written(lists, vocab, lengths, text_df, name_keys)


def _segment_task(folder: str, files: list[Part], limitmb: int):
    """Worker process: write one segment of the index in `folder` from `files`."""
    from whoosh.filedb.filestore import FileStorage

    # The worker ends with its segment, so cyclic garbage can wait until then; the
    # collector would otherwise walk every posting list again and again.
    gc.disable()
    ix = FileStorage(folder).open_index()
    # The parent holds the index lock and commits every worker's segment at once.
    writer = unlocked_segment_writer(ix, limitmb=limitmb, compound=False, codec=make_codec())
    try:
        written = _write_segment(writer, files, folder)
        segment = finish_segment(writer)
    except BaseException:
        writer.cancel()
        raise
    return segment, written


def build_into(storage: Storage, files: list[Path],
               progress: Callable[[int, int], None] | None = None) -> dict[str, object]:
    """Build the index of `files` into `storage`; returns the index's metadata.

    Large builds on disk run one worker per core, each writing a segment from a
    contiguous run of files; small builds, and builds in memory, run in-process.
    """
    ix = storage.create_index(make_schema())
    cores = os.cpu_count() or 1
    # A large JSON Lines file is cut into a part per core, read side by side.
    parts = split_parts(files, cores, _PARALLEL_BYTES) if hasattr(storage, "folder") \
        else [Part(f) for f in files]
    total = len(parts)
    done = 0

    def advance(n: int) -> None:
        nonlocal done
        done += n
        if progress:
            progress(done, total)

    workers = min(cores, len(parts))
    big = sum(p.size for p in parts) >= _PARALLEL_BYTES
    # Separate files, not one compound file per segment: Whoosh opens a compound file
    # by copying it into memory, which costs a cold search tens of milliseconds.
    writer = ix.writer(limitmb=_LIMIT_MB, compound=False, codec=make_codec())
    try:
        if workers > 1 and big and hasattr(storage, "folder"):
            runs = _split(parts, workers)
            segments = []
            written = _Written([], set(), {name: array("I") for name in SCORED_FIELDS},
                               Counter(), [])
            with ProcessPoolExecutor(max_workers=len(runs)) as pool:
                futures = [pool.submit(_segment_task, storage.folder, run,
                                       _LIMIT_MB // len(runs)) for run in runs]
                for run, future in zip(runs, futures):
                    segment, run_written = future.result()
                    segments.append(segment)
                    written.merge(run_written)
                    advance(len(run))
            commit_segments(writer, segments)
        else:
            written = _write_segment(writer, parts, getattr(storage, "folder", None), advance)
            writer.commit()
    except BaseException:
        writer.cancel()
        raise
    written.lists = merge_summaries(written.lists)
    papers = sum(int(s["papers"]) for s in written.lists)
    _write_json(storage, PREFIX_FILE, _prefix_table(written.text_df))
    _write_json(storage, WORDS_FILE, sorted(w for w in written.vocab if w.isalpha()))
    for name, column in written.lengths.items():
        _write_bytes(storage, NORMS_FILE.format(name), norms_for(column).tobytes())
    keys = written.name_keys
    order = array("I", sorted(range(len(keys)), key=lambda d: (keys[d], d)))
    _write_bytes(storage, NAME_ORDER_FILE, order.tobytes())
    return {"papers": papers, "lists": written.lists}


def _prefix_table(text_df: Counter[str]) -> dict[str, list[str]]:
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


def _write_json(storage: Storage, name: str, value: object) -> None:
    _write_bytes(storage, name, json.dumps(value, ensure_ascii=False).encode("utf-8"))


def _write_bytes(storage: Storage, name: str, data: bytes) -> None:
    handle = storage.create_file(name)
    try:
        handle.write(data)
    finally:
        handle.close()


