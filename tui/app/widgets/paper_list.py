"""The paper list: a virtual list that renders only the rows on screen.

At 50,000 papers the built-in `OptionList` and `DataTable` take seconds to fill, and a
widget per row is slower still. This is a Line API `ScrollView` (as toolong's
`LogLines`): it keeps the `Hit`s, whose papers load lazily, and draws each visible line
in `render_line`. Rows are one line (label) or, while searching, two (label and
snippet).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.events import Click, Resize
from textual.geometry import Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tui.app import bindings
from tui.app.messages import PaperHighlighted, PaperOpened, Snippets
from tui.app.widgets.paper_row import MARKER_CELLS, RowStyles, label_line, snippet_line
from tui.app.widgets.scrolling import LineStyle, set_virtual_size

if TYPE_CHECKING:
    from tui.core.model import Paper
    from tui.core.search.hits import Hit
    from tui.core.state import StateStore

_CURSOR_BAR = "▌"
"""Marks the cursor row without colour too (NO_COLOR, monochrome terminals)."""
_STRIP_CACHE_ROWS = 400


def index_of(hits: Sequence[Hit], docnum: int) -> int | None:
    """The position of paper `docnum` among `hits`, or None when it is not there.

    An empty query's hits (`hits.ListedHits`) answer without making every hit.
    """
    find = getattr(hits, "index_of", None)
    if find is not None:
        return find(docnum)
    return next((i for i, hit in enumerate(hits) if hit.docnum == docnum), None)


def _without_background(style: Style) -> Style:
    """`style` minus its background, so that the cursor row's background shows through.

    Component styles come with the widget's background filled in (which also resolves
    translucent colours such as `$text-muted` against it); only the foreground is kept.
    """
    return Style(color=style.color, bold=style.bold, dim=style.dim, italic=style.italic,
                 underline=style.underline, reverse=style.reverse, strike=style.strike)


class _FirstScreenRow:
    """A row shown before the lists are open: a paper, without its abstract."""

    __slots__ = ("docnum", "paper")

    def __init__(self, docnum: int, paper: Paper) -> None:
        self.docnum = docnum
        self.paper = paper


class PaperList(LineStyle, ScrollView, can_focus=True, inherit_bindings=False):
    """A scrolling list of search hits with a cursor."""

    BINDINGS = bindings.LIST
    DEFAULT_CSS = """
    PaperList {
        overflow-x: hidden;  /* rows are cut to the width, never scrolled sideways */
        /* Always there: a new result then repaints the list, not the whole screen. */
        overflow-y: scroll;
    }
    """
    COMPONENT_CLASSES = {
        "paper-list--cursor",
        "paper-list--cursor-blurred",
        "paper-list--cursor-bar",
        "paper-list--head",
        "paper-list--rest",
        "paper-list--source",
        "paper-list--snippet",
        "paper-list--match",
        "paper-list--marker",
        "paper-list--empty",
    }

    cursor: reactive[int] = reactive(0, init=False)
    """Index in `hits` of the highlighted paper."""

    def __init__(self, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._had_hits: bool | None = None
        """What the footer was last refreshed for (None: not yet)."""
        self.hits: Sequence[Hit] = []
        self.terms: frozenset[str] = frozenset()
        """Index terms to mark in snippets; empty when not searching."""
        self.empty_text = ""
        """What the list says when it has no rows."""
        self.generation = 0
        """Counts `show` calls; `painted_generation` catches up when the rows are drawn."""
        self.painted_generation = 0
        """The generation last drawn on screen (the benchmark waits for it)."""
        self.chosen: int | None = None
        """Docnum of the paper the user last put the cursor on. New results select it
        when they hold it, so a paper that drops out while a word is half typed is
        selected again once the word is complete."""
        self.state: StateStore | None = None
        """Reading state for the row markers (star, unread); None draws no markers."""
        self._snippets: Snippets = {}
        self._strips: dict[tuple[int, int, int, bool, bool], Strip] = {}
        self._styles: RowStyles | None = None

    # -- content ------------------------------------------------------------------

    @property
    def row_height(self) -> int:
        """Lines per row: two while searching (label and snippet), else one."""
        return 2 if self.terms else 1

    @property
    def snippets(self) -> Snippets:
        """The snippets of the rows drawn so far (and those prepared with the result)."""
        return self._snippets

    @property
    def current(self) -> Hit | None:
        """The hit under the cursor, if any."""
        return self.hits[self.cursor] if 0 <= self.cursor < len(self.hits) else None

    def show(self, hits: Sequence[Hit], terms: frozenset[str], snippets: Snippets | None = None,
             *, keep: int | None = None, empty_text: str = "") -> None:
        """Replace the rows; keep the cursor on paper `keep` (a docnum) when it is there."""
        self.hits = hits
        self.terms = terms
        self.empty_text = empty_text
        self._snippets = dict(snippets or {})
        self._strips.clear()
        self.generation += 1
        index = 0
        if keep is not None:
            index = index_of(hits, keep) or 0
        self._update_virtual_size()
        self.set_reactive(PaperList.cursor, index)
        if self.chosen is None and self.current is not None:
            self.chosen = self.current.docnum
        if index == 0:
            self.scroll_to(y=0, animate=False, immediate=True)
        else:
            self._scroll_to_cursor(center=True)
        self.refresh()
        if bool(hits) != self._had_hits:  # the footer only shows whether Enter applies
            self._had_hits = bool(hits)
            self.refresh_bindings()
        self.post_message(PaperHighlighted(self.current))

    def preview(self, papers: Sequence[Paper], docnums: Sequence[int] = ()) -> None:
        """Show the first rows of the list (their `docnums`, or 0, 1, …) before the
        lists are open, in the very first frame: no messages, and callable before the
        list is mounted.

        Until `show` replaces them, the rows can be moved over and opened, but are not
        announced (`PaperHighlighted`): they have no abstract to show.
        """
        self.hits = [_FirstScreenRow(docnum, paper)  # type: ignore[misc]
                     for docnum, paper in zip(docnums or range(len(papers)), papers)]
        self.terms = frozenset()
        self.generation += 1
        if self.hits:
            self.chosen = 0
        if self.is_mounted:
            self._update_virtual_size()
            self.refresh()

    def select_docnum(self, docnum: int) -> bool:
        """Move the cursor to paper `docnum`; False when it is not listed."""
        index = index_of(self.hits, docnum)
        if index is None:
            return False
        self.cursor = index
        self._scroll_to_cursor(center=True)
        return True

    def refresh_rows(self) -> None:
        """Redraw every row, e.g. after markers such as stars have changed."""
        self._strips.clear()
        self.refresh()

    def row_markers(self, paper: Paper) -> Text | None:
        """Markers shown before a paper's label, `MARKER_CELLS` wide; None for blanks.

        `★` for a starred paper, `•` for an unread one: characters rather than colours,
        so that they read under NO_COLOR too. Call `refresh_rows` when they change.
        """
        state = self.state
        if state is None:
            return None
        style = _without_background(self.get_component_rich_style("paper-list--marker"))
        star = "★" if state.is_starred(paper.id) else " "
        unread = " " if state.is_read(paper.id) else "•"
        return Text(f"{star}{unread} ", style=style)

    # -- movement -----------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Enter is shown dimmed when there is nothing to open.
        if action == "open":
            return True if self.hits else None
        return True

    def validate_cursor(self, value: int) -> int:
        return max(0, min(value, len(self.hits) - 1))

    def watch_cursor(self) -> None:
        current = self.current
        self.chosen = current.docnum if current is not None else self.chosen
        self._scroll_to_cursor()
        self.refresh()
        self.post_message(PaperHighlighted(self.current))

    @property
    def page_rows(self) -> int:
        """How many rows one screen shows."""
        return max(1, self.scrollable_content_region.height // self.row_height)

    def action_cursor_down(self) -> None:
        self.cursor += 1

    def action_cursor_up(self) -> None:
        self.cursor -= 1

    def action_page_down(self) -> None:
        self.cursor += self.page_rows

    def action_page_up(self) -> None:
        self.cursor -= self.page_rows

    def action_first(self) -> None:
        self.cursor = 0

    def action_last(self) -> None:
        self.cursor = len(self.hits) - 1

    def action_open(self) -> None:
        if self.current is not None:
            self.post_message(PaperOpened(self.current))

    def _scroll_to_cursor(self, center: bool = False) -> None:
        height = self.scrollable_content_region.height
        if not height:
            return
        top = self.cursor * self.row_height
        bottom = top + self.row_height
        y = self.scroll_offset.y
        if center and not (y <= top and bottom <= y + height):
            self.scroll_to(y=max(0, top - height // 2), animate=False, immediate=True)
        elif top < y:
            self.scroll_to(y=top, animate=False, immediate=True)
        elif bottom > y + height:
            self.scroll_to(y=bottom - height, animate=False, immediate=True)

    # -- events -------------------------------------------------------------------

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or not self.hits:
            return
        row = (offset.y + self.scroll_offset.y) // self.row_height
        if row >= len(self.hits):
            return
        if row == self.cursor:
            self.action_open()
        else:
            self.cursor = row

    def on_resize(self, event: Resize) -> None:
        self._strips.clear()
        self._update_virtual_size()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips.clear()
        self._styles = None

    def _update_virtual_size(self) -> None:
        rows = max(1, len(self.hits) * self.row_height)
        set_virtual_size(self, Size(self.scrollable_content_region.width, rows))

    # -- drawing ------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        self.painted_generation = self.generation
        width = self.scrollable_content_region.width
        base = self.line_style
        if not self.hits:
            if y == 1 and self.empty_text:
                text = Text(self.empty_text, style=self.get_component_rich_style(
                    "paper-list--empty"))
                text.truncate(width, overflow="ellipsis")
                text.align("center", width)  # a Strip is not justified: pad it here
                return self._strip(text, width, base)
            return Strip.blank(width, base)
        row, line = divmod(self.scroll_offset.y + y, self.row_height)
        if row >= len(self.hits):
            return Strip.blank(width, base)
        is_cursor = row == self.cursor
        key = (row, line, width, is_cursor, self.has_focus)
        strip = self._strips.get(key)
        if strip is None:
            if len(self._strips) > _STRIP_CACHE_ROWS * 2:
                self._strips.clear()
            strip = self._strips[key] = self._render_row_line(row, line, width, is_cursor, base)
        return strip

    def _render_row_line(self, row: int, line: int, width: int, is_cursor: bool,
                         base: Style) -> Strip:
        hit = self.hits[row]
        styles = self._row_styles()
        if line == 0:
            bar = Text(_CURSOR_BAR if is_cursor else " ", style=styles.bar)
            if self.state is not None and self.state.is_read(hit.paper.id):
                # A read paper's name loses its bold: unread ones stand out.
                styles = styles._replace(head=styles.rest)
            text = bar + label_line(hit.paper, width - 1, styles, self.row_markers(hit.paper))
        else:
            excerpt, spans = self._snippet(hit, width - MARKER_CELLS - 1)
            text = snippet_line(excerpt, spans, width, styles)
        if is_cursor:
            cursor_style = self.get_component_rich_style(
                "paper-list--cursor" if self.has_focus else "paper-list--cursor-blurred")
            return self._strip(text, width, base, cursor_style)
        return self._strip(text, width, base)

    def _snippet(self, hit: Hit, width: int) -> tuple[str, list[tuple[int, int]]]:
        cached = self._snippets.get(hit.docnum)
        if cached is None:
            cached = self._snippets[hit.docnum] = hit.snippet(max(20, width))
        return cached

    def _row_styles(self) -> RowStyles:
        """The rows' component styles, looked up once per style change, not per line."""
        if self._styles is None:
            def get(name: str) -> Style:
                return _without_background(self.get_component_rich_style(name))

            self._styles = RowStyles(
                head=get("paper-list--head"), rest=get("paper-list--rest"),
                source=get("paper-list--source"), snippet=get("paper-list--snippet"),
                match=get("paper-list--match"), marker=get("paper-list--marker"),
                bar=get("paper-list--cursor-bar"),
            )
        return self._styles

    def _strip(self, text: Text, width: int, base: Style, over: Style | None = None) -> Strip:
        console = self.app.console
        strip = Strip(text.render(console, end=""), text.cell_len).adjust_cell_length(width)
        # Segment styles win over `over`, which wins over the widget's own style: one
        # pass with the two combined (a Strip per step was a third of a row's cost).
        style = base if over is None else base + over
        return Strip(Segment.apply_style(strip, style), width)
