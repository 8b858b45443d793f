"""Pruned top-k retrieval (`topk`) against the exhaustive scorer: the same papers, the
same scores to the last bit, the same order (ties by docnum), the same match count."""

from __future__ import annotations

import importlib
import math
import random
import sys
from array import array
from pathlib import Path
from weakref import WeakKeyDictionary

import pytest
from whoosh import query as wq

from tests.material import abstracts_of, conference_lists
from tui.core.index import dense, plans, reuse, tiers, topk
from tui.core.index.impactfiles import StoredImpacts
from tui.core.index.postingcache import PostingCache
from tui.core.index.library import Library, open_library
from tui.core.index.members import Selection, byte_map
from tui.core.index.tiers import Tier
from tui.core.index.topk import _Leaf, _survivors, ranked, top
from tui.core.search.query import compile_query
from tui.core.search.search import _expanded, search

KS = (1, 3, 10, 20, 57)
FIELDS = ("name", "title", "text", "alias", "heading")
TYPED = ["t", "co", "gra", "ne", "diffu", "conv", "neural network", "deep learn",
         "graph neural networks", "support vector machine", "markov chain monte carlo",
         "convolutional neural network for image classif", "kernel methods", "point cloud",
         "learning -neural", "image NOT segmentation"]


SIZES = (59, 125, 540, 91, 188, 360)
"""Conference lists of several sizes, 1,363 papers in all (`tests/material.py`)."""

pytestmark = pytest.mark.shared_material


def _abstracts() -> list[str]:
    """Abstracts of real shape, of more than twenty words: the corpora's, or made."""
    return [a.strip() for a in abstracts_of(conference_lists(SIZES)) if len(a.split()) > 20]


def _write(folder: Path, abstracts: list[str], per_list: int = 400) -> Path:
    folder.mkdir()
    for start in range(0, len(abstracts), per_list):
        chunk = abstracts[start:start + per_list]
        (folder / f"list{start // per_list:03d}.txt").write_text(
            f"List {start // per_list}\n\n" + "\n\n".join(chunk) + "\n", encoding="utf-8")
    return folder


