"""Opening the reader's lists: the worker's work, and the loading panel that shows how
it goes.

`open_lists` is what the reader screen's thread worker runs: it opens (or builds) the
index, keeps the first rows for the next start and answers the opening query, all off
the UI thread, and reports with messages (`IndexProgress`, then `LibraryReady` or
`LibraryFailed`). `LoadingSlot` gives the list's and detail's place to the loading panel
while the lists take long to open, or could not be. Most starts open a built index
within a frame or two and never show the panel, so it is made (and its module
imported) only when needed.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tui.app.messages import IndexProgress, LibraryFailed, LibraryReady, SearchDone
from tui.app.searching import run_search
from tui.app.widgets.status import StatusLine

if TYPE_CHECKING:
    from textual.message import Message
    from textual.screen import Screen
    from textual.timer import Timer

    from tui.app.settings import ReaderSettings
    from tui.app.widgets.loading import LoadingPanel
    from tui.core.index.first_screen import FirstScreen
    from tui.core.state import StateStore


def open_lists(settings: ReaderSettings, kept: FirstScreen | None, state: StateStore,
               width: int, rows: int, post: Callable[[Message], object]) -> None:
    """Open the lists and answer the opening query (for a list `width` wide, `rows`
    rows high); `post` sends the messages that say how it went."""
    # The core and Whoosh are imported here, in the worker, so that the first frame
    # is drawn while they load (start-up time is one of the reader's targets).
    from tui.core.index import first_screen
    from tui.core.index.library import open_library
    from tui.core.lists.paragraphs import SeedError

    def progress(done: int, total: int) -> None:
        post(IndexProgress(done, total))

    try:
        library = open_library(settings.seeds, settings.index_dir, progress)
    except SeedError as exc:
        post(LibraryFailed(str(exc)))
        return
    except OSError as exc:
        post(LibraryFailed(f"cannot open the index ({exc.strerror or exc})"))
        return
    if kept is not None:
        # For the next start; here, not after the answer, since the reader may be
        # closed (and the library with it) as soon as the answer is shown.
        first_screen.save(kept, library)
    # Answer the opening query here too: the first screen then needs no second
    # worker (start-up time is one of the reader's targets).
    result, snippets = run_search(library, settings.query, settings.search_limit,
                                  width, rows, state=state) or (None, {})
    first = SearchDone(0, result, snippets) if result is not None else None
    post(LibraryReady(library, first))
    # While the first screen is read: what the first search would read first, and
    # with papers starred, what the first for-you order (F) reads.
    starred = library.docnums_of(state.starred_ids())
    library.prepare(dense=bool(starred))
    if starred:
        from tui.core.search.interests import read_ahead_interests

        with contextlib.suppress(Exception):  # only ever reading ahead
            read_ahead_interests(library, library.in_list_order(list(starred)))


class LoadingSlot:
    """The loading panel in the place of `screen`'s list and detail (`#body`), with the
    build's progress or the reason the lists could not be opened."""

    def __init__(self, screen: Screen[Any]) -> None:
        self.screen = screen
        self.started = time.monotonic()
        """When the screen was made (monotonic seconds): the panel counts from it."""
        self.panel: LoadingPanel | None = None
        """Made and mounted once the lists take long to open, or fail to."""
        self.opened = False
        """The lists are open: the panel is not wanted any more."""
        self._timer: Timer | None = None

    # These may run before the screen is composed (a bad list fails at once), hence
    # `query`, which finds nothing then, rather than `query_one`, which raises.

    def progress(self, done: int, total: int) -> None:
        """The index build has indexed `done` of `total` files."""
        self._panel().progress(done, total)
        self.show()
        for status in self.screen.query(StatusLine):
            status.update(f"Building the index: {done:,} of {total:,} files")

    def fail(self, error: str) -> None:
        """The lists could not be opened."""
        self._panel().fail(error)
        self.show()
        for status in self.screen.query(StatusLine):
            status.update(error)

    def show_after(self, delay: float) -> None:
        """Show the panel if the lists are not open `delay` seconds from now."""
        self._timer = self.screen.set_timer(delay, self.show)

    def show(self) -> None:
        """Give the list's and detail's place to the panel until the lists open."""
        self._timer = None
        if self.opened or not self.screen.is_mounted:
            return  # the screen's on_mount shows it if there is news by then
        panel = self._panel()
        if panel.parent is None:
            self.screen.query_one("#body").mount(panel, before=0)
        self.screen.add_class("-loading")

    def done(self) -> None:
        """The lists are open: the list and detail have their place back."""
        self.opened = True
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.screen.remove_class("-loading")

    def _panel(self) -> LoadingPanel:
        # Imported here: most starts open a built index and never show the panel.
        from tui.app.widgets.loading import LoadingPanel

        if self.panel is None:
            self.panel = LoadingPanel(id="loading", started=self.started)
        return self.panel
