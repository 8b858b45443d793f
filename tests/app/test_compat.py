"""Each private name of Textual and Rich that `tui.app.compat` touches, checked against
the installed versions: an upgrade that moves one fails here, by name."""

from __future__ import annotations

import inspect

from rich.style import Style
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.command import CommandPalette
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.widgets import Footer

from tui.app import compat


class _RecordingFooter(Footer):
    """Notes, for each key the stock footer composes, whether it follows the footer."""

    bound: list[bool] = []

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, compat.FooterKey):
                self.bound.append(compat.is_bound_to_parent(widget))
            yield widget


class _FooterApp(App[None]):
    BINDINGS = [Binding("x", "nothing", "Nothing")]

    def compose(self) -> ComposeResult:
        yield _RecordingFooter()


async def test_footer_keys_follow_their_footer_and_can_be_dimmed_in_place() -> None:
    app = _FooterApp()
    async with app.run_test(size=(40, 5)) as pilot:
        await pilot.pause()
        # Textual binds each key's `compact` to the footer's; KeyFooter undoes that.
        assert True in _RecordingFooter.bound
        key = app.query(compat.FooterKey).first()
        compat.unbind_from_parent(key)
        assert not compat.is_bound_to_parent(key)
        assert compat.key_disabled(key) is False
        compat.set_key_disabled(key, True)
        assert compat.key_disabled(key) is True


def test_scroll_views_update_their_limits_from_a_size() -> None:
    assert list(inspect.signature(ScrollView._scroll_update).parameters) == [
        "self", "virtual_size"]
    view = ScrollView()
    compat.update_scroll_limits(view, Size(10, 200))  # unmounted: nothing to refresh


def test_rich_styles_say_whether_they_carry_meta() -> None:
    assert compat.has_meta(Style(meta={"match": 1}))
    assert not compat.has_meta(Style(bold=True))


def test_the_palette_routes_its_list_keys_through_one_method() -> None:
    assert "_action_command_list" in vars(CommandPalette)
    assert list(inspect.signature(CommandPalette._action_command_list).parameters) == [
        "self", "action"]
    assert issubclass(compat.GuardedPalette, CommandPalette)


def test_stylesheets_parse_each_source_through_one_method_and_keep_their_variables() -> None:
    from textual.css.stylesheet import Stylesheet

    assert list(inspect.signature(Stylesheet._parse_rules).parameters) == [
        "self", "css", "read_from", "is_default_rules", "tie_breaker", "scope"]
    sheet = compat.SourceStylesheet(variables={"accent": "red"})
    assert compat.stylesheet_variables(sheet) == {"accent": "red"} == sheet.variables
    calls = []
    sheet.parse_source = lambda *args: calls.append(args) or []  # type: ignore[method-assign]
    sheet.add_source("Static { color: $accent; }", read_from=("a.tcss", ""))
    sheet.parse()  # Textual's own parse goes through the hook
    assert calls == [("Static { color: $accent; }", ("a.tcss", ""), False, 0, "")]
