"""The search policy: what kind of query gets which fields, prefix and feedback."""

from __future__ import annotations

import pytest
from whoosh import query as wq

from tui.core.index.schema import FIELD_BOOSTS, make_schema
from tui.core.search.policy import (
    DESCRIPTION_FIELDS, DESCRIPTION_MIN_WORDS, FEEDBACK_SHARE, is_question,
)
from tui.core.search.query import compile_query
from tui.core.search.search import _with_feedback, search

SCHEMA = make_schema()


def policy(raw: str, typing: bool = False):
    return compile_query(raw, SCHEMA, typing).policy


@pytest.mark.parametrize("raw", [
    "which paper proposed the Butterworth fusion network?",
    "What similarity laws must be obeyed when constructing aeroelastic models",
    "how can the aerodynamic performance of channel flow machines be calculated",
    "  Is it possible to relate pressure distributions",
    "any papers on machine unlearning for language models?",
])
def test_questions(raw: str) -> None:
    assert is_question(raw)
    assert policy(raw).feedback


@pytest.mark.parametrize("raw", [
    "Precision Matrix Estimation with Noisy and Missing Data",   # a title
    "0-dimensional biomaterials show inductive properties",      # a claim
    "Whatever Happened to Sparse Coding in deep networks",      # "what" only inside a word
    "papers on shock sound wave interaction",                   # a request, not a question
])
def test_statements_get_no_feedback(raw: str) -> None:
    assert not is_question(raw)
    assert not policy(raw).feedback


def test_a_few_words_search_names_and_titles_too() -> None:
    assert dict(policy("gecko slam").fields) == FIELD_BOOSTS
    few = " ".join(f"w{i}" for i in range(DESCRIPTION_MIN_WORDS - 1))
    assert dict(policy(few).fields) == FIELD_BOOSTS
    # A question of a few words is answered as it is: feedback needs a description.
    assert not policy("what is slam?").feedback


def test_a_description_searches_the_abstract() -> None:
    many = " ".join(f"w{i}" for i in range(DESCRIPTION_MIN_WORDS))
    assert dict(policy(many).fields) == dict(DESCRIPTION_FIELDS)
    # The abstract, its math, and a list's real titles and authors: never the name and
    # title derived from the abstract's own words.
    assert set(DESCRIPTION_FIELDS) == {"text", "alias", "heading", "author"}
    # Repeats are one word: a description has that many distinct words.
    assert dict(policy("slam " * DESCRIPTION_MIN_WORDS).fields) == FIELD_BOOSTS


def test_operators_are_the_authors_logic() -> None:
    assert not policy("what is slam OR odometry in lidar maps?").feedback


def test_the_prefix_belongs_to_typing() -> None:
    assert policy("butterworth fus", typing=True).prefix
    assert not policy("butterworth fus").prefix


def test_feedback_keeps_the_question_in_charge(bundled_library) -> None:
    question = "how do robots map their surroundings with lidar and cameras?"
    compiled = compile_query(question, bundled_library.schema)
    assert dict(compiled.policy.fields) == dict(DESCRIPTION_FIELDS)
    base = compiled.loose
    ranked = [(h.docnum, h.score) for h in search(bundled_library, question, limit=10).hits]
    assert ranked
    expanded = _with_feedback(bundled_library, base, ranked)
    assert isinstance(expanded, wq.Or) and expanded.subqueries[0] is base
    added = expanded.subqueries[1:]
    assert added and all(isinstance(t, wq.Term) and t.fieldname == "text" for t in added)
    own = len({text for field, text in base.iter_all_terms() if field == "text"})
    assert sum(t.boost for t in added) == pytest.approx(FEEDBACK_SHARE * own)


def test_the_command_line_and_the_reader_differ_only_in_the_prefix(bundled_library) -> None:
    submitted = search(bundled_library, "gecko", limit=5)
    typed = search(bundled_library, "gecko", limit=5, typing=True)
    assert submitted.hits[0].paper.name == typed.hits[0].paper.name == "Gecko"


def test_a_pasted_title_finds_its_paper_in_a_list_that_gives_titles(tmp_path) -> None:
    """A list file with real titles: a description is looked for in them too, so a
    title whose words its abstract never uses still finds its paper first."""
    import json

    from tui.core.index.library import open_library

    records = [{"title": "Ensemble Learning for Multi-Layer Networks",
                "authors": "Ada Byron; Carl Gauss",
                "abstract": "Bayesian treatments of neural models usually rest on local "
                            "Gaussian approximations to one mode of the posterior."}]
    records += [{"title": f"Paper {n}",
                 "abstract": f"Ensemble learning of multi-layer networks, study {n}: "
                             "layer-wise training of deep networks for ensembles."}
                for n in range(6)]
    source = tmp_path / "venue.json"
    source.write_text(json.dumps(records), encoding="utf-8")
    with open_library([source], index_dir=str(tmp_path / "index")) as library:
        hits = search(library, "Ensemble Learning for Multi-Layer Networks", limit=3).hits
        assert hits[0].paper.title == "Ensemble Learning for Multi-Layer Networks"
        # Its authors, pasted with the title as in a reference list, find it too.
        hits = search(library, "Byron and Gauss, Ensemble Learning for Multi-Layer Networks",
                      limit=3).hits
        assert hits[0].paper.title == "Ensemble Learning for Multi-Layer Networks"
