"""Queries of many long lists, their postings added whole at C speed.

The pruned top-k (`topk`) finds a typed query's best papers while scoring a small share
of its postings: a few terms, one or two of them rare, whose bounds let the long lists
be looked up for a few papers. A query made of sixty terms of like weight (the papers a
reader starred, `search.interests`) gives pruning nothing to skip: at 250,000 papers it
scores millions of postings one dict entry at a time, seconds of work. Here each term's
postings are added into one array of a score per docnum instead: its impacts (kept
beside the list, `tiers`) times its scale, added at the docnums of its postings, a few
nanoseconds a posting (numpy, imported when first needed: start-up never pays for it).

Every term's postings hold each docnum once, so the addition per term is a plain
indexed add; the terms are added in the order given, so equal papers get equal sums.
A score is the same BM25 sum the scorer gives (`Scorer.evaluate`), in another order of
addition: equal up to rounding (a relative 1e-15 or so).

The same goes for the queries `topk` prunes (`plan_top`), once they have enough
postings (`topk.DENSE_FROM`): a common word typed, or a short prefix's expansions in
five fields, at 250,000 papers, leave MaxScore tens of thousands of papers alive to look
up one by one. Each group of the plan is added into an array; a conjunction keeps only
the papers of its first groups (its head, kept for the next keystroke, which mostly
changes the last word alone), where the last group is added, or looked up by bisection
when they are few; the exclusions are dropped. The papers that may be among the k best
(with a margin far wider than the rounding, as `topk` keeps) are then scored by the
scorer itself, so that the hits, their scores to the last bit and their order are those
of the exhaustive path, and the number of matches is exact. Nothing here passes over
every docnum but the zeroed arrays and, for a disjunction, finding its nonzero sums.
"""

from __future__ import annotations

import threading
from array import array
from collections import OrderedDict
from collections.abc import Callable, Collection, Sequence
from weakref import WeakKeyDictionary

from whoosh import query as wq

from tui.core.index.plans import Plan, terms_of, text_of
from tui.core.index.ranking import Ranked, ranked
from tui.core.index.scorer import Scorer

TYPE_CHECKING = False  # as typing's
if TYPE_CHECKING:
    from typing import TypeVar

    import numpy as np
    T = TypeVar("T")

Term = tuple[str, str, float]
"""(field name, index term, boost)."""
KEPT_SUMS = 3
"""Sets of terms whose sums (`sums`) are kept, per scorer: 8 bytes a docnum each (2 MB
at 250,000 papers)."""
_sums: WeakKeyDictionary[Scorer, OrderedDict[tuple[Term, ...], np.ndarray]] = \
    WeakKeyDictionary()
_heads: WeakKeyDictionary[Scorer, OrderedDict[tuple[tuple[wq.Query, ...], ...],
                                               tuple[np.ndarray, np.ndarray]]] = \
    WeakKeyDictionary()
KEPT_HEADS = 2
"""Conjunctions' heads (`_head`) kept, per scorer: 8 bytes a docnum each and 8 a match
(4 MB at 250,000 papers). A query typed needs one at a time."""
LOOK_UP_SHARE = 1 / 16
"""A conjunction's last group is looked up at its head's papers, by bisection, when
they number under this share of the group's postings; else its lists are added whole."""
_sums_lock = threading.Lock()  # the reader ranks in one worker and reads ahead in another
MARGIN = 4e-9
"""Relative slack when choosing the papers the scorer scores again: every paper whose
sum here is within it of the k-th best (sums of float64 terms in two orders differ by
far less)."""


def sums(scorer: Scorer, terms: Sequence[Term]) -> np.ndarray:
    """Each docnum's summed BM25 score for `terms` (0 for a paper matching none), kept
    for the last `KEPT_SUMS` sets of terms asked for (read only: never change it).

    A ranking asked for again (the for-you order after a star that the reader read
    ahead, `interests.read_ahead_interests`) then costs only choosing its best."""
    import numpy as np

    def make() -> np.ndarray:
        total = np.zeros(scorer.size)
        for fieldname, text, boost in terms:
            _add(total, scorer, fieldname, text, boost)
        total.flags.writeable = False
        return total

    return _kept(_sums, scorer, tuple(terms), KEPT_SUMS, make)


