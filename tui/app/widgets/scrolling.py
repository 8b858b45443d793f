"""What the reader's two line-drawn scroll views (the list, the detail) share: a new
content size without a layout of the whole screen, and their base style per line."""

from __future__ import annotations

from rich.style import Style
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.widget import Widget

from tui.app.compat import update_scroll_limits


def set_virtual_size(view: ScrollView, size: Size) -> None:
    """Give `view` a new virtual (scrollable) size.

    Setting `virtual_size` lays out the whole screen again, which costs every search a
    repaint of every widget. A view whose scrollbars are fixed (`overflow-y: scroll`,
    `overflow-x: hidden`) keeps its place and size whatever its content, so updating its
    scrollbar and its scroll limits, then repainting it, is all a new size needs.
    """
    if size == view.virtual_size:
        return
    styles = view.styles
    if not view.size or styles.overflow_y != "scroll" or styles.overflow_x != "hidden":
        view.virtual_size = size
        return
    view.set_reactive(Widget.virtual_size, size)
    update_scroll_limits(view, size)
    view.refresh()


class LineStyle(Widget):
    """Mixin for a line-API widget: its own style, looked up once per style change.

    `rich_style` walks every ancestor's styles on each call; once per drawn line it was
    half the cost of repainting the list. Like the component styles Textual caches, it
    is forgotten when the styles are applied again (`notify_style_update`, which
    Textual calls on every node after a theme, class or pseudo-class change).
    """

    _line_style: Style | None = None

    @property
    def line_style(self) -> Style:
        """This widget's `rich_style` (its text colour over its background)."""
        if self._line_style is None:
            self._line_style = self.rich_style
        return self._line_style

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._line_style = None
