"""The best papers of each short prefix, found with the index, so that typing one or two
letters costs about the same at any size.

While a word of one or two letters is typed, it matches in names and titles only, as an
OR of its most frequent terms (`search.expand`): at 250,000 papers the first letter of a
common word reads some 40,000 postings of nine terms of like weight, in two fields, which
pruning cannot cut short, since no paper's score stands out (`topk`). This grew with
the library: 17 ms at 250k papers against 2 ms at 25k.

So the builder scores those OR-s once, for every prefix of up to `UP_TO` letters whose
lists are long (`FROM_POSTINGS`), with the very scorer a search uses, over the finished
index (its idf and length norms: every build writes the table again, so that it is
right under re-indexing and removal). For each it keeps the best `KEEP` papers with
their scores, ties with the last of them included, and the best score left out (the
floor). A keystroke's search then looks at those papers and at the top parts (`tiers`)
of its other terms' lists (the word itself in the abstract, aliases, headings), bounds
every other paper by the floor and those lists' bounds, and has the scorer score only
the papers that may reach the best k (`answer`). When the k-th best is above what any
paper not looked at may reach, they are the best k, in the same order and with the same
scores as scoring every match; otherwise the search scores them all, as before.
"""

from __future__ import annotations

import base64
import heapq
import json
from array import array
from bisect import bisect_left
from collections.abc import Mapping

from whoosh import query as wq

from tui.core.index import topk
from tui.core.index.analysis import stem
from tui.core.index.ranking import Ranked, ranked
from tui.core.index.scorer import Scorer
from tui.core.index.sidefiles import TOPS_FILE

UP_TO = 2
"""Prefixes of up to this many letters have a row (see `search.NAMES_ONLY_PREFIX`)."""
FIELDS = ("name", "title")
"""The fields a short prefix expands in."""
KEEP = 1024
"""Papers kept per prefix: ten screens of the reader's typed list (`TYPING_HITS`)."""
FROM_POSTINGS = 4 * KEEP
"""Prefixes whose lists hold fewer postings have no row: scoring them all is as quick."""
OTHERS_UP_TO = 4 * KEEP
"""Papers the query's other terms may add to those scored (see `answer`)."""
MARGIN = 1e-9
"""Relative slack in comparing with the floor (sums added in another order)."""


def expansion_terms(prefix: str, listed: list[str]) -> list[str]:
    """The terms a typed `prefix` with a row `listed` in the prefix table expands to
    (`search.expand`): its own stem, then that row."""
    return list(dict.fromkeys([stem(prefix), *listed]))


def prefix_query(terms: list[str], boosts: Mapping[str, float]) -> wq.Query:
    """The OR of `terms` in every field of FIELDS, each weighed by its field's boost."""
    return wq.Or([wq.Or([wq.Term(f, t, boost=boosts[f]) for t in terms]) for f in FIELDS])


class Row:
    """A prefix's row: its terms, its best papers (docnums ascending) with each one's
    score of the prefix's OR, and the best score of the papers left out."""

    __slots__ = ("terms", "docs", "scores", "floor")

    def __init__(self, terms: frozenset[str], docs: array, scores: array, floor: float,
                 ) -> None:
        self.terms, self.docs, self.scores, self.floor = terms, docs, scores, floor


def compute(scorer: Scorer, prefix_table: Mapping[str, list[str]],
            boosts: Mapping[str, float]) -> dict[str, object]:
    """The table (as `TOPS_FILE` holds it) for every prefix of up to UP_TO letters of
    `prefix_table` whose lists are long, scored by `scorer`."""
    rows: dict[str, object] = {}
    for prefix, listed in prefix_table.items():
        if len(prefix) > UP_TO:
            continue
        terms = expansion_terms(prefix, listed)
        size = sum(len(scorer.postings(f, t)[0]) for f in FIELDS for t in terms)
        if size < FROM_POSTINGS:
            continue
        scores = scorer.evaluate(prefix_query(terms, boosts))
        docs, floor = best(scores)
        rows[prefix] = {"terms": terms, "floor": floor, "docs": _packed(docs),
                        "scores": _packed(array("d", map(scores.__getitem__, docs)))}
    return {"boosts": {f: boosts[f] for f in FIELDS}, "prefixes": rows}


