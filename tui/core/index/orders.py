"""The orders a library lists its papers in, and which docnums are papers at all.

Docnums follow list order, except where lists were changed or removed in a segment a
build reused (see `reuse`): the removed papers' docnums are deleted documents, and a
changed list's new papers come after the segment that held it. So the list order is
read from a side file the build writes (`sidefiles.LIST_ORDER_FILE`), like the name
order, and every order and rank here holds live docnums only; ranks are indexed by
docnum, deleted ones included.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from functools import cached_property

from tui.core.index.sidefiles import LIST_ORDER_FILE, NAME_ORDER_FILE, name_key, parse_order

ORDERS = ("list_order", "list_rank", "name_order", "name_rank", "year_order", "year_rank")
"""The cached properties below, forgotten when the index is reopened."""


def rank_in(order: Sequence[int], size: int) -> array:
    """Each docnum's position in `order` (docnums below `size`; those not in it: 0)."""
    rank = array("I", bytes(4 * size))
    for position, docnum in enumerate(order):
        rank[docnum] = position
    return rank


class Orders:
    """The list, name and year orders of a library's papers (a mixin of `Library`)."""

    searcher: object
    _lock: object
    _side_file: Callable[..., object]
    guarded: Callable[..., object]

    def __len__(self) -> int:
        raise NotImplementedError

    @property
    def size(self) -> int:
        """How many docnums there are, deleted documents included."""
        raise NotImplementedError

    @cached_property
    def list_order(self) -> Sequence[int]:
        """Every live docnum, in list order (the order the list files were given in,
        papers by position)."""
        if self.size == len(self):
            order = self._side_file(parse_order, LIST_ORDER_FILE)
            # Compared in C: this is read on the way to the reader's first screen.
            if order is None or len(order) != len(self) or \
                    order == array("I", range(len(self))):  # type: ignore[comparison-overlap]
                return range(len(self))
            return order  # type: ignore[return-value]
        order = self._side_file(parse_order, LIST_ORDER_FILE)
        if order is None or len(order) != len(self):  # do without: docnum order
            reader = self.searcher.reader()  # type: ignore[attr-defined]
            return array("I", (d for d in range(self.size) if not reader.is_deleted(d)))
        return order  # type: ignore[return-value]

    @cached_property
    def list_rank(self) -> Sequence[int]:
        """Each docnum's position in `list_order`."""
        order = self.list_order
        return order if isinstance(order, range) else rank_in(order, self.size)

    @property
    def tie_rank(self) -> Sequence[int] | None:
        """What breaks ties between equal scores: each docnum's place in list order;
        None while that is docnum order."""
        return None if isinstance(self.list_order, range) else self.list_rank

    def in_list_order(self, docnums: Sequence[int]) -> list[int]:
        """`docnums` sorted by list order."""
        if isinstance(self.list_order, range):
            return sorted(docnums)
        return sorted(docnums, key=self.list_rank.__getitem__)

    @cached_property
    def name_order(self) -> Sequence[int]:
        """Every live docnum, ordered by name (or title) and then list order: written
        with the index, so that sorting by name reads no paper."""
        order = self._side_file(parse_order, NAME_ORDER_FILE)
        if order is None or len(order) != len(self):  # do without: read every paper
            rank = self.list_rank
            papers = {d: self.paper(d) for d in self.list_order}  # type: ignore[attr-defined]
            return sorted(papers, key=lambda d: (name_key(papers[d].name, papers[d].title),
                                                 rank[d]))
        return order  # type: ignore[return-value]

    @cached_property
    def name_rank(self) -> Sequence[int]:
        """Each docnum's position in `name_order`."""
        return rank_in(self.name_order, self.size)

    @cached_property
    def year_order(self) -> Sequence[int]:
        """Every live docnum, newest year first, papers without a year last: list order
        itself when no paper has a year (paragraph lists give none), unsorted."""
        from tui.core.index.fields import year_order

        def read() -> Sequence[int]:
            with self._lock:  # type: ignore[attr-defined]
                reader = self.searcher.reader()  # type: ignore[attr-defined]
                if not _has_years(reader):
                    return self.list_order
                return year_order(reader, self.list_order, self.size)

        return self.guarded(read)  # type: ignore[return-value]

    @cached_property
    def year_rank(self) -> Sequence[int]:
        """Each docnum's position in `year_order`."""
        order = self.year_order
        return self.list_rank if order is self.list_order else rank_in(order, self.size)


def _has_years(reader: object) -> bool:
    """Whether any paper has a year: sorting 250,000 papers by a year none of them has
    would cost a tenth of a second of Python for list order."""
    if "year" not in reader.indexed_field_names():  # type: ignore[attr-defined]
        return False
    return any((term.decode() if isinstance(term, bytes) else term).isdigit()
               for term in reader.field_terms("year"))  # type: ignore[attr-defined]
