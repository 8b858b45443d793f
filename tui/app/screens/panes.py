"""Moving between the reader's panes: tab and shift+tab, Esc, and on a narrow screen
which of the list and the detail pane has the screen (the class `-detail-open`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from tui.app.view import PanesView
from tui.app.widgets.detail import DetailView
from tui.app.widgets.paper_list import PaperList
from tui.app.widgets.search_box import SearchBox

if TYPE_CHECKING:
    from textual.widget import Widget

    from tui.app.reading import Reading


class PaneView(PanesView, Protocol):
    """What `Panes` needs of the screen whose panes it moves between."""

    @property
    def reading(self) -> Reading:
        """Whose similar papers Esc leaves."""

    def add_class(self, *class_names: str) -> object: ...

    def remove_class(self, *class_names: str) -> object: ...

    def has_class(self, *class_names: str) -> bool: ...


class Panes:
    """The search box, the list and the detail pane of `view`, in that order."""

    def __init__(self, view: PaneView) -> None:
        self.view = view

    def focused(self, widget: Widget) -> None:
        """`widget` got the focus: on a narrow screen the list or the detail has the
        screen, the one last focused."""
        if isinstance(widget, PaperList):
            self.view.remove_class("-detail-open")
        elif isinstance(widget, DetailView):
            self.view.add_class("-detail-open")

    def _panes(self) -> list[Widget]:
        view = self.view
        if view.library is None:
            return [view.search_box]
        return [view.search_box, view.paper_list, view.detail]

    def cycle(self, step: int) -> None:
        """Focus the pane `step` panes on (tab: +1, shift+tab: -1), round the end."""
        panes = self._panes()
        current = self.view.focused
        index = panes.index(current) if current in panes else 0
        target = panes[(index + step) % len(panes)]
        if isinstance(target, DetailView):
            self.view.add_class("-detail-open")  # so that a narrow screen shows it
        self.view.set_focus(target)

    def can_go_back(self) -> bool:
        """Whether Esc does anything: not in the list, with no query to clear."""
        view = self.view
        return view.library is None or not (
            view.focused is view.paper_list and not view.search_box.value
            and view.reading.similar_of is None)

    def back(self) -> None:
        """Esc: leave the search box or the detail; from the list, leave the similar
        papers, else clear the query."""
        view = self.view
        if view.library is None:
            return
        if isinstance(view.focused, (SearchBox, DetailView)) or view.has_class("-detail-open"):
            view.set_focus(view.paper_list)
        elif view.reading.leave_similar():
            pass
        elif view.search_box.value:
            view.search_box.value = ""
