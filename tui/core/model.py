"""The records that flow from the seed files to the index, the search and the UI."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Paper:
    """One abstract of a paper list, with what paperscope derives from it."""

    id: str
    """Stable id derived from the abstract's text (survives reordering and re-issued lists)."""
    list_title: str
    """The list's title line, or the file's stem when the list has none."""
    file: str
    """The list file's name (no folder)."""
    position: int
    """0-based paragraph index after the title line."""
    name: str
    """The method, system or benchmark the abstract introduces; "" when it introduces none."""
    title: str
    """One readable line in the abstract's own words."""
    raw: str
    """The abstract as the file has it (hard-wrapped lines joined); "" for a record of a
    structured list that gives only a title."""
    # What structured lists (JSON, JSON Lines, BibTeX, CSV) say about a paper besides its
    # abstract. Paragraph lists give none of it, so every field has an empty default.
    titled: bool = False
    """True when `title` is the list's own title for the paper, not one derived."""
    authors: tuple[str, ...] = ()
    """Authors in order, each as "First Last"."""
    year: int | None = None
    venue: str = ""
    """Where it was published (booktitle, journal, venue); "" when only the list says."""
    link: str = ""
    """The paper's page or PDF."""
    doi: str = ""
    source_id: str = ""
    """The id the list gives it (an arXiv id, an OpenReview id, a BibTeX key...)."""
    keywords: tuple[str, ...] = ()
    bibkey: str = ""
    """The BibTeX key, for a paper read from BibTeX: exports keep it."""


EXTRA_FIELDS = ("titled", "authors", "year", "venue", "link", "doi", "source_id",
                "keywords", "bibkey")
"""The `Paper` fields that only structured lists fill in, in declaration order."""


def extras(paper: Paper) -> dict[str, object]:
    """The paper's structured-list fields that are set (for storing in the index)."""
    out: dict[str, object] = {}
    for name in EXTRA_FIELDS:
        value = getattr(paper, name)
        if value not in (None, "", (), False):
            out[name] = list(value) if isinstance(value, tuple) else value
    return out


def from_extras(info: object) -> dict[str, object]:
    """`extras` read back (from the index or a cache file) as `Paper` keyword arguments;
    anything that is not one of the fields, or not of its type, is left out."""
    if not isinstance(info, dict):
        return {}
    out: dict[str, object] = {}
    for name, value in info.items():
        if name in ("authors", "keywords"):
            if isinstance(value, list) and all(isinstance(v, str) for v in value):
                out[name] = tuple(value)
        elif name == "year":
            if type(value) is int:
                out[name] = value
        elif name == "titled":
            if type(value) is bool:
                out[name] = value
        elif name in EXTRA_FIELDS and isinstance(value, str):
            out[name] = value
    return out


@dataclass(frozen=True, slots=True)
class PaperList:
    """A parsed list file."""

    title: str
    file: str
    path: str
    papers: tuple[Paper, ...] = field(default=())
    notices: tuple[str, ...] = ()
    """What reading left out (bad lines, broken entries), one line per reason."""
