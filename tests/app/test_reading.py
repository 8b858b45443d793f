"""The reading keys: stars, read marks, notes, filter, sort, similar papers, copying,
links and export; and the reading state surviving restarts and bad files."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import tui.app.sharing as sharing
from reader_helpers import detail_text, selected, settle, wait_until
from tui.app.app import PaperscopeApp
from tui.app.screens.confirm import ConfirmDiscard
from tui.app.screens.note import NoteScreen
from tui.core.model import Paper
from tui.core.render.text import render
from tui.core.state import StateStore, default_state_path

SIZE = (120, 40)


def markers(app: PaperscopeApp, paper: Paper) -> str:
    text = app.reader.paper_list.row_markers(paper)
    assert text is not None
    return text.plain


def capture_notifications(app: PaperscopeApp) -> list[str]:
    said: list[str] = []
    original = app.notify

    def notify(message: str, *args: object, **kwargs: object) -> None:
        said.append(message)
        original(message, *args, **kwargs)  # type: ignore[arg-type]

    app.notify = notify  # type: ignore[method-assign]
    return said




# -- star, read, note ----------------------------------------------------------------------


async def test_s_stars_and_unstars_the_selected_paper(make_app) -> None:
    app = make_app(read_after=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        paper = selected(app)
        assert markers(app, paper) == " • "  # unread, not starred
        await pilot.press("s")
        assert app.state.is_starred(paper.id)
        assert markers(app, paper) == "★• "
        assert "★ starred" in detail_text(app)
        await pilot.press("s")
        assert not app.state.is_starred(paper.id)
        # Saved as it happened, for another process (or a crash) to see.
        assert not StateStore().is_starred(paper.id)


async def test_a_star_that_searches_again_shows_in_the_detail_with_the_answer(
        make_app) -> None:
    app = make_app(read_after=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("f", "f")  # unread: a star keeps the paper in the list
        await settle(pilot)
        paper = selected(app)
        searches = app.reader.search_serial
        await pilot.press("s")
        await settle(pilot)
        assert app.reader.search_serial == searches + 1  # the filter's list again
        assert selected(app).id == paper.id
        assert "★ starred" in detail_text(app) and markers(app, paper) == "★• "


async def test_s_works_from_the_detail_pane_but_types_in_the_search_box(make_app) -> None:
    app = make_app(read_after=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        paper = selected(app)
        await pilot.press("enter", "s")  # in the detail pane
        assert app.state.is_starred(paper.id)
        await pilot.press("slash", "s")
        await settle(pilot)
        assert app.reader.search_box.value == "s"
        assert app.state.is_starred(paper.id)  # not toggled back


async def test_m_toggles_read_and_unbolds_the_row(make_app) -> None:
    app = make_app(read_after=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        paper = selected(app)
        await pilot.press("m")
        assert app.state.is_read(paper.id)
        assert markers(app, paper) == "   "
        assert "• unread" not in detail_text(app)
        await pilot.press("m")
        assert not app.state.is_read(paper.id)
        assert markers(app, paper) == " • "


async def test_a_paper_shown_for_a_while_becomes_read(make_app) -> None:
    app = make_app(read_after=0.05)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        paper = selected(app)
        await wait_until(pilot, lambda: app.state.is_read(paper.id), "the auto-read")
        assert markers(app, paper) == "   "


async def test_moving_on_cancels_the_auto_read(make_app) -> None:
    app = make_app(read_after=60)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        first = selected(app)
        timer = app.reader.reading._read_timer
        assert timer is not None and app.reader.reading._read_timer_paper == first.id
        await pilot.press("j")
        await settle(pilot)
        second = selected(app)
        assert app.reader.reading._read_timer_paper == second.id
        assert app.reader.reading._read_timer is not timer
        # The old timer fires no more; firing the new one by hand marks only the second.
        app.reader.reading._mark_read_if_shown(second.id)
        assert app.state.is_read(second.id) and not app.state.is_read(first.id)


async def test_e_writes_a_note_shown_in_the_detail_pane(make_app) -> None:
    app = make_app(read_after=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        paper = selected(app)
        await pilot.press("e")
        assert isinstance(app.screen, NoteScreen)
        await pilot.press(*"good idea", "ctrl+s")
        assert not isinstance(app.screen, NoteScreen)
        assert app.state.note(paper.id) == "good idea"
        assert "good idea" in detail_text(app)
        # Esc leaves the note as it was, once the question is answered "y" (discard);
        # "n" goes back to the editor with the text kept.
        await pilot.press("e", "x", "y", "escape")
        assert isinstance(app.screen, ConfirmDiscard)
        await pilot.press("n")
        assert isinstance(app.screen, NoteScreen) and app.screen.text == "good ideaxy"
        await pilot.press("escape", "y")
        assert app.screen is app.reader
        assert app.state.note(paper.id) == "good idea"
        # Esc with the text unchanged asks nothing.
        await pilot.press("e", "escape")
        assert app.screen is app.reader
        # The Save button saves too.
        await pilot.press("e", "!")
        await pilot.click("#note-save")
        await pilot.pause()
        assert app.state.note(paper.id) == "good idea!"


# -- filter, sort, similar --------------------------------------------------------------


async def test_f_cycles_all_starred_unread_with_notes(make_app) -> None:
    app = make_app(read_after=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        reader = app.reader
        hits = reader.paper_list.hits
        total = len(hits)
        starred = {hits[0].paper.id, hits[2].paper.id}
        for paper_id in starred:
            app.state.toggle_star(paper_id)
        app.state.set_read(hits[1].paper.id, True)
        app.state.set_note(hits[3].paper.id, "later")

        def listed() -> set[str]:
            return {hit.paper.id for hit in reader.paper_list.hits}

        status = reader.query_one("#status")
        await pilot.press("f")
        await settle(pilot)
        assert listed() == starred and "filter: starred" in status.text
        assert status.text.startswith(f"2 of {total} papers")
        # Unstarring in the starred view takes the paper out of it at once.
        reader.paper_list.select_docnum(hits[0].docnum)
        await pilot.press("s")
        await settle(pilot)
        assert listed() == starred - {hits[0].paper.id}
        app.state.toggle_star(hits[0].paper.id)
        await pilot.press("f")
        await settle(pilot)
        assert len(reader.paper_list.hits) == total - 1
        assert hits[1].paper.id not in listed() and "filter: unread" in status.text
        await pilot.press("f")
        await settle(pilot)
        assert listed() == {hits[3].paper.id} and "filter: with notes" in status.text
        await pilot.press("f")
        await settle(pilot)
        assert len(reader.paper_list.hits) == total and "filter" not in status.text


async def test_a_filter_that_empties_a_query_s_list_looks_for_no_spelling(make_app) -> None:
    app = make_app(query="learning", read_after=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        reader = app.reader
        assert reader.paper_list.hits and reader.focused is reader.paper_list
        before = reader.search_serial
        await pilot.press("f")  # starred: none is
        await settle(pilot)
        assert not reader.paper_list.hits and "filter: starred" in reader.query_one(
            "#status").text
        assert reader.search_serial == before + 1, "a rescue searched again"
        assert reader.search_box.suggestion is None


async def test_shift_s_switches_the_sort_order(make_app) -> None:
    app = make_app(read_after=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        reader = app.reader
        status = reader.query_one("#status")
        await pilot.press("S")
        await settle(pilot)
        docnums = [hit.docnum for hit in reader.paper_list.hits]
        assert docnums == sorted(docnums) and "sort: list order" in status.text
        await pilot.press("S")
        await settle(pilot)
        names = [(h.paper.name or h.paper.title).casefold() for h in reader.paper_list.hits]
        assert names == sorted(names) and "sort: name A–Z" in status.text
        await pilot.press("S")
        await settle(pilot)
        # Paragraph lists give no years: the year sort keeps them in list order.
        docnums = [hit.docnum for hit in reader.paper_list.hits]
        assert docnums == sorted(docnums) and "sort: year, newest first" in status.text
        await pilot.press("S")
        await settle(pilot)
        assert "sort" not in status.text


async def test_r_lists_similar_papers_and_esc_goes_back(make_app) -> None:
    app = make_app(read_after=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        reader = app.reader
        await pilot.press("j", "j")
        await settle(pilot)
        paper = selected(app)
        await pilot.press("r")
        await settle(pilot)
        assert reader.reading.similar_of == paper
        ids = [hit.paper.id for hit in reader.paper_list.hits]
        assert ids and paper.id not in ids
        assert reader.query_one("#banner").display
        # Navigable: the detail follows the cursor in the similar list.
        await pilot.press("j")
        await settle(pilot)
        assert reader.detail.paper == selected(app) != paper
        await pilot.press("escape")
        await settle(pilot)
        assert reader.reading.similar_of is None
        assert selected(app) == paper
        assert len(reader.paper_list.hits) == 38


async def test_esc_from_similar_papers_shows_the_search_again_without_searching(
        make_app, monkeypatch: pytest.MonkeyPatch) -> None:
    from tui.app import searching

    searches: list[str] = []
    run_search = searching.run_search

    def counted(library, query, *args, **kwargs):
        searches.append(query)
        return run_search(library, query, *args, **kwargs)

    monkeypatch.setattr(searching, "run_search", counted)
    app = make_app(query="learning", read_after=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        reader = app.reader
        await pilot.press("j", "j")
        await settle(pilot)
        before, paper, searched = reader.result, selected(app), len(searches)
        await pilot.press("r", "j")
        await settle(pilot)
        assert reader.result is not before and selected(app) != paper
        await pilot.press("escape")
        await settle(pilot)
        assert len(searches) == searched, "Esc ran the query again"
        assert reader.result is before and selected(app) == paper
        assert reader.reading.similar_of is None
        assert "Esc: back" not in reader.query_one("#status").text


async def test_similar_papers_come_with_their_first_screen_s_snippets(
        make_app, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from tui.core.search.hits import Hit

    on_ui: list[int] = []
    snippet = Hit.snippet

    def counted(hit: Hit, width: int = 200):
        if threading.current_thread() is threading.main_thread():
            on_ui.append(hit.docnum)
        return snippet(hit, width)

    monkeypatch.setattr(Hit, "snippet", counted)
    app = make_app(read_after=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        assert app.reader.reading.similar_of is not None and app.reader.paper_list.hits
        assert on_ui == [], "the list made the similar papers' snippets while drawing"


# -- copy, open, export -----------------------------------------------------------------


async def test_y_and_shift_y_copy_the_abstract_and_a_reference(make_app) -> None:
    app = make_app(read_after=0)
    copied: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.copy_to_clipboard = copied.append  # type: ignore[method-assign]
        said = capture_notifications(app)
        paper = selected(app)
        await pilot.press("y")
        assert copied[-1] == render(paper.raw).text
        await pilot.press("Y")
        reference = copied[-1]
        assert paper.id in reference and paper.list_title in reference
        assert " ".join(paper.title.split()) in reference
        assert len(said) == 2 and said[0].startswith("Copied")


def _paper_with_link(app: PaperscopeApp) -> tuple[int, str]:
    for hit in app.reader.paper_list.hits:
        links = render(hit.paper.raw).links
        if links:
            return hit.docnum, links[0]
    pytest.skip("no bundled paper has a link")


async def test_o_opens_the_first_link(make_app, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(read_after=0)
    opened: list[str] = []
    monkeypatch.setattr(sharing, "browser_available", lambda: True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.open_url = lambda url, **kw: opened.append(url)  # type: ignore[method-assign]
        docnum, url = _paper_with_link(app)
        app.reader.paper_list.select_docnum(docnum)
        await settle(pilot)
        await pilot.press("o")
        assert opened == [url]


async def test_o_without_a_browser_shows_the_link(make_app,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(read_after=0)
    opened: list[str] = []
    monkeypatch.setattr(sharing, "browser_available", lambda: False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.open_url = lambda url, **kw: opened.append(url)  # type: ignore[method-assign]
        said = capture_notifications(app)
        docnum, url = _paper_with_link(app)
        app.reader.paper_list.select_docnum(docnum)
        await settle(pilot)
        await pilot.press("o")
        assert opened == [] and any(url in message for message in said)


async def test_x_exports_the_list_to_a_markdown_file(make_app, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    app = make_app(read_after=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        said = capture_notifications(app)
        await pilot.press("s", "x")
        await settle(pilot)
        files = list(tmp_path.glob("paperscope-export-*.md"))
        assert len(files) == 1
        assert re.fullmatch(r"paperscope-export-\d{8}-\d{6}\.md", files[0].name)
        text = files[0].read_text(encoding="utf-8")
        hits = app.reader.paper_list.hits
        assert text.startswith("# paperscope export") and f"{len(hits)} papers." in text
        ids = re.findall(r"^- \*\*Id:\*\* (.+)$", text, re.M)
        assert len(ids) == len(hits)
        assert text.count("- **Starred:** yes") == 1
        assert any(str(files[0]) in message for message in said)


# -- persistence and bad state files ------------------------------------------------------


async def test_reading_state_survives_a_restart_and_a_new_index(make_app,
                                                                 tmp_path: Path) -> None:
    app = make_app(read_after=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        paper = selected(app)
        await pilot.press("s", "m", "e", *"keep", "ctrl+s")
        await pilot.press("q")
    # A new process over the same data folder, with an index built afresh.
    again = make_app(read_after=0, index_dir=str(tmp_path / "new-index"))
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        same = selected(again)
        assert same.id == paper.id
        assert again.state.is_starred(same.id) and again.state.is_read(same.id)
        assert again.state.note(same.id) == "keep"
        assert markers(again, same) == "★  "
        assert "keep" in detail_text(again)


async def test_a_corrupt_state_file_is_a_notice_and_the_reader_works(make_app) -> None:
    path = default_state_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{not json", encoding="utf-8")
    app = make_app(read_after=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        notices = [n.message for n in app._notifications]
        assert any("moved it to" in message for message in notices)
        await pilot.press("s")
        assert app.state.is_starred(selected(app).id)
    assert list(path.parent.glob("state.json.corrupt-*"))


async def test_an_unwritable_data_folder_is_a_notice_not_a_crash(
        make_app, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    # A folder under a file cannot be made, even by root (chmod would not stop root).
    monkeypatch.setenv("PAPERSCOPE_DATA_DIR", os.fspath(blocker / "paperscope"))
    app = make_app(read_after=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        said = capture_notifications(app)
        await pilot.press("s", "j", "s")
        assert app.state.is_starred(selected(app).id)  # kept in memory
        assert len([m for m in said if "could not save" in m]) == 1  # once, not per key
        await pilot.press("q")


def test_export_paths_do_not_overwrite(tmp_path: Path) -> None:
    from datetime import datetime

    now = datetime(2026, 11, 29, 23, 0, 0)
    first = sharing.export_path(tmp_path, "md", now)
    assert first.name == "paperscope-export-20261129-230000.md"
    first.write_text("", encoding="utf-8")
    assert sharing.export_path(tmp_path, "md", now).name == "paperscope-export-20261129-230000-2.md"


async def test_reading_keys_can_be_remapped(make_app, no_user_keymap: Path) -> None:
    no_user_keymap.write_text('[keymap]\n"reading.star" = "z"\n', encoding="utf-8")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        paper = selected(app)
        await pilot.press("z")
        assert app.state.is_starred(paper.id)


async def test_note_button_press_arriving_under_the_palette(make_app) -> None:
    """Enter on Save, then ctrl+p, typed together: the press reached the editor after
    the palette opened over it, dismissed the editor while the palette was on top (so
    the palette closed instead), and the next Save answered twice: InvalidStateError."""
    from textual.widgets import Button

    app = make_app(read_after=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        paper = selected(app)
        await pilot.press("e", "x")
        note = app.screen
        assert isinstance(note, NoteScreen)
        await pilot.press("ctrl+p")
        palette = app.screen
        note.query_one("#note-save", Button).press()  # the press still on its way
        await pilot.pause()
        assert app.screen is palette and app.state.note(paper.id) == ""
        await pilot.press("escape")
        assert app.screen is note
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.return_code is None and app.screen is app.reader
        assert app.state.note(paper.id) == "x"
