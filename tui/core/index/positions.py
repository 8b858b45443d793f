"""Where a term stands in a few papers: the word positions the index keeps.

The text field is indexed with positions (phrases need them); the scorer's arrays
(`postarrays`) leave them out, since BM25 never reads them. Proximity ranking
(`search.proximity`) wants them for the few papers it re-ranks, so they are read from
Whoosh's own postings, a segment at a time: a block is decoded only when it can hold a
wanted paper, the wanted ones are found in it by bisection, and only their positions
are decoded (`whoosh_compat.block_positions`). Positions count the index terms of
`analysis.terms`, stop words left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from whoosh.reading import TermNotFound

from tui.core.whoosh_compat import block_positions, deleted_docnums, unfiltered_postings


def read_positions(reader, fieldname: str, text: str, docnums: Iterable[int],
                   ) -> dict[int, Sequence[int]]:
    """{docnum: the term's positions, ascending} for those of `docnums` that hold it
    (deleted papers hold nothing)."""
    wanted = sorted(set(docnums))
    found: dict[int, Sequence[int]] = {}
    for leaf, base in reader.leaf_readers():
        end, dead = base + leaf.doc_count_all(), deleted_docnums(leaf)
        local = [d - base for d in wanted if base <= d < end and d - base not in dead]
        if not local:
            continue
        try:
            matcher = unfiltered_postings(leaf, fieldname, text)
        except TermNotFound:
            continue
        if not matcher.supports("positions"):
            continue
        found.update((d + base, where) for d, where in block_positions(matcher, local))
    return found


class PositionReads:
    """`positions`, read under the library's lock (a mixin of `Library`)."""

    _lock: object
    searcher: object

    def positions(self, fieldname: str, terms: Iterable[str], docnums: Iterable[int],
                  ) -> dict[str, dict[int, Sequence[int]]]:
        """Each term's positions in those of `docnums` that hold it (`read_positions`)."""
        wanted = sorted(set(docnums))
        with self._lock:  # type: ignore[attr-defined]
            reader = self.searcher.reader()  # type: ignore[attr-defined]
            return {t: read_positions(reader, fieldname, t, wanted) for t in terms}

    def length_norms(self, fieldname: str, docnums: Iterable[int]) -> dict[int, float]:
        """Each paper's BM25 length norm in `fieldname` (`norms.norms_for`): k1 for a
        paper the norms do not cover (the average length's)."""
        from tui.core.index.norms import K1

        with self._lock:  # type: ignore[attr-defined]
            norms = self.scorer.norms.get(fieldname)  # type: ignore[attr-defined]
        size = len(norms) if norms is not None else 0
        return {d: norms[d] if d < size else K1 for d in docnums}  # type: ignore[index]
