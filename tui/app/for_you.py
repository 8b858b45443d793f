"""The reader's for-you order (`F`) and not-interested marks (`d`, and `u` to undo).

In for-you order the list is ranked by the starred papers (`core.search.interests`):
the whole library's best for an empty query, else the query's hits reordered. It
follows the stars, says what it ranks by in the status line and banner, and the detail
pane shows the words that put each paper high. `ForYou` belongs to the screen's
`Reading`, which hands it the keys; the state is the core's `StateStore`.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any, Protocol

from rich.text import Text
from textual.worker import Worker, WorkerState, get_current_worker

if TYPE_CHECKING:
    from textual.app import App
    from textual.timer import Timer

    from tui.app.view import PanesView, WorkerHost
    from tui.core.model import Paper
    from tui.core.search.hits import SearchResult
    from tui.core.state import StateStore

    class ReadAheadView(PanesView, WorkerHost, Protocol):
        """The screen: its library and panes, its timers and workers."""

_BECAUSE_KEPT = 256
"""Papers whose words are kept (the detail pane asks again as the cursor moves)."""
REST = 0.1
"""Seconds the cursor rests on a paper before the lists its star would bring into the
for-you order are read ahead: less than anyone takes to read a name and press s."""


def short_name(paper: Paper, width: int = 40) -> str:
    """The paper's name, or its title cut to about `width` cells, for one-line messages."""
    if paper.name:
        return paper.name
    title = " ".join(paper.title.split())
    return title if len(title) <= width else title[:width - 1].rstrip() + "…"


class ForYouHost(Protocol):
    """What `ForYou` needs of the reading keys that own it."""

    state: StateStore
    view: ReadAheadView

    @property
    def app(self) -> App[Any]: ...

    @property
    def selected_paper(self) -> Paper | None: ...

    def reading_state_changed(self, by_user: bool = True) -> None: ...


