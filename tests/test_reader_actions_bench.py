"""The reader actions' probe (`bench/reader_actions.py`) end to end on a tiny library:
every sort, filter, similar-papers and for-you key gives a figure, none waits in vain. No timing
is asserted."""

from __future__ import annotations

from pathlib import Path

from bench.corpus import corpus_sentences, made_abstracts, write_paragraph_lists
from bench.reader_actions import QUERY, action_names, action_steps, actions_in_child
from bench.reader_probe import build_index
from tests.conftest import SEEDS


def test_the_steps_are_the_reader_s_own_cycles() -> None:
    from tui.app.reading import FILTERS, SORTS

    steps = action_steps()
    assert [key for key, _ in steps] == (["S"] * len(SORTS) + ["f"] * len(FILTERS)
                                         + ["r", "escape", "F", "s", "F"])
    # Each cycle comes back to where it began: relevance, every paper.
    assert steps[len(SORTS) - 1][1] == f"sort: {SORTS[0][0]}"
    assert steps[len(SORTS) + len(FILTERS) - 1][1] == f"filter: {FILTERS[0][0]}"
    assert "sort: name A–Z" in [name for _, name in steps]


def test_every_action_is_measured_on_every_paper_and_on_a_query(tmp_path: Path) -> None:
    abstracts = list(made_abstracts(corpus_sentences(SEEDS), 300, seed=3))
    assert any(QUERY in abstract.lower() for abstract in abstracts)  # the query finds papers
    lists = tmp_path / "lists"
    write_paragraph_lists(iter(abstracts), lists, per_list=100)
    index = tmp_path / "index"
    assert build_index([str(lists)], str(index)) == 300
    figures, timed_out = actions_in_child(str(lists), str(index), rounds=2, timeout=20)
    assert timed_out == []
    assert sorted(figures) == sorted(action_names())
    assert len(figures) == 2 * len(action_steps())
    assert all(len(ms) == 2 and all(x > 0 for x in ms) for ms in figures.values()), figures
