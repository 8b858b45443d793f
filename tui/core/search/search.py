"""The one search function: the reader, the command line and the benchmarks call it.

A query goes in; ranked hits come out with scores, matched terms and snippets.

1. An empty query lists every paper in list order.
2. Words are all required first (BM25 with boosts, over the fields the query's kind
   calls for: see `policy`). When that finds too few papers and the user wrote no
   operators, the any-word BM25 ranking fills in after them, so long natural-language
   queries still rank well. A question is also expanded by pseudo-relevance feedback.
3. While the query is being typed (`typing=True`, the reader), the last word is also a
   prefix. Expansions come from a table built with the index for 1–3 letters and from
   the term dictionary beyond that, capped to the most frequent terms: an unbounded
   `t*` costs over a second in Whoosh.
4. With nothing found, a spelling correction that finds papers is offered and its
   results shown; failing that, a fuzzy match.
"""

from __future__ import annotations

import heapq
from collections import Counter
import time
from bisect import bisect_left
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, overload

from whoosh import query as wq

from tui.core.index.analysis import stem, terms
from tui.core.index.library import Library
from tui.core.index.schema import FIELD_BOOSTS
from tui.core.index.sidefiles import PREFIX_FANOUT, SHORT_PREFIX
from tui.core.model import Paper
from tui.core.render.plain import rendered_text
from tui.core.search.filters import allowed, docnums_of, split_filters
from tui.core.search.highlight import Spans, match_spans, snippet
from tui.core.search.query import (
    ParsedQuery, analyse, last_term, to_whoosh, without_surrogates, words_query,
)
from tui.core.search.policy import FEEDBACK_DOCS, FEEDBACK_SHARE, FEEDBACK_TERMS, policy_for
from tui.core.search.spelling import suggest

if TYPE_CHECKING:
    from tui.core.state import StateStore

FALLBACK_BELOW = 10
"""Fewer all-words hits than this (or than the limit) brings in any-word ranking."""
NAMES_ONLY_PREFIX = 2
"""A last word this short expands in names and titles only: one or two letters are
the start of a word being typed, their expansions cover most abstracts, and names and
titles are what a reader scans for at that point."""
_EXPAND_SCAN = 4000
"""Stop scanning the term dictionary for a long prefix after this many terms."""
_HIGHLIGHT_FIELDS = frozenset({"name", "title", "text", "alias", "list"})
SORTS = ("relevance", "list", "name")
_MAX_FUZZY_WORDS = 4
_MAX_WILDCARD_TERMS = 32


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
        self._index: dict[int, int] | None = None
        self._made: dict[int, Hit] = {}

    def __len__(self) -> int:
        return len(self._docnums)

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
        if self._positions is not None:
            at = self._positions[docnum] if 0 <= docnum < len(self._positions) else None
            return at if at is not None and at < len(self._docnums) else None
        if isinstance(self._docnums, range):
            return self._docnums.index(docnum) if docnum in self._docnums else None
        if self._in_list_order:
            at = bisect_left(self._docnums, docnum)
            return at if at < len(self._docnums) and self._docnums[at] == docnum else None
        if self._index is None:
            self._index = {d: i for i, d in enumerate(self._docnums)}
        return self._index.get(docnum)


@dataclass
class SearchResult:
    """The answer to one query."""

    query: str
    hits: Sequence[Hit]
    total: int
    """How many papers match in all (hits may be cut at the limit)."""
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


def search(library: Library, query: str, limit: int | None = 20, *, typing: bool = False,
           sort: str = "relevance", within: Collection[int] | None = None,
           state: StateStore | None = None, rescue: bool = True) -> SearchResult:
    """Search `library` for `query`; see the module docstring for the semantics.

    `limit=None` returns every match. `typing=True` searches as the reader does while
    the query is being typed: its last word is also a prefix. `within` restricts
    results to those docnums.
    `state` answers the reading-state filters `is:starred`, `is:unread`, `is:read` and
    `has:note` in the query. `sort` is one of SORTS. `rescue=False` leaves a query that
    finds nothing without its spelling suggestion and close matches, which can take a
    few hundred milliseconds; `rescued` says whether they were looked for.
    """
    started = time.perf_counter()
    query = without_surrogates(query)
    text, names = split_filters(query)
    noticed = len(library.notices)

    def run() -> SearchResult:
        narrowed = within
        chosen = allowed(library, state, names)
        if chosen is not None:
            narrowed = chosen if within is None else chosen & set(within)
        return _search(library, text, limit, typing, narrowed, sort, rescue)

    # Files damaged under the library: it reopens (or rebuilds) the index and runs again.
    result = library.guarded(run)
    result.query = query
    result.notices = library.notices[noticed:]
    result.elapsed_ms = (time.perf_counter() - started) * 1000
    return result


