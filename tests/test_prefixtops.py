"""The short prefixes' best papers (`prefixtops`): each row is what scoring every paper
finds, after a build from scratch, the addition of a list and the removal of one; and a
keystroke's search answered from the table ranks as scoring every match does."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from whoosh import query as wq

from tests.material import conference_lists
from tui.app.searching import COUNT_UP_TO
from tui.core.index import prefixtops
from tui.core.index.library import Library, open_library
from tui.core.index.prefixtops import FIELDS, best, prefix_query
from tui.core.index.ranking import ranked
from tui.core.search.search import NAMES_ONLY_PREFIX, search

pytestmark = pytest.mark.shared_material


@pytest.fixture(autouse=True)
def small_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows for lists of a few thousand papers: a few dozen kept of a few hundred."""
    monkeypatch.setattr(prefixtops, "KEEP", 40)
    monkeypatch.setattr(prefixtops, "FROM_POSTINGS", 200)
    monkeypatch.setattr(prefixtops, "OTHERS_UP_TO", 4000)


def _lists(tmp_path: Path) -> list[Path]:
    folder = tmp_path / "lists"
    folder.mkdir()
    out = []
    for number, source in enumerate(conference_lists([900, 700, 500], seed=3)):
        target = folder / f"list{number}.txt"
        shutil.copyfile(source, target)
        out.append(target)
    return out


def _rows_are_full_scans(library: Library) -> int:
    """Check every row against a full scan with the library's own scorer; the rows."""
    tops = library.prefix_tops
    assert tops is not None and len(tops) > 0
    checked = 0
    for prefix, listed in library.prefix_table.items():
        if len(prefix) > prefixtops.UP_TO:
            continue
        terms = prefixtops.expansion_terms(prefix, listed)
        row = tops.row(prefix)
        scores = library.scorer.evaluate(prefix_query(terms, tops.boosts))
        postings = sum(len(library.scorer.postings(f, t)[0]) for f in FIELDS for t in terms)
        if postings < prefixtops.FROM_POSTINGS:
            assert row is None, prefix
            continue
        assert row is not None, prefix
        assert row.terms == frozenset(terms)
        expected_docs, expected_floor = best(scores)
        docs, floor = row.docs, row.floor
        assert list(docs) == list(expected_docs), prefix
        assert list(row.scores) == [scores[d] for d in docs], prefix
        assert floor == expected_floor, prefix
        # What the floor promises: every paper left out scores at most it, and every
        # paper kept at least as much as any left out.
        kept = set(docs)
        left = [s for d, s in scores.items() if d not in kept]
        assert max(left, default=0.0) == floor
        assert all(scores[d] >= floor for d in kept)
        assert kept <= set(library.scorer.live())  # no deleted paper
        checked += 1
    return checked


def test_rows_are_full_scans_after_building_adding_and_removing(tmp_path: Path) -> None:
    files = _lists(tmp_path)
    index = tmp_path / "index"
    with open_library(files[:2], str(index)) as library:
        before = _rows_are_full_scans(library)
    with open_library(files, str(index)) as library:  # a list added: new weights
        assert _rows_are_full_scans(library) >= before > 0
        added = {p: library.prefix_tops.row(p) for p in library.prefix_table if len(p) == 1}
    with open_library([files[0], files[2]], str(index)) as library:  # one removed
        assert _rows_are_full_scans(library) > 0
        removed = {p: library.prefix_tops.row(p) for p in library.prefix_table if len(p) == 1}
    assert added != removed  # the rows followed the lists, not only the checks above


def test_a_keystroke_ranks_as_scoring_every_match(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    files = _lists(tmp_path)
    answered = []
    real = prefixtops.answer

    def spy(*args, **kwargs):
        found = real(*args, **kwargs)
        answered.append(found is not None)
        return found

    monkeypatch.setattr(prefixtops, "answer", spy)
    with open_library(files, str(tmp_path / "index")) as library:
        prefixes = sorted(p for p in library.prefix_table if len(p) <= NAMES_ONLY_PREFIX)
        typed = {}
        for prefix in prefixes:
            for k in (5, 20, prefixtops.KEEP + 20):  # the last: past what the table holds
                typed[prefix, k] = search(library, prefix, k, typing=True,
                                          count_up_to=COUNT_UP_TO)
        assert sum(answered) > 0  # the table answered some, so this compares something
        library.__dict__["prefix_tops"] = None  # the table gone: every match scored
        library._tops.__init__()  # and no answer kept from before
        for (prefix, k), result in typed.items():
            scored = search(library, prefix, k, typing=True, count_up_to=COUNT_UP_TO)
            assert [(h.docnum, h.score) for h in result.hits] == \
                [(h.docnum, h.score) for h in scored.hits], prefix
            assert (result.total, result.exact) == (scored.total, scored.exact)


def test_the_table_leaves_to_the_scan_what_it_cannot_prove(tmp_path: Path) -> None:
    files = _lists(tmp_path)
    with open_library(files, str(tmp_path / "index")) as library:
        tops = library.prefix_tops
        prefix = next(p for p in library.prefix_table if len(p) == 1 and tops.row(p))
        terms = sorted(tops.row(prefix).terms)
        q = prefix_query(terms, tops.boosts)
        assert prefixtops.answer(library.scorer, tops, q, 5) is not None
        # More than the table holds: papers outside it may belong to the best k.
        assert prefixtops.answer(library.scorer, tops, q, prefixtops.KEEP * 3) is None
        # Other boosts or other terms than the row's: not the row's query.
        other = prefix_query(terms, {f: b * 2 for f, b in tops.boosts.items()})
        assert prefixtops.answer(library.scorer, tops, other, 5) is None
        assert prefixtops.answer(library.scorer, tops, prefix_query(terms[:-1], tops.boosts),
                                 5) is None


def test_an_answer_is_the_full_ranking_or_none(tmp_path: Path) -> None:
    """With a common word beside the prefix, past the table's papers the k-th best may
    come from outside it: `answer` gives the full ranking's best k, or leaves it."""
    files = _lists(tmp_path)
    with open_library(files, str(tmp_path / "index")) as library:
        tops, scorer = library.prefix_tops, library.scorer
        prefix = next(p for p in library.prefix_table if len(p) == 1 and tops.row(p))
        terms = sorted(tops.row(prefix).terms)
        common = max(library.text_terms.starting("", 10**6), key=lambda tf: tf[1])[0]
        common_ids = scorer.postings("text", common)[0]
        assert prefixtops.KEEP < len(common_ids) <= prefixtops.OTHERS_UP_TO
        q = wq.Or([*prefix_query(terms, tops.boosts).subqueries, wq.Term("text", common)])
        answered = 0
        for k in (1, 5, prefixtops.KEEP // 2, prefixtops.KEEP, prefixtops.KEEP + 10, 300):
            found = prefixtops.answer(scorer, tops, q, k)
            if found is not None:
                assert found == ranked(scorer.evaluate(q), k, scorer.tie_rank), k
                answered += 1
        assert answered > 0