@pytest.fixture(autouse=True, params=["pruned", "added whole", "looked up"])
def _prune_always(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Prune however few papers match (the search scores few matches all, `topk.FEW`):
    these corpora are small, and pruning is what is tested; each test runs three times,
    by MaxScore, by whole lists added at C speed (`dense`, for many postings), and so
    with a conjunction's last group looked up at its other groups' papers only."""
    monkeypatch.setattr(topk, "FEW", 0)
    monkeypatch.setattr(topk, "PRUNE_FROM", 0)
    monkeypatch.setattr(topk, "DENSE_FROM", 10**12 if request.param == "pruned" else 0)
    monkeypatch.setattr(topk, "DENSE_COLD_FROM", 0)  # whether numpy is loaded or not
    monkeypatch.setattr(dense, "LOOK_UP_SHARE", math.inf if request.param == "looked up" else 0)


@pytest.fixture(scope="module")
def corpus_library(tmp_path_factory: pytest.TempPathFactory):
    """Real abstracts as they are."""
    base = tmp_path_factory.mktemp("topk-real")
    library = open_library([str(_write(base / "lists", _abstracts()))], str(base / "index"))
    yield library
    library.close()


@pytest.fixture(scope="module")
def tied_library(tmp_path_factory: pytest.TempPathFactory):
    """Many equal scores: abstracts repeated up to five times, and short abstracts
    drawn from a vocabulary of twelve words, so most queries tie across many papers."""
    rng = random.Random(7)
    real = _abstracts()[:150]
    words = "graph neural network kernel learning model deep sparse data image flow time".split()
    abstracts = [a for a in real for _ in range(rng.randint(1, 5))]
    abstracts += [" ".join(rng.choice(words) for _ in range(rng.randint(3, 6)))
                  for _ in range(300)]
    rng.shuffle(abstracts)
    base = tmp_path_factory.mktemp("topk-tied")
    library = open_library([str(_write(base / "lists", abstracts))], str(base / "index"))
    yield library
    library.close()


def _marks(part: tiers.Tier) -> bytes:
    """A byte per posting of the part's `ids`: 1 for those the part holds."""
    return part.mask if part.mask is not None else bytes([1]) * len(part.ids)


def _vocabulary(library: Library) -> dict[str, list[str]]:
    """Each field's index terms, common and rare alike."""
    reader = library.searcher.reader()
    out = {}
    for field in FIELDS:
        found = [t.decode("utf-8") if isinstance(t, bytes) else t
                 for t in reader.lexicon(field)] if field in reader.indexed_field_names() else []
        if found:
            out[field] = found
    return out


def _random_query(rng: random.Random, vocabulary: dict[str, list[str]],
                  common: dict[str, list[str]]) -> wq.Query:
    """A term, a (nested) disjunction with boosts (sometimes holding a conjunction of
    common terms), or a conjunction of disjunctions, sometimes with an exclusion, over
    terms of the index."""
    boosts = (1.0, 1.0, 2.0, 0.3, 0.5, 1.2, rng.uniform(0.1, 3.0))

    def term() -> wq.Term:
        field = rng.choice(list(vocabulary))
        return wq.Term(field, rng.choice(vocabulary[field]), boost=rng.choice(boosts))

    def disjunction(width: int) -> wq.Query:
        parts: list[wq.Query] = [term() for _ in range(rng.randint(1, width))]
        if rng.random() < 0.3:
            parts.append(wq.Or([term() for _ in range(rng.randint(2, 4))]))
        if rng.random() < 0.3:  # a hyphenated word: its parts all required, per field
            field, boost = rng.choice(list(vocabulary)), rng.choice(boosts)
            parts.append(wq.And([wq.Term(field, t, boost=boost)
                                 for t in rng.sample(common[field], rng.randint(2, 3))]))
        return parts[0] if len(parts) == 1 else wq.Or(parts)

    shape = rng.random()
    if shape < 0.2:
        return term()
    if shape < 0.6:
        return disjunction(12)
    groups: list[wq.Query] = [disjunction(5) for _ in range(rng.randint(2, 3))]
    if rng.random() < 0.3:
        groups.append(wq.Not(term()))
    return wq.And(groups)


def _exhaustive(library: Library, q: wq.Query, k: int) -> tuple[list[tuple[int, float]], int]:
    scores = library.scorer.evaluate(q)
    return ranked(scores, k), len(scores)


def _check(library: Library, q: wq.Query, k: int) -> bool:
    """Whether the pruned path took `q`; asserts it agrees with the exhaustive one."""
    found = top(library.scorer, q, k)
    if found is None:
        return False
    expected = _exhaustive(library, q, k)
    assert found == expected, (q, k)
    # Uncounted, the same papers; a conjunction's matches are found (so counted) anyway.
    plan = plans.plan_of(q)
    counted = len(plan.groups) > 1 or bool(plan.excluded)
    assert top(library.scorer, q, k, count=False) == (
        expected[0], expected[1] if counted else None), (q, k)
    return True


def _check_random(library: Library, seed: str, count: int) -> None:
    vocabulary = _vocabulary(library)
    reader = library.searcher.reader()
    common = {field: sorted(terms, key=lambda t: -reader.doc_frequency(field, t))[:30]
              for field, terms in vocabulary.items()}
    rng = random.Random(seed)
    taken = 0
    for _ in range(count):
        q = _random_query(rng, vocabulary, common)
        taken += _check(library, q, rng.choice(KS))
    assert taken == count  # every shape drawn is one the pruned path takes


@pytest.mark.parametrize("which", ["corpus_library", "tied_library"])
@pytest.mark.parametrize("counted", ["as sets", "as byte maps, kept",
                                     "as byte maps, kept and marked"])
def test_random_queries_rank_as_the_exhaustive_scorer(request, monkeypatch, which: str,
                                                      counted: str) -> None:
    """Matches counted each way the pruned path can count them."""
    library = request.getfixturevalue(which)
    if counted == "as sets":
        monkeypatch.setattr(plans, "SPARSE", 0)
    else:
        monkeypatch.setattr(plans, "SPARSE", 10**9)
        # Every list kept as a byte map; or only those of 1/64 of the papers or more.
        monkeypatch.setattr(plans, "LONG", 10**9 if counted.endswith("kept") else 64)
    _check_random(library, f"topk-{which}-{counted}", 200)


@pytest.mark.parametrize("weighed", ["at build time", "when read"])
def test_lists_split_fine_rank_as_the_exhaustive_scorer(corpus_library, tmp_path, monkeypatch,
                                                        weighed: str) -> None:
    """Nearly every list in impact parts (`tiers`), so that pruning looks most up: the
    splits the build writes for each segment (`impactfiles`), joined over several
    segments here, or those made of a whole list when it is read."""
    monkeypatch.setattr(tiers, "SPLIT_FROM", 4)
    monkeypatch.setattr(tiers, "TOP_SHARE", 1 / 4)
    monkeypatch.setattr(reuse, "SMALL_BYTES", 0)
    monkeypatch.setattr(reuse, "SEGMENT_BYTES", 1)
    if weighed == "when read":
        monkeypatch.setattr(StoredImpacts, "get", lambda *_: None)
    library = open_library([str(p) for p in corpus_library.files], str(tmp_path / "index"))
    try:
        assert len(library.searcher.reader().leaf_readers()) > 1
        words = _vocabulary(library)["text"][:50]
        assert any(len(library.scorer.tiers("text", t)) > 1 for t in words)
        norm = library.scorer.norms["text"]
        reader = library.searcher.reader()
        stored = StoredImpacts(reader, library.scorer.norms, PostingCache(reader).arrays_of)
        for word in words:  # each part's bound holds for each of its postings
            parts = library.scorer.tiers("text", word)
            ids, tfs = library.scorer.postings("text", word)
            assert (stored.get("text", word, len(ids)) is None) == (weighed == "when read")
            held = {d: r for p in parts for d, r, m in zip(p.ids, p.impacts, _marks(p)) if m}
            assert sum(len(p) for p in parts) == len(held) == len(ids)
            assert held == dict(zip(ids, tiers.impacts(ids, tfs, norm)))
            assert all(r <= p.ratio for p in parts
                       for d, r, m in zip(p.ids, p.impacts, _marks(p)) if m)
        _check_random(library, "topk-split", 200)
    finally:
        library.close()


def test_a_split_list_s_parts_hold_each_posting_once(corpus_library) -> None:
    scorer = corpus_library.scorer
    reader = corpus_library.searcher.reader()
    common = max(_vocabulary(corpus_library)["text"],
                 key=lambda t: reader.doc_frequency("text", t))
    ids, tfs = scorer.postings("text", common)
    parts = tiers.tiers(ids, tiers.impacts(ids, tfs, scorer.norms["text"]))
    assert len(parts) == 2
    whole = scorer.term("text", common, 1.0)
    scale = scorer.scale("text", common, 1.0)
    scored = [p.scores(scale) for p in parts]
    assert not scored[0].keys() & scored[1].keys()
    assert {**scored[0], **scored[1]} == whole  # the very scores the scorer gives
    assert len(scored[0]) == len(parts[0]) and len(scored[1]) == len(parts[1])
    assert max(scored[1].values()) <= parts[1].ratio * scale < max(scored[0].values())


def test_a_part_scores_the_candidates_it_holds(corpus_library) -> None:
    """Every way a part is scored for candidates (a set or a byte map, each looked up
    or filtered) gives its full scores' entries for those candidates."""
    scorer = corpus_library.scorer
    reader = corpus_library.searcher.reader()
    common = max(_vocabulary(corpus_library)["text"],
                 key=lambda t: reader.doc_frequency("text", t))
    rng = random.Random(7)
    ids, tfs = scorer.postings("text", common)
    for part in tiers.tiers(ids, tiers.impacts(ids, tfs, scorer.norms["text"])):
        full = part.scores(2.5)
        for count in (0, 1, 5, len(part.ids) // 20, len(part.ids)):
            chosen = set(rng.sample(range(scorer.size), min(count, scorer.size)))
            chosen |= set(rng.sample(list(part.ids), min(count, len(part.ids))))
            expected = {d: s for d, s in full.items() if d in chosen}
            assert part.scores(2.5, chosen) == expected
            assert part.scores(2.5, Selection.of(byte_map(chosen, scorer.size),
                                                 scorer.size)) == expected


def test_byte_maps_hold_their_papers() -> None:
    rng = random.Random(3)
    for size in (1, 9, 1000):
        chosen = set(rng.sample(range(size), rng.randint(0, size)))
        selection = Selection.of(byte_map(chosen, size), size)
        assert selection.count == len(chosen)
        assert selection.docnums == chosen
        assert [d for d in range(size) if selection.marks[d]] == sorted(chosen)


@pytest.mark.parametrize("which", ["corpus_library", "tied_library"])
def test_common_words_rank_as_the_exhaustive_scorer(request, which: str) -> None:
    """Disjunctions of the most frequent terms: long lists, where pruning skips most."""
    library = request.getfixturevalue(which)
    reader = library.searcher.reader()
    common = sorted(_vocabulary(library)["text"],
                    key=lambda t: -reader.doc_frequency("text", t))[:40]
    rng = random.Random(11)
    for _ in range(60):
        chosen = rng.sample(common, rng.randint(1, 8))
        q = wq.Or([wq.Term(f, t, boost=b) for t in chosen
                   for f, b in (("text", 1.0), ("name", 2.0), ("title", 0.3))])
        for k in KS:
            assert _check(library, q, k)


@pytest.mark.parametrize("which", ["corpus_library", "tied_library"])
def test_typed_queries_rank_as_the_exhaustive_scorer(request, which: str) -> None:
    """Queries as the reader builds them while they are typed: prefixes expanded."""
    library = request.getfixturevalue(which)
    for text in TYPED:
        for end in range(1, len(text) + 1):
            compiled = compile_query(text[:end], library.schema, typing=True)
            for form in (compiled.strict, compiled.loose):
                q = _expanded(library, form, compiled)
                for k in (1, 20):
                    _check(library, q, k)


def test_counts_are_exact_up_to_the_bound_and_none_past_it(corpus_library) -> None:
    """`plans.count_up_to`, and the search's count while typing (`count_up_to`): exact
    while at most the bound match, else "more than the bound", the hits unchanged."""
    library = corpus_library
    matched = 0
    for text in TYPED:
        compiled = compile_query(text, library.schema, typing=True)
        q = _expanded(library, compiled.strict, compiled)
        exact = len(library.scorer.evaluate(q))
        matched += exact > 0
        for bound in sorted({0, 1, exact - 1, exact, exact + 1, 10**6} - {-1}):
            assert plans.count_up_to(library.scorer, q, bound) == (
                exact if exact <= bound else None), (text, bound)
        full = search(library, text, 20, typing=True)
        for bound in sorted({0, 5, full.total - 1, full.total} - {-1}):
            bounded = search(library, text, 20, typing=True, count_up_to=bound)
            assert [(h.docnum, h.score) for h in bounded.hits] == [
                (h.docnum, h.score) for h in full.hits], (text, bound)
            assert (bounded.total, bounded.exact) == (
                (full.total, True) if full.total <= bound else (bound, False)), (text, bound)
    # Made lists need not hold every phrase of TYPED, but most of it must match, or
    # the bounds above were never passed.
    assert matched >= len(TYPED) // 2, matched


@pytest.mark.parametrize("few", [0, 4])
def test_the_search_gives_the_same_hits_pruned_or_not(corpus_library, monkeypatch,
                                                      few: int) -> None:
    monkeypatch.setattr(topk, "FEW", few)
    monkeypatch.setattr(topk, "PRUNE_FROM", 0 if few == 0 else topk.PRUNE_FROM)

    def run(query: str) -> tuple[list[tuple[int, float]], int]:
        result = search(corpus_library, query, limit=20, typing=True)
        return [(h.docnum, h.score) for h in result.hits], result.total

    queries = [text[:end] for text in TYPED for end in range(1, len(text) + 1, 3)]
    pruned = [run(q) for q in queries]
    monkeypatch.setattr(Library, "top", lambda self, q, k, count=True: None)
    assert [run(q) for q in queries] == pruned


def test_ties_rank_by_docnum() -> None:
    scores = {7: 1.0, 3: 2.0, 5: 1.0, 1: 1.0, 9: 0.5}
    assert ranked(scores, None) == [(3, 2.0), (1, 1.0), (5, 1.0), (7, 1.0), (9, 0.5)]
    assert ranked(scores, 3) == [(3, 2.0), (1, 1.0), (5, 1.0)]


def test_other_shapes_are_left_to_the_exhaustive_scorer(corpus_library) -> None:
    scorer = corpus_library.scorer
    assert top(scorer, wq.Phrase("text", ["neural", "network"]), 5) is None
    inner = wq.And([wq.Term("text", "learn"), wq.Phrase("text", ["neural", "network"])])
    assert top(scorer, wq.Or([wq.Term("text", "model"), inner]), 5) is None
    assert top(scorer, wq.Term("text", "learn", boost=0.0), 5) is None
    assert top(scorer, wq.Term("text", "learn"), 0) is None
    phrase = wq.Not(wq.Phrase("text", ["neural", "network"]))
    assert top(scorer, wq.And([wq.Term("text", "learn"), phrase]), 5) is None


def _stub(lists: dict[str, dict[int, float]]):
    """Leaves and a scoring function over hand-made posting lists of dyadic scores
    (exact in floating point), so that sums tie exactly and bounds are reached exactly."""
    leaves = {}
    for text, found in lists.items():
        ids = array("i", sorted(found))
        tier = Tier(ids, array("d", [found[d] for d in ids]), max(found.values()))
        leaves[text] = _Leaf(text, tier, 1.0, tier.ratio)

    def score(leaf: _Leaf, candidates: set[int] | None) -> dict[int, float]:
        return leaf.tier.scores(1.0, candidates)

    return list(leaves.values()), score


def test_survivors_keep_every_paper_that_ties_the_kth() -> None:
    """Exact ties at every comparison: a paper whose score equals the k-th best, or whose
    partial score plus the bounds left equals it, must survive."""
    rng = random.Random(5)
    for _ in range(2000):
        docs, levels = rng.randint(3, 30), rng.choice((1, 2, 4))
        lists = {f"t{n}": {d: rng.randint(1, levels) / levels
                           for d in rng.sample(range(docs), rng.randint(1, docs))}
                 for n in range(rng.randint(1, 6))}
        leaves, score = _stub(lists)
        totals: dict[int, float] = {}
        for found in lists.values():
            for d, s in found.items():
                totals[d] = totals.get(d, 0.0) + s
        k = rng.randint(1, 6)
        best = {d for d, _ in ranked(totals, k)}
        assert best <= _survivors(score, leaves, k, None)


def test_adding_scores_gives_each_sum_as_a_loop_would() -> None:
    """`add_scores` against a loop that adds each score in turn: equal to the last bit,
    whether the papers are mostly new or mostly shared."""
    from tui.core.index.scorer import add_scores

    rng = random.Random(23)
    for _ in range(300):
        base = {rng.randrange(400): rng.random() * 10 for _ in range(rng.randint(0, 200))}
        other = {rng.randrange(400): rng.random() * 10 for _ in range(rng.randint(0, 200))}
        expected = dict(base)
        for docnum, value in other.items():
            expected[docnum] = expected.get(docnum, 0.0) + value
        added = dict(base)
        add_scores(added, other)
        assert added == expected


def test_a_conjunction_typed_on_adds_only_its_last_word_again(corpus_library, monkeypatch,
                                                              request) -> None:
    """"graph neural netw" after "graph neural net": the groups before the last are
    added once and kept (read only); the answers stay the exhaustive scorer's."""
    if request.node.callspec.params["_prune_always"] == "pruned":
        pytest.skip("the kept heads are the whole-list path's")
    reader = corpus_library.searcher.reader()
    common = sorted(reader.lexicon("text"), key=lambda t: -reader.doc_frequency("text", t))
    words = [t.decode() if isinstance(t, bytes) else t for t in common[:6]]
    heads = [[wq.Term(field, word) for field in ("text", "title")] for word in words[:2]]
    monkeypatch.setattr(dense, "_heads", WeakKeyDictionary())  # none kept by other tests
    added: list[tuple[wq.Query, ...]] = []
    group = dense._group
    monkeypatch.setattr(dense, "_group", lambda scorer, units, among=None: (
        added.append(tuple(units)), group(scorer, units, among))[1])
    for last in words[2:]:
        q = wq.And([wq.Or(units) for units in heads]
                   + [wq.Or([wq.Term("text", last), wq.Term("title", last, boost=2.0)])])
        assert top(corpus_library.scorer, q, 10) == _exhaustive(corpus_library, q, 10)
    assert [units[0].text for units in added] == words  # each head word once, then the last
    head, among = dense._head(corpus_library.scorer, heads)
    assert len(added) == len(words), "the kept head was added again"
    assert not head.flags.writeable and not among.flags.writeable
    assert among.tolist() == sorted(set(corpus_library.scorer.evaluate(wq.Or(heads[0])))
                                    & set(corpus_library.scorer.evaluate(wq.Or(heads[1]))))


def test_lists_are_added_whole_only_once_numpy_is_loaded(corpus_library, monkeypatch,
                                                         request) -> None:
    """A search from the command line does not import numpy (a tenth of a second) for a
    query only a few thousand postings long: it is pruned instead."""
    if request.node.callspec.params["_prune_always"] != "added whole":
        pytest.skip("one run is enough")
    importlib.import_module("numpy")  # loaded, as the reader loads it ahead

    q = wq.Or([wq.Term("text", t) for t in _vocabulary(corpus_library)["text"][:50]])
    postings = plans.postings_in(corpus_library.scorer, plans.plan_of(q))
    monkeypatch.setattr(topk, "DENSE_FROM", 1)
    monkeypatch.setattr(topk, "DENSE_COLD_FROM", postings + 1)
    added = []
    monkeypatch.setattr(dense, "plan_top", lambda *args: added.append(args) or None)
    assert top(corpus_library.scorer, q, 10) == _exhaustive(corpus_library, q, 10)
    assert len(added) == 1, "numpy is loaded: the lists are added whole"
    monkeypatch.delitem(sys.modules, "numpy")
    assert top(corpus_library.scorer, q, 10) == _exhaustive(corpus_library, q, 10)
    assert len(added) == 1, "numpy was imported for a short query"
    monkeypatch.setattr(topk, "DENSE_COLD_FROM", postings)
    top(corpus_library.scorer, q, 10)
    assert len(added) == 2, "a query long enough is added whole all the same"
