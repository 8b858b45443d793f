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
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

QUERIES = ["transformer", "graph neural network", "reinforcement learning",
           "bayesian optimization", "diffusion model", "sparse coding"]
"""What is typed, one character at a time (spaces included)."""
SIZE = (120, 40)
TARGET_P95_MS = 50.0
TARGET_STARTUP_RATIO = 1.5
TARGET_PEAK_MB = 400.0


# -- measurements that run inside the reader -------------------------------------------


async def _wait_painted(app, timeout: float = 30.0) -> None:
    """Until the latest search is on screen and the list has drawn it."""
    from tui.app.widgets.paper_list import PaperList

    reader = app.reader
    deadline = time.perf_counter() + timeout
    while True:
        papers = next(iter(reader.query(PaperList)), None)  # None until composed
        if (papers is not None and reader.library is not None
                and reader.shown_serial == reader.search_serial and papers.generation > 0
                and papers.painted_generation == papers.generation):
            return
        if time.perf_counter() > deadline:
            raise TimeoutError("the reader did not repaint")
        await asyncio.sleep(0.0005)


def _press(app, key: str) -> None:
    """Send a key as the terminal driver does (Pilot's own waiting would be timed too)."""
    from textual import events

    char = {"space": " "}.get(key, key if len(key) == 1 else None)
    app.post_message(events.Key(key, char))


class _FrameProbe:
    """When the frame that first showed each list generation was handed to the terminal.

    Wraps the screen's compositor refresh (render the changed regions, write them to
    the driver): a frame during which the list drew a generation it had not drawn
    before records that generation with the time the frame was written.
    """

    def __init__(self) -> None:
        self.written: dict[int, float] = {}

    def __enter__(self) -> _FrameProbe:
        from textual.screen import Screen

        from tui.app.widgets.paper_list import PaperList

        refresh = self._original = Screen._compositor_refresh
        written = self.written

        def timed_refresh(screen) -> None:  # the bench's probe
            lists = list(screen.query(PaperList))
            before = [papers.painted_generation for papers in lists]
            refresh(screen)
            for papers, was in zip(lists, before):
                if papers.painted_generation != was:
                    written.setdefault(papers.painted_generation, time.perf_counter())

        Screen._compositor_refresh = timed_refresh
        return self

    def __exit__(self, *exc: object) -> None:
        from textual.screen import Screen

        Screen._compositor_refresh = self._original


async def keystroke_latencies(seeds: list[str], index_dir: str, queries: list[str],
                              ) -> tuple[list[float], list[float], list[float], int]:
    """(ms to the frame with the new list, ms until the reader is idle again, search
    ms, papers), one value per keystroke."""
    from tui.app.app import create_app

    app = create_app(seeds, index_dir, "", cursor_blink=False)
    to_frame: list[float] = []
    to_idle: list[float] = []
    engine: list[float] = []
    with _FrameProbe() as probe:
        async with app.run_test(size=SIZE) as pilot:
            await _wait_painted(app, timeout=600)
            reader = app.reader
            papers = len(app.library)
            for query in queries:
                await pilot.press("slash")
                reader.search_box.value = ""
                await _wait_painted(app)
                await pilot.pause()
                for char in query:
                    before = reader.search_serial
                    started = time.perf_counter()
                    _press(app, "space" if char == " " else char)
                    while reader.search_serial == before:  # the key has not arrived yet
                        await asyncio.sleep(0.0002)
                    await _wait_painted(app)
                    # The bench's coroutine runs again once the frame is written and
                    # what the frame's callbacks do (the detail pane follows) is done.
                    to_idle.append((time.perf_counter() - started) * 1000)
                    generation = reader.paper_list.painted_generation
                    to_frame.append((probe.written[generation] - started) * 1000)
                    engine.append(reader.result.elapsed_ms)
                    await pilot.pause()  # let the detail pane catch up before the next key
    return to_frame, to_idle, engine, papers


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
            await _wait_painted(app, timeout=600)
            for key in ["pagedown"] * 30 + ["j"] * 30 + ["end", "home", "G"]:
                await pilot.pause()
                started = time.perf_counter()
                _press(app, key)
                while painted[0] < started:
                    await asyncio.sleep(0.0002)
                latencies.append((time.perf_counter() - started) * 1000)
    finally:
        PaperList.render_line = render_line
    return latencies


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


