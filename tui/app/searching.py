"""One search as the reader runs it, off the UI thread: the result plus what the first
screen of the list needs (papers, snippets), so that drawing it costs the UI little."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from tui.app.messages import Snippets

if TYPE_CHECKING:
    from tui.core.index.library import Library
    from tui.core.search.hits import SearchResult
    from tui.core.state import StateStore


def run_search(library: Library, query: str, limit: int, width: int, rows: int,
               cancelled: Callable[[], bool] = lambda: False, *,
               state: StateStore | None = None, sort: str = "relevance",
               filters: Sequence[str] = (), rescue: bool = True,
               ) -> tuple[SearchResult, Snippets] | None:
    """Search with the one search function; None when cancelled midway.

    An empty query lists every paper (no limit: the hits load their papers lazily);
    otherwise at most `limit` hits are kept and the status line shows the total.
    `rows` hits get their paper loaded, and while searching a `width`-wide snippet.
    `state` answers `is:starred` and the like in the query; `filters` (such names too)
    narrow the result further, as the reader's `f` filter does; `sort` is a core SORTS.
    `rescue=False` skips the suggestion and close matches for a query that finds
    nothing (see `search`).
    """
    from tui.core.search.search import search  # loaded with the library, in the worker

    # The reader searches as the query is typed: its last word is also a prefix.
    result = search(library, query, limit=limit if query.strip() else None, sort=sort,
                    state=state, filters=filters, rescue=rescue, typing=True)
    snippets: Snippets = {}
    for hit in result.hits[:rows]:
        if cancelled():
            return None
        if result.terms:
            snippets[hit.docnum] = hit.snippet(width)
        else:
            hit.paper  # noqa: B018 - loads and caches the paper
    return result, snippets