def _search(library: Library, query: str, limit: int | None, typing: bool,
            within: Collection[int] | None, sort: str, rescue: bool = True) -> SearchResult:
    """`rescue=False` leaves a query that finds nothing without a correction or fuzzy
    match: the rescue itself searches its corrected query that way, one level only."""
    parsed = analyse(query, typing)
    if not parsed.words:
        return _everything(library, query, limit, within, sort)
    schema = library.schema
    policy = policy_for(query, parsed.words, typing, parsed.structured)
    fields = policy.fields
    strict = _expand(library, to_whoosh(parsed, schema, True, fields), parsed)
    want = limit if sort == "relevance" else None
    docs, total = _run(library, strict, want, within)
    if not parsed.structured and len(parsed.words) > 1 and total < min(limit or FALLBACK_BELOW,
                                                                      FALLBACK_BELOW):
        loose = _expand(library, _keep_exclusions(to_whoosh(parsed, schema, False, fields)),
                        parsed)
        more, total = _run(library, loose, want, within)
        known = {d for d, _ in docs}
        docs += [(d, s) for d, s in more if d not in known]
        strict = loose
    result_terms = positive_terms(strict)
    result = SearchResult(query, [], total, result_terms)
    if not docs:
        if rescue:
            _rescue(library, parsed, limit, within, sort, result)
        else:
            result.rescued = False
        return result
    if policy.feedback:
        loose = _keep_exclusions(to_whoosh(parsed, schema, False, fields))
        docs, total = _run(library, _with_feedback(library, loose, docs), want, within)
        result.total = total
    result.hits = _sorted(library, [Hit(library, d, s, result_terms) for d, s in docs],
                          sort)[:limit]
    return result


def _with_feedback(library: Library, q: wq.Query, ranked: list[tuple[int, float]]) -> wq.Query:
    """Pseudo-relevance feedback: `q` plus the key terms of its best results.

    A question names its topic in words the papers may not use; the papers it ranks
    first are mostly on topic and say what those words are. Whoosh picks their most
    distinctive terms (its Bo1 model, as in more-like-this). Their weights, in
    proportion to Bo1's, add up to FEEDBACK_SHARE of the weight of the question's own
    words, so the question keeps the larger say however many terms are added.
    """
    top = [library.paper(d) for d, _ in ranked[:FEEDBACK_DOCS]]
    source = " ".join(rendered_text(p.raw) for p in top)
    with library._lock:
        key_terms = library.searcher.key_terms_from_text("text", source, numterms=FEEDBACK_TERMS)
    total = sum(weight for _, weight in key_terms)
    if not key_terms or total <= 0:
        return q
    own = len({text for field, text in q.iter_all_terms() if field == "text"}) or 1
    scale = FEEDBACK_SHARE * own / total
    return wq.Or([q, *(wq.Term("text", term, boost=scale * weight) for term, weight in key_terms)])


def _keep_exclusions(q: wq.Query) -> wq.Query:
    """In an any-word query, `NOT x` must still exclude, not match everything else."""
    if not isinstance(q, wq.Or):
        return q
    negatives = [c for c in q.subqueries if isinstance(c, wq.Not)]
    if not negatives:
        return q
    positives = [c for c in q.subqueries if not isinstance(c, wq.Not)]
    if not positives:
        return wq.NullQuery
    return wq.And([wq.Or(positives), *negatives])


def _everything(library: Library, query: str, limit: int | None,
                within: Collection[int] | None, sort: str) -> SearchResult:
    docnums: Sequence[int] = range(len(library))
    if within is not None:
        docnums = sorted(d for d in within if 0 <= d < len(library))
    if sort == "name":
        order = library.name_order
        if within is not None:
            kept = _filter(within)
            order = [d for d in order if d in kept]
        named = ListedHits(library, order, in_list_order=False,
                           positions=library.name_rank if within is None else None)
        return SearchResult(query, named[:limit], len(order))
    return SearchResult(query, ListedHits(library, docnums)[:limit], len(docnums))


