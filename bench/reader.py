"""How the reader feels at scale: keystroke latency, start-up time, peak memory.

    python bench/reader.py [--corpora ../shared/corpora] [--index-dir DIR] [--skip-50k]

1. Keystroke → repainted list: the reader runs headless on the corpora (21k papers) at
   120×40; queries are typed one character at a time, and each keystroke is timed until
   the frame in which the list drew that keystroke's result (`PaperList`'s
   `painted_generation`) was written. Also printed: the time until the reader is idle
   again, which adds what runs after that frame (the detail pane following the list),
   and the search itself (`SearchResult.elapsed_ms`), so that engine time and UI time
   can be told apart.
2. Start-up: the time from starting `python` until the compositor has made the first
   frame (ready to be written to the terminal), and the first frame with rows of papers
   in the list (index already built), next to a minimal Textual app's first frame,
   timed the same way in the same run; both run headless in fresh processes,
   alternately, and the medians are compared. Also printed: when the lists are open
   and every paper is listed (the reader then answers searches). The start-up is
   measured as installed, with Python's bytecode cache on (pip compiles installed
   packages; a checkout caches its bytecode at its first run), kept under the
   `--index-dir` folder; where the environment turns the cache off
   (PYTHONDONTWRITEBYTECODE), it is measured that way too, with paperscope's modules
   compiled at every start.
3. Peak memory at ~50k papers: the corpora twice over (copied under two names into a
   temporary folder), read as the maximum resident set size of a reader process that
   opens them, types a query and scrolls to the end.

The reader is driven through the same factory and the same search function as the
`paperscope` command. Indexes are kept in `--index-dir` (default: a folder in the
system's temp dir) so that reruns skip the build.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.material import require, shared  # noqa: E402
from bench.reader_probe import (  # noqa: E402
    QUERIES, SIZE, build_index, bytecode_cached_env, keystroke_latencies, percentile, press,
    reader_memory, startup_medians, wait_painted,
)

TARGET_P95_MS = 50.0
TARGET_STARTUP_RATIO = 1.5
TARGET_PEAK_MB = 400.0


# -- measured here: scrolling ----------------------------------------------------------


async def scroll_latencies(seeds: list[str], index_dir: str) -> list[float]:
    """Key → repainted list (ms) for page and line moves through every paper."""
    from tui.app.app import create_app
    from tui.app.widgets.paper_list import PaperList

    painted = [0.0]
    render_line = PaperList.render_line

    def timed_render_line(self, y):  # the bench's probe: when did the list last draw?
        painted[0] = time.perf_counter()
        return render_line(self, y)

    PaperList.render_line = timed_render_line
    app = create_app(seeds, index_dir, "", cursor_blink=False)
    latencies: list[float] = []
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_painted(app, timeout=600)
            for key in ["pagedown"] * 30 + ["j"] * 30 + ["end", "home", "G"]:
                await pilot.pause()
                started = time.perf_counter()
                press(app, key)
                while painted[0] < started:
                    await asyncio.sleep(0.0002)
                latencies.append((time.perf_counter() - started) * 1000)
    finally:
        PaperList.render_line = render_line
    return latencies


# -- the report ------------------------------------------------------------------------


def doubled_corpora(corpora: Path, folder: Path) -> Path:
    """The corpora's lists twice, under two names, in `folder` (made once)."""
    target = folder / "corpora-x2"
    if not target.is_dir():
        target.mkdir(parents=True)
        for copy in ("a", "b"):
            for path in sorted(corpora.glob("*.txt")):
                if path.name != "README.md":
                    shutil.copyfile(path, target / f"{copy}_{path.name}")
    return target


def _report_startup(runs: int, seeds: str, index_dir: str, papers: int) -> None:
    """The start-up as installed (Python's bytecode cache on), and also with paperscope's
    modules compiled at every start when the environment turns the cache off."""
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        # First, before the run below caches anything: it caches outside the checkout
        # anyway (a prefix), so these starts find only what the checkout already has.
        _compare_startup(runs, seeds, index_dir, papers, None,
                         "PYTHONDONTWRITEBYTECODE is set here: modules without cached "
                         "bytecode, such as paperscope's, are compiled at every start")
    _compare_startup(runs, seeds, index_dir, papers, bytecode_cached_env(Path(index_dir).parent),
                     "as installed: bytecode cached")


