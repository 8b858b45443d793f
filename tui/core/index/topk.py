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

Queries with many postings (`DENSE_FROM`: a few thousand, once numpy is loaded) are
answered by adding their lists whole at C speed instead (`dense.plan_top`), with the
same survivors' rescoring, so the same answer; the pruning here is then the path of a
search from the command line, which does not load numpy for one query.

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
docnums, as sets or as byte maps (`members`).
"""

from __future__ import annotations

import heapq
import sys
from collections.abc import Callable, Collection
from dataclasses import dataclass
from itertools import compress

from whoosh import query as wq

from tui.core.index import dense
from tui.core.index.members import Selection
from tui.core.index.ranking import Ranked, ranked
from tui.core.index.plans import matches, papers_of, plan_of, postings_in, text_of
from tui.core.index.scorer import Scorer, Scores, add_scores
from tui.core.index.tiers import Tier

MARGIN = 1e-9
"""Relative slack on every pruning comparison, on the side of keeping a paper. Scores
are sums of positive float64 terms; n additions err by at most about n × 1.1e-16 of
the sum, so 1e-9 covers queries of millions of terms; a wider margin would only keep a
few more papers to score exactly."""

PRUNE_FROM = 20_000
"""Queries with fewer postings in all are scored exhaustively: a few milliseconds,
which pruning's set-up (bounds, matches, parts) would not shorten."""
DENSE_FROM = 2_000
"""Queries with this many postings or more are added whole at C speed (`dense`) once
numpy is loaded (the reader loads it ahead, `Library.prepare`): at 250,000 papers a
common word, or a short prefix in five fields, leaves pruning tens of thousands of
papers to look up one by one, and even a word of a few thousand postings is scored
faster so than a posting at a time (the typed prefixes of `bench/scale.py`, warm, each
timed under both thresholds in turn: a median of 1.95 against 2.95 ms at 250k, 1.21
against 1.98 ms at 25k, with 60,000 here)."""
DENSE_COLD_FROM = 60_000
"""The same before numpy is loaded (a search from the command line): importing it costs
a tenth of a second, which only lists this long repay."""
FEW = 4
"""Matches up to FEW × k are all scored: pruning would save less than it costs."""
_SMALL = 64
"""Postings that cost about as much as starting to score a list: so that among short
lists the order is by bound."""

_HEAP_FROM = 20
"""`_kth_largest` ranks by a heap from this many values per rank asked for (measured:
below it, sorting them all at C speed is faster than nlargest's loop)."""

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
        return self.matches if self.tier is None else len(self.tier)


def top(scorer: Scorer, q: wq.Query, k: int, *, count: bool = True,
        ) -> tuple[Ranked, int | None] | None:
    """The best `k` papers for `q` as `ranked` gives them from `scorer.evaluate(q)`,
    and how many papers `q` matches (None when not asked to `count` them); None for a
    query of another shape, which the caller then scores exhaustively.

    Counting a disjunction's matches is a union of its terms' papers: at 250k papers,
    a sixth of "similar papers" (15 terms), whose count nobody reads. A conjunction's
    matches bound its pruning, so they are found (and counted) all the same.
    """
    plan = plan_of(q)
    if plan is None or k < 1:
        return None
    postings = postings_in(scorer, plan)
    dense_from = DENSE_FROM if "numpy" in sys.modules else max(DENSE_FROM, DENSE_COLD_FROM)
    if postings >= dense_from and (answer := dense.plan_top(scorer, plan, q, k, count)):
        return answer
    if postings < PRUNE_FROM:
        return None
    docs = papers_of(scorer)
    conjunction = len(plan.groups) > 1 or bool(plan.excluded)
    selected: set[int] | Selection | None = None
    matched: int | None = None
    if count or conjunction:
        selected = matches(scorer, plan, docs)
        if selected is None:
            return None
        matched = selected.count if isinstance(selected, Selection) else len(selected)
        if matched <= FEW * k:  # nothing worth pruning: score them all
            found = selected.docnums if isinstance(selected, Selection) else selected
            return ranked(scorer.evaluate(q, found), k, scorer.tie_rank), matched
    leaves = []
    for group in plan.groups:
        for unit in group:
            if isinstance(unit, wq.And):
                bound = sum(_bound(scorer, t) for t in unit.subqueries)
                leaves.append(_Leaf("", None, 1.0, bound, unit, len(docs(unit))))
                continue
            text = text_of(unit)
            scale = scorer.scale(unit.fieldname, text, unit.boost)
            leaves += [_Leaf(unit.fieldname, tier, scale, scale * tier.ratio)
                       for tier in scorer.tiers(unit.fieldname, text)]

    def score(leaf: _Leaf, candidates: Collection[int] | Selection | None) -> Scores:
        tier = leaf.tier
        if tier is None:
            if not isinstance(candidates, Selection):
                if candidates is not None and not isinstance(candidates, set):
                    candidates = set(candidates)
                return scorer.evaluate(leaf.unit, candidates)
            marks = candidates.marks
            return {d: v for d, v in scorer.evaluate(leaf.unit).items() if marks[d]}
        return tier.scores(leaf.scale, candidates)

    survivors = _survivors(score, leaves, k, selected if conjunction else None)
    return ranked(scorer.evaluate(q, survivors), k, scorer.tie_rank), matched


