"""The queries pruned top-k retrieval (`topk`) takes, and the papers they match.

A plan is a conjunction of disjunctions of terms (or of conjunctions of terms, which a
hyphenated word makes), with exclusions: what typed prefixes and the all-words and
any-word rankings build. Its matches are counted exactly, as sets or as byte maps
(`members`), whichever costs less.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass

from whoosh import query as wq

from tui.core.index.members import Selection
from tui.core.index.scorer import Scorer

LONG = 4
"""A list of at least 1/LONG of the papers keeps its byte map (n bytes: at most half
the memory of the list itself, which the posting cache counts); a shorter list's
papers are marked afresh by each query."""
_BISECT = 16
"""Look papers up in a list by bisection when it is this many times longer."""
SPARSE = 8
"""Unless the long lists (see LONG) hold at least 1/SPARSE of the papers' worth of
postings per group, the matches are counted as a set: a hash per posting then costs
less than the byte maps' passes over every docnum (measured at 250k papers: a group's
passes cost about what hashing 20,000 postings does)."""

Unit = wq.Term | wq.And
"""What a disjunction is made of here: terms, and conjunctions of terms (a hyphenated
word: `semi-supervised` is semi AND supervis, in each field)."""


@dataclass
class Plan:
    """A query the pruned path can take: papers matching every group (a disjunction
    of terms) and none of `excluded`; the score is the sum over all groups' terms."""

    groups: list[list[Unit]]
    excluded: list[wq.Query]


def postings_in(scorer: Scorer, plan: Plan) -> int:
    """How many postings the plan's terms have in all."""
    terms = [t for g in plan.groups for u in g
             for t in (u.subqueries if isinstance(u, wq.And) else [u])]
    return sum(len(scorer.postings(t.fieldname, text_of(t))[0]) for t in terms)


def plan_of(q: wq.Query) -> Plan | None:
    """`q` as groups of terms and exclusions, or None when it is of another shape."""
    if isinstance(q, wq.And):
        plan = Plan([], [])
        for child in q.subqueries:
            if isinstance(child, wq.Not):
                plan.excluded.append(child.query)
                continue
            inner = plan_of(child)
            if inner is None:
                return None
            plan.groups += inner.groups
            plan.excluded += inner.excluded
        return plan if plan.groups else None
    terms = terms_of(q)
    return None if terms is None else Plan([terms], [])


def terms_of(q: wq.Query, inner: bool = False) -> list[Unit] | None:
    """The units of a disjunction (nested) of terms and, `inner`, of conjunctions of
    terms; None for anything else."""
    if isinstance(q, wq.Term):
        # The bounds need positive contributions; the scorer's other nodes keep theirs.
        return [q] if q.boost > 0 else None
    if inner and isinstance(q, wq.And):
        parts = q.subqueries
        if parts and all(isinstance(c, wq.Term) and c.boost > 0 for c in parts):
            return [q]
        return None
    if isinstance(q, (wq.Or, wq.DisjunctionMax)):
        out: list[Unit] = []
        for child in q.subqueries:
            found = terms_of(child, inner=True)
            if found is None:
                return None
            out += found
        return out
    return None


def papers_of(scorer: Scorer) -> Callable[[Unit], array | set[int]]:
    """The papers of a unit: a term's docnums, or the papers with every term of a
    conjunction (found once per query: a conjunction's are remembered)."""
    found: dict[int, set[int]] = {}

    def docs(unit: Unit) -> array | set[int]:
        if isinstance(unit, wq.Term):
            return scorer.postings(unit.fieldname, text_of(unit))[0]
        if id(unit) not in found:
            lists = sorted((scorer.postings(t.fieldname, text_of(t))[0]
                            for t in unit.subqueries), key=len)
            both = set(lists[0])
            for ids in lists[1:]:
                both.intersection_update(ids)
            found[id(unit)] = both
        return found[id(unit)]

    return docs


def match_all(scorer: Scorer, q: wq.Query) -> set[int] | Selection | None:
    """Every paper `q` matches, unscored; None when it is not of a plan's shape."""
    plan = plan_of(q)
    return None if plan is None else matches(scorer, plan, papers_of(scorer))


