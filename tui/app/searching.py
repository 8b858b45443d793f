"""The reader's search as the query is typed.

`run_search` is one search, off the UI thread: the result plus what the first screen of
the list needs (papers, snippets), so that drawing it costs the UI little. `LiveSearch`
runs it for the reader screen as the query changes: one exclusive thread worker per
change (the previous one is cancelled), answered by `SearchDone`, answers of older
queries dropped by serial number, so a slow stale search can never overwrite a newer
result; and for a query that finds nothing, the rescue ("did you mean", close matches)
once typing pauses, or at once when Enter asks for it.

While a query is typed, its search keeps the first `TYPING_HITS` hits only, and counts
its matches up to `COUNT_UP_TO`; the list is completed to the reader's limit, with the
exact count, once typing pauses, or at once when the search box is left (see
`TYPING_HITS`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Protocol

from textual.worker import get_current_worker

from tui.app.messages import SearchDone, Snippets
from tui.app.prepared import first_rows
from tui.app.view import PanesView, WorkerHost

if TYPE_CHECKING:
    from textual.timer import Timer

    from tui.app.reading import Reading
    from tui.core.index.library import Library
    from tui.core.search.hits import SearchResult
    from tui.core.state import StateStore

RESCUE_AFTER_S = 0.25
"""A query that finds nothing gets its "did you mean" and close matches once typing has
paused this long. Looking for them takes up to a few hundred milliseconds of the one
interpreter the screen is drawn by too: on every keystroke of a misspelt word, typing
stuttered."""
COUNT_UP_TO = 10_000
"""A search on a keystroke counts its matches exactly up to this many and says "more
than" past it (as the engines people trust do: Lucene's `track_total_hits`): counting
a common word's matches exactly costs time in proportion to the library, on every
keystroke. The exact count comes with the completed list once typing pauses."""
TYPING_HITS = 100
"""Hits kept by a search run on a keystroke (or a screenful, on a terminal tall enough
to show more): a few screens of the list, which is all that shows while the query is
typed. Keeping the reader's thousand costs that search about twice as long on a large
library (the thousandth best bounds the pruning far lower than the hundredth: `topk`),
and it is paid on every keystroke. The list is completed with the same search once
typing pauses (`COMPLETE_AFTER_S`) or the search box is left; its first hits are the
same papers in the same order (the top k is exact), so the list only grows under the
cursor."""
COMPLETE_AFTER_S = RESCUE_AFTER_S
"""A list cut to `TYPING_HITS` is completed once typing has paused this long."""


def run_search(library: Library, query: str, limit: int, width: int, rows: int,
               cancelled: Callable[[], bool] = lambda: False, *,
               state: StateStore | None = None, sort: str = "relevance",
               filters: Sequence[str] = (), rescue: bool = True,
               interests: tuple[frozenset[str], frozenset[str]] | None = None,
               count_up_to: int | None = None,
               ) -> tuple[SearchResult, Snippets] | None:
    """Search with the one search function; None when cancelled midway.

    An empty query lists every paper (no limit: the hits load their papers lazily);
    otherwise at most `limit` hits are kept and the status line shows the total.
    `rows` hits get their paper loaded, and while searching a `width`-wide snippet.
    `state` answers `is:starred` and the like in the query; `filters` (such names too)
    narrow the result further, as the reader's `f` filter does; `sort` is a core SORTS.
    `rescue=False` skips the suggestion and close matches for a query that finds
    nothing (see `search`). `interests` (starred ids, not-interested ids) puts the
    list in for-you order: the library's best `limit` for an empty query, else the
    query's hits reordered (`interests.reorder`). `count_up_to`: the matches are
    counted exactly only up to this many (see `COUNT_UP_TO`).
    """
    from tui.core.search import interests as ranking  # loaded with the library, in the worker
    from tui.core.search.search import search

    liked = library.in_list_order(list(library.docnums_of(interests[0]))) if interests else []
    disliked = library.in_list_order(list(library.docnums_of(interests[1]))) if liked else []
    if liked and not query.strip() and not filters:
        result = ranking.for_you(library, liked, disliked, limit)
    else:
        # The reader searches as the query is typed: its last word is also a prefix.
        result = search(library, query, limit=limit if query.strip() else None, sort=sort,
                        state=state, filters=filters, rescue=rescue, typing=True,
                        count_up_to=count_up_to)
        if liked:
            result = ranking.reorder(library, result, liked, disliked)
    snippets = first_rows(result, width, rows, cancelled)
    return None if snippets is None else (result, snippets)


class SearchView(PanesView, WorkerHost, Protocol):
    """What `LiveSearch` needs of the screen it searches for."""

    @property
    def reading(self) -> Reading:
        """The reading state, filter and sort the search follows."""

    def first_screen(self) -> tuple[int, int]:
        """(snippet width, rows) the first screen of the list needs."""


class LiveSearch:
    """Searches for the query in `view`'s search box whenever it is asked to, and
    keeps the order of the answers."""

    def __init__(self, view: SearchView, limit: int) -> None:
        """`limit`: at most this many hits of a query are listed."""
        self.view = view
        self.limit = limit
        self.serial = 0
        """Serial of the latest search started; older answers are dropped."""
        self.shown = 0
        """Serial of the search whose result is on screen."""
        self.rescue_timer: Timer | None = None
        """Runs the rescue of a query that found nothing, once typing pauses."""
        self.submitted = False
        """Enter was pressed in the search box before the answer to its query came."""
        self.complete_timer: Timer | None = None
        """Completes a list cut to `TYPING_HITS`, once typing pauses."""

    @property
    def caught_up(self) -> bool:
        """The latest search's answer is on screen, and no rescue or completion is due."""
        return (self.shown == self.serial and self.rescue_timer is None
                and self.complete_timer is None)

    def next_serial(self) -> int:
        """The serial of a search about to start (answers of older ones are dropped, and
        the completion of a cut list is moot)."""
        self.cancel_completion()
        self.serial += 1
        return self.serial

    def start(self, rescue: bool = False, typing: bool = False) -> None:
        """Search for what the box holds now (answered by `SearchDone`); `typing`: on a
        keystroke, for the first `TYPING_HITS` hits only."""
        view = self.view
        if view.library is None:
            return
        self.cancel_rescue()
        reading = view.reading
        reading.similar_of = None  # a search replaces the similar papers
        serial = self.next_serial()
        width, rows = view.first_screen()
        # Typing: never fewer hits than a screen holds, however tall the terminal.
        limit = min(self.limit, max(TYPING_HITS, rows)) if typing else self.limit
        work = partial(self._run, view.library, serial, view.search_box.value, limit,
                       rescue, width, rows, reading.state, reading.sort_key,
                       reading.filter_names, reading.for_you.interests(),
                       COUNT_UP_TO if typing else None)
        view.run_worker(work, group="search", exclusive=True, exit_on_error=False, thread=True)

    def _run(self, library: Library, serial: int, query: str, limit: int, rescue: bool,
             width: int, rows: int, state: StateStore, sort: str, filters: list[str],
             interests: tuple[frozenset[str], frozenset[str]] | None,
             count_up_to: int | None) -> None:
        worker = get_current_worker()
        done = run_search(library, query, limit, width, rows, lambda: worker.is_cancelled,
                          state=state, sort=sort, filters=filters, rescue=rescue,
                          interests=interests, count_up_to=count_up_to)
        if done is not None and not worker.is_cancelled:
            self.view.post_message(SearchDone(serial, *done))

    def is_latest(self, message: SearchDone) -> bool:
        """Whether `message` answers the latest search (it is then on screen)."""
        if message.serial != self.serial:
            return False  # a newer query was typed meanwhile; its answer is on the way
        self.shown = message.serial
        return True

    def answered(self, result: SearchResult) -> None:
        """The latest answer is on screen: follow up Enter, rescue it later, or complete
        a list cut to `TYPING_HITS`."""
        if self.submitted:
            self._after_submit(result)
        elif not result.rescued:
            self.rescue_later()
        elif self._cut_short(result):
            if self.view.focused is self.view.search_box:
                self.complete_timer = self.view.set_timer(COMPLETE_AFTER_S, self.complete_now)
            else:  # the list is being read (the box was left before the answer came)
                self.complete_now()

    def _cut_short(self, result: SearchResult) -> bool:
        """Whether the search answer on screen holds fewer hits than the reader's limit
        only because its search kept the first `TYPING_HITS` (also one shown again on
        leaving similar papers; similar papers themselves are a list of their own)."""
        return (self.view.reading.similar_of is None and result.limit is not None
                and result.limit < self.limit
                and (len(result.hits) < result.total or not result.exact))

    def failed(self) -> None:
        """The latest search failed: nothing more is coming for it."""
        self.shown = self.serial

    def typed(self) -> None:
        """The query changed: an Enter before it is no longer pending; search."""
        self.submitted = False
        self.start(typing=True)

    def leave_box(self, submitted: bool) -> None:
        """Enter (`submitted`) or ↓ in the search box: to the list, unless the answer or
        its rescue is still to come."""
        if submitted and self.shown != self.serial:
            # Enter right after typing: the query's answer decides (`_after_submit`).
            self.submitted = True
        elif submitted and self.rescue_timer is not None:
            self.rescue_now()
        else:
            if self.complete_timer is not None:
                self.complete_now()
            self.view.set_focus(self.view.paper_list)

    def _after_submit(self, result: SearchResult) -> None:
        """Enter came before the answer to the query: go to the list if it found papers
        as typed; else stay in the box, with the "did you mean" (looked for now, if need
        be), which a second Enter accepts."""
        self.submitted = False
        if not result.rescued:
            self.rescue_now()
            return
        if self._cut_short(result):
            self.complete_now()
        if not result.suggestion and self.view.focused is self.view.search_box:
            self.view.set_focus(self.view.paper_list)

    def rescue_later(self) -> None:
        """The query found nothing: look for a suggestion once typing pauses."""
        self.cancel_rescue()
        self.rescue_timer = self.view.set_timer(RESCUE_AFTER_S, self.rescue_now)

    def rescue_now(self) -> None:
        """Look for the query's suggestion and close matches now."""
        self.rescue_timer = None
        self.start(rescue=True)

    def complete_now(self) -> None:
        """Complete the list cut to `TYPING_HITS` now: the same search, every hit."""
        self.complete_timer = None
        self.start(rescue=True)

    def cancel_completion(self) -> None:
        if self.complete_timer is not None:
            self.complete_timer.stop()
            self.complete_timer = None

    def cancel_rescue(self) -> None:
        if self.rescue_timer is not None:
            self.rescue_timer.stop()
            self.rescue_timer = None
