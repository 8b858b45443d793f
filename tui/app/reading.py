"""The reader's reading keys: stars, read marks, notes, filter, sort, similar papers,
copying, links and export (the for-you order: `for_you`).

`Reading` is an object the reader screen owns and hands its key presses to (the
bindings sit on the screen, so the keys work from the list and from the detail pane
alike). It knows the screen only through `ReadingView`, the few things it asks of it,
and never the app: the reading state and the note drafts are handed to it. The state
itself is the core's `StateStore`; this module only asks it, and redraws.
"""

from __future__ import annotations

from pathlib import Path
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from rich.text import Text
from textual.worker import get_current_worker

from tui.app import sharing
from tui.app.for_you import ForYou, short_name
from tui.app.messages import SearchDone, Snippets
from tui.app.prepared import first_rows
from tui.app.view import PanesView, WorkerHost

if TYPE_CHECKING:
    from textual.app import App
    from textual.timer import Timer

    from tui.app.drafting import DraftKeeper
    from tui.app.settings import ReaderSettings
    from tui.core.drafts import DraftStore
    from tui.core.index.library import Library
    from tui.core.model import Paper
    from tui.core.search.hits import SearchResult
    from tui.core.state import StateStore

FILTERS: list[tuple[str, list[str]]] = [
    ("all", []),
    ("starred", ["is:starred"]),
    ("unread", ["is:unread"]),
    ("with notes", ["has:note"]),
]
"""What `f` cycles through: a name for the status line and the core filters it applies."""
SORTS: list[tuple[str, str]] = [
    ("relevance", "relevance"),
    ("list order", "list"),
    ("name A–Z", "name"),
    ("year, newest first", "year"),
]
"""What `S` cycles through: a name for the status line and the core's sort key."""
PAPER_ACTIONS = frozenset({
    "toggle_star", "toggle_read", "edit_note", "similar", "copy_abstract", "copy_reference",
    "open_link", "toggle_dislike",
})
"""Reading actions that need a selected paper (dimmed in the footer without one)."""
SIMILAR_LIMIT = 50
"""How many similar papers `r` lists."""
SIMILAR_PREFIX = "similar:"
"""How `tui.core.search.search.similar` names its result's query."""


class ReadingView(PanesView, WorkerHost, Protocol):
    """What `Reading` needs of the screen that owns it: beside its panes, what the list
    shows, and a fresh search."""

    @property
    def app(self) -> App[Any]: ...

    @property
    def result(self) -> SearchResult | None:
        """The search result the list shows."""

    def start_search(self) -> None:
        """Search again for the query on show, with the filter and sort chosen."""

    def next_search_serial(self) -> int:
        """The serial of a search about to start (answers of older ones are dropped)."""

    def first_screen(self) -> tuple[int, int]:
        """(snippet width, rows) the first screen of the list needs."""

    @property
    def search_serial(self) -> int:
        """Serial of the latest search started."""

    @property
    def shown_serial(self) -> int:
        """Serial of the search whose result is on screen."""


