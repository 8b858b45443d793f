"""Which reader a list file needs, from its first bytes (its extension only breaks ties).

A `.txt` holding JSON is JSON, and a `.json` holding one object a line is JSON Lines:
files are renamed, exported with the wrong extension, or saved by tools that know only
`.txt`. Only the file's head is read, so a 4.5 GB snapshot is recognised at once.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tui.core.lists.files import SeedError
from tui.core.lists.fields import ABSTRACT_KEYS, TITLE_KEYS

HEAD_BYTES = 65536
"""How much of a file detection reads."""
PARAGRAPHS, JSON, JSONL, BIBTEX, CSV, TSV = "paragraphs", "json", "jsonl", "bibtex", "csv", "tsv"
EXTENSIONS = {".jsonl": JSONL, ".ndjson": JSONL, ".json": JSON, ".bib": BIBTEX,
              ".bibtex": BIBTEX, ".csv": CSV, ".tsv": TSV, ".tab": TSV}
"""What an extension suggests when the content does not say otherwise."""
LIST_SUFFIXES = (".txt", *EXTENSIONS)
"""The files a folder contributes."""

_BIBTEX_START = re.compile(rb"\A(?:\s*%[^\n]*\n)*\s*@[A-Za-z]+\s*[{(]")
# An array of objects or an object with a key: a paragraph that starts with `{\\em` or
# `[1]` is no JSON. Other files count as JSON only with a JSON extension.
_JSON_START = re.compile(rb'\A(?:\[\s*[{\]]|\{\s*["}])')
_HEADER_CELL = re.compile(r"^[\w .-]{1,40}$")
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
_UTF32_BOMS = (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")


def read_head(path: Path) -> bytes:
    """The first HEAD_BYTES of the file (OSError for one that cannot be read)."""
    with open(path, "rb") as handle:
        return handle.read(HEAD_BYTES)


def check_encoding(head: bytes, source: str) -> None:
    """Refuse UTF-16 and UTF-32 with a line that says so (they are not UTF-8 text)."""
    if head.startswith(_UTF32_BOMS):
        raise SeedError(f"{source}: UTF-32 text, expected UTF-8 (save it as UTF-8)")
    sample = head[:2048]
    # Without a BOM, UTF-16 shows as a NUL beside every ASCII character.
    if head.startswith(_UTF16_BOMS) or (len(sample) >= 8 and sample.count(b"\x00") * 3
                                        >= len(sample) and (sample[1:2] == b"\x00"
                                                            or sample[:1] == b"\x00")):
        raise SeedError(f"{source}: UTF-16 text, expected UTF-8 (save it as UTF-8)")


def detect(path: Path, head: bytes) -> str:
    """The kind of list in `path`, whose first bytes are `head` (see the module)."""
    suffix = path.suffix.lower()
    body = head[3:] if head.startswith(b"\xef\xbb\xbf") else head
    start = body.lstrip()
    if _JSON_START.match(start) or (start[:1] in (b"[", b"{")
                                    and EXTENSIONS.get(suffix) in (JSON, JSONL)):
        if start[:1] == b"[":
            return JSON
        return JSONL if _one_object_a_line(start, suffix) else JSON
    if _BIBTEX_START.match(body):
        return BIBTEX
    guess = EXTENSIONS.get(suffix)
    if guess in (JSON, JSONL):
        return guess  # whatever it holds, its reader says what is wrong with it
    if guess in (CSV, TSV):
        return guess
    header = _header_kind(body)
    if header is not None:
        return header
    if guess == BIBTEX:
        return BIBTEX  # comments or junk before the first entry
    return PARAGRAPHS


def _one_object_a_line(start: bytes, suffix: str) -> bool:
    """Whether text that starts with `{` holds one JSON object a line."""
    if EXTENSIONS.get(suffix) == JSONL:
        return True
    line, newline, rest = start.partition(b"\n")
    if not newline or not rest.strip():
        return False  # one line: a JSON document either way
    try:
        return isinstance(json.loads(line), dict)
    except (ValueError, RecursionError):
        return False  # the first line alone is no document: one document over lines


def _header_kind(body: bytes) -> str | None:
    """CSV or TSV when the first line is a header naming a title or abstract column."""
    first = body.split(b"\n", 1)[0].decode("utf-8", "replace").strip().lower()
    for sep, kind in (("\t", TSV), (",", CSV), (";", CSV)):
        cells = [c.strip().strip('"').strip() for c in first.split(sep)]
        if len(cells) >= 2 and all(_HEADER_CELL.match(c) for c in cells if c) \
                and any(c in TITLE_KEYS + ABSTRACT_KEYS for c in cells):
            return kind
    return None


def structured_kind(path: Path) -> str | None:
    """The structured format of `path`, or None for a paragraph list (and for a file
    that cannot be opened, whose error the paragraph reader words)."""
    try:
        head = read_head(path)
    except OSError:
        return None
    check_encoding(head, str(path))
    kind = detect(path, head)
    return None if kind == PARAGRAPHS else kind
