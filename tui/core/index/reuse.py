"""Which segments of a previous index a new build can take as they are.

An index is written as a few segments, each from a contiguous run of lists, and its
meta records them in blocks: the fewest consecutive segments that hold whole lists
(a large JSON Lines file cut into parts can span segments), with each list's name and
content digest. When the lists change, the index is built again in a new folder, but a
block whose lists are still there and unchanged, in whatever order, is taken from the
previous folder as it is: its files are hard-linked, not rebuilt. Only the lists no
block covers are parsed and analysed.

A block some of whose lists were removed (or changed: the old version is removed and
the new one built as a list of its own) is still taken, its removed lists' papers
marked deleted in the new index's table of contents (Whoosh keeps a segment's deleted
documents there, not in the segment's files, so the previous index is not touched);
every read leaves deleted documents out. Docnums then no longer follow list order:
the new version of a changed list is written after the block it was in, and the index
records its papers' list order beside it (`sidefiles.LIST_ORDER_FILE`). Removed papers
take room and stay in the collection statistics Whoosh keeps (a term's document
frequency, which the reads that need it exactly recount from postings), so a block
whose removed papers would be more than `COMPACT_SHARE` of it is built again from its
remaining lists instead (compaction).

Every segment is looked up for every term a search reads (at 21k papers, each segment
beyond two added about 1.8 ms to a query whose postings were not yet cached), so their
number is bounded: a build of every list makes one segment per `SEGMENT_BYTES` of lists
(at least one per core, at most `MOST_SEGMENTS`; one below `SMALL_BYTES`), and builds
that add lists may leave `SLACK` more; past that, the two neighbouring pieces (reused
blocks or lists to build) that are smallest together are built again as one, which is
how lists added one at a time end up in a segment of their own size class. A small
library thus keeps the few segments, and the fast searches, it had; a large one, whose
searches spend most of their time reading postings anyway, is cut finer, so that a
changed list brings less along to analyse.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

SMALL_BYTES = 2_000_000
"""Lists of less text than this are built as one segment: it takes about a second."""
SEGMENT_BYTES = 32_000_000
"""List text per segment in a build of every list (about 28,000 abstracts)."""
MOST_SEGMENTS = 8
"""The most segments a build of every list cuts the lists into."""
SLACK = 4
"""How many segments more than that builds which add lists may leave."""
COMPACT_SHARE = 0.25
"""A block whose removed papers would be more than this share of its papers is built
again from its remaining lists: deleted documents cost every read that skips them."""

FileKey = tuple[str, str]
"""A list file's name and content digest, as the fingerprint takes them."""


@dataclass
class Block:
    """Consecutive segments of an index that hold whole lists."""

    files: list[FileKey]
    segments: list[str]
    """The segments' ids (Whoosh's `<index name>_<segid>`), in docnum order."""
    papers: int
    size: int
    """The lists' size in bytes."""
    lists: list[dict[str, object]]
    """Each list's summary, as the index meta keeps it (removed lists' too)."""
    removed: list[int] = field(default_factory=list)
    """The positions in `files` of the lists removed since the block was written:
    their papers are deleted documents."""
    positions: list[int | None] = field(default_factory=list)
    """Each list's position in this build's list of files (None when removed); not
    kept in the meta."""

    def to_json(self) -> dict[str, object]:
        """The block as the index meta keeps it."""
        return {"files": [list(k) for k in self.files], "segments": self.segments,
                "papers": self.papers, "size": self.size, "lists": self.lists,
                "removed": self.removed}

    @classmethod
    def from_json(cls, raw: dict[str, object]) -> Block:
        """A block from the index meta; raises on anything malformed."""
        return cls([(str(n), str(d)) for n, d in raw["files"]],  # type: ignore[union-attr]
                   [str(s) for s in raw["segments"]],  # type: ignore[union-attr]
                   int(raw["papers"]), int(raw["size"]),  # type: ignore[arg-type]
                   list(raw["lists"]),  # type: ignore[arg-type]
                   [int(i) for i in raw["removed"]])  # type: ignore[union-attr]

    def counts(self) -> list[int]:
        """Each list's paper count, in docnum order."""
        return [int(s["papers"]) for s in self.lists]  # type: ignore[arg-type]


@dataclass
class Previous:
    """A previous index folder and its blocks."""

    folder: Path
    blocks: list[Block]


@dataclass
class Piece:
    """One piece of a build's plan: a block reused, or lists (by position) to build."""

    block: Block | None = None
    files: list[int] = field(default_factory=list)
    """The positions of its lists in the build's list of files."""
    kept: list[int] = field(default_factory=list)
    """For a reused block, the position in the block of each of `files`."""
    size: int = 0
    folded: bool = False
    """Made of smaller pieces to bound the segments: built as one segment."""

    def segments(self, total: int, cores: int) -> int:
        """How many segments the piece is (reused) or will be (built): a list is cut
        only when it is a large JSON Lines file, which this count does not foresee."""
        if self.block:
            return len(self.block.segments)
        if self.folded:
            return 1
        return min(runs_for(self.size, total, cores), len(self.files))