# -- child processes: start-up and memory ----------------------------------------------


def _probe_frames(drew_list=None) -> list[float]:
    """Record (wall clock) when the compositor has made the first frame, ready to be
    written to the terminal; with `drew_list`, then also when it first made a frame in
    which `drew_list()` is true."""
    from textual._compositor import Compositor

    frames: list[float] = []
    render_update = Compositor.render_update

    def timed(self, *args, **kwargs):  # the bench's probe, the same for both apps
        update = render_update(self, *args, **kwargs)
        if update is not None:
            now = time.time()
            if not frames:
                frames.append(now)
            if drew_list is not None and len(frames) == 1 and drew_list():
                frames.append(now)
        return update

    Compositor.render_update = timed
    return frames


def child_startup_reader(seeds: list[str], index_dir: str) -> None:
    """Start the reader headless; print when its first frame was made, when a frame
    first showed rows of papers, and when the lists were open and the list drawn."""
    from tui.app.app import create_app
    from tui.app.widgets.paper_list import PaperList

    app = None

    def drew_list() -> bool:
        papers = next(iter(app.reader.query(PaperList)), None) if app else None
        return bool(papers is not None and papers.hits and papers.painted_generation)

    frames = _probe_frames(drew_list)
    app = create_app(seeds, index_dir, "", cursor_blink=False)
    ready: list[float] = []

    async def exit_when_painted(pilot) -> None:
        await _wait_painted(app, timeout=600)
        ready.append(time.time())
        app.exit()

    app.run(headless=True, size=SIZE, auto_pilot=exit_when_painted)
    print(frames[0], frames[1], ready[0])


def child_startup_minimal() -> None:
    """The smallest Textual app: print when its first frame was drawn."""
    frames = _probe_frames()
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    class Minimal(App[None]):
        def compose(self) -> ComposeResult:
            yield Static("hello")

    app = Minimal()

    async def exit_when_painted(pilot) -> None:
        while not frames:
            await asyncio.sleep(0.0005)
        app.exit()

    app.run(headless=True, size=SIZE, auto_pilot=exit_when_painted)
    print(frames[0], frames[0], frames[0])


def child_memory(seeds: list[str], index_dir: str) -> None:
    """Open the reader, type a query, page through it and to the end; print peak RSS."""
    from tui.app.app import create_app

    app = create_app(seeds, index_dir, "", cursor_blink=False)

    async def session(pilot) -> None:
        await _wait_painted(app, timeout=1800)
        await pilot.press("slash", *"neural network", "enter")
        await _wait_painted(app)
        await pilot.press(*["pagedown"] * 20, "end")
        await pilot.press("escape")  # clear the query: every paper is listed again
        await _wait_painted(app)
        await pilot.press(*["pagedown"] * 50, "end", "enter")
        await pilot.pause()
        app.exit(len(app.library))

    papers = app.run(headless=True, size=SIZE, auto_pilot=session)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{papers} {peak_mb:.1f}")


def _run_child(mode: str, *args: str, env: dict[str, str] | None = None) -> str:
    done = subprocess.run([sys.executable, __file__, "--child", mode, *args], check=True,
                          capture_output=True, text=True, cwd=ROOT, env=env)
    return done.stdout


def _startup(mode: str, *args: str, env: dict[str, str] | None = None,
             ) -> tuple[float, float, float]:
    """Seconds from starting `python` to (first frame, first frame with rows of papers,
    lists open and their list drawn)."""
    started = time.time()
    out = _run_child(mode, *args, env=env)
    first, rows, ready = (float(x) - started for x in out.split())
    return first, rows, ready


# -- the report ------------------------------------------------------------------------


def build_index(seeds: list[str], index_dir: str) -> int:
    """Open (building if needed) the index, with progress on stderr; the paper count."""
    from tui.core.index.library import open_library

    def progress(done: int, total: int) -> None:
        print(f"\r  indexing {done}/{total} files", end="", file=sys.stderr, flush=True)

    started = time.perf_counter()
    with open_library(seeds, index_dir, progress) as library:
        count = len(library)
    print(f"\r  index ready: {count:,} papers ({time.perf_counter() - started:.1f} s)",
          file=sys.stderr)
    return count


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
    cached = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    cached["PYTHONPYCACHEPREFIX"] = str(Path(index_dir).parent / "pycache")
    _compare_startup(runs, seeds, index_dir, papers, cached,
                     "as installed: bytecode cached")


