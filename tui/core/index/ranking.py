"""Scored papers in the order every ranked list uses: best first, ties in list order."""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence

from tui.core.index.scorer import Scores

Ranked = list[tuple[int, float]]


def ranked(scores: Scores, k: int | None, rank: Sequence[int] | None = None) -> Ranked:
    """The best `k` (all when None) (docnum, score) pairs: score descending, then in
    list order (docnum order, or each docnum's `rank` when given), so that equal scores
    always come in the same order."""
    if k is not None and k <= 0:
        return []
    docnums: Iterable[int] = scores
    if k is not None and k < len(scores):
        # The k-th best score (nlargest without a key runs at C speed), then only the
        # papers at or above it.
        kth = heapq.nlargest(k, scores.values())[-1]
        docnums = [d for d, s in scores.items() if s >= kth]
    # By docnum, then (a stable sort, reversed stably) by score: no Python key.
    order = sorted(docnums) if rank is None else sorted(docnums, key=rank.__getitem__)
    order.sort(key=scores.__getitem__, reverse=True)
    return [(d, scores[d]) for d in (order if k is None else order[:k])]
