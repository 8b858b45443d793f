"""The index terms a query's words stand for, with the papers that hold them (a mixin
of `Library`): prefixes, wildcards and fuzzy words expanded, terms only deleted papers
hold left out.
"""

from __future__ import annotations

import threading
from itertools import islice

from whoosh import query as wq

from tui.core.index.scorer import Scorer
from tui.core.index.termtable import TermTable
from tui.core.whoosh_compat import wildcard_terms


class TermLists:
    """Index terms by prefix, by wildcard and by a query's words."""

    _lock: threading.RLock
    searcher: object
    scorer: Scorer
    size: int
    text_terms: TermTable | None

    def terms_starting(self, fieldname: str, prefix: str, scan: int) -> list[tuple[str, int]]:
        """The first `scan` index terms of `fieldname` (in term order) that start with
        `prefix`, each with the number of papers that hold it; terms only deleted
        documents hold are left out. The text's are in a table (`termtable`)."""
        table = self.text_terms if fieldname == "text" else None
        if table is not None:
            return table.starting(prefix, scan)
        with self._lock:
            found = islice(self.searcher.reader().iter_prefix(fieldname, prefix), scan)
            return self._held(fieldname, [(_text(t), info.doc_frequency()) for t, info in found])

    def terms_matching(self, pattern: wq.Wildcard, scan: int) -> list[tuple[str, int]]:
        """The first `scan` index terms (in term order) that the wildcard `pattern`
        matches, each with the number of papers that hold it; terms only deleted
        documents hold are left out."""
        with self._lock:
            reader = self.searcher.reader()
            found = [_text(term) for term in islice(wildcard_terms(pattern, reader), scan)]
            return self._held(pattern.fieldname,
                              [(t, reader.doc_frequency(pattern.fieldname, t)) for t in found])

    def _held(self, fieldname: str, terms: list[tuple[str, int]]) -> list[tuple[str, int]]:
        """`terms` with their Whoosh counts, those that only deleted documents hold
        left out: a count above the deleted documents' proves a live one, any other is
        counted again from the term's postings."""
        deleted = self.size - len(self)
        if not deleted:
            return terms
        out = []
        for term, df in terms:
            if df <= deleted:
                df = self.scorer.doc_frequency(fieldname, term)
            if df:
                out.append((term, df))
        return out

    def existing_terms(self, q: wq.Query) -> frozenset[str]:
        """The index terms `q` stands for, its fuzzy and prefix terms expanded."""
        with self._lock:
            found = q.existing_terms(self.searcher.reader(), expand=True)
        return frozenset(_text(term) for _, term in found)


def _text(term: str | bytes) -> str:
    """An index term as text: Whoosh's readers give bytes."""
    return term.decode("utf-8") if isinstance(term, bytes) else term
