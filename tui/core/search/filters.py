"""Reading-state filters: `is:starred`, `is:unread`, `is:read`, `has:note`.

They are taken out of the query text before it is parsed, turned into the papers
they allow (`Restriction`), and combine with words and `list:` like any other
restriction.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

TYPE_CHECKING = False  # as typing's: a cold search need not import typing (2 ms)
if TYPE_CHECKING:
    from tui.core.index.library import Library
    from tui.core.state import StateStore

FILTERS = ("is:starred", "is:unread", "is:read", "has:note")
_FILTER = re.compile(r"(?<![\w:])(is:starred|is:unread|is:read|has:note|has:notes)\b", re.I)


def split_filters(query: str) -> tuple[str, list[str]]:
    """The query without its filters, and the filters it named (lower case)."""
    found = [m.lower().replace("has:notes", "has:note") for m in _FILTER.findall(query)]
    return _FILTER.sub(" ", query), found


@dataclass(frozen=True)
class Restriction:
    """The papers a search may list: those in `only` (every paper when None), less
    those in `excluded`.

    "Unread" is every paper but the few read: kept as what it leaves out, so that
    filtering costs what the reading state holds, not the size of the collection.
    """

    only: frozenset[int] | None = None
    excluded: frozenset[int] = frozenset()

    @classmethod
    def to(cls, docnums: Collection[int]) -> Restriction:
        """Only these papers."""
        return cls(frozenset(docnums))

    def __and__(self, other: Restriction) -> Restriction:
        only = self.only if other.only is None else (
            other.only if self.only is None else self.only & other.only)
        excluded = self.excluded | other.excluded
        if only is not None:
            return Restriction(only - excluded)
        return Restriction(None, excluded)

    def allows(self, docnum: int) -> bool:
        return (self.only is None or docnum in self.only) and docnum not in self.excluded


def allowed(library: Library, state: StateStore | None, names: list[str],
            ) -> Restriction | None:
    """The papers the filters allow (None: no restriction)."""
    if not names:
        return None
    result = Restriction()  # every live paper (deleted documents are in no order)
    for name in dict.fromkeys(names):
        if state is None:
            chosen = Restriction(frozenset())
        elif name == "is:starred":
            chosen = Restriction.to(library.docnums_of(state.starred_ids()))
        elif name == "has:note":
            chosen = Restriction.to(library.docnums_of(state.noted_ids()))
        else:
            read = frozenset(library.docnums_of(state.read_ids()))
            chosen = Restriction(read) if name == "is:read" else Restriction(None, read)
        result = result & chosen
    return result
