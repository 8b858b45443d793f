"""The reader's first frame: the list's rows from the last start, before the lists open."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import tui.core.index.library
from tests.app.reader_helpers import settle
from tui.app.screens import reader as reader_screen
from tui.app.widgets.detail import DetailView
from tui.app.widgets.paper_list import PaperList
from tui.core.index import first_screen


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """Holds the opening of the lists until the test sets the event."""
    opened = threading.Event()
    real = tui.core.index.library.open_library

    def held(*args, **kwargs):
        assert opened.wait(30), "the test never let the lists open"
        return real(*args, **kwargs)

    monkeypatch.setattr(tui.core.index.library, "open_library", held)
    yield opened
    opened.set()  # a failing test must not leave the worker waiting


def _row_text(papers: PaperList, y: int) -> str:
    return papers.render_line(y).text


async def _second_start(make_app, index: Path, gate: threading.Event, **options):
    """The reader on lists whose first rows a first start kept, as any start does; its
    lists are held until `gate` is set."""
    gate.set()
    first = make_app(index_dir=str(index))
    async with first.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
    assert (index / first_screen.FILE).is_file()
    gate.clear()
    return make_app(index_dir=str(index), **options)


async def test_the_rows_of_the_last_start_show_before_the_lists_open(
        make_app, tmp_path: Path, gate: threading.Event) -> None:
    app = await _second_start(make_app, tmp_path / "index", gate)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        reader = app.reader
        papers = reader.query_one(PaperList)
        assert app.library is None  # still held
        rows = app.first_screen.rows
        assert len(papers.hits) == len(rows) == 38
        assert papers.painted_generation == papers.generation  # drawn
        assert rows[0].name and rows[0].name in _row_text(papers, 0)
        assert rows[1].name in _row_text(papers, 1)
        assert reader.query_one(DetailView).paper is None  # no abstract to show yet
        assert "Opening the paper lists" in str(reader.query_one("#status").render())
        gate.set()
        await settle(pilot)
        assert app.library is not None
        assert [hit.paper.id for hit in papers.hits[:38]] == [p.id for p in rows]
        assert reader.query_one(DetailView).paper == papers.hits[0].paper


async def test_a_row_opened_before_the_lists_are_open_opens_once_they_are(
        make_app, tmp_path: Path, gate: threading.Event) -> None:
    app = await _second_start(make_app, tmp_path / "index", gate)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        papers = app.reader.query_one(PaperList)
        # Row 3 (inside the list's border): the first click selects, the second opens.
        await pilot.click(PaperList, offset=(4, 4))
        await pilot.click(PaperList, offset=(4, 4))
        assert papers.cursor == 3 and app.library is None
        gate.set()
        await settle(pilot)
        detail = app.reader.query_one(DetailView)
        assert papers.cursor == 3
        assert detail.paper == app.library.paper(3)
        assert app.reader.has_class("-detail-open") and app.focused is detail


async def test_the_loading_panel_comes_for_a_slow_open_without_rows(
        make_app, tmp_path: Path, gate: threading.Event,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader_screen, "LOADING_PANEL_AFTER_S", 0.05)
    app = make_app(index_dir=str(tmp_path / "index"))  # nothing kept: no rows
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.3)
        assert app.reader.has_class("-loading") and app.reader.query("LoadingPanel")
        gate.set()
        await settle(pilot)
        assert not app.reader.has_class("-loading")
        assert len(app.reader.query_one(PaperList).hits) == 38


async def test_rows_shown_are_not_hidden_by_the_loading_panel(
        make_app, tmp_path: Path, gate: threading.Event,
        monkeypatch: pytest.MonkeyPatch) -> None:
    app = await _second_start(make_app, tmp_path / "index", gate)
    monkeypatch.setattr(reader_screen, "LOADING_PANEL_AFTER_S", 0.05)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.3)
        assert app.library is None and not app.reader.has_class("-loading")
        app.reader.show_progress(1, 2)  # a build after all (the index was deleted)
        await pilot.pause()
        assert app.reader.has_class("-loading")
        gate.set()
        await settle(pilot)
        assert not app.reader.has_class("-loading")


async def test_an_opening_query_does_not_show_the_rows(
        make_app, tmp_path: Path, gate: threading.Event) -> None:
    app = await _second_start(make_app, tmp_path / "index", gate, query="butterworth")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.reader.query_one(PaperList).hits == []
        gate.set()
        await settle(pilot)
        assert [hit.paper.name for hit in app.reader.query_one(PaperList).hits][:1] \
            == ["ABFNet"]


async def test_the_reader_reads_ahead_for_the_first_search_once_its_lists_open(
        make_app, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.app.reader_helpers import wait_until

    prepared: list[object] = []
    monkeypatch.setattr(tui.core.index.library.Library, "prepare",
                        lambda self, dense=False: prepared.append((self, dense)))
    app = make_app()
    async with app.run_test() as pilot:
        await wait_until(pilot, lambda: prepared, "the read-ahead")
        await settle(pilot)
        assert prepared == [(app.library, False)]  # nothing starred: no for-you order


async def test_with_papers_starred_the_reader_reads_ahead_the_first_for_you_order(
        make_app, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.app.reader_helpers import wait_until
    from tui.core.search import interests
    from tui.core.state import StateStore

    first = make_app()
    async with first.run_test() as pilot:
        await settle(pilot)
        starred = [hit.paper.id for hit in first.reader.paper_list.hits[:2]]
    store = StateStore()
    for paper_id in starred:
        store.toggle_star(paper_id)
    prepared: list[bool] = []
    original = tui.core.index.library.Library.prepare
    monkeypatch.setattr(tui.core.index.library.Library, "prepare",
                        lambda self, dense=False: (prepared.append(dense), original(self, dense)))
    read: list[list[int]] = []
    ahead = interests.read_ahead_interests
    monkeypatch.setattr(interests, "read_ahead_interests",
                        lambda library, liked, *a: (read.append(list(liked)),
                                                    ahead(library, liked, *a))[1])
    app = make_app()
    async with app.run_test() as pilot:
        await wait_until(pilot, lambda: read, "the read-ahead")
        await settle(pilot)
        library = app.library
        assert prepared == [True]  # numpy imported: F will add lists whole
        assert read == [library.in_list_order(list(library.docnums_of(starred)))]
