"""Engine benchmark: index build, search latency, cold CLI search, and SQLite FTS5.

    python bench/engine.py [--corpora ../shared/corpora] [--repeat 5] [--builds 3]
                           [--formats 250000] [--format-builds 2]

Everything goes through the product's own code (`open_library`, `search`, the
`paperscope` command). Figures are medians and 95th percentiles of one run: this
machine is noisy, so compare ratios within a run. Three ratios are printed, each
against a yardstick timed in the same run, with its goal:

- per query: paperscope's median search time (queries as typed) against SQLite FTS5's
  on the same queries over the same rendered text (goal: within FTS5's, <= 1x);
- the build: paperscope's builder against plain Whoosh (one stemmed text field, two
  writer processes) on the same abstracts, each a fresh process that reads the files,
  alternately: Whoosh merging its segments at commit (goal: >= 2x), and Whoosh at its
  best for what paperscope keeps, the abstract stored and no merge at commit
  (`multisegment=True`; goal: >= 1.2x);
- a cold `paperscope search kernel` against a bare `python -c pass`, alternately, with
  the bytecode cache on (goal: <= 5x).

The formats row (`bench_formats`) indexes the same abstracts from one JSON Lines file in
arXiv's shape, from paragraph files, and from a JSON Lines file of the abstracts alone,
each build a process of its own, alternating, and compares papers/s and the peak
memory of the build's processes.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.material import require, shared  # noqa: E402
from bench.builds import (  # noqa: E402
    PLAIN_WHOOSH_KINDS, cold_searches, timed_build, timed_paperscope_build,
    timed_plain_whoosh_build,
)
from bench.corpus import corpus_sentences, made_abstract, write_paragraph_lists  # noqa: E402
from tui.core.index.library import open_library  # noqa: E402
from tui.core.render.text import render  # noqa: E402
from tui.core.search.search import search  # noqa: E402

# Short prefixes as typed, single words, and multi-word queries.
QUERIES = [
    "t", "co", "gra", "a", "ne", "sto", "diffu", "reinf", "conv",
    "neural network", "graph neural networks", "reinforcement learning policy gradient",
    "gaussian process regression", "markov chain monte carlo", "object detection",
    "image segmentation", "adversarial examples robustness", "sparse coding dictionary",
    "variational inference", "kernel methods", "clustering", "convex optimization",
    "point cloud", "generative adversarial network", "attention mechanism transformer",
    "semi-supervised learning", "bandit regret bound", "optical flow estimation",
    "support vector machine", "hidden markov model speech", "deep learn",
    "convolutional neural network for image classif", "low rank matrix completion",
    "bayesian nonparametric dirichlet process", "face recognition",
    "stochastic gradient descent convergence", "monocular depth", "spiking neurons",
]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def bench_search(corpora: Path, index_dir: Path, repeat: int) -> list[float]:
    library = open_library([str(corpora)], str(index_dir))
    search(library, "warm up")
    times = []
    for _ in range(repeat):
        for query in QUERIES:
            # As the reader searches while a query is typed: the queries are typed
            # prefixes ("t", "diffu") and words.
            times.append(search(library, query, limit=20, typing=True).elapsed_ms)
    library.close()
    return times


def bench_fts5(corpora: Path, repeat: int) -> tuple[float, list[float]]:
    from tui.core.lists.paragraphs import read_lists

    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE p USING fts5(text, tokenize='porter unicode61')")
    started = time.perf_counter()
    rows = [(render(p.raw).text,) for plist in read_lists([corpora]) for p in plist.papers]
    parse = time.perf_counter() - started
    started = time.perf_counter()
    db.executemany("INSERT INTO p(text) VALUES (?)", rows)
    db.commit()
    build = time.perf_counter() - started
    times = []
    for _ in range(repeat):
        for query in QUERIES:
            words = query.split()
            match = " ".join(f'"{w}"' for w in words[:-1]) + f' "{words[-1]}"*'
            started = time.perf_counter()
            db.execute("SELECT rowid FROM p WHERE p MATCH ? ORDER BY rank LIMIT 20",
                       (match,)).fetchall()
            times.append((time.perf_counter() - started) * 1000)
    print(f"  (FTS5 parse+render {parse:.1f} s, insert {build:.1f} s)")
    return build, times


def _records(corpora: Path, count: int, seed: int) -> list[dict[str, object]]:
    """`count` arXiv-shaped records whose abstracts are seeded draws of the corpora's
    sentences (4 to 9 each), so that every abstract is new text of real shape."""
    import random

    sentences = corpus_sentences(corpora)
    rng = random.Random(seed)
    surnames = sorted({w for s in sentences[:20000] for w in s.split() if w.istitle()})[:3000]
    out = []
    for n in range(count):
        text = made_abstract(rng, sentences, 4, 9)
        authors = ", ".join(f"{rng.choice('ABCDEFGHJKLMNPRSTW')}. {rng.choice(surnames)}"
                            for _ in range(rng.randint(1, 5)))
        out.append({"id": f"{1000 + n // 10000}.{n % 10000:05d}", "submitter": None,
                    "authors": authors, "title": " ".join(text.split()[:10]),
                    "comments": None, "journal-ref": None, "doi": None,
                    "categories": rng.choice(["cs.LG", "stat.ML cs.LG", "cs.CV"]),
                    "abstract": "  " + text + "\n",
                    "update_date": f"20{rng.randint(10, 24)}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}"})
    return out


def write_format_lists(corpora: Path, folder: Path, count: int, seed: int = 13,
                       per_file: int = 5000) -> tuple[Path, list[Path]]:
    """The same `count` abstracts as one JSON Lines file and as paragraph files of
    `per_file` abstracts each (the size of a large conference's list)."""
    import json

    records = _records(corpora, count, seed)
    jsonl = folder / "arxiv-snapshot.jsonl"
    with open(jsonl, "w", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps(record) + "\n")
    # The same abstracts with nothing else: what reading the format costs, apart from
    # the authors, years and titles that arXiv's records add to the index.
    with open(folder / "abstracts-only.jsonl", "w", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps({"id": record["id"], "abstract": record["abstract"]}) + "\n")
    files = write_paragraph_lists((str(r["abstract"]) for r in records), folder / "paragraphs",
                                  per_file, "Snapshot part")
    return jsonl, files


FORMAT_KINDS = ("jsonl", "jsonl-abs", "paragraphs")
"""The lists the formats row builds: arXiv-shaped JSON Lines, the same abstracts alone
as JSON Lines, and as paragraph files."""


def bench_formats(corpora: Path, workdir: Path, count: int, builds: int,
                  kinds: tuple[str, ...] = FORMAT_KINDS) -> None:
    """The formats row: papers/s and peak memory, JSON Lines against paragraph files
    (`kinds`: which of `FORMAT_KINDS` to build; the ratios need `jsonl` and `paragraphs`)."""
    folder = workdir / "formats"
    folder.mkdir()
    started = time.perf_counter()
    jsonl, files = write_format_lists(corpora, folder, count)
    size = jsonl.stat().st_size / 2**20
    print(f"formats: {count} records ({size:.0f} MB as JSON Lines, {len(files)} paragraph "
          f"files) written in {time.perf_counter() - started:.0f} s")
    plain = folder / "abstracts-only.jsonl"
    results: dict[str, list[tuple[float, int, int, float]]] = {kind: [] for kind in kinds}
    inputs = {kind: {"jsonl": [jsonl], "paragraphs": files, "jsonl-abs": [plain]}[kind]
              for kind in kinds}
    for path in (p for paths in inputs.values() for p in paths):
        path.read_bytes()  # each build starts with its lists read once, none from disk
    order = list(inputs)
    for _ in range(max(1, builds)):
        # Alternating, each kind first in turn, so that drifts in the machine's speed
        # (seen here: the same build taking 150 s, then 290 s) hit all alike.
        for name in order:
            results[name].append(timed_build(inputs[name], folder / f"ix-{name}"))
        order = order[1:] + order[:1]
    rate, cpu = {}, {}
    for name, runs in results.items():
        seconds = statistics.median(r[0] for r in runs)
        papers = runs[0][1]
        peak = max(r[2] for r in runs) / 1024
        rate[name] = papers / seconds
        cpu[name] = statistics.median(r[3] for r in runs) / papers * 1000
        print(f"  {name:<10} {papers} papers: median {seconds:.1f} s = {rate[name]:.0f} papers/s, "
              f"CPU {cpu[name]:.3f} ms a paper, peak memory {peak:.0f} MB (" + ", ".join(
                  f"{r[0]:.1f} s/{r[3]:.0f} s CPU/{r[2] / 1024:.0f} MB" for r in runs) + ")")
    for name in ("jsonl", "jsonl-abs"):
        if name in rate and "paragraphs" in rate:
            print(f"  {name} against paragraphs: papers/s {rate[name] / rate['paragraphs']:.2f}, "
                  f"by CPU time a paper {cpu['paragraphs'] / cpu[name]:.2f} [goal >= 0.9]")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path, default=shared("corpora"))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--cold-runs", type=int, default=10)
    parser.add_argument("--builds", type=int, default=3,
                        help="full rebuilds to take the median of (other jobs skew single runs)")
    parser.add_argument("--formats", type=int, default=250_000, metavar="N",
                        help="records for the JSON Lines against paragraphs row (0: skip)")
    parser.add_argument("--format-builds", type=int, default=2)
    parser.add_argument("--format-kinds", default=",".join(FORMAT_KINDS),
                        help="which lists the formats row builds, comma-separated: "
                             + ", ".join(FORMAT_KINDS))
    parser.add_argument("--only-formats", action="store_true",
                        help="run only the formats row")
    args = parser.parse_args()
    kinds = tuple(k.strip() for k in args.format_kinds.split(",") if k.strip())
    if not kinds or not set(kinds) <= set(FORMAT_KINDS):
        parser.error(f"--format-kinds takes {', '.join(FORMAT_KINDS)}")
    require(args.corpora, "engine.py", "corpora", "--corpora")
    workdir = Path(tempfile.mkdtemp(prefix="paperscope-bench-"))
    try:
        index_dir = workdir / "index"
        print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
        if args.only_formats:
            bench_formats(args.corpora, workdir, args.formats, args.format_builds, kinds)
            return
        # paperscope's builder and plain Whoosh (two writer processes, merged at commit,
        # and at its best: the abstract stored, no merge), each a fresh process,
        # alternately so that load drifts hit all three.
        lists = sorted(args.corpora.glob("*.txt"))
        ours: list = []
        plain: dict[str, list] = {kind: [] for kind in PLAIN_WHOOSH_KINDS}
        for _ in range(max(1, args.builds)):
            ours.append(timed_paperscope_build([args.corpora], index_dir))
            for kind, timed in plain.items():
                timed.append(timed_plain_whoosh_build(lists, workdir / f"whoosh-{kind}", kind))
        count = int(ours[0].output.split()[-1])
        build = statistics.median(t.seconds for t in ours)
        print(f"index build: {count} papers in {build:.2f} s = {count / build:.0f} papers/s "
              f"(median of {len(ours)}: " + ", ".join(f"{t.seconds:.2f}" for t in ours) + " s), "
              f"peak memory {max(t.tree_peak_kb for t in ours) / 1024:.0f} MB")
        for kind, how, goal in (
                ("merged", "procs=2, one stemmed field, merged at commit", 2.0),
                ("best", "procs=2, multisegment=True, the abstract stored", 1.2)):
            seconds = statistics.median(t.seconds for t in plain[kind])
            segments = plain[kind][0].output.split()[-1]
            print(f"  plain Whoosh ({how}; {segments} segments), same abstracts: "
                  f"{seconds:.2f} s (" + ", ".join(f"{t.seconds:.2f}" for t in plain[kind])
                  + f" s); paperscope builds at {seconds / build:.2f}x its speed "
                  f"[goal >= {goal:g}x: {'met' if seconds / build >= goal else 'NOT met'}]")
        times = bench_search(args.corpora, index_dir, args.repeat)
        print(f"search ({len(QUERIES)} queries x {args.repeat}): "
              f"p50 {statistics.median(times):.1f} ms, p95 {percentile(times, 0.95):.1f} ms, "
              f"max {max(times):.1f} ms")
        slowest = sorted(zip((t for t in times[:len(QUERIES)]), QUERIES), reverse=True)[:5]
        print("  slowest (first round): " + ", ".join(f"{q!r} {t:.0f} ms" for t, q in slowest))
        hows = [(True, "bytecode cached, as installed")]
        if os.environ.get("PYTHONDONTWRITEBYTECODE"):
            hows.append((False, "PYTHONDONTWRITEBYTECODE as set here: compiled at every start"))
        for cached, how in hows:
            cold, bare = cold_searches([str(args.corpora)], index_dir, args.cold_runs,
                                       cached=cached)
            cold_ratio = statistics.median(cold) / statistics.median(bare)
            print(f"cold `paperscope search kernel` process: median "
                  f"{statistics.median(cold):.0f} ms against a bare `python -c pass` "
                  f"{statistics.median(bare):.0f} ms (alternately, {len(cold)} each, {how}): "
                  f"{cold_ratio:.2f}x [goal <= 5x: {'met' if cold_ratio <= 5 else 'NOT met'}]")
        fts_build, fts = bench_fts5(args.corpora, args.repeat)
        fts_ratio = statistics.median(times) / statistics.median(fts)
        print(f"SQLite FTS5 same queries: p50 {statistics.median(fts):.1f} ms, "
              f"p95 {percentile(fts, 0.95):.1f} ms (insert {fts_build:.1f} s); paperscope's "
              f"per-query median is {fts_ratio:.2f}x FTS5's (p95 "
              f"{percentile(times, 0.95) / percentile(fts, 0.95):.2f}x) [goal <= 1x: "
              f"{'met' if fts_ratio <= 1 else 'NOT met'}]")
        if args.formats:
            bench_formats(args.corpora, workdir, args.formats, args.format_builds, kinds)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
