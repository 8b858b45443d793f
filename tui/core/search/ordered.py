"""Papers in list, name or year order, filtered, without going through all of them.

The reader's sorts and filters change a list of up to every paper in the collection,
of which a screen shows a few dozen. Each order is known beforehand (docnums, the
library's `name_order` and `year_order`), so:

- the empty query's list, filtered, is the order with the filter's papers picked out
  (few starred papers: sorted by their rank) or left out (`Skipping`: every paper but
  the few read ones, found by bisection as rows are drawn);
- a query's first `limit` matches in an order are found by walking the order over the
  matches' byte map at C speed, stopping at the `limit`-th; only those are scored.

Either way the cost follows the papers shown and the reading state, not the size of
the collection.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from itertools import compress, islice

from whoosh import query as wq

from tui.core.index.library import Library
from tui.core.index.members import Selection
from tui.core.search.filters import Restriction

TYPE_CHECKING = False  # as typing's: a cold search need not import typing (2 ms)
if TYPE_CHECKING:
    from typing import overload

Ranked = list[tuple[int, float]]


def order_of(library: Library, sort: str, rank: bool = False) -> Sequence[int]:
    """Every docnum in the order of `sort` ("list", "name" or "year"); with `rank`,
    each docnum's position in that order instead."""
    return getattr(library, f"{sort if sort in ('name', 'year') else 'list'}_"
                            f"{'rank' if rank else 'order'}")


class Skipping(Sequence[int]):
    """`base` without the items at the ascending positions `skipped`: every paper but
    a few, without copying the rest."""

    def __init__(self, base: Sequence[int], skipped: Sequence[int],
                 rank: Sequence[int]) -> None:
        """`rank`: each docnum's position in `base`."""
        self._base = base
        self._skipped = skipped
        self._rank = rank

    def __len__(self) -> int:
        return len(self._base) - len(self._skipped)

    if TYPE_CHECKING:  # for type checkers; at run time there is only the one below
        @overload
        def __getitem__(self, index: int) -> int: ...

        @overload
        def __getitem__(self, index: slice) -> Sequence[int]: ...

    def __getitem__(self, index: int | slice) -> int | Sequence[int]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if (start, stop, step) == (0, len(self), 1):
                return self
            return [self[i] for i in range(start, stop, step)]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        # The least position with `index` kept positions before it: a fixed point,
        # reached from below in as many steps as skipped runs it crosses.
        at = index
        while (moved := index + bisect_right(self._skipped, at)) != at:
            at = moved
        return self._base[at]

    def index_of(self, docnum: int) -> int | None:
        """The position of `docnum`, or None when it is skipped or not there."""
        if not 0 <= docnum < len(self._rank):
            return None
        at = self._rank[docnum]
        before = bisect_left(self._skipped, at)
        if before < len(self._skipped) and self._skipped[before] == at:
            return None
        return at - before


def listing(library: Library, sort: str, restriction: Restriction,
            ) -> tuple[Sequence[int], bool]:
    """Every paper `restriction` allows in the order of `sort`, and whether that is
    docnums ascending (list order, where no list was changed or removed since the
    index was first built: see `orders`)."""
    count = library.size  # docnums, deleted ones included; the filters give live ones
    ascending = isinstance(library.list_order, range)
    if restriction.only is not None:
        kept = [d for d in restriction.only if 0 <= d < count]
        if sort in ("name", "year"):
            return sorted(kept, key=order_of(library, sort, rank=True).__getitem__), False
        return library.in_list_order(kept), ascending
    in_list_order = ascending and sort not in ("name", "year")
    if not restriction.excluded:
        return order_of(library, sort), in_list_order
    rank = order_of(library, sort, rank=True)
    skipped = sorted(rank[d] for d in restriction.excluded if 0 <= d < count)
    return Skipping(order_of(library, sort), skipped, rank), in_list_order


def first_in_order(library: Library, q: wq.Query, sort: str, limit: int | None,
                   restriction: Restriction | None) -> tuple[Ranked, int] | None:
    """The first `limit` papers `q` matches in the order of `sort`, with their scores,
    and how many it matches (among those `restriction` allows); None for a query the
    matches cannot be found for unscored (the caller then scores every match)."""
    found = library.matching(q)
    if found is None:
        return None
    if isinstance(found, Selection) and (restriction is None or restriction.only is None):
        marks, total = found.marks, found.count
        if restriction is not None and restriction.excluded:
            marks = bytearray(marks)
            for docnum in restriction.excluded:
                if 0 <= docnum < len(marks) and marks[docnum]:
                    marks[docnum] = 0
                    total -= 1
        chosen = _first_marked(order_of(library, sort), marks, limit)
    else:
        if isinstance(found, Selection):  # and only a few papers allowed: look them up
            marks, only = found.marks, restriction.only if restriction else ()
            papers = {d for d in only or () if 0 <= d < len(marks) and marks[d]}
        else:
            papers = found
        if restriction is not None:
            papers = {d for d in papers if restriction.allows(d)}
        total = len(papers)
        ordered = library.in_list_order(list(papers)) if sort not in ("name", "year") else \
            sorted(papers, key=order_of(library, sort, rank=True).__getitem__)
        chosen = ordered[:limit]
    scores = library.evaluate(q, set(chosen))
    return [(d, scores[d]) for d in chosen], total


def _first_marked(order: Sequence[int], marks: bytes | bytearray,
                  limit: int | None) -> list[int]:
    """The first `limit` docnums of `order` whose byte in `marks` is set: lazily, at C
    speed, so a common query stops after a few thousand papers of the order."""
    flags: Iterable[int] = marks if isinstance(order, range) and order.start == 0 \
        and order.step == 1 else map(marks.__getitem__, order)
    return list(islice(compress(order, flags), limit))
