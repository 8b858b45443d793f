"""The best k papers of a query, skipping what cannot reach them, exactly.

The scorer (`scorer`) gives every matching paper its score, term at a time: every
posting of every term is scored into a dict, so a query's cost grows with the
collection. The reader shows twenty. This module finds the same twenty, with the same
scores in the same order, for the queries the search runs most: a disjunction of
scored terms (typed prefixes, the any-word ranking) and a conjunction of such
disjunctions (all the words required), with `NOT` parts.

How (MaxScore, term at a time). Each term's postings come in parts of falling impact
(`tiers`), each with an upper bound: boost × idf × (k1 + 1) × its largest
tf / (tf + norm) (kept beside the list in the posting cache). The parts are scored in
full one after another, those that bring the most bound for their postings first; θ is
the k-th best partial score so far. Once the remaining parts' bounds sum to less than
θ, no paper they alone match can reach the top k: those parts are scored only for the
papers already seen, looked up by bisection, highest bound first, and the papers whose
partial score plus the bounds left is below θ are dropped. Rare terms and the few
postings of a common term that score high have the high bounds, so the bulk of the
long lists (common words, a prefix's expansions) is read but not scored. Any order of
the parts is exact (only the sums of the bounds left count); this one is fast.

Shapes it does not take (phrases, fuzzy terms, anything but terms inside an AND inside
an OR, an exclusion that is not terms) answer None: the caller scores them
exhaustively. Queries with few matches (`FEW`) are scored in full.

Exactness. Every paper's partial score is a lower bound of its score and every sum of
bounds an upper bound, up to rounding; comparisons keep a relative margin far wider
than the rounding of a few thousand additions (`MARGIN`), so a paper is dropped only
when it is strictly below the k-th best. The survivors (k, and every paper tied with
the k-th) are then scored by the scorer itself, whose order of addition does not
depend on which papers it is given, so each gets the very score the exhaustive path
gives it. Ties rank by docnum (`ranked`), here and in the exhaustive path.

The number of matches is exact too: the union (and intersection) of the terms'
docnums, as sets or as byte maps (`members`), at C speed.
"""

from __future__ import annotations

import heapq
from array import array
from bisect import bisect_left
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from itertools import compress, repeat

from whoosh import query as wq

from tui.core.index.members import Selection
from tui.core.index.scorer import Scorer, Scores
from tui.core.index.tiers import Tier

MARGIN = 1e-9
"""Relative slack on every pruning comparison, on the side of keeping a paper. Scores
are sums of positive float64 terms; n additions err by at most about n × 1.1e-16 of
the sum, so 1e-9 covers queries of millions of terms; a wider margin would only keep a
few more papers to score exactly."""

LONG = 4
"""A list of at least 1/LONG of the papers keeps its byte map (n bytes: at most half
the memory of the list itself, which the posting cache counts); a shorter list's
papers are marked afresh by each query."""
PRUNE_FROM = 20_000
"""Queries with fewer postings in all are scored exhaustively: a few milliseconds,
which pruning's set-up (bounds, matches, parts) would not shorten."""
FEW = 4
"""Matches up to FEW × k are all scored: pruning would save less than it costs."""
_BISECT = 16
"""Look papers up in a list by bisection when it is this many times longer."""
SPARSE = 8
"""Unless the long lists (see LONG) hold at least 1/SPARSE of the papers' worth of
postings per group, the matches are counted as a set: a hash per posting then costs
less than the byte maps' passes over every docnum (measured at 250k papers: a group's
passes cost about what hashing 20,000 postings does)."""
_SMALL = 64
"""Postings that cost about as much as starting to score a list: so that among short
lists the order is by bound."""

Ranked = list[tuple[int, float]]
Unit = wq.Term | wq.And
"""What a disjunction is made of here: terms, and conjunctions of terms (a hyphenated
word: `semi-supervised` is semi AND supervis, in each field)."""


def ranked(scores: Scores, k: int | None) -> Ranked:
    """The best `k` (all when None) (docnum, score) pairs: score descending, then
    docnum ascending, so that equal scores always come in the same order."""
    def key(pair: tuple[int, float]) -> tuple[float, int]:
        return -pair[1], pair[0]

    if k is None or k >= len(scores):
        return sorted(scores.items(), key=key)
    return heapq.nsmallest(k, scores.items(), key=key)


