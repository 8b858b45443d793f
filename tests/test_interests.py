"""Ranking by a set of papers (`interests`): what the liked papers share leads, the liked
and disliked papers are left out, papers like the disliked ones go down, a query's hits
are reordered whole, and the words shown are the paper's own."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SEEDS, write_list
from tui.core.index.library import Library, open_library
import tui.core.index.postingcache as postingcache
from tui.core.search.interests import (
    COMMON_SHARE, MARKED, for_you, interest_terms, paper_terms, read_ahead_interests, reasons, reorder,
)
from tui.core.search.search import search

FILLER = ("The experiments use standard benchmarks and report the usual metrics. "
          "We discuss limitations and future work in the final section.")
ABSTRACTS = [
    # 0, 1: liked. They share "hypergraph" and "molecule"; each has a word of its own.
    "We study hypergraph kernels for molecule property prediction with tensor sketches. ",
    "Hypergraph message passing improves molecule generation under symmetry priors. ",
    # 2: shares both common words; 3: shares one liked paper's own word only.
    "A hypergraph transformer for molecule retrieval in chemistry databases. ",
    "Tensor sketches speed up streaming regression over sensor logs. ",
    # 4: disliked; 5: like it (and a little like the liked ones); 6: like the liked only.
    "Hypergraph clustering of citation networks with spectral cuts and votes. ",
    "Spectral cuts and votes for hypergraph clustering of citation networks. ",
    "Hypergraph molecule docking with learned priors for drug discovery. ",
    # 7: nothing in common.
    "Reinforcement learning agents play board games from pixels. ",
]


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory):
    """The papers above, then the bundled lists' (what the words are weighed among)."""
    folder = tmp_path_factory.mktemp("interests")
    text = "Interests\n\n" + "\n\n".join(a + FILLER for a in ABSTRACTS) + "\n"
    files = [write_list(folder, "interests.txt", text), *sorted(SEEDS.glob("*.txt"))]
    with open_library([str(f) for f in files], str(folder / "ix")) as opened:
        yield opened


def _order(library: Library, *args, **kwargs) -> list[int]:
    return [h.docnum for h in for_you(library, *args, **kwargs).hits]


def test_what_the_liked_papers_share_weighs_most(library: Library) -> None:
    weights = dict(interest_terms(library, [0, 1]))
    assert weights["hypergraph"] > weights["sketch"] and weights["molecul"] > weights["tensor"]


def test_the_papers_like_both_come_before_those_like_one(library: Library) -> None:
    order = _order(library, [0, 1], among=range(len(ABSTRACTS)), limit=None)
    assert 0 not in order and 1 not in order
    assert order.index(2) < order.index(3)
    assert order.index(6) < order.index(3)
    assert order[-1] == 7  # shares only the boilerplate with them


def test_one_paper_ranks_as_similar_does(library: Library) -> None:
    alone = _order(library, [0], limit=None)
    assert alone and alone[0] in (2, 3, 6)
    assert 0 not in alone


def test_not_interested_pushes_it_and_its_like_down(library: Library) -> None:
    def scores(*disliked: int) -> dict[int, float]:
        found = for_you(library, [0, 1], disliked, None, range(len(ABSTRACTS)))
        return {h.docnum: h.score for h in found.hits}

    before, after = scores(), scores(4)
    assert 4 in before and 4 not in after
    assert after[5] / after[6] < before[5] / before[6]
    assert after[5] < after[7] < after[6]  # below even the paper sharing boilerplate only


def test_among_ranks_only_those_papers(library: Library) -> None:
    assert set(_order(library, [0, 1], among=[3, 5, 7], limit=None)) <= {3, 5, 7}


def test_a_query_s_hits_are_reordered_whole(library: Library) -> None:
    result = search(library, "hypergraph", limit=None)
    listed = [h.docnum for h in result.hits]
    mixed = reorder(library, result, [0], [4])
    order = [h.docnum for h in mixed.hits]
    assert sorted(order) == sorted(listed)
    assert order[-1] == 4  # the disliked paper last
    assert mixed.total == result.total and mixed.interests
    assert order.index(0) > order.index(2)  # the liked paper after those ranked like it


