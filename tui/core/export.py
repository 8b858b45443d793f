"""Export papers as Markdown, JSON, BibTeX or CSV text.

Every format carries the same facts: id, list title, file, position, name, title and
the abstract as plain text (:func:`tui.core.render.text.render`), the authors, year,
venue, link and DOI that structured lists give, plus star, read mark and
note when a :class:`~tui.core.state.StateStore` is given. JSON and CSV keep every
string exactly; Markdown and BibTeX normalise whitespace the way their readers would
anyway (see :func:`export_markdown` and :func:`export_bibtex`).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from tui.core.model import Paper
from tui.core.render.text import render

if TYPE_CHECKING:
    from tui.core.state import StateStore

FORMATS = ("md", "json", "bib", "csv")
"""The formats :func:`export` accepts."""
COLUMNS = ("id", "list", "file", "position", "name", "title", "text", "authors", "year",
           "venue", "link", "doi")
"""Fields of every exported record, in order; JSON and CSV use these names."""
STATE_COLUMNS = ("starred", "read", "note")
"""Fields added when a reading state is given."""

# Control characters that are not whitespace. Markdown and BibTeX have no visible form
# for them (CommonMark turns NUL into U+FFFD), so those two formats drop them.
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1b\x7f]")


@dataclass(frozen=True, slots=True)
class ExportRecord:
    """What every format writes about one paper."""

    id: str
    list: str
    file: str
    position: int
    name: str
    title: str
    text: str
    """The abstract as plain Unicode text."""
    authors: tuple[str, ...] = ()
    year: int | None = None
    venue: str = ""
    link: str = ""
    doi: str = ""
    bibkey: str = ""
    """The paper's own BibTeX key, when it was read from BibTeX."""
    starred: bool | None = None
    """None when no reading state was given (as for ``read`` and ``note``)."""
    read: bool | None = None
    note: str | None = None
    """The note, "" when the paper has none."""


def export(papers: Iterable[Paper], fmt: str, state: StateStore | None = None) -> str:
    """The papers in ``fmt`` (one of :data:`FORMATS`), with reading state if given."""
    try:
        writer = _WRITERS[fmt]
    except KeyError:
        choices = ", ".join(FORMATS)
        raise ValueError(f"unknown export format {fmt!r}; choose one of {choices}") from None
    return writer([to_record(paper, state) for paper in papers], state is not None)


def to_record(paper: Paper, state: StateStore | None = None) -> ExportRecord:
    """The paper's exported fields, its abstract rendered to plain text."""
    record = ExportRecord(
        id=paper.id,
        list=paper.list_title,
        file=paper.file,
        position=paper.position,
        name=paper.name,
        title=paper.title,
        text=render(paper.raw).text,
        authors=paper.authors,
        year=paper.year,
        venue=paper.venue,
        link=paper.link,
        doi=paper.doi,
        bibkey=paper.bibkey,
    )
    if state is None:
        return record
    return replace(
        record,
        starred=state.is_starred(paper.id),
        read=state.is_read(paper.id),
        note=state.note(paper.id),
    )


# JSON and CSV -----------------------------------------------------------------


def export_json(records: list[ExportRecord], with_state: bool) -> str:
    """A JSON list of objects; ``name`` and ``note`` are null when empty."""
    rows = []
    for record in records:
        row: dict[str, object] = {name: getattr(record, name) for name in COLUMNS}
        # Empty means unknown: null, as the command line's JSON has it.
        for name in ("name", "venue", "link", "doi"):
            row[name] = getattr(record, name) or None
        row["authors"] = list(record.authors) or None
        if with_state:
            row.update(starred=record.starred, read=record.read, note=record.note or None)
        rows.append(row)
    return json.dumps(rows, ensure_ascii=False, indent=2) + "\n"


def export_csv(records: list[ExportRecord], with_state: bool) -> str:
    """RFC 4180 CSV with a header row; booleans are ``true``/``false``.

    Cells are not defused against spreadsheet formulas (a leading ``=``): that would
    change the data, and the text is the user's own paper lists.
    """
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, quoting=csv.QUOTE_MINIMAL)
    writer.writerow(COLUMNS + (STATE_COLUMNS if with_state else ()))
    for record in records:
        row = [_csv_cell(getattr(record, name)) for name in COLUMNS]
        if with_state:
            row += [_bool_cell(record.starred), _bool_cell(record.read), record.note]
        writer.writerow(row)
    return buffer.getvalue()


def _csv_cell(value: object) -> object:
    """Authors as "A; B" (the form lists are read back from), an unknown year blank."""
    if isinstance(value, tuple):
        return "; ".join(value)
    return "" if value is None else value


def _bool_cell(flag: bool | None) -> str:
    return "true" if flag else "false"


# Markdown ---------------------------------------------------------------------

# Characters that are markup anywhere in a line. `&` only matters before an entity name.
_MD_INLINE = re.compile(r"[\\`*_\[\]<>|~$#]|&(?=#?\w+;)")
# Markup only at the start of a line: list items, setext underlines, ordered lists.
_MD_LINE_START = re.compile(r"^(?:[-+=]|\d{1,9}[.)])")


def markdown_inline(text: str) -> str:
    """``text`` on one line (whitespace runs collapsed) with Markdown markup escaped."""
    return _MD_INLINE.sub(lambda m: "\\" + m.group(), " ".join(_CONTROL.sub("", text).split()))