def _kept(store: WeakKeyDictionary, scorer: Scorer, key: object, limit: int,
          make: Callable[[], T]) -> T:
    """`store`'s value for (`scorer`, `key`), made by `make()` when it has none, and kept
    for the last `limit` keys asked for."""
    with _sums_lock:
        kept = store.setdefault(scorer, OrderedDict())
        found = kept.get(key)
        if found is not None:
            kept.move_to_end(key)
            return found
    made = make()
    with _sums_lock:
        kept[key] = made
        while len(kept) > limit:
            kept.popitem(last=False)
    return made


def scores(scorer: Scorer, terms: Sequence[Term], among: Collection[int] | None = None,
           excluded: Collection[int] = ()) -> np.ndarray:
    """Each docnum's summed BM25 score for `terms` (0 for a paper matching none), only
    for the docnums `among` when given, 0 for those `excluded` (`sums`, or a copy)."""
    import numpy as np

    total = sums(scorer, terms)
    if among is None and not excluded:
        return total
    total = total.copy()
    if among is not None:
        kept = np.zeros(scorer.size, dtype=bool)
        kept[np.fromiter(among, dtype=np.int64, count=len(among))] = True
        total *= kept
    if excluded:
        total[np.fromiter(excluded, dtype=np.int64, count=len(excluded))] = 0.0
    return total


def top(scorer: Scorer, terms: Sequence[Term], k: int | None,
        among: Collection[int] | None = None, excluded: Collection[int] = ()) -> Ranked:
    """The best `k` (all when None) (docnum, score) pairs of `scores`: score descending,
    equal scores in list order (`ranked`'s order), papers matching no term left out."""
    import numpy as np

    if k is not None and k <= 0:
        return []
    total = scores(scorer, terms, among, excluded)
    matched = np.flatnonzero(total > 0)
    best = _best(total[matched], matched, k, 0.0)  # and every paper tied with the k-th
    return ranked(dict(zip(best.tolist(), total[best].tolist())), k, scorer.tie_rank)


def plan_top(scorer: Scorer, plan: Plan, q: wq.Query, k: int, count: bool,
             ) -> tuple[Ranked, int | None] | None:
    """`topk.top`'s answer for `q` (whose plan is `plan`): the best `k` as the
    exhaustive scorer ranks them, and the number of matches (None for a disjunction
    not asked to `count` them, as `topk` gives it); None when an exclusion is not
    made of terms."""
    import numpy as np

    excluded = [terms_of(query) for query in plan.excluded]
    if any(units is None for units in excluded):
        return None
    if not plan.groups:
        return None
    *heads, last = plan.groups
    if heads:  # a paper must match every group: only the head's papers can
        head, docs = _head(scorer, heads)
        part = _group(scorer, last, docs if len(docs) < LOOK_UP_SHARE * _size(scorer, last)
                      else None)[docs]
        values = head[docs] + part
        values *= part > 0
    else:
        total = _group(scorer, last)
        docs = np.flatnonzero(total > 0)  # on booleans: five times faster than on floats
        values = total[docs]
    for units in excluded:
        dropped = np.zeros(scorer.size, dtype=bool)
        for unit in units:  # type: ignore[union-attr]
            if isinstance(unit, wq.And):
                found = scorer.evaluate(unit)
                dropped[np.fromiter(found, dtype=np.int64, count=len(found))] = True
            elif ids := scorer.postings(unit.fieldname, text_of(unit))[0]:
                dropped[np.frombuffer(ids, dtype=ids.typecode)] = True
        values[dropped[docs]] = 0.0
    held = values > 0
    docs, values = docs[held], values[held]
    best = _best(values, docs, k, MARGIN)
    matched = len(docs) if count or heads or plan.excluded else None
    found = scorer.evaluate(q, set(best.tolist()))
    return ranked(found, k, scorer.tie_rank), matched


