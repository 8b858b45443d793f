"""The reader's main screen: search box, paper list, detail pane and status line.

It owns the live search. Every change of the query starts an exclusive thread worker
(the previous one is cancelled); the worker answers with `SearchDone`, and answers of
older queries are dropped by serial number, so a slow stale search can never overwrite
a newer result.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.events import DescendantFocus
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input
from textual.worker import Worker, WorkerState, get_current_worker

from tui.app import bindings
from tui.app.layout import PREPARED_ROWS_EXTRA, first_screen_guess
from tui.app.messages import PaperHighlighted, PaperOpened, SearchDone
from tui.app.reading import ReadingActions
from tui.app.searching import run_search
from tui.app.settings import ReaderSettings
from tui.app.widgets.detail import DetailView
from tui.app.widgets.footer import KeyFooter
from tui.app.widgets.paper_list import PaperList
from tui.app.widgets.search_box import SearchBox
from tui.app.widgets.status import MatchBanner, StatusLine, banner_text, status_text

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tui.app.widgets.loading import LoadingPanel
    from tui.core.index.library import Library
    from tui.core.model import Paper
    from tui.core.search.hits import SearchResult


LOADING_PANEL_AFTER_S = 0.4
"""A built index opens well within this; past it (an index being built), the list and
detail make way for the loading panel, with progress."""

RESCUE_AFTER_S = 0.25
"""A query that finds nothing gets its "did you mean" and close matches once typing has
paused this long. Looking for them takes up to a few hundred milliseconds of the one
interpreter the screen is drawn by too: on every keystroke of a misspelt word, typing
stuttered."""


_PAPER_ACTIONS = frozenset({
    "toggle_star", "toggle_read", "edit_note", "similar", "copy_abstract", "copy_reference",
    "open_link",
})
"""Reading actions that need a selected paper."""


class ReaderScreen(ReadingActions, Screen[None]):
    """Search, list and detail, side by side at 100 columns or more.

    Focus moves with `set_focus`, not `widget.focus()`: the latter waits for the message
    queue, so the keys typed right after `/` would still go to the list and be lost.
    """

    BINDINGS = bindings.READER + bindings.READING
    AUTO_FOCUS = None
    """Focus is placed by `_place_focus`: Textual's auto-focus may land after the lists open."""

    def __init__(self, settings: ReaderSettings,
                 first_screen: Sequence[Paper] = ()) -> None:
        """`first_screen`: the list's first rows, kept from the last time these lists were
        opened (`core.first_screen`), shown until the lists are open."""
        super().__init__()
        self._first_rows = first_screen
        self._loading: LoadingPanel | None = None
        """Made and mounted once the lists take long to open, or fail to."""
        self._loading_timer: Timer | None = None
        self._started = time.monotonic()
        self._had_query: bool | None = None
        """What the footer was last refreshed for (None: not yet)."""
        self.settings = settings
        self.library: Library | None = None
        self.result: SearchResult | None = None
        """The search result the list shows."""
        self.search_serial = 0
        """Serial of the latest search started; older answers are dropped."""
        self.shown_serial = 0
        """Serial of the search whose result is on screen."""
        self._list_sizes: dict[str, int] = {}
        self._pending_select: int | None = None
        self._focus_placed = False
        self._detail_pending = False
        self._first: SearchDone | None = None
        self._rescue_timer: Timer | None = None
        """Runs the rescue of a query that found nothing, once typing pauses."""
        self._submitted = False
        """Enter was pressed in the search box before the answer to its query came."""

    def compose(self) -> ComposeResult:
        yield SearchBox(value=self.settings.query, placeholder="Search papers  ( / )",
                        id="search")
        yield MatchBanner(id="banner")
        with Horizontal(id="body"):
            papers = PaperList(id="papers")
            if self._first_rows and not self.settings.query:
                papers.preview(self._first_rows)  # drawn in the first frame
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
        state = self.app.state  # type: ignore[attr-defined]
        self.query_one(PaperList).state = self.query_one(DetailView).state = state
        self.query_one(DetailView).drafts = self.app.drafts  # type: ignore[attr-defined]
        if self.library is not None:
            self._show_library(self.library)
            return
        self.query_one(PaperList).empty_text = "Opening the paper lists…"
        if self._loading is not None:
            self._show_loading()  # progress or a failure came before the screen was composed
        elif not self.paper_list.hits:
            # Rows from the last start mean that these lists' index was built: it is being
            # opened, and the panel would only hide the rows; a build reports progress.
            self._loading_timer = self.set_timer(LOADING_PANEL_AFTER_S, self._show_loading)

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
        """True when the lists are open and the latest search is on screen."""
        return (self.library is not None and self.shown_serial == self.search_serial
                and not self._detail_pending and self._rescue_timer is None)

    # -- opening ----------------------------------------------------------------------

    # These may run before the screen is composed (a bad list fails at once), hence
    # `query`, which finds nothing then, rather than `query_one`, which raises.

    def show_progress(self, done: int, total: int) -> None:
        """The index build has indexed `done` of `total` files."""
        self._loading_panel().progress(done, total)
        self._show_loading()
        for status in self.query(StatusLine):
            status.update(f"Building the index: {done:,} of {total:,} files")

    def show_failure(self, error: str) -> None:
        """The lists could not be opened."""
        self._loading_panel().fail(error)
        self._show_loading()
        for status in self.query(StatusLine):
            status.update(error)

    def _loading_panel(self) -> LoadingPanel:
        # Imported here: most starts open a built index and never show the panel.
        from tui.app.widgets.loading import LoadingPanel

        if self._loading is None:
            self._loading = LoadingPanel(id="loading", started=self._started)
        return self._loading

    def _show_loading(self) -> None:
        """Give the list's and detail's place to the loading panel until the lists open."""
        self._loading_timer = None
        if self.library is not None or not self.is_mounted:
            return  # on_mount shows it if there is news by then
        panel = self._loading_panel()
        if panel.parent is None:
            self.query_one("#body").mount(panel, before=0)
        self.add_class("-loading")

    def library_ready(self, library: Library, first: SearchDone | None = None) -> None:
        """The lists are open: show them with `first`, the opening query's answer."""
        self.library = library
        self._first = first
        if self.is_mounted:
            self._show_library(library)
        # else on_mount shows it: a built index can open before the screen is composed

    def _show_library(self, library: Library) -> None:
        self._list_sizes = {str(entry["file"]): int(entry["papers"])  # type: ignore[call-overload]
                            for entry in library.lists}
        if self._loading_timer is not None:
            self._loading_timer.stop()
            self._loading_timer = None
        self.remove_class("-loading")
        self._place_focus()
        first, self._first = self._first, None
        if first is not None and first.result.query == self.search_box.value:
            # The loading worker already searched: no second thread, no second wait.
            self.search_serial += 1
            self.on_search_done(SearchDone(self.search_serial, first.result, first.snippets))
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
        self._submitted = False  # typing on after Enter: that Enter is no longer pending
        has_query = bool(self.search_box.value)
        if has_query != self._had_query:
            self._had_query = has_query
            self.refresh_bindings()
        self.start_search()

    def start_search(self) -> None:
        """Search for what the box holds now (answered by `SearchDone`)."""
        self._search_now(rescue=False)

    def _search_now(self, rescue: bool) -> None:
        if self.library is None:
            return
        self._cancel_rescue()
        self.search_serial += 1
        self.similar_of = None  # a search replaces the similar papers
        self._search(self.library, self.search_serial, self.search_box.value, rescue,
                     *self.first_screen())

    @work(thread=True, exclusive=True, group="search", exit_on_error=False)
    def _search(self, library: Library, serial: int, query: str, rescue: bool, width: int,
                rows: int) -> None:
        worker = get_current_worker()
        done = run_search(library, query, self.settings.search_limit, width, rows,
                          lambda: worker.is_cancelled, state=self.state, sort=self.sort_key,
                          filters=self.filter_names, rescue=rescue)
        if done is not None and not worker.is_cancelled:
            self.post_message(SearchDone(serial, *done))

    def _rescue_later(self) -> None:
        """The query found nothing: look for a suggestion once typing pauses."""
        self._cancel_rescue()
        self._rescue_timer = self.set_timer(RESCUE_AFTER_S, self._rescue_now)

    def _rescue_now(self) -> None:
        self._rescue_timer = None
        self._search_now(rescue=True)

    def _cancel_rescue(self) -> None:
        if self._rescue_timer is not None:
            self._rescue_timer.stop()
            self._rescue_timer = None

    def first_screen(self) -> tuple[int, int]:
        """(snippet width, rows) the first screen of the list needs."""
        papers = self.paper_list
        region = papers.scrollable_content_region
        if not region.width:  # not laid out yet (still loading)
            return first_screen_guess(self.app.size.width, self.app.size.height)
        # Rows of the first screen while searching (two lines each), a few spare.
        return max(20, region.width - 4), region.height // 2 + PREPARED_ROWS_EXTRA

    def on_search_done(self, message: SearchDone) -> None:
        if message.serial != self.search_serial:
            return  # a newer query was typed meanwhile; its answer is on the way
        self.shown_serial = message.serial
        result = self.result = message.result
        papers = self.paper_list
        keep = self._pending_select if self._pending_select is not None else papers.chosen
        empty = f"No papers match “{result.query.strip()}”." if result.query.strip() else \
            "These lists hold no papers."
        papers.show(result.hits, result.terms, message.snippets, keep=keep, empty_text=empty)
        self.search_box.suggestion = result.suggestion
        self.query_one(MatchBanner).say(self.banner_for_similar() or banner_text(result))
        if self._submitted:
            self._after_submit(result)
        elif not result.rescued:
            self._rescue_later()
        if self._pending_select is not None:
            self._pending_select = None
            self.open_detail()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker.group == "search" and event.state == WorkerState.ERROR:
            # The search failed; say so instead of leaving the old results unexplained.
            self.shown_serial = self.search_serial
            error = str(worker.error).splitlines()[0] if str(worker.error) else repr(worker.error)
            self.query_one(StatusLine).update(f"search failed: {error}")

    @on(SearchBox.Leave)
    def _leave_search(self, message: SearchBox.Leave) -> None:
        if self.library is None:
            return
        if message.submitted and self.shown_serial != self.search_serial:
            # Enter right after typing: the query's answer decides (`_after_submit`).
            self._submitted = True
        elif message.submitted and self._rescue_timer is not None:
            self._rescue_now()
        else:
            self.set_focus(self.paper_list)

    def _after_submit(self, result: SearchResult) -> None:
        """Enter came before the answer to the query: go to the list if it found papers
        as typed; else stay in the box, with the "did you mean" (looked for now, if need
        be), which a second Enter accepts."""
        self._submitted = False
        if not result.rescued:
            self._rescue_now()
        elif not result.suggestion and self.focused is self.search_box:
            self.set_focus(self.paper_list)

    @on(SearchBox.AcceptSuggestion)
    def _accept_suggestion(self) -> None:
        box = self.search_box
        if box.suggestion:
            box.value = box.suggestion
            box.cursor_position = len(box.value)

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
        if hit is None:
            self.detail.show(None)
        elif hit.paper != self.detail.paper or terms != self.detail.terms:
            self.detail.show(hit.paper, terms, self._list_sizes.get(hit.paper.file))
        self.schedule_read(hit.paper if hit is not None else None)

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
        self.schedule_read(self.selected_paper)  # a narrow screen shows it from now

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
                           filtered=bool(self.filter_index) or self.similar_of is not None)
        view = self.view_status()
        self.query_one(StatusLine).update(f"{text} · {view}" if view else text)

    # -- panes ----------------------------------------------------------------------------

    def on_descendant_focus(self, event: DescendantFocus) -> None:
        # On a narrow screen the list or the detail has the screen: the one last focused.
        if isinstance(event.widget, PaperList):
            self.remove_class("-detail-open")
        elif isinstance(event.widget, DetailView):
            self.add_class("-detail-open")

    def _panes(self) -> list[Widget]:
        if self.library is None:
            return [self.search_box]
        return [self.search_box, self.paper_list, self.detail]

    def _cycle(self, step: int) -> None:
        panes = self._panes()
        current = self.focused
        index = panes.index(current) if current in panes else 0
        target = panes[(index + step) % len(panes)]
        if isinstance(target, DetailView):
            self.add_class("-detail-open")  # so that a narrow screen shows it
        self.set_focus(target)

    def action_next_pane(self) -> None:
        self._cycle(+1)

    def action_previous_pane(self) -> None:
        self._cycle(-1)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Esc is left out of the footer where it would do nothing: in the list, with no
        # query to clear.
        if action == "back" and self.library is not None:
            if (self.focused is self.paper_list and not self.search_box.value
                    and self.similar_of is None):
                return False
        if action in _PAPER_ACTIONS and (self.library is None or self.paper_list.current is None):
            return None  # shown dimmed: no paper selected
        return True

    def action_back(self) -> None:
        """Esc: leave the search box or the detail; from the list, clear the query."""
        focused = self.focused
        if self.library is None:
            return
        if isinstance(focused, (SearchBox, DetailView)) or self.has_class("-detail-open"):
            self.set_focus(self.paper_list)
        elif self.leave_similar():
            pass
        elif self.search_box.value:
            self.search_box.value = ""
