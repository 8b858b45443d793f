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

from collections import OrderedDict
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


CACHED_TERMS = 256
"""Terms whose positions are kept between searches: a query typed a letter at a time
asks again for the same words in mostly the same papers."""
CACHED_PAPERS = 1024
"""Papers a kept term remembers before it keeps only the last search's."""


class PositionReads:
    """`positions`, read under the library's lock and kept for the terms last asked for
    (a mixin of `Library`; a reopened index starts afresh)."""

    _lock: object
    searcher: object
    _kept: tuple[object, OrderedDict[tuple[str, str], dict[int, Sequence[int] | None]]]

    def positions(self, fieldname: str, terms: Iterable[str], docnums: Iterable[int],
                  ) -> dict[str, dict[int, Sequence[int]]]:
        """Each term's positions in those of `docnums` that hold it (`read_positions`)."""
        wanted = sorted(set(docnums))
        out: dict[str, dict[int, Sequence[int]]] = {}
        with self._lock:  # type: ignore[attr-defined]
            reader = self.searcher.reader()  # type: ignore[attr-defined]
            kept = getattr(self, "_kept", None)
            if kept is None or kept[0] is not reader:
                kept = self._kept = (reader, OrderedDict())
            known = kept[1]
            for term in terms:
                held = known.pop((fieldname, term), None) or {}
                missing = [d for d in wanted if d not in held]
                if missing:
                    found = read_positions(reader, fieldname, term, missing)
                    if len(held) + len(missing) > CACHED_PAPERS:
                        held = {d: held[d] for d in wanted if d in held}
                    held.update((d, found.get(d)) for d in missing)  # None: not held
                known[(fieldname, term)] = held
                if len(known) > CACHED_TERMS:
                    known.popitem(last=False)
                out[term] = {d: where for d in wanted if (where := held[d]) is not None}
        return out

    def length_norms(self, fieldname: str, docnums: Iterable[int]) -> dict[int, float]:
        """Each paper's BM25 length norm in `fieldname` (`norms.norms_for`): k1 for a
        paper the norms do not cover (the average length's)."""
        from tui.core.index.norms import K1

        with self._lock:  # type: ignore[attr-defined]
            norms = self.scorer.norms.get(fieldname)  # type: ignore[attr-defined]
        size = len(norms) if norms is not None else 0
        return {d: norms[d] if d < size else K1 for d in docnums}  # type: ignore[index]