@dataclass(frozen=True)
class _Leaf:
    """Part of one scored term's postings (see `tiers`), or a conjunction of terms
    inside a disjunction (`unit`), with its bound."""

    fieldname: str
    tier: Tier | None
    scale: float
    """boost × idf × (k1 + 1): a posting's score over its tf / (tf + norm)."""
    bound: float
    """No posting here scores more, up to rounding."""
    unit: wq.And | None = None
    """A conjunction of terms, scored by the scorer, in place of a part of a list."""
    matches: int = 0
    """How many papers `unit` matches."""

    @property
    def size(self) -> int:
        """How many postings the part has (papers, for a conjunction)."""
        if self.tier is None:
            return self.matches
        return len(self.tier.ids) if self.tier.size < 0 else self.tier.size


@dataclass
class _Plan:
    """A query the pruned path can take: papers matching every group (a disjunction
    of terms) and none of `excluded`; the score is the sum over all groups' terms."""

    groups: list[list[Unit]]
    excluded: list[wq.Query]


def top(scorer: Scorer, q: wq.Query, k: int) -> tuple[Ranked, int] | None:
    """The best `k` papers for `q` as `ranked` gives them from `scorer.evaluate(q)`,
    and how many papers `q` matches; None for a query of another shape, which the
    caller then scores exhaustively."""
    plan = _plan(q)
    if plan is None or k < 1 or _postings(scorer, plan) < PRUNE_FROM:
        return None
    docs = _papers(scorer)
    selected = _matches(scorer, plan, docs)
    if selected is None:
        return None
    count = selected.count if isinstance(selected, Selection) else len(selected)
    if count <= FEW * k:  # nothing worth pruning: score them all
        found = selected.docnums if isinstance(selected, Selection) else selected
        return ranked(scorer.evaluate(q, found), k), count
    conjunction = len(plan.groups) > 1 or bool(plan.excluded)
    leaves = []
    for group in plan.groups:
        for unit in group:
            if isinstance(unit, wq.And):
                bound = sum(_bound(scorer, t) for t in unit.subqueries)
                leaves.append(_Leaf("", None, 1.0, bound, unit, len(docs(unit))))
                continue
            text = _text(unit)
            scale = scorer.scale(unit.fieldname, text, unit.boost)
            leaves += [_Leaf(unit.fieldname, tier, scale, scale * tier.ratio)
                       for tier in scorer.tiers(unit.fieldname, text)]

    def score(leaf: _Leaf, candidates: set[int] | Selection | None) -> Scores:
        tier = leaf.tier
        if tier is None:
            if not isinstance(candidates, Selection):
                return scorer.evaluate(leaf.unit, candidates)
            marks = candidates.marks
            return {d: v for d, v in scorer.evaluate(leaf.unit).items() if marks[d]}
        return scorer.score(leaf.fieldname, tier.ids, tier.tfs, leaf.scale, candidates,
                            tier.below)

    survivors = _survivors(score, leaves, k, selected if conjunction else None)
    return ranked(scorer.evaluate(q, survivors), k), count


def _postings(scorer: Scorer, plan: _Plan) -> int:
    """How many postings the plan's terms have in all."""
    terms = [t for g in plan.groups for u in g
             for t in (u.subqueries if isinstance(u, wq.And) else [u])]
    return sum(len(scorer.postings(t.fieldname, _text(t))[0]) for t in terms)


def _plan(q: wq.Query) -> _Plan | None:
    """`q` as groups of terms and exclusions, or None when it is of another shape."""
    if isinstance(q, wq.And):
        plan = _Plan([], [])
        for child in q.subqueries:
            if isinstance(child, wq.Not):
                plan.excluded.append(child.query)
                continue
            inner = _plan(child)
            if inner is None:
                return None
            plan.groups += inner.groups
            plan.excluded += inner.excluded
        return plan if plan.groups else None
    terms = _terms(q)
    return None if terms is None else _Plan([terms], [])


