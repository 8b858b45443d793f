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
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence

from whoosh import query as wq

from tui.core.index.members import byte_map
from tui.core.index.norms import K1
from tui.core.index.tiers import Tier, impact_scores, impacts, tiers
from tui.core.index.postarrays import SegmentArrays, key_hash
from tui.core.whoosh_compat import deleted_docnums, posting_blocks, unfiltered_postings

Scores = dict[int, float]
Postings = tuple[array, array]
TYPE_CHECKING = False  # as typing's: a cold search need not import typing (2 ms)
if TYPE_CHECKING:
    from typing import TypeVar
    T = TypeVar("T")


class PostingCache:
    """Recently used posting lists, bounded by what they hold (counted in postings),
    each with what was derived from it (`beside`)."""

    def __init__(self, reader, max_postings: int = 32_000_000) -> None:
        # A posting is 8 bytes (a docnum and a frequency), so the bound is 256 MB at
        # most, with what is kept beside a list counted in: each posting's impact (a
        # posting's worth), a split list's top part (`tiers`), the byte map of a list
        # of a quarter of the papers or more (`plans`). When the lists a session keeps
        # using overflow the bound, a least recently used cache is at its worst
        # (queries typed again read every list again): the 260 queries of
        # bench/scale.py over 250k papers hold about 10M postings' worth, and the
        # bound leaves room for three times that, under the reader's memory goal.
        self._reader = reader
        self._arrays: dict[str, SegmentArrays | None] = {}
        """Each segment's arrays (`postarrays`), by segment id, opened when first read."""
        self._max = max_postings
        self._held = 0
        self._lists: OrderedDict[tuple[str, str], Postings] = OrderedDict()
        self._beside: dict[tuple[str, str], dict[str, tuple[object, int]]] = {}

    def get(self, fieldname: str, text: str) -> Postings:
        key = (fieldname, text)
        found = self._lists.get(key)
        if found is not None:
            self._lists.move_to_end(key)
            return found
        found = read_postings(self._reader, fieldname, text, self.arrays_of)
        self._lists[key] = found
        self._hold(len(found[0]))
        return found

    def doc_frequency(self, fieldname: str, text: str) -> int:
        """How many documents hold the term, deleted ones included (as Whoosh counts):
        from the segments' directories, which cost no lookup in Whoosh's term files."""
        return self._summed(fieldname, text, "count", "doc_frequency")

    def frequency(self, fieldname: str, text: str) -> float:
        """How often the documents hold the term (the sum of its weights), deleted ones
        included, as Whoosh's `frequency` gives it: from the directories too."""
        return self._summed(fieldname, text, "frequency", "frequency")

    def _summed(self, fieldname: str, text: str, ours: str, whooshs: str) -> int | float:
        """A term's statistic summed over the segments: each directory's method `ours`,
        or the segment reader's `whooshs` where there is none."""
        hashed = key_hash(fieldname, text.encode("utf-8"))
        total = 0
        for leaf, _ in self._reader.leaf_readers():
            found = self.arrays_of(leaf)
            value = getattr(found, ours)(fieldname, text, hashed) if found is not None else None
            total += getattr(leaf, whooshs)(fieldname, text) if value is None else value
        return total

    def arrays_of(self, leaf) -> SegmentArrays | None:
        """A segment reader's arrays (`postarrays`), None when it has none."""
        segment_id = leaf.segment().segment_id()
        if segment_id not in self._arrays:
            self._arrays[segment_id] = SegmentArrays.open(leaf.storage(), segment_id)
        return self._arrays[segment_id]

    def beside(self, fieldname: str, text: str, kind: str,
               make: Callable[[Postings], tuple[T, int]]) -> T:
        """What `make(postings)` gives of the term's list: (a value, what it holds in
        postings' worth of memory); made once per `kind`, kept beside the list and
        forgotten with it."""
        key = (fieldname, text)
        postings = self.get(fieldname, text)
        derived = self._beside.setdefault(key, {})
        found = derived.get(kind)
        if found is None:
            found = derived[kind] = make(postings)
            self._hold(found[1])
        return found[0]  # type: ignore[return-value]

    def _hold(self, count: int) -> None:
        """Count `count` more postings' worth held; forget the least recently used
        lists while over the bound (never the last one used)."""
        self._held += count
        while self._held > self._max and len(self._lists) > 1:
            gone, (ids, _) = self._lists.popitem(last=False)
            self._held -= len(ids) + sum(c for _, c in self._beside.pop(gone, {}).values())


def read_postings(reader, fieldname: str, text: str,
                  arrays: Callable[[object], SegmentArrays | None] = lambda leaf: None,
                  ) -> Postings:
    """All (docnums, term frequencies) of a term, across segments, as arrays; deleted
    documents (of lists removed from a reused segment) left out. `arrays` gives a
    segment reader's arrays (`postarrays`), read in place of Whoosh's blocks."""
    ids, weights = array("i"), array("f")
    hashed = key_hash(fieldname, text.encode("utf-8"))  # once for every segment
    for leaf, base in reader.leaf_readers():
        found = arrays(leaf)
        whole = found.postings(fieldname, text, base, hashed) if found is not None else None
        if whole is not None:
            if not whole[0]:
                continue
            blocks: Iterable[tuple[array, Sequence[float]]] = [whole]
        elif (fieldname, text) in leaf:
            # Block access: the leaf matcher decodes a whole block of ids and weights.
            blocks = posting_blocks(unfiltered_postings(leaf, fieldname, text), base)
        else:
            continue
        deleted = deleted_docnums(leaf)
        low, high = (min(deleted) + base, max(deleted) + base) if deleted else (0, -1)
        try:
            for block, block_weights in blocks:
                # Deleted documents are whole lists, so most blocks lie outside their
                # span and are taken as they are.
                if deleted and block and block[0] <= high and block[-1] >= low:
                    kept = [(d, w) for d, w in zip(block, block_weights)
                            if d - base not in deleted]
                    block = array("i", [d for d, _ in kept])
                    block_weights = [w for _, w in kept]
                ids.extend(block)
                weights.extend(block_weights)
        except AttributeError:
            # Another codec: the slower public API gives the same answer.
            for docnum, weight in leaf.postings(fieldname, text).items_as("weight"):
                ids.append(docnum + base)
                weights.append(weight)
    return ids, weights


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
        self.tie_rank: Sequence[int] | None = None
        """Each docnum's place in list order, which breaks ties between equal scores;
        None while docnums follow list order (see `reuse`)."""

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
        """Each posting's tf / (tf + norm) (`tiers.impacts`), computed once per list."""
        def make(postings: Postings) -> tuple[array, int]:
            # The norms are read only for a list that has postings to weigh (`Norms`).
            norm = self._norms.get(fieldname) if postings[0] else None
            return impacts(postings[0], postings[1], norm), len(postings[0])  # 8 bytes each

        return self._cache.beside(fieldname, text, "impacts", make)

    def tiers(self, fieldname: str, text: str) -> list[Tier]:
        """The term's postings in parts of falling impact, each with its bound (`tiers`)."""
        def make(postings: Postings) -> tuple[list[Tier], int]:
            made = tiers(postings[0], self.impacts(fieldname, text))
            # A split list's top part is a copy: docnums and impacts, 12 bytes each;
            # the rest's mask a byte per posting of the list.
            if len(made) < 2:
                return made, 0
            return made, len(made[0].ids) * 3 // 2 + len(postings[0]) // 8

        return self._cache.beside(fieldname, text, "tiers", make)

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
        """Matching docnums with their scores, among `candidates` when given."""
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
