"""Resizing a scrolling widget's content without a new layout of the whole screen."""

from __future__ import annotations

from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.widget import Widget


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
    view._scroll_update(size)
    view.refresh()
