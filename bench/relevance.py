"""Relevance benchmark: the product's own search over classic IR test collections.

    python bench/relevance.py [--qrels ../shared/qrels] [--collection NAME ...] [--run FILE]

Every folder of `--qrels` with `docs.txt`, `queries.tsv` and `qrels.tsv` is a
collection (format and reference scores: `../shared/qrels/README.md`). Its `docs.txt`
is indexed by `open_library` in a temporary folder, and every judged query goes, as
written in `queries.tsv`, through `tui.core.search.search.search` with its own defaults
(the reader and `paperscope search` call the same function); only the limit is raised
to 100 so that Recall@100 can be measured — the ranking does not depend on the limit.
The benchmark adds no query rewriting or tuning of its own.

Printed per collection: queries run, nDCG@10 and Recall@100 beside the README's
reference BM25 figures ("n/a" for a collection the README does not list), their
difference, and the median and 95th-percentile time of `search` (its own
`elapsed_ms`). Then the mean difference over the collections that have references.
`--run FILE` also writes every ranking in TREC run format (`collection/qid Q0 position
rank score paperscope`), to compare runs query by query.
"""

from __future__ import annotations

import argparse
import math
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.material import require, shared  # noqa: E402
from bench.metrics import (  # noqa: E402
    Reference, Scores, evaluate, is_judged, percentile, read_qrels, read_queries,
    read_references,
)
from tui.core.index.library import open_library  # noqa: E402
from tui.core.search.search import search  # noqa: E402

DEFAULT_QRELS = shared("qrels")
LIMIT = 100
"""Hits asked for: Recall@100 needs the top 100 (the reader asks for 1000)."""
NDCG_K = 10
RECALL_K = 100
COLLECTION_FILES = ("docs.txt", "queries.tsv", "qrels.tsv")


def collections(qrels_dir: Path) -> list[Path]:
    """Collection folders under `qrels_dir`, in name order."""
    return sorted(p for p in qrels_dir.iterdir()
                  if p.is_dir() and all((p / f).is_file() for f in COLLECTION_FILES))


class Outcome:
    """What one collection's run measured."""

    def __init__(self, name: str, docs: int, scores: Scores, times_ms: list[float],
                 empty: list[str], warnings: list[str],
                 run: dict[str, list[tuple[int, float]]]) -> None:
        self.name = name
        self.run = run
        """qid -> ranked (position, score) pairs, as the search returned them."""
        self.docs = docs
        self.scores = scores
        self.times_ms = times_ms
        self.empty = empty
        """qids whose search returned no hits."""
        self.warnings = warnings


def run_collection(folder: Path, workdir: Path, ref: Reference | None) -> Outcome:
    """Index one collection with the product's code and run its judged queries."""
    name = folder.name
    queries = read_queries(folder / "queries.tsv")
    qrels = read_qrels(folder / "qrels.tsv")
    warnings: list[str] = []
    missing = sorted((q for q in qrels if q not in queries and is_judged(qrels[q])), key=_qid_key)
    if missing:
        warnings.append(f"{len(missing)} judged queries have no text in queries.tsv and are "
                        f"not run: {', '.join(missing[:10])}")

    started = time.perf_counter()
    library = open_library([str(folder / "docs.txt")], index_dir=str(workdir / name))
    build_s = time.perf_counter() - started
    try:
        docs = len(library)
        print(f"  {name}: indexed {docs} documents in {build_s:.1f} s", file=sys.stderr)
        if ref is not None and ref.docs is not None and ref.docs != docs:
            warnings.append(f"the index holds {docs} documents, the README says {ref.docs}")
        beyond = sorted({p for j in qrels.values() for p in j if not 0 <= p < docs})
        if beyond:
            warnings.append(f"{len(beyond)} judged positions are outside the index "
                            f"(0..{docs - 1}): {beyond[:10]}")
        search(library, "warm up")  # opens the scorer's caches, as the reader's first key does
        run: dict[str, list[tuple[int, float]]] = {}
        times: list[float] = []
        empty: list[str] = []
        for qid, text in queries.items():
            if not is_judged(qrels.get(qid)):
                continue  # averaged over judged queries only: no need to run the others
            result = search(library, text, limit=LIMIT)
            times.append(result.elapsed_ms)
            ranking = [hit.paper.position for hit in result.hits]
            if len(set(ranking)) != len(ranking):
                warnings.append(f"query {qid}: the same document is returned twice")
            if not ranking:
                empty.append(qid)
            run[qid] = [(hit.paper.position, hit.score) for hit in result.hits]
    finally:
        library.close()
    scores = evaluate({q: [p for p, _ in r] for q, r in run.items()}, qrels, NDCG_K, RECALL_K)
    if ref is not None and ref.queries is not None and ref.queries != scores.judged:
        warnings.append(f"{scores.judged} judged queries were run, the README says {ref.queries}")
    return Outcome(name, docs, scores, times, empty, warnings, run)


