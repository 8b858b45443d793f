"""Whole lists added at C speed (`dense`) against the scorer: the same papers in the
same order (ties in list order), the same scores up to rounding, among a set of papers
or leaving some out, and with deleted papers in the index."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from whoosh import query as wq

from tests.material import abstracts_of, conference_lists
from tui.core.index import dense
from tui.core.index.analysis import terms as terms_of
from tui.core.index.library import Library, open_library
from tui.core.index.topk import ranked

pytestmark = pytest.mark.shared_material

SIZES = (140, 260, 90, 310)
KS = (1, 10, 100, None)


def _write(folder: Path, abstracts: list[str], per_list: int = 200) -> list[Path]:
    folder.mkdir(exist_ok=True)
    files = []
    for start in range(0, len(abstracts), per_list):
        path = folder / f"list{start // per_list:03d}.txt"
        path.write_text(f"List {start // per_list}\n\n"
                        + "\n\n".join(abstracts[start:start + per_list]) + "\n",
                        encoding="utf-8")
        files.append(path)
    return files


@pytest.fixture(scope="module")
def abstracts() -> list[str]:
    found = [a.strip() for a in abstracts_of(conference_lists(SIZES)) if len(a.split()) > 20]
    rng = random.Random(5)
    # Copies: papers with equal scores, which must come in list order.
    return found + [rng.choice(found) for _ in range(60)]


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory, abstracts: list[str]):
    base = tmp_path_factory.mktemp("dense")
    files = _write(base / "lists", abstracts)
    open_library([str(base / "lists")], str(base / "index")).close()
    # One list changed after the build: its old papers stay in the index, deleted.
    files[1].write_text(files[1].read_text(encoding="utf-8").replace("\n\n", "\n\nNew. ", 5),
                        encoding="utf-8")
    opened = open_library([str(base / "lists")], str(base / "index"))
    yield opened
    opened.close()


def _queries(library: Library, abstracts: list[str]) -> list[list[tuple[str, str, float]]]:
    """Weighted term sets as for-you makes them: many terms from a few papers, common
    and rare alike, with unequal boosts; and one of a single term."""
    rng = random.Random(11)
    out = []
    for size in (1, 6, 25, 60):
        words = sorted({t for a in rng.sample(abstracts, 5) for t in terms_of(a)})
        chosen = rng.sample(words, min(size, len(words)))
        out.append([("text", t, round(rng.uniform(0.05, 2.0), 3)) for t in chosen])
    return out


def _exhaustive(library: Library, terms, k, among=None, excluded=()):
    q = wq.Or([wq.Term(f, t, boost=b) for f, t, b in terms])
    scores = library.evaluate(q)
    allowed = {d: s for d, s in scores.items()
               if (among is None or d in among) and d not in excluded}
    return ranked(allowed, k, library.tie_rank)


def _same(found, expected) -> None:
    assert [d for d, _ in found] == [d for d, _ in expected]
    assert [s for _, s in found] == pytest.approx([s for _, s in expected], rel=1e-12)


def test_the_index_holds_deleted_papers(library: Library) -> None:
    """What the comparisons below rely on: the changed list left deleted papers."""
    assert library.searcher.reader().has_deletions()


@pytest.mark.parametrize("k", KS)
def test_the_best_papers_are_the_scorer_s(library: Library, abstracts: list[str], k) -> None:
    for terms in _queries(library, abstracts):
        _same(library.dense_top(terms, k), _exhaustive(library, terms, k))


@pytest.mark.parametrize("k", KS)
def test_among_some_papers_and_leaving_some_out(library: Library, abstracts: list[str],
                                                k) -> None:
    rng = random.Random(k or 0)
    live = list(range(library.scorer.size))  # deleted docnums too: they never match
    for terms in _queries(library, abstracts):
        matched = sorted(library.evaluate(wq.Or([wq.Term(f, t) for f, t, _ in terms])))
        excluded = frozenset(rng.sample(matched, min(5, len(matched))))
        among = frozenset(rng.sample(live, len(live) // 3))
        _same(library.dense_top(terms, k, excluded=excluded),
              _exhaustive(library, terms, k, excluded=excluded))
        _same(library.dense_top(terms, k, among, excluded),
              _exhaustive(library, terms, k, among, excluded))
        assert library.dense_top(terms, k, among=frozenset()) == []


def test_copies_tie_and_come_in_list_order(library: Library, abstracts: list[str]) -> None:
    copied = abstracts[-1]
    terms = [("text", t, 1.0) for t in sorted(set(terms_of(copied)))]
    found = library.dense_top(terms, None)
    best = [d for d, s in found if s == found[0][1]]
    assert len(best) >= 2  # the copy and its original score the same
    rank = library.tie_rank
    assert best == sorted(best, key=(lambda d: d) if rank is None else rank.__getitem__)


def test_terms_no_paper_holds_and_no_terms_find_nothing(library: Library) -> None:
    assert library.dense_top([("text", "zzqxj", 1.0)], 10) == []
    assert library.dense_top([], None) == []
    assert library.dense_top([("text", "model", 1.0)], 0) == []


def test_scores_of_papers_matching_nothing_are_zero(library: Library) -> None:
    total = dense.scores(library.scorer, [("text", "zzqxj", 1.0)])
    assert len(total) == library.scorer.size and not total.any()


def test_a_list_s_docnums_as_numpy_indexes_them_are_its_own_and_kept(
        library: Library, abstracts: list[str]) -> None:
    import numpy as np

    scorer = library.scorer
    for term in sorted(set(terms_of(abstracts[3])))[:5]:
        ids = dense.docnums(scorer, "text", term)
        assert ids.dtype == np.intp  # numpy's own: no conversion on each use
        assert ids.tolist() == list(scorer.postings("text", term)[0])
        assert dense.docnums(scorer, "text", term) is ids


def test_the_sums_of_a_set_of_terms_are_kept_and_never_changed(
        library: Library, abstracts: list[str]) -> None:
    scorer = library.scorer
    terms = _queries(library, abstracts)[2]
    first = dense.sums(scorer, terms)
    assert dense.sums(scorer, list(terms)) is first  # asked again: kept
    assert not first.flags.writeable
    before = first.copy()
    some = list(range(0, scorer.size, 3))
    dense.scores(scorer, terms, among=some, excluded=some[:5])
    assert (first == before).all()  # narrowed on a copy
    for other in _queries(library, abstracts)[:dense.KEPT_SUMS]:
        if other != terms:
            dense.sums(scorer, other)
    dense.sums(scorer, _queries(library, abstracts)[3] + [("text", "zzz", 1.0)])
    again = dense.sums(scorer, terms)
    assert again is not first and (again == before).all()  # forgotten, then made again
