"""Query semantics of the one search function, on the bundled lists."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import write_list
from tui.core.index.library import open_library
from tui.core.search.search import search


def names(result) -> list[str]:
    return [h.paper.name for h in result.hits]


def first(library, query: str) -> str:
    result = search(library, query, limit=5)
    assert result.hits, f"no hits for {query!r}"
    return result.hits[0].paper.name


@pytest.mark.parametrize("query, name", [
    ("which paper proposed the Butterworth fusion network?", "ABFNet"),
    ("butterworth fusion", "ABFNet"),
    ("gecko", "Gecko"),
    ("Gecko", "Gecko"),
    ("tool call simulation environment", "Gecko"),
    ("quantized unlearning", "OEU"),
    ("monocular SLAM scale drift", "VGGT-Motion"),
    ("name:gecko", "Gecko"),
    ("title:butterworth", "ABFNet"),
    ('"loop closure"', "VGGT-Motion"),
])
def test_the_paper_meant_comes_first(bundled_library, query: str, name: str) -> None:
    assert first(bundled_library, query) == name


@pytest.mark.parametrize("query", ["tau2", "τ²", "tau", "tau^2"])
def test_math_is_found_raw_rendered_and_typed(bundled_library, query: str) -> None:
    assert "Gecko" in names(search(bundled_library, query, limit=10))


@pytest.mark.parametrize("query", ["ell_p", "ℓp", "ℓₚ"])
def test_ell_p_variants_find_the_same_paper(bundled_library, query: str) -> None:
    result = search(bundled_library, query, limit=10)
    assert result.hits
    assert any("$\\ell_p$" in h.paper.raw for h in result.hits)


def test_last_word_is_a_prefix_while_typing(bundled_library) -> None:
    typed = search(bundled_library, "diffu", typing=True, rescue=False)
    assert any("iffusion" in h.paper.raw for h in typed.hits)
    # Partly typed past the stem (`diffusio` → stem `diffus`) still finds it.
    assert search(bundled_library, "diffusio", typing=True, rescue=False).hits
    assert search(bundled_library, "butterworth fus", typing=True).hits[0].paper.name == "ABFNet"


def test_a_submitted_query_means_its_words(bundled_library) -> None:
    # Submitted, `diffu` is a word no paper has: only the rescue (a correction) finds
    # papers, and says so.
    assert not search(bundled_library, "diffu", rescue=False).hits
    assert search(bundled_library, "diffu").fuzzy


def test_all_words_rank_before_any_word(bundled_library) -> None:
    result = search(bundled_library, "butterworth network", limit=20)
    assert result.hits[0].paper.name == "ABFNet"
    # The any-word fallback brings in papers with only "network" after it.
    assert len(result.hits) > 1
    assert all("utterworth" not in h.paper.raw for h in result.hits[1:])


def test_long_natural_language_query_falls_back_to_any_word(bundled_library) -> None:
    query = ("unlearning for quantized neural networks deployed on edge devices with "
             "privacy regulations and orthogonal entropy")
    assert first(bundled_library, query) == "OEU"


def test_operators(bundled_library) -> None:
    unlearning = {h.paper.id for h in search(bundled_library, "unlearning", limit=None).hits}
    assert len(unlearning) >= 2
    without = {h.paper.id for h in search(bundled_library, "unlearning -quantized",
                                          limit=None).hits}
    assert without and without < unlearning
    assert all("quantized" not in h.paper.raw.lower() for h in
               search(bundled_library, "unlearning NOT quantized", limit=None).hits)
    either = search(bundled_library, "butterworth OR gecko", limit=None)
    assert {"ABFNet", "Gecko"} <= set(names(either))
    both = search(bundled_library, "butterworth AND gecko", limit=None)
    assert not both.hits or both.fuzzy


def test_list_prefix_restricts_to_a_list(bundled_library) -> None:
    result = search(bundled_library, "list:论文列表 framework", limit=None)
    assert result.hits
    assert {h.paper.list_title for h in result.hits} == {"ICML 2026 论文列表"}


def test_empty_query_lists_every_paper_in_list_order(bundled_library) -> None:
    result = search(bundled_library, "", limit=None)
    assert result.total == len(result.hits) == 38
    order = [(h.paper.file, h.paper.position) for h in result.hits]
    assert order == sorted(order)
    assert len(search(bundled_library, "   ", limit=5).hits) == 5


def test_typo_gets_results_and_a_suggestion_that_finds_papers(bundled_library) -> None:
    result = search(bundled_library, "buttreworth")
    assert result.fuzzy and result.suggestion == "butterworth"
    assert result.hits[0].paper.name == "ABFNet"
    nothing = search(bundled_library, "zzqxv")
    assert not nothing.hits and nothing.suggestion is None
    assert result.rescued and nothing.rescued


def test_the_rescue_can_be_left_for_later(bundled_library) -> None:
    quick = search(bundled_library, "buttreworth", rescue=False)
    assert not quick.hits and quick.suggestion is None and not quick.fuzzy
    assert not quick.rescued, "says that a rescue was not tried"
    found = search(bundled_library, "butterworth", rescue=False)
    assert found.hits and found.rescued, "a query with hits needs no rescue"


@pytest.mark.parametrize("query", [
    '"unbalanced quote', "((unbalanced", "))", "OR", "AND", "NOT", "title:", "name:",
    "list:", "-", "*", "?", "a" * 10_000, "\x00\x01\x1b[31m", "foo:bar", "t*", "*tion",
    '"', '""', "NOT NOT", "title:(", "^2", "\\", "$\\tau$", "🙂", "ゲッコー",
])
def test_malformed_queries_never_raise(bundled_library, query: str) -> None:
    result = search(bundled_library, query)
    assert result.total >= len(result.hits)


def test_unknown_field_prefix_is_searched_as_words(bundled_library) -> None:
    assert first(bundled_library, "foo:butterworth") == "ABFNet"


def test_hits_carry_matched_terms_and_highlighted_snippets(bundled_library) -> None:
    hit = search(bundled_library, "butterworth filter").hits[0]
    text, spans = hit.snippet(160)
    assert len(text) <= 170
    marked = {text[a:b].lower() for a, b in spans}
    assert "butterworth" in marked
    assert "Butterworth" in hit.matched_terms()


def test_sorts_and_filters(bundled_library) -> None:
    by_name = search(bundled_library, "framework", limit=None, sort="name")
    keys = [(h.paper.name or h.paper.title).casefold() for h in by_name.hits]
    assert keys == sorted(keys)
    by_list = search(bundled_library, "framework", limit=None, sort="list")
    assert [h.docnum for h in by_list.hits] == sorted(h.docnum for h in by_list.hits)
    allowed = {h.docnum for h in by_list.hits[:3]}
    within = search(bundled_library, "framework", limit=None, within=allowed)
    assert {h.docnum for h in within.hits} == allowed


def test_sorting_by_name_reads_no_paper(tmp_path: Path) -> None:
    # Two lists, so that the name order interleaves papers of both.
    write_list(tmp_path, "a.txt", "A\n\nWe propose Zeta, a method.\n\nWe propose Alpha, a "
               "method.\n\nWe study mice.\n")
    write_list(tmp_path, "b.txt", "B\n\nWe propose beta, a tool.\n\nWe propose Alpha, a "
               "second one.\n")
    with open_library([tmp_path], str(tmp_path / "ix")) as library:
        everything = search(library, "", limit=None, sort="name")
        assert library._papers == {}, "the order was read from the index, not the papers"
        keys = [((h.paper.name or h.paper.title).casefold(), h.docnum) for h in everything.hits]
        assert keys == sorted(keys) and len(keys) == len(library) == 5
        for position, hit in enumerate(everything.hits):
            assert everything.hits.index_of(hit.docnum) == position
        first_two = search(library, "", limit=2, sort="name").hits
        assert len(first_two) == 2
        assert first_two.index_of(everything.hits[4].docnum) is None
        within = {everything.hits[4].docnum, everything.hits[0].docnum}
        narrowed = search(library, "", limit=None, sort="name", within=within).hits
        assert [h.docnum for h in narrowed] == [everything.hits[0].docnum,
                                                everything.hits[4].docnum]
        assert narrowed.index_of(everything.hits[4].docnum) == 1
        found = search(library, "method", limit=None, sort="name")
        assert [h.docnum for h in found.hits] == [h.docnum for h in everything.hits
                                                  if h.docnum in {f.docnum for f in found.hits}]


def test_limit_cuts_hits_but_total_counts_all(bundled_library) -> None:
    result = search(bundled_library, "learning", limit=3)
    assert len(result.hits) == 3 and result.total > 3


def test_other_lists_are_searchable(tmp_path: Path) -> None:
    write_list(tmp_path, "mine.txt", "My List\n\nWe propose Zebrafish, a method for "
               "counting stripes.\n\nWe study horses in depth.\n")
    with open_library([tmp_path], str(tmp_path / "ix")) as library:
        assert len(library) == 2
        assert search(library, "stripes").hits[0].paper.list_title == "My List"


def test_an_empty_query_lists_papers_without_making_every_hit(bundled_library) -> None:
    library = bundled_library
    from tui.core.search.hits import ListedHits

    result = search(library, "", limit=None)
    hits = result.hits
    assert isinstance(hits, ListedHits)
    assert len(hits) == result.total == len(library)
    assert [h.docnum for h in hits] == list(range(len(library)))
    assert hits[3] is hits[3]  # made once, then remembered
    assert hits[-1].docnum == len(library) - 1
    assert [h.docnum for h in hits[2:5]] == [2, 3, 4]
    assert hits.index_of(len(library) - 1) == len(library) - 1
    assert hits.index_of(len(library)) is None
    cut = search(library, "", limit=5).hits
    assert len(cut) == 5 and cut.index_of(7) is None
