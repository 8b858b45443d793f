"""Cutting a large JSON Lines file into parts that worker processes index side by side.

A build spreads its files over one worker per core; a single 4.5 GB snapshot would
keep one core busy and leave the others idle. So a large JSON Lines file is cut at
line boundaries into contiguous parts, each read by its own worker, and what the parts
report (paper counts, what was skipped) is merged back into one summary per file.
A record's position in a JSON Lines file is its line (0-based), which a part knows
from where it starts without reading what comes before it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from tui.core.lists.files import SeedError

_COUNT_CHUNK = 8 * 1024 * 1024


@dataclass(frozen=True)
class Part:
    """A whole list file, or the lines of a JSON Lines file from `start` to `stop`."""

    path: Path
    start: int = 0
    """Byte offset of the part's first line."""
    stop: int | None = None
    """Byte offset just past its last line; None for the end of the file."""
    first_line: int = 1
    """The 1-based number of the part's first line."""

    @property
    def whole(self) -> bool:
        """Whether this part is the whole file."""
        return self.start == 0 and self.stop is None

    @property
    def size(self) -> int:
        """The part's length in bytes."""
        end = self.path.stat().st_size if self.stop is None else self.stop
        return end - self.start


def split_parts(files: Iterable[Path], parts: int, min_bytes: int) -> list[Part]:
    """Each file as one part, but JSON Lines files of `min_bytes` or more as up to
    `parts` parts of about equal size, cut after a newline."""
    from tui.core.lists.detect import JSONL, structured_kind

    out: list[Part] = []
    for path in files:
        size = path.stat().st_size
        if parts < 2 or size < min_bytes or structured_kind(path) != JSONL:
            out.append(Part(path))
            continue
        out += _cut(path, size, parts)
    return out


def _cut(path: Path, size: int, parts: int) -> list[Part]:
    """`path` cut after the newline nearest past each `size / parts` offset."""
    bounds = [0]
    for n in range(1, parts):
        with open(path, "rb") as handle:
            handle.seek(max(size * n // parts, bounds[-1]))
            handle.readline()  # to the end of the line the offset falls in
            at = handle.tell()
        if bounds[-1] < at < size:
            bounds.append(at)
    bounds.append(size)
    # Line numbers at the cuts: one pass counting newlines, as hashing the file does.
    lines, counted, firsts = 1, 0, []
    with open(path, "rb") as handle:
        for start in bounds[:-1]:
            while counted < start:
                chunk = handle.read(min(_COUNT_CHUNK, start - counted))
                lines += chunk.count(b"\n")
                counted += len(chunk)
            firsts.append(lines)
    return [Part(path, start, stop if stop < size else None, first)
            for start, stop, first in zip(bounds, bounds[1:], firsts)]


def merge_summaries(summaries: list[dict[str, object]]) -> list[dict[str, object]]:
    """One summary per file from the summaries of its parts (consecutive, in order),
    with the notices of what was skipped; SeedError when a file gave no paper."""
    merged: list[dict[str, object]] = []
    for summary in summaries:
        if merged and merged[-1]["path"] == summary["path"] and summary.get("part"):
            last = merged[-1]
            last["papers"] = int(last["papers"]) + int(summary["papers"])  # type: ignore[arg-type]
            if summary.get("tally") is not None:
                last["tally"] = summary["tally"] if last.get("tally") is None \
                    else last["tally"].merged(summary["tally"])  # type: ignore[union-attr]
        else:
            merged.append(dict(summary))
    for summary in merged:
        tally = summary.pop("tally", None)
        summary.pop("part", None)
        notices = tally.notices() if tally is not None else []
        if not summary["papers"]:
            why = "; ".join(n.split(": ", 1)[1] for n in notices)
            raise SeedError(f"{summary['path']}: no papers in this list"
                            + (f" ({why})" if why else ""))
        if notices:
            summary["notices"] = notices
    return merged
