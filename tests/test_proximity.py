"""Proximity re-ranking: where a query's words stand in a paper (`search.proximity`)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from tests.conftest import write_list
from tui.core.index.library import open_library
from tui.core.search import proximity
from tui.core.search.proximity import (
    Proximity, name_head, ordered_matches, pair_counts, pairs, reranked, unordered_matches,
)
from tui.core.search.search import search


def test_ordered_matches_count_the_second_term_right_after_the_first() -> None:
    # 1→2 and 5→6 are adjacent in order; 9 has no 10; 20 follows nothing.
    assert ordered_matches([1, 5, 9], [2, 6, 20]) == 2
    assert ordered_matches([2], [1]) == 0  # the wrong order is no #1 match


def test_unordered_matches_take_either_order_within_the_window() -> None:
    assert unordered_matches([0], [7]) == 1  # positions 0..7 span 8
    assert unordered_matches([0], [8]) == 0  # 0..8 span 9
    assert unordered_matches([10], [4]) == 1  # the second term first
    # Each position is used once: 3 pairs with 1, then 4 with 5; 30 has none near.
    assert unordered_matches([3, 4, 30], [1, 5]) == 2
    assert unordered_matches([1, 2, 3], [2]) == 1
    assert unordered_matches([5], [5]) == 0  # a position is not near itself


def test_pair_counts_are_bm25_saturations_of_both_counts() -> None:
    # One #1 match (0-1) and one #uw8 match, norm 1.2: 1/2.2 each.
    assert pair_counts([0], [1], 1.2) == pytest.approx((1 / 2.2, 1 / 2.2))
    # Two #uw8 matches (0-3, 10-12), no #1: 2/(2 + 1.2).
    assert pair_counts([0, 10], [3, 12], 1.2) == pytest.approx((0.0, 2 / 3.2))
    assert pair_counts([], [1], 1.2) == (0.0, 0.0)


def test_features_weigh_the_pair_counts_by_the_pair_s_idf(made_list) -> None:
    near = Proximity(made_list, ["spectral", "cluster"])
    # Both words in 2 of 4 papers: the pair's idf, times k1 + 1.
    scale = math.log(1.0 + (4 - 2 + 0.5) / (2 + 0.5)) * 2.2
    norms = made_list.length_norms("text", [1])
    ordered, unordered, _, _ = near.features([1])[1]
    # Paper 1: "Spectral clustering ...": one #1 match and one #uw8 match.
    assert ordered == pytest.approx(scale / (1 + norms[1]))
    assert unordered == pytest.approx(scale / (1 + norms[1]))


def test_pairs_are_adjacent_distinct_and_once() -> None:
    assert pairs(["a", "b", "b", "c", "a", "b"]) == [("a", "b"), ("b", "c"), ("c", "a")]
    assert pairs(["a"]) == []


def test_a_name_heads_a_title_before_its_colon() -> None:
    assert name_head("FuSSO: Functional Shrinkage and Selection Operator") == ("fusso",)
    assert name_head("Deep Sets: a study") == ("deep", "set")
    assert name_head("Learning with many words before: a colon") == ()
    assert name_head("no colon here") == ()
    assert name_head("Trailing:") == ()


def test_reranking_keeps_each_group_in_place() -> None:
    docs = [(1, 3.0), (2, 2.0), (3, 1.0), (4, 0.5)]
    # The first two are the all-words papers: 2 passes 1, but 4 cannot pass 2.
    assert reranked(docs, {2: 1.5, 4: 9.0}, [2]) == [(2, 3.5), (1, 3.0), (4, 9.5), (3, 1.0)]


FILLER = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike "
          "november oscar papa quebec romeo sierra tango uniform victor whiskey xray").split()


def _words(start: int, n: int) -> str:
    return " ".join(FILLER[(start + i) % len(FILLER)] for i in range(n))


@pytest.fixture
def made_list(tmp_path: Path):
    # Scattered: both words twice, never within 8 positions of each other; BM25 likes it.
    scattered = (f"Spectral {_words(0, 12)} clustering {_words(3, 12)} spectral "
                 f"{_words(6, 12)} clustering {_words(9, 3)}.")
    # Adjacent: each word once, side by side, in a paper of about the same length.
    adjacent = f"Spectral clustering {_words(12, 40)}."
    other = f"We propose FuSSO, a functional shrinkage operator. {_words(5, 20)}."
    unrelated = f"Kernel methods for regression. {_words(2, 30)}."
    write_list(tmp_path, "made.txt", "Made\n\n" + "\n\n".join(
        [scattered, adjacent, other, unrelated]) + "\n")
    library = open_library([tmp_path / "made.txt"], index_dir=str(tmp_path / "index"))
    yield library
    library.close()


def _first(library, query: str) -> int:
    return search(library, query, limit=5).hits[0].paper.position


def test_the_paper_with_the_words_side_by_side_comes_first(made_list, monkeypatch) -> None:
    assert _first(made_list, "spectral clustering") == 1
    # Without proximity BM25 ranks the scattered paper first: the re-ranking did it.
    monkeypatch.setattr(proximity, "ORDERED_WEIGHT", 0.0)
    monkeypatch.setattr(proximity, "UNORDERED_WEIGHT", 0.0)
    assert _first(made_list, "spectral clustering") == 0


def test_positions_are_read_from_the_index(made_list) -> None:
    found = made_list.positions("text", ["spectral", "cluster"], [0, 1, 3])
    assert found["spectral"][1] == [0] and found["cluster"][1] == [1]
    assert found["spectral"][0] == [0, 26] and found["cluster"][0] == [13, 39]
    assert 3 not in found["spectral"]


def test_a_pasted_title_favours_the_paper_it_names(made_list) -> None:
    query = "FuSSO: functional shrinkage operator"
    assert made_list.paper(2).name == "FuSSO"
    near = Proximity(made_list, ["fusso", "function", "shrinkag", "oper"], name_head(query))
    features = near.features([0, 1, 2, 3])
    assert features[2][3] > 0 and all(features[d][3] == 0 for d in (0, 1, 3))
    assert _first(made_list, query) == 2


def test_coverage_adds_each_held_term_s_idf_once(made_list) -> None:
    # 4 papers; "spectral" and "cluster" are held by papers 0 and 1, "kernel" by 3 only.
    near = Proximity(made_list, ["spectral", "cluster", "kernel"])
    idf_two = math.log(1.0 + (4 - 2 + 0.5) / (2 + 0.5))
    idf_one = math.log(1.0 + (4 - 1 + 0.5) / (1 + 0.5))
    features = near.features([0, 1, 2, 3])
    # Paper 0 says "spectral" and "clustering" twice each, paper 1 once: the same coverage.
    assert features[0][2] == pytest.approx(2 * idf_two)
    assert features[1][2] == pytest.approx(2 * idf_two)
    assert features[3][2] == pytest.approx(idf_one)
    assert features[2][2] == 0.0


def test_without_coverage_a_paper_repeating_one_word_passes_one_holding_both(
        tmp_path: Path, monkeypatch) -> None:
    # The known item holds both words once, in a long abstract; a short one repeats the
    # rarer word three times; three of six others say "fusion". No paper holds all three
    # words of the query, so all are ranked together as holding some of them.
    item = f"Butterworth fusion {_words(0, 30)}."
    repeats = f"Butterworth {_words(4, 3)} Butterworth {_words(9, 3)} Butterworth."
    others = [f"{_words(i, 20)} {'fusion' if i < 3 else 'kilo'} of {_words(i + 7, 12)}."
              for i in range(6)]
    write_list(tmp_path, "two.txt", "Two\n\n" + "\n\n".join([repeats, item, *others]) + "\n")
    library = open_library([tmp_path / "two.txt"], index_dir=str(tmp_path / "index"))
    with library:
        monkeypatch.setattr(proximity, "ORDERED_WEIGHT", 0.0)
        monkeypatch.setattr(proximity, "UNORDERED_WEIGHT", 0.0)
        assert _first(library, "butterworth fusion kernel") == 1
        monkeypatch.setattr(proximity, "COVERAGE_WEIGHT", 0.0)
        assert _first(library, "butterworth fusion kernel") == 0


def _public_positions(reader, term: str, docnums: list[int]) -> dict[int, list[int]]:
    """The reference: Whoosh's public matcher, stepped to each wanted paper."""
    from whoosh.reading import TermNotFound

    try:
        matcher, found = reader.postings("text", term), {}
    except TermNotFound:
        return {}
    for docnum in docnums:
        if matcher.is_active() and matcher.id() < docnum:
            matcher.skip_to(docnum)
        if matcher.is_active() and matcher.id() == docnum:
            found[docnum] = list(matcher.value_as("positions"))
    return found


