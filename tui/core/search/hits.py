"""What a search answers: hits (papers loaded on first use) and the result around them."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field

from tui.core.index.library import Library
from tui.core.model import Paper
from tui.core.render.plain import rendered_text
from tui.core.search.highlight import Spans, match_spans, snippet

TYPE_CHECKING = False  # as typing's: a cold search need not import typing (2 ms)
if TYPE_CHECKING:
    from typing import overload


class Hit:
    """One search result: a paper (loaded on first use), its score and its matches."""

    __slots__ = ("docnum", "score", "terms", "_library", "_paper")

    def __init__(self, library: Library, docnum: int, score: float,
                 terms: frozenset[str]) -> None:
        self.docnum = docnum
        self.score = score
        self.terms = terms
        """The query's positive index terms; what highlighting marks."""
        self._library = library
        self._paper: Paper | None = None

    @property
    def paper(self) -> Paper:
        """The paper, read from the index on first use."""
        if self._paper is None:
            self._paper = self._library.paper(self.docnum)
        return self._paper

    @property
    def text(self) -> str:
        """The abstract rendered as plain text."""
        return rendered_text(self.paper.raw)

    def snippet(self, width: int = 200) -> tuple[str, Spans]:
        """A short excerpt around the matches, with match spans."""
        return snippet(self.text, self.terms, width)

    def matched_terms(self) -> list[str]:
        """The words of this paper that matched, as written in it, in order."""
        seen: dict[str, None] = {}
        for source in (self.paper.name, self.paper.title, self.text):
            for start, end in match_spans(source, self.terms):
                seen.setdefault(source[start:end], None)
        return list(seen)


class ListedHits(Sequence[Hit]):
    """Unscored hits for papers in a given order, each made when first asked for.

    An empty query lists every paper; a screen shows a few dozen of them, so making
    tens of thousands of hits up front is wasted work on every cleared query.
    """

    def __init__(self, library: Library, docnums: Sequence[int], *,
                 positions: Sequence[int] | None = None, in_list_order: bool = True) -> None:
        """`docnums` in list order; or in another order (`in_list_order=False`), with
        `positions` (docnum → its position in the order that `docnums` begins) when
        the caller has it."""
        self._library = library
        self._docnums = docnums
        self._positions = positions
        self._in_list_order = in_list_order
        self._made: dict[int, Hit] = {}

    def __len__(self) -> int:
        return len(self._docnums)

    if TYPE_CHECKING:  # for type checkers; at run time there is only the one below
        @overload
        def __getitem__(self, index: int) -> Hit: ...

        @overload
        def __getitem__(self, index: slice) -> ListedHits: ...

    def __getitem__(self, index: int | slice) -> Hit | ListedHits:
        if isinstance(index, slice):
            prefix = index.start in (None, 0) and index.step in (None, 1)
            return ListedHits(self._library, self._docnums[index],
                              positions=self._positions if prefix else None,
                              in_list_order=self._in_list_order)
        docnum = self._docnums[index]
        hit = self._made.get(docnum)
        if hit is None:
            hit = self._made[docnum] = Hit(self._library, docnum, 0.0, frozenset())
        return hit

    def index_of(self, docnum: int) -> int | None:
        """The position of paper `docnum`, or None when it is not listed."""
        find = getattr(self._docnums, "index_of", None)  # an order with papers left out
        if find is not None:
            return find(docnum)
        if self._positions is not None:
            at = self._positions[docnum] if 0 <= docnum < len(self._positions) else None
            return at if at is not None and at < len(self._docnums) else None
        if isinstance(self._docnums, range):
            return self._docnums.index(docnum) if docnum in self._docnums else None
        if self._in_list_order:
            at = bisect_left(self._docnums, docnum)
            return at if at < len(self._docnums) and self._docnums[at] == docnum else None
        try:  # another order: looked for at C speed, not indexed by a dict of them all
            return self._docnums.index(docnum)
        except ValueError:
            return None


@dataclass
class SearchResult:
    """The answer to one query."""

    query: str
    hits: Sequence[Hit]
    total: int
    """How many papers match in all (hits may be cut at the limit); when not `exact`,
    more than this many do."""
    terms: frozenset[str] = frozenset()
    suggestion: str | None = None
    """A corrected query that finds papers, offered as "did you mean"."""
    fuzzy: bool = False
    """True when the hits come from the typo-tolerant fallback."""
    rescued: bool = True
    """False when nothing matched and the rescue (suggestion, close matches) was not
    tried (`search(..., rescue=False)`)."""
    elapsed_ms: float = 0.0
    notices: list[str] = field(default_factory=list)
    limit: int | None = None
    """The most hits the search was asked for (None: every match)."""
    interests: tuple[tuple[str, float], ...] = ()
    """The weighted terms a for-you ranking ranked by (`interests`); () otherwise."""
    exact: bool = True
    """False when the matches were counted only up to `total` and more match (a search
    while typing: `search(..., count_up_to=N)`)."""
