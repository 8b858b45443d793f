"""How the reader's list actions are measured: sort, filter, similar papers.

`action_latencies` opens the reader as `bench/reader_probe.py`'s `keystroke_latencies`
does (headless at `SIZE`, the same `FrameProbe` and `wait_painted`) and times each
reading key of `tui/app/bindings.py` that searches again and repaints the paper list,
from the key to the frame in which the list drew the new result:

- `S` (`cycle_sort`), each step of `tui.app.reading.SORTS`: list order, name A–Z, year,
  and back to relevance;
- `f` (`cycle_filter`), each step of `FILTERS`: starred, unread, with notes, and back
  to all (a few of the query's papers are starred and given a note first, in a data
  folder of the run's own, so that no filter is empty by accident; nothing is marked
  read, so "unread" lists them all);
- `r` (`similar`): the selected paper's similar papers; and Esc (`back`, which leaves
  them for the search again);
- `F` (`for_you`): the list in for-you order, ranked by the starred papers; then `s`,
  which stars (or, the next round, unstars) the selected paper and so ranks the list
  again, the re-rank after a star; and `F` again, back to the query's own order.

Each of them on the empty query (every paper listed) and after a query was searched,
`rounds` times. Between keys the reader is let become idle, as between a reader's keys:
its answer and detail drawn and, in for-you order, the lists a star of the selected
paper would rank by read ahead once the cursor rested there (`tui.app.for_you.REST`,
0.1 s), which takes 5 to 20 ms at 250,000 papers. A key whose list is not repainted within `timeout` seconds is recorded
as timed out, and the run goes on.

The child process is `python bench/reader_probe.py actions ...` (see `actions_in_child`).
"""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
import time

from bench.reader_probe import SIZE, FrameProbe, press, run_child, wait_painted

QUERY = "neural network"
"""The query searched for the second half of the actions."""
CONTEXTS = [("every paper", ""), ("query", QUERY)]
"""(name, query) of the list the actions start from."""
KINDS = {"sort": "S", "filter": "f", "similar": "r, Esc back",
         "for you": "F, s a star more, F back"}
"""The kinds of action, with their keys, as the benchmarks' tables name them."""
STARRED, NOTED = 3, 2
"""How many of the query's first papers are starred and given a note before measuring."""


def action_steps() -> list[tuple[str, str]]:
    """(key, name) of each measured key press, in order; the name says what the list
    then shows ("sort: name A–Z"). A full cycle of each, so the list ends as it began."""
    from tui.app.reading import FILTERS, SORTS

    sorts = [("S", f"sort: {SORTS[(i + 1) % len(SORTS)][0]}") for i in range(len(SORTS))]
    filters = [("f", f"filter: {FILTERS[(i + 1) % len(FILTERS)][0]}")
               for i in range(len(FILTERS))]
    return sorts + filters + [
        ("r", "similar: the selected paper's"), ("escape", "similar: back"),
        ("F", "for you: by the starred papers"), ("s", "for you: after a star"),
        ("F", "for you: back")]


def action_names() -> list[str]:
    """Every action's name as `action_latencies` reports it: step, then context."""
    return [f"{step}, {context}" for context, _ in CONTEXTS for _, step in action_steps()]


def kind_of(name: str) -> str:
    """"sort", "filter", "similar" or "for you": what an action's name starts with."""
    return name.split(":", 1)[0]


async def settle(app, timeout: float) -> None:
    """Until the reader is idle: the latest search on screen, no rescue or detail due."""
    reader = app.reader
    deadline = time.perf_counter() + timeout
    while not reader.idle and time.perf_counter() < deadline:
        await asyncio.sleep(0.001)


async def timed_key(app, probe: FrameProbe, key: str, timeout: float) -> float | None:
    """Ms from pressing `key` to the frame with the list it repainted; None when the key
    started no search, or its list was not drawn, within `timeout` seconds."""
    reader = app.reader
    before = reader.search_serial
    started = time.perf_counter()
    press(app, key)
    deadline = started + timeout
    while reader.search_serial == before:  # the key has not arrived (or did nothing)
        if time.perf_counter() > deadline:
            return None
        await asyncio.sleep(0.0002)
    try:
        await wait_painted(app, timeout=max(0.0, deadline - time.perf_counter()))
    except TimeoutError:
        return None
    written = probe.written.get(reader.paper_list.painted_generation)
    return None if written is None else (written - started) * 1000


async def show_query(app, pilot, query: str, timeout: float) -> None:
    """Search for `query` from the search box and go to the list with Enter."""
    reader = app.reader
    await pilot.press("slash")
    reader.search_box.value = query
    await wait_painted(app, timeout)
    await pilot.press("enter")
    await settle(app, timeout)
    if reader.focused is not reader.paper_list:
        raise RuntimeError(f"Enter after {query!r} left the focus on {reader.focused!r}")


def mark_papers(app) -> None:
    """Star the first papers of the list on show and give some a note."""
    reader = app.reader
    for index, hit in enumerate(reader.paper_list.hits[:max(STARRED, NOTED)]):
        if index < STARRED and not app.state.is_starred(hit.paper.id):
            app.state.toggle_star(hit.paper.id)
        if index < NOTED:
            app.state.set_note(hit.paper.id, "A note the benchmark wrote.")
    reader.reading.reading_state_changed()  # as the keys s and n do


async def action_latencies(seeds: list[str], index_dir: str, data_dir: str, rounds: int,
                           timeout: float = 30.0,
                           ) -> tuple[dict[str, list[float]], list[str], int]:
    """(ms per action name, the names of the presses that timed out, papers).

    The reading state (stars, notes) is kept in `data_dir`, never the user's.
    """
    os.environ["PAPERSCOPE_DATA_DIR"] = data_dir
    from tui.app.app import create_app

    app = create_app(seeds, index_dir, "", cursor_blink=False, read_after=0.0)
    figures: dict[str, list[float]] = {name: [] for name in action_names()}
    timed_out: list[str] = []
    with FrameProbe() as probe:
        async with app.run_test(size=SIZE) as pilot:
            await wait_painted(app, timeout=600)
            papers = len(app.library)
            await show_query(app, pilot, QUERY, timeout)
            mark_papers(app)
            for _ in range(rounds):
                for context, query in CONTEXTS:
                    await show_query(app, pilot, query, timeout)
                    for key, step in action_steps():
                        name = f"{step}, {context}"
                        ms = await timed_key(app, probe, key, timeout)
                        if ms is None:
                            timed_out.append(name)
                        else:
                            figures[name].append(ms)
                        await settle(app, timeout)
                        await pilot.pause()  # the detail pane follows before the next key
    return figures, timed_out, papers


def actions_in_child(seeds: str, index_dir: str, rounds: int, timeout: float = 30.0,
                     ) -> tuple[dict[str, list[float]], list[str]]:
    """`action_latencies` in a fresh reader process, its reading state in a temporary
    folder: (ms per action name, the presses that timed out)."""
    with tempfile.TemporaryDirectory(prefix="paperscope-actions-") as data_dir:
        out = run_child("actions", seeds, index_dir, data_dir, str(rounds), str(timeout))
    figures, timed_out = json.loads(out.splitlines()[-1])
    return figures, timed_out


def child_actions(args: list[str]) -> None:
    """The child mode: SEEDS INDEX_DIR DATA_DIR ROUNDS TIMEOUT; prints the JSON."""
    seeds, index_dir, data_dir, rounds, timeout = args
    figures, timed_out, _ = asyncio.run(
        action_latencies([seeds], index_dir, data_dir, int(rounds), float(timeout)))
    print(json.dumps([figures, timed_out]))