def _compare_startup(runs: int, seeds: str, index_dir: str, papers: int,
                     env: dict[str, str] | None, how: str) -> None:
    """Start both apps `runs` times, alternately; print the medians and their ratios."""
    minimal, reader = [], []
    _startup("startup-minimal", env=env)  # warm the file and bytecode caches for both
    _startup("startup-reader", seeds, index_dir, env=env)
    for _ in range(runs):
        minimal.append(_startup("startup-minimal", env=env)[0])
        reader.append(_startup("startup-reader", seeds, index_dir, env=env))
    base = statistics.median(minimal)
    frame, rows, ready = (statistics.median(times) for times in zip(*reader))
    print(f"start-up ({how}), python → frame made (median of {runs}, built index): "
          f"minimal Textual "
          f"app {base:.3f} s · reader's first frame {frame:.3f} s ({frame / base:.2f}×) · "
          f"first frame with rows of papers {rows:.3f} s ({rows / base:.2f}×) "
          f"[target ≤ {TARGET_STARTUP_RATIO}×: "
          f"{'met' if rows / base <= TARGET_STARTUP_RATIO else 'NOT met'}]")
    print(f"  lists open and all {papers:,} papers listed: {ready:.3f} s ({ready / base:.2f}×)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", default=str(ROOT.parent / "shared" / "corpora"))
    parser.add_argument("--index-dir", default=str(Path(tempfile.gettempdir())
                                                   / "paperscope-bench"))
    parser.add_argument("--runs", type=int, default=5, help="start-up runs of each app")
    parser.add_argument("--skip-50k", action="store_true", help="leave out the memory run")
    parser.add_argument("--startup-only", action="store_true",
                        help="measure only the start-up (after building the index)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("child_args", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.child == "startup-reader":
        child_startup_reader([args.child_args[0]], args.child_args[1])
        return 0
    if args.child == "startup-minimal":
        child_startup_minimal()
        return 0
    if args.child == "memory":
        child_memory([args.child_args[0]], args.child_args[1])
        return 0

    corpora = Path(args.corpora)
    if not corpora.is_dir():
        print(f"reader.py: no corpora at {corpora} (use --corpora)", file=sys.stderr)
        return 2
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
    p50, p95 = _percentile(latencies, 0.5), _percentile(latencies, 0.95)
    print(f"keystroke → frame with the repainted list written ({len(latencies)} keystrokes "
          f"of {len(QUERIES)} queries): p50 {p50:.1f} ms · p95 {p95:.1f} ms · "
          f"max {max(latencies):.1f} ms "
          f"[target p95 ≤ {TARGET_P95_MS:.0f} ms: {'met' if p95 <= TARGET_P95_MS else 'NOT met'}]")
    print(f"  of which search (core): p50 {_percentile(engine, 0.5):.1f} ms · "
          f"p95 {_percentile(engine, 0.95):.1f} ms · max {max(engine):.1f} ms")
    print(f"  until the reader is idle again (the detail pane has followed): "
          f"p50 {_percentile(to_idle, 0.5):.1f} ms · p95 {_percentile(to_idle, 0.95):.1f} ms")
    slow = sorted(zip(latencies, engine), reverse=True)[:3]
    print("  slowest: " + ", ".join(f"{lat:.0f} ms (search {eng:.0f})" for lat, eng in slow))

    scrolls = asyncio.run(scroll_latencies(seeds, index_21k))
    print(f"scrolling the full list ({len(scrolls)} page/line/end moves): "
          f"p50 {_percentile(scrolls, 0.5):.1f} ms · p95 {_percentile(scrolls, 0.95):.1f} ms · "
          f"max {max(scrolls):.1f} ms")

    _report_startup(args.runs, seeds[0], index_21k, papers)

    if not args.skip_50k:
        doubled = doubled_corpora(corpora, bench_dir)
        index_50k = str(bench_dir / "index-corpora-x2")
        build_index([str(doubled)], index_50k)
        out = _run_child("memory", str(doubled), index_50k)
        count, peak_mb = out.split()
        print(f"peak memory, {int(count):,} papers (open, search, scroll to the end): "
              f"{float(peak_mb):.0f} MB [target < {TARGET_PEAK_MB:.0f} MB: "
              f"{'met' if float(peak_mb) < TARGET_PEAK_MB else 'NOT met'}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
