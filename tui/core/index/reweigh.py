"""Impacts weighed again for the segments a grown library took over, off the reader's
path: in a process of its own, once the new index is in place.

A build that takes segments over from the previous index (a list added to, changed in
or removed from the library: `reuse`) weighs only its new segments (`impactfiles`):
weighing every list again would cost adding a list what weighing the whole library
costs (about 9 s of a core at 250,000 papers, against about 2 s to index a
2,000-paper list). But the average lengths moved, so the segments taken over no longer
fit their impacts files, and the scorer weighs their lists as it reads them: a third
to a half more time on a long list's first use. Unless the library is small enough
for that not to matter (`REWEIGH_FROM`), the build then starts this module as a
process of its own (`start`), at low priority, which weighs those segments again
with the new index's norms.

Each file is written under a temporary name and renamed over the old one only if it
is the same size, which the index's size check holds it to (`opening`). A reader sees
the old file (which does not fit, and is not read) or the new one, never a mix. A
library that changes again meanwhile gets a new index folder (`opening`), so this
one's work is moot there, not wrong: its files do not fit the newer norms.

`python -m tui.core.index.reweigh FOLDER` runs it on the index in FOLDER.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterable
from pathlib import Path

from tui.core.index.impactfiles import EXT, SegmentImpacts, write_impacts
from tui.core.index.postarrays import SegmentArrays
from tui.core.index.schema import SCORED_FIELDS
from tui.core.index.sidefiles import NORMS_FILE, parse_norms

REWEIGH_FROM = 10_000
"""Papers in the segments taken over from which weighing them again is worth a process
of its own: under it (about two million postings), weighing their lists as they are
read costs the searches a few hundred milliseconds in all, about what starting the
process costs."""


def unweighed(segments: Iterable, fresh: set[str]) -> int:
    """How many papers the segments a build took over (those whose id is not in
    `fresh`) hold, of those without deleted papers (whose impacts are never read)."""
    return sum(segment.doc_count_all() for segment in segments
               if segment.segment_id() not in fresh and not segment.has_deletions())


def reweigh(folder: Path) -> int:
    """Weigh again every segment of the index in `folder` whose impacts file does not
    fit its norms (and that has no deleted papers); how many were written."""
    from whoosh.filedb.filestore import FileStorage

    for left in folder.glob(f".*{EXT}.*"):  # from a reweigh stopped midway
        left.unlink()
    storage = FileStorage(str(folder))
    reader = storage.open_index().reader()
    try:
        size = reader.doc_count_all()
        norms = {}
        for name in SCORED_FIELDS:
            if storage.file_exists(NORMS_FILE.format(name)):
                handle = storage.open_file(NORMS_FILE.format(name))
                try:
                    column = parse_norms(handle.read())
                finally:
                    handle.close()
                if len(column) == size:
                    norms[name] = column
        written = 0
        for leaf, base in reader.leaf_readers():
            own = {name: column[base:base + leaf.doc_count_all()]
                   for name, column in norms.items()}
            segment_id = leaf.segment().segment_id()
            if not leaf.has_deletions() and not _fits(storage, segment_id, own):
                written += _rewrite(storage, folder, segment_id, own)
        return written
    finally:
        reader.close()


def _fits(storage, segment_id: str, norms: dict) -> bool:
    """Whether the segment's impacts file was weighed with `norms` (or it has no lists)."""
    arrays = SegmentArrays.open(storage, segment_id)
    if arrays is None:
        return True
    found = SegmentImpacts.open(storage, segment_id, arrays)
    return found is not None and all(found.fits(name, norms.get(name)) for name in arrays.fields)


def _rewrite(storage, folder: Path, segment_id: str, norms: dict) -> int:
    """Write the segment's impacts under a temporary name, then in place of the old
    file if it is the same size (1), else leave the old one (0)."""
    final = folder / (segment_id + EXT)
    temporary = f".{segment_id}{EXT}.{os.getpid()}"
    write_impacts(storage, segment_id, norms, temporary)
    path = folder / temporary
    try:
        if not final.exists() or path.stat().st_size != final.stat().st_size:
            return 0
        with open(path, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(path, final)
        return 1
    finally:
        if path.exists():
            path.unlink()


def start(folder: Path) -> subprocess.Popen:
    """Run `reweigh` on `folder` in a process of its own, which outlives this one; a
    thread of this one waits for it, so that a long-lived reader leaves no zombie."""
    package_root = str(Path(__file__).resolve().parents[3])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
    process = subprocess.Popen(  # noqa: S603 - this interpreter, this module, its folder
        [sys.executable, "-m", __name__, str(folder)], env=env, cwd=str(folder),
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True, close_fds=True)
    threading.Thread(target=process.wait, name="reweigh", daemon=True).start()
    return process


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m tui.core.index.reweigh FOLDER", file=sys.stderr)
        return 2
    if hasattr(os, "nice"):
        os.nice(10)  # behind the reader, which may be searching meanwhile
    try:
        reweigh(Path(argv[0]))
    except Exception as exc:  # noqa: BLE001 - a folder removed or rebuilt meanwhile
        print(f"reweigh: {argv[0]}: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
