"""Engine benchmark: index build, search latency, cold CLI search, and SQLite FTS5.

    python bench/engine.py [--corpora ../shared/corpora] [--repeat 5] [--builds 3]
                           [--formats 250000] [--format-builds 2]

Everything goes through the product's own code (`open_library`, `search`, the
`paperscope` command). SQLite FTS5 answers the same queries over the same rendered
text in the same run, as a yardstick. Figures are medians and 95th percentiles of
one run: this machine is noisy, so compare ratios within a run.

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
            # As the reader searches while a query is typed: the queries are typed
            # prefixes ("t", "diffu") and words.
            times.append(search(library, query, limit=20, typing=True).elapsed_ms)
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


def _records(corpora: Path, count: int, seed: int) -> list[dict[str, object]]:
    """`count` arXiv-shaped records whose abstracts are seeded draws of the corpora's
    sentences (4 to 9 each), so that every abstract is new text of real shape."""
    import random
    import re

    from tui.core.lists.paragraphs import paragraphs

    sentences: list[str] = []
    for path in sorted(corpora.glob("*.txt")):
        for abstract in paragraphs(path.read_text(encoding="utf-8"))[1:]:
            sentences += re.split(r"(?<=[.!?])\s+(?=[A-Z])", abstract)
    rng = random.Random(seed)
    surnames = sorted({w for s in sentences[:20000] for w in s.split() if w.istitle()})[:3000]
    out = []
    for n in range(count):
        text = " ".join(rng.choice(sentences) for _ in range(rng.randint(4, 9)))
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
    paragraph_dir = folder / "paragraphs"
    paragraph_dir.mkdir()
    files = []
    for start in range(0, count, per_file):
        path = paragraph_dir / f"list{start // per_file:03d}.txt"
        chunk = [" ".join(str(r["abstract"]).split()) for r in records[start:start + per_file]]
        path.write_text(f"Snapshot part {start // per_file}\n\n" + "\n\n".join(chunk) + "\n",
                        encoding="utf-8")
        files.append(path)
    return jsonl, files


def _tree_rss_kb(root: int) -> int:
    """The resident memory of process `root` and all its descendants, in KB."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as handle:
                    ppid = int(handle.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        try:
            with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as handle:
                total += next((int(line.split()[1]) for line in handle
                               if line.startswith("VmRSS:")), 0)
        except OSError:
            continue
    return total


def timed_build(lists: list[Path], index_dir: Path) -> tuple[float, int, int]:
    """Build the index of `lists` in a fresh process: (seconds, papers, peak KB of the
    build's processes, sampled every 50 ms)."""
    code = ("import sys; from tui.core.index.library import open_library; "
            "lib = open_library(sys.argv[2:], sys.argv[1], rebuild=True); print(len(lib))")
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code, str(index_dir), *map(str, lists)],
                            cwd=ROOT, stdout=subprocess.PIPE, text=True)
    peak = 0
    while proc.poll() is None:
        peak = max(peak, _tree_rss_kb(proc.pid))
        time.sleep(0.05)
    elapsed = time.perf_counter() - started
    out = proc.stdout.read() if proc.stdout else ""
    if proc.returncode:
        sys.exit(f"bench: build of {lists[0]}... failed ({proc.returncode})")
    return elapsed, int(out.split()[-1]), peak


def bench_formats(corpora: Path, workdir: Path, count: int, builds: int) -> None:
    """The formats row: papers/s and peak memory, JSON Lines against paragraph files."""
    folder = workdir / "formats"
    folder.mkdir()
    started = time.perf_counter()
    jsonl, files = write_format_lists(corpora, folder, count)
    size = jsonl.stat().st_size / 2**20
    print(f"formats: {count} records ({size:.0f} MB as JSON Lines, {len(files)} paragraph "
          f"files) written in {time.perf_counter() - started:.0f} s")
    plain = folder / "abstracts-only.jsonl"
    results: dict[str, list[tuple[float, int, int]]] = {"jsonl": [], "jsonl-abs": [],
                                                        "paragraphs": []}
    for _ in range(max(1, builds)):  # alternating, so that load drifts hit all alike
        results["jsonl"].append(timed_build([jsonl], folder / "ix-jsonl"))
        results["paragraphs"].append(timed_build(files, folder / "ix-paragraphs"))
        results["jsonl-abs"].append(timed_build([plain], folder / "ix-jsonl-abs"))
    rate = {}
    for name, runs in results.items():
        seconds = statistics.median(r[0] for r in runs)
        papers = runs[0][1]
        peak = max(r[2] for r in runs) / 1024
        rate[name] = papers / seconds
        print(f"  {name:<10} {papers} papers: median {seconds:.1f} s = {rate[name]:.0f} papers/s, "
              f"peak memory {peak:.0f} MB (" + ", ".join(f"{r[0]:.1f} s/{r[2] / 1024:.0f} MB"
                                                   for r in runs) + ")")
    print(f"  papers/s against paragraphs: JSON Lines {rate['jsonl'] / rate['paragraphs']:.2f}, "
          f"abstracts-only JSON Lines {rate['jsonl-abs'] / rate['paragraphs']:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--cold-runs", type=int, default=10)
    parser.add_argument("--builds", type=int, default=3,
                        help="full rebuilds to take the median of (other jobs skew single runs)")
    parser.add_argument("--formats", type=int, default=250_000, metavar="N",
                        help="records for the JSON Lines against paragraphs row (0: skip)")
    parser.add_argument("--format-builds", type=int, default=2)
    parser.add_argument("--only-formats", action="store_true",
                        help="run only the formats row")
    args = parser.parse_args()
    if not args.corpora.is_dir():
        sys.exit(f"bench: no corpora at {args.corpora}")
    workdir = Path(tempfile.mkdtemp(prefix="paperscope-bench-"))
    try:
        index_dir = workdir / "index"
        print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
        if args.only_formats:
            bench_formats(args.corpora, workdir, args.formats, args.format_builds)
            return
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
        if args.formats:
            bench_formats(args.corpora, workdir, args.formats, args.format_builds)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
