"""The reader's main screen: search box, paper list, detail pane and status line.

It is handed what outlives it (settings, reading state, drafts, the rows kept from the
last start) and knows nothing of the app. It opens the lists in a worker of its own
(`opening.py`), whose messages bubble on to the app. It owns two objects, each of which
knows it through a small Protocol: `LiveSearch` (`searching.py`) searches as the query
is typed, `Reading` (`reading.py`) does the reading keys. The palette reads the screen
through `commands.PaperSource`.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, cast

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.events import DescendantFocus
from textual.screen import Screen
from textual.widgets import Input
from textual.worker import Worker, WorkerState

from tui.app import bindings
from tui.app.layout import PREPARED_ROWS_EXTRA, first_screen_guess
from tui.app.messages import (IndexProgress, LibraryFailed, LibraryReady, PaperHighlighted,
                              PaperOpened, SearchDone)
from tui.app.reading import PAPER_ACTIONS, Reading
from tui.app.screens.opening import LoadingSlot, open_lists
from tui.app.screens.panes import Panes
from tui.app.searching import LiveSearch
from tui.app.settings import ReaderSettings
from tui.app.widgets.detail import DetailView
from tui.app.widgets.footer import KeyFooter
from tui.app.widgets.paper_list import PaperList
from tui.app.widgets.search_box import SearchBox
from tui.app.widgets.status import MatchBanner, StatusLine, banner_text, status_text

if TYPE_CHECKING:
    from tui.core.drafts import DraftStore
    from tui.core.index.first_screen import FirstScreen
    from tui.core.index.library import Library
    from tui.core.search.hits import SearchResult
    from tui.core.state import StateStore

LOADING_PANEL_AFTER_S = 0.4
"""A built index opens well within this; past it (an index being built), the list and
detail make way for the loading panel, with progress."""


class ReaderScreen(Screen[None]):
    """Search, list and detail, side by side at 100 columns or more.

    Focus moves with `set_focus`, not `widget.focus()`: the latter waits for the message
    queue, so the keys typed right after `/` would still go to the list and be lost.
    """

    BINDINGS = bindings.READER + bindings.READING
    AUTO_FOCUS = None
    """Focus is placed by `_place_focus`: Textual's auto-focus may land after the lists open."""

    def __init__(self, settings: ReaderSettings, state: StateStore, drafts: DraftStore,
                 kept: FirstScreen | None = None) -> None:
        """`kept`: the list's first rows, kept from the last time these lists were
        opened (`core.index.first_screen`), shown until the lists are open."""
        super().__init__()
        self._kept = kept
        self.opening = LoadingSlot(self)
        """The loading panel's place, while the lists open."""
        self.reading = Reading(self, settings, state, drafts)
        """The reading keys and what they change (the state, notes, filter, sort)."""
        self.live = LiveSearch(self, settings.search_limit)
        """The search as the query is typed."""
        self.panes = Panes(self)
        """Focus moving between the search box, the list and the detail pane."""
        self._had_query: bool | None = None
        """What the footer was last refreshed for (None: not yet)."""
        self.settings = settings
        self.library: Library | None = None
        self.result: SearchResult | None = None
        """The search result the list shows."""
        self._list_sizes: dict[str, int] = {}
        self._pending_select: int | None = None
        self._focus_placed = False
        self._detail_pending = False
        self._first: SearchDone | None = None

    def compose(self) -> ComposeResult:
        yield SearchBox(value=self.settings.query, placeholder="Search papers  ( / )",
                        id="search")
        yield MatchBanner(id="banner")
        with Horizontal(id="body"):
            papers = PaperList(id="papers")
            if self._kept is not None and self._kept.rows and not self.settings.query:
                papers.preview(self._kept.rows, self._kept.docnums)  # drawn in the first frame
            yield papers
            yield DetailView(id="detail")
        yield StatusLine("Opening the paper lists…", id="status")
        yield KeyFooter()

    def on_mount(self) -> None:
        box = self.query_one(SearchBox)
        box.cursor_blink = self.settings.cursor_blink
        self.query_one(PaperList).border_title = "Papers"
        self.query_one(DetailView).border_title = "Detail"
        self.query_one(MatchBanner).say(None)
        state = self.reading.state
        self.query_one(PaperList).state = self.query_one(DetailView).state = state
        self.query_one(DetailView).drafts = self.reading.drafts
        if self.library is not None:
            self._show_library(self.library)
            return
        self.query_one(PaperList).empty_text = "Opening the paper lists…"
        if self.opening.panel is not None:
            self.opening.show()  # progress or a failure came before the screen was composed
        elif not self.paper_list.hits:
            # Rows from the last start mean that these lists' index was built: it is being
            # opened, and the panel would only hide the rows; a build reports progress.
            self.opening.show_after(LOADING_PANEL_AFTER_S)

    # -- widgets --------------------------------------------------------------------

    @property
    def search_box(self) -> SearchBox:
        return self.query_one(SearchBox)

    @property
    def paper_list(self) -> PaperList:
        return self.query_one(PaperList)

    @property
    def detail(self) -> DetailView:
        return self.query_one(DetailView)

    @property
    def idle(self) -> bool:
        """True when the lists are open, the latest search is on screen, and nothing is
        being read ahead for the next."""
        return (self.library is not None and self.live.caught_up and not self._detail_pending
                and not self.reading.for_you.reading_ahead)

    @property
    def search_serial(self) -> int:
        """Serial of the latest search started."""
        return self.live.serial

    @property
    def shown_serial(self) -> int:
        """Serial of the search whose result is on screen."""
        return self.live.shown

    # -- opening ----------------------------------------------------------------------

    def open_library(self) -> None:
        """Open the lists in a thread; `LibraryReady` or `LibraryFailed` answers."""
        # Sized for the screen before layout, as the first frame lays the list out.
        width, rows = first_screen_guess(self.app.size.width, self.app.size.height)
        self.run_worker(partial(open_lists, self.settings, self._kept, self.reading.state,
                                width, rows, self.post_message),
                        group="library", exclusive=True, thread=True)

    def show_progress(self, done: int, total: int) -> None:
        """The index build has indexed `done` of `total` files."""
        self.opening.progress(done, total)

    def on_index_progress(self, message: IndexProgress) -> None:
        self.show_progress(message.done, message.total)

    def on_library_failed(self, message: LibraryFailed) -> None:
        self.opening.fail(message.error)  # the app, which it bubbles to, exits

    def on_library_ready(self, message: LibraryReady) -> None:
        """The lists are open: show them with the opening query's answer."""
        library = self.library = message.library
        for notice in library.notices:
            self.notify(notice, severity="warning", timeout=10)
        self._first = message.first
        if self.is_mounted:
            self._show_library(library)
        # else on_mount shows it: a built index can open before the screen is composed

    def close_library(self) -> None:
        """Close the lists' index (the reader is ending)."""
        if self.library is not None:
            self.library.close()

    def _show_library(self, library: Library) -> None:
        self._list_sizes = {str(entry["file"]): cast(int, entry["papers"])
                            for entry in library.lists}
        self.opening.done()
        self._place_focus()
        first, self._first = self._first, None
        if first is not None and first.result.query == self.search_box.value:
            # The loading worker already searched: no second thread, no second wait.
            self.on_search_done(SearchDone(self.next_search_serial(), first.result,
                                           first.snippets))
        else:
            self.start_search()  # the query changed while the lists were opening

    def on_screen_resume(self) -> None:
        if not self._focus_placed:
            self._focus_placed = True
            self._place_focus()
        if self._detail_pending:
            # Textual queues an after-refresh call on the screen on top, here the one
            # that just closed, which may have gone without running it: without this
            # the detail pane would never follow the list again.
            self.call_after_refresh(self._sync_detail)

    def _place_focus(self) -> None:
        """The list once the lists are open, the search box while they open.

        Someone who typed while the index was built keeps the search box.
        """
        if self.focused not in (None, self.search_box):
            return
        if self.library is not None and self.search_box.value == self.settings.query:
            self.set_focus(self.paper_list)
        else:
            self.set_focus(self.search_box)

    # -- search -----------------------------------------------------------------------

    @on(Input.Changed, "#search")
    def _query_changed(self) -> None:
        # The footer depends only on whether there is a query; refreshing it on every
        # keystroke re-lays it out and costs typing tens of milliseconds.
        has_query = bool(self.search_box.value)
        if has_query != self._had_query:
            self._had_query = has_query
            self.refresh_bindings()
        self.live.typed()

    def start_search(self) -> None:
        """Search for what the box holds now (answered by `SearchDone`)."""
        self.live.start()

    def next_search_serial(self) -> int:
        """The serial of a search about to start (answers of older ones are dropped)."""
        return self.live.next_serial()

    def first_screen(self) -> tuple[int, int]:
        """(snippet width, rows) the first screen of the list needs."""
        papers = self.paper_list
        region = papers.scrollable_content_region
        if not region.width:  # not laid out yet (still loading)
            return first_screen_guess(self.app.size.width, self.app.size.height)
        # Rows of the first screen while searching (two lines each), a few spare.
        return max(20, region.width - 4), region.height // 2 + PREPARED_ROWS_EXTRA

    def on_search_done(self, message: SearchDone) -> None:
        if not self.live.is_latest(message):
            return  # a newer query was typed meanwhile; its answer is on the way
        result = self.result = message.result
        papers = self.paper_list
        keep = self._pending_select if self._pending_select is not None else papers.chosen
        empty = f"No papers match “{result.query.strip()}”." if result.query.strip() else \
            "These lists hold no papers."
        papers.show(result.hits, result.terms, message.snippets, keep=keep, empty_text=empty)
        self.search_box.suggestion = result.suggestion
        self.query_one(MatchBanner).say(self.reading.banner_for_similar()
                                        or self.reading.for_you.banner(result)
                                        or banner_text(result))
        self.live.answered(result)
        if self._pending_select is not None:
            self._pending_select = None
            self.open_detail()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker.group == "search" and event.state == WorkerState.ERROR:
            # The search failed; say so instead of leaving the old results unexplained.
            self.live.failed()
            if self.detail.stale:  # the mark the answer was to show
                self.detail.refresh_text()
            error = str(worker.error).splitlines()[0] if str(worker.error) else repr(worker.error)
            self.query_one(StatusLine).update(f"search failed: {error}")

    @on(SearchBox.Leave)
    def _leave_search(self, message: SearchBox.Leave) -> None:
        if self.library is not None:
            self.live.leave_box(message.submitted)

    # -- list and detail ----------------------------------------------------------------

    def on_paper_highlighted(self, message: PaperHighlighted) -> None:
        if self.library is None:
            return  # the first screen's rows: no abstract to show until the lists open
        self._update_status()
        # The detail follows after the list's repaint, once per frame however many
        # moves came in: wrapping an abstract must not slow the list when j is held.
        if not self._detail_pending:
            self._detail_pending = True
            self.call_after_refresh(self._sync_detail)

    def _sync_detail(self) -> None:
        self._detail_pending = False
        hit = self.paper_list.current
        terms = self.result.terms if self.result else frozenset()
        because = self.reading.for_you.because(self.result, hit.docnum) if hit is not None else None
        if hit is None:
            self.detail.show(None)
        elif (hit.paper != self.detail.paper or terms != self.detail.terms
              or because != self.detail.because or self.detail.stale):
            self.detail.show(hit.paper, terms, self._list_sizes.get(hit.paper.file), because)
        if because is not None and hit is not None:  # for-you order: a star re-ranks
            self.reading.for_you.rest_on(hit.paper)  # from memory
        self.reading.schedule_read(hit.paper if hit is not None else None)

    def on_paper_opened(self, message: PaperOpened) -> None:
        if self.library is None:
            # A row of the first screen: opened once the lists are (see on_search_done).
            self._pending_select = message.hit.docnum
            return
        self.open_detail()

    def open_detail(self) -> None:
        """Show the detail pane (the whole screen when narrow) and focus it."""
        self.add_class("-detail-open")
        self.set_focus(self.detail)
        self.reading.schedule_read(self.reading.selected_paper)  # a narrow screen shows it now

    def jump_to(self, docnum: int) -> None:
        """Select paper `docnum` and open it, clearing the query if it hides the paper."""
        if self.paper_list.select_docnum(docnum):
            self.open_detail()
            return
        self._pending_select = docnum
        if self.search_box.value:
            self.search_box.value = ""  # the search this starts selects the paper
        else:
            self.start_search()

    def _update_status(self) -> None:
        current = self.paper_list.current
        papers = len(self.library) if self.library is not None else 0
        text = status_text(self.result, papers, current.paper if current else None,
                           self.settings.show_timings,
                           filtered=bool(self.reading.filter_index)
                           or self.reading.similar_of is not None)
        view = self.reading.view_status()
        if self.reading.for_you.on:  # first: the order itself is what the list shows
            text, view = view, text
        self.query_one(StatusLine).update(f"{text} · {view}" if view else text)

    # -- panes ----------------------------------------------------------------------------

    def on_descendant_focus(self, event: DescendantFocus) -> None:
        self.panes.focused(event.widget)

    def action_next_pane(self) -> None:
        self.panes.cycle(+1)

    def action_previous_pane(self) -> None:
        self.panes.cycle(-1)

    def action_back(self) -> None:
        """Esc: leave the search box or the detail; from the list, clear the query."""
        self.panes.back()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "back" and not self.panes.can_go_back():
            return False  # left out of the footer where it would do nothing
        if action in PAPER_ACTIONS and (self.library is None or self.paper_list.current is None):
            return None  # shown dimmed: no paper selected
        return True

    # -- the reading keys (bound here, so that they work from the list and the detail) --

    def action_toggle_star(self) -> None: self.reading.toggle_star()
    def action_toggle_read(self) -> None: self.reading.toggle_read()
    def action_edit_note(self) -> None: self.reading.edit_note()
    def action_cycle_filter(self) -> None: self.reading.cycle_filter()
    def action_cycle_sort(self) -> None: self.reading.cycle_sort()
    def action_similar(self) -> None: self.reading.similar()
    def action_for_you(self) -> None: self.reading.for_you.toggle()
    def action_toggle_dislike(self) -> None: self.reading.for_you.toggle_dislike()
    def action_undo_dislike(self) -> None: self.reading.for_you.undo_dislike()
    def action_copy_abstract(self) -> None: self.reading.copy_abstract()
    def action_copy_reference(self) -> None: self.reading.copy_reference()
    def action_open_link(self) -> None: self.reading.open_link()
    def action_export(self) -> None: self.reading.export()

    # -- what the app and the palette ask -----------------------------------------------

    def focus_search(self) -> None:
        """Put the cursor in the search box, at once (see the class docstring)."""
        self.set_focus(self.search_box)

    def set_query(self, query: str) -> None:
        """Replace the query (the search follows) and focus the search box."""
        self.search_box.value = query
        self.set_focus(self.search_box)
