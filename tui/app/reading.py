"""The reader's reading keys: stars, read marks, notes, filter, sort, similar papers,
copying, links and export.

`ReadingActions` is mixed into `ReaderScreen`, so the keys work from the list and from
the detail pane alike (the binding sits on the screen), while the screen's own module
keeps to searching and moving between panes. The reading state itself is the core's
`StateStore`, owned by the app (`app.state`); this module only asks it and redraws.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.timer import Timer
from textual.worker import get_current_worker

from tui.app.messages import SearchDone

if TYPE_CHECKING:
    from tui.app.app import PaperscopeApp
    from tui.app.settings import ReaderSettings
    from tui.app.widgets.detail import DetailView
    from tui.app.widgets.paper_list import PaperList
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
SIMILAR_LIMIT = 50
"""How many similar papers `r` lists."""
SIMILAR_PREFIX = "similar:"
"""How `tui.core.search.search.similar` names its result's query."""


def short_name(paper: Paper, width: int = 40) -> str:
    """The paper's name, or its title cut to about `width` cells, for one-line messages."""
    if paper.name:
        return paper.name
    title = " ".join(paper.title.split())
    return title if len(title) <= width else title[:width - 1].rstrip() + "…"


def reference_text(paper: Paper) -> str:
    """The block `Y` copies: title, name, authors, year and venue, list, link and id,
    one per line (those the list gives)."""
    lines = [" ".join(paper.title.split())]
    if paper.name:
        lines.append(paper.name)
    if paper.authors:
        lines.append(", ".join(paper.authors))
    published = ", ".join(p for p in (paper.venue if paper.venue != paper.list_title else "",
                                       str(paper.year or "")) if p)
    if published:
        lines.append(published)
    lines.append(paper.list_title)
    if paper.link:
        lines.append(paper.link)
    if paper.doi:
        lines.append(f"doi {paper.doi}")
    lines.append(f"id {paper.id}")
    return "\n".join(lines) + "\n"


def export_path(folder: Path, fmt: str = "md", now: datetime | None = None) -> Path:
    """A new file in `folder` such as `paperscope-export-20261129-230000.md`.

    A second export within the same second gets `-2`, `-3`… rather than overwriting.
    """
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    path = folder / f"paperscope-export-{stamp}.{fmt}"
    number = 2
    while path.exists():
        path = folder / f"paperscope-export-{stamp}-{number}.{fmt}"
        number += 1
    return path


def browser_available() -> bool:
    """Whether Python knows a web browser to open links with (not over plain SSH)."""
    import webbrowser  # here: looked up only when a link is to be opened

    try:
        webbrowser.get()
    except webbrowser.Error:
        return False
    return True


