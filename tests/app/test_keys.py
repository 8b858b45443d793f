"""Every key of the reader, pressed through Textual's Pilot."""

from __future__ import annotations

import pytest
from textual.message import Message

from reader_helpers import settle, type_query
from tui.app.messages import PaperOpened
from tui.app.screens.help import HelpScreen
from tui.app.widgets.detail import DetailView
from tui.app.widgets.paper_list import PaperList
from tui.app.widgets.search_box import SearchBox


@pytest.mark.parametrize(("keys", "cursor"), [
    (["j", "j", "k"], 1),
    (["down", "down", "down", "up"], 2),
    (["G"], 37),
    (["end"], 37),
    (["G", "g"], 0),
    (["end", "home"], 0),
    (["k"], 0),  # stays at the top
    (["G", "j"], 37),  # stays at the bottom
])
async def test_list_moves(make_app, keys: list[str], cursor: int) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press(*keys)
        papers = app.reader.paper_list
        assert papers.cursor == cursor
        # The detail pane follows the cursor.
        assert app.reader.detail.paper == papers.hits[cursor].paper


@pytest.mark.parametrize("down,up", [("pagedown", "pageup"), ("ctrl+d", "ctrl+u")])
async def test_list_pages(make_app, down: str, up: str) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        papers = app.reader.paper_list
        page = papers.page_rows
        assert 5 < page < 38
        await pilot.press(down)
        assert papers.cursor == page
        assert papers.scroll_offset.y > 0  # the cursor row is on screen
        top = papers.scroll_offset.y
        assert top <= papers.cursor < top + papers.scrollable_content_region.height
        await pilot.press(up)
        assert papers.cursor == 0 and papers.scroll_offset.y == 0


async def test_enter_opens_the_detail_beside_the_list_when_wide(make_app) -> None:
    app = make_app()
    opened: list[PaperOpened] = []

    def hook(message: Message) -> None:
        # A bubbling message passes the hook once per node: count it once.
        if isinstance(message, PaperOpened) and all(m is not message for m in opened):
            opened.append(message)

    async with app.run_test(size=(120, 40), message_hook=hook) as pilot:
        await settle(pilot)
        await pilot.press("j", "enter")
        assert [m.hit.docnum for m in opened] == [1]
        assert app.focused is app.reader.detail
        assert app.reader.paper_list.display and app.reader.detail.display
        await pilot.press("escape")
        assert app.focused is app.reader.paper_list
        assert app.reader.paper_list.cursor == 1


