"""Live search in the reader: results, order, selection, suggestions, stale answers."""

from __future__ import annotations

from textual.message import Message

from reader_helpers import settle, type_query
from tui.app.messages import SearchDone
from tui.app.widgets.detail import DetailView
from tui.app.widgets.paper_list import PaperList
from tui.app.widgets.status import MatchBanner
from tui.core.search.search import search


def names(papers: PaperList) -> list[str]:
    return [hit.paper.name or hit.paper.title for hit in papers.hits]


async def test_start_shows_every_bundled_paper(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        papers = app.reader.paper_list
        assert len(papers.hits) == 38
        assert [h.docnum for h in papers.hits] == list(range(38))  # list order
        assert app.focused is papers
        assert papers.cursor == 0
        assert app.reader.detail.paper == papers.hits[0].paper
        status = str(app.reader.query_one("#status").render())
        assert "38 papers" in status and "list: ICML 2026 Papers" in status


async def test_typing_lists_the_engines_hits_in_order(make_app) -> None:
    app = make_app()
    done: list[SearchDone] = []

    def hook(message: Message) -> None:
        if isinstance(message, SearchDone):
            done.append(message)

    async with app.run_test(size=(120, 40), message_hook=hook) as pilot:
        await settle(pilot)
        await type_query(pilot, "tool calls")
        expected = search(app.library, "tool calls", limit=1000)
        papers = app.reader.paper_list
        assert [h.docnum for h in papers.hits] == [h.docnum for h in expected.hits]
        assert set(names(papers)[:2]) == {"ParaTool", "Gecko"}
        assert papers.terms == expected.terms and papers.row_height == 2
        # One search per keystroke; the last one answered is the query as typed.
        assert done[-1].result.query == "tool calls"
        assert app.reader.search_box.value == "tool calls"
        status = str(app.reader.query_one("#status").render())
        assert status.startswith(f"{expected.total} of 38 papers")


async def test_query_given_on_the_command_line_is_typed(make_app) -> None:
    app = make_app(query="tool")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert app.reader.search_box.value == "tool"
        assert "ParaTool" in names(app.reader.paper_list)
        assert len(app.reader.paper_list.hits) < 38


async def test_selection_stays_on_the_same_paper_while_typing(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        papers = app.reader.paper_list
        gecko = next(i for i, h in enumerate(papers.hits) if h.paper.name == "Gecko")
        papers.cursor = gecko
        await pilot.pause()
        await type_query(pilot, "tool")
        assert papers.current.paper.name == "Gecko"
        assert papers.cursor != 0  # ParaTool ranks first; the cursor followed Gecko
        assert app.reader.detail.paper.name == "Gecko"
        # Gecko is not about diffusion: the cursor goes to the top.
        await type_query(pilot, "diffusion")
        assert papers.cursor == 0
        assert papers.current.paper.name != "Gecko"


async def test_a_stale_answer_never_replaces_a_newer_one(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await type_query(pilot, "tool")
        shown = list(app.reader.paper_list.hits)
        stale = SearchDone(app.reader.search_serial - 1, search(app.library, "diffusion"))
        app.reader.post_message(stale)
        await settle(pilot)
        assert app.reader.paper_list.hits == shown
        assert app.reader.result.query == "tool"


async def test_misspelling_offers_the_suggestion_and_enter_accepts_it(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await type_query(pilot, "transfomer")
        banner = app.reader.query_one(MatchBanner)
        assert banner.display
        said = str(banner.render())
        assert "transfomer" in said and "did you mean" in said and "transformer" in said
        assert app.focused is app.reader.search_box
        await pilot.press("enter")
        await settle(pilot)
        assert app.reader.search_box.value == "transformer"
        assert not banner.display
        assert app.focused is app.reader.search_box
        await pilot.press("enter")  # no suggestion now: Enter goes to the list
        assert app.focused is app.reader.paper_list


async def test_a_misspelt_word_is_rescued_once_typing_pauses(make_app, monkeypatch) -> None:
    from tui.app import searching
    from tui.core.search import search as core_search

    rescues: list[str] = []
    rescue = core_search._rescue

    def counted(library, parsed, *args):
        rescues.append(parsed.text)
        return rescue(library, parsed, *args)

    monkeypatch.setattr(core_search, "_rescue", counted)
    monkeypatch.setattr(searching, "RESCUE_AFTER_S", 2.0)  # "now" is surely before it
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"transfomer")  # "transfo" on find nothing
        while app.reader.shown_serial != app.reader.search_serial:
            await pilot.pause()
        banner = str(app.reader.query_one(MatchBanner).render())
        assert "No papers match" in banner, "the last keystroke's answer, not rescued yet"
        assert rescues == [], "no keystroke waited for a rescue"
        while app.reader.live.rescue_timer is not None:  # the pause after typing
            await pilot.pause(0.05)
        await settle(pilot)
        assert rescues == ["transfomer"]
        assert "did you mean" in str(app.reader.query_one(MatchBanner).render())


async def test_enter_before_the_suggestion_came_asks_for_it(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"transfomer", "enter")
        await settle(pilot)
        assert app.focused is app.reader.search_box, "Enter waited for the suggestion"
        assert app.reader.search_box.suggestion == "transformer"
        await pilot.press("enter")
        await settle(pilot)
        assert app.reader.search_box.value == "transformer"
        await pilot.press("down")
        assert app.focused is app.reader.paper_list


async def test_enter_typed_with_the_query_waits_for_its_answer(make_app) -> None:
    # As a terminal delivers a pasted or fast-typed query: the keys and Enter arrive
    # together, before the query's answer.
    from textual import events

    for query, goes_to_list in [("transfomer", False), ("butterworth", True)]:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("slash")
            for char in query:
                app.post_message(events.Key(char, char))
            app.post_message(events.Key("enter", "\r"))
            await settle(pilot)
            if goes_to_list:
                assert app.focused is app.reader.paper_list
            else:
                assert app.focused is app.reader.search_box
                assert app.reader.search_box.suggestion == "transformer"


async def test_nothing_matching_says_so(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await type_query(pilot, "zzqxj")
        papers = app.reader.paper_list
        assert papers.hits == [] and papers.current is None
        assert "No papers match “zzqxj”" in papers.empty_text
        assert "zzqxj" in str(app.reader.query_one(MatchBanner).render())
        assert app.reader.query_one(DetailView).paper is None
        line = app.reader.paper_list.render_line(1).text
        assert line.strip().startswith("No papers match")
        left, right = len(line) - len(line.lstrip()), len(line) - len(line.rstrip())
        assert left > 0 and abs(left - right) <= 1, "centred in the list"


async def test_a_query_longer_than_the_box_scrolls_to_keep_the_cursor_in_view(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *("abcdefghij" * 12))
        await settle(pilot)
        box = app.reader.search_box
        assert box.value == "abcdefghij" * 12
        assert box.virtual_size.width > box.content_region.width
        assert box.scroll_x > 0
        assert box.content_region.x <= box.cursor_screen_offset.x <= box.content_region.right
        await pilot.press("home")
        await pilot.pause()
        assert box.scroll_x == 0
