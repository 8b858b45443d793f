"""A keystroke's search keeps the list's first hits; the list is completed once typing
pauses, or at once when the search box is left (`searching.TYPING_HITS`)."""

from __future__ import annotations

import pytest

from reader_helpers import settle, wait_until
from tui.app import reading, searching
from tui.core.search.search import search

QUERY = "model"
FEW = 3
"""`TYPING_HITS` for these tests: the bundled lists hold 38 papers."""
SIZE = (100, 30)
"""A terminal whose list shows more than FEW papers."""


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """(query, limit) of each search the reader runs, with `TYPING_HITS` and the
    similar papers listed at FEW."""
    seen: list[tuple[str, int]] = []
    run = searching.run_search

    def counted(library, query, limit, *args, **kwargs):
        seen.append((query, limit))
        return run(library, query, limit, *args, **kwargs)

    monkeypatch.setattr(searching, "run_search", counted)
    monkeypatch.setattr(searching, "TYPING_HITS", FEW)
    monkeypatch.setattr(reading, "SIMILAR_LIMIT", FEW)  # similar papers: a cut list too
    return seen


async def typed_answer(pilot, keys: str, focus: bool = True) -> None:
    """Type `keys` into the search box (`focus`: after going to it) and wait for the
    last keystroke's answer only."""
    reader = pilot.app.reader
    await pilot.press(*(["slash"] if focus else []), *keys)
    await wait_until(pilot, lambda: reader.shown_serial == reader.search_serial,
                     "the last keystroke's answer")


def docnums(app) -> list[int]:
    return [hit.docnum for hit in app.reader.paper_list.hits]


def typing_hits(app) -> int:
    """How many hits a keystroke's search keeps: FEW, or a screenful when more."""
    return max(FEW, app.reader.first_screen()[1])


async def test_a_typed_query_shows_its_first_hits_then_all_once_typing_pauses(
        make_app, runs, monkeypatch) -> None:
    monkeypatch.setattr(searching, "COMPLETE_AFTER_S", 0.5)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        full = search(app.library, QUERY, limit=1000, typing=True)
        cut = typing_hits(app)
        assert FEW < cut < full.total, "never fewer hits than the screen shows"
        await typed_answer(pilot, QUERY)
        assert docnums(app) == [h.docnum for h in full.hits[:cut]]
        assert runs[-1] == (QUERY, cut)
        status = str(app.reader.query_one("#status").render())
        assert status.startswith(f"first {cut} of {full.total} matches")
        assert app.reader.live.complete_timer is not None and not app.reader.idle
        await wait_until(pilot, lambda: app.reader.live.complete_timer is None, "the pause")
        await settle(pilot)
        assert docnums(app) == [h.docnum for h in full.hits]
        assert runs[-1] == (QUERY, 1000)
        assert [limit for _, limit in runs].count(1000) == 1, "one completion, once"
        assert app.focused is app.reader.search_box


async def test_a_keystroke_counts_up_to_a_bound_and_the_pause_counts_exactly(
        make_app, runs, monkeypatch) -> None:
    """While typing, more matches than `COUNT_UP_TO` read "more than N"; the list
    completed once typing pauses has the exact count; a newer query's answer is never
    replaced by an older query's count."""
    monkeypatch.setattr(searching, "COMPLETE_AFTER_S", 0.5)
    monkeypatch.setattr(searching, "COUNT_UP_TO", 5)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        full = search(app.library, QUERY, limit=1000, typing=True)
        assert full.total > 5 and full.exact

        def status() -> str:
            return str(app.reader.query_one("#status").render())

        await typed_answer(pilot, QUERY)
        assert status().startswith(f"first {typing_hits(app)} of more than 5 matches"), status()
        await wait_until(pilot, lambda: app.reader.live.complete_timer is None, "the pause")
        await settle(pilot)
        assert status().startswith(f"{full.total} of {len(app.library)} papers"), status()
        # A newer query typed before the pause: its own count stays on screen.
        monkeypatch.setattr(searching, "COMPLETE_AFTER_S", 2.0)
        await pilot.press(*["backspace"] * len(QUERY))
        await typed_answer(pilot, QUERY, focus=False)
        assert app.reader.live.complete_timer is not None  # the older query's, pending
        await pilot.press(*["backspace"] * len(QUERY))
        await typed_answer(pilot, "butterworth", focus=False)
        few = search(app.library, "butterworth", limit=1000, typing=True)
        assert 0 < few.total <= 5
        await pilot.pause(2.2)
        await settle(pilot)
        assert status().startswith(f"{few.total} of {len(app.library)} papers"), status()


async def test_only_the_query_typed_last_is_completed(make_app, runs, monkeypatch) -> None:
    monkeypatch.setattr(searching, "COMPLETE_AFTER_S", 2.0)  # "now" is surely before it
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await typed_answer(pilot, QUERY[:-1])
        assert app.reader.live.complete_timer is not None
        await typed_answer(pilot, QUERY[-1], focus=False)
        await wait_until(pilot, lambda: app.reader.live.complete_timer is None, "the pause")
        await settle(pilot)
        cut = typing_hits(app)
        assert [run for run in runs if run[0]] == [
            *((QUERY[:n], cut) for n in range(1, len(QUERY) + 1)), (QUERY, 1000)]


@pytest.mark.parametrize("how", ["down", "enter", "enter before the answer",
                                 "similar papers and back"])
async def test_leaving_the_box_completes_the_list_at_once(make_app, runs, monkeypatch,
                                                          how) -> None:
    from textual import events

    monkeypatch.setattr(searching, "COMPLETE_AFTER_S", 60.0)  # never within the test
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        full = search(app.library, QUERY, limit=1000, typing=True)
        if how == "enter before the answer":
            # As a terminal delivers a pasted query and Enter together.
            await pilot.press("slash")
            for char in QUERY:
                app.post_message(events.Key(char, char))
            app.post_message(events.Key("enter", "\r"))
        elif how == "similar papers and back":
            # Before the pause ends, so the list shown again on the way back is cut.
            await typed_answer(pilot, QUERY)
            await pilot.press("escape", "r")
            await settle(pilot)
            assert app.reader.reading.similar_of is not None
            await pilot.press("escape")
        else:
            await typed_answer(pilot, QUERY)
            await pilot.press(how)
            assert app.reader.live.complete_timer is None
        await settle(pilot)
        assert app.focused is app.reader.paper_list
        assert docnums(app) == [h.docnum for h in full.hits]
        assert runs[-1] == (QUERY, 1000)


async def test_a_query_with_few_matches_is_not_searched_again(make_app, runs) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        query = "butterworth"
        assert search(app.library, query, limit=1000, typing=True).total <= FEW
        await typed_answer(pilot, query)
        assert app.reader.live.complete_timer is None
        await settle(pilot)
        assert [limit for typed, limit in runs if typed] == [typing_hits(app)] * len(query)


async def test_similar_papers_asked_for_meanwhile_are_not_replaced(make_app, runs,
                                                                   monkeypatch) -> None:
    # Long enough for Esc and `r` to come first on a loaded machine (at 0.3 s, a CI run
    # that took 1.4 times its usual time completed the list before them).
    monkeypatch.setattr(searching, "COMPLETE_AFTER_S", 2.0)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await typed_answer(pilot, QUERY)
        assert app.reader.live.complete_timer is not None
        await pilot.press("escape", "r")  # to the list, then its paper's similar papers
        await settle(pilot)
        await pilot.pause(2.2)  # past the time the completion was due
        await settle(pilot)
        assert app.reader.reading.similar_of is not None
        assert all(limit != 1000 for _, limit in runs), "no completion replaced them"
