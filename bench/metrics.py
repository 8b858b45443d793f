"""Relevance metrics and the test-collection files, as `../shared/qrels/README.md` defines them.

A collection folder holds `docs.txt` (a seed list), `queries.tsv` (`qid<TAB>text`) and
`qrels.tsv` (`qid<TAB>position<TAB>grade`, position = 0-based paragraph of `docs.txt`
after the title line, higher grade = more relevant).

- nDCG@10: linear gains (gain = grade), discount log2(rank + 1) with rank from 1, the
  ideal ranking built from all judged documents of the query.
- Recall@100: judged-relevant documents in the top 100 / all judged-relevant documents.
- Both are averaged over the judged queries. A document is relevant when its grade is
  above 0; a query is judged when it has at least one relevant document (both metrics
  are 0/0 otherwise), and queries without judgments are left out of the average.

This lives with the benchmarks, not in `tui.core`: the product never grades itself, and
the reader and the command line should not carry evaluation code.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

Judgments = Mapping[int, int]
"""position -> grade for one query."""


def read_queries(path: Path) -> dict[str, str]:
    """qid -> query text, in file order. The text is kept exactly as written."""
    queries: dict[str, str] = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        qid, sep, text = line.partition("\t")
        if not sep:
            raise ValueError(f"{path}:{n}: expected qid<TAB>text")
        queries[qid.strip()] = text
    return queries


def read_qrels(path: Path) -> dict[str, dict[int, int]]:
    """qid -> {position: grade}. A repeated (qid, position) keeps the last grade."""
    qrels: dict[str, dict[int, int]] = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        parts = line.split("\t")
        if len(parts) != 3:
            raise ValueError(f"{path}:{n}: expected qid<TAB>position<TAB>grade")
        qid, position, grade = (p.strip() for p in parts)
        qrels.setdefault(qid, {})[int(position)] = int(grade)
    return qrels


def _unique(ranking: Sequence[int]) -> list[int]:
    """The ranking with repeats of a document dropped (a document counts once)."""
    return list(dict.fromkeys(ranking))


def dcg(gains: Sequence[float]) -> float:
    """Discounted cumulative gain: sum of gain / log2(rank + 1), ranks from 1."""
    return sum(g / math.log2(rank + 1) for rank, g in enumerate(gains, 1))


def ndcg_at(ranking: Sequence[int], judgments: Judgments, k: int = 10) -> float:
    """nDCG@k of `ranking` (positions, best first); unjudged documents have gain 0."""
    ideal = dcg(sorted((max(g, 0) for g in judgments.values()), reverse=True)[:k])
    if ideal <= 0:
        raise ValueError("nDCG is undefined for a query without relevant judgments")
    gains = [max(judgments.get(d, 0), 0) for d in _unique(ranking)[:k]]
    return dcg(gains) / ideal


def recall_at(ranking: Sequence[int], judgments: Judgments, k: int = 100) -> float:
    """Relevant (grade > 0) documents in the top k / all relevant documents."""
    relevant = {d for d, g in judgments.items() if g > 0}
    if not relevant:
        raise ValueError("recall is undefined for a query without relevant judgments")
    return len(relevant.intersection(_unique(ranking)[:k])) / len(relevant)


def is_judged(judgments: Judgments | None) -> bool:
    """True when the query has at least one relevant judgment."""
    return bool(judgments) and any(g > 0 for g in judgments.values())


@dataclass
class Scores:
    """Mean metrics of one run over the judged queries, with per-query values."""

    ndcg: float
    recall: float
    per_query: dict[str, tuple[float, float]] = field(default_factory=dict)
    """qid -> (nDCG@k, Recall@k) for every judged query that was run."""
    skipped: list[str] = field(default_factory=list)
    """Queries that were run but have no relevant judgments (not averaged)."""

    @property
    def judged(self) -> int:
        return len(self.per_query)


def evaluate(run: Mapping[str, Sequence[int]], qrels: Mapping[str, Judgments],
             ndcg_k: int = 10, recall_k: int = 100) -> Scores:
    """Average nDCG@ndcg_k and Recall@recall_k of `run` (qid -> ranked positions).

    Only queries that are both in the run and judged count; a judged query missing from
    the run is the caller's business (the benchmark runs every query it has text for).
    """
    per_query: dict[str, tuple[float, float]] = {}
    skipped = []
    for qid, ranking in run.items():
        judgments = qrels.get(qid)
        if not is_judged(judgments):
            skipped.append(qid)
            continue
        assert judgments is not None
        per_query[qid] = (ndcg_at(ranking, judgments, ndcg_k), recall_at(ranking, judgments,
                                                                          recall_k))
    if not per_query:
        return Scores(math.nan, math.nan, per_query, skipped)
    n = len(per_query)
    return Scores(sum(v[0] for v in per_query.values()) / n,
                  sum(v[1] for v in per_query.values()) / n, per_query, skipped)


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..1), as `bench/engine.py` reports them."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


@dataclass(frozen=True)
class Reference:
    """A collection's row of the README table."""

    docs: int | None
    queries: int | None
    ndcg: float
    recall: float


