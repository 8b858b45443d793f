"""The query side of the fields structured lists add: `author:`, `year:`, `venue:`.

A range `year:2017..2019` is written out as its years before the query is parsed, since
the parser's own ranges are switched off (see `query.make_parser`); and when the words
of a query are relaxed to any-word, the fields it names stay required.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date

_RANGE = re.compile(r"(?<![\w:])year:(\d{4})?\.\.(\d{4})?(?!\w)", re.I)
EARLIEST_YEAR = 1800
"""Open ranges (`year:..2010`) start here."""
MAX_RANGE_YEARS = 400
"""A range spans at most this many years (each year is one term of the query)."""


def expand_year_ranges(text: str) -> str:
    """`year:2017..2019` as `year:(2017 OR 2018 OR 2019)`; open ends allowed."""

    def years(match: re.Match[str]) -> str:
        low = int(match.group(1) or EARLIEST_YEAR)
        high = int(match.group(2) or date.today().year + 1)
        if low > high:
            low, high = high, low
        high = min(high, low + MAX_RANGE_YEARS - 1)
        return "year:(" + " OR ".join(str(y) for y in range(low, high + 1)) + ")"

    return _RANGE.sub(years, text)


FILTER_FIELDS = frozenset({"author", "year", "venue"})
"""Fields a query names to narrow it: kept required when the words are relaxed."""


_NAMED_FILTER = r'(?<![\w:])(?:author|year|venue):(?:"[^"]*"|\([^()]*\)|[^\s()]+)'
"""Compiled by `re` at its first use: only the any-word fallback needs it."""


def loose_with_filters(text: str, parse: Callable[[str, bool], object]):
    """The any-word query for `text`, with its `author:`, `year:` and `venue:` parts
    still required; None when it names none of them.

    The any-word fallback relaxes the words, not the fields the user asked for: in
    `kernel methods year:2019`, either word may match, but only papers of 2019.
    `parse(text, group_and)` parses a query string.
    """
    from whoosh import query as wq

    named = re.findall(_NAMED_FILTER, text, re.I)
    if not named:
        return None
    required = parse(" ".join(named), True)
    rest = re.sub(_NAMED_FILTER, " ", text, flags=re.I)
    loose = parse(rest, False) if rest.strip() else None
    parts = [q for q in (required, loose) if q is not None and q is not wq.NullQuery]
    return wq.And(parts) if len(parts) > 1 else (parts[0] if parts else None)
