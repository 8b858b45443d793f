"""Soak: the reader driven by random typing and navigation for minutes on end.

    python bench/soak.py [--minutes 10] [--seed 1] [--corpora ../shared/corpora]

The reader runs headless under Textual's Pilot on the corpora (21k papers), from the
same factory as the `paperscope` command, and is given random operations drawn from a
seeded generator: words and prefixes of the corpora's own vocabulary typed one key at a
time or in quick bursts, backspaces, clearing the query (Esc twice), moving in the list
(j/k, page keys, g/G), opening and scrolling the detail pane, n/N, stars, read marks,
notes (the editor is typed into, then saved or cancelled), filter/sort/similar, copying,
the help screen, tab between panes, and now and then a terminal resize. Every operation
is a key press (or a resize) sent as the terminal driver sends it; after each one (or
each burst of typing) the soak waits until the reader has caught up.

It reports:

- operations: key presses and resizes sent;
- errors (must be 0): any exception from the app (Textual's unhandled-exception path,
  which ends the app; the soak then starts a fresh one and goes on), from a worker
  that keeps running on error (the search), or the reader failing to catch up within
  `--hang-seconds`. The first few are printed with their tracebacks and the keys that
  led to them;
- peak memory: the process's resident set high-water mark (VmHWM: see `rss`);
- memory growth: the resident set sampled every `--sample-every` operations, the
  median of the first minute against that of the last, and the slope (least squares,
  MB per minute; also over the second half alone). "flat" means the growth between
  the two medians is within the interquartile range of either minute's samples;
- query latency: for every key that started a search while the list was on screen,
  from the key event to the first repaint of the list with that search's result (the
  measure of `bench/reader.py`): p50, p95 and the worst, with its query.

The reading state (stars, read marks, notes) and the keymap live in a temporary folder
for the run, and the working folder is that folder too, never the user's own files. The
index is the one `bench/reader.py` keeps (`--index-dir`, built there if missing).
The exit status is 1 when there was any error.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import platform
import random
import shutil
import statistics
import sys
import tempfile
import time
import traceback
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.material import require, shared  # noqa: E402
from bench.reader_probe import SIZE, build_index, percentile, press, wait_painted  # noqa: E402
from bench.rss import peak_rss_mb  # noqa: E402

SIZES = [(120, 40), (80, 24), (100, 30), (99, 40), (160, 50), (60, 16), (200, 60), (40, 10)]
"""Terminal sizes a resize picks from (the first, the soak's own, half of the time):
both sides of the 100-column breakpoint and of the 18-row one."""
SHOWN_ERRORS = 3
"""How many errors are printed with their tracebacks."""
RECENT_KEYS = 30
"""How many of the keys before an error are printed with it."""


class SessionOver(Exception):
    """The app has stopped (an unhandled exception ended it); start a fresh one."""


class Hang(Exception):
    """The reader did not catch up in time."""


@dataclass
class Error:
    kind: str
    summary: str
    trace: str
    recent: list[str]
    query: str
    at_op: int


@dataclass
class Latency:
    ms: float
    engine_ms: float
    query: str
    key: str
    burst: bool


@dataclass
class Record:
    """What the whole run measured."""

    ops: int = 0
    keys: int = 0
    resizes: int = 0
    sessions: int = 0
    kinds: Counter = field(default_factory=Counter)
    errors: list[Error] = field(default_factory=list)
    latencies: list[Latency] = field(default_factory=list)
    untimed_searches: int = 0
    """Searches started while the list was hidden (a narrow screen showing the detail)."""
    rss: list[tuple[float, float]] = field(default_factory=list)
    """(seconds into the soak, resident set in MB)."""
    recent: deque = field(default_factory=lambda: deque(maxlen=RECENT_KEYS))
    seen: set[int] = field(default_factory=set)
    """ids of the exceptions already counted."""
    state_summary: str = ""
    """What the state file held at the end, once checked."""
    pauses: dict[int, list[float]] = field(default_factory=lambda: {0: [], 1: [], 2: []})
    """Garbage-collection pauses in ms, by generation."""
    walks_all: list[float] = field(default_factory=list)
    """Those of the full collections that walked every object: none was frozen (the
    collector's deep ones, and its first)."""


# -- measuring ----------------------------------------------------------------------------


def rss_mb() -> float:
    """The resident set size now, in MB (Linux: /proc/self/statm)."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def slope_per_minute(points: list[tuple[float, float]]) -> float:
    """Least-squares slope of (seconds, MB) points, in MB per minute."""
    if len(points) < 2:
        return 0.0
    mean_t = statistics.fmean(t for t, _ in points)
    mean_m = statistics.fmean(m for _, m in points)
    var = sum((t - mean_t) ** 2 for t, _ in points)
    if not var:
        return 0.0
    return sum((t - mean_t) * (m - mean_m) for t, m in points) / var * 60


def spread(values: list[float]) -> float:
    """Interquartile range of `values` (0 for fewer than two)."""
    if len(values) < 2:
        return 0.0
    return percentile(values, 0.75) - percentile(values, 0.25)


class PaintProbe:
    """When the list first drew each of its generations (see `PaperList.show`), and
    how long the search behind each generation took.

    `bench/reader.py` polls `painted_generation`; here the soak waits for the reader to
    settle after every key, so the time of the first `render_line` of each generation
    is taken instead: polling after the wait would time the wait as well. A key can
    bring two answers (a query that finds nothing is answered at once, then rescued
    with a "did you mean" once typing pauses): its latency is the first one's.
    """

    def __init__(self) -> None:
        self.generation = -1
        self.painted: deque[tuple[float, float]] = deque(maxlen=64)
        """(when, search ms) of each generation's first drawing, oldest first."""
        self.search_ms = 0.0
        """The search time of the latest answer the reader showed."""

    def install(self) -> None:
        from tui.app.screens.reader import ReaderScreen
        from tui.app.widgets.paper_list import PaperList

        self._render_line = render_line = PaperList.render_line
        self._search_done = search_done = ReaderScreen.on_search_done
        probe = self

        def probed_render_line(self, y):  # the soak's probe on the list's drawing
            if self.generation != probe.generation:
                probe.generation = self.generation
                probe.painted.append((time.perf_counter(), probe.search_ms))
            return render_line(self, y)

        def probed_search_done(self, message):  # and on the answers it draws
            if message.serial == self.search_serial:
                probe.search_ms = message.result.elapsed_ms
            return search_done(self, message)

        PaperList.render_line = probed_render_line
        ReaderScreen.on_search_done = probed_search_done

    def first_since(self, started: float) -> tuple[float, float] | None:
        """(when, search ms) of the first generation drawn since `started`."""
        return next(((at, ms) for at, ms in self.painted if at >= started), None)

    def remove(self) -> None:
        from tui.app.screens.reader import ReaderScreen
        from tui.app.widgets.paper_list import PaperList

        PaperList.render_line = self._render_line
        ReaderScreen.on_search_done = self._search_done


class CollectorProbe:
    """How long each garbage collection paused the process, by generation."""

    def __init__(self, record: Record) -> None:
        self.record = record
        self._started = 0.0
        self._all = False

    def _callback(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            self._all = info["generation"] == 2 and gc.get_freeze_count() == 0
        else:
            pause = (time.perf_counter() - self._started) * 1000
            self.record.pauses[int(info["generation"])].append(pause)
            if self._all:
                self.record.walks_all.append(pause)

    def __enter__(self) -> CollectorProbe:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._callback)


# -- driving the reader -----------------------------------------------------------------


class Driver:
    """Random operations on one running reader; raises SessionOver when it stops."""

    def __init__(self, pilot, record: Record, rng: random.Random, words: list[str],
                 common: list[str], probe: PaintProbe, started: float, args) -> None:
        self.pilot = pilot
        self.app = pilot.app
        self.record = record
        self.rng = rng
        self.words = words
        self.common = common
        self.probe = probe
        self.started = started
        self.args = args

    # -- the app's parts ------------------------------------------------------------

    @property
    def reader(self):
        return self.app.reader

    def focused(self) -> str:
        widget = self.app.focused
        return type(widget).__name__ if widget is not None else "None"

    def on_reader(self) -> bool:
        return self.app.screen is self.reader

    def list_visible(self) -> bool:
        papers = self.reader.paper_list
        return self.on_reader() and papers.display and papers.region.area > 0

    def check_alive(self) -> None:
        if self.app._exception is not None or not self.app.is_running:
            raise SessionOver()

    # -- keys -----------------------------------------------------------------------

    def _log(self, what: str) -> None:
        try:
            where = f"{type(self.app.screen).__name__}/{self.focused()}"
            query = self.reader.search_box.value
        except Exception:  # noqa: BLE001 - only a label for the error report
            where, query = "?", "?"
        self.record.recent.append(f"{what} [{where}, query {query!r}]")

    def _count(self, keys: int = 1, resizes: int = 0) -> None:
        record = self.record
        for _ in range(keys + resizes):
            record.ops += 1
            if record.ops % self.args.sample_every == 0:
                record.rss.append((time.perf_counter() - self.started, rss_mb()))
        record.keys += keys
        record.resizes += resizes

    async def key(self, key: str) -> None:
        """Press `key`, wait until the reader has caught up, time the search it started."""
        self.check_alive()
        self._log(key)
        serial = self.reader.search_serial
        started = time.perf_counter()
        press(self.app, key)
        self._count()
        await self.after(started, serial, key, burst=False)

    async def burst(self, keys: list[str]) -> None:
        """Press `keys` at typing speed without waiting; time the last one's search."""
        self.check_alive()
        serial = self.reader.search_serial
        started = time.perf_counter()
        for number, key in enumerate(keys):
            if number:
                await asyncio.sleep(self.rng.uniform(0.0, 0.08))
            self.check_alive()
            self._log(f"{key} (burst)")
            started = time.perf_counter()
            press(self.app, key)
            self._count()
        await self.after(started, serial, keys[-1], burst=True)

    async def resize(self) -> None:
        self.check_alive()
        size = SIZES[0] if self.rng.random() < 0.5 else self.rng.choice(SIZES[1:])
        self._log(f"resize {size[0]}x{size[1]}")
        serial = self.reader.search_serial
        started = time.perf_counter()
        await self.pilot.resize_terminal(*size)
        self._count(keys=0, resizes=1)
        await self.after(started, serial, "resize", burst=False)

    async def settle(self) -> None:
        """Until the reader is idle: events handled, the latest search shown, no search
        worker running."""
        from textual.pilot import WaitForScreenTimeout
        from textual.worker import WorkerState

        deadline = time.perf_counter() + self.args.hang_seconds
        while True:
            self.check_alive()
            try:
                await self.pilot.pause()
            except WaitForScreenTimeout as exc:
                self.check_alive()
                raise Hang("the screen did not process its events in 30 s") from exc
            self.check_alive()
            busy = any(w.group == "search" and w.state in (WorkerState.PENDING,
                                                           WorkerState.RUNNING)
                       for w in self.app.workers)
            if self.reader.idle and not busy:
                return
            if time.perf_counter() > deadline:
                raise Hang(f"the reader was still busy after {self.args.hang_seconds:.0f} s "
                           f"(idle={self.reader.idle}, search worker running={busy})")

    async def after(self, started: float, serial: int, key: str, burst: bool) -> None:
        await self.settle()
        reader = self.reader
        if reader.search_serial == serial:
            return
        if not self.list_visible():
            self.record.untimed_searches += 1
            return
        papers = reader.paper_list
        if papers.painted_generation != papers.generation:
            try:
                await wait_painted(self.app, timeout=self.args.hang_seconds)
            except TimeoutError:
                self.check_alive()
                raise Hang("the list did not repaint with the latest search") from None
        first = self.probe.first_since(started)
        if first is None:
            self.record.untimed_searches += 1  # the probe missed its first drawing
            return
        at, engine = first
        self.record.latencies.append(Latency((at - started) * 1000, engine,
                                             reader.search_box.value, key, burst))

    # -- getting somewhere ------------------------------------------------------------

    async def to_reader(self) -> None:
        """Close the help screen or the note editor (Esc) if one is open."""
        for _ in range(3):
            if self.on_reader():
                return
            await self.key("escape")
        if not self.on_reader():
            raise Hang(f"Esc did not close {type(self.app.screen).__name__}")

    async def to_search(self) -> bool:
        await self.to_reader()
        if self.focused() != "SearchBox":
            await self.key(self.rng.choice(["slash", "slash", "slash", "ctrl+f"]))
        return self.focused() == "SearchBox"

    async def to_list(self) -> bool:
        await self.to_reader()
        for _ in range(4):
            focused = self.focused()
            if focused == "PaperList":
                return True
            if focused == "SearchBox":
                await self.key(self.rng.choice(["down", "escape", "tab"]))
            elif focused == "DetailView":
                await self.key(self.rng.choice(["escape", "shift+tab"]))
            else:
                await self.key("tab")
        return self.focused() == "PaperList"

    async def to_detail(self) -> bool:
        await self.to_reader()
        for _ in range(4):
            focused = self.focused()
            if focused == "DetailView":
                return True
            if focused == "PaperList" and self.reader.paper_list.hits:
                await self.key(self.rng.choice(["enter", "enter", "tab"]))
            elif focused == "SearchBox":
                await self.key(self.rng.choice(["tab", "escape"]))
            else:
                await self.key("tab")
        return self.focused() == "DetailView"

    async def to_list_or_detail(self) -> bool:
        if self.focused() in ("PaperList", "DetailView") and self.on_reader():
            return True
        return await self.to_list()

    # -- what to type -----------------------------------------------------------------

    def word(self) -> str:
        return self.rng.choice(self.common if self.rng.random() < 0.6 else self.words)

    @staticmethod
    def keys_for(text: str) -> list[str]:
        return ["space" if char == " " else char for char in text]

    async def start_word(self) -> list[str]:
        """Keys to type before a new word: clear a long query, else a space.

        Focusing the search box selects its text (Textual's `select_on_focus`), so a
        word typed then replaces the query; half of the time End keeps it instead.
        """
        box = self.reader.search_box
        if len(box.value.split()) >= 4 or len(box.value) > 40:
            await self.key("escape")
            await self.key("escape")
            if not await self.to_search():
                return []
        if box.selection.start != box.selection.end:
            if self.rng.random() < 0.5:
                return []  # typed over
            await self.key("end")
        return ["space"] if box.value and not box.value.endswith(" ") else []

    # -- the operations -----------------------------------------------------------------

    async def op_type_word(self) -> None:
        if await self.to_search():
            for key in await self.start_word() + self.keys_for(self.word()):
                await self.key(key)

    async def op_type_prefix(self) -> None:
        if await self.to_search():
            word = self.word()
            prefix = word[:self.rng.randint(1, min(5, len(word)))]
            for key in await self.start_word() + self.keys_for(prefix):
                await self.key(key)

    async def op_burst(self) -> None:
        if await self.to_search():
            keys = await self.start_word() + self.keys_for(self.word())
            if self.rng.random() < 0.3:
                keys += ["space"] + self.keys_for(self.word())
            await self.burst(keys)

    async def op_backspace(self) -> None:
        if await self.to_search():
            for _ in range(self.rng.randint(1, 4)):
                await self.key("ctrl+w" if self.rng.random() < 0.1 else "backspace")

    async def op_clear(self) -> None:
        await self.to_reader()
        await self.key("escape")
        await self.key("escape")

    async def op_submit(self) -> None:
        if await self.to_search():
            await self.key("enter")  # to the list, or accept "did you mean"

    async def op_list_move(self) -> None:
        if await self.to_list():
            moves = ["j"] * 6 + ["k"] * 4 + ["down", "up", "pagedown", "pageup", "ctrl+d",
                                             "ctrl+u", "g", "G", "home", "end"]
            for _ in range(self.rng.randint(1, 6)):
                await self.key(self.rng.choice(moves))

    async def op_open_detail(self) -> None:
        if await self.to_list():
            await self.key("enter")

    async def op_scroll_detail(self) -> None:
        if await self.to_detail():
            moves = ["j"] * 5 + ["k"] * 3 + ["down", "up", "space", "b", "pagedown",
                                             "pageup", "g", "G", "home", "end"]
            for _ in range(self.rng.randint(1, 6)):
                await self.key(self.rng.choice(moves))

    async def op_matches(self) -> None:
        if await self.to_detail():
            for _ in range(self.rng.randint(1, 4)):
                await self.key("n" if self.rng.random() < 0.7 else "N")

    async def op_star_read(self) -> None:
        if await self.to_list_or_detail():
            await self.key("s" if self.rng.random() < 0.6 else "m")

    async def op_note(self) -> None:
        from tui.app.screens.note import NoteScreen

        if not await self.to_list_or_detail():
            return
        await self.key("e")
        if not isinstance(self.app.screen, NoteScreen):
            return  # no paper selected: a bell
        text = " ".join(self.word() for _ in range(self.rng.randint(1, 5)))
        keys = self.keys_for(text)
        if self.rng.random() < 0.3:
            keys += ["enter"] + self.keys_for(self.word())
        if self.rng.random() < 0.2:
            keys += ["backspace"] * self.rng.randint(1, 3)
        await self.burst(keys)
        if isinstance(self.app.screen, NoteScreen):
            await self.key("ctrl+s" if self.rng.random() < 0.7 else "escape")

    async def op_view(self) -> None:
        if await self.to_list_or_detail():
            key = self.rng.choice(["f", "f", "S", "S", "r", "r"])
            await self.key(key)
            if key == "r" and self.rng.random() < 0.5:
                await self.op_list_move()
                await self.key("escape")  # back from the similar papers

    async def op_copy(self) -> None:
        if await self.to_list_or_detail():
            await self.key(self.rng.choice(["y", "Y"]))

    async def op_help(self) -> None:
        from tui.app.screens.help import HelpScreen

        await self.to_reader()
        in_box = self.focused() == "SearchBox"
        await self.key("f1" if in_box else self.rng.choice(["question_mark", "f1"]))
        for _ in range(self.rng.randint(0, 4)):
            if not isinstance(self.app.screen, HelpScreen):
                return
            await self.key(self.rng.choice(["j", "k", "down", "up", "space", "b",
                                            "pagedown", "pageup"]))
        if isinstance(self.app.screen, HelpScreen):
            await self.key(self.rng.choice(["escape", "question_mark", "f1"]))

    async def op_tab(self) -> None:
        await self.to_reader()
        for _ in range(self.rng.randint(1, 3)):
            await self.key("tab" if self.rng.random() < 0.7 else "shift+tab")

    async def op_resize(self) -> None:
        await self.resize()

    OPERATIONS = {
        "type word": 14, "type prefix": 10, "type burst": 4, "backspace": 10, "clear": 5,
        "submit": 2, "list move": 20, "open detail": 6, "scroll detail": 8, "matches": 5,
        "star/read": 5, "note": 2, "filter/sort/similar": 3, "copy": 1, "help": 2,
        "tab": 6, "resize": 1,
    }
    """Operation → weight."""

    def choose(self):
        names = list(self.OPERATIONS)
        name = self.rng.choices(names, [self.OPERATIONS[n] for n in names])[0]
        method = "op_" + name.replace(" ", "_").replace("/", "_")
        aliases = {"op_type_burst": "op_burst", "op_filter_sort_similar": "op_view"}
        return name, getattr(self, aliases.get(method, method))


# -- sessions ---------------------------------------------------------------------------


def _trace(error: BaseException) -> str:
    return "".join(traceback.format_exception(type(error), error, error.__traceback__))


def note_error(record: Record, kind: str, error: BaseException, query: str = "") -> None:
    """Count `error` once, with the keys that led to it."""
    if id(error) in record.seen:
        return
    record.seen.add(id(error))
    record.errors.append(Error(kind, f"{type(error).__name__}: {error}", _trace(error),
                               list(record.recent), query, record.ops))


@dataclass
class Soak:
    """What the sessions share: the settings, the record, the random generator, the
    words to type and when the soak began (once the first reader had painted its list)."""

    args: argparse.Namespace
    record: Record = field(default_factory=Record)
    rng: random.Random = field(default_factory=random.Random)
    words: list[str] = field(default_factory=list)
    common: list[str] = field(default_factory=list)
    started: float | None = None

    @property
    def deadline(self) -> float:
        return (self.started or time.perf_counter()) + self.args.minutes * 60

    def over(self) -> bool:
        return self.started is not None and time.perf_counter() >= self.deadline


async def session(soak: Soak) -> None:
    """One reader, driven until the soak's time is up or until the reader stops."""
    from textual.worker import Worker, WorkerState

    from tui.app.app import create_app

    args, record = soak.args, soak.record
    app = create_app([args.corpora], args.index_dir, "", cursor_blink=False)
    record.sessions += 1
    handle_exception = app._handle_exception

    def recorded_handle_exception(error: Exception) -> None:
        query = ""
        try:
            query = app.reader.search_box.value
        except Exception:  # noqa: BLE001 - only a label for the report
            pass
        note_error(record, "app", error, query)
        handle_exception(error)

    app._handle_exception = recorded_handle_exception  # type: ignore[method-assign]

    def hook(message) -> None:
        # Workers that keep the app running on error (the search): count their errors.
        if (isinstance(message, Worker.StateChanged) and message.state == WorkerState.ERROR
                and not message.worker.exit_on_error and message.worker.error is not None):
            note_error(record, f"worker {message.worker.name or message.worker.group}",
                       message.worker.error)

    probe = PaintProbe()
    probe.install()
    try:
        async with app.run_test(size=SIZE, message_hook=hook) as pilot:
            await wait_painted(app, timeout=1800)
            if not soak.words:
                soak.words, soak.common = corpus_words(app.library)
            if soak.started is None:
                soak.started = time.perf_counter()
            driver = Driver(pilot, record, soak.rng, soak.words, soak.common, probe,
                            soak.started, args)
            next_report = time.perf_counter() + 60
            while not soak.over():
                name, operation = driver.choose()
                record.kinds[name] += 1
                try:
                    await operation()
                except SessionOver:
                    break
                except Hang as exc:
                    note_error(record, "hang", exc, app.reader.search_box.value)
                    break  # a stuck reader: leave it and start a fresh one
                except Exception as exc:  # noqa: BLE001 - the soak's own code failed
                    if app._exception is not None:
                        break
                    note_error(record, "soak driver", exc)
                if time.perf_counter() >= next_report:
                    next_report += 60
                    minutes = (time.perf_counter() - soak.started) / 60
                    print(f"  {minutes:4.1f} min · {record.ops:,} operations · "
                          f"{len(record.errors)} errors · RSS {rss_mb():.0f} MB",
                          file=sys.stderr, flush=True)
            if app.is_running and app._exception is None:
                check_state_file(app, record)
    except Exception as exc:  # noqa: BLE001 - the app's exception, re-raised by run_test
        note_error(record, "app", exc)
    finally:
        probe.remove()


def corpus_words(library) -> tuple[list[str], list[str]]:
    """The words typed: the vocabulary, and its most frequent words (from the prefix table)."""
    words = sorted(w for w in library.vocabulary if w.isalpha())
    known = set(words)
    common = sorted({term for prefix, terms in library.prefix_table.items() if len(prefix) == 3
                     for term in terms[:3] if term in known and len(term) >= 3})
    return words, common or words


def check_state_file(app, record: Record) -> None:
    """The state file on disk must parse and agree with the app's store."""
    from tui.core.state import default_state_path, parse_state

    app.state.save()
    path = default_state_path()
    if not path.exists():
        record.state_summary = "no state file written"
        return
    try:
        records = parse_state(path.read_text(encoding="utf-8"))
        stars = {pid for pid, f in records.items() if f.get("star", (False, 0))[0]}
        notes = {pid for pid, f in records.items() if f.get("note", ("", 0))[0]}
        reads = {pid for pid, f in records.items() if f.get("read", (False, 0))[0]}
        if stars != app.state.starred_ids() or notes != app.state.noted_ids():
            raise AssertionError("the state file disagrees with the app's store")
    except Exception as exc:  # noqa: BLE001
        note_error(record, "state file", exc)
        return
    record.state_summary = (
        f"{len(stars)} starred · {len(reads)} read · {len(notes)} notes; "
        "file parses and agrees with the app")


# -- the report -------------------------------------------------------------------------


def memory_lines(record: Record, every: int) -> list[tuple[str, str]]:
    """The resident set's first and last minute, its slope and the verdict.

    A run shorter than two minutes compares its two halves instead.
    """
    samples = record.rss
    if len(samples) < 2:
        return [("memory growth", "too few samples")]
    end = samples[-1][0]
    window = min(60.0, end / 2)
    first = [m for t, m in samples if t <= window]
    last = [m for t, m in samples if t >= end - window]
    names = ("first minute", "last minute") if window == 60 else (
        f"first {window:.0f} s", f"last {window:.0f} s")
    first_median, last_median = statistics.median(first), statistics.median(last)
    growth = last_median - first_median
    noise = max(2.0, spread(first), spread(last))
    overall = slope_per_minute(samples)
    second_half = slope_per_minute([(t, m) for t, m in samples if t >= end / 2])
    if abs(growth) <= noise:
        verdict = "flat"
    elif abs(second_half * end / 2 / 60) <= noise:
        verdict = f"grew {growth:+.1f} MB early, then flat"
    else:
        verdict = "GROWING"
    return [
        (f"RSS {names[0]}", f"median {first_median:.1f} MB · min {min(first):.1f} · "
                            f"max {max(first):.1f} ({len(first)} samples)"),
        (f"RSS {names[1]}", f"median {last_median:.1f} MB · min {min(last):.1f} · "
                            f"max {max(last):.1f} ({len(last)} samples)"),
        ("RSS growth", f"{growth:+.1f} MB between the medians · slope {overall:+.2f} MB/min "
                       f"over the run, {second_half:+.2f} MB/min over its second half "
                       f"({len(samples)} samples, one every {every} operations)"),
        ("memory verdict", f"{verdict} (noise: the larger interquartile range of the two "
                           f"windows' samples, at least 2 MB: {noise:.1f} MB)"),
    ]


def report(args, record: Record, elapsed: float, loads: tuple[float, float]) -> int:
    rows: list[tuple[str, str]] = []
    kinds = ", ".join(f"{name} {count}" for name, count in record.kinds.most_common())
    rows.append(("operations", f"{record.ops:,} ({record.keys:,} keys · {record.resizes} "
                               f"resizes) in {elapsed / 60:.1f} min · "
                               f"{record.ops / max(elapsed, 1e-9):.1f}/s"))
    rows.append(("operation mix", kinds))
    rows.append(("app sessions", f"{record.sessions} (a fresh reader after each crash or hang)"))
    app_errors = [e for e in record.errors if e.kind != "soak driver"]
    driver_errors = [e for e in record.errors if e.kind == "soak driver"]
    by_kind = Counter(e.kind for e in app_errors)
    rows.append(("errors", f"{len(app_errors)}" + (
        " (" + ", ".join(f"{k} {n}" for k, n in by_kind.items()) + ")" if by_kind else "")))
    if driver_errors:
        rows.append(("soak driver errors", str(len(driver_errors))))
    rows.append(("peak memory", f"{peak_rss_mb():.0f} MB RSS high-water mark (VmHWM) · "
                                f"sampled max {max((m for _, m in record.rss), default=0):.0f} MB"))
    rows.extend(memory_lines(record, args.sample_every))
    pauses = [f"generation {gen}: {len(ms):,} (p50 {percentile(ms, .5):.1f} ms · max "
              f"{max(ms):.1f} ms)" for gen, ms in record.pauses.items() if ms]
    rows.append(("garbage collections", " · ".join(pauses) or "none"))
    if record.walks_all:
        walks = record.walks_all
        rows.append(("  of which walked every object",
                     f"{len(walks):,} (p50 {percentile(walks, .5):.1f} ms · "
                     f"max {max(walks):.1f} ms)"))
    timed = record.latencies
    if timed:
        values = [lat.ms for lat in timed]
        single = [lat.ms for lat in timed if not lat.burst]
        bursts = [lat.ms for lat in timed if lat.burst]
        worst = max(timed, key=lambda lat: lat.ms)
        rows.append(("query latency", f"{len(values):,} searches: p50 {percentile(values, .5):.1f}"
                                      f" ms · p95 {percentile(values, .95):.1f} ms · "
                                      f"max {worst.ms:.1f} ms"))
        if single and bursts:
            rows.append(("  one key at a time", f"{len(single):,}: p50 "
                         f"{percentile(single, .5):.1f} · p95 {percentile(single, .95):.1f} · "
                         f"max {max(single):.1f} ms"))
            rows.append(("  last key of a burst", f"{len(bursts):,}: p50 "
                         f"{percentile(bursts, .5):.1f} · p95 {percentile(bursts, .95):.1f} · "
                         f"max {max(bursts):.1f} ms"))
        engine = [lat.engine_ms for lat in timed]
        rows.append(("  of which search", f"p50 {percentile(engine, .5):.1f} ms · p95 "
                                          f"{percentile(engine, .95):.1f} ms · "
                                          f"max {max(engine):.1f} ms"))
        rows.append(("worst query", f"{worst.ms:.0f} ms after key {worst.key!r}"
                                    f"{' (burst)' if worst.burst else ''} → {worst.query!r} "
                                    f"(search {worst.engine_ms:.0f} ms)"))
    else:
        rows.append(("query latency", "no searches timed"))
    rows.append(("untimed searches", f"{record.untimed_searches:,} (the list was hidden: a "
                                     "narrow screen showing the detail)"))
    if record.state_summary:
        rows.append(("reading state", record.state_summary))
    rows.append(("load average", f"{loads[0]:.2f} at the start · {loads[1]:.2f} at the end "
                                 "(1 min)"))
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"  {name:<{width}}  {value}")

    for number, error in enumerate(record.errors[:SHOWN_ERRORS], 1):
        print(f"\nerror {number} of {len(record.errors)} ({error.kind}, after operation "
              f"{error.at_op:,}; query {error.query!r}): {error.summary}")
        print("  keys before it, oldest first:")
        for line in error.recent:
            print(f"    {line}")
        print(error.trace.rstrip())
    if len(record.errors) > SHOWN_ERRORS:
        print(f"\n… and {len(record.errors) - SHOWN_ERRORS} more:")
        for error in record.errors[SHOWN_ERRORS:]:
            print(f"  {error.kind}: {error.summary} (query {error.query!r})")
    return 1 if record.errors else 0


def isolate() -> Path:
    """A temporary home for the reading state, the keymap and any file the reader
    writes; it becomes the working folder too."""
    folder = Path(tempfile.mkdtemp(prefix="paperscope-soak-"))
    keymap = folder / "keymap.toml"
    keymap.write_text("", encoding="utf-8")
    os.environ["PAPERSCOPE_DATA_DIR"] = str(folder / "data")
    os.environ["PAPERSCOPE_KEYMAP"] = str(keymap)
    for var in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        os.environ[var] = str(folder / var.lower())
    os.chdir(folder)
    return folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", default=str(shared("corpora")))
    parser.add_argument("--index-dir", default=str(Path(tempfile.gettempdir())
                                                   / "paperscope-bench" / "index-corpora"),
                        help="the index (the one bench/reader.py keeps, by default)")
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sample-every", type=int, default=25,
                        help="sample the resident set every N operations")
    parser.add_argument("--hang-seconds", type=float, default=30.0,
                        help="the reader not catching up for this long is an error")
    args = parser.parse_args(argv)

    corpora = Path(args.corpora).resolve()
    require(corpora, "soak.py", "corpora", "--corpora")
    args.corpora = str(corpora)
    args.index_dir = str(Path(args.index_dir).resolve())
    folder = isolate()
    try:
        import textual

        papers = build_index([args.corpora], args.index_dir)
        print(f"paperscope soak · {papers:,} papers from {corpora} · {args.minutes:g} min of "
              f"random typing and navigation · seed {args.seed}")
        print(f"  headless under Textual's Pilot at {SIZE[0]}×{SIZE[1]} (resized at times) · "
              f"Python {platform.python_version()} · Textual {textual.__version__} · "
              f"{os.cpu_count()} CPUs")
        print(f"  index {args.index_dir}; reading state and keymap in a temporary folder")
        soak = Soak(args, rng=random.Random(args.seed))
        load_start = os.getloadavg()[0]
        with CollectorProbe(soak.record):
            while True:
                asyncio.run(session(soak))
                if soak.started is None or soak.over():
                    break  # the reader never opened, or the time is up
                if soak.record.sessions >= 50:
                    print("soak.py: giving up after 50 reader sessions", file=sys.stderr)
                    break
        elapsed = time.perf_counter() - soak.started if soak.started is not None else 0.0
        record = soak.record
        print(f"  typed words from the corpora's vocabulary of {len(soak.words):,} "
              f"({len(soak.common):,} frequent ones drawn 60% of the time)")
        return report(args, record, elapsed, (load_start, os.getloadavg()[0]))
    finally:
        os.chdir(ROOT)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