class ReadingActions:
    """The reading keys of `ReaderScreen` (a mixin: it uses the screen's widgets)."""

    # Provided by ReaderScreen / Screen.
    app: PaperscopeApp
    settings: ReaderSettings
    library: Library | None
    result: SearchResult | None
    search_serial: int
    paper_list: PaperList
    detail: DetailView

    filter_index = 0
    """Index in FILTERS of the filter `f` chose."""
    sort_index = 0
    """Index in SORTS of the order `S` chose."""
    similar_of: Paper | None = None
    """The paper whose similar papers the list shows (`r`); None for a search."""
    _similar_docnum: int | None = None
    _read_timer: Timer | None = None
    _read_timer_paper: str | None = None

    # -- what the search uses -------------------------------------------------------

    @property
    def state(self) -> StateStore:
        """The app's reading state."""
        return self.app.state

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
        if self.sort_index:
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
        hit = self.paper_list.current
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
        self.paper_list.refresh_rows()
        self.detail.refresh_text()
        self.app.report_state_notices()
        if by_user and self.filter_index:
            self.start_search()  # type: ignore[attr-defined]

    # -- star, read, note ---------------------------------------------------------------

    def action_toggle_star(self) -> None:
        """Star or unstar the selected paper."""
        if (paper := self._paper_or_bell()) is not None:
            self.state.toggle_star(paper.id)
            self.reading_state_changed()

    def action_toggle_read(self) -> None:
        """Mark the selected paper read or unread; the auto-read timer then lets it be."""
        if (paper := self._paper_or_bell()) is not None:
            self._cancel_read_timer()
            self.state.toggle_read(paper.id)
            self.reading_state_changed()

    def action_edit_note(self) -> None:
        """Open the note editor on the selected paper (from its left draft, if any)."""
        paper = self._paper_or_bell()
        if paper is None:
            return
        from tui.app.drafting import open_note_editor

        self.app.note_keeper = open_note_editor(self.app, paper, self.state, self.app.drafts,
                                                self.reading_state_changed)

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
        self._read_timer = self.set_timer(  # type: ignore[attr-defined]
            delay, lambda: self._mark_read_if_shown(paper.id))

    def _cancel_read_timer(self) -> None:
        if self._read_timer is not None:
            self._read_timer.stop()
        self._read_timer = None
        self._read_timer_paper = None

    def _mark_read_if_shown(self, paper_id: str) -> None:
        self._read_timer = None
        detail = self.detail
        # On a narrow screen the detail pane is hidden until the paper is opened.
        if detail.paper is None or detail.paper.id != paper_id or not detail.region.area:
            return
        if not self.state.is_read(paper_id):
            self.state.set_read(paper_id, True)
            self.reading_state_changed(by_user=False)

    # -- filter, sort, similar -----------------------------------------------------------

    def action_cycle_filter(self) -> None:
        """All papers → starred → unread → with notes → all."""
        self.filter_index = (self.filter_index + 1) % len(FILTERS)
        self.start_search()  # type: ignore[attr-defined]

    def action_cycle_sort(self) -> None:
        """Relevance → list order → name A–Z → year → relevance."""
        self.sort_index = (self.sort_index + 1) % len(SORTS)
        self.start_search()  # type: ignore[attr-defined]

    def action_similar(self) -> None:
        """List the papers most like the selected one; Esc comes back."""
        hit = self.paper_list.current
        if hit is None or self.library is None:
            self.app.bell()
            return
        self.similar_of = hit.paper
        self._similar_docnum = hit.docnum
        self.search_serial += 1
        self._find_similar(self.library, self.search_serial, hit.docnum)

    @work(thread=True, exclusive=True, group="search", exit_on_error=False)
    def _find_similar(self, library: Library, serial: int, docnum: int) -> None:
        from tui.core.search.search import similar

        result = similar(library, docnum, SIMILAR_LIMIT)
        if not get_current_worker().is_cancelled:
            self.post_message(SearchDone(serial, result))  # type: ignore[attr-defined]

    def leave_similar(self) -> bool:
        """Back from the similar papers to the search, on the paper `r` was pressed on."""
        if self.similar_of is None:
            return False
        docnum = self._similar_docnum
        self.similar_of = None
        self.paper_list.chosen = docnum  # the search's answer selects it again
        self.start_search()  # type: ignore[attr-defined]
        return True

    # -- copy, open, export ---------------------------------------------------------------

    def action_copy_abstract(self) -> None:
        """Copy the selected paper's abstract (as rendered text)."""
        if (paper := self._paper_or_bell()) is None:
            return
        from tui.core.render.text import render

        self.app.copy_to_clipboard(render(paper.raw).text)
        self.app.notify(f"Copied the abstract of {paper.name or paper.title}.", timeout=3)

    def action_copy_reference(self) -> None:
        """Copy a reference to the selected paper: title, name, list and id."""
        if (paper := self._paper_or_bell()) is None:
            return
        self.app.copy_to_clipboard(reference_text(paper))
        self.app.notify(f"Copied a reference to {paper.name or paper.title}.", timeout=3)

    def action_open_link(self) -> None:
        """Open the selected paper's first link; without a browser, show it instead."""
        if (paper := self._paper_or_bell()) is None:
            return
        from tui.core.render.text import render

        # The list's own link for the paper first, then the links in its abstract.
        links = ([paper.link] if paper.link else []) + list(render(paper.raw).links)
        if not links:
            self.app.notify("This paper has no link.", severity="warning", timeout=3)
            return
        url = links[0]
        if not browser_available():
            # Over SSH there is no browser; the terminal can still open an OSC 8 link
            # or the URL can be copied from here.
            self.app.notify(f"No browser found. The link: {url}", timeout=15)
            return
        self.app.open_url(url)
        self.app.notify(f"Opening {url}", timeout=5)

    def action_export(self) -> None:
        """Write the listed papers to a Markdown file in the current folder."""
        if self.result is None or not self.result.hits:
            self.app.notify("Nothing to export.", severity="warning", timeout=3)
            return
        self._export(list(self.result.hits), Path.cwd())

    @work(thread=True, group="export", exit_on_error=False)
    def _export(self, hits: list, folder: Path) -> None:
        # In a thread: loading every listed paper may take a while with a long list.
        from tui.core.export import export
        from tui.core.durable import atomic_write_text

        try:
            text = export([hit.paper for hit in hits], "md", self.state)
            path = export_path(folder, "md")
            atomic_write_text(path, text)
        except OSError as exc:
            self.app.notify(f"Could not export: {exc.strerror or exc}", severity="error",
                            timeout=10)
            return
        count = f"{len(hits):,} paper" + ("" if len(hits) == 1 else "s")
        self.app.notify(f"Exported {count} to {path}", timeout=8)
