"""Command palette providers: jump to a paper by fuzzy name or title; and the palette.

Small libraries are matched in full with Textual's fuzzy matcher. In large ones a fuzzy
pass over every title would take seconds per keystroke, so the one search function
(`tui.core.search.search.search`) picks the candidates first and the matcher only ranks and
highlights them.
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import TYPE_CHECKING

from textual import on
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.css.styles import RenderStyles, Styles
from textual.message import Message
from textual.widgets import Button, Input, OptionList

from tui.app.compat import GuardedPalette

if TYPE_CHECKING:
    from tui.app.app import PaperscopeApp
    from tui.core.index.library import Library

FULL_SCAN_PAPERS = 3000
"""Up to this many papers, every title is fuzzy-matched; beyond, search picks candidates."""
_CANDIDATES = 60
_SHOWN = 30

Candidate = tuple[int, str, str]
"""(docnum, label, list title)"""


def paper_label(library: Library, docnum: int) -> tuple[str, str]:
    """How a paper reads in the palette: `Name — title`, and its list."""
    paper = library.paper(docnum)
    label = f"{paper.name} — {paper.title}" if paper.name and not paper.title.startswith(
        paper.name) else paper.title
    return label, paper.list_title


def candidates(library: Library, query: str) -> list[Candidate]:
    """The papers worth fuzzy-matching against `query`."""
    from tui.core.search.search import search

    if len(library) <= FULL_SCAN_PAPERS:
        docnums = range(len(library))
    else:
        docnums = [hit.docnum for hit in search(library, query, limit=_CANDIDATES, typing=True).hits]
    return [(d, *paper_label(library, d)) for d in docnums]


class PaperCommands(Provider):
    """Finds papers by name or title; choosing one selects and opens it."""

    @property
    def _reader_app(self) -> PaperscopeApp:
        return self.app  # type: ignore[return-value]

    async def search(self, query: str) -> Hits:
        library = self._reader_app.library
        if library is None:
            return
        found = await asyncio.to_thread(candidates, library, query)
        matcher = self.matcher(query)
        scored = []
        for rank, (docnum, label, source) in enumerate(found):
            score = matcher.match(label)
            if score > 0:
                scored.append((score, docnum, matcher.highlight(label), label, source))
            elif len(library) > FULL_SCAN_PAPERS:
                # Found by the words of its abstract: keep it, below the fuzzy matches.
                scored.append((0.01 / (rank + 1), docnum, label, label, source))
        scored.sort(key=lambda item: -item[0])
        for score, docnum, display, label, source in scored[:_SHOWN]:
            yield Hit(score, display, partial(self._reader_app.jump_to_paper, docnum),
                      text=label, help=f"Jump to paper · {source}")

    async def discover(self) -> Hits:
        yield DiscoveryHit("Jump to paper…", self._reader_app.action_jump_to_paper,
                           help="Find a paper by its name or title")


class ReaderPalette(GuardedPalette):
    """Textual's command palette, safe against keys typed faster than it is drawn.

    Keys typed faster than the palette closes (Enter twice on a paper) are already
    queued in its input when the first one dismisses it, and Textual's palette handles
    them anyway: it dismisses itself a second time, popping a screen that is not there
    (ScreenStackError, the reader quits with a traceback), and runs the command again.
    Keys typed faster than it opens (ctrl+p PageUp) page a list not laid out yet.
    """

    @on(Input.Changed)
    @on(Input.Submitted)
    @on(OptionList.OptionHighlighted)
    @on(OptionList.OptionSelected)
    @on(Button.Pressed)
    def _drop_once_dismissed(self, event: Message) -> None:
        if not self.is_active:
            event.stop()
            event.prevent_default()  # the palette's own handlers are never called

    def get_component_styles(self, *names: str) -> RenderStyles:
        try:
            return super().get_component_styles(*names)
        except KeyError:
            if self.is_attached:
                raise
            # Removed: the worker that gathers commands can outlive the palette by one
            # hit (a cancellation lost in `asyncio.wait_for`); nothing draws it now.
            return RenderStyles(self, Styles(), Styles())
