"""The help screen, generated from the bindings themselves (see `tui.app.bindings`).

Keys come from the app's keymap where the user remapped them, so the screen always
tells the keys that work now.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tui.app import bindings


NARROW = 70
"""Below this many columns the help leaves out the longer descriptions."""


def help_table(keymap: Mapping[str, str], key_display: Callable[[Binding], str],
               width: int = 100) -> Table:
    """A table of every scope's keys: keys, what they do, and (if wide) a description."""
    wide = width >= NARROW
    table = Table.grid(padding=(0, 2))
    table.add_column("keys", no_wrap=True, style="bold")
    table.add_column("action", no_wrap=not wide)
    if wide:
        table.add_column("more", ratio=1, style="dim")
    for number, scope in enumerate(bindings.SCOPES):
        if number:
            table.add_row()
        table.add_row(Text(scope.title, style="bold underline"))
        for keys, description, tooltip in _rows(scope.bindings, keymap, key_display):
            table.add_row(keys, description, *([tooltip] if wide else []))
    return table


def _rows(scope: list[Binding], keymap: Mapping[str, str],
          key_display: Callable[[Binding], str]) -> list[tuple[str, str, str]]:
    """One row per action, with all the keys bound to it (aliases included)."""
    rows: dict[str, tuple[list[str], str, str]] = {}
    for binding in scope:
        keys = keymap.get(binding.id or "", binding.key)
        shown = [key_display(Binding(key.strip(), binding.action)) for key in keys.split(",")]
        if binding.action in rows:
            rows[binding.action][0].extend(k for k in shown if k not in rows[binding.action][0])
        else:
            rows[binding.action] = (shown, binding.description, binding.tooltip)
    return [(" ".join(keys), description, tooltip) for keys, description, tooltip in rows.values()]


class HelpScreen(ModalScreen[None]):
    """Every key of the reader, by where it works."""

    BINDINGS = bindings.HELP

    def compose(self) -> ComposeResult:
        self.table = self._table()
        """What the screen shows (kept for tests and for copying)."""
        with VerticalScroll(id="help-body") as body:
            body.border_title = "paperscope keys"
            body.border_subtitle = "Esc to close"
            yield Static(self.table, id="help-table")

    def _table(self) -> Table:
        return help_table(getattr(self.app, "keymap", {}), self.app.get_key_display,
                          self.app.size.width)

    def on_mount(self) -> None:
        self.query_one("#help-body").focus()

    def on_resize(self) -> None:
        self.table = self._table()
        self.query_one("#help-table", Static).update(self.table)

    def action_close(self) -> None:
        self.dismiss()

    def action_scroll_down(self) -> None:
        self.query_one("#help-body").scroll_down()

    def action_scroll_up(self) -> None:
        self.query_one("#help-body").scroll_up()

    def action_page_down(self) -> None:
        self.query_one("#help-body").scroll_page_down()

    def action_page_up(self) -> None:
        self.query_one("#help-body").scroll_page_up()
