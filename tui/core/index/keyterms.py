"""A text's most distinctive terms among the abstracts (Whoosh's Bo1 model, as in
more-like-this), with deleted documents left out of the collection it weighs against.

Whoosh's own `key_terms_from_text` counts the collection from the reader's statistics,
which keep the papers of lists removed from a reused segment (see `reuse`): a term
only they hold would still count (and, its frequency among the live papers being
zero, divide by zero). With deletions, the collection is counted here from the
scorer's postings, which leave them out, so that a library answers as a build of its
remaining lists would.
"""

from __future__ import annotations

from whoosh.classify import Bo1Model, Expander

from tui.core.index.scorer import Scorer


class _LiveCollection:
    """What the expander reads of an index reader, counted over live papers only."""

    def __init__(self, reader, scorer: Scorer, papers: int) -> None:
        self.schema = reader.schema
        self._reader = reader
        self._scorer = scorer
        self._papers = papers

    def doc_count_all(self) -> int:
        return self._papers

    def field_length(self, fieldname: str) -> int:
        return self._reader.field_length(fieldname)  # Bo1 does not weigh it

    def frequency(self, fieldname: str, term: bytes) -> float:
        """How many times the live papers hold `term`."""
        return sum(self._scorer.postings(fieldname, term.decode("utf-8"))[1])

    def __contains__(self, key: tuple[str, bytes]) -> bool:
        return key in self._reader and self.frequency(*key) > 0


def key_terms(searcher, scorer: Scorer, papers: int, text: str,
              count: int) -> list[tuple[str, float]]:
    """The `count` terms of `text` most distinctive among the `papers` live abstracts,
    with their weights, as `Searcher.key_terms_from_text` gives them."""
    reader = searcher.reader()
    if not reader.has_deletions():
        return searcher.key_terms_from_text("text", text, numterms=count)
    expander = Expander(_LiveCollection(reader, scorer, papers), "text", model=Bo1Model)
    expander.add_text(text)
    return expander.expanded_terms(count, normalize=True)
