"""The detail pane: one paper in full, scrollable, with n/N between matches.

A Line API `ScrollView`: the paper's text is wrapped once per width into strips, and
the line of every match is read off the strips (see `detail_text.MATCH_META`), so
jumping to a match needs no second pass over the text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.events import Resize
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tui.app import bindings
from tui.app.compat import has_meta
from tui.app.widgets.detail_reading import reading_text
from tui.app.widgets.detail_text import MATCH_META, DetailStyles, detail_text
from tui.app.widgets.scrolling import LineStyle, set_virtual_size
if TYPE_CHECKING:
    from tui.core.drafts import DraftStore
    from tui.core.model import Paper
    from tui.core.state import StateStore

_CONTEXT_LINES = 2
"""Lines kept above a match that n/N scrolls to, so it is read in context."""


class DetailView(LineStyle, ScrollView, can_focus=True, inherit_bindings=False):
    """Shows the highlighted paper with its matched words marked."""

    BINDINGS = bindings.DETAIL
    DEFAULT_CSS = """
    DetailView {
        overflow-x: hidden;  /* the text is wrapped to the width */
        /* Always there, so the text is wrapped once for a width that does not change. */
        overflow-y: scroll;
    }
    """
    COMPONENT_CLASSES = {
        "detail--name",
        "detail--title",
        "detail--meta",
        "detail--code",
        "detail--math",
        "detail--link",
        "detail--match",
        "detail--current-match",
        "detail--empty",
    }

    def __init__(self, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._had_matches: bool | None = None
        """What the footer was last refreshed for (None: not yet)."""
        self.paper: Paper | None = None
        self.terms: frozenset[str] = frozenset()
        self.list_size: int | None = None
        self.because: list[str] | None = None
        """The words that put the paper high in the for-you order; None outside it."""
        self.current_match = -1
        """Index of the match n/N last jumped to; -1 before the first jump."""
        self.match_count = 0
        self.match_lines: list[int] = []
        """The wrapped line of each match, in order."""
        self.placeholder = "No paper selected."
        self.state: StateStore | None = None
        """Reading state (star, read, note) shown under the abstract; None shows none."""
        self.drafts: DraftStore | None = None
        """Note drafts, marked under the abstract; None marks none."""
        self.stale = False
        """The reading state shown changed, and the next `show` redraws it (a search
        under way will answer with a list, whose selected paper is shown then)."""
        self._strips: list[Strip] = []
        self._width = 0

    def show(self, paper: Paper | None, terms: frozenset[str] = frozenset(),
             list_size: int | None = None, because: list[str] | None = None) -> None:
        """Show `paper` from the top, marking `terms`; `because`: the words that put
        it high in the for-you order."""
        same_paper = self.paper is not None and paper is not None and paper.id == self.paper.id
        self.paper, self.terms, self.list_size = paper, terms, list_size
        self.because = because
        self.current_match = -1
        self._rebuild()
        if not same_paper:
            self.scroll_to(y=0, animate=False, immediate=True)

    def refresh_text(self) -> None:
        """Redraw the paper, keeping the scroll position (after its state changed)."""
        self._rebuild()

    def _rebuild(self) -> None:
        self.stale = False
        width = self.scrollable_content_region.width
        self._width = width
        if width <= 0:
            self._strips, self.match_lines, self.match_count = [], [], 0
            return
        console = self.app.console
        if self.paper is None:
            text = Text(self.placeholder, style=self.get_component_rich_style("detail--empty"))
            self.match_count = 0
        else:
            text, self.match_count = detail_text(self.paper, self.terms, self._styles(),
                                                 self.list_size, self.current_match)
            if self.state is not None:
                drafted = self.drafts is not None and self.drafts.has_draft(self.paper.id)
                text.append_text(reading_text(self.paper, self.state, self._styles(), drafted,
                                              self.because))
        lines = console.render_lines(text, console.options.update(width=width, height=None),
                                     pad=False)
        self._strips = [Strip(line) for line in lines]
        self.match_lines = self._find_match_lines()
        set_virtual_size(self, Size(width, len(self._strips)))
        self.refresh()
        if bool(self.match_count) != self._had_matches:  # n/N dimmed or not
            self._had_matches = bool(self.match_count)
            self.refresh_bindings()

    def _find_match_lines(self) -> list[int]:
        found: dict[int, int] = {}
        for number, strip in enumerate(self._strips):
            for segment in strip:
                style = segment.style
                if style is not None and has_meta(style):
                    index = style.meta.get(MATCH_META)
                    if index is not None:
                        found.setdefault(index, number)
        return [found[i] for i in sorted(found)]

    def _styles(self) -> DetailStyles:
        get = self.get_component_rich_style
        return DetailStyles(
            name=get("detail--name"), title=get("detail--title"), meta=get("detail--meta"),
            code=get("detail--code"), math=get("detail--math"), link=get("detail--link"),
            match=get("detail--match"), current_match=get("detail--current-match"),
        )

    # -- actions --------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # n/N are shown dimmed when the paper has no matched words.
        if action in ("next_match", "previous_match"):
            return True if self.match_count else None
        return True

    def action_next_match(self) -> None:
        self._jump(+1)

    def action_previous_match(self) -> None:
        self._jump(-1)

    def _jump(self, step: int) -> None:
        if not self.match_count:
            self.app.bell()
            return
        if self.current_match < 0:
            self.current_match = 0 if step > 0 else self.match_count - 1
        else:
            self.current_match = (self.current_match + step) % self.match_count
        self._rebuild()
        line = self.match_lines[self.current_match] if self.match_lines else 0
        height = self.scrollable_content_region.height
        top = self.scroll_offset.y
        if not top <= line < top + height:
            self.scroll_to(y=max(0, line - _CONTEXT_LINES), animate=False, immediate=True)

    # -- events ---------------------------------------------------------------------

    def on_resize(self, event: Resize) -> None:
        if self.scrollable_content_region.width != self._width:
            self._rebuild()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        if self.is_mounted:
            self.call_later(self._rebuild)

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        index = self.scroll_offset.y + y
        strip = self._strips[index] if index < len(self._strips) else Strip.blank(width)
        return strip.adjust_cell_length(width).apply_style(self.line_style)
