"""The last few top-k answers, so that a query asked again is not scored again.

The reader asks the same query again whenever only the order or the filter of its
list changes: cycling the sort (`S`) or the filter (`f`) comes back to relevance and
to all papers, and a read paper's "unread" list asks for the best k plus the few left
out. The index does not change while it is open, so the answer cannot either; the
library forgets these when it reopens the index.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable

Ranked = list[tuple[int, float]]
Answer = tuple[Ranked, int | None]

KEPT = 8
"""Queries remembered; the oldest asked is forgotten first."""


class RecentTops:
    """Top-k answers by query: the best k of a query, known for a larger k, are the
    first k of those (the order is total: score, then docnum)."""

    def __init__(self) -> None:
        self._answers: OrderedDict[Hashable, tuple[int, Answer]] = OrderedDict()

    def top(self, q: Hashable, k: int, find: Callable[[int], Answer | None],
            count: bool = True) -> Answer | None:
        """The best `k` of `q`: remembered, or `find(k)` (and then remembered). An
        answer found without its count (None) does not serve one that wants it."""
        kept = self._answers.get(q)
        if kept is not None and kept[0] >= k and (kept[1][1] is not None or not count):
            self._answers.move_to_end(q)
            answer = kept[1]
        else:
            answer = find(k)
            if answer is None:  # a shape the pruned path does not take: nothing to keep
                return None
            self._answers[q] = (k, answer)
            if len(self._answers) > KEPT:
                self._answers.popitem(last=False)
        # Copies: callers extend the list they are given.
        return answer[0][:k], answer[1]
