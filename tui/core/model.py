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
    """The abstract as the file has it (hard-wrapped lines joined)."""


@dataclass(frozen=True, slots=True)
class PaperList:
    """A parsed list file."""

    title: str
    file: str
    path: str
    papers: tuple[Paper, ...] = field(default=())