def test_the_words_shown_are_written_as_the_paper_writes_them(library: Library) -> None:
    terms = interest_terms(library, [0, 1])
    words = reasons(library, terms, 2)
    assert "hypergraph" in words and "molecule" in words  # not the stem "molecul"
    assert all(w.lower() in (ABSTRACTS[2] + FILLER).lower() for w in words)
    assert not {"hypergraph", "molecule"} & set(reasons(library, terms, 7))


def test_nothing_liked_ranks_nothing(library: Library) -> None:
    assert for_you(library, []).hits == []


def test_a_library_of_lists_ranks_within_them(tmp_path: Path, library: Library) -> None:
    """A copy of a liked paper in another list is left out with it."""
    write_list(tmp_path, "a.txt", "A\n\n" + ABSTRACTS[0] + FILLER + "\n\n" + ABSTRACTS[2] + FILLER)
    write_list(tmp_path, "b.txt", "B\n\n" + ABSTRACTS[0] + FILLER + "\n\n" + ABSTRACTS[3] + FILLER)
    with open_library([str(tmp_path / "a.txt"), str(tmp_path / "b.txt")],
                      str(tmp_path / "ix")) as two:
        order = [two.paper(h.docnum).raw for h in for_you(two, [0], limit=None).hits]
    assert all(not raw.startswith(ABSTRACTS[0][:30]) for raw in order)


# -- what a re-rank reads, and what it keeps ------------------------------------------------


def test_a_paper_s_weighed_terms_are_kept_until_the_index_is_reopened(
        library: Library) -> None:
    first = paper_terms(library, 0)
    assert paper_terms(library, 0) is first  # kept: a re-rank weighs it again
    assert "hypergraph" in first
    assert all(0 < library.doc_frequency("text", t) <= COMMON_SHARE * len(library)
               for t in first)
    assert sum(w * w for w in first.values()) == pytest.approx(1.0)
    generation = library.generation
    try:
        library.generation += 1  # as a reopen of the index does
        again = paper_terms(library, 0)
    finally:
        library.generation = generation
    assert again is not first and again == first


def _text_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    done: list[str] = []
    original = postingcache.read_postings

    def read(reader, fieldname: str, text: str, *args, **kwargs):
        if fieldname == "text":
            done.append(text)
        return original(reader, fieldname, text, *args, **kwargs)

    monkeypatch.setattr(postingcache, "read_postings", read)
    return done


def test_after_reading_ahead_the_ranking_reads_no_list(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    text = "Interests\n\n" + "\n\n".join(a + FILLER for a in ABSTRACTS) + "\n"
    files = [write_list(tmp_path, "interests.txt", text), *sorted(SEEDS.glob("*.txt"))]
    with open_library([str(f) for f in files], str(tmp_path / "ix")) as fresh:
        reads = _text_reads(monkeypatch)
        terms = interest_terms(fresh, [0, 1, 6])
        read = read_ahead_interests(fresh, [0, 1, 6])
        assert read == len(terms) and set(reads) >= {term for term, _ in terms}
        reads.clear()
        assert for_you(fresh, [0, 1, 6]).hits
        assert reads == []


def test_reading_ahead_stops_when_cancelled(tmp_path: Path) -> None:
    text = "Interests\n\n" + "\n\n".join(a + FILLER for a in ABSTRACTS) + "\n"
    files = [write_list(tmp_path, "interests.txt", text), *sorted(SEEDS.glob("*.txt"))]
    with open_library([str(f) for f in files], str(tmp_path / "ix")) as fresh:
        assert read_ahead_interests(fresh, [0, 1], lambda: True) == 0
        asked = iter([False, False, True])
        assert fresh.read_lists([("text", "hypergraph"), ("text", "molecul"),
                                 ("text", "tensor")], lambda: next(asked)) == 2


def test_the_hits_mark_only_the_heaviest_terms(library: Library) -> None:
    result = for_you(library, [0, 1, 4, 7])
    assert len(result.interests) > MARKED, "the test wants more terms than are marked"
    heaviest = frozenset(term for term, _ in result.interests[:MARKED])
    assert result.terms == heaviest
    assert all(hit.terms == heaviest for hit in result.hits[:5])