async def test_narrow_screen_shows_the_detail_alone_and_esc_returns(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        papers, detail = app.reader.paper_list, app.reader.detail
        assert papers.display and not detail.display
        await pilot.press("j", "j", "enter")
        await pilot.pause()
        assert detail.display and not papers.display
        assert app.focused is detail and detail.paper == papers.hits[2].paper
        await pilot.press("escape")
        await pilot.pause()
        assert papers.display and not detail.display
        assert app.focused is papers and papers.cursor == 2


async def test_search_box_keys(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        box = app.reader.query_one(SearchBox)
        await pilot.press("slash")
        assert app.focused is box and box.value == ""  # "/" focuses, it is not typed
        await pilot.press("q", "down")  # q is typed, not quit; ↓ goes to the list
        await settle(pilot)
        assert box.value == "q" and app.focused is app.reader.paper_list
        await pilot.press("ctrl+f")
        assert app.focused is box
        await pilot.press("enter")
        assert app.focused is app.reader.paper_list
        # Focusing selects the query (typing replaces it); in the box "/" is typed.
        await pilot.press("slash", "slash")
        assert box.value == "/"
        box.value = "q"
        await pilot.press("enter")
        await settle(pilot)
        # Esc leaves the box; a second Esc clears the query.
        await pilot.press("slash", "escape")
        assert app.focused is app.reader.paper_list and box.value == "q"
        await pilot.press("escape")
        await settle(pilot)
        assert box.value == "" and len(app.reader.paper_list.hits) == 38


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_tab_cycles_the_panes(make_app, size: tuple[int, int]) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        reader = app.reader
        seen = []
        for _ in range(3):
            await pilot.press("tab")
            await pilot.pause()
            seen.append(type(app.focused))
        assert seen == [DetailView, SearchBox, PaperList]
        assert reader.paper_list.display
        await pilot.press("shift+tab")
        await pilot.pause()
        assert app.focused is reader.search_box
        await pilot.press("shift+tab")
        await pilot.pause()
        assert app.focused is reader.detail and reader.detail.display


async def test_detail_scrolls(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(60, 14)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        detail = app.reader.detail
        assert detail.virtual_size.height > detail.scrollable_content_region.height
        await pilot.press("j", "j")
        assert detail.scroll_offset.y == 2
        await pilot.press("k")
        assert detail.scroll_offset.y == 1
        await pilot.press("space")
        paged = detail.scroll_offset.y
        assert paged > 2
        await pilot.press("b")
        assert detail.scroll_offset.y < paged
        await pilot.press("G")
        assert detail.scroll_offset.y == detail.max_scroll_y
        await pilot.press("g")
        assert detail.scroll_offset.y == 0


async def test_n_and_shift_n_jump_between_matches(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(60, 16)) as pilot:
        await settle(pilot)
        await type_query(pilot, "tool")
        await pilot.press("enter", "g", "enter")  # to the list, to the top, open ParaTool
        detail = app.reader.detail
        assert app.focused is detail and detail.paper.name == "ParaTool"
        assert detail.match_count >= 10 and len(detail.match_lines) == detail.match_count
        assert detail.match_lines == sorted(detail.match_lines)
        await pilot.press("n")
        assert detail.current_match == 0
        last_line = detail.match_lines[-1]
        await pilot.press("N", "N")  # wraps from the first to the last, then back one
        assert detail.current_match == detail.match_count - 2
        top = detail.scroll_offset.y
        line = detail.match_lines[detail.current_match]
        assert top <= line < top + detail.scrollable_content_region.height
        assert last_line > detail.scrollable_content_region.height  # it did scroll
        await pilot.press("n", "n")
        assert detail.current_match == 0
        assert detail.scroll_offset.y <= detail.match_lines[0]


async def test_help_lists_every_binding_and_closes(make_app) -> None:
    from tui.app import bindings

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = _plain(app, app.screen.table)
        for scope in bindings.SCOPES:
            assert scope.title in text
            for binding in scope.bindings:
                assert binding.description in text
        await pilot.press("escape")
        assert app.screen is app.reader
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("f1")
        assert app.screen is app.reader


def _plain(app, renderable) -> str:
    with app.console.capture() as capture:
        app.console.print(renderable, width=200)
    return capture.get()


async def test_help_shows_keys_from_the_keymap_file(make_app, no_user_keymap) -> None:
    no_user_keymap.write_text('[keymap]\n"list.down" = ["ctrl+n"]\n"app.help" = "h"\n')
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+n", "j")  # remapped, and the vim alias still works
        assert app.reader.paper_list.cursor == 2
        await pilot.press("down")  # no longer bound to the list
        assert app.reader.paper_list.cursor == 2
        await pilot.press("h")
        assert isinstance(app.screen, HelpScreen)
        text = _plain(app, app.screen.table)
        assert "^n j" in text


async def test_a_bad_keymap_file_is_a_notice_not_a_crash(make_app, no_user_keymap) -> None:
    no_user_keymap.write_text('[keymap\n"list.down" = ')
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        messages = [n.message for n in app._notifications]
        assert any("unusable" in m and "default keys" in m for m in messages)
        await pilot.press("j")
        assert app.reader.paper_list.cursor == 1


@pytest.mark.parametrize("key", ["q", "ctrl+c"])
async def test_quit(make_app, key: str) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(key)
        await pilot.pause()
        assert app._exit
    assert app.return_code == 0


async def test_ctrl_c_quits_from_the_search_box(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", "ctrl+c")
        await pilot.pause()
        assert app._exit


async def test_mouse_selects_and_opens(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        papers = app.reader.paper_list
        await pilot.click(PaperList, offset=(5, 4))  # the border is row 0
        assert papers.cursor == 3
        await pilot.click(PaperList, offset=(5, 4))
        assert app.focused is app.reader.detail
        assert app.reader.detail.paper == papers.hits[3].paper


async def test_ctrl_z_suspends_and_resuming_redraws(make_app) -> None:
    """ctrl+z did nothing (Textual binds no key to suspending), and after `fg` the
    screen stayed blank until something on it changed (a resume is not a resize).
    The real suspension is checked in a terminal (tests/app/test_real_terminal.py)."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        suspended = []
        app.action_suspend_process = (  # type: ignore[method-assign]
            lambda: suspended.append(app.focused))
        await pilot.press("ctrl+z")
        await pilot.press("slash", "ctrl+z")
        assert suspended == [app.reader.paper_list, app.reader.search_box]
        await pilot.press("escape", "e", "a", "ctrl+z")  # the note editor undoes instead
        assert len(suspended) == 2 and app.screen is not app.reader
        await pilot.press("escape")
        refreshed = []
        refresh = app.refresh

        def counted(**kwargs: bool) -> object:
            refreshed.append(kwargs)
            return refresh(**kwargs)

        app.refresh = counted  # type: ignore[method-assign]
        app.app_resume_signal.publish(app)
        await pilot.pause()
        assert {"layout": True} in refreshed


async def test_detail_follows_after_a_screen_closed_with_its_refresh_call(make_app) -> None:
    """A paper highlighted while the help was open queued the detail's update on the
    help screen (Textual runs after-refresh calls on the screen on top); closed before
    running it, the detail pane never followed the list again."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        papers, detail = app.reader.paper_list, app.reader.detail
        await pilot.press("question_mark")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        help_screen._invoke_later = lambda callback, sender: None  # closes before running it
        papers.action_cursor_down()  # e.g. a search answered while the help was open
        await pilot.pause()
        await pilot.press("escape")
        await settle(pilot)
        assert detail.paper == papers.hits[1].paper
        await pilot.press("j")
        await settle(pilot)
        assert detail.paper == papers.hits[2].paper


@pytest.mark.parametrize("keys", [["q", "question_mark"], ["q", "f1"], ["q", "e"],
                                  ["ctrl+q", "ctrl+p"]], ids=" ".join)
async def test_a_key_typed_right_after_quitting_opens_nothing(make_app, keys: list[str]) -> None:
    """`q?` typed together: the help screen was pushed on an app already closing down,
    never composed, and its mount raised NoMatches: a traceback and exit code 1."""
    from textual import events

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for key in keys:  # together, as a terminal delivers keys typed quickly
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        await pilot.pause()
    assert app.return_code == 0
