"""BibTeX paper lists, parsed by bibtexparser (strings, comments and crossrefs included).

Every entry with a title or an abstract is a paper. An `@Proceedings` entry is the
list's header: it names the list and gives its papers their venue and year, as a
publisher's file gives them once for all. LaTeX in the fields is decoded the way the
abstracts' renderer does it (`Sch{\\"o}lkopf` → Schölkopf, `$\\ell_1$` → ℓ₁), with `--`
and `---` read as dashes; abstracts keep their LaTeX, which the renderer shows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path

from tui.core.lists.files import SeedError
from tui.core.lists.fields import ABSTRACT_KEYS, VENUE_KEYS
from tui.core.lists.records import Tally

MAX_BIBTEX_BYTES = 32 * 1024 * 1024
"""Larger files would take the parser minutes; a publisher's volume is a few MB."""
_HEADER_TYPES = frozenset({"proceedings", "book"})
_BROKEN = ("broken entry", "broken entries")
_REPEATED = ("entry with a repeated key", "entries with a repeated key")
_MATH = re.compile(r"(?<!\\)\$\$?.*?(?<!\\)\$\$?", re.S)
_DECODED = ("title", "author", "authors", "editor", "keywords", *VENUE_KEYS)
"""Fields shown as plain text: their LaTeX is rendered when the list is read."""

Record = tuple[str, int, Mapping[str, object]]


def dashes(value: str) -> str:
    """`---` → —, `--` → – outside math (where `--` is two minus signs)."""
    out, last = [], 0
    for match in _MATH.finditer(value):
        out.append(_text_dashes(value[last:match.start()]))
        out.append(match.group())
        last = match.end()
    out.append(_text_dashes(value[last:]))
    return "".join(out)


def _text_dashes(text: str) -> str:
    return text.replace("---", "\u2014").replace("--", "\u2013")


def decode(value: str) -> str:
    """A field's LaTeX as plain text (accents, braces, commands, math, dashes)."""
    from tui.core.render.text import render

    return " ".join(render(dashes(value)).text.split())


def _fields(entry) -> dict[str, object]:
    """An entry's fields with lower-case names; displayed ones decoded."""
    out: dict[str, object] = {}
    for key, item in entry.fields_dict.items():
        value = item.value if isinstance(item.value, str) else str(item.value)
        name = key.lower()
        if name in _DECODED:
            value = decode(value)
        elif name in ABSTRACT_KEYS:
            value = dashes(value)
        out[name] = value
    return out


def parse(text: str):
    """The bibtexparser library of `text`."""
    import logging

    import bibtexparser  # imported here: only BibTeX lists pay for the parser

    # The parser logs each broken block; they are counted into one notice instead.
    logger = logging.getLogger("bibtexparser")
    if not logger.handlers:
        logger.addHandler(logging.NullHandler())
        logger.propagate = False
    return bibtexparser.parse_string(text)


def bibtex_records(path: Path, tally: Tally) -> tuple[str, Iterator[Record]]:
    """The list's title and its entries as records (with `bibkey` set)."""
    from tui.core.lists.files import decode as decode_bytes

    size = path.stat().st_size
    if size > MAX_BIBTEX_BYTES:
        raise SeedError(f"{path}: a BibTeX file of {size / 2**20:,.0f} MB is too large "
                        f"(the limit is {MAX_BIBTEX_BYTES // 2**20} MB); split it")
    text = decode_bytes(path.read_bytes(), str(path)).lstrip("\ufeff")
    try:
        library = parse(text)
    except Exception as exc:  # noqa: BLE001 - the parser's own failure, as one line
        raise SeedError(f"{path}: cannot read this BibTeX ({type(exc).__name__}: {exc})") \
            from None
    for block in library.failed_blocks:
        reason = _REPEATED if type(block).__name__ == "DuplicateBlockKeyBlock" else _BROKEN
        tally.skip(reason, f"line {block.start_line + 1}")
    entries = {entry.key: entry for entry in library.entries}
    header = next((e for e in library.entries if e.entry_type.lower() in _HEADER_TYPES), None)
    defaults = _fields(header) if header is not None else {}
    title = path.stem
    for key in ("name", "title", "booktitle"):
        if isinstance(defaults.get(key), str) and defaults[key]:
            title = str(defaults[key])
            break
    inherited = {"year": defaults.get("year"), "booktitle": title if header else None}

    def records() -> Iterator[Record]:
        for entry in library.entries:
            if entry is header:
                continue
            fields = _fields(entry)
            parent = entries.get(str(fields.get("crossref", "")))
            if parent is not None:
                for name, value in _fields(parent).items():
                    fields.setdefault(name, value)
            for name, value in inherited.items():
                if value and not any(fields.get(k) for k in (
                        (name,) if name == "year" else VENUE_KEYS)):
                    fields[name] = value
            fields.setdefault("id", entry.key)
            fields["bibkey"] = entry.key
            yield f"line {entry.start_line + 1}", entry.start_line + 1, fields

    return title, records()
