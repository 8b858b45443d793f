"""How the reader is measured: keystroke → painted list, start-up, memory of an open reader.

Shared by the benchmarks that drive the reader (`bench/reader.py` on the corpora,
`bench/scale.py` on made corpora of any size, `bench/soak.py`, `bench/browser.py`), so
that they all measure the same thing the same way:

- `keystroke_latencies`: the reader runs headless at `SIZE`; queries are typed one
  character at a time, and each keystroke is timed until the frame in which the list drew
  that keystroke's result (`PaperList`'s `painted_generation`) was written; also the time
  until the reader is idle again, and the search's own time (`SearchResult.elapsed_ms`).
- `startup_medians`: python → the compositor's first frame, and → the first frame with
  rows of papers (index already built), next to a minimal Textual app timed the same way,
  both in fresh processes, in pairs run one after the other (which one first
  alternates); medians, and the ratios as the median of the pairs' ratios: a start-up
  on a shared machine moves by half between two runs a minute apart, and a pair's two
  starts share the machine's state of the moment.
- `reader_memory`: the peak resident memory of a reader process that opens the lists,
  types a query, pages through it and through every paper: its own (`rss`), not the
  benchmark's that started it.

Sort, filter and similar papers are timed the same way by `bench/reader_actions.py`
(child mode `actions`).

The child processes run this file: `python bench/reader_probe.py MODE ARGS...`.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.rss import peak_rss_mb  # noqa: E402
from tui.core.state import DATA_DIR_ENV  # noqa: E402

QUERIES = ["transformer", "graph neural network", "reinforcement learning",
           "bayesian optimization", "diffusion model", "sparse coding"]
"""What is typed, one character at a time (spaces included)."""
SIZE = (120, 40)


# -- measurements that run inside the reader -------------------------------------------


async def wait_painted(app, timeout: float = 30.0) -> None:
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


def press(app, key: str) -> None:
    """Send a key as the terminal driver does (Pilot's own waiting would be timed too)."""
    from textual import events

    char = {"space": " "}.get(key, key if len(key) == 1 else None)
    app.post_message(events.Key(key, char))


class FrameProbe:
    """When the frame that first showed each list generation was handed to the terminal.

    Wraps the screen's compositor refresh (render the changed regions, write them to
    the driver): a frame during which the list drew a generation it had not drawn
    before records that generation with the time the frame was written.
    """

    def __init__(self) -> None:
        self.written: dict[int, float] = {}

    def __enter__(self) -> FrameProbe:
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
    with FrameProbe() as probe:
        async with app.run_test(size=SIZE) as pilot:
            await wait_painted(app, timeout=600)
            reader = app.reader
            papers = len(app.library)
            for query in queries:
                await pilot.press("slash")
                reader.search_box.value = ""
                await wait_painted(app)
                await pilot.pause()
                for char in query:
                    before = reader.search_serial
                    started = time.perf_counter()
                    press(app, "space" if char == " " else char)
                    while reader.search_serial == before:  # the key has not arrived yet
                        await asyncio.sleep(0.0002)
                    await wait_painted(app)
                    # The bench's coroutine runs again once the frame is written and
                    # what the frame's callbacks do (the detail pane follows) is done.
                    to_idle.append((time.perf_counter() - started) * 1000)
                    generation = reader.paper_list.painted_generation
                    to_frame.append((probe.written[generation] - started) * 1000)
                    engine.append(reader.result.elapsed_ms)
                    await pilot.pause()  # let the detail pane catch up before the next key
    return to_frame, to_idle, engine, papers


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


# -- child processes: start-up and memory ------------------------------------------


def probe_frames(drew_list=None) -> list[float]:
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

    frames = probe_frames(drew_list)
    app = create_app(seeds, index_dir, "", cursor_blink=False)
    ready: list[float] = []

    async def exit_when_painted(pilot) -> None:
        await wait_painted(app, timeout=600)
        ready.append(time.time())
        app.exit()

    app.run(headless=True, size=SIZE, auto_pilot=exit_when_painted)
    print(frames[0], frames[1], ready[0])


def child_startup_minimal() -> None:
    """The smallest Textual app: print when its first frame was drawn."""
    frames = probe_frames()
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
        await wait_painted(app, timeout=1800)
        await pilot.press("slash", *"neural network", "enter")
        await wait_painted(app)
        await pilot.press(*["pagedown"] * 20, "end")
        await pilot.press("escape")  # clear the query: every paper is listed again
        await wait_painted(app)
        await pilot.press(*["pagedown"] * 50, "end", "enter")
        await pilot.pause()
        app.exit(len(app.library))

    papers = app.run(headless=True, size=SIZE, auto_pilot=session)
    print(f"{papers} {peak_rss_mb():.1f}")


def run_child(mode: str, *args: str, env: dict[str, str] | None = None) -> str:
    """Run this file as a child process in `mode`, with a data folder of its own: the
    reader it opens saves its session and reading state there, never in the user's.
    What the child printed."""
    with tempfile.TemporaryDirectory(prefix="paperscope-probe-") as data_dir:
        env = {**(os.environ if env is None else env), DATA_DIR_ENV: data_dir}
        done = subprocess.run([sys.executable, __file__, mode, *args], check=True,
                              capture_output=True, text=True, cwd=ROOT, env=env)
    return done.stdout


def startup(mode: str, *args: str, env: dict[str, str] | None = None,
            ) -> tuple[float, float, float]:
    """Seconds from starting `python` to (first frame, first frame with rows of papers,
    lists open and their list drawn)."""
    started = time.time()
    out = run_child(mode, *args, env=env)
    first, rows, ready = (float(x) - started for x in out.split())
    return first, rows, ready


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


class Startup(NamedTuple):
    """Medians over the runs, in seconds from starting python, and the ratios to the
    minimal app as the median of each pair's ratio."""

    minimal: float
    """The minimal Textual app's first frame."""
    frame: float
    """The reader's first frame."""
    rows: float
    """The reader's first frame with rows of papers."""
    ready: float
    """The lists open and listed."""
    rows_ratio: float
    """rows / minimal, the median of the pairs'."""
    ready_ratio: float
    """ready / minimal, the median of the pairs'."""


def startup_medians(runs: int, seeds: str, index_dir: str, env: dict[str, str] | None = None,
                    ) -> Startup:
    """Start a minimal Textual app and the reader `runs` times each, in pairs (which one
    starts first alternates): the medians and the pairs' median ratios (`Startup`)."""
    minimal, reader = [], []
    startup("startup-minimal", env=env)  # warm the file and bytecode caches for both
    startup("startup-reader", seeds, index_dir, env=env)
    for run in range(runs):
        if run % 2:
            reader.append(startup("startup-reader", seeds, index_dir, env=env))
            minimal.append(startup("startup-minimal", env=env)[0])
        else:
            minimal.append(startup("startup-minimal", env=env)[0])
            reader.append(startup("startup-reader", seeds, index_dir, env=env))
    frame, rows, ready = (statistics.median(times) for times in zip(*reader))
    return Startup(statistics.median(minimal), frame, rows, ready,
                   statistics.median(r[1] / m for m, r in zip(minimal, reader)),
                   statistics.median(r[2] / m for m, r in zip(minimal, reader)))


def bytecode_cached_env(folder: Path) -> dict[str, str]:
    """The environment with Python's bytecode cache on, kept under `folder`: a start-up
    as installed (pip compiles installed packages) even where the cache is turned off."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    return env


def reader_memory(seeds: str, index_dir: str) -> tuple[int, float]:
    """(papers, peak resident MB) of a reader process that opens the lists, searches,
    and pages through the results and through every paper."""
    count, peak_mb = run_child("memory", seeds, index_dir).split()
    return int(count), float(peak_mb)


def keystrokes_in_child(seeds: str, index_dir: str, queries: list[str],
                        ) -> tuple[list[float], list[float], list[float]]:
    """`keystroke_latencies` in a fresh reader process: (to frame, to idle, search) ms."""
    out = run_child("keystrokes", seeds, index_dir, *queries)
    to_frame, to_idle, engine = json.loads(out.splitlines()[-1])
    return to_frame, to_idle, engine


def main(argv: list[str]) -> int:
    """A child process: MODE and its arguments."""
    mode, args = argv[0], argv[1:]
    if mode == "startup-reader":
        child_startup_reader([args[0]], args[1])
    elif mode == "startup-minimal":
        child_startup_minimal()
    elif mode == "memory":
        child_memory([args[0]], args[1])
    elif mode == "keystrokes":
        to_frame, to_idle, engine, _ = asyncio.run(
            keystroke_latencies([args[0]], args[1], args[2:]))
        print(json.dumps([to_frame, to_idle, engine]))
    elif mode == "actions":
        from bench.reader_actions import child_actions

        child_actions(args)
    else:
        print(f"reader_probe.py: unknown mode {mode!r}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