def _terms(q: wq.Query, inner: bool = False) -> list[Unit] | None:
    """The units of a disjunction (nested) of terms and, `inner`, of conjunctions of
    terms; None for anything else."""
    if isinstance(q, wq.Term):
        # The bounds need positive contributions; the scorer's other nodes keep theirs.
        return [q] if q.boost > 0 else None
    if inner and isinstance(q, wq.And):
        parts = q.subqueries
        if parts and all(isinstance(c, wq.Term) and c.boost > 0 for c in parts):
            return [q]
        return None
    if isinstance(q, (wq.Or, wq.DisjunctionMax)):
        out: list[Unit] = []
        for child in q.subqueries:
            found = _terms(child, inner=True)
            if found is None:
                return None
            out += found
        return out
    return None


def _bound(scorer: Scorer, term: wq.Term) -> float:
    """No paper's score for `term` is above this (up to rounding)."""
    text = _text(term)
    parts = scorer.tiers(term.fieldname, text)
    return scorer.scale(term.fieldname, text, term.boost) * parts[0].ratio if parts else 0.0


def _papers(scorer: Scorer) -> Callable[[Unit], array | set[int]]:
    """The papers of a unit: a term's docnums, or the papers with every term of a
    conjunction (found once per query: a conjunction's are remembered)."""
    found: dict[int, set[int]] = {}

    def docs(unit: Unit) -> array | set[int]:
        if isinstance(unit, wq.Term):
            return scorer.postings(unit.fieldname, _text(unit))[0]
        if id(unit) not in found:
            lists = sorted((scorer.postings(t.fieldname, _text(t))[0]
                            for t in unit.subqueries), key=len)
            both = set(lists[0])
            for ids in lists[1:]:
                both.intersection_update(ids)
            found[id(unit)] = both
        return found[id(unit)]

    return docs


def _matches(scorer: Scorer, plan: _Plan, docs: Callable[[Unit], array | set[int]],
             ) -> set[int] | Selection | None:
    """Every paper the plan matches; None when an exclusion is not a disjunction of
    terms. Few postings in all: a set; else a byte map (`members`), whose passes over
    every docnum cost less than a hash per posting."""
    excluded = []
    for query in plan.excluded:
        terms = _terms(query)
        if terms is None:
            return None
        excluded.append(terms)
    # Byte maps cost a few passes over every docnum per group; they pay where the
    # long lists, whose maps are kept, would otherwise be hashed posting by posting.
    size, groups = scorer.size, plan.groups + excluded
    lengths = [len(docs(u)) for g in groups for u in g]
    if sum(n for n in lengths if n * LONG >= size) * SPARSE < size * len(groups):
        return _matching_set(docs, plan.groups, excluded)
    matched = -1  # every paper
    for group in plan.groups:
        matched &= _union(scorer, docs, group)
    for terms in excluded:
        matched &= ~_union(scorer, docs, terms)
    return Selection.of(matched, scorer.size)


def _matching_set(ids: Callable[[Unit], array | set[int]], groups: list[list[Unit]],
                  excluded: list[list[Unit]]) -> set[int]:
    """The papers in every one of `groups` and none of `excluded`, by set operations."""
    groups = sorted(groups, key=lambda g: sum(len(ids(t)) for t in g))
    matched: set[int] = set()
    for term in groups[0]:
        matched.update(ids(term))
    for group in groups[1:]:
        kept: set[int] = set()
        for term in group:
            found = ids(term)
            if isinstance(found, set):
                kept.update(matched & found)
            elif len(matched) * _BISECT < len(found):  # few papers left: look them up
                kept.update(d for d in matched if _holds(found, d))
            else:
                kept.update(matched.intersection(found))
        matched = kept
    for terms in excluded:
        for term in terms:
            matched.difference_update(ids(term))
    return matched


def _union(scorer: Scorer, docs: Callable[[Unit], array | set[int]],
           units: list[Unit]) -> int:
    """The papers of any of `units`, as a byte map: long lists' maps are kept (see
    `members`), short lists and conjunctions are marked afresh."""
    size = scorer.size
    union, marks = 0, None
    for unit in units:
        ids = docs(unit)
        if isinstance(unit, wq.Term) and len(ids) * LONG >= size:
            union |= scorer.byte_map(unit.fieldname, _text(unit))
        elif ids:
            if marks is None:
                marks = bytearray(size)
            deque(map(marks.__setitem__, ids, repeat(1)), maxlen=0)
    if marks is not None:
        union |= int.from_bytes(marks, "little")
    return union


