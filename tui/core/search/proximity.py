"""Where the query's words stand in a paper, not only which it holds.

A title's words tend to stand together in its abstract, in the title's order; BM25
counts them one by one. Sequential dependence (Metzler and Croft's SDM) adds, for each
pair of adjacent query terms, how often they stand next to each other in order (#1)
and how often within a window of UNORDERED_WINDOW positions in either order (#uw8).
Each pair's counts are weighed as BM25 weighs a term (the pair's idf, the mean of its
two terms', and the paper's length norm) and added to the BM25 score with
ORDERED_WEIGHT and UNORDERED_WEIGHT.

Only the best RERANK papers of the BM25 ranking (found by the pruned top-k, `topk`) are
re-ranked: counting needs each term's positions in each paper, read from the index
(`positions`), which only a few papers can afford while a query is typed. The rest
follow in BM25's order: a paper below them is never lifted, and a paper's score only
grows, so none of the best falls below the rest either.

A known item also holds most of its title's words, where BM25 lets a paper that repeats
a few of them pass it: each distinct query term a re-ranked paper holds adds its idf
once more, times COVERAGE_WEIGHT, whatever its frequency (coordination-level matching).

A pasted title often begins with the paper's name ("FuSSO: functional shrinkage..."):
the part before the colon, matched against the papers' derived names, adds the name
field's BM25 score times NAME_WEIGHT (`name_head`).

The weights were chosen on the four venue families of the corpora (`bench/lookup.py`,
full titles and three title words, 2,000 titles of seed 11, each family weighed on its
own) and left where every family gained; the bench's default sample (seed 7) and the
relevance collections checked them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from whoosh import query as wq

from tui.core.index.analysis import terms
from tui.core.index.norms import K1

RERANK = 20
"""The best papers of the BM25 ranking that are re-ranked. Re-ranking the best 100
instead found the same first hits (2,000 titles: S@1 equal, MRR@10 +0.001) at about
twice the cost of reading positions."""
ORDERED_WEIGHT = 1.0
"""The weight of a pair's ordered, adjacent matches (#1), against BM25's 1."""
UNORDERED_WEIGHT = 0.25
"""The weight of a pair's matches within UNORDERED_WINDOW in either order (#uw8)."""
UNORDERED_WINDOW = 8
"""Positions a window spans: both terms within it (8: SDM's usual window)."""
COVERAGE_WEIGHT = 1.0
"""The weight of the idf of each distinct query term a paper holds, counted once."""
NAME_WEIGHT = 1.0
"""The weight of the name field's BM25 score for a name heading the query."""
NAME_HEAD_WORDS = 3
"""A head of more words (before the colon) is a title's first half, not a name."""

Ranked = list[tuple[int, float]]


def ordered_matches(first: Sequence[int], second: Sequence[int]) -> int:
    """How often a position of `second` comes right after one of `first` (#1)."""
    after = set(second)
    return sum(1 for p in first if p + 1 in after)


def unordered_matches(first: Sequence[int], second: Sequence[int],
                      window: int = UNORDERED_WINDOW) -> int:
    """How many disjoint pairs, one position of each list (both ascending), span at
    most `window` positions (#uwN): matched greedily from the left, each position
    used once."""
    found, j = 0, 0
    reach = window - 1
    for p in first:
        # The first unused position of `second` not too far left of p.
        while j < len(second) and second[j] < p - reach:
            j += 1
        if j < len(second) and second[j] <= p + reach and second[j] != p:
            found += 1
            j += 1
    return found


def pairs(query_terms: Sequence[str]) -> list[tuple[str, str]]:
    """The adjacent pairs of the query's index terms, in order, a term with itself left
    out, each pair once."""
    return list(dict.fromkeys((a, b) for a, b in zip(query_terms, query_terms[1:]) if a != b))


def pair_counts(first: Sequence[int], second: Sequence[int], norm: float,
                ) -> tuple[float, float]:
    """A pair's #1 and #uw8 counts in a paper with these positions and BM25 length
    `norm`, each saturated as BM25 saturates a term frequency (n / (n + norm))."""
    if not first or not second:
        return 0.0, 0.0
    ordered = ordered_matches(first, second)
    near = unordered_matches(first, second)
    return ordered / (ordered + norm), near / (near + norm)


