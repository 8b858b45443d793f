"""Every use of a private name of Textual or Rich, in one place.

The reader draws faster than stock Textual allows in a few spots (a footer updated in
place, scroll views resized without a layout of the screen, match lines found without
unpickling every style, the parsed styles kept between starts) and guards the command
palette against keys typed faster than it is drawn. Each function here stands for one private name it needs, written against
Textual 8.2 and Rich 15; tests/app/test_compat.py checks each against the installed
versions, so that an upgrade that moves one fails there, by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.command import CommandList, CommandPalette
from textual.css.stylesheet import Stylesheet
from textual.widgets._footer import FooterKey

if TYPE_CHECKING:
    from rich.style import Style
    from textual.geometry import Size
    from textual.scroll_view import ScrollView

__all__ = ["FooterKey", "GuardedPalette", "is_bound_to_parent", "unbind_from_parent",
           "key_disabled", "set_key_disabled", "update_scroll_limits", "has_meta",
           "SourceStylesheet", "stylesheet_variables"]


def is_bound_to_parent(key: FooterKey) -> bool:
    """Whether the footer key's reactives follow its footer's (Textual binds `compact`)."""
    return bool(key._reactive_connect)


def unbind_from_parent(key: FooterKey) -> None:
    """Stop the key's reactives from following its footer's: the footer keeps the key
    alive as a watcher otherwise, long after it was removed."""
    key._reactive_connect = None


def key_disabled(key: FooterKey) -> bool:
    """Whether the footer key is shown dimmed (its binding does not apply)."""
    return key._disabled


def set_key_disabled(key: FooterKey, disabled: bool) -> None:
    """Dim or undim the key in place (the class `-disabled` is the caller's)."""
    key._disabled = disabled


def update_scroll_limits(view: ScrollView, size: Size) -> None:
    """Update `view`'s scrollbars and scroll limits for a new virtual size, without the
    layout of the whole screen that setting `virtual_size` costs."""
    view._scroll_update(size)


def has_meta(style: Style) -> bool:
    """Whether a Rich style carries meta data, without unpickling it (`Style.meta`)."""
    return bool(style._meta)


class GuardedPalette(CommandPalette):
    """Textual's command palette, paging only once its list has been laid out."""

    def _action_command_list(self, action: str) -> None:
        # Textual's list pages by the lines it computes at layout; before its first one
        # it has none and paging raised KeyError (and there is nothing to page yet).
        if action.startswith("page_") and not self.query_one(CommandList).scrollable_content_region:
            return
        super()._action_command_list(action)


class SourceStylesheet(Stylesheet):
    """Textual's stylesheet, whose parse of each CSS source (its private `_parse_rules`)
    goes through `parse_source`, for a subclass to look the rules up first."""

    def _parse_rules(self, css, read_from, is_default_rules=False, tie_breaker=0,
                     scope=""):  # type: ignore[override]
        return self.parse_source(css, read_from, is_default_rules, tie_breaker, scope)

    def parse_source(self, css: str, read_from: tuple[str, str], is_default_rules: bool,
                     tie_breaker: int, scope: str) -> list:
        """The rule sets of one source, parsed by Textual (raises on CSS it cannot
        read, as Textual does)."""
        return super()._parse_rules(css, read_from, is_default_rules, tie_breaker, scope)

    @property
    def variables(self) -> dict[str, str]:
        """The CSS variables the sources are parsed with (the theme's)."""
        return stylesheet_variables(self)


def stylesheet_variables(stylesheet: Stylesheet) -> dict[str, str]:
    """The CSS variables `stylesheet` parses its sources with (the app's theme's): what
    a stylesheet put in its place starts from, without making them again."""
    return stylesheet._variables
