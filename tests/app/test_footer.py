"""The footer: keys that start or stop applying are dimmed in place, not rebuilt."""

from __future__ import annotations

from reader_helpers import settle, type_query
from tui.app.compat import FooterKey
from tui.app.widgets.footer import KeyFooter


def _footer_key(app, action: str) -> FooterKey:
    footer = app.screen.query_one(KeyFooter)
    return next(key for key in footer.query(FooterKey) if key.action == action)


async def test_n_dims_in_place_when_the_paper_has_no_more_matches(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await type_query(pilot, "tool calls")
        await pilot.press("enter", "enter")  # to the list, then into the detail pane
        await settle(pilot)
        assert app.screen.focused is app.reader.detail
        assert app.reader.detail.match_count > 0
        shown = list(app.screen.query_one(KeyFooter).query(FooterKey))
        assert not _footer_key(app, "next_match").has_class("-disabled")

        app.reader.search_box.value = ""  # the same paper, now with nothing to match
        await settle(pilot)
        await pilot.pause()

        assert app.reader.detail.match_count == 0
        assert _footer_key(app, "next_match").has_class("-disabled")
        # The very same key widgets: the footer was not rebuilt for a dimmed key.
        assert list(app.screen.query_one(KeyFooter).query(FooterKey)) == shown


async def test_the_footer_follows_the_focused_pane(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await type_query(pilot, "tool calls")
        await pilot.press("enter", "enter")
        await settle(pilot)
        await pilot.pause()
        assert _footer_key(app, "next_match")  # the detail pane's keys
        await pilot.press("tab")  # back around to the search box
        await settle(pilot)
        await pilot.pause()
        footer = app.screen.query_one(KeyFooter)
        assert "next_match" not in {key.action for key in footer.query(FooterKey)}


async def test_changes_of_focus_do_not_leave_old_footer_keys_alive(make_app) -> None:
    import gc

    def alive() -> int:
        gc.collect()
        return sum(1 for obj in gc.get_objects() if isinstance(obj, FooterKey))

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await type_query(pilot, "tool calls")
        await pilot.press("enter")
        await settle(pilot)
        before = alive()
        for _ in range(12):  # search box, list, detail, and around again
            await pilot.press("tab")
            await pilot.pause()
        await settle(pilot)
        shown = len(app.screen.query_one(KeyFooter).query(FooterKey))
        assert alive() <= max(before, shown) + shown
