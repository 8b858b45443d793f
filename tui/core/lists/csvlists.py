"""CSV and TSV paper lists: a header row naming the columns, then one paper a row.

Rows are read as a stream; a row with the wrong number of fields, or a field too large
to be a paper's, is skipped and counted, and the rest is read.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator, Mapping
from pathlib import Path

from tui.core.lists.files import SeedError
from tui.core.lists.fields import ABSTRACT_KEYS, MAX_FIELD_CHARS, TITLE_KEYS
from tui.core.lists.records import Tally

MAX_LINE_CHARS = 16 * 1024 * 1024
"""A longer line is no paper's row: it is skipped unread."""
_WIDTH = ("row with the wrong number of fields", "rows with the wrong number of fields")
_LONG = ("row too large to read", "rows too large to read")

Record = tuple[str, int, Mapping[str, object]]


def _lines(handle, tally: Tally, path: Path) -> Iterator[str]:
    """The file's lines, each bounded: an overlong one is drained and counted."""
    number = 0
    while True:
        try:
            line = handle.readline(MAX_LINE_CHARS + 1)
        except UnicodeDecodeError as exc:
            raise SeedError(f"{path}: not UTF-8 text (byte 0x{exc.object[exc.start]:02x} "
                            f"near line {number + 1})") from None
        if not line:
            return
        number += 1
        if len(line) > MAX_LINE_CHARS and not line.endswith("\n"):
            while (rest := handle.readline(MAX_LINE_CHARS)) and not rest.endswith("\n"):
                pass
            tally.skip(_LONG, f"line {number}")
            yield "\n"  # a blank row, which the reader passes over
            continue
        yield line


def _delimiter(header: str, kind: str) -> str:
    if kind == "tsv":
        return "\t"
    counts = {sep: header.count(sep) for sep in (",", ";", "\t")}
    return max(counts, key=counts.__getitem__) if any(counts.values()) else ","


def csv_records(path: Path, kind: str, tally: Tally) -> Iterator[Record]:
    """The rows of a CSV or TSV file as records keyed by the (lower-cased) header.

    Raises SeedError when the header names no title or abstract column.
    """
    csv.field_size_limit(MAX_FIELD_CHARS)
    handle = open(path, encoding="utf-8-sig", newline="")
    try:
        lines = _lines(handle, tally, path)
        first = next((line for line in lines if line.strip()), "")
        delimiter = _delimiter(first, kind)
        header = [cell.strip().lower() for cell in next(csv.reader([first], delimiter=delimiter),
                                                         [])]
    except BaseException:
        handle.close()
        raise
    if not any(name in TITLE_KEYS + ABSTRACT_KEYS for name in header):
        handle.close()
        found = ", ".join(repr(name) for name in header if name) or "none"
        raise SeedError(f"{path}: no title or abstract column in the header row "
                        f"(its columns: {found})")
    return _rows(handle, lines, header, delimiter, tally)


def _rows(handle, lines: Iterator[str], header: list[str], delimiter: str,
          tally: Tally) -> Iterator[Record]:
    with handle:
        reader = csv.reader(lines, delimiter=delimiter)
        while True:
            start = reader.line_num + 2  # the header took a line the reader did not see
            try:
                row = next(reader)
            except StopIteration:
                return
            except csv.Error:
                tally.skip(_LONG, f"line {start}")
                continue
            if not row or not any(cell.strip() for cell in row):
                continue
            if len(row) != len(header):
                tally.skip(_WIDTH, f"line {start}")
                continue
            yield f"line {start}", start, dict(zip(header, row))
