"""The search box: an `Input` whose Enter and ↓ lead to the list."""

from __future__ import annotations

from textual.geometry import Size
from textual.message import Message
from textual.reactive import Reactive
from textual.widgets import Input

from tui.app import bindings


class SearchBox(Input):
    """Where queries are typed; every change starts a search (see `searching.LiveSearch`)."""

    BINDINGS = bindings.SEARCH

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), repaint=True)
    """As Textual's, but the box has a fixed size: its text growing needs a repaint of
    the box, not a layout of the whole screen, which the stock reactive asks for on
    every keystroke (and which costs typing more than drawing the results)."""

    class Leave(Message):
        """The user wants to go from the search box to the list (Enter or ↓)."""

        def __init__(self, submitted: bool = False) -> None:
            super().__init__()
            self.submitted = submitted
            """True for Enter, which may first ask for the "did you mean" suggestion."""

    suggestion: str | None = None
    """The engine's "did you mean" for the current query, which Enter accepts."""

    def action_submit(self) -> None:
        """Enter: take the "did you mean" suggestion as the query if there is one (its
        search follows, as for typing), else go to the list."""
        if self.suggestion:
            self.value = self.suggestion
            self.cursor_position = len(self.value)
        else:
            self.post_message(self.Leave(submitted=True))

    def action_to_list(self) -> None:
        self.post_message(self.Leave())
