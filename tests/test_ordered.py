"""Sorts, filters and similar papers without going through every paper (`ordered`,
`filters.Restriction`, the search's `_run`): the same hits, scores, totals and order
as scoring every match, and a cost that follows what is shown, not the collection."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.test_topk import _abstracts, _write
from tui.core.index import topk
from tui.core.index.library import Library, open_library
from tui.core.index.recent import RecentTops
from tui.core.search import search as core_search
from tui.core.search.filters import Restriction, allowed
from tui.core.search.ordered import Skipping
from tui.core.search.search import SORTS, search, similar
from tui.core.state import StateStore

QUERIES = ["", "neural network", "learning", "graph", "deep learn", "kernel methods",
           "learning -neural", "zzqxv", "reinforcement learning agent policy"]
FILTERS = [[], ["is:starred"], ["is:unread"], ["is:read"], ["has:note"],
           ["is:starred", "is:unread"]]

pytestmark = pytest.mark.shared_material


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory):
    base = tmp_path_factory.mktemp("ordered")
    with open_library([_write(base / "lists", _abstracts())], str(base / "ix")) as opened:
        yield opened


@pytest.fixture
def state(library: Library, tmp_path: Path) -> StateStore:
    """Some papers starred, read or with a note, at random but the same each run."""
    store = StateStore(tmp_path / "state.json")
    pick = random.Random(7)
    for docnum in pick.sample(range(len(library)), 60):
        store.toggle_star(library.paper(docnum).id)
    for docnum in pick.sample(range(len(library)), 40):
        store.set_read(library.paper(docnum).id, True)
    for docnum in pick.sample(range(len(library)), 20):
        store.set_note(library.paper(docnum).id, "a note")
    return store


def exhaustive(monkeypatch: pytest.MonkeyPatch, library: Library) -> None:
    """Make the search score every match and filter afterwards, as it did before."""
    evaluate = Library.evaluate
    monkeypatch.setattr(core_search, "first_in_order", lambda *args: None)
    monkeypatch.setattr(library, "top", lambda q, k, count=True: None)

    def every(q, among=None):
        scores = evaluate(library, q)
        return scores if among is None else {d: s for d, s in scores.items() if d in among}

    monkeypatch.setattr(library, "evaluate", every)


def answer(result) -> tuple:
    return ([(h.docnum, h.score) for h in result.hits], result.total, result.rescued,
            result.suggestion, result.fuzzy)


@pytest.mark.parametrize("limit", [None, 7, 1000])
def test_sorts_and_filters_answer_as_scoring_every_match(library, state, limit,
                                                         monkeypatch) -> None:
    monkeypatch.setattr(topk, "FEW", 0)  # prune however few match: a small corpus
    monkeypatch.setattr(topk, "PRUNE_FROM", 0)
    asked = [(q, sort, filters) for q in QUERIES for sort in SORTS for filters in FILTERS]
    fast = [answer(search(library, q, limit, typing=True, sort=sort, state=state,
                          filters=filters, rescue=False)) for q, sort, filters in asked]
    with monkeypatch.context() as slow:
        exhaustive(slow, library)
        want = [answer(search(library, q, limit, typing=True, sort=sort, state=state,
                              filters=filters, rescue=False)) for q, sort, filters in asked]
    for (q, sort, filters), got, expected in zip(asked, fast, want):
        assert got == expected, (q, sort, filters)


def test_similar_papers_answer_as_scoring_every_match(library, monkeypatch) -> None:
    monkeypatch.setattr(topk, "FEW", 0)
    monkeypatch.setattr(topk, "PRUNE_FROM", 0)
    docnums = random.Random(3).sample(range(len(library)), 12)
    fast = [answer(similar(library, d, 10)) for d in docnums]
    exhaustive(monkeypatch, library)
    assert fast == [answer(similar(library, d, 10)) for d in docnums]


class CountedHit(core_search.Hit):
    made = 0

    def __init__(self, *args: object) -> None:
        CountedHit.made += 1
        super().__init__(*args)  # type: ignore[arg-type]


@pytest.mark.parametrize("sort", ["list", "name", "year"])
def test_a_sorted_query_makes_hits_only_for_the_papers_it_lists(library, sort,
                                                                 monkeypatch) -> None:
    monkeypatch.setattr(core_search, "Hit", CountedHit)
    CountedHit.made = 0
    result = search(library, "learning", 5, typing=True, sort=sort)
    assert result.total > 50 and len(result.hits) == 5
    assert CountedHit.made == 5, "a hit was made for every match"


def test_similar_papers_make_hits_only_for_those_listed(library, monkeypatch) -> None:
    monkeypatch.setattr(core_search, "Hit", CountedHit)
    CountedHit.made = 0
    result = similar(library, 0, 10)
    assert len(result.hits) == 10
    assert CountedHit.made == 10, "a hit was made for every match"


def test_similar_papers_are_not_counted(library, monkeypatch) -> None:
    """Papers sharing any of a paper's key terms are most of the library: similar
    papers say how many they list, and the pruned path unions no terms to count them."""
    monkeypatch.setattr(topk, "FEW", 0)
    monkeypatch.setattr(topk, "PRUNE_FROM", 0)
    asked = []
    top = library.top
    monkeypatch.setattr(library, "top", lambda q, k, count=True: asked.append(count)
                        or top(q, k, count))
    united = []
    matches = topk.matches
    monkeypatch.setattr(topk, "matches", lambda *args: united.append(1) or matches(*args))
    result = similar(library, 0, 10)
    assert asked == [False] and not united
    assert result.total == len(result.hits) == 10
    # A search counts its matches all the same.
    counted = search(library, "learning", 5, typing=True)
    assert counted.total > len(counted.hits) == 5 and united


def test_unread_is_kept_as_the_read_papers_left_out(library, state) -> None:
    unread = allowed(library, state, ["is:unread"])
    assert unread is not None and unread.only is None, "a set of every paper was made"
    assert unread.excluded == library.docnums_of(state.read_ids())
    listed = search(library, "", None, filters=["is:unread"], state=state).hits
    assert len(listed) == len(library) - len(unread.excluded)
    assert [h.docnum for h in listed] == [d for d in range(len(library))
                                          if d not in unread.excluded]


def test_a_filter_that_empties_the_result_is_not_a_misspelling(library, tmp_path) -> None:
    nobody = StateStore(tmp_path / "empty.json")  # nothing starred
    filtered = search(library, "learning", typing=True, rescue=False,
                      filters=["is:starred"], state=nobody)
    assert not filtered.hits and filtered.total == 0
    assert filtered.rescued, "a rescue (did you mean) would be looked for"
    misspelt = search(library, "lerning", typing=False, rescue=False,
                      filters=["is:starred"], state=nobody)
    assert not misspelt.rescued, "a query that finds nothing anywhere is still rescued"


@given(st.integers(0, 60), st.sets(st.integers(0, 59)), st.randoms(use_true_random=False))
def test_skipping_is_the_order_without_the_skipped(size, skipped, pick) -> None:
    order = list(range(size))
    pick.shuffle(order)
    rank = [0] * size
    for position, docnum in enumerate(order):
        rank[docnum] = position
    positions = sorted(p for p in skipped if p < size)
    kept = [d for p, d in enumerate(order) if p not in skipped]
    seq = Skipping(order, positions, rank)
    assert len(seq) == len(kept) and list(seq) == kept and seq[:] == seq
    assert [seq[i] for i in range(-len(kept), 0)] == kept
    for docnum in range(size):
        assert seq.index_of(docnum) == (kept.index(docnum) if docnum in kept else None)
    assert seq.index_of(size) is None


def test_restrictions_combine() -> None:
    starred, read = Restriction.to({1, 2, 3}), Restriction(None, frozenset({2, 9}))
    both = starred & read
    assert both.only == {1, 3} and both.allows(1) and not both.allows(2)
    assert (read & read).only is None and not read.allows(9) and read.allows(4)


def test_lists_without_years_keep_list_order_without_sorting(library) -> None:
    from tui.core.index import fields

    sorted_by_key = list(fields.year_order(library.searcher.reader(), library.list_order,
                                           library.size))
    assert library.year_order is library.list_order == range(len(library))
    assert list(library.year_order) == sorted_by_key
    assert library.year_rank is library.list_rank, "a rank was computed for list order"


def test_a_query_asked_again_is_not_scored_again(library, monkeypatch) -> None:
    from tui.core.index import prefixtops  # what the library finds its best k with

    monkeypatch.setattr(topk, "FEW", 0)
    monkeypatch.setattr(topk, "PRUNE_FROM", 0)
    asked: list[int] = []
    real = prefixtops.top

    def counted(scorer, tops, q, k, count):
        asked.append(k)
        return real(scorer, tops, q, k, count)

    monkeypatch.setattr(prefixtops, "top", counted)
    first = answer(search(library, "graph neural", 30, typing=True))
    searched = len(asked)
    # Back to relevance after a sort, then fewer: the same answer, nothing scored.
    search(library, "graph neural", 30, typing=True, sort="name")
    assert answer(search(library, "graph neural", 30, typing=True)) == first
    fewer = answer(search(library, "graph neural", 10, typing=True))
    assert fewer[0] == first[0][:10] and fewer[1:] == first[1:]
    assert searched and len(asked) == searched, "the query was scored again"
    with monkeypatch.context() as fresh:
        exhaustive(fresh, library)
        assert answer(search(library, "graph neural", 10, typing=True)) == fewer


def test_unread_with_many_read_papers_answers_as_scoring_every_match(library, state,
                                                                    monkeypatch) -> None:
    monkeypatch.setattr(core_search, "EXCLUDED_FOR_TOP", 10)  # fewer than the read ones
    asked = [(q, sort) for q in QUERIES for sort in SORTS]
    fast = [answer(search(library, q, 7, typing=True, sort=sort, state=state,
                          filters=["is:unread"], rescue=False)) for q, sort in asked]
    exhaustive(monkeypatch, library)
    assert fast == [answer(search(library, q, 7, typing=True, sort=sort, state=state,
                                  filters=["is:unread"], rescue=False)) for q, sort in asked]


def test_an_uncounted_answer_serves_no_count() -> None:
    """A top k remembered without its count (similar papers) answers a later ask that
    does not want one, and is found again, counted, for one that does."""
    tops, found = RecentTops(), []

    def find(count):
        return lambda k: found.append((k, count)) or ([(1, 2.0), (0, 1.0)][:k],
                                                      5 if count else None)

    assert tops.top("q", 2, find(False), count=False) == ([(1, 2.0), (0, 1.0)], None)
    assert tops.top("q", 1, find(False), count=False) == ([(1, 2.0)], None)
    assert found == [(2, False)]
    assert tops.top("q", 1, find(True)) == ([(1, 2.0)], 5)
    assert tops.top("q", 1, find(False), count=False) == ([(1, 2.0)], 5)
    assert found == [(2, False), (1, True)]
