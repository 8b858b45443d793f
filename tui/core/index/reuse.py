"""Which segments of a previous index a new build can take as they are.

An index is written as a few segments, each from a contiguous run of lists, and its
meta records them in blocks: the fewest consecutive segments that hold whole lists
(a large JSON Lines file cut into parts can span segments), with each list's name and
content digest. When the lists change, the index is built again in a new folder, but a
block whose lists are all still there, unchanged and in the same order, is taken from
the previous folder as it is: its files are hard-linked, not rebuilt. Only the lists
no block covers are parsed and analysed.

Every segment is looked up for every term a search reads, so their number is bounded:
past `MAX_SEGMENTS`, the two neighbouring pieces (reused blocks or lists to build) that
are smallest together are built again as one, which is how lists added one at a time
end up in a segment of their own size class.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

MAX_SEGMENTS = 10
"""The most segments a build leaves (see the module's docstring)."""
TARGET_SEGMENTS = 6
"""How many segments a build of every list cuts the lists into, at the least: the
finer the cut, the less a changed list brings along to be analysed again, and the more
segments a search looks terms up in."""

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
    """Each list's summary, as the index meta keeps it."""

    def to_json(self) -> dict[str, object]:
        return {"files": [list(k) for k in self.files], "segments": self.segments,
                "papers": self.papers, "size": self.size, "lists": self.lists}

    @classmethod
    def from_json(cls, raw: dict[str, object]) -> Block:
        return cls([(str(n), str(d)) for n, d in raw["files"]],  # type: ignore[union-attr]
                   [str(s) for s in raw["segments"]],  # type: ignore[union-attr]
                   int(raw["papers"]), int(raw["size"]),  # type: ignore[arg-type]
                   list(raw["lists"]))  # type: ignore[arg-type]


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
    size: int = 0

    @property
    def segments(self) -> int:
        return len(self.block.segments) if self.block else 1


def plan(keys: list[FileKey], sizes: list[int], previous: Previous | None) -> list[Piece]:
    """The build's pieces in list order: blocks of `previous` to reuse, and runs of lists
    (positions in `keys`) to build, at most `MAX_SEGMENTS` in all."""
    starts: dict[FileKey, list[Block]] = {}
    for block in previous.blocks if previous else ():
        if block.files:
            starts.setdefault(block.files[0], []).append(block)
    pieces: list[Piece] = []
    i = 0
    while i < len(keys):
        block = next((b for b in starts.get(keys[i], ())
                      if keys[i:i + len(b.files)] == b.files), None)
        if block is not None:
            starts[keys[i]].remove(block)  # a list given twice is built the second time
            pieces.append(Piece(block, list(range(i, i + len(block.files))), block.size))
            i += len(block.files)
            continue
        if not pieces or pieces[-1].block is not None:
            pieces.append(Piece())
        pieces[-1].files.append(i)
        pieces[-1].size += sizes[i]
        i += 1
    _bound(pieces)
    return pieces


def _bound(pieces: list[Piece]) -> None:
    """Fold the smallest neighbours into one piece to build until few enough remain."""
    while sum(p.segments for p in pieces) > MAX_SEGMENTS and len(pieces) > 1:
        at = min(range(len(pieces) - 1), key=lambda k: pieces[k].size + pieces[k + 1].size)
        left, right = pieces[at], pieces[at + 1]
        pieces[at:at + 2] = [Piece(files=left.files + right.files, size=left.size + right.size)]


def read_previous(root: Path, keep: str, usable) -> Previous | None:
    """The index folder in `root` (other than `keep`) with the most papers that `usable`
    (its meta → bool) accepts, with its blocks; None when there is none."""
    best: Previous | None = None
    best_papers = -1
    with contextlib.suppress(OSError):
        for child in root.iterdir():
            if child.name == keep or not child.name.startswith("ix-"):
                continue
            try:
                meta = json.loads((child / "paperscope.json").read_text(encoding="utf-8"))
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
