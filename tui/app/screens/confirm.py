"""The question Esc asks in the note editor when the text differs from the saved note."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label

from tui.app import bindings


class ConfirmDiscard(ModalScreen[bool]):
    """Discard the note's unsaved text? `y` discards; `n` or Esc goes back to editing."""

    BINDINGS = bindings.CONFIRM

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-dialog"):
            yield Label("Discard the unsaved changes to this note?", id="confirm-question")
            yield Label("y discard · n or Esc keep editing", id="confirm-hint")

    def action_discard(self) -> None:
        self.dismiss(True)

    def action_keep(self) -> None:
        self.dismiss(False)