def markdown_block(text: str) -> list[str]:
    """``text`` as escaped Markdown lines; line breaks kept, blank-line runs collapsed.

    Lines are stripped (leading spaces would start a code block). A line followed by
    another in the same paragraph ends in a backslash, CommonMark's hard line break,
    so the reader sees the author's line breaks.
    """
    paragraphs: list[list[str]] = [[]]
    for line in text.splitlines():
        line = markdown_inline(line)
        if line:
            paragraphs[-1].append(_MD_LINE_START.sub(_escape_line_start, line))
        elif paragraphs[-1]:
            paragraphs.append([])
    out: list[str] = []
    for paragraph in (p for p in paragraphs if p):
        if out:
            out.append("")
        out += [line + "\\" for line in paragraph[:-1]] + paragraph[-1:]
    return out


def _escape_line_start(match: re.Match[str]) -> str:
    # "1." becomes "1\." (escaping the digits would not stop the list); "-" becomes "\-".
    marker = match.group()
    return f"{marker[:-1]}\\{marker[-1]}"


def export_markdown(records: list[ExportRecord], with_state: bool) -> str:
    """A Markdown document: a section per paper with its facts, abstract and note.

    Titles, names and list titles are put on one line; abstracts and notes keep their
    line breaks but lose indentation and repeated blank lines. Everything else a
    Markdown reader could take for markup is backslash-escaped.
    """
    count = f"{len(records)} paper" + ("" if len(records) == 1 else "s")
    lines = ["# paperscope export", "", count + "."]
    for record in records:
        lines += ["", f"## {markdown_inline(record.title) or '(untitled)'}", ""]
        name = markdown_inline(record.name)
        if name:
            lines.append(f"- **Name:** {name}")
        facts = [("Authors", ", ".join(record.authors)), ("Year", str(record.year or "")),
                 ("Venue", record.venue), ("Link", record.link), ("DOI", record.doi)]
        lines += [f"- **{label}:** {markdown_inline(value)}" for label, value in facts
                  if markdown_inline(value)]
        lines += [
            f"- **List:** {markdown_inline(record.list)}",
            f"- **File:** {markdown_inline(record.file)}",
            f"- **Position:** {record.position}",
            f"- **Id:** {markdown_inline(record.id)}",
        ]
        if with_state:
            lines.append(f"- **Starred:** {'yes' if record.starred else 'no'}")
            lines.append(f"- **Read:** {'yes' if record.read else 'no'}")
        text = markdown_block(record.text)
        if text:
            lines += [""] + text
        note = markdown_block(record.note or "")
        if note:
            lines += ["", "**Note:**", ""] + [f"> {line}" if line else ">" for line in note]
    return "\n".join(lines) + "\n"


# BibTeX -----------------------------------------------------------------------

# LaTeX spellings of the characters BibTeX and LaTeX treat specially. Braces and the
# backslash become \text... commands, never "\{": BibTeX counts the brace in "\{"
# when matching braces, so a lone "\{" would end the field early or never.
_BIB_ESCAPES = {
    "\\": r"\textbackslash{}",
    "{": r"\textbraceleft{}",
    "}": r"\textbraceright{}",
    "^": r"\textasciicircum{}",
    "~": r"\textasciitilde{}",
    "%": r"\%",
    "&": r"\&",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
}
_BIB_SPECIAL = re.compile("[" + re.escape("".join(_BIB_ESCAPES)) + "]")
# Characters a BibTeX key cannot hold (and non-ASCII, which bibtex 0.99 mangles).
_BIB_KEY_UNSAFE = re.compile(r"[^A-Za-z0-9_:.\-]")


def bibtex_value(text: str) -> str:
    """``text`` as the inside of a brace-delimited BibTeX field.

    Control characters are dropped and whitespace runs become one space (BibTeX does
    the same when it reads the field), and every special character is spelled as LaTeX,
    so the result always has balanced braces whatever ``text`` holds.
    """
    flat = " ".join(_CONTROL.sub("", text).split())
    return _BIB_SPECIAL.sub(lambda m: _BIB_ESCAPES[m.group()], flat)


def bibtex_key(paper_id: str) -> str:
    """A citation key for the id: unsafe characters become ``-``."""
    return _BIB_KEY_UNSAFE.sub("-", paper_id) or "paper"


def export_bibtex(records: list[ExportRecord], with_state: bool) -> str:
    """``@misc`` entries keyed by paper id: title, list (as ``note``), abstract; with
    author, year, ``url`` and ``doi`` when the list gave them, and ``@inproceedings``
    with its ``booktitle`` when it gave a venue. A paper read from BibTeX keeps its key.

    The title is wrapped in a second pair of braces so that styles keep its case. The
    user's note goes to ``annote`` (the field annotated bibliographies print). Ids that
    clash after making them key-safe get ``-2``, ``-3``… so that every key is unique.
    """
    seen: set[str] = set()
    entries = []
    for record in records:
        key = base = bibtex_key(record.bibkey or record.id)
        suffix = 2
        while key in seen:
            key, suffix = f"{base}-{suffix}", suffix + 1
        seen.add(key)
        fields = [("title", "{" + bibtex_value(record.title) + "}")]
        authors = " and ".join(bibtex_value(a) for a in record.authors if bibtex_value(a))
        fields += [(name, value) for name, value in (
            ("author", authors), ("year", str(record.year or "")),
            ("booktitle", bibtex_value(record.venue)), ("url", bibtex_value(record.link)),
            ("doi", bibtex_value(record.doi))) if value]
        fields += [
            ("note", bibtex_value(record.list)),
            ("abstract", bibtex_value(record.text)),
        ]
        annote = bibtex_value(record.note or "")
        if annote:
            fields.append(("annote", annote))
        body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
        kind = "inproceedings" if record.venue else "misc"
        entries.append(f"@{kind}{{{key},\n{body}\n}}\n")
    return "\n".join(entries)


_WRITERS: dict[str, Callable[[list[ExportRecord], bool], str]] = {
    "md": export_markdown,
    "json": export_json,
    "bib": export_bibtex,
    "csv": export_csv,
}
