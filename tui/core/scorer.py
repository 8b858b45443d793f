"""BM25 ranking over the Whoosh index, term at a time.

Whoosh's own matchers score one posting at a time through several layers of Python
calls: about 30 ms for a single common term over 21k abstracts, and over a second for a
short prefix. This module reads a term's postings block by block (ids and term
frequencies come back as arrays), keeps recently used lists in memory while the library
is open, and scores them in one tight loop, which is an order of magnitude faster.

Scores are per-field BM25 (k1 1.2, b 0.75, Lucene's idf), summed over fields with the
field boosts of the query. Query nodes it does not know (phrases, fuzzy terms) are
matched by Whoosh itself and then scored by their words.
"""

from __future__ import annotations

import math
from array import array
from collections import OrderedDict
from collections.abc import Callable

from whoosh import query as wq

K1 = 1.2
B = 0.75

Scores = dict[int, float]
Postings = tuple[array, array]


class PostingCache:
    """Recently used posting lists, bounded by the number of postings held."""

    def __init__(self, reader, max_postings: int = 4_000_000) -> None:
        self._reader = reader
        self._max = max_postings
        self._held = 0
        self._lists: OrderedDict[tuple[str, str], Postings] = OrderedDict()

    def get(self, fieldname: str, text: str) -> Postings:
        key = (fieldname, text)
        found = self._lists.get(key)
        if found is not None:
            self._lists.move_to_end(key)
            return found
        found = read_postings(self._reader, fieldname, text)
        self._lists[key] = found
        self._held += len(found[0])
        while self._held > self._max and len(self._lists) > 1:
            _, (ids, _) = self._lists.popitem(last=False)
            self._held -= len(ids)
        return found


def read_postings(reader, fieldname: str, text: str) -> Postings:
    """All (docnums, term frequencies) of a term, across segments, as arrays."""
    ids, weights = array("i"), array("f")
    for leaf, base in reader.leaf_readers():
        if (fieldname, text) not in leaf:
            continue
        matcher = leaf.postings(fieldname, text)
        try:
            # Block access: the leaf matcher decodes a whole block of ids and weights.
            while matcher.is_active():
                matcher._read_ids()
                matcher._read_weights()
                block = matcher._ids
                ids.extend([d + base for d in block] if base else block)
                weights.extend(matcher._weights)
                matcher._next_block()
        except AttributeError:
            # Another codec: the slower public API gives the same answer.
            for docnum, weight in matcher.items_as("weight"):
                ids.append(docnum + base)
                weights.append(weight)
    return ids, weights


class Scorer:
    """Evaluates a Whoosh query tree to {docnum: score}."""

    def __init__(self, searcher, norms: dict[str, array], cache: PostingCache,
                 fallback_docs: Callable[[wq.Query], list[int]]) -> None:
        self._searcher = searcher
        self._reader = searcher.reader()
        self._norms = norms
        self._cache = cache
        self._docs = fallback_docs
        self._count = self._reader.doc_count_all()

    def idf(self, fieldname: str, text: str) -> float:
        """Lucene's BM25 idf, always positive."""
        df = self._reader.doc_frequency(fieldname, text)
        return math.log(1.0 + (self._count - df + 0.5) / (df + 0.5))

    def term(self, fieldname: str, text: str, boost: float) -> Scores:
        ids, tfs = self._cache.get(fieldname, text)
        if not ids:
            return {}
        norm = self._norms.get(fieldname)
        scale = boost * self.idf(fieldname, text) * (K1 + 1.0)
        if norm is None:
            return {d: scale * tf / (tf + K1) for d, tf in zip(ids, tfs)}
        return {d: scale * tf / (tf + norm[d]) for d, tf in zip(ids, tfs)}

    def evaluate(self, q: wq.Query) -> Scores:
        """Matching docnums with their scores."""
        if isinstance(q, wq.Term):
            text = q.text.decode("utf-8") if isinstance(q.text, bytes) else q.text
            return self.term(q.fieldname, text, q.boost)
        if isinstance(q, wq.And):
            return self._all(q.subqueries)
        if isinstance(q, (wq.Or, wq.DisjunctionMax)):
            return self._any(q.subqueries)
        if isinstance(q, wq.AndNot):
            scores = self.evaluate(q.a)
            for docnum in self.evaluate(q.b):
                scores.pop(docnum, None)
            return scores
        if isinstance(q, wq.AndMaybe):
            scores = self.evaluate(q.a)
            for docnum, score in self.evaluate(q.b).items():
                if docnum in scores:
                    scores[docnum] += score
            return scores
        if isinstance(q, wq.Not):
            excluded = self.evaluate(q.query)
            return {d: 0.0 for d in range(self._count) if d not in excluded}
        if q is wq.NullQuery:
            return {}
        return self._matched_by_whoosh(q)

    def _all(self, children: list[wq.Query]) -> Scores:
        positive = [c for c in children if not isinstance(c, wq.Not)]
        negative = [c.query for c in children if isinstance(c, wq.Not)]
        if not positive:
            scores: Scores = {d: 0.0 for d in range(self._count)}
        else:
            parts = sorted((self.evaluate(c) for c in positive), key=len)
            scores = parts[0]
            for other in parts[1:]:
                scores = {d: s + other[d] for d, s in scores.items() if d in other}
                if not scores:
                    return {}
        for child in negative:
            for docnum in self.evaluate(child):
                scores.pop(docnum, None)
        return scores

    def _any(self, children: list[wq.Query]) -> Scores:
        parts = sorted((self.evaluate(c) for c in children), key=len, reverse=True)
        if not parts:
            return {}
        scores = dict(parts[0])
        get = scores.get
        for other in parts[1:]:
            for docnum, score in other.items():
                scores[docnum] = get(docnum, 0.0) + score
        return scores

    def _matched_by_whoosh(self, q: wq.Query) -> Scores:
        """Nodes such as phrases: Whoosh finds the documents, their words score them."""
        docs = self._docs(q)
        if not docs:
            return {}
        words = [wq.Term(f, t, boost=q.boost) for f, t in _plain_terms(q)]
        scored = self._any(words) if words else {}
        return {d: scored.get(d, q.boost) for d in docs}


def _plain_terms(q: wq.Query) -> list[tuple[str, str]]:
    out = []
    if isinstance(q, wq.Phrase):
        return [(q.fieldname, w) for w in q.words]
    for fieldname, text in q.iter_all_terms():
        out.append((fieldname, text.decode("utf-8") if isinstance(text, bytes) else text))
    return out


def norms_for(lengths: array, k1: float = K1, b: float = B) -> array:
    """Per-document BM25 length normalisation: k1 × (1 − b + b × length / average)."""
    if not lengths:
        return array("f")
    average = (sum(lengths) / len(lengths)) or 1.0
    return array("f", (k1 * (1.0 - b + b * n / average) for n in lengths))
