"""Keeping the open note editor's text as a draft, and offering left drafts back.

`DraftKeeper` follows one editor: each change restarts a one-second timer, and when
typing goes on without a pause the draft is still written every few seconds; `flush`
writes at once (the reader calls it when it is told to end). `open_note_editor` is
what `e` does: it starts the editor from a draft a reader left behind, if there is
one, and removes the draft once the note is saved or the editing cancelled.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.app import App
    from textual.timer import Timer

    from tui.core.drafts import Draft, DraftStore
    from tui.core.model import Paper
    from tui.core.state import StateStore

DRAFT_DELAY_S = 1.0
"""A draft is written this long after typing stops."""
DRAFT_MAX_WAIT_S = 5.0
"""…and at least this often while typing goes on without a pause (a kill -9 or a power
cut, which no handler sees, then loses at most this much)."""


class DraftKeeper:
    """Writes one editor's text to the draft store, debounced."""

    def __init__(self, store: DraftStore, paper_id: str, text: str,
                 read_text: Callable[[], str],
                 set_timer: Callable[[float, Callable[[], None]], Timer]) -> None:
        """`text` is what the editor starts with; `read_text` reads what it holds now."""
        self.store = store
        self.paper_id = paper_id
        self._read_text = read_text
        self._set_timer = set_timer
        self._written = text  # the editor's first text is the saved note or a draft on disk
        self._latest = text  # the text as of the last change seen, for when the editor is gone
        self._dirty_since: float | None = None
        self._timer: Timer | None = None
        self._finished = False

    def changed(self, text: str) -> None:
        """The editor's text changed to `text`: write it once typing pauses."""
        self._latest = text
        now = time.monotonic()
        if self._dirty_since is None:
            self._dirty_since = now
        self._stop_timer()
        if now - self._dirty_since >= DRAFT_MAX_WAIT_S:
            self.flush()
        else:
            self._timer = self._set_timer(DRAFT_DELAY_S, self.flush)

    def flush(self, text: str | None = None) -> None:
        """Write `text` (by default what the editor holds) now, if it is not on disk yet."""
        self._stop_timer()
        if self._finished:
            return
        if text is None:
            try:
                # The editor itself, not the last change seen: a signal may come before
                # the change message of the last key has been handled.
                text = self._latest = self._read_text()
            except Exception:  # noqa: BLE001 - the editor's widgets are gone (shutting down)
                # What was last seen: after a signal, the text read then, never older.
                text = self._latest
        if text == self._written or self.store.write(self.paper_id, text):
            self._written = text
            self._dirty_since = None  # a failed write stays due: retried at the next change

    def finish(self) -> None:
        """The note was saved or the editing cancelled: no draft is needed any more."""
        self._stop_timer()
        self._finished = True  # a late timer or flush must not write it again
        self.store.remove(self.paper_id)

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None


def recovered_notice(draft: Draft, now: datetime | None = None) -> str:
    """The editor's one line about a draft it starts from."""
    when = datetime.fromtimestamp(draft.saved_at / 1e9)
    today = (now or datetime.now()).date() == when.date()
    stamp = when.strftime("%H:%M:%S") if today else when.strftime("%Y-%m-%d %H:%M")
    return f"Recovered an unsaved draft from {stamp}."  # one line, even at 80 columns


def open_note_editor(app: App, paper: Paper, state: StateStore, drafts: DraftStore,
                     on_closed: Callable[[], None], *, cursor_blink: bool = True,
                     ) -> DraftKeeper:
    """Push the note editor for `paper`; `on_closed` runs when it closes (to redraw).

    Returns the editor's keeper, so that the reader can flush it when told to end.
    """
    # Imported when first used: the note editor's text area is a tenth of the reader's
    # import time, and most sessions never open it.
    from tui.app.screens.note import NoteScreen

    paper_id = paper.id
    saved = state.note(paper_id)
    draft = drafts.recover(paper_id, saved)
    start = draft.text if draft is not None else saved
    screen = NoteScreen(paper.name or paper.title, saved, start=start,
                        notice=recovered_notice(draft) if draft is not None else None,
                        cursor_blink=cursor_blink)
    keeper = DraftKeeper(drafts, paper_id, start, lambda: screen.text, screen.set_timer)
    screen.on_text_changed = keeper.changed

    def done(text: str | None) -> None:
        if text is not None and text != state.note(paper_id):
            state.set_note(paper_id, text)
            if state.save() is not None:
                # Not stored (a full disk, a folder that cannot be written): the draft
                # stays, so that the text still comes back next time.
                keeper.flush(text)
                on_closed()
                return
        keeper.finish()
        on_closed()

    app.push_screen(screen, done)
    return keeper