def _run(library: Library, q: wq.Query, limit: int | None,
         within: Collection[int] | None) -> tuple[list[tuple[int, float]], int]:
    """The top `limit` (docnum, score) pairs, best first, and the number of matches."""
    if q is wq.NullQuery:
        return [], 0
    with library._lock:
        scores = library.scorer.evaluate(q)
    if within is not None:
        allowed = _filter(within)
        scores = {d: s for d, s in scores.items() if d in allowed}
    # Both sorts are stable, so equal scores keep the scorer's (deterministic) order.
    if limit is None or limit >= len(scores):
        best = sorted(scores, key=scores.__getitem__, reverse=True)
    else:
        best = heapq.nlargest(limit, scores, key=scores.__getitem__)
    return [(d, scores[d]) for d in best], len(scores)


def _filter(within: Collection[int] | None) -> set[int] | None:
    if within is None:
        return None
    return within if isinstance(within, set) else set(within)


def _sorted(library: Library, hits: list[Hit], sort: str) -> list[Hit]:
    if sort == "list":
        return sorted(hits, key=lambda h: h.docnum)
    if sort == "name":
        rank = library.name_rank
        return sorted(hits, key=lambda h: rank[h.docnum])
    return hits


def positive_terms(q: wq.Query) -> frozenset[str]:
    """Index terms the query looks for (not those under NOT), for highlighting."""
    found: set[str] = set()

    def walk(node: wq.Query) -> None:
        if isinstance(node, wq.Not):
            return
        if isinstance(node, wq.Term) and node.fieldname in _HIGHLIGHT_FIELDS:
            text = node.text
            found.add(text.decode("utf-8") if isinstance(text, bytes) else text)
        elif isinstance(node, wq.Phrase) and node.fieldname in _HIGHLIGHT_FIELDS:
            found.update(node.words)
        for child in node.children():
            walk(child)

    walk(q)
    return frozenset(found)


def expansions(library: Library, word: str) -> list[str]:
    """Index terms that a partly typed, folded `word` may be the start of.

    The word's own stem comes first; then the most frequent terms starting with it;
    and when none do (`diffusio`), the longest term it starts with (`diffus`).
    """
    own = stem(word)
    out = [own]
    reader = library.searcher.reader()
    if len(word) <= SHORT_PREFIX:
        out += library.prefix_table.get(word, [])
    else:
        found: list[tuple[int, str]] = []
        for n, (term, info) in enumerate(reader.iter_prefix("text", word)):
            if n >= _EXPAND_SCAN:
                break
            found.append((info.doc_frequency(), term.decode("utf-8")
                          if isinstance(term, bytes) else term))
        found.sort(key=lambda c: (-c[0], c[1]))
        out += [t for _, t in found[:PREFIX_FANOUT]]
        if len(out) == 1 and reader.doc_frequency("text", own) == 0:
            for k in range(len(word) - 1, max(3, len(word) - 5), -1):
                if reader.doc_frequency("text", word[:k]):
                    out.append(word[:k])
                    break
    return list(dict.fromkeys(out))


def _expand(library: Library, q: wq.Query, parsed: ParsedQuery) -> wq.Query:
    """Make the last typed word also match as a prefix, with bounded expansion."""
    target = last_term(parsed)
    bounded: dict[str, list[str]] = {}
    # Whoosh's parser drops repeated words; a word asked for three times in a long
    # question matters more, as in BM25's query term frequency, so it is weighted back.
    repeats = Counter(terms(" ".join(parsed.words)))

    def grow(node: wq.Query) -> wq.Query:
        if isinstance(node, wq.Term) and repeats.get(node.text, 1) > 1 \
                and node.fieldname in FIELD_BOOSTS:
            node = wq.Term(node.fieldname, node.text, boost=node.boost * repeats[node.text])
        if isinstance(node, wq.Wildcard):
            return _bounded_wildcard(library, node)
        if isinstance(node, wq.Prefix):
            return _alternatives(node.fieldname, expansions(library, node.text)[1:] or [node.text],
                                 node.boost)
        if target and isinstance(node, wq.Term) and node.text == target \
                and node.fieldname in FIELD_BOOSTS:
            if node.fieldname == "alias" or (len(parsed.last_word) <= NAMES_ONLY_PREFIX
                                             and node.fieldname not in ("name", "title")):
                return node
            if target not in bounded:
                with library._lock:
                    bounded[target] = expansions(library, parsed.last_word)
            return _alternatives(node.fieldname, bounded[target], node.boost)
        return node

    with library._lock:
        return q.accept(grow)


