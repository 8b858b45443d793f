"""JSON paper lists: one document holding an array of records, or JSON Lines.

A document is an array of records or an object holding one (`{"papers": [...]}`,
OpenReview's `{"notes": [...]}`); it is read whole, up to MAX_DOCUMENT_BYTES. JSON
Lines are read as a stream, one line at a time and each line bounded, so that a
multi-gigabyte snapshot (arXiv's metadata) indexes in bounded memory.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path

from tui.core.lists.files import SeedError
from tui.core.lists.records import Tally

MAX_DOCUMENT_BYTES = 128 * 1024 * 1024
"""A JSON document is parsed whole: beyond this, parsing would hold several times as
much memory. JSON Lines have no such limit."""
MAX_LINE_BYTES = 16 * 1024 * 1024
"""A JSON Lines line longer than this is no paper record: it is skipped unread."""
RECORD_KEYS = ("papers", "notes", "records", "items", "entries", "data", "results",
               "rows", "documents", "hits")
"""Keys of an object that commonly hold its list of records, tried first."""
_BAD_LINE = ("line that is not a JSON object", "lines that are not JSON objects")
_LONG_LINE = ("line longer than 16 MB", "lines longer than 16 MB")
_NOT_RECORD = ("array item that is not an object", "array items that are not objects")

Record = tuple[str, int, Mapping[str, object]]
"""Where a record was found ("line 3", "record 5"), that number, and the record."""


def _position(data: bytes, offset: int) -> tuple[int, int]:
    """1-based line and column of a byte offset."""
    line = data.count(b"\n", 0, offset) + 1
    column = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
    return line, column


def load_document(path: Path) -> object:
    """The parsed JSON document in `path`; SeedError with `file:line:column: what is
    wrong` when it is malformed."""
    size = path.stat().st_size
    if size > MAX_DOCUMENT_BYTES:
        raise SeedError(f"{path}: a JSON document of {size / 2**20:,.0f} MB is too large "
                        f"to read whole (the limit is {MAX_DOCUMENT_BYTES // 2**20} MB); "
                        "write it as JSON Lines, one record a line, which has no limit")
    data = path.read_bytes()
    start = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    try:
        text = data[start:].decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = _position(data, start + exc.start)
        raise SeedError(f"{path}:{line}:{column}: not UTF-8 text "
                        f"(byte 0x{data[start + exc.start]:02x})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise SeedError(f"{path}:{exc.lineno}:{exc.colno}: malformed JSON: {exc.msg}") from None
    except RecursionError:
        raise SeedError(f"{path}: JSON nested too deeply to be a paper list") from None


def _describe(value: object) -> str:
    """What a JSON value is, for a message: "an array of 3 strings"."""
    if isinstance(value, list):
        if not value:
            return "an empty array"
        kinds = sorted({_kind(v) for v in value})
        return f"an array of {len(value):,} {' and '.join(k + 's' for k in kinds)}"
    if isinstance(value, dict):
        keys = ", ".join(list(map(str, value))[:6]) + (", ..." if len(value) > 6 else "")
        return f"an object with keys {keys}" if value else "an empty object"
    return f"a single {_kind(value)}"


def _kind(value: object) -> str:
    return {dict: "object", list: "array", str: "string", bool: "boolean",
            type(None): "null"}.get(type(value), "number")


def _looks_like_record(value: Mapping[str, object]) -> bool:
    from tui.core.lists.fields import ABSTRACT_KEYS, TITLE_KEYS, flatten

    flat = flatten(value)
    return any(flat.get(key) for key in TITLE_KEYS + ABSTRACT_KEYS)


def document_records(path: Path, tally: Tally) -> tuple[str, Iterator[Record]]:
    """The list's title and its records, from a JSON document."""
    document = load_document(path)
    title = path.stem
    items: object = document
    if isinstance(document, dict):
        named = document.get("title") or document.get("name")
        if isinstance(named, str) and 0 < len(named.strip()) <= 200:
            title = " ".join(named.split())
        holders = [k for k in RECORD_KEYS if _holds_records(document.get(k))]
        holders += [k for k, v in document.items() if k not in holders and _holds_records(v)]
        if holders:
            items = document[holders[0]]
        elif _looks_like_record(document):
            items = [document]
    if not isinstance(items, list) or not any(isinstance(i, dict) for i in items):
        raise SeedError(f"{path}: no paper records in this JSON: found {_describe(document)}")

    def records() -> Iterator[Record]:
        for number, item in enumerate(items, 1):
            if isinstance(item, dict):
                yield f"record {number}", number, item
            else:
                tally.skip(_NOT_RECORD, f"record {number}")

    return title, records()


def _holds_records(value: object) -> bool:
    return isinstance(value, list) and any(isinstance(v, dict) for v in value[:50])


def line_records(path: Path, tally: Tally, start: int = 0, stop: int | None = None,
                 first_line: int = 1) -> Iterator[Record]:
    """The records of a JSON Lines file, read line by line (each line bounded); or of
    its lines from byte `start` (line `first_line`) to byte `stop`."""
    with open(path, "rb") as handle:
        handle.seek(start)
        at = start  # counted, not asked for: `tell` costs a system call a line
        number = first_line - 1
        while stop is None or at < stop:
            line = handle.readline(MAX_LINE_BYTES + 1)
            if not line:
                return
            at += len(line)
            number += 1
            if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
                while True:  # skip the rest of the line without holding it
                    rest = handle.readline(MAX_LINE_BYTES)
                    at += len(rest)
                    if not rest or rest.endswith(b"\n"):
                        break
                tally.skip(_LONG_LINE, f"line {number}")
                continue
            if number == 1 and line.startswith(b"\xef\xbb\xbf"):
                line = line[3:]
            if not line.strip():
                continue
            try:
                record = json.loads(line.decode("utf-8"))
            except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
                record = None
            if isinstance(record, dict):
                yield f"line {number}", number, record
            else:
                tally.skip(_BAD_LINE, f"line {number}")