def write_run(outcomes: list[Outcome], path: Path) -> None:
    """Every ranking, one TREC run line per hit."""
    with path.open("w", encoding="utf-8") as out:
        for o in outcomes:
            for qid, ranking in o.run.items():
                for rank, (position, score) in enumerate(ranking, 1):
                    out.write(f"{o.name}/{qid} Q0 {position} {rank} {score:.6f} paperscope\n")


def _qid_key(qid: str) -> tuple[int, str]:
    return (int(qid), "") if qid.isdigit() else (sys.maxsize, qid)


def _fmt(value: float | None, signed: bool = False) -> str:
    if value is None or math.isnan(value):
        return "n/a"
    return f"{value:+.4f}" if signed else f"{value:.4f}"


def report(outcomes: list[Outcome], refs: dict[str, Reference]) -> None:
    header = (f"{'collection':<12} {'docs':>5} {'queries':>7}   "
              f"{'nDCG@10':>7} {'ref':>6} {'diff':>7}   "
              f"{'R@100':>6} {'ref':>6} {'diff':>7}   "
              f"{'search p50':>10} {'p95':>8}")
    print(header)
    print("-" * len(header))
    ndcg_diffs: list[float] = []
    recall_diffs: list[float] = []
    for o in outcomes:
        ref = refs.get(o.name.lower())
        d_ndcg = d_recall = None
        if ref is not None and not math.isnan(o.scores.ndcg):
            d_ndcg, d_recall = o.scores.ndcg - ref.ndcg, o.scores.recall - ref.recall
            ndcg_diffs.append(d_ndcg)
            recall_diffs.append(d_recall)
        p50 = f"{statistics.median(o.times_ms):.1f} ms" if o.times_ms else "n/a"
        p95 = f"{percentile(o.times_ms, 0.95):.1f} ms" if o.times_ms else "n/a"
        print(f"{o.name:<12} {o.docs:>5} {o.scores.judged:>7}   "
              f"{_fmt(o.scores.ndcg):>7} {_fmt(ref.ndcg if ref else None):>6} "
              f"{_fmt(d_ndcg, True):>7}   "
              f"{_fmt(o.scores.recall):>6} {_fmt(ref.recall if ref else None):>6} "
              f"{_fmt(d_recall, True):>7}   "
              f"{p50:>10} {p95:>8}")
    mean_ndcg = statistics.fmean(ndcg_diffs) if ndcg_diffs else None
    mean_recall = statistics.fmean(recall_diffs) if recall_diffs else None
    print(f"mean difference over {len(ndcg_diffs)} collection(s) with references: "
          f"nDCG@10 {_fmt(mean_ndcg, True)}, Recall@100 {_fmt(mean_recall, True)}")
    for o in outcomes:
        if o.empty:
            print(f"note: {o.name}: {len(o.empty)} queries returned no hits: "
                  f"{', '.join(sorted(o.empty, key=_qid_key)[:20])}")
        if o.scores.skipped:
            print(f"note: {o.name}: {len(o.scores.skipped)} queries have no relevant "
                  f"judgments and are not averaged")
        for w in o.warnings:
            print(f"warning: {o.name}: {w}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--qrels", type=Path, default=DEFAULT_QRELS,
                        help="folder of collections (default: %(default)s)")
    parser.add_argument("--collection", action="append", metavar="NAME",
                        help="run only this collection (repeatable)")
    parser.add_argument("--run", type=Path, metavar="FILE",
                        help="also write the rankings to FILE in TREC run format")
    args = parser.parse_args(argv)
    require(args.qrels, "relevance.py", "collections folder", "--qrels")
    found = collections(args.qrels)
    if args.collection:
        by_name = {p.name.lower(): p for p in found}
        unknown = [c for c in args.collection if c.lower() not in by_name]
        if unknown:
            print(f"relevance: no collection {', '.join(unknown)} in {args.qrels} "
                  f"(have: {', '.join(sorted(by_name)) or 'none'})", file=sys.stderr)
            return 2
        found = [by_name[c.lower()] for c in dict.fromkeys(args.collection)]
    if not found:
        print(f"relevance: no collections (folders with {', '.join(COLLECTION_FILES)}) "
              f"in {args.qrels}", file=sys.stderr)
        return 2
    refs = read_references(args.qrels / "README.md")
    print(f"relevance: {len(found)} collection(s) from {args.qrels}; "
          f"search(query, limit={LIMIT}) with the product's defaults; "
          f"reference = README BM25", flush=True)
    workdir = Path(tempfile.mkdtemp(prefix="paperscope-relevance-"))
    try:
        outcomes = [run_collection(f, workdir, refs.get(f.name.lower())) for f in found]
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    report(outcomes, refs)
    if args.run:
        write_run(outcomes, args.run)
    return 0


if __name__ == "__main__":
    sys.exit(main())