class Reading:
    """The reading keys of the reader screen, and what they change: the reading state,
    the note being edited, the filter, the sort and the similar papers on show."""

    def __init__(self, view: ReadingView, settings: ReaderSettings, state: StateStore,
                 drafts: DraftStore) -> None:
        self.view = view
        self.settings = settings
        self.state = state
        """Stars, read marks and notes (the core's store; saved after every change)."""
        self.drafts = drafts
        """The note editor's drafts, beside the reading state."""
        self.note_keeper: DraftKeeper | None = None
        """Keeps the last opened note editor's text as a draft."""
        self.filter_index = 0
        """Index in FILTERS of the filter `f` chose."""
        self.sort_index = 0
        """Index in SORTS of the order `S` chose."""
        self.similar_of: Paper | None = None
        """The paper whose similar papers the list shows (`r`); None for a search."""
        self._similar_docnum: int | None = None
        self._left: tuple[SearchResult, Snippets] | None = None
        """The search result (and its snippets) the list showed when `r` left it, which
        Esc shows again: the query, filter and sort are the same, so is its answer."""
        self._read_timer: Timer | None = None
        self._read_timer_paper: str | None = None
        self._notices_shown: set[str] = set()
        self.for_you = ForYou(self)
        """The for-you order (`F`) and the not-interested marks (`d`, `u`)."""

    @property
    def app(self) -> App[Any]:
        return self.view.app

    def report_state_notices(self) -> None:
        """Show the reading state's new problems (a corrupt file moved aside, a folder
        that cannot be written) as notifications; each one once."""
        for notice in [*self.state.notices, *self.drafts.notices]:
            if notice not in self._notices_shown:
                self._notices_shown.add(notice)
                self.app.notify(notice, title="Reading state", severity="warning", timeout=10)

    def keep_typed_text(self) -> None:
        """Write the open note's draft now, and the reading state (normally saved already)."""
        if self.note_keeper is not None:
            self.note_keeper.flush()
        self.state.save()

    # -- what the search uses -------------------------------------------------------

    @property
    def filter_names(self) -> list[str]:
        """The core filters (`is:starred`…) the list is narrowed by."""
        return FILTERS[self.filter_index][1]

    @property
    def sort_key(self) -> str:
        """The core's sort key for the list."""
        return SORTS[self.sort_index][1]

    def view_status(self) -> str:
        """The status line's part about filter, sort and similar papers ("" by default)."""
        parts = []
        if self.similar_of is not None:
            parts.append(f"like {short_name(self.similar_of)} (Esc: back)")
        if self.filter_index:
            parts.append(f"filter: {FILTERS[self.filter_index][0]}")
        if self.for_you.on:
            parts.append(self.for_you.status())
        elif self.sort_index:
            parts.append(f"sort: {SORTS[self.sort_index][0]}")
        return " · ".join(parts)

    def banner_for_similar(self) -> Text | None:
        """The banner over the list of similar papers."""
        paper = self.similar_of
        if paper is None:
            return None
        return Text.assemble("Papers most like ", (short_name(paper), "bold"),
                             " · Esc goes back")

    # -- the selected paper -----------------------------------------------------------

    @property
    def selected_paper(self) -> Paper | None:
        """The paper under the list's cursor (which the detail pane shows)."""
        hit = self.view.paper_list.current
        return hit.paper if hit is not None else None

    def _paper_or_bell(self) -> Paper | None:
        paper = self.selected_paper
        if paper is None:
            self.app.bell()
        return paper

    def reading_state_changed(self, by_user: bool = True) -> None:
        """Redraw what shows the reading state, and report the store's problems.

        Under a filter, a change the user made (unstarring in the starred view) runs
        the search again so the list agrees with the filter; the automatic read mark
        does not, so the paper being read does not vanish from under the reader.
        """
        if by_user and (self.filter_index or self.for_you.on):
            # The for-you order follows the stars. The answer repaints the rows and
            # the detail with the new marks: drawing them now as well would slow it.
            self.view.start_search()
            self.view.detail.stale = True
        else:
            self.view.paper_list.refresh_rows()
            self.view.detail.refresh_text()
        self.report_state_notices()
        if by_user:
            self.for_you.stars_changed()

    # -- star, read, note ---------------------------------------------------------------

    def toggle_star(self) -> None:
        """Star or unstar the selected paper."""
        if (paper := self._paper_or_bell()) is not None:
            self.state.toggle_star(paper.id)
            self.reading_state_changed()

    def toggle_read(self) -> None:
        """Mark the selected paper read or unread; the auto-read timer then lets it be."""
        if (paper := self._paper_or_bell()) is not None:
            self._cancel_read_timer()
            self.state.toggle_read(paper.id)
            self.reading_state_changed()

    def edit_note(self) -> None:
        """Open the note editor on the selected paper (from its left draft, if any)."""
        paper = self._paper_or_bell()
        if paper is None:
            return
        from tui.app.drafting import open_note_editor

        self.note_keeper = open_note_editor(self.app, paper, self.state, self.drafts,
                                            self.reading_state_changed,
                                            cursor_blink=self.settings.cursor_blink)

    def schedule_read(self, paper: Paper | None) -> None:
        """Mark `paper` read once it has stayed in the detail pane `read_after` seconds.

        A new selection cancels the timer; the same paper (a search that kept it) lets a
        running timer run on.
        """
        paper_id = paper.id if paper is not None else None
        if paper_id == self._read_timer_paper and self._read_timer is not None:
            return
        self._cancel_read_timer()
        delay = self.settings.read_after
        if paper is None or delay <= 0 or self.state.is_read(paper.id):
            return
        self._read_timer_paper = paper.id
        self._read_timer = self.view.set_timer(delay, lambda: self._mark_read_if_shown(paper.id))

    def _cancel_read_timer(self) -> None:
        if self._read_timer is not None:
            self._read_timer.stop()
        self._read_timer = None
        self._read_timer_paper = None

    def _mark_read_if_shown(self, paper_id: str) -> None:
        self._read_timer = None
        detail = self.view.detail
        # On a narrow screen the detail pane is hidden until the paper is opened.
        if detail.paper is None or detail.paper.id != paper_id or not detail.region.area:
            return
        if not self.state.is_read(paper_id):
            self.state.set_read(paper_id, True)
            self.reading_state_changed(by_user=False)

    # -- filter, sort, similar -----------------------------------------------------------

    def cycle_filter(self) -> None:
        """All papers → starred → unread → with notes → all."""
        self.filter_index = (self.filter_index + 1) % len(FILTERS)
        self.view.start_search()

    def cycle_sort(self) -> None:
        """Relevance → list order → name A–Z → year → relevance (leaving for-you)."""
        self.for_you.on = False
        self.sort_index = (self.sort_index + 1) % len(SORTS)
        self.view.start_search()

    def similar(self) -> None:
        """List the papers most like the selected one; Esc comes back."""
        hit = self.view.paper_list.current
        library = self.view.library
        if hit is None or library is None:
            self.app.bell()
            return
        view = self.view
        if self.similar_of is None:  # `r` again from similar papers keeps the search's
            latest = view.result is not None and view.shown_serial == view.search_serial
            self._left = (view.result, view.paper_list.snippets) if latest else None
        self.similar_of = hit.paper
        self._similar_docnum = hit.docnum
        # In the search's exclusive group: a search typed meanwhile cancels it, and back.
        self.view.run_worker(
            partial(self._find_similar, library, self.view.next_search_serial(), hit.docnum,
                    *view.first_screen()),
            group="search", exclusive=True, exit_on_error=False, thread=True)

    def _find_similar(self, library: Library, serial: int, docnum: int, width: int,
                      rows: int) -> None:
        from tui.core.search.search import similar

        worker = get_current_worker()
        result = similar(library, docnum, SIMILAR_LIMIT)
        # The first screen's papers and snippets are made here, as a search's are: on
        # the UI thread they cost the list's repaint tens of milliseconds.
        snippets = first_rows(result, width, rows, lambda: worker.is_cancelled)
        if snippets is not None and not worker.is_cancelled:
            self.view.post_message(SearchDone(serial, result, snippets))

    def leave_similar(self) -> bool:
        """Back from the similar papers to the search, on the paper `r` was pressed on."""
        if self.similar_of is None:
            return False
        docnum = self._similar_docnum
        self.similar_of = None
        self.view.paper_list.chosen = docnum  # the search's answer selects it again
        left, self._left = self._left, None
        if left is None:
            self.view.start_search()
        else:  # as an answer of its own, so that a similar search still due is dropped
            self.view.post_message(SearchDone(self.view.next_search_serial(), *left))
        return True

    # -- copy, open, export ---------------------------------------------------------------

    def copy_abstract(self) -> None:
        """Copy the selected paper's abstract (as rendered text)."""
        if (paper := self._paper_or_bell()) is not None:
            sharing.copy_abstract(self.app, paper)

    def copy_reference(self) -> None:
        """Copy a reference to the selected paper: title, name, list and id."""
        if (paper := self._paper_or_bell()) is not None:
            sharing.copy_reference(self.app, paper)

    def open_link(self) -> None:
        """Open the selected paper's first link; without a browser, show it instead."""
        if (paper := self._paper_or_bell()) is not None:
            sharing.open_link(self.app, paper)

    def export(self) -> None:
        """Write the listed papers to a Markdown file in the current folder."""
        result = self.view.result
        if result is None or not result.hits:
            self.app.notify("Nothing to export.", severity="warning", timeout=3)
            return
        # In a thread: loading every listed paper may take a while with a long list.
        work = partial(sharing.export_hits, self.app, list(result.hits), Path.cwd(), self.state)
        self.view.run_worker(work, group="export", exclusive=False, exit_on_error=False,
                             thread=True)