class ForYou:
    """Whether the list is in for-you order, and the marks made to steer it."""

    def __init__(self, reading: ForYouHost) -> None:
        self.reading = reading
        self.on = False
        """The list is in for-you order: ranked by the starred papers."""
        self._disliked_now: list[str] = []
        """Papers marked not interested in this session, latest last (`u` undoes)."""
        self._because: dict[tuple[int, int], list[str]] = {}
        self._ahead: Worker[None] | None = None
        """The worker reading ahead the lists a star would bring in (`read_ahead`)."""
        self._rest: Timer | None = None
        """Runs `_read_ahead` once the cursor has rested on a paper (`rest_on`)."""
        self._ahead_of: frozenset[str] | None = None
        """The starred ids it reads ahead the ranking of."""

    @property
    def _state(self) -> StateStore:
        return self.reading.state

    def interests(self) -> tuple[frozenset[str], frozenset[str]] | None:
        """What the order ranks by, (starred ids, not-interested ids); None when off."""
        if not self.on:
            return None
        return frozenset(self._state.starred_ids()), frozenset(self._state.disliked_ids())

    def status(self) -> str:
        """The status line's part: what the order ranks by."""
        starred = len(self._state.starred_ids())
        if not starred:
            return "for you: nothing starred yet (s stars a paper)"
        disliked = len(self._state.disliked_ids())
        return f"for you: {starred} starred" + (f", {disliked} not interested" if disliked else "")

    def banner(self, result: SearchResult | None) -> Text | None:
        """The banner over a list in for-you order; None over another list."""
        if result is None or not result.interests:
            return None
        starred = len(self._state.starred_ids())
        noun = "paper" if starred == 1 else "papers"
        return Text.assemble("For you: ordered by ", (f"{starred} starred {noun}", "bold"),
                             " · F goes back")

    def because(self, result: SearchResult | None, docnum: int) -> list[str] | None:
        """The words that put the paper at `docnum` high in the for-you order on show;
        None when the list is in another order."""
        library = self.reading.view.library
        if result is None or not result.interests or library is None:
            return None
        key = (id(result), docnum)
        if key not in self._because:
            from tui.core.search.interests import reasons

            if len(self._because) > _BECAUSE_KEPT:
                self._because.clear()
            self._because[key] = reasons(library, list(result.interests), docnum)
        return self._because[key]

    @property
    def reading_ahead(self) -> bool:
        """Lists are being read ahead for the next re-rank, or soon will be."""
        return self._rest is not None or (
            self._ahead is not None and self._ahead.state in (WorkerState.PENDING,
                                                              WorkerState.RUNNING))

    def rest_on(self, paper: Paper) -> None:
        """The cursor came to `paper`: in for-you order, once it has rested there
        `REST` seconds, read ahead the lists that ranking by the stars with this
        paper's toggled reads, so that `s` re-ranks from memory. A move to another
        paper first puts it off (j held reads nothing), then cancels it."""
        if self._rest is not None:
            self._rest.stop()
            self._rest = None
        if not self.on:
            return
        starred = frozenset(self._state.starred_ids()) ^ {paper.id}

        def rested() -> None:
            self._rest = None
            self._read_ahead(starred)

        self._rest = self.reading.view.set_timer(REST, rested)

    def stars_changed(self) -> None:
        """Stars were added or taken away: out of for-you order, read ahead what `F`
        will rank by (in it, the re-rank reads it itself)."""
        if not self.on:
            self._read_ahead(frozenset(self._state.starred_ids()))

    def _read_ahead(self, starred: frozenset[str]) -> None:
        """Read ahead the lists of the ranking by `starred` (`read_ahead_interests`), in
        a worker; nothing when it is the last one read ahead."""
        library = self.reading.view.library
        if library is None or not starred or starred == self._ahead_of:
            return
        self._ahead_of = starred
        from tui.core.search import interests

        def run() -> None:
            worker = get_current_worker()
            # Only ever reading ahead: a search finds out what is wrong.
            with contextlib.suppress(Exception):
                liked = library.in_list_order(list(library.docnums_of(starred)))
                interests.read_ahead_interests(library, liked, lambda: worker.is_cancelled)

        self._ahead = self.reading.view.run_worker(run, group="read ahead", exclusive=True,
                                                   exit_on_error=False, thread=True)

    def toggle(self) -> None:
        """Order the list by the starred papers, or back to the sort chosen."""
        if not self.on and not self._state.starred_ids():
            self.reading.app.notify("Nothing is starred yet: star papers you like with s, "
                                    "then F orders the list by them.", title="For you",
                                    timeout=5)
            return
        self.on = not self.on
        self.reading.view.paper_list.chosen = None  # a new order starts at its top
        self.reading.view.start_search()

    def toggle_dislike(self) -> None:
        """Mark the selected paper not interested, or no longer."""
        paper = self.reading.selected_paper
        if paper is None:
            self.reading.app.bell()
            return
        if self._state.toggle_dislike(paper.id):
            self._disliked_now.append(paper.id)
            self.reading.app.notify(f"Not interested: {short_name(paper)}. It and papers "
                                    "like it go down the for-you order (u undoes).", timeout=4)
        else:
            if paper.id in self._disliked_now:
                self._disliked_now.remove(paper.id)
            self.reading.app.notify(f"Interested again: {short_name(paper)}.", timeout=3)
        self.reading.reading_state_changed()

    def undo_dislike(self) -> None:
        """Take back the last not-interested mark made in this session."""
        while self._disliked_now and not self._state.is_disliked(self._disliked_now[-1]):
            self._disliked_now.pop()  # taken back another way meanwhile
        if not self._disliked_now:
            self.reading.app.notify("No not-interested mark to undo.", timeout=3)
            return
        paper_id = self._disliked_now.pop()
        self._state.toggle_dislike(paper_id)
        library = self.reading.view.library
        docnum = library.docnum_of(paper_id) if library is not None else None
        name = short_name(library.paper(docnum)) if docnum is not None else paper_id
        self.reading.app.notify(f"Undone: {name} is no longer marked not interested.",
                                timeout=3)
        self.reading.reading_state_changed()