def _bounded_wildcard(library: Library, node: wq.Wildcard) -> wq.Query:
    """A wildcard as an OR of its most frequent matching terms (Whoosh would take all)."""
    reader = library.searcher.reader()
    found = []
    for n, btext in enumerate(node._btexts(reader)):
        if n >= _EXPAND_SCAN:
            break
        text = btext.decode("utf-8") if isinstance(btext, bytes) else btext
        found.append((reader.doc_frequency(node.fieldname, text), text))
    found.sort(key=lambda c: (-c[0], c[1]))
    options = [t for _, t in found[:_MAX_WILDCARD_TERMS]]
    return _alternatives(node.fieldname, options, node.boost) if options else wq.NullQuery


def _alternatives(fieldname: str, options: list[str], boost: float) -> wq.Query:
    if len(options) == 1:
        return wq.Term(fieldname, options[0], boost=boost)
    return wq.Or([wq.Term(fieldname, t, boost=boost) for t in options])


def _rescue(library: Library, parsed: ParsedQuery, limit: int | None,
            within: Collection[int] | None, sort: str, result: SearchResult) -> None:
    """Nothing matched: try a spelling correction, then fuzzy terms."""
    with library._lock:
        corrected = suggest(library, parsed)
    if corrected:
        # Not rescued again: a corrected query that is cut at the length limit can
        # lose the corrected letters and be corrected the same way without end.
        again = _search(library, corrected, limit, False, within, sort, rescue=False)
        if again.hits:
            result.hits, result.total, result.terms = again.hits, again.total, again.terms
            result.suggestion, result.fuzzy = corrected, True
            return
    clauses = []
    for word in list(dict.fromkeys(parsed.words))[:_MAX_FUZZY_WORDS]:
        for term in words_query((word,), True).all_terms() if len(word) > 3 else ():
            clauses.append(wq.FuzzyTerm("text", term[1], maxdist=1 if len(word) < 7 else 2,
                                        prefixlength=1))
    if not clauses:
        return
    fuzzy = wq.Or(clauses)
    docs, total = _run(library, fuzzy, limit, within)
    if docs:
        with library._lock:
            terms = frozenset(t for _, t in fuzzy.existing_terms(library.searcher.reader(),
                                                                 expand=True))
        terms = frozenset(t.decode() if isinstance(t, bytes) else t for t in terms)
        result.hits = _sorted(library, [Hit(library, d, s, terms) for d, s in docs], sort)
        result.total, result.terms, result.fuzzy = total, terms, True


SIMILAR_TERMS = 15
"""How many of a paper's most distinctive terms the more-like-this query uses."""


def similar(library: Library, docnum: int, limit: int | None = 10) -> SearchResult:
    """The papers most like the one at `docnum` (Whoosh's more-like-this over the text).

    Whoosh picks the paper's most distinctive terms (the Bo1 model); the scorer then
    ranks the other papers by them. The paper itself, and copies of it in other lists,
    are left out.
    """
    started = time.perf_counter()
    result = library.guarded(lambda: _similar(library, docnum, limit))
    result.elapsed_ms = (time.perf_counter() - started) * 1000
    return result


def _similar(library: Library, docnum: int, limit: int | None) -> SearchResult:
    paper = library.paper(docnum)
    source = " ".join((paper.name, paper.title, rendered_text(paper.raw)))
    with library._lock:
        key_terms = library.searcher.key_terms_from_text("text", source, numterms=SIMILAR_TERMS)
    q = wq.Or([wq.Term("text", term, boost=weight) for term, weight in key_terms])
    ranked, total = _run(library, q, None, None)
    same = docnums_of(library, [paper.id])
    terms = frozenset(term for term, _ in key_terms)
    hits = [Hit(library, d, s, terms) for d, s in ranked if d != docnum and d not in same]
    return SearchResult(f"similar:{paper.id}", hits[:limit], len(hits), terms)
