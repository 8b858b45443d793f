"""Messages the reader's workers and widgets send, in one place.

Workers run in threads and answer with messages (`post_message` is thread-safe), so
that every change to the widgets happens on the app's own thread.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:  # the core (and Whoosh) load in the worker, not before the first frame
    from tui.core.index.library import Library
    from tui.core.search.hits import Hit, SearchResult

Snippets = dict[int, tuple[str, list[tuple[int, int]]]]
"""docnum → (excerpt, match spans), prepared off the UI thread for the first rows."""


@dataclass
class IndexProgress(Message):
    """The index is being built: `done` of `total` list files are indexed."""

    done: int
    total: int


@dataclass
class SearchDone(Message):
    """A search finished. `serial` tells a stale answer from the latest one."""

    serial: int
    result: SearchResult
    snippets: Snippets = field(default_factory=dict)


@dataclass
class LibraryReady(Message):
    """The lists are open and searchable; `first` answers the query typed at start."""

    library: Library
    first: SearchDone | None = None


@dataclass
class LibraryFailed(Message):
    """The lists could not be opened; `error` is one line for the user."""

    error: str


@dataclass
class PaperHighlighted(Message):
    """The list's cursor is on a new paper (None when the list is empty)."""

    hit: Hit | None


@dataclass
class PaperOpened(Message):
    """The user asked to read the paper under the cursor."""

    hit: Hit
