"""The command palette, opening lists (progress, errors) and the import boundary."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from textual.command import CommandList, CommandPalette
from textual.message import Message

from reader_helpers import settle, type_query
from tui.app.messages import IndexProgress, LibraryReady
from tui.app.widgets.loading import LoadingPanel


async def _choose_in_palette(pilot, text: str, expect: str) -> None:
    """Type `text` into the open palette, wait for `expect` to be listed, and choose it."""
    app = pilot.app
    assert isinstance(app.screen, CommandPalette)
    await pilot.press(*text)
    commands = app.screen.query_one(CommandList)
    for _ in range(300):
        await pilot.pause()
        prompts = [str(commands.get_option_at_index(i).prompt)
                   for i in range(commands.option_count)]
        if any(expect in p for p in prompts):
            break
    else:
        raise AssertionError(f"{expect!r} never offered; got {prompts}")
    index = next(i for i, p in enumerate(prompts) if expect in p)
    commands.highlighted = index
    await pilot.press("enter")
    await pilot.pause()


async def test_palette_jumps_to_a_paper_by_fuzzy_name(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await _choose_in_palette(pilot, "webwrld", "WebWorld")  # fuzzy: a letter missing
        await settle(pilot)
        assert app.screen is app.reader
        assert app.reader.paper_list.current.paper.name == "WebWorld"
        assert app.focused is app.reader.detail
        assert app.reader.detail.paper.name == "WebWorld"


async def test_palette_jump_clears_a_query_that_hides_the_paper(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await type_query(pilot, "tool")
        await pilot.press("ctrl+p")
        await _choose_in_palette(pilot, "Jump to paper", "Jump to paper")
        await _choose_in_palette(pilot, "SCHUR", "SCHUR-A*")
        await settle(pilot)
        assert app.reader.search_box.value == ""
        assert app.reader.paper_list.current.paper.name == "SCHUR-A*"
        assert app.reader.detail.display and app.focused is app.reader.detail


async def test_theme_can_be_switched_from_the_palette(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await _choose_in_palette(pilot, "theme", "Theme")
        await _choose_in_palette(pilot, "textual-light", "textual-light")
        assert app.theme == "textual-light"
        await pilot.press("j")  # still draws and moves under the new theme
        assert app.reader.paper_list.cursor == 1


def _write_list(path: Path, title: str, abstracts: list[str]) -> None:
    path.write_text(title + "\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")


async def test_opening_other_lists_shows_progress_with_counts(make_app, tmp_path: Path) -> None:
    folder = tmp_path / "lists"
    folder.mkdir()
    for n in range(3):
        _write_list(folder / f"venue{n}.txt", f"Venue {n} Papers", [
            f"We propose Method{n}x{k}, a way to test progress reporting number {k}." * 3
            for k in range(4)])
    seen: list[Message] = []

    def hook(message: Message) -> None:
        if isinstance(message, (IndexProgress, LibraryReady)) and all(m is not message for m in seen):
            seen.append(message)

    app = make_app(seeds=[str(folder)], index_dir=str(tmp_path / "index"))
    async with app.run_test(size=(80, 24), message_hook=hook) as pilot:
        await settle(pilot)
        progress = [(m.done, m.total) for m in seen if isinstance(m, IndexProgress)]
        assert progress and progress[-1] == (3, 3)
        assert [d for d, _ in progress] == sorted(d for d, _ in progress)
        assert isinstance(seen[-1], LibraryReady)
        assert not app.reader.query_one(LoadingPanel).display
        assert len(app.reader.paper_list.hits) == 12
        assert app.reader.paper_list.hits[0].paper.list_title == "Venue 0 Papers"


async def test_progress_is_shown_while_building(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.reader.show_progress(2, 5)  # what an IndexProgress message does
        await pilot.pause()
        panel = app.reader.query_one(LoadingPanel)
        assert "2 of 5 list files" in str(panel.query_one("#loading-label").render())
        await settle(pilot)


async def test_unusable_lists_exit_with_one_line_and_code_2(make_app, tmp_path: Path) -> None:
    app = make_app(seeds=[str(tmp_path / "missing.txt")], index_dir=str(tmp_path / "i"))
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
    assert app.return_code == 2
    message = app.error_message
    assert message.startswith("paperscope: ") and "\n" not in message


def test_importing_the_app_package_does_not_import_textual() -> None:
    code = "import sys, tui.app; assert 'textual' not in sys.modules, 'textual imported'"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[2])


def test_the_app_module_leaves_the_core_to_the_loading_worker() -> None:
    # Whoosh and the core load in the worker that opens the lists, so that the first
    # frame is not kept waiting for them (start-up time is a target).
    code = ("import sys, tui.app.app; "
            "assert not [m for m in sys.modules if m.startswith(('whoosh', 'tui.core.search'))]")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[2])


def test_the_first_frame_leaves_what_it_does_not_show_to_later() -> None:
    # The help, the palette's commands, keymap parsing and list parsing are imported
    # when first needed: every module imported before the first frame delays it.
    code = ("import sys, tui.app.app; later = ('tui.app.screens.help', 'tui.app.commands', "
            "'tomllib', 'webbrowser', 'tui.core.lists.paragraphs', 'tui.app.widgets.loading'); "
            "early = [m for m in later if m in sys.modules]; assert not early, early")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[2])


async def test_palette_filters_by_list_and_shows_counts(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await _choose_in_palette(pilot, "list 论文", "ICML 2026 论文列表 (19 papers)")
        await settle(pilot)
        assert app.reader.search_box.value.startswith('list:"ICML 2026 论文列表"')
        shown = [hit.paper for hit in app.reader.paper_list.hits]
        assert len(shown) == 19
        assert {p.list_title for p in shown} == {"ICML 2026 论文列表"}
        await pilot.press("ctrl+p")
        await _choose_in_palette(pilot, "all lists", "List: all lists (38 papers)")
        await settle(pilot)
        assert app.reader.search_box.value == ""


# -- keys that arrive while the palette closes -------------------------------------------
# A terminal delivers keys typed in quick succession together, so they are all queued
# before the first is handled; `post_message` does the same here (`pilot.press` waits
# for the app to go idle after each key, which hides these races).


async def test_enter_twice_in_the_palette_opens_the_paper_once(make_app) -> None:
    """Enter twice on a paper dismissed the palette twice: ScreenStackError, exit 1."""
    from textual import events

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await pilot.press(*"webwrld")
        commands = app.screen.query_one(CommandList)
        for _ in range(300):
            await pilot.pause()
            if commands.highlighted is not None and "WebWorld" in str(
                    commands.get_option_at_index(commands.highlighted).prompt):
                break
        else:
            raise AssertionError("WebWorld never offered")
        jumps: list[int] = []
        jump = app.reader.jump_to

        def counted(docnum: int) -> None:
            jumps.append(docnum)
            jump(docnum)

        app.reader.jump_to = counted  # type: ignore[method-assign]
        for _ in range(2):
            app.post_message(events.Key("enter", "\r"))
        await settle(pilot)
        assert app.return_code is None and app.screen is app.reader
        assert len(jumps) == 1
        assert app.reader.detail.paper.name == "WebWorld"


async def test_palette_reopened_while_the_last_one_is_removed(make_app) -> None:
    """ctrl+p right after closing: a second screen with the same id (DuplicateIds)."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        first = app.screen
        first.dismiss()
        app.action_command_palette()  # before the first palette is removed
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette) and app.screen is not first
        await pilot.press("escape")
        await pilot.pause()
        assert app.return_code is None and app.screen is app.reader


