"""BM25 ranking over the Whoosh index, term at a time.

Whoosh's own matchers score one posting at a time through several layers of Python
calls: about 30 ms for a single common term over 21k abstracts, and over a second for a
short prefix. This module reads a term's postings whole from each segment's arrays
(`postarrays`; Whoosh's blocks, a block at a time, where a segment has none), keeps
recently used lists in memory while the library is open, and scores them at C speed
from each posting's impact, kept beside the list (`tiers`), which is an order of
magnitude faster.

Scores are per-field BM25 (k1 1.2, b 0.75, Lucene's idf), summed over fields with the
field boosts of the query. Query nodes it does not know (phrases, fuzzy terms) are
matched by Whoosh itself and then scored by their words.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence

from whoosh import query as wq

from tui.core.index.members import byte_map
from tui.core.index.norms import K1
from tui.core.index.impactfiles import StoredImpacts
from tui.core.index.tiers import Tier, impact_scores, impacts, parts, tiers
from tui.core.index.postingcache import PostingCache, Postings

Scores = dict[int, float]
TYPE_CHECKING = False  # as typing's
if TYPE_CHECKING:
    from typing import TypeVar
    T = TypeVar("T")


class Scorer:
    """Evaluates a Whoosh query tree to {docnum: score}."""

    def __init__(self, searcher, norms: Mapping[str, array], cache: PostingCache,
                 fallback_docs: Callable[[wq.Query], list[int]]) -> None:
        self._searcher = searcher
        self._reader = searcher.reader()
        self._norms = norms
        self._cache = cache
        self._docs = fallback_docs
        self._size = self._reader.doc_count_all()
        self._count = self._reader.doc_count()
        """Papers not deleted: what idf counts."""
        self._deletions = self._reader.has_deletions()
        self._live: list[int] | None = None
        self._df: dict[tuple[str, str], int] = {}
        self._stored = StoredImpacts(self._reader, norms, cache.arrays_of, cache.open_at)
        self.tie_rank: Sequence[int] | None = None
        """Each docnum's place in list order, which breaks ties between equal scores;
        None while docnums follow list order (see `reuse`)."""

    def prepare(self, fieldnames: Iterable[str]) -> None:
        """Read now what the first search scoring `fieldnames` would read first: their
        norms, and every segment's posting directory and impacts header."""
        self._stored.prepare(fieldnames)

    @property
    def norms(self) -> Mapping[str, array]:
        """Each scored field's BM25 length norm per docnum (see `norms.norms_for`)."""
        return self._norms

    def doc_frequency(self, fieldname: str, text: str) -> int:
        """How many documents have the term (remembered: each lookup seeks on disk).

        Whoosh's count includes deleted documents; with some, the term's postings
        are counted instead, so that idf is what a build of the remaining lists gives.
        """
        key = (fieldname, text)
        df = self._df.get(key)
        if df is None:
            df = self._df[key] = (len(self.postings(fieldname, text)[0]) if self._deletions
                                  else self._cache.doc_frequency(fieldname, text))
        return df

    def frequency(self, fieldname: str, text: str) -> float:
        """How often the documents hold the term (the sum of its weights); with deleted
        ones, counted from its postings, which leave them out."""
        if self._deletions:
            return float(sum(self.postings(fieldname, text)[1]))
        return self._cache.frequency(fieldname, text)

    def live(self) -> Iterable[int]:
        """Every docnum not deleted, ascending."""
        if not self._deletions:
            return range(self._size)
        if self._live is None:
            is_deleted = self._reader.is_deleted
            self._live = [d for d in range(self._size) if not is_deleted(d)]
        return self._live

    def idf(self, fieldname: str, text: str) -> float:
        """Lucene's BM25 idf, always positive."""
        df = self.doc_frequency(fieldname, text)
        return math.log(1.0 + (self._count - df + 0.5) / (df + 0.5))

    def scale(self, fieldname: str, text: str, boost: float) -> float:
        """boost × idf × (k1 + 1): a posting's score over its tf / (tf + norm)."""
        return boost * self.idf(fieldname, text) * (K1 + 1.0)

    def postings(self, fieldname: str, text: str) -> Postings:
        """The term's (docnums, term frequencies), docnums ascending."""
        return self._cache.get(fieldname, text)

    def impacts(self, fieldname: str, text: str) -> array:
        """Each posting's tf / (tf + norm) (`tiers.impacts`): read from the index where
        it holds them for today's norms (`impactfiles`), else computed; once per list."""
        stored = self._read_stored(fieldname, text)
        if stored is not None:
            return stored[0]

        def make(postings: Postings) -> tuple[array, int]:
            # The norms are read only for a list that has postings to weigh (`Norms`).
            norm = self._norms.get(fieldname) if postings[0] else None
            return impacts(postings[0], postings[1], norm), len(postings[0])  # 8 bytes each

        return self._cache.beside(fieldname, text, "impacts", make)

    def _read_stored(self, fieldname: str, text: str,
                     ) -> tuple[array, tuple[bytes, float] | None] | None:
        """The term's impacts and split as the index holds them, None where it does
        not (`StoredImpacts.get`); read once per list."""
        def make(postings: Postings) -> tuple[object, int]:
            size = len(postings[0])
            found = self._stored.get(fieldname, text, size) if size else None
            # Impacts, 8 bytes a posting, and a byte a posting for the split.
            return found, (size + size // 8 if found is not None else 0)

        return self._cache.beside(fieldname, text, "stored", make)  # type: ignore[return-value]

    def tiers(self, fieldname: str, text: str) -> list[Tier]:
        """The term's postings in parts of falling impact, each with its bound (`tiers`);
        split as the index holds them where it does."""
        def make(postings: Postings) -> tuple[list[Tier], int]:
            stored = self._read_stored(fieldname, text)
            made = (tiers(postings[0], self.impacts(fieldname, text)) if stored is None
                    else parts(postings[0], stored[0], stored[1]))
            # A split list's top part is a copy: docnums and impacts, 12 bytes each;
            # the rest's mask a byte per posting of the list.
            if len(made) < 2:
                return made, 0
            return made, len(made[0].ids) * 3 // 2 + len(postings[0]) // 8

        return self._cache.beside(fieldname, text, "tiers", make)

    def beside(self, fieldname: str, text: str, kind: str,
               make: Callable[[Postings], tuple[T, int]]) -> T:
        """What `make(postings)` derives from the term's list, kept beside it in the
        posting cache (`PostingCache.beside`): (a value, its size in postings' worth)."""
        return self._cache.beside(fieldname, text, kind, make)

    @property
    def size(self) -> int:
        """How many docnums there are (deleted papers included)."""
        return self._size

    def byte_map(self, fieldname: str, text: str) -> int:
        """The term's papers as a byte map (`members`); made for long lists, kept."""
        size = self._size
        return self._cache.beside(fieldname, text, "byte map",
                                  lambda p: (byte_map(p[0], size), size // 8))

    def term(self, fieldname: str, text: str, boost: float,
             candidates: set[int] | None = None) -> Scores:
        """BM25 scores of one term, for every document or only for `candidates`: the
        term's scale times each posting's impact, tf / (tf + norm), which is computed
        once per list and kept beside it (`impacts`), so that a list scored again (the
        same word, keystroke after keystroke) costs a product per posting at C speed."""
        ids = self.postings(fieldname, text)[0]
        if not ids:
            return {}
        return impact_scores(ids, self.impacts(fieldname, text),
                             self.scale(fieldname, text, boost), candidates)

    def cost(self, q: wq.Query) -> int:
        """About how many postings evaluating `q` reads: the order for intersections."""
        if isinstance(q, wq.Term):
            text = q.text.decode("utf-8") if isinstance(q.text, bytes) else q.text
            return self.doc_frequency(q.fieldname, text)
        if isinstance(q, wq.And):
            return min((self.cost(c) for c in q.subqueries), default=0)
        if isinstance(q, (wq.Or, wq.DisjunctionMax)):
            return sum(self.cost(c) for c in q.subqueries)
        if isinstance(q, (wq.AndNot, wq.AndMaybe)):
            return self.cost(q.a)
        return self._size

    def evaluate(self, q: wq.Query, candidates: set[int] | None = None) -> Scores:
        """Matching docnums with their scores, among `candidates` when given: a dict of
        the caller's own (never one kept), which it may change."""
        if isinstance(q, wq.Term):
            text = q.text.decode("utf-8") if isinstance(q.text, bytes) else q.text
            return self.term(q.fieldname, text, q.boost, candidates)
        if isinstance(q, wq.And):
            return self._all(q.subqueries, candidates)
        if isinstance(q, (wq.Or, wq.DisjunctionMax)):
            return self._any(q.subqueries, candidates)
        if isinstance(q, wq.AndNot):
            scores = self.evaluate(q.a, candidates)
            for docnum in self.evaluate(q.b, set(scores)):
                scores.pop(docnum, None)
            return scores
        if isinstance(q, wq.AndMaybe):
            scores = self.evaluate(q.a, candidates)
            for docnum, score in self.evaluate(q.b, set(scores)).items():
                scores[docnum] += score
            return scores
        if isinstance(q, wq.Not):
            pool = self.live() if candidates is None else candidates
            excluded = self.evaluate(q.query, None if candidates is None else set(pool))
            return {d: 0.0 for d in pool if d not in excluded}
        if q is wq.NullQuery:
            return {}
        return self._matched_by_whoosh(q, candidates)

    def _all(self, children: list[wq.Query], candidates: set[int] | None) -> Scores:
        positive = sorted((c for c in children if not isinstance(c, wq.Not)), key=self.cost)
        negative = [c.query for c in children if isinstance(c, wq.Not)]
        if not positive:
            pool = self.live() if candidates is None else candidates
            scores: Scores = {d: 0.0 for d in pool}
        else:
            # Most selective first; every later part is only scored on the survivors.
            scores = self.evaluate(positive[0], candidates)
            for child in positive[1:]:
                if not scores:
                    return {}
                part = self.evaluate(child, set(scores))
                scores = {d: s + part[d] for d, s in scores.items() if d in part}
        for child in negative:
            if not scores:
                break
            for docnum in self.evaluate(child, set(scores)):
                scores.pop(docnum, None)
        return scores

    def _any(self, children: list[wq.Query], candidates: set[int] | None = None) -> Scores:
        # The costliest part first (its dict is copied, the others folded in), by the
        # postings read, not by the size of the result: a paper's contributions must be
        # added in the same order whatever the candidates, so that scoring only the
        # `topk` survivors gives every one of them its score to the last bit.
        ordered = sorted(children, key=self.cost, reverse=True)
        parts = [self.evaluate(c, candidates) for c in ordered]
        if not parts:
            return {}
        scores = dict(parts[0])
        for other in parts[1:]:
            add_scores(scores, other)
        return scores

    def _matched_by_whoosh(self, q: wq.Query, candidates: set[int] | None) -> Scores:
        """Nodes such as phrases: Whoosh finds the documents, their words score them."""
        docs = [d for d in self._docs(q) if candidates is None or d in candidates]
        if not docs:
            return {}
        words = [wq.Term(f, t, boost=q.boost) for f, t in _plain_terms(q)]
        scored = self._any(words, set(docs)) if words else {}
        return {d: scored.get(d, q.boost) for d in docs}


def add_scores(scores: Scores, other: Scores) -> None:
    """Add `other`'s scores into `scores`: the papers new to it at C speed, the others
    one by one. Each sum is the one `scores[d] + other[d]` gives (addition of two
    floats does not depend on their order), so no score changes in the last bit."""
    common = scores.keys() & other.keys()
    if len(common) * 2 > len(other):
        get = scores.get
        for docnum, value in other.items():
            scores[docnum] = get(docnum, 0.0) + value
        return
    before = [scores[d] for d in common]
    scores.update(other)
    for docnum, value in zip(common, before):
        scores[docnum] += value


def _plain_terms(q: wq.Query) -> list[tuple[str, str]]:
    out = []
    if isinstance(q, wq.Phrase):
        return [(q.fieldname, w) for w in q.words]
    for fieldname, text in q.iter_all_terms():
        out.append((fieldname, text.decode("utf-8") if isinstance(text, bytes) else text))
    return out
