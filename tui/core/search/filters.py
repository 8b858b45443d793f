"""Reading-state filters: `is:starred`, `is:unread`, `is:read`, `has:note`.

They are taken out of the query text before it is parsed, turned into the set of
docnums they allow, and combine with words and `list:` like any other restriction.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.core.index.library import Library
    from tui.core.state import StateStore

FILTERS = ("is:starred", "is:unread", "is:read", "has:note")
_FILTER = re.compile(r"(?<![\w:])(is:starred|is:unread|is:read|has:note|has:notes)\b", re.I)


def split_filters(query: str) -> tuple[str, list[str]]:
    """The query without its filters, and the filters it named (lower case)."""
    found = [m.lower().replace("has:notes", "has:note") for m in _FILTER.findall(query)]
    return _FILTER.sub(" ", query), found


def allowed(library: "Library", state: "StateStore | None", names: list[str]) -> set[int] | None:
    """The docnums the filters allow (None: no restriction)."""
    if not names:
        return None
    everything = set(library.list_order)
    result = everything
    for name in dict.fromkeys(names):
        if state is None:
            chosen: set[int] = set()
        elif name == "is:starred":
            chosen = library.docnums_of(state.starred_ids())
        elif name == "has:note":
            chosen = library.docnums_of(state.noted_ids())
        else:
            read = library.docnums_of(state.read_ids())
            chosen = read if name == "is:read" else everything - read
        result = result & chosen
    return result
