"""The command palette, opening lists (progress, errors) and the import boundary."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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


def test_core_never_imports_the_app() -> None:
    code = ("import sys, tui.core.search, tui.core.library, tui.core.render; "
            "assert not [m for m in sys.modules if m.startswith(('textual', 'tui.app'))]")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[2])


def test_the_app_module_leaves_the_core_to_the_loading_worker() -> None:
    # Whoosh and the core load in the worker that opens the lists, so that the first
    # frame is not kept waiting for them (start-up time is a target).
    code = ("import sys, tui.app.app; "
            "assert not [m for m in sys.modules if m.startswith(('whoosh', 'tui.core.search'))]")
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