def _compare_startup(runs: int, seeds: str, index_dir: str, papers: int,
                     env: dict[str, str] | None, how: str) -> None:
    """Start both apps `runs` times, alternately; print the medians and their ratios."""
    base, frame, rows, ready, rows_ratio, ready_ratio = startup_medians(runs, seeds,
                                                                        index_dir, env)
    print(f"start-up ({how}), python → frame made (median of {runs}, built index): "
          f"minimal Textual "
          f"app {base:.3f} s · reader's first frame {frame:.3f} s ({frame / base:.2f}×) · "
          f"first frame with rows of papers {rows:.3f} s ({rows_ratio:.2f}×, the median "
          f"of the pairs' ratios) [target ≤ {TARGET_STARTUP_RATIO}×: "
          f"{'met' if rows_ratio <= TARGET_STARTUP_RATIO else 'NOT met'}]")
    print(f"  lists open and all {papers:,} papers listed: {ready:.3f} s ({ready_ratio:.2f}×)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", default=str(shared("corpora")))
    parser.add_argument("--index-dir", default=str(Path(tempfile.gettempdir())
                                                   / "paperscope-bench"))
    parser.add_argument("--runs", type=int, default=15, help="start-up runs of each app")
    parser.add_argument("--skip-50k", action="store_true", help="leave out the memory run")
    parser.add_argument("--startup-only", action="store_true",
                        help="measure only the start-up (after building the index)")
    args = parser.parse_args(argv)

    corpora = Path(args.corpora)
    require(corpora, "reader.py", "corpora", "--corpora")
    bench_dir = Path(args.index_dir)
    index_21k = str(bench_dir / "index-corpora")
    seeds = [str(corpora)]
    papers = build_index(seeds, index_21k)
    print(f"paperscope reader benchmark · {papers:,} papers from {corpora} · "
          f"{SIZE[0]}×{SIZE[1]} headless")
    if args.startup_only:
        _report_startup(args.runs, seeds[0], index_21k, papers)
        return 0

    latencies, to_idle, engine, _ = asyncio.run(keystroke_latencies(seeds, index_21k, QUERIES))
    p50, p95 = percentile(latencies, 0.5), percentile(latencies, 0.95)
    print(f"keystroke → frame with the repainted list written ({len(latencies)} keystrokes "
          f"of {len(QUERIES)} queries): p50 {p50:.1f} ms · p95 {p95:.1f} ms · "
          f"max {max(latencies):.1f} ms "
          f"[target p95 ≤ {TARGET_P95_MS:.0f} ms: {'met' if p95 <= TARGET_P95_MS else 'NOT met'}]")
    print(f"  of which search (core): p50 {percentile(engine, 0.5):.1f} ms · "
          f"p95 {percentile(engine, 0.95):.1f} ms · max {max(engine):.1f} ms")
    print(f"  until the reader is idle again (the detail pane has followed): "
          f"p50 {percentile(to_idle, 0.5):.1f} ms · p95 {percentile(to_idle, 0.95):.1f} ms")
    slow = sorted(zip(latencies, engine), reverse=True)[:3]
    print("  slowest: " + ", ".join(f"{lat:.0f} ms (search {eng:.0f})" for lat, eng in slow))

    scrolls = asyncio.run(scroll_latencies(seeds, index_21k))
    print(f"scrolling the full list ({len(scrolls)} page/line/end moves): "
          f"p50 {percentile(scrolls, 0.5):.1f} ms · p95 {percentile(scrolls, 0.95):.1f} ms · "
          f"max {max(scrolls):.1f} ms")

    _report_startup(args.runs, seeds[0], index_21k, papers)

    if not args.skip_50k:
        doubled = doubled_corpora(corpora, bench_dir)
        index_50k = str(bench_dir / "index-corpora-x2")
        build_index([str(doubled)], index_50k)
        count, peak_mb = reader_memory(str(doubled), index_50k)
        print(f"peak memory, {int(count):,} papers (open, search, scroll to the end): "
              f"{float(peak_mb):.0f} MB [target < {TARGET_PEAK_MB:.0f} MB: "
              f"{'met' if float(peak_mb) < TARGET_PEAK_MB else 'NOT met'}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