def _bound(scorer: Scorer, term: wq.Term) -> float:
    """No paper's score for `term` is above this (up to rounding)."""
    text = text_of(term)
    parts = scorer.tiers(term.fieldname, text)
    return scorer.scale(term.fieldname, text, term.boost) * parts[0].ratio if parts else 0.0


def _survivors(score: Callable[[_Leaf, Collection[int] | Selection | None], Scores],
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
    best: set[int] = set()
    """The papers whose partial scores are the k best (with any tied with the k-th)."""
    theta, i = 0.0, 0
    # Every part scored in full while the parts left could still bring in a new paper.
    while i < len(leaves) and not (theta > 0 and rest[i] * grow < theta * shrink):
        scored = score(leaves[i], within)
        add_scores(partial, scored)
        # Partial scores only grow, so the k best are among the k best before and
        # the papers just scored: θ, the k-th best, is found among those alone.
        theta, best = _kth(partial, best, scored, k, theta)
        i += 1
    # The rest only for the papers seen, those that can still reach θ: the highest
    # bounds first, so that what is left, and the papers that can still reach θ,
    # shrink fastest.
    leaves[i:] = sorted(leaves[i:], key=lambda f: -f.bound)
    rest[i:] = _suffix_sums(leaves[i:])
    # The papers that can are kept with their partial scores, which only they need.
    alive = _reaching(partial, theta, rest[i])
    while i < len(leaves) and alive:
        scored = score(leaves[i], alive.keys())
        add_scores(alive, scored)
        # The k best reach θ, so they are among the papers kept.
        theta, best = _kth(alive, best, scored, k, theta)
        i += 1
        alive = _reaching(alive, theta, rest[i])
    return set(alive)


def _kth(partial: dict[int, float], best: set[int], scored: Scores, k: int,
         theta: float) -> tuple[float, set[int]]:
    """The k-th best partial score among the papers of `best` and `scored` (0 when
    fewer than k), and those of them at or above it. The papers just scored are read
    from `scored` at C speed; `best` (about k papers) adds those it does not hold.
    `theta` is the k-th best before `scored` was added: partial scores only grow, so
    the k papers of `best` are still at or above it, and a paper under it cannot be
    among the k best. Only the papers at or above it are ranked, which matters for a
    large k (the reader's thousand hits), where ranking every paper just scored would
    cost more than scoring it."""
    docnums = list(scored)
    values = list(map(partial.__getitem__, docnums))
    if theta > 0:
        above = list(map(theta.__le__, values))
        docnums = list(compress(docnums, above))
        values = list(compress(values, above))
    others = [d for d in best if d not in scored]
    if others:
        docnums += others
        values += map(partial.__getitem__, others)
    if len(values) < k:
        return 0.0, set(docnums)
    kth = _kth_largest(values, k)
    return kth, set(compress(docnums, map(kth.__le__, values)))


def _kth_largest(values: list[float], k: int) -> float:
    """The k-th largest of `values` (at least k of them): by a heap when k is a small
    share of them (nlargest's loop is Python), else by a sort at C speed."""
    if len(values) > _HEAP_FROM * k:
        return heapq.nlargest(k, values)[-1]
    return sorted(values)[-k]


def _reaching(partial: dict[int, float], theta: float, rest: float) -> dict[int, float]:
    """The papers of `partial` whose partial score plus `rest` may reach `theta` (with
    the margin on the safe side), with their partial scores."""
    need = theta * (1.0 - MARGIN) / (1.0 + MARGIN) - rest * (1.0 + MARGIN)
    if need <= 0:
        return partial
    # A dict's items and values come in the same order: no lookup per paper.
    return dict(compress(partial.items(), map(need.__le__, partial.values())))


def _suffix_sums(leaves: list[_Leaf]) -> list[float]:
    """For each i, the sum of the bounds of leaves[i:] (one more entry: 0)."""
    rest = [0.0] * (len(leaves) + 1)
    for i in range(len(leaves) - 1, -1, -1):
        rest[i] = rest[i + 1] + leaves[i].bound
    return rest