def best(scores: Mapping[int, float]) -> tuple[array, float]:
    """The docnums (ascending) of the KEEP best of `scores`, with every paper tied with
    the last of them (unless that makes more than twice KEEP: then the tie is left out
    whole), and the best score of the papers left out (0.0 when none is)."""
    if len(scores) <= KEEP:
        return array("I", sorted(scores)), 0.0
    values = sorted(scores.values(), reverse=True)
    cut = values[KEEP - 1]
    kept = [d for d, s in scores.items() if s >= cut]
    if len(kept) > 2 * KEEP:
        kept = [d for d, s in scores.items() if s > cut]
        return array("I", sorted(kept)), cut
    left = [s for s in values[KEEP:] if s < cut]
    return array("I", sorted(kept)), left[0] if left else 0.0


def write(storage, norms: Mapping[str, array], prefix_table: Mapping[str, list[str]]) -> None:
    """Write `TOPS_FILE` into the index just committed to `storage`, whose norms per
    field are `norms` and whose prefix table is `prefix_table`."""
    from tui.core.index.fieldnorms import Norms
    from tui.core.index.postingcache import PostingCache
    from tui.core.index.schema import FIELD_BOOSTS, SCORED_FIELDS
    from tui.core.index.sidedata import write_bytes

    searcher = storage.open_index().searcher()
    cache = PostingCache(searcher.reader())
    try:
        scorer = Scorer(searcher, Norms(SCORED_FIELDS, norms.get), cache,
                        lambda q: sorted(q.docs(searcher)))
        table = compute(scorer, prefix_table, FIELD_BOOSTS)
    finally:
        cache.close()
        searcher.close()
    write_bytes(storage, TOPS_FILE, json.dumps(table, ensure_ascii=False).encode("utf-8"))


def _packed(column: array) -> str:
    return base64.b64encode(column.tobytes()).decode("ascii")


def _unpacked(kind: str, text: str) -> array:
    column = array(kind)
    column.frombytes(base64.b64decode(text, validate=True))
    return column


class PrefixTops:
    """A library's table, read from `TOPS_FILE`."""

    def __init__(self, data: bytes) -> None:
        """Raises on anything but what `write` writes (the library then does without)."""
        loaded = json.loads(data.decode("utf-8"))
        self.boosts: dict[str, float] = {f: float(loaded["boosts"][f]) for f in FIELDS}
        self._rows: dict[str, Row] = {}
        for prefix, raw in loaded["prefixes"].items():
            docs, scores = _unpacked("I", raw["docs"]), _unpacked("d", raw["scores"])
            if len(docs) != len(scores):
                raise ValueError(f"prefix row {prefix!r}: {len(docs)} papers, "
                                 f"{len(scores)} scores")
            self._rows[prefix] = Row(frozenset(raw["terms"]), docs, scores, float(raw["floor"]))

    def row(self, prefix: str) -> Row | None:
        """The row of `prefix`, or None."""
        return self._rows.get(prefix)

    def __len__(self) -> int:
        return len(self._rows)


def answer(scorer: Scorer, tops: PrefixTops, q: wq.Query, k: int) -> Ranked | None:
    """The best `k` of `q` as scoring every match ranks them, from the table, if `q` is
    a short prefix's OR (beside a few other terms) that the table answers; else None.

    Looked at: the row's papers, and of each other term (the word itself in the
    abstract, aliases, headings) the top part of its list (`tiers`), or all of a short
    list kept whole. Each paper looked at has a score at least what its row score and
    those top parts give it, and at most that plus the floor (if it is not in the row)
    and the bounds of the other lists' rests (where it is not in their top parts); a
    paper not looked at, at most the floor and every rest's bound. The papers whose
    most reaches the k-th best least are scored by the scorer itself: when the k-th of
    those is above the most of a paper not looked at, they are the best k, in the order
    and with the scores of scoring every match."""
    parts = _prefix_parts(q, tops)
    if parts is None:
        return None
    row, others = parts
    looked: list[tuple[dict[int, float], float]] = []
    """Of each other term looked at: its top part (docnum → score there) and the bound
    of the rest of its list (0: none)."""
    unlooked = 0.0
    """The bounds of the other lists not looked at (long and kept whole)."""
    size = 0
    for term in others:
        text = _text(term)
        tiers = scorer.tiers(term.fieldname, text)
        if not tiers:
            continue
        scale = scorer.scale(term.fieldname, text, term.boost)
        top = tiers[0]
        if len(tiers) == 1 and len(top) > OTHERS_UP_TO:
            unlooked += scale * top.ratio
            continue
        size += len(top)
        if size > OTHERS_UP_TO:
            return None
        looked.append((dict(zip(top.ids, map(scale.__mul__, top.impacts))),
                       scale * max((t.ratio for t in tiers[1:]), default=0.0)))
    rest_bound = unlooked + sum(bound for _, bound in looked)
    beyond = row.floor + rest_bound
    """The most a paper not looked at may score."""
    in_row = dict(zip(row.docs, row.scores))
    low = dict(in_row)
    """The least each paper looked at scores (up to rounding, for the row's)."""
    high = {d: s + rest_bound for d, s in low.items()}
    """The most each paper looked at may score."""
    for part, bound in looked:
        for d, got in part.items():
            if d in low:  # in the row, or in an earlier part
                low[d] += got
                high[d] += got - bound
            else:  # not in the row: it has at most the floor from the prefix
                low[d] = got
                high[d] = beyond - bound + got
    if len(low) < k:
        if beyond > 0:
            return None  # fewer than k looked at: papers not looked at may come next
        theta = 0.0
    else:
        theta = heapq.nlargest(k, low.values())[-1] * (1 - MARGIN)
    reach = [d for d, most in high.items() if most * (1 + MARGIN) >= theta]
    found = ranked(scorer.evaluate(q, _closer(scorer, others, reach, in_row, row.floor, k)),
                   k, scorer.tie_rank)
    if len(found) < k and beyond > 0:
        return None
    if len(found) == k and found[-1][1] <= beyond * (1 + MARGIN):
        return None  # a paper not looked at may tie or beat the k-th: score them all
    return found


