"""Papers ranked by a set of papers: "for you", from what the reader starred.

The starred papers become one weighted query that the pruned top-k scorer answers like
any search (BM25 over the abstracts). Each starred paper weighs its own terms, tf
damped (1 + log tf) and idf softened (its square root: BM25 weighs idf again on the
paper's side), normalized so that a long abstract counts as much as a short one; the
weights are summed over the starred papers and scaled by the cube of the share of them
that hold the term. What the starred papers have in common leads: five papers on graph
kernels share "graph" and "kernel", not each other's datasets. A paper's detail can
show which of those terms made it rank high (`reasons`).

Papers marked *not interested* work the other way: their terms make a second query,
and a paper that answers it well is pushed down by how well it answers, so a disliked
paper and those like it fall below the ones that only share its topic.

`bench/interests.py` measures it beside the ranking that paper-recommendation sites ship (a linear SVM
over tf-idf) and a Rocchio centroid.
"""

from __future__ import annotations

import math
import threading
import time
from collections import Counter, OrderedDict, defaultdict
from collections.abc import Callable, Collection, Sequence
from weakref import WeakKeyDictionary

from whoosh import query as wq

from tui.core.index.analysis import iter_words, stem
from tui.core.index.analysis import terms as terms_of
from tui.core.index.keyterms import FIELD
from tui.core.index.library import Library
from tui.core.index.topk import ranked
from tui.core.render.plain import rendered_text
from tui.core.search.hits import Hit, SearchResult

TYPE_CHECKING = False  # as typing's
if TYPE_CHECKING:
    from tui.core.model import Paper

QUERY_TERMS = 60
"""The query's terms: the heaviest of the liked papers' terms summed."""
SHARED_POWER = 3
"""A term's summed weight is scaled by (share of liked papers holding it) ** this."""
COMMON_SHARE = 0.5
"""Terms that more than this share of all papers hold say nothing of a topic."""
DISLIKE_TERMS = 30
"""The terms of the not-interested papers' query."""
DISLIKE_WEIGHT = 0.6
"""How far a paper is pushed down: this share of its best disliked-query score,
scaled to the liked query's best score."""
REASONS = 5
"""The words shown for why a paper ranks high."""
MARKED = 20
"""The query's heaviest terms, which the hits mark (snippets, detail): all sixty would
mark half of every abstract, and finding them in a row's text is most of the time of
drawing the list's first screen."""
PAPERS_KEPT = 4096
"""Papers whose own term weights (`paper_terms`) are kept, per library: a re-rank after
a star weighs every starred paper again, and analysing an abstract costs about a
millisecond, so a reader with a hundred stars would pay a tenth of a second a star."""

_kept: WeakKeyDictionary[Library, tuple[int, OrderedDict[int, dict[str, float]]]] = \
    WeakKeyDictionary()
_kept_lock = threading.Lock()  # the reader weighs papers in two workers


def paper_terms(library: Library, docnum: int) -> dict[str, float]:
    """The terms of the paper at `docnum` that may say what it is about (held by at
    most `COMMON_SHARE` of the papers), each weighted by damped tf and softened idf,
    normalized to unit length (see the module's docstring). Kept for the last
    `PAPERS_KEPT` papers asked for, until the library's index is reopened."""
    with _kept_lock:
        generation, kept = _kept.get(library, (None, None))
        if kept is None or generation != library.generation:
            kept = OrderedDict()
            _kept[library] = (library.generation, kept)
        found = kept.get(docnum)
        if found is not None:
            kept.move_to_end(docnum)
            return found
    papers = len(library)
    weights = {}
    for term, tf in Counter(terms_of(_source(library.paper(docnum)))).items():
        df = library.doc_frequency(FIELD, term)
        if 0 < df <= COMMON_SHARE * papers:
            weights[term] = (1 + math.log(tf)) * math.sqrt(math.log(papers / df))
    norm = math.sqrt(sum(w * w for w in weights.values())) or 1.0
    found = {term: weight / norm for term, weight in weights.items()}
    with _kept_lock:
        kept[docnum] = found
        while len(kept) > PAPERS_KEPT:
            kept.popitem(last=False)
    return found


def interest_terms(library: Library, docnums: Sequence[int],
                   count: int = QUERY_TERMS) -> list[tuple[str, float]]:
    """The terms that best say what the papers at `docnums` share, with their weights
    (see the module's docstring); best first, ties by term."""
    summed: defaultdict[str, float] = defaultdict(float)
    held: Counter[str] = Counter()
    for docnum in docnums:
        for term, weight in paper_terms(library, docnum).items():
            summed[term] += weight
            held[term] += 1
    scored = ((term, weight * (held[term] / len(docnums)) ** SHARED_POWER)
              for term, weight in summed.items())
    return sorted(scored, key=lambda item: (-item[1], item[0]))[:count]


def read_ahead_interests(library: Library, liked: Sequence[int],
                         cancelled: Callable[[], bool] = lambda: False) -> int:
    """Read into the posting cache the lists of the for-you query of the papers at
    `liked` (`interest_terms`), numpy (which adds them, `dense`) imported: what ranking
    by them reads. Reading a term's long list for the first time is most of a ranking's
    time (40 to 100 ms for a star's new terms at 250,000 papers), so the reader calls
    this as it opens, and for the stars a key may soon make (the selected paper's). The
    lists are then added whole (`dense.sums`, which keeps the sums for the ranking).
    The lists read."""
    import numpy  # noqa: F401  (a tenth of a second, off the first ranking)

    terms = interest_terms(library, liked) if liked else []
    done = library.read_lists([(FIELD, term) for term, _ in terms], cancelled)
    if terms and not cancelled():  # and the sums, which the ranking takes as they are
        library.dense_sums(_query(terms))
    return done