def count_up_to(scorer: Scorer, q: wq.Query, bound: int) -> int | None:
    """How many papers `q` matches, when at most `bound` do; None when more do, or
    when `q` is not of a plan's shape. A disjunction reads at most about `bound`
    postings: a list longer than that settles it, and the union stops once past it,
    so that the cost does not grow with the library (a conjunction's matches are
    counted in full: its pruning finds them anyway)."""
    plan = plan_of(q)
    if plan is None:
        return None
    docs = papers_of(scorer)
    if len(plan.groups) > 1 or plan.excluded:
        found = matches(scorer, plan, docs)
        count = None if found is None else (
            found.count if isinstance(found, Selection) else len(found))
        return None if count is None or count > bound else count
    lists = sorted((docs(unit) for unit in plan.groups[0]), key=len, reverse=True)
    if lists and len(lists[0]) > bound:
        return None
    union: set[int] = set()
    for ids in lists:
        union.update(ids)
        if len(union) > bound:
            return None
    return len(union)


def matches(scorer: Scorer, plan: Plan, docs: Callable[[Unit], array | set[int]],
             ) -> set[int] | Selection | None:
    """Every paper the plan matches; None when an exclusion is not a disjunction of
    terms. Few postings in all: a set; else a byte map (`members`), whose passes over
    every docnum cost less than a hash per posting."""
    excluded = []
    for query in plan.excluded:
        terms = terms_of(query)
        if terms is None:
            return None
        excluded.append(terms)
    # Byte maps cost a few passes over every docnum per group; they pay where the
    # long lists, whose maps are kept, would otherwise be hashed posting by posting.
    size, groups = scorer.size, plan.groups + excluded
    lengths = [len(docs(u)) for g in groups for u in g]
    if sum(n for n in lengths if n * LONG >= size) * SPARSE < size * len(groups):
        return _matching_set(docs, plan.groups, excluded)
    matched = -1  # every paper
    for group in plan.groups:
        matched &= _union(scorer, docs, group)
    for terms in excluded:
        matched &= ~_union(scorer, docs, terms)
    return Selection.of(matched, scorer.size)


def _matching_set(ids: Callable[[Unit], array | set[int]], groups: list[list[Unit]],
                  excluded: list[list[Unit]]) -> set[int]:
    """The papers in every one of `groups` and none of `excluded`, by set operations."""
    groups = sorted(groups, key=lambda g: sum(len(ids(t)) for t in g))
    matched: set[int] = set()
    for term in groups[0]:
        matched.update(ids(term))
    for group in groups[1:]:
        kept: set[int] = set()
        for term in group:
            found = ids(term)
            if isinstance(found, set):
                kept.update(matched & found)
            elif len(matched) * _BISECT < len(found):  # few papers left: look them up
                kept.update(d for d in matched if _holds(found, d))
            else:
                kept.update(matched.intersection(found))
        matched = kept
    for terms in excluded:
        for term in terms:
            matched.difference_update(ids(term))
    return matched


def _union(scorer: Scorer, docs: Callable[[Unit], array | set[int]],
           units: list[Unit]) -> int:
    """The papers of any of `units`, as a byte map: long lists' maps are kept (see
    `members`), short lists and conjunctions are marked afresh."""
    size = scorer.size
    union, marks = 0, None
    for unit in units:
        ids = docs(unit)
        if isinstance(unit, wq.Term) and len(ids) * LONG >= size:
            union |= scorer.byte_map(unit.fieldname, text_of(unit))
        elif ids:
            if marks is None:
                marks = bytearray(size)
            for docnum in ids:  # a plain loop: faster than map(marks.__setitem__, ...)
                marks[docnum] = 1
    if marks is not None:
        union |= int.from_bytes(marks, "little")
    return union


def _holds(ids: array, docnum: int) -> bool:
    """Whether the ascending `ids` hold `docnum`."""
    i = bisect_left(ids, docnum)
    return i < len(ids) and ids[i] == docnum


def text_of(term: wq.Term) -> str:
    """A term's text as a string (Whoosh may hold it as bytes)."""
    text = term.text
    return text.decode("utf-8") if isinstance(text, bytes) else text