def target_segments(total: int, cores: int) -> int:
    """How many segments a build of every list, `total` bytes of them, cuts them into."""
    if total < SMALL_BYTES:
        return 1
    return min(MOST_SEGMENTS, max(cores, math.ceil(total / SEGMENT_BYTES)))


def runs_for(size: int, total: int, cores: int) -> int:
    """How many segments `size` bytes of lists to build are cut into, at the most, in a
    build of lists of `total` bytes: their share of `target_segments`, and one per core
    when that many lists are worth parallel workers."""
    count = max(1, round(target_segments(total, cores) * size / (total or 1)))
    return max(count, cores) if size >= SMALL_BYTES else count


def max_segments(total: int, cores: int) -> int:
    """The most segments a build of lists of `total` bytes leaves."""
    return target_segments(total, cores) + SLACK


def plan(keys: list[FileKey], sizes: list[int], previous: Previous | None,
         cores: int) -> list[Piece]:
    """The build's pieces: blocks of `previous` to reuse, each taking the lists (by
    position in `keys`) it still holds, and runs of the other lists to build, in the
    order of their first list, at most `max_segments` in all."""
    holders: dict[FileKey, list[tuple[Block, int]]] = {}
    for block in previous.blocks if previous else ():
        for at, key in enumerate(block.files):
            if at not in block.removed:
                holders.setdefault(key, []).append((block, at))
    taken: dict[int, list[tuple[int, int]]] = {}
    blocks: dict[int, Block] = {}
    for i, key in enumerate(keys):
        if holders.get(key):  # a list given twice is built the second time
            block, at = holders[key].pop(0)
            taken.setdefault(id(block), []).append((i, at))
            blocks[id(block)] = block
    pieces: list[Piece] = []
    for ident, pairs in taken.items():
        block = blocks[ident]
        counts = block.counts()
        if block.papers - sum(counts[at] for _, at in pairs) > COMPACT_SHARE * block.papers:
            continue  # compaction: its remaining lists are built again
        pieces.append(Piece(block, [i for i, _ in pairs], [at for _, at in pairs],
                            sum(sizes[i] for i, _ in pairs)))
    reused = {i for piece in pieces for i in piece.files}
    for i in range(len(keys)):
        if i in reused:
            continue
        if i == 0 or i - 1 in reused:
            pieces.append(Piece())
        pieces[-1].files.append(i)
        pieces[-1].size += sizes[i]
    pieces.sort(key=lambda p: min(p.files))
    _bound(pieces, sum(sizes), cores)
    return pieces


def _bound(pieces: list[Piece], total: int, cores: int) -> None:
    """Fold the smallest neighbours into one piece to build until few enough remain."""
    most = max_segments(total, cores)
    while sum(p.segments(total, cores) for p in pieces) > most and len(pieces) > 1:
        at = min(range(len(pieces) - 1), key=lambda k: pieces[k].size + pieces[k + 1].size)
        left, right = pieces[at], pieces[at + 1]
        pieces[at:at + 2] = [Piece(files=sorted(left.files + right.files),
                                   size=left.size + right.size, folded=True)]


def read_previous(root: Path, keep: str, meta_name: str,
                  usable: Callable[[Path, dict[str, object]], bool]) -> Previous | None:
    """The index folder in `root` (other than `keep`) with the most papers that `usable`
    (folder, meta → bool) accepts, with its blocks; None when there is none. `meta_name`
    is the meta file's name in an index folder."""
    best: Previous | None = None
    best_papers = -1
    with contextlib.suppress(OSError):
        for child in root.iterdir():
            if child.name == keep or not child.name.startswith("ix-"):
                continue
            try:
                meta = json.loads((child / meta_name).read_text(encoding="utf-8"))
                if not usable(child, meta):
                    continue
                blocks = [Block.from_json(b) for b in meta["blocks"]]
            except (OSError, ValueError, KeyError, TypeError):
                continue
            papers = sum(b.papers for b in blocks)
            if papers > best_papers:
                best, best_papers = Previous(child, blocks), papers
    return best


def link_files(source: Path, target: Path, segment_ids: list[str]) -> None:
    """Hard-link (or, across devices, copy) every file of the segments `segment_ids`
    from the index folder `source` into `target`."""
    prefixes = tuple(f"{s}." for s in segment_ids)
    names = [n for n in os.listdir(source) if n.startswith(prefixes)]
    found = {n.split(".", 1)[0] for n in names}
    missing = [s for s in segment_ids if s not in found]
    if missing:
        raise FileNotFoundError(f"{source}: no files of segment {missing[0]}")
    for name in names:
        try:
            os.link(source / name, target / name)
        except FileNotFoundError:
            raise
        except OSError:
            shutil.copyfile(source / name, target / name)