def _survivors(score: Callable[[_Leaf, set[int] | Selection | None], Scores],
               leaves: list[_Leaf], k: int, within: set[int] | Selection | None,
               ) -> set[int]:
    """Every paper that may be among the best `k` (see the module docstring), among
    `within` when given (the conjunction's matches); `score(leaf, candidates)` scores
    a leaf's postings, of all papers or of the candidates only."""
    # Any order is right; this one is fast. What is scored in full should be the parts
    # that bring the most bound for their postings (rare terms, top parts): then the
    # long lists, left for last, are what the bounds left sum over when θ passes them.
    leaves = sorted((leaf for leaf in leaves if leaf.bound > 0),
                    key=lambda f: -f.bound / (f.size + _SMALL))
    rest = _suffix_sums(leaves)
    grow, shrink = 1.0 + MARGIN, 1.0 - MARGIN
    partial: dict[int, float] = {}
    theta, done, i = 0.0, 0.0, 0
    fresh = 0
    """Postings added since θ was last taken."""
    # Every part scored in full while the parts left could still bring in a new paper.
    while i < len(leaves):
        leaf = leaves[i]
        # θ can pass what is left only once the bounds scored do (no partial exceeds
        # them); and it is taken again only when what came in since, or the part about
        # to be scored, is worth a pass over the partial scores.
        if fresh and len(partial) >= k and rest[i] * grow < done \
                and (fresh + leaf.size) * 4 >= len(partial):
            theta, fresh = heapq.nlargest(k, partial.values())[-1], 0
        if theta > 0 and rest[i] * grow < theta * shrink:
            break
        scored = score(leaf, within)
        # Papers already seen are added in Python, new ones copied at C speed.
        summed = {d: partial[d] + scored[d] for d in partial.keys() & scored.keys()}
        partial.update(scored)
        partial.update(summed)
        fresh += len(scored)
        done += leaf.bound
        i += 1
    if fresh and len(partial) >= k:
        theta = heapq.nlargest(k, partial.values())[-1]
    # The rest only for the papers seen, those that can still reach θ: the highest
    # bounds first, so that what is left, and the papers that can still reach θ,
    # shrink fastest.
    leaves[i:] = sorted(leaves[i:], key=lambda f: -f.bound)
    rest[i:] = _suffix_sums(leaves[i:])
    alive = set(partial)
    value_of = partial.__getitem__
    while i < len(leaves) and alive:
        alive = _reaching(alive, value_of, theta, rest[i])
        scored = score(leaves[i], alive)
        partial.update({d: partial[d] + scored[d] for d in scored})
        i += 1
        if len(alive) >= k:
            theta = max(theta, heapq.nlargest(k, map(value_of, alive))[-1])
    return _reaching(alive, value_of, theta, 0.0)


def _reaching(docs: set[int], value_of: Callable[[int], float], theta: float,
              rest: float) -> set[int]:
    """The papers of `docs` whose partial score plus `rest` may reach `theta` (with the
    margin on the safe side), selected at C speed."""
    need = theta * (1.0 - MARGIN) / (1.0 + MARGIN) - rest * (1.0 + MARGIN)
    if need <= 0:
        return docs
    ordered = list(docs)
    return set(compress(ordered, map(need.__le__, map(value_of, ordered))))


def _holds(ids: array, docnum: int) -> bool:
    """Whether the ascending `ids` hold `docnum`."""
    i = bisect_left(ids, docnum)
    return i < len(ids) and ids[i] == docnum


def _suffix_sums(leaves: list[_Leaf]) -> list[float]:
    """For each i, the sum of the bounds of leaves[i:] (one more entry: 0)."""
    rest = [0.0] * (len(leaves) + 1)
    for i in range(len(leaves) - 1, -1, -1):
        rest[i] = rest[i + 1] + leaves[i].bound
    return rest


def _text(term: wq.Term) -> str:
    text = term.text
    return text.decode("utf-8") if isinstance(text, bytes) else text
