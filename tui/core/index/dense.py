"""The scores of a weighted disjunction of many long lists, added whole at C speed.

The pruned top-k (`topk`) finds a typed query's best papers while scoring a small share
of its postings: a few terms, one or two of them rare, whose bounds let the long lists
be looked up for a few papers. A query made of sixty terms of like weight (the papers a
reader starred, `search.interests`) gives pruning nothing to skip: at 250,000 papers it
scores millions of postings one dict entry at a time, seconds of work. Here each term's
postings are added into one array of a score per docnum instead: its impacts (kept
beside the list, `tiers`) times its scale, added at the docnums of its postings, a few
nanoseconds a posting (numpy, imported when first needed: start-up never pays for it).

Every term's postings hold each docnum once, so the addition per term is a plain
indexed add; the terms are added in the order given, so equal papers get equal sums.
A score is the same BM25 sum the scorer gives (`Scorer.evaluate`), in another order of
addition: equal up to rounding (a relative 1e-15 or so).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from tui.core.index.scorer import Scorer
from tui.core.index.topk import Ranked, ranked

TYPE_CHECKING = False  # as typing's
if TYPE_CHECKING:
    import numpy as np

Term = tuple[str, str, float]
"""(field name, index term, boost)."""


def scores(scorer: Scorer, terms: Sequence[Term], among: Collection[int] | None = None,
           excluded: Collection[int] = ()) -> np.ndarray:
    """Each docnum's summed BM25 score for `terms` (0 for a paper matching none), only
    for the docnums `among` when given, 0 for those `excluded`."""
    import numpy as np

    total = np.zeros(scorer.size)
    for fieldname, text, boost in terms:
        ids = scorer.postings(fieldname, text)[0]
        if not ids:
            continue
        impact = scorer.impacts(fieldname, text)
        scale = scorer.scale(fieldname, text, boost)
        total[np.frombuffer(ids, dtype=ids.typecode)] += (
            scale * np.frombuffer(impact, dtype=impact.typecode))
    if among is not None:
        kept = np.zeros(scorer.size, dtype=bool)
        kept[np.fromiter(among, dtype=np.int64, count=len(among))] = True
        total *= kept
    if excluded:
        total[np.fromiter(excluded, dtype=np.int64, count=len(excluded))] = 0.0
    return total


def top(scorer: Scorer, terms: Sequence[Term], k: int | None,
        among: Collection[int] | None = None, excluded: Collection[int] = ()) -> Ranked:
    """The best `k` (all when None) (docnum, score) pairs of `scores`: score descending,
    equal scores in list order (`ranked`'s order), papers matching no term left out."""
    import numpy as np

    total = scores(scorer, terms, among, excluded)
    matched = np.flatnonzero(total)
    if k is not None and k < len(matched):
        if k <= 0:
            return []
        values = total[matched]
        kth = np.partition(values, len(values) - k)[len(values) - k]
        matched = matched[values >= kth]  # the k best and every paper tied with the k-th
    found = dict(zip(matched.tolist(), total[matched].tolist()))
    return ranked(found, k, scorer.tie_rank)
