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
   `t*` costs over a second in Whoosh (see `expand`). A word of one or two letters
   expands in names and titles only, and its best papers come from a table built with
   the index (`prefixtops`).
4. With nothing found, a spelling correction that finds papers is offered and its
   results shown; failing that, a fuzzy match.

The query is compiled once, its policy chosen with it (`query.compile_query`,
`policy.policy_for`); this module runs, ranks and rescues it. What the policy leaves to
the run (when the any-word ranking fills in, how far the last word expands) is decided
in the two functions under "Policy" below.
"""

from __future__ import annotations

import re
import time
from collections.abc import Collection, Sequence

from whoosh import query as wq

from tui.core.index import prefixtops
from tui.core.index.analysis import terms
from tui.core.index.library import Library
from tui.core.index.members import Selection
from tui.core.index.topk import ranked
from tui.core.render.plain import rendered_text
from tui.core.search.expand import expand
from tui.core.search.filters import Restriction, allowed
from tui.core.search.hits import Hit, ListedHits, SearchResult
from tui.core.search.ordered import first_in_order, listing
from tui.core.search.policy import FEEDBACK_DOCS, FEEDBACK_SHARE, FEEDBACK_TERMS
from tui.core.search.proximity import RERANK, Proximity, name_head
from tui.core.search.query import (
    CompiledQuery, compile_query, positive_terms, words_query,
)
from tui.core.search.spelling import suggest

TYPE_CHECKING = False  # as typing's: a cold search need not import typing (2 ms)
if TYPE_CHECKING:
    from tui.core.state import StateStore

FALLBACK_BELOW = 10
"""Fewer all-words hits than this (or than the limit) brings in any-word ranking."""
NAMES_ONLY_PREFIX = prefixtops.UP_TO
"""A last word this short expands in names and titles only: one or two letters are
the start of a word being typed, their expansions cover most abstracts, and names and
titles are what a reader scans for at that point. Their best papers are found with the
index (`prefixtops`), so that a keystroke's search of one costs the same at any size."""
SORTS = ("relevance", "list", "name", "year")
PAIRS_UP_TO = 12
"""Index terms a query may have for proximity to re-rank it: a title has fewer. A
longer query describes a topic in a sentence or two, whose papers need not use its
words side by side (with every length, CISI's nDCG@10 fell by 0.015)."""
_SENTENCE = re.compile(r"\w ?\.(?:\s|$)")
"""A full stop after a word: the query is a sentence or more (a topic described), not
a title."""
_NOT_PLAIN = re.compile(r'["*?]|\bNOT\b|\b\w+:')
"""What makes a cleaned query more than words (`query.clean`): a phrase, a wildcard,
an exclusion, a field."""
_MAX_FUZZY_WORDS = 4


# Policy: the decisions `policy` leaves to the run, each in one place.

def _fills_in_any_word(compiled: CompiledQuery, found: int, limit: int | None) -> bool:
    """Whether the any-word ranking fills in after the `found` all-words hits."""
    return (not compiled.structured and len(compiled.words) > 1
            and found < min(limit or FALLBACK_BELOW, FALLBACK_BELOW))


def _expanded(library: Library, q: wq.Query, compiled: CompiledQuery) -> wq.Query:
    """`q` with its last typed word also a prefix (see `expand` and NAMES_ONLY_PREFIX)."""
    return expand(library, q, compiled, names_only_up_to=NAMES_ONLY_PREFIX)


def search(library: Library, query: str, limit: int | None = 20, *, typing: bool = False,
           sort: str = "relevance", within: Collection[int] | None = None,
           state: StateStore | None = None, filters: Sequence[str] = (),
           rescue: bool = True, count_up_to: int | None = None) -> SearchResult:
    """Search `library` for `query`; see the module docstring for the semantics.

    `limit=None` returns every match. `typing=True` searches as the reader does while
    the query is being typed: its last word is also a prefix. `within` restricts
    results to those docnums. `state` answers the reading-state filters `is:starred`, `is:unread`, `is:read` and
    `has:note`, those in the query and those in `filters` (the reader's own filter).
    `sort` is one of SORTS. `rescue=False` leaves a query that finds nothing without its
    spelling suggestion and close matches, which can take a few hundred milliseconds;
    `rescued` says whether they were looked for. `count_up_to=N` counts the matches
    exactly only while at most N match, else `total` is N and `exact` False: the
    reader's search on a keystroke, whose count must not grow with the library (the
    count follows exactly once typing pauses, with the full list).
    """
    started = time.perf_counter()
    compiled = compile_query(query, library.schema, typing)
    noticed = len(library.notices)

    def run() -> SearchResult:
        narrowed = None if within is None else Restriction.to(within)
        chosen = allowed(library, state, [*compiled.filters, *filters])
        if chosen is not None:
            narrowed = chosen if narrowed is None else chosen & narrowed
        return _search(library, compiled, limit, narrowed, sort, rescue, count_up_to)

    # Files damaged under the library: it reopens (or rebuilds) the index and runs again.
    result = library.guarded(run)
    result.query, result.limit = compiled.typed, limit
    result.notices = library.notices[noticed:]
    result.elapsed_ms = (time.perf_counter() - started) * 1000
    return result