def _source(paper: Paper) -> str:
    """What a paper's terms are read from: its name, title and abstract as shown."""
    return " ".join((paper.name, paper.title, rendered_text(paper.raw)))


def for_you(library: Library, liked: Sequence[int], disliked: Sequence[int] = (),
            limit: int | None = 100, among: Collection[int] | None = None,
            terms: list[tuple[str, float]] | None = None) -> SearchResult:
    """The papers most like the `liked` ones together, best first, less the liked and
    disliked papers themselves (and their copies in other lists), `among` these
    docnums when given. Papers like the `disliked` ones are pushed down. `terms` are
    the liked papers' `interest_terms`, when the caller has them already."""
    started = time.perf_counter()
    result = library.guarded(
        lambda: _for_you(library, liked, disliked, limit, among, terms))
    result.limit = limit
    result.elapsed_ms = (time.perf_counter() - started) * 1000
    return result


def _for_you(library: Library, liked: Sequence[int], disliked: Sequence[int],
             limit: int | None, among: Collection[int] | None,
             terms: list[tuple[str, float]] | None) -> SearchResult:
    label = f"for-you:{len(liked)}"
    if terms is None:
        terms = interest_terms(library, liked)
    if not terms:
        return SearchResult(label, [], 0, frozenset())
    papers = [library.paper(d).id for d in (*liked, *disliked)]
    left_out = frozenset({*liked, *disliked, *library.docnums_of(papers)})
    wanted = None if limit is None else limit + (0 if not disliked else max(limit, 50))
    # Sixty terms of like weight, many of them common: pruning would skip little, so
    # every list is added whole (`dense`).
    found = library.dense_top(_query(terms), wanted, among, left_out)
    if disliked and found:
        found = _pushed_down(library, found, disliked)
    if limit is not None:
        found = found[:limit]
    used = frozenset(term for term, _ in terms[:MARKED])
    hits = [Hit(library, d, s, used) for d, s in found]
    return SearchResult(label, hits, len(hits), used, interests=tuple(terms))


def _query(terms: list[tuple[str, float]]) -> list[tuple[str, str, float]]:
    """The for-you query of `interest_terms` as `dense` takes it: (field, term, weight)."""
    return [(FIELD, term, weight) for term, weight in terms]


def reorder(library: Library, result: SearchResult, liked: Sequence[int],
            disliked: Sequence[int] = ()) -> SearchResult:
    """A query's listed hits in for-you order: those like the `liked` papers first,
    best first; then the others as the query ranked them (the liked papers among
    them); the `disliked` papers last. The query's hits are all kept, and its total
    and matched terms."""
    listed = [h.docnum for h in result.hits]
    ranked_part = for_you(library, liked, disliked, None, listed)
    first = {h.docnum for h in ranked_part.hits}
    pushed = set(disliked)
    rest = [h for h in result.hits if h.docnum not in first and h.docnum not in pushed]
    last = [h for h in result.hits if h.docnum in pushed]
    hits = [Hit(library, h.docnum, h.score, result.terms) for h in ranked_part.hits]
    return SearchResult(result.query, [*hits, *rest, *last], result.total, result.terms,
                        elapsed_ms=result.elapsed_ms + ranked_part.elapsed_ms,
                        limit=result.limit, interests=ranked_part.interests,
                        exact=result.exact)


def _pushed_down(library: Library, found: list[tuple[int, float]],
                 disliked: Sequence[int]) -> list[tuple[int, float]]:
    """`found` re-ranked: each score less its share of the disliked query's score."""
    terms = interest_terms(library, disliked, count=DISLIKE_TERMS)
    if not terms:
        return found
    q = wq.Or([wq.Term("text", term, boost=weight) for term, weight in terms])
    against = library.evaluate(q, {d for d, _ in found})
    if not against:
        return found
    scale = DISLIKE_WEIGHT * found[0][1] / max(against.values())
    rescored = {d: s - scale * against.get(d, 0.0) for d, s in found}
    return ranked(rescored, None, library.tie_rank)


def reasons(library: Library, terms: list[tuple[str, float]], docnum: int,
            count: int = REASONS) -> list[str]:
    """The few words that made the paper at `docnum` rank high for the interest
    `terms`: the terms it holds, heaviest first (a term's weight in the query times
    its weight among the paper's own distinctive terms), each as the paper writes it."""
    weights = dict(terms)
    source = _source(library.paper(docnum))
    own = library.key_terms(source, 200)
    scored = sorted(((weights[t] * w, t) for t, w in own if t in weights),
                    key=lambda pair: (-pair[0], pair[1]))
    written = _written(source)
    return [written.get(term, term) for _, term in scored[:count]]


def _written(text: str) -> dict[str, str]:
    """Each index term of `text` → the word it is first written as there (lower case
    when only its first letter was upper case: the start of a sentence)."""
    out: dict[str, str] = {}
    for word, start, end in iter_words(text):
        written = text[start:end]
        if written[:1].isupper() and written[1:].islower():
            written = written.lower()
        out.setdefault(stem(word), written)
    return out
