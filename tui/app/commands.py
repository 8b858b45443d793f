"""Command palette providers: jump to a paper by fuzzy name or title; and the palette.

Small libraries are matched in full with Textual's fuzzy matcher. In large ones a fuzzy
pass over every title would take seconds per keystroke, so the one search function
(`tui.core.search.search.search`) picks the candidates first and the matcher only ranks and
highlights them.

The paper commands know the reader through `PaperSource` (its lists, and jumping to a
paper), found on the screen stack, and never the app.
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from textual import on
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.css.styles import RenderStyles, Styles
from textual.message import Message
from textual.widgets import Button, Input, OptionList

from tui.app.compat import GuardedPalette

if TYPE_CHECKING:
    from textual.app import App

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
        docnums = library.list_order
    else:
        docnums = [hit.docnum for hit in search(library, query, limit=_CANDIDATES, typing=True).hits]
    return [(d, *paper_label(library, d)) for d in docnums]


@runtime_checkable
class PaperSource(Protocol):
    """What the paper commands need of the reader screen."""

    library: Library | None
    """The open lists; None until they are open."""

    def jump_to(self, docnum: int) -> None:
        """Select paper `docnum` in the list and open it."""


def _jump(source: PaperSource, docnum: int) -> None:
    """Jump to `docnum`, with `source.jump_to` looked up when the command runs."""
    source.jump_to(docnum)


def open_paper_palette(app: App[Any]) -> None:
    """A palette of papers only (the "Jump to paper" command)."""
    app.push_screen(ReaderPalette(providers=[PaperCommands],
                                  placeholder="Jump to paper: type a name or title…"))


class PaperCommands(Provider):
    """Finds papers by name or title; choosing one selects and opens it.

    The papers are those of the topmost reader on the screen stack, so that a palette
    opened over the help or the note editor still finds them.
    """

    @property
    def _source(self) -> PaperSource | None:
        return next((screen for screen in reversed(self.app.screen_stack)
                     if isinstance(screen, PaperSource)), None)

    async def search(self, query: str) -> Hits:
        source = self._source
        library = source.library if source is not None else None
        if source is None or library is None:
            return
        found = await asyncio.to_thread(candidates, library, query)
        matcher = self.matcher(query)
        scored = []
        for rank, (docnum, label, listed_in) in enumerate(found):
            score = matcher.match(label)
            if score > 0:
                scored.append((score, docnum, matcher.highlight(label), label, listed_in))
            elif len(library) > FULL_SCAN_PAPERS:
                # Found by the words of its abstract: keep it, below the fuzzy matches.
                scored.append((0.01 / (rank + 1), docnum, label, label, listed_in))
        scored.sort(key=lambda item: -item[0])
        for score, docnum, display, label, listed_in in scored[:_SHOWN]:
            yield Hit(score, display, partial(_jump, source, docnum),
                      text=label, help=f"Jump to paper · {listed_in}")

    async def discover(self) -> Hits:
        yield DiscoveryHit("Jump to paper…", partial(open_paper_palette, self.app),
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
