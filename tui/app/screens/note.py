"""The note editor: a modal text area over the reader.

It answers with the new text (`dismiss(text)`) or with None when cancelled, so the
reader alone decides what to store; the editor knows nothing of the reading state.
Cancelling changed text asks first (`ConfirmDiscard`): the text would be gone.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, TextArea

from tui.app import bindings


class NoteScreen(ModalScreen[str | None]):
    """Edit one paper's note: ctrl+s or Save saves, Esc or Cancel leaves it as it was."""

    BINDINGS = bindings.NOTE

    def __init__(self, title: str, note: str, *, start: str | None = None,
                 notice: str | None = None, cursor_blink: bool = True) -> None:
        """`note` is the saved note; the editor starts from `start` (a recovered draft)
        when given, with `notice` shown above it."""
        super().__init__()
        self.cursor_blink = cursor_blink
        """Whether the editor's cursor blinks (off for tests and screenshots)."""
        self.paper_title = title
        """The paper the note is on, shown above the editor."""
        self.note = note
        """The note as it was saved when the editor opened."""
        self.start = note if start is None else start
        """What the editor starts with."""
        self.notice = notice
        """A line above the editor (that it starts from a recovered draft), or None."""
        self.on_text_changed: Callable[[str], None] | None = None
        """Called with the text after each change (the draft keeper)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="note-dialog"):
            yield Label(f"Note on {self.paper_title}", id="note-title")
            if self.notice:
                yield Label(self.notice, id="note-recovered")
            yield TextArea(self.start, id="note-text", soft_wrap=True, show_line_numbers=False)
            with Horizontal(id="note-buttons"):
                yield Label("ctrl+s save · Esc cancel", id="note-hint")
                yield Button("Save", variant="primary", id="note-save")
                yield Button("Cancel", id="note-cancel")

    def on_mount(self) -> None:
        area = self.query_one(TextArea)
        area.cursor_blink = self.cursor_blink
        area.move_cursor(area.document.end)
        self.set_focus(area)

    @property
    def text(self) -> str:
        """What the editor holds now."""
        return self.query_one(TextArea).text

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        event.stop()
        if self.on_text_changed is not None:
            self.on_text_changed(event.text_area.text)

    def action_save(self) -> None:
        self.dismiss(self.text)

    def action_cancel(self) -> None:
        if self.text == self.note:
            self.dismiss(None)
            return
        from tui.app.screens.confirm import ConfirmDiscard

        def answered(discard: bool | None) -> None:
            if discard and self.is_active:
                self.dismiss(None)

        self.app.push_screen(ConfirmDiscard(), answered)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if not self.is_active:
            # A press still on its way when another screen (the palette) opened over
            # the editor: dismissing now would close that screen instead, and the next
            # Save or Esc would answer a second time (InvalidStateError, a crash).
            return
        if event.button.id == "note-save":
            self.action_save()
        else:
            self.action_cancel()
