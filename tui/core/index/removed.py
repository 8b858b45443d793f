"""Where a build's lists sit in docnum order, and the papers of removed lists.

A build's blocks (see `reuse`) come in docnum order, each list's papers a contiguous
run in its block; a reused block may keep the papers of lists removed since it was
written, and a changed list's new version is written after the block that held the
old one. So the list order (the order the files were given in) is worked out here,
as the live docnums in that order, and the removed papers are marked deleted in the
segments the new table of contents names.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence

from tui.core.index.reuse import Block


def list_order(blocks: Sequence[Block]) -> tuple[array, bytearray, list[dict[str, object]]]:
    """The live docnums in list order, a mark per docnum for the deleted ones, and the
    lists' summaries in list order."""
    runs: dict[int, tuple[int, int, dict[str, object]]] = {}
    dead = bytearray()
    for block in blocks:
        for at, count in enumerate(block.counts()):
            where = block.positions[at] if at < len(block.positions) else None
            if where is None:
                dead += b"\1" * count
            else:
                runs[where] = (len(dead), count, block.lists[at])
                dead += bytes(count)
    order = array("I")
    for where in sorted(runs):
        start, count, _ = runs[where]
        order.extend(range(start, start + count))
    return order, dead, [runs[where][2] for where in sorted(runs)]


def mark_deleted(segments: Sequence[object], dead: bytearray) -> None:
    """Mark each docnum marked in `dead` deleted in its segment (Whoosh segments, in
    docnum order, as the table of contents will name them)."""
    base = 0
    for segment in segments:
        count = segment.doc_count_all()  # type: ignore[attr-defined]
        local = dead.find(1, base, base + count)
        while local >= 0:
            segment.delete_document(local - base)  # type: ignore[attr-defined]
            local = dead.find(1, local + 1, base + count)
        base += count