def _search(library: Library, compiled: CompiledQuery, limit: int | None,
            within: Restriction | None, sort: str, rescue: bool = True,
            count_up_to: int | None = None) -> SearchResult:
    """`rescue=False` leaves a query that finds nothing without a correction or fuzzy
    match: the rescue itself searches its corrected query that way, one level only."""
    if not compiled.words:
        return _everything(library, compiled.text, limit, within, sort)
    strict = _expanded(library, compiled.strict, compiled)
    want = limit if sort == "relevance" else None
    near = _proximity(library, compiled) if sort == "relevance" else None
    if near is not None and want is not None:
        want = max(want, RERANK)  # the best RERANK are re-ranked, then cut to `limit`
    # Another order than relevance: its first `limit` matches, and only they scored.
    ordered = None if sort == "relevance" or compiled.policy.feedback else \
        first_in_order(library, strict, sort, limit, within)
    if ordered is not None and not _fills_in_any_word(compiled, ordered[1], limit):
        docs, total = ordered
    else:
        ordered = None
        docs, total = _run(library, strict, want, within, count_up_to=count_up_to)
    if ordered is None and total is not None and _fills_in_any_word(compiled, total, limit):
        loose = _expanded(library, compiled.loose, compiled)
        more, total = _run(library, loose, want, within, count_up_to=count_up_to)
        known = {d for d, _ in docs}
        starts = len(docs)
        docs += [(d, s) for d, s in more if d not in known]
        strict = loose
        if near is not None:
            near.groups = (starts,)
    result_terms = positive_terms(strict)
    result = _counted(SearchResult(compiled.text, [], 0, result_terms), total, count_up_to)
    if not docs:
        if within is not None and _matches_any(library, strict):
            return result  # the filter left nothing: no word of the query is misspelt
        if rescue:
            _rescue(library, compiled, limit, within, sort, result)
        else:
            result.rescued = False
        return result
    if compiled.policy.feedback:
        docs, total = _run(library, _with_feedback(library, compiled.loose, docs), want,
                           within, count_up_to=count_up_to)
        _counted(result, total, count_up_to)
        if near is not None:
            near.groups = ()
    if near is not None:
        docs = near.rerank(docs)
    hits = [Hit(library, d, s, result_terms) for d, s in docs]
    result.hits = hits if ordered is not None else _sorted(library, hits, sort)[:limit]
    return result


def _proximity(library: Library, compiled: CompiledQuery) -> Proximity | None:
    """The proximity re-ranking for a query of plain words (no operators, fields or
    quotes) with two to PAIRS_UP_TO terms, or a name before a colon; else None."""
    if compiled.structured or _NOT_PLAIN.search(compiled.text) or compiled.policy.feedback \
            or _SENTENCE.search(compiled.typed):
        return None
    words = terms(" ".join(compiled.words))
    if len(words) > PAIRS_UP_TO:
        words = []
    near = Proximity(library, words, name_head(compiled.typed))
    return near if near.applies else None


def _matches_any(library: Library, q: wq.Query) -> bool:
    """Whether `q` matches any paper at all, whatever the filters."""
    found = library.matching(q)
    if found is None:
        return bool(library.evaluate(q))
    return bool(found.count if isinstance(found, Selection) else found)


def _with_feedback(library: Library, q: wq.Query, ranked: list[tuple[int, float]]) -> wq.Query:
    """Pseudo-relevance feedback: `q` plus the key terms of its best results.

    A question names its topic in words the papers may not use; the papers it ranks
    first are mostly on topic and say what those words are. Whoosh picks their most
    distinctive terms (its Bo1 model, as in more-like-this). Their weights, in
    proportion to Bo1's, add up to FEEDBACK_SHARE of the weight of the question's own
    words, so the question keeps the larger say however many terms are added.
    """
    top = [library.paper(d) for d, _ in ranked[:FEEDBACK_DOCS]]
    key_terms = library.key_terms(" ".join(rendered_text(p.raw) for p in top), FEEDBACK_TERMS)
    total = sum(weight for _, weight in key_terms)
    if not key_terms or total <= 0:
        return q
    own = len({text for field, text in q.iter_all_terms() if field == "text"}) or 1
    scale = FEEDBACK_SHARE * own / total
    return wq.Or([q, *(wq.Term("text", term, boost=scale * weight) for term, weight in key_terms)])


def _everything(library: Library, query: str, limit: int | None,
                within: Restriction | None, sort: str) -> SearchResult:
    docnums, in_list_order = listing(library, sort, within or Restriction())
    hits = ListedHits(library, docnums, in_list_order=in_list_order)
    return SearchResult(query, hits[:limit], len(docnums))