def name_head(text: str) -> tuple[str, ...]:
    """The index terms of a name heading the query ("FuSSO: functional ..." → fusso):
    the part before its first colon, of at most NAME_HEAD_WORDS words; () when none."""
    head, colon, rest = text.partition(":")
    if not colon or not rest.strip() or not head.strip():
        return ()
    if len(head.split()) > NAME_HEAD_WORDS:
        return ()
    return tuple(terms(head))


class Proximity:
    """The proximity re-ranking of one query: its pairs, and the scales of its terms."""

    def __init__(self, library, query_terms: Sequence[str], head: Sequence[str] = ()) -> None:
        self.library = library
        self.pairs = pairs(query_terms)
        self.head = tuple(head)
        count = max(len(library), 1)
        idf: dict[str, float] = {}
        for term in {t for pair in self.pairs for t in pair}:
            df = library.doc_frequency("text", term)
            idf[term] = _idf(count, df)
        self.idf = idf
        self.scales = {(a, b): (idf[a] + idf[b]) / 2 * (K1 + 1.0) for a, b in self.pairs}
        self.groups: tuple[int, ...] = ()
        """Where the any-word papers start after the all-words ones (see `reranked`)."""

    def rerank(self, docs: Ranked) -> Ranked:
        """`docs` (best first) with the best RERANK re-ranked, the rest after them."""
        top = docs[:RERANK]
        bonuses = self.bonuses([d for d, _ in top])
        return reranked(top, bonuses, [g for g in self.groups if g < len(top)]) + docs[RERANK:]

    @property
    def applies(self) -> bool:
        return bool(self.pairs or self.head)

    def bonuses(self, docnums: Sequence[int]) -> dict[int, float]:
        """What proximity, coverage and the name add to each of `docnums`' scores."""
        return {d: ORDERED_WEIGHT * o + UNORDERED_WEIGHT * u + COVERAGE_WEIGHT * c
                + NAME_WEIGHT * n for d, (o, u, c, n) in self.features(docnums).items()}

    def features(self, docnums: Sequence[int]) -> dict[int, tuple[float, ...]]:
        """Each paper's (ordered, unordered, coverage, name) scores, before their
        weights: the pairs' saturated #1 and #uw8 counts times their scales, summed over
        the pairs; the idf summed over the distinct query terms the paper holds; and the
        name field's BM25 score for the head."""
        found = {d: [0.0, 0.0, 0.0, 0.0] for d in docnums}
        if self.pairs:
            wanted = {t for pair in self.pairs for t in pair}
            where = self.library.positions("text", wanted, docnums)
            norms = self.library.length_norms("text", docnums)
            for docnum, row in found.items():
                norm = norms[docnum]
                row[2] = sum(self.idf[t] for t in wanted if docnum in where[t])
                for pair in self.pairs:
                    first = where[pair[0]].get(docnum)
                    second = where[pair[1]].get(docnum) if first else None
                    if second:
                        scale = self.scales[pair]
                        ordered, near = pair_counts(first, second, norm)
                        row[0] += scale * ordered
                        row[1] += scale * near
        if self.head:
            named = wq.And([wq.Term("name", t) for t in self.head])
            for docnum, score in self.library.evaluate(named, set(docnums)).items():
                found[docnum][3] += score
        return {d: tuple(row) for d, row in found.items()}


def _idf(count: int, df: int) -> float:
    """Lucene's BM25 idf, as the scorer's."""
    return math.log(1.0 + (count - df + 0.5) / (df + 0.5))


def reranked(docs: Ranked, bonuses: Mapping[int, float], groups: Sequence[int] = ()) -> Ranked:
    """`docs` with each paper's bonus added, re-sorted (ties kept in their order) within
    each group: `groups` are the indices where a new group starts (the any-word papers
    after the all-words ones), so that no paper moves out of its group."""
    bounds = [0, *sorted(set(groups)), len(docs)]
    out: Ranked = []
    for start, end in zip(bounds, bounds[1:]):
        part = [(d, s + bonuses.get(d, 0.0)) for d, s in docs[start:end]]
        part.sort(key=lambda pair: -pair[1])
        out += part
    return out

