"""The year order without sorting every paper when no paper has a year.

`fields.year_order` sorts every docnum by its year: about a tenth of a second of
Python at 250,000 papers, the first time the reader sorts by year. Paragraph lists
give no years, and then the year order is list order itself: a `range`, which is also
its own rank. (Kept apart from `fields`, whose code decides what the index holds.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tui.core.index import fields

if TYPE_CHECKING:
    from whoosh.reading import IndexReader


def year_order(reader: IndexReader, count: int) -> Sequence[int]:
    """`fields.year_order`; list order (a range) when no paper has a year."""
    has_years = "year" in reader.indexed_field_names() and any(
        (term.decode() if isinstance(term, bytes) else term).isdigit()
        for term in reader.field_terms("year"))
    return fields.year_order(reader, count) if has_years else range(count)


def rank_of(order: Sequence[int]) -> Sequence[int]:
    """Each docnum's position in `order`: list order is its own."""
    if isinstance(order, range) and order.start == 0 and order.step == 1:
        return order
    return fields.rank_of(order)