EXCLUDED_FOR_TOP = 2000
"""Papers a filter may leave out (read ones, for "unread") for the best matches to be
found among the best `limit` + that many of the whole collection."""


def _counted(result: SearchResult, total: int | None, count_up_to: int | None,
             ) -> SearchResult:
    """`result` with the count `_run` gave: None is more than `count_up_to`, and so is
    any count past it, however it was found (the same query says the same)."""
    if total is None or (count_up_to is not None and total > count_up_to):
        result.total, result.exact = count_up_to or 0, False
    else:
        result.total, result.exact = total, True
    return result


def _run(library: Library, q: wq.Query, limit: int | None, within: Restriction | None,
         count: bool = True, count_up_to: int | None = None,
         ) -> tuple[list[tuple[int, float]], int | None]:
    """The top `limit` (docnum, score) pairs, best first, and the number of matches:
    None when not asked to `count` them and they were not counted on the way, or
    when more than `count_up_to` match (counted only up to it: `count_up_to`)."""
    if q is wq.NullQuery:
        return [], 0
    if limit is not None and (within is None or within.only is None):
        # Only the best `limit` are wanted: they can be found without scoring the rest.
        left_out = within.excluded if within is not None else frozenset()
        if len(left_out) <= EXCLUDED_FOR_TOP:
            found = library.top(q, limit + len(left_out), count and count_up_to is None)
            if found is not None:
                docs, total = found
                if total is None and count and count_up_to is not None:
                    total = library.count_up_to(q, count_up_to + len(left_out))
                if not left_out:
                    return docs, total
                if total is not None:
                    total -= len(library.evaluate(q, set(left_out)))
                    total = total if count_up_to is None or total <= count_up_to else None
                return [(d, s) for d, s in docs if d not in left_out][:limit], total
    if within is not None and within.only is not None:
        scores = library.evaluate(q, set(within.only))  # a few papers: score them alone
        scores = {d: s for d, s in scores.items() if within.allows(d)}
    else:
        scores = library.evaluate(q)
        if within is not None:  # a few papers left out (similar papers: the paper itself)
            for docnum in within.excluded:
                scores.pop(docnum, None)
    return ranked(scores, limit, library.tie_rank), len(scores)


def _sorted(library: Library, hits: list[Hit], sort: str) -> list[Hit]:
    if sort == "list":
        rank = library.list_rank
        return sorted(hits, key=lambda h: rank[h.docnum])
    if sort in ("name", "year"):
        rank = library.name_rank if sort == "name" else library.year_rank
        return sorted(hits, key=lambda h: rank[h.docnum])
    return hits


def _rescue(library: Library, compiled: CompiledQuery, limit: int | None,
            within: Restriction | None, sort: str, result: SearchResult) -> None:
    """Nothing matched: try a spelling correction, then fuzzy terms."""
    corrected = suggest(library, compiled)
    if corrected:
        # Not rescued again: a corrected query that is cut at the length limit can
        # lose the corrected letters and be corrected the same way without end.
        again = _search(library, compile_query(corrected, library.schema, typing=False),
                        limit, within, sort, rescue=False)
        if again.hits:
            result.hits, result.total, result.terms = again.hits, again.total, again.terms
            result.suggestion, result.fuzzy = corrected, True
            return
    clauses = []
    for word in list(dict.fromkeys(compiled.words))[:_MAX_FUZZY_WORDS]:
        for term in words_query((word,), True).all_terms() if len(word) > 3 else ():
            clauses.append(wq.FuzzyTerm("text", term[1], maxdist=1 if len(word) < 7 else 2,
                                        prefixlength=1))
    if not clauses:
        return
    fuzzy = wq.Or(clauses)
    docs, total = _run(library, fuzzy, limit, within)
    if docs:
        terms = library.existing_terms(fuzzy)
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
    result.limit = limit
    result.elapsed_ms = (time.perf_counter() - started) * 1000
    return result


def _similar(library: Library, docnum: int, limit: int | None) -> SearchResult:
    paper = library.paper(docnum)
    source = " ".join((paper.name, paper.title, rendered_text(paper.raw)))
    key_terms = library.key_terms(source, SIMILAR_TERMS)
    q = wq.Or([wq.Term("text", term, boost=weight) for term, weight in key_terms])
    # The best `limit` of the others: found as a search's are, without scoring the rest.
    others = Restriction(None, frozenset({docnum, *library.docnums_of([paper.id])}))
    # Not counted: "papers sharing any of 15 terms" is most of the library, and says
    # nothing; the list says how many it shows.
    ranked, _ = _run(library, q, limit, others, count=False)
    terms = frozenset(term for term, _ in key_terms)
    hits = [Hit(library, d, s, terms) for d, s in ranked]
    return SearchResult(f"similar:{paper.id}", hits, len(hits), terms)
