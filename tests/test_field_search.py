"""Searching what structured lists add: `author:`, `year:` and ranges, `venue:`, titles,
the year sort; and what the command line says about bad list files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tui.core.index.library import Library, open_library
from tui.core.search.search import search

PAPERS = [
    {"title": "Kernel Mean Embeddings", "abstract": "We study embeddings of distributions.",
     "authors": ["Bernhard Schölkopf", "Krikamol Muandet"], "year": 2017,
     "venue": "Journal of Kernels"},
    {"title": "Causal Discovery", "abstract": "We propose a causal discovery method for kernels.",
     "authors": "Peters, Jonas; Schölkopf, Bernhard", "date": "2019-06-01",
     "venue": "Causal Days"},
    {"title": "Unrelated Graph Paper", "abstract": "We propose GraphX, a method for graphs.",
     "authors": "Ann Lee and Bo Chen and M. Kim", "year": "2018", "booktitle": "Graph Conference"},
    {"title": "Another Kernel Study", "abstract": "Kernels for graphs, studied again.",
     "author": "Chen, Bo", "year": 2020},
]


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    folder = tmp_path_factory.mktemp("fields")
    path = folder / "papers.json"
    path.write_text(json.dumps({"title": "Test Papers", "papers": PAPERS}), encoding="utf-8")
    lib = open_library([path], str(folder / "ix"))
    yield lib
    lib.close()


def found(library: Library, query: str, **options: object) -> list[str]:
    return [hit.paper.title for hit in search(library, query, limit=None, **options).hits]


def test_author_is_accent_folded_and_matched_by_surname(library: Library) -> None:
    expected = {"Kernel Mean Embeddings", "Causal Discovery"}
    assert set(found(library, "author:schölkopf")) == expected
    assert set(found(library, "author:scholkopf")) == expected
    assert set(found(library, "author:SCHOLKOPF")) == expected
    assert found(library, "author:peters") == ["Causal Discovery"]
    assert set(found(library, "author:chen")) == {"Unrelated Graph Paper", "Another Kernel Study"}
    assert found(library, "author:nobody") == []


def test_initials_are_not_author_terms(library: Library) -> None:
    # "M. Kim" is found by her surname; the letter "m" alone names nobody, and a word
    # being typed one letter long must not match every paper with such an initial.
    assert found(library, "author:kim") == ["Unrelated Graph Paper"]
    assert found(library, "author:m") == []
    assert "Unrelated Graph Paper" not in found(library, "m", typing=True)


def test_year_and_ranges(library: Library) -> None:
    assert found(library, "year:2019") == ["Causal Discovery"]  # from its date
    assert set(found(library, "year:2017..2018")) == {"Kernel Mean Embeddings",
                                                      "Unrelated Graph Paper"}
    assert set(found(library, "year:2019..")) == {"Causal Discovery", "Another Kernel Study"}
    assert set(found(library, "year:..2017")) == {"Kernel Mean Embeddings"}


def test_fields_narrow_even_when_the_words_are_relaxed(library: Library) -> None:
    """Two words that no paper has both: any-word ranking fills in, within the year."""
    assert found(library, "kernel graphs year:2020") == ["Another Kernel Study"]
    assert set(found(library, "graphs causal author:chen")) == {"Unrelated Graph Paper",
                                                                "Another Kernel Study"}


def test_venue_falls_back_to_the_list(library: Library) -> None:
    assert found(library, "venue:causal") == ["Causal Discovery"]
    assert found(library, "venue:graph") == ["Unrelated Graph Paper"]
    assert found(library, 'venue:"test papers"') == ["Another Kernel Study"]


def test_titles_are_indexed_and_weighted(library: Library) -> None:
    """"kernel" is in two titles and two abstracts: the titled ones come first."""
    ranked = found(library, "kernel")
    assert set(ranked[:2]) == {"Kernel Mean Embeddings", "Another Kernel Study"}
    assert found(library, "title:unrelated") == ["Unrelated Graph Paper"]


def test_year_sort(library: Library) -> None:
    assert found(library, "", sort="year") == ["Another Kernel Study", "Causal Discovery",
                                              "Unrelated Graph Paper", "Kernel Mean Embeddings"]
    assert found(library, "kernel", sort="year")[0] == "Another Kernel Study"


def test_the_fields_come_back_from_the_index(library: Library) -> None:
    paper = next(h.paper for h in search(library, "causal").hits)
    assert paper.authors == ("Jonas Peters", "Bernhard Schölkopf")
    assert (paper.year, paper.venue, paper.titled) == (2019, "Causal Days", True)


def test_paragraph_lists_have_no_years_and_keep_list_order(tmp_path: Path) -> None:
    path = tmp_path / "p.txt"
    path.write_text("L\n\nWe propose A.\n\nWe propose B.\n\nWe propose C.\n", encoding="utf-8")
    with open_library([path], str(tmp_path / "ix")) as lib:
        assert [h.docnum for h in search(lib, "", sort="year").hits] == [0, 1, 2]
        assert search(lib, "year:2019").hits == [] or search(lib, "year:2019").fuzzy


# The command line on bad files -------------------------------------------------------------


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PAPERSCOPE_INDEX_DIR": str(cwd / "ix"), "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "tui", *args], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=120)


def test_malformed_json_exits_2_with_its_position(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text('[{"title": "x",}]', encoding="utf-8")
    proc = run("--seeds", "bad.json", "search", "x", cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == (f"paperscope: error: {tmp_path / 'bad.json'}:1:16: malformed JSON: "
                           "Expecting property name enclosed in double quotes\n")


def test_bad_lines_are_a_notice_and_the_rest_is_searched(tmp_path: Path) -> None:
    good = json.dumps({"title": "Gecko Study", "abstract": "We propose Gecko, a lizard."})
    (tmp_path / "l.jsonl").write_text(f"{good}\nnot json\n{{]\n", encoding="utf-8")
    for _ in range(2):  # built, then opened: the notice is said both times
        proc = run("--seeds", "l.jsonl", "search", "gecko", "--json", cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)["hits"][0]["title"] == "Gecko Study"
        assert proc.stderr == (f"paperscope: {tmp_path / 'l.jsonl'}: skipped 2 lines that are "
                               "not JSON objects (first at line 2)\n")
