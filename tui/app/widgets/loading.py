"""What the reader shows while the lists are opened or their index is built."""

from __future__ import annotations

import time

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.css.query import NoMatches
from textual.widgets import Label, ProgressBar


_SLOW_SECONDS = 2
"""After this long without progress, the panel says that the index is being built."""


class LoadingPanel(Vertical):
    """Progress of the index build, with counts, instead of a blank screen.

    Progress and failure can be reported before the panel's children exist (a bad
    list fails at once), so the panel keeps what to show and draws it when it can.
    """

    def __init__(self, *, id: str | None = None, started: float | None = None) -> None:
        """`started`: when the lists began to open (`time.monotonic`); now if None."""
        super().__init__(id=id)
        self._text = "Opening the paper lists…"
        self._done: int | None = None
        self._total: int | None = None
        self._failed = False
        self._started = time.monotonic() if started is None else started

    def compose(self) -> ComposeResult:
        yield Label(self._text, id="loading-label")
        yield ProgressBar(total=None, show_eta=False, show_percentage=False, id="loading-bar")
        yield Label("", id="loading-time")

    def on_mount(self) -> None:
        self._apply()
        # Building a large index takes a while before the first list file is done:
        # a clock shows that something is happening.
        self._clock = self.set_interval(1.0, self._tick)

    def _tick(self) -> None:
        if not self.display or self._failed:
            self._clock.stop()
            return
        seconds = int(time.monotonic() - self._started)
        self.query_one("#loading-time", Label).update(f"{seconds} s")
        if seconds >= _SLOW_SECONDS and self._total is None:
            # A built index opens in well under a second; this one is being built, and
            # the builder may report its first files only after a while.
            self._text = "Building the index (only the first time these lists are opened)…"
            self._apply()

    def progress(self, done: int, total: int) -> None:
        """`done` of `total` list files are indexed."""
        self._text = f"Building the index: {done:,} of {total:,} list files"
        self._done, self._total = done, total
        self._apply()

    def fail(self, error: str) -> None:
        """The lists could not be opened."""
        self._text = f"Cannot open the lists: {error}"
        self._failed = True
        self._apply()

    def _apply(self) -> None:
        try:
            label = self.query_one("#loading-label", Label)
            bar = self.query_one("#loading-bar", ProgressBar)
        except NoMatches:
            return  # not composed yet; on_mount draws it
        label.update(self._text)
        if self._failed:
            bar.display = False
        elif self._total is not None:
            bar.update(total=self._total, progress=self._done)
