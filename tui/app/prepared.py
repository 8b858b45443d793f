"""What the first screen of a new list needs, made off the UI thread.

A search's worker (and the similar papers' one) loads the papers of the rows the list
will show first, and their snippets, so that the UI thread, which also draws every
frame, only draws them: made in `render_line`, they cost the repaint tens of
milliseconds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.app.messages import Snippets
    from tui.core.search.hits import SearchResult


def first_rows(result: SearchResult, width: int, rows: int,
               cancelled: Callable[[], bool] = lambda: False) -> Snippets | None:
    """Load the papers of the first `rows` hits of `result` and, when it has terms to
    mark, make their `width`-wide snippets: off the UI thread, which then only draws
    them. None when cancelled midway."""
    snippets: Snippets = {}
    for hit in result.hits[:rows]:
        if cancelled():
            return None
        if result.terms:
            snippets[hit.docnum] = hit.snippet(width)
        else:
            hit.paper  # noqa: B018 - loads and caches the paper
    return snippets