def _group(scorer: Scorer, group: Sequence[wq.Query], among: np.ndarray | None = None,
           ) -> np.ndarray:
    """Each docnum's sum of the group's scores (0 for a paper matching none of it); with
    `among` (docnums, ascending), right only there: the group's plain terms are added
    at those docnums alone, for a conjunction that drops every other paper."""
    import numpy as np

    part = np.zeros(scorer.size)
    for unit in group:
        if isinstance(unit, wq.And):  # a hyphenated word: few papers, scored so
            found = scorer.evaluate(unit)
            part[np.fromiter(found, dtype=np.int64, count=len(found))] += np.fromiter(
                found.values(), dtype=np.float64, count=len(found))
        elif among is None:
            _add(part, scorer, unit.fieldname, text_of(unit), unit.boost)
        else:
            _add_at(part, among, scorer, unit.fieldname, text_of(unit), unit.boost)
    return part


def _head(scorer: Scorer, groups: Sequence[Sequence[wq.Query]]) -> tuple[np.ndarray, np.ndarray]:
    """The combined sums of all groups of a conjunction but the last (`plan_top`), and
    the docnums they hold, kept for the last `KEPT_HEADS` asked for (read only).

    A query is typed a letter at a time: "graph neural netw" after "graph neural net"
    asks for the same "graph neural" again, and only its last word changes."""
    import numpy as np

    def make() -> tuple[np.ndarray, np.ndarray]:
        total = _group(scorer, groups[0])
        for group in groups[1:]:
            part = _group(scorer, group)
            both = (total > 0) & (part > 0)
            total += part
            total *= both
        among = np.flatnonzero(total > 0)
        total.flags.writeable = among.flags.writeable = False
        return total, among

    return _kept(_heads, scorer, tuple(tuple(group) for group in groups), KEPT_HEADS, make)


def _size(scorer: Scorer, group: Sequence[wq.Query]) -> int:
    """How many postings the group's terms have (a hyphenated word: its first term's)."""
    return sum(len(scorer.postings(t.fieldname, text_of(t))[0])
               for t in (u.subqueries[0] if isinstance(u, wq.And) else u for u in group))


def _best(values: np.ndarray, matched: np.ndarray, k: int | None, margin: float,
          ) -> np.ndarray:
    """Of the docnums `matched` (ascending), each with its sum in `values`, those of the
    `k` best sums (all when None) and of every sum within `margin` (relative) of the
    k-th, ascending."""
    import numpy as np

    if k is None or k >= len(matched):
        return matched
    kth = np.partition(values, len(values) - k)[len(values) - k]
    return matched[values >= kth * (1.0 - margin)]


def docnums(scorer: Scorer, fieldname: str, text: str) -> np.ndarray:
    """The term's docnums as numpy's own index type (intp), kept beside the list: numpy
    converts an index array of another type on every use, which was two fifths of the
    time of adding a list whole."""
    import numpy as np

    def make(postings: tuple[array, array]) -> tuple[np.ndarray, int]:
        ids = postings[0]  # 8 bytes a docnum: a posting's worth
        return np.frombuffer(ids, dtype=ids.typecode).astype(np.intp), len(ids)

    return scorer.beside(fieldname, text, "index", make)


def _add(total: np.ndarray, scorer: Scorer, fieldname: str, text: str, boost: float,
         ) -> None:
    """Add the term's BM25 score of each paper holding it into `total`."""
    import numpy as np

    if not scorer.postings(fieldname, text)[0]:
        return
    impact = scorer.impacts(fieldname, text)
    # Each docnum once in a list: a plain indexed add.
    total[docnums(scorer, fieldname, text)] += (
        scorer.scale(fieldname, text, boost) * np.frombuffer(impact, dtype=impact.typecode))


def _add_at(total: np.ndarray, among: np.ndarray, scorer: Scorer, fieldname: str, text: str,
            boost: float) -> None:
    """Add the term's BM25 score into `total` at the docnums `among` only (ascending),
    each looked up in the list by bisection: the same products `_add` adds there."""
    import numpy as np

    if not scorer.postings(fieldname, text)[0]:
        return
    ids = docnums(scorer, fieldname, text)
    at = np.searchsorted(ids, among)
    inside = at < len(ids)
    held = np.zeros(len(among), dtype=bool)
    held[inside] = ids[at[inside]] == among[inside]
    impact = scorer.impacts(fieldname, text)
    total[among[held]] += (scorer.scale(fieldname, text, boost)
                           * np.frombuffer(impact, dtype=impact.typecode)[at[held]])