def _closer(scorer: Scorer, others: list[wq.Term], reach: list[int],
            in_row: Mapping[int, float], floor: float, k: int) -> set[int]:
    """Of `reach` (every paper that may be among the best k), those that still may once
    the other terms' scores are looked up for each (by bisection: a few against long
    lists), which the scorer then scores in full, every list read for them. `in_row`:
    the row's papers with their scores; `floor`: the most any other has of the prefix."""
    if len(reach) <= k:
        return set(reach)
    low = [in_row.get(d, 0.0) for d in reach]
    for term in others:
        text = _text(term)
        ids = scorer.postings(term.fieldname, text)[0]
        if not ids:
            continue
        weights = scorer.impacts(term.fieldname, text)
        scale = scorer.scale(term.fieldname, text, term.boost)
        end = len(ids)
        for i, d in enumerate(reach):
            at = bisect_left(ids, d)
            if at < end and ids[at] == d:
                low[i] += scale * weights[at]
    high = [s if d in in_row else s + floor for d, s in zip(reach, low)]
    theta = heapq.nlargest(k, low)[-1] * (1 - MARGIN)
    return {d for d, most in zip(reach, high) if most * (1 + MARGIN) >= theta}


def top(scorer: Scorer, tops: PrefixTops | None, q: wq.Query, k: int, count: bool,
        ) -> tuple[Ranked, int | None] | None:
    """`topk.top`, or the table's `answer` when `tops` is given and answers (a
    keystroke's search, whose count is not asked for: None)."""
    found = None if tops is None or count else answer(scorer, tops, q, k)
    return (found, None) if found is not None else topk.top(scorer, q, k, count=count)


def _text(term: wq.Term) -> str:
    return term.text.decode("utf-8") if isinstance(term.text, bytes) else term.text


def _prefix_parts(q: wq.Query, tops: PrefixTops) -> tuple[Row, list[wq.Term]] | None:
    """(the row `q`'s names-and-titles OR-s are, `q`'s other terms), or None when `q`
    is not a disjunction of exactly those and other terms."""
    if not isinstance(q, wq.Or):
        return None
    row = None
    fields: set[str] = set()
    others: list[wq.Term] = []
    for sub in q.subqueries:
        leaves = sub.subqueries if isinstance(sub, wq.Or) else [sub]
        if not leaves or not all(isinstance(t, wq.Term) for t in leaves):
            return None
        field = leaves[0].fieldname
        if field not in FIELDS:
            others.extend(leaves)
            continue
        if field in fields or any(t.fieldname != field or t.boost != tops.boosts[field]
                                  for t in leaves):
            return None
        words = frozenset(map(_text, leaves))
        if row is None:
            row = _row_of(tops, words)
            if row is None:
                return None
        elif words != row.terms:
            return None
        fields.add(field)
    if row is None or fields != set(FIELDS):
        return None
    return row, others


def _row_of(tops: PrefixTops, words: frozenset[str]) -> Row | None:
    """The row whose terms are `words`: its prefix starts one of them."""
    for prefix in sorted({w[:n] for w in words for n in range(1, UP_TO + 1)}):
        row = tops.row(prefix)
        if row is not None and row.terms == words:
            return row
    return None