def test_positions_across_segments_and_deletions_are_the_public_api_s(
        tmp_path: Path) -> None:
    from tui.core.whoosh_compat import deleted_docnums

    lists = tmp_path / "lists"
    lists.mkdir()
    for n in range(10):  # small lists: one segment holds them all
        write_list(lists, f"l{n}.txt", f"L{n}\n\n" + "\n\n".join(
            f"Spectral {_words(n * 7 + i, 9)} clustering spectral {_words(i, 30 + i)}."
            for i in range(40)) + "\n")

    def check() -> tuple[int, bool]:
        library = open_library([lists], index_dir=str(tmp_path / "index"))
        with library:
            reader = library.searcher.reader()
            wanted = list(range(0, len(library) + 5, 7))
            for term in ("spectral", "cluster", "kilo", "absent"):
                got = {d: list(p) for d, p in
                       library.positions("text", [term], wanted)[term].items()}
                assert got == _public_positions(reader, term, wanted), term
            assert got == {} and library.positions("text", ["kilo"], wanted)["kilo"]
            leaves = reader.leaf_readers()
            return len(leaves), any(deleted_docnums(leaf) for leaf, _ in leaves)

    check()
    # A small list edited: its new version is a segment of its own, after the one
    # that keeps its old papers, now deleted.
    text = (lists / "l1.txt").read_text().split("\n\n")
    (lists / "l1.txt").write_text("\n\n".join(text[:10] + text[25:]))
    segments, deletions = check()
    assert segments > 1 and deletions


@pytest.mark.parametrize("terms_kept,papers_kept", [(256, 1024), (1, 3)])
def test_kept_positions_answer_as_a_fresh_read(made_list, monkeypatch, terms_kept: int,
                                               papers_kept: int) -> None:
    from tui.core.index import positions as positions_module

    monkeypatch.setattr(positions_module, "CACHED_TERMS", terms_kept)
    monkeypatch.setattr(positions_module, "CACHED_PAPERS", papers_kept)
    reader = made_list.searcher.reader()
    asks = [[0, 1], [1, 2, 3], [3], [0, 1, 2, 3], [2, 0]]
    for docnums in asks * 2:
        for terms in (["spectral", "cluster"], ["cluster"], ["fusso", "spectral"]):
            got = made_list.positions("text", terms, docnums)
            assert set(got) == set(terms)
            for term in terms:
                assert {d: list(p) for d, p in got[term].items()} == {
                    d: list(p) for d, p in positions_module.read_positions(
                        reader, "text", term, docnums).items()}, (terms, docnums)
    kept = made_list._kept[1]
    assert len(kept) <= terms_kept
    assert all(len(held) <= max(papers_kept, 4) for held in kept.values())
