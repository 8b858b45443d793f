"""Engine benchmark: index build, search latency, cold CLI search, and SQLite FTS5.

    python bench/engine.py [--corpora ../shared/corpora] [--repeat 5] [--builds 3]

Everything goes through the product's own code (`open_library`, `search`, the
`paperscope` command). SQLite FTS5 answers the same queries over the same rendered
text in the same run, as a yardstick. Figures are medians and 95th percentiles of
one run: this machine is noisy, so compare ratios within a run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

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


def bench_build(corpora: Path, index_dir: Path) -> tuple[float, int]:
    started = time.perf_counter()
    library = open_library([str(corpora)], str(index_dir), rebuild=True)
    elapsed = time.perf_counter() - started
    count = len(library)
    library.close()
    return elapsed, count


def bench_search(corpora: Path, index_dir: Path, repeat: int) -> list[float]:
    library = open_library([str(corpora)], str(index_dir))
    search(library, "warm up")
    times = []
    for _ in range(repeat):
        for query in QUERIES:
            times.append(search(library, query, limit=20).elapsed_ms)
    library.close()
    return times


def bench_cold(corpora: Path, index_dir: Path, runs: int) -> list[float]:
    times = []
    exe = [sys.executable, "-m", "tui", "search", "--seeds", str(corpora),
           "--index-dir", str(index_dir), "--limit", "10"]
    for i in range(runs):
        started = time.perf_counter()
        subprocess.run([*exe, QUERIES[i % len(QUERIES)]], cwd=ROOT, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
        times.append((time.perf_counter() - started) * 1000)
    return times


def bench_python_start(runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        times.append((time.perf_counter() - started) * 1000)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--cold-runs", type=int, default=10)
    parser.add_argument("--builds", type=int, default=3,
                        help="full rebuilds to take the median of (other jobs skew single runs)")
    args = parser.parse_args()
    if not args.corpora.is_dir():
        sys.exit(f"bench: no corpora at {args.corpora}")
    workdir = Path(tempfile.mkdtemp(prefix="paperscope-bench-"))
    try:
        index_dir = workdir / "index"
        print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
        builds = []
        for _ in range(max(1, args.builds)):
            seconds, count = bench_build(args.corpora, index_dir)
            builds.append(seconds)
        build = statistics.median(builds)
        print(f"index build: {count} papers in {build:.2f} s = {count / build:.0f} papers/s "
              f"(median of {len(builds)}: " + ", ".join(f"{b:.2f}" for b in builds) + " s)")
        times = bench_search(args.corpora, index_dir, args.repeat)
        print(f"search ({len(QUERIES)} queries x {args.repeat}): "
              f"p50 {statistics.median(times):.1f} ms, p95 {percentile(times, 0.95):.1f} ms, "
              f"max {max(times):.1f} ms")
        slowest = sorted(zip((t for t in times[:len(QUERIES)]), QUERIES), reverse=True)[:5]
        print("  slowest (first round): " + ", ".join(f"{q!r} {t:.0f} ms" for t, q in slowest))
        cold = bench_cold(args.corpora, index_dir, args.cold_runs)
        bare = bench_python_start(args.cold_runs)
        print(f"cold `paperscope search` process: median {statistics.median(cold):.0f} ms "
              f"(bare `python -c pass`: {statistics.median(bare):.0f} ms)")
        fts_build, fts = bench_fts5(args.corpora, args.repeat)
        print(f"SQLite FTS5 same queries: p50 {statistics.median(fts):.1f} ms, "
              f"p95 {percentile(fts, 0.95):.1f} ms (insert {fts_build:.1f} s)")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