async def test_palette_styles_asked_after_removal(make_app) -> None:
    """The worker gathering commands may build one more hit after the palette is gone:
    its help style was a KeyError once the palette's styles were dropped."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        palette = app.screen
        palette.get_component_styles("command-palette--help-text")
        with pytest.raises(KeyError):  # a wrong name still fails while it is open
            palette.get_component_styles("no-such-component")
        await pilot.press("escape")
        await settle(pilot)
        assert not palette.is_attached
        palette.get_component_styles("command-palette--help-text")  # no KeyError


@pytest.mark.parametrize("page", ["pageup", "pagedown"])
async def test_page_key_typed_with_ctrl_p(make_app, page: str) -> None:
    """ctrl+p and a page key together paged a list not laid out yet: KeyError, exit 1."""
    from textual import events

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for key in ("ctrl+p", page):
            app.post_message(events.Key(key, None))
        await pilot.pause()
        assert app.return_code is None and isinstance(app.screen, CommandPalette)
        commands = app.screen.query_one(CommandList)
        await pilot.press("down", page)  # laid out now: the key pages
        assert commands.highlighted is not None
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.reader


@pytest.mark.parametrize("start", [["slash"], ["question_mark"]], ids=["search-box", "help"])
async def test_search_command_where_slash_is_typed(make_app, start: list[str]) -> None:
    """The palette's "Search" raised SkipAction from the search box or over the help,
    outside any key binding: the reader quit with a traceback."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press(*start)
        screen = app.screen
        await pilot.press("ctrl+p")
        await _choose_in_palette(pilot, "search", "Search")
        await pilot.pause()
        assert app.return_code is None and app.screen is screen
        if screen is app.reader:
            assert app.focused is app.reader.search_box
