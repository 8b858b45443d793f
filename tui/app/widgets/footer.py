"""The footer of keys, updated in place when only which keys apply has changed."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer

from tui.app.compat import (
    FooterKey, is_bound_to_parent, key_disabled, set_key_disabled, unbind_from_parent,
)


class KeyFooter(Footer):
    """Textual's footer, without rebuilding its keys when the same keys are shown.

    The stock footer removes and mounts every key whenever bindings are refreshed,
    which costs a layout of the screen and tens of milliseconds. Typing refreshes them
    (Esc starts to apply, n/N start to have matches), so this footer compares what it
    would show with what it shows: the same keys with another enabled state are
    dimmed or undimmed in place, and only a different set of keys is rebuilt.
    """

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._shown: tuple[tuple[str, str, bool], ...] | None = None
        """(key, action, enabled) of each key on show."""

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, FooterKey) and is_bound_to_parent(widget):
                # Textual binds each key's `compact` to the footer's and never unbinds
                # it, so every rebuild would keep the old keys alive as watchers of the
                # footer: memory grows with each change of focus. This footer's
                # `compact` never changes, so the keys get its value, not a binding.
                unbind_from_parent(widget)
                widget.set_reactive(FooterKey.compact, self.compact)
                widget.set_class(self.compact, "-compact")
            yield widget

    def bindings_changed(self, screen: Screen) -> None:
        if not (screen.app.app_focus and self.is_attached and screen is self.screen):
            super().bindings_changed(screen)
            return
        active = list(screen.active_bindings.values())
        wanted = tuple(
            (binding.key, binding.action, enabled)
            for (_, binding, enabled, _) in active
            if binding.show
        )
        if wanted == self._shown:
            return
        same_keys = self._shown is not None and [w[:2] for w in wanted] == [
            s[:2] for s in self._shown
        ]
        self._shown = wanted
        enabled = {(binding.key, binding.action): on for (_, binding, on, _) in active}
        if same_keys and self._set_enabled(enabled):
            return
        super().bindings_changed(screen)

    def _set_enabled(self, enabled: dict[tuple[str, str], bool]) -> bool:
        """Dim or undim the keys on show; False when they are not what was composed."""
        keys = list(self.query(FooterKey))
        if any((key.key, key.action) not in enabled for key in keys):
            return False
        for key in keys:
            on = enabled[(key.key, key.action)]
            if key_disabled(key) == on:
                set_key_disabled(key, not on)
                key.set_class(not on, "-disabled")
        return True
