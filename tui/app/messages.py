"""Messages the reader's workers and widgets send, in one place.

Workers run in threads and answer with messages (`post_message` is thread-safe), so
that every change to the widgets happens on the app's own thread. Each one sets its
fields in `__init__`, as Textual's own messages do: a dataclass costs a compile at
import, before the first frame.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:  # the core (and Whoosh) load in the worker, not before the first frame
    from tui.core.index.library import Library
    from tui.core.search.hits import Hit, SearchResult

Snippets = dict[int, tuple[str, list[tuple[int, int]]]]
"""docnum → (excerpt, match spans), prepared off the UI thread for the first rows."""


class IndexProgress(Message):
    """The index is being built: `done` of `total` list files are indexed."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__()
        self.done = done
        self.total = total


class SearchDone(Message):
    """A search finished. `serial` tells a stale answer from the latest one."""

    def __init__(self, serial: int, result: SearchResult,
                 snippets: Snippets | None = None) -> None:
        super().__init__()
        self.serial = serial
        self.result = result
        self.snippets: Snippets = {} if snippets is None else snippets


class LibraryReady(Message):
    """The lists are open and searchable; `first` answers the query typed at start."""

    def __init__(self, library: Library, first: SearchDone | None = None) -> None:
        super().__init__()
        self.library = library
        self.first = first


class LibraryFailed(Message):
    """The lists could not be opened; `error` is one line for the user."""

    def __init__(self, error: str) -> None:
        super().__init__()
        self.error = error


class PaperHighlighted(Message):
    """The list's cursor is on a new paper (None when the list is empty)."""

    def __init__(self, hit: Hit | None) -> None:
        super().__init__()
        self.hit = hit


class PaperOpened(Message):
    """The user asked to read the paper under the cursor."""

    def __init__(self, hit: Hit) -> None:
        super().__init__()
        self.hit = hit
