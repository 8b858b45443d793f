"""The for-you order reads ahead: what ranking by a star soon to be made reads is in
memory when the key comes (a star in for-you order; `F` after stars made outside it),
and the re-rank then reads no posting list of its own."""

from __future__ import annotations

import threading

import pytest

import tui.app.for_you as for_you
import tui.app.searching as searching
import tui.core.index.postingcache as postingcache
from reader_helpers import selected, settle
from tui.app.app import PaperscopeApp
from tui.core.search import interests
from tui.core.search.interests import interest_terms

SIZE = (120, 40)
PASSING = 2.0
"""Seconds the cursor must rest in the passed-over test: far longer than two presses."""


class Reads:
    """The text posting lists read from the index: all of them, and those read by a
    search (the list on show ranked again), not by the reading ahead for the next key."""

    def __init__(self) -> None:
        self.all: list[str] = []
        self.searching: list[str] = []
        self.searchers: set[int] = set()

    def clear(self) -> None:
        self.all.clear()
        self.searching.clear()


@pytest.fixture()
def reads(monkeypatch: pytest.MonkeyPatch) -> Reads:
    found = Reads()
    read_postings, run_search = postingcache.read_postings, searching.run_search

    def read(reader, fieldname: str, text: str, *args, **kwargs):
        if fieldname == "text":
            found.all.append(text)
            if threading.get_ident() in found.searchers:
                found.searching.append(text)
        return read_postings(reader, fieldname, text, *args, **kwargs)

    def search(*args, **kwargs):
        found.searchers.add(threading.get_ident())
        try:
            return run_search(*args, **kwargs)
        finally:
            found.searchers.discard(threading.get_ident())

    monkeypatch.setattr(postingcache, "read_postings", read)
    monkeypatch.setattr(searching, "run_search", search)
    return found


def _query_terms(app: PaperscopeApp, starred: set[str]) -> set[str]:
    """The terms of the for-you query of these starred ids."""
    library = app.library
    liked = library.in_list_order(list(library.docnums_of(starred)))
    return {term for term, _ in interest_terms(library, liked)}


async def test_a_star_in_for_you_order_re_ranks_from_lists_read_ahead(make_app,
                                                                       reads: Reads) -> None:
    app = make_app(read_after=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("s")  # one star, then the for-you order
        await pilot.press("F")
        await settle(pilot)
        await pilot.press("j")  # the next paper: starring it brings new terms
        await settle(pilot)  # the cursor rested: what its star reads was read ahead
        paper = selected(app)
        starred = app.state.starred_ids()
        shown = {term for term, _ in app.reader.result.interests}
        new = _query_terms(app, starred | {paper.id}) - shown
        assert new, "the test wants a star that brings terms the order did not rank by"
        assert new <= set(reads.all)
        reads.clear()
        await pilot.press("s")
        await settle(pilot)
        assert app.state.is_starred(paper.id)
        assert {term for term, _ in app.reader.result.interests} >= new  # re-ranked by it
        assert reads.searching == []


async def test_stars_made_outside_for_you_order_are_read_ahead_for_f(make_app,
                                                                     reads: Reads) -> None:
    app = make_app(read_after=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("s", "j", "s")
        await settle(pilot)
        wanted = _query_terms(app, app.state.starred_ids())
        assert wanted <= set(reads.all)
        reads.clear()
        await pilot.press("F")
        await settle(pilot)
        assert app.reader.result.interests
        assert reads.searching == []


async def test_a_paper_passed_over_is_not_read_ahead(make_app,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[list[int]] = []
    original = interests.read_ahead_interests

    def read_ahead(library, liked, *args, **kwargs):
        asked.append(list(liked))
        return original(library, liked, *args, **kwargs)

    monkeypatch.setattr(interests, "read_ahead_interests", read_ahead)
    # A rest long enough that the two presses below fall inside it on a loaded machine
    # (at the reader's 0.1 s, a slow press let the first paper's rest run out).
    monkeypatch.setattr(for_you, "REST", PASSING)
    app = make_app(read_after=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("s", "F")
        await settle(pilot)
        asked.clear()
        papers = app.reader.paper_list
        await pilot.press("j")  # passed over at once, as when j is held
        passed = papers.current.docnum
        await pilot.press("j")
        await pilot.pause(PASSING)  # the rest runs out; settle waits for its reading ahead
        await settle(pilot)
        rested = papers.current.docnum
        assert passed != rested
        assert any(rested in liked for liked in asked)
        assert not any(passed in liked for liked in asked)