_NUMBER = re.compile(r"^[\d,]+(?:\.\d+)?$")


def read_references(readme: Path) -> dict[str, Reference]:
    """Collection name -> reference figures, from the Markdown table of `readme`.

    The name is the first word of the row's first cell (`cranfield (aeronautics…)` ->
    `cranfield`); columns are found by their headers. No file or no table: {}.
    """
    if not readme.is_file():
        return {}
    refs: dict[str, Reference] = {}
    header: list[str] | None = None
    for line in readme.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line.startswith("|"):
            header = None
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if header is None:
            header = [c.lower() for c in cells]
            continue
        if all(set(c) <= set("-: ") for c in cells):
            continue
        col = {name: i for i, name in enumerate(header)}

        def find(*needles: str) -> int | None:
            for name, i in col.items():
                if all(n in name for n in needles):
                    return i
            return None

        i_ndcg, i_recall = find("ndcg@10"), find("recall@100")
        i_docs, i_queries = find("docs"), find("queries")
        if i_ndcg is None or i_recall is None or not cells[0]:
            continue

        def number(i: int | None) -> str | None:
            if i is None or i >= len(cells) or not _NUMBER.match(cells[i]):
                return None
            return cells[i].replace(",", "")

        ndcg, recall = number(i_ndcg), number(i_recall)
        if ndcg is None or recall is None:
            continue
        docs, queries = number(i_docs), number(i_queries)
        refs[cells[0].split()[0].lower()] = Reference(
            int(docs) if docs else None, int(queries) if queries else None,
            float(ndcg), float(recall))
    return refs


def first_rank(ranking: Sequence[int], targets: Collection[int]) -> int | None:
    """The 1-based rank of the first of `targets` in `ranking`, or None when absent."""
    for rank, doc in enumerate(ranking, 1):
        if doc in targets:
            return rank
    return None


@dataclass(frozen=True)
class Lookup:
    """Known-item search over a set of queries: each has one wanted paper."""

    queries: int
    success_at_1: float
    success_at_10: float
    mrr_at_10: float


def lookup_scores(ranks: Sequence[int | None]) -> Lookup:
    """success@1, success@10 and MRR@10 of the wanted papers' ranks (None: not found).

    MRR@10 counts 1/rank for a rank of 10 or better and 0 beyond, as success@10 does.
    """
    n = len(ranks)
    if not n:
        return Lookup(0, math.nan, math.nan, math.nan)
    found = [r for r in ranks if r is not None]
    return Lookup(n, sum(r == 1 for r in found) / n, sum(r <= 10 for r in found) / n,
                  sum(1 / r for r in found if r <= 10) / n)
