"""Monkey test of the reader: thousands of random keys and terminal sizes under Pilot.

The keys are every key the reader's widgets bind (read from their `BINDINGS`, so a new
binding is pressed without touching this file), the keys of the Textual text widgets it
shows (search box, note editor, palette), printable characters and the usual editing,
moving and ctrl keys. They come in bursts of one to four, as a terminal delivers keys
typed quickly. Now and then the terminal is resized to anything from 20×8 to 220×60.
Quit keys are pressed rarely; when one quits, the app must have exited cleanly and a
new one takes over the remaining keys.

Afterwards the reader must still answer: modal screens close with Esc, a query typed
into the search box lists the core's hits, and `q` quits with return code 0. An
unhandled exception in the app fails the test (`run_test` re-raises it), and so does a
worker that failed (a failed search only shows in the status line).

A failure prints the seed, the press count and the last keys; `PAPERSCOPE_MONKEY_SEED`
(and `PAPERSCOPE_MONKEY_PRESSES`) replay one run, up to thread timing. The default run
presses 2,000 keys for each of two seeds (about 20 s each here); `--long` presses
20,000 for each of five.
"""

from __future__ import annotations

import asyncio
import importlib
import os
import pkgutil
import random
import string
import time
import unicodedata
from collections import deque
from pathlib import Path

import pytest
from textual import events
from textual.command import CommandPalette
from textual.dom import DOMNode
from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key
from textual.message import Message
from textual.pilot import Pilot
from textual.widgets import Input, TextArea
from textual.worker import Worker, WorkerState

import tui.app
from tui.app import bindings
from tui.app.app import PaperscopeApp, create_app
from tui.core.search.search import search

LONG = bool(os.environ.get("PAPERSCOPE_LONG_TESTS"))
PRESSES = int(os.environ.get("PAPERSCOPE_MONKEY_PRESSES", 20_000 if LONG else 2_000))
SEEDS = ([int(os.environ["PAPERSCOPE_MONKEY_SEED"])] if "PAPERSCOPE_MONKEY_SEED" in os.environ
         else [11, 29, 47, 83, 97] if LONG else [11, 29])
MIN_SIZE, MAX_SIZE = (20, 8), (220, 60)
QUERY = "tool"
"""A word of the bundled lists (Gecko's and ParaTool's abstracts, among others)."""

RESIZE_CHANCE = 0.02
QUIT_CHANCE = 0.002
"""Quit keys end the run, so they come rarely (about four restarts in 2,000 keys)."""
MAX_BURST = 4
"""Keys sent together at most (see `Monkey.step`)."""
PAUSE_EVERY = 16
"""Let the screen settle (a full `pilot.pause()`) after about this many keys."""
SETTLE_EVERY = 250
"""Wait for the searches to land after this many keys, so results get drawn too."""
SETTLE_SECONDS = 60.0
"""The longest wait for the searches to land before failing."""
BOX_LIMIT = 80
"""The monkey empties the search box once it holds more characters than this."""
KEYS_SHOWN = 30
"""How many of the last actions a failure lists (a burst of keys is one, in brackets)."""


def _widget_classes() -> list[type[DOMNode]]:
    """Every app, screen and widget class of the reader, and Textual's text widgets."""
    for module in pkgutil.walk_packages(tui.app.__path__, "tui.app."):
        importlib.import_module(module.name)
    found, todo = [], [DOMNode]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls.__module__.startswith("tui."):
            found.append(cls)
    return [*found, Input, TextArea, CommandPalette]


def key_pools() -> tuple[list[str], list[str]]:
    """(every bound key but the quit keys, the quit keys)."""
    bound: dict[str, set[str]] = {}
    for cls in _widget_classes():
        for key, key_bindings in cls._merge_bindings().key_to_bindings.items():
            bound.setdefault(key, set()).update(b.action for b in key_bindings)
    quits = sorted(key for key, actions in bound.items() if "quit" in actions)
    return sorted(set(bound) - set(quits)), quits


BOUND, QUIT_KEYS = key_pools()
"""The keys some widget, screen or the app binds; quit keys are pressed apart."""
PRINTABLE = [c for c in string.printable if c not in "\t\n\r\x0b\x0c" + "".join(QUIT_KEYS)] \
    + list("éßü中論😀")
"""Typed text: ASCII and a few wider characters (q is a quit key, drawn with those)."""
SPECIAL = ["backspace", "delete", "enter", "escape", "tab", "shift+tab", "space", "up", "down",
           "left", "right", "home", "end", "pageup", "pagedown", "insert", "shift+left",
           "shift+right", "shift+up", "shift+down", "ctrl+left", "ctrl+right", "ctrl+home",
           "ctrl+end", "ctrl+backspace", "ctrl+delete", *(f"f{n}" for n in range(1, 13))]
"""Editing and moving keys, bound or not."""
CTRL = [key for key in (*(f"ctrl+{c}" for c in string.ascii_lowercase), "ctrl+shift+z",
                        "ctrl+space") if key not in QUIT_KEYS]
"""Ctrl combinations, bound or not (ctrl+z suspends only in a real terminal)."""


def test_every_binding_of_the_reader_is_pressed() -> None:
    """The pools hold each key of `tui.app.bindings` (a new scope must be found too)."""
    scopes = (bindings.APP, bindings.READER, bindings.SEARCH, bindings.LIST, bindings.DETAIL,
              bindings.READING, bindings.NOTE, bindings.HELP)
    keys = {key.strip() for scope in scopes for b in scope for key in b.key.split(",")}
    assert keys <= set(BOUND) | set(QUIT_KEYS)
    assert {"q", "ctrl+c", "ctrl+q"} <= set(QUIT_KEYS)


class Monkey:
    """Random keys and sizes from one seed, and the log to replay them."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.presses = 0
        self.restarts = 0
        self.unsettled = 0
        """Keys pressed since the last full pause."""
        self.last: deque[str] = deque(maxlen=KEYS_SHOWN)
        self.failed_workers: list[str] = []

    def size(self) -> tuple[int, int]:
        """A terminal size; the smallest and the largest come one time in five each."""
        roll = self.rng.random()
        if roll < 0.4:
            return MIN_SIZE if roll < 0.2 else MAX_SIZE
        return (self.rng.randint(MIN_SIZE[0], MAX_SIZE[0]),
                self.rng.randint(MIN_SIZE[1], MAX_SIZE[1]))

    def key(self) -> str:
        roll = self.rng.random()
        if roll < QUIT_CHANCE:
            return self.rng.choice(QUIT_KEYS)
        pool = (BOUND if roll < 0.45 else PRINTABLE if roll < 0.75
                else SPECIAL if roll < 0.9 else CTRL)
        return self.rng.choice(pool)

    def hook(self, message: Message) -> None:
        """Note workers that failed (a failed search only shows in the status line)."""
        if isinstance(message, Worker.StateChanged) and message.state == WorkerState.ERROR:
            text = f"{message.worker.name}: {message.worker.error!r}"
            if text not in self.failed_workers:
                self.failed_workers.append(text)

    def replay_note(self) -> str:
        return (f"monkey seed {self.seed}: failed at press {self.presses} of {PRESSES} "
                f"(restarts: {self.restarts}); replay with PAPERSCOPE_MONKEY_SEED={self.seed} "
                f"PAPERSCOPE_MONKEY_PRESSES={PRESSES}\nlast {len(self.last)} actions: "
                + " ".join(self.last))

    async def step(self, pilot: Pilot) -> None:
        app = pilot.app
        assert isinstance(app, PaperscopeApp)
        if self.rng.random() < RESIZE_CHANCE:
            width, height = self.size()
            self.last.append(f"<resize {width}x{height}>")
            await pilot.resize_terminal(width, height)  # pauses until the screen settles
            return
        box = app.reader.search_box
        if app.focused is box and len(box.value) > BOX_LIMIT:
            # Select all, delete: a pasted abstract would otherwise be searched again
            # (up to 64 words, the costliest queries) on every key typed after it.
            self.last.append("<clear box>")
            await pilot.press("ctrl+shift+a", "backspace")
        # Keys come in bursts of one to four, as a terminal delivers keys typed quickly:
        # all are queued before the first is handled. `pilot.press` would wait for the
        # app to go idle after each (40 ms or more), hiding such races.
        burst = [self.key() for _ in range(self.rng.randint(1, MAX_BURST))]
        self.last.append(burst[0] if len(burst) == 1 else f"({' '.join(burst)})")
        for key in burst:
            app.post_message(key_event(key))
        await pilot.pause(0)  # the app takes them, the screen is drawn
        self.presses += len(burst)
        self.unsettled += len(burst)
        if self.unsettled >= PAUSE_EVERY:
            self.unsettled = 0
            await pilot.pause()  # and the screen settled
        if self.presses // SETTLE_EVERY > (self.presses - len(burst)) // SETTLE_EVERY \
                and app.return_code is None:
            await settle(pilot)


async def settle(pilot: Pilot) -> None:
    """Wait until the lists are open and the reader's latest search is on screen.

    Polls rather than awaiting the workers as `tests/app/reader_helpers.settle` does:
    awaiting a worker the keys cancelled (a search, the palette's) raises.
    """
    app = pilot.app
    assert isinstance(app, PaperscopeApp)
    deadline = time.monotonic() + SETTLE_SECONDS
    while True:
        await pilot.pause()
        busy = any(not w.is_finished for w in app.workers if w.group in ("library", "search"))
        if app.return_code is not None or (app.reader.idle and not busy):
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"the reader did not settle in {SETTLE_SECONDS:.0f} s")


def key_event(key: str) -> events.Key:
    """The event `pilot.press(key)` sends: the same key name and character."""
    if len(key) == 1 and not key.isalnum():
        key = _character_to_key(key)
    try:
        char = unicodedata.lookup(_get_unicode_name_from_key(REPLACED_KEYS.get(key, key)))
    except KeyError:
        char = key if len(key) == 1 else None
    return events.Key(key, char)


def reader_app(index_root: Path, keymap: Path) -> PaperscopeApp:
    # read_after > 0: the auto-read timer fires now and then amid the keys.
    return create_app(None, str(index_root), "", theme="textual-dark", cursor_blink=False,
                      show_timings=False, read_after=0.05, keymap_file=keymap)


async def still_answers(pilot: Pilot) -> None:
    """Close what is open, type `QUERY`, check the list against the core, and quit."""
    app = pilot.app
    assert isinstance(app, PaperscopeApp)
    await settle(pilot)
    from tui.app.screens.confirm import ConfirmDiscard

    for _ in range(10):
        if app.screen is app.reader:
            break
        # Esc from a note with unsaved text asks first; Esc there goes back to editing.
        await pilot.press("y" if isinstance(app.screen, ConfirmDiscard) else "escape")
        await pilot.pause()
    assert app.screen is app.reader, f"Esc does not close {app.screen!r}"
    reader = app.reader
    for _ in range(10):  # to the list, then the filter back to "all"
        if app.focused is reader.paper_list and not reader.reading.filter_index:
            break
        focused = app.focused
        await pilot.press("f" if focused is reader.paper_list else
                          "escape" if focused in (reader.search_box, reader.detail) else "tab")
        await settle(pilot)
    assert reader.reading.filter_index == 0 and app.focused is reader.paper_list
    await pilot.press("slash")
    reader.search_box.value = ""
    await pilot.press(*QUERY)
    await settle(pilot)
    expected = search(app.library, QUERY, limit=1000)
    hits = reader.paper_list.hits
    assert reader.search_box.value == QUERY
    assert expected.total > 0 and len(hits) == expected.total
    assert {h.docnum for h in hits} == {h.docnum for h in expected.hits}
    assert str(reader.query_one("#status").render()).startswith(f"{expected.total} of ")
    await pilot.press("escape")  # out of the search box: "q" quits from the list
    assert app.focused is reader.paper_list
    await pilot.press("q")


async def run_monkey(monkey: Monkey, index_root: Path, keymap: Path) -> None:
    """Press `PRESSES` keys, restarting after a quit key, then check the reader answers."""
    while True:
        app = reader_app(index_root, keymap)
        async with app.run_test(size=monkey.size(), message_hook=monkey.hook) as pilot:
            await settle(pilot)
            while monkey.presses < PRESSES and app.return_code is None:
                await monkey.step(pilot)
            if app.return_code is None:
                await still_answers(pilot)
        assert app.return_code == 0, f"the reader exited with {app.return_code}"
        if monkey.presses >= PRESSES:
            return
        monkey.restarts += 1  # a quit key: the next app takes the remaining keys
        monkey.last.append("<restart>")


@pytest.mark.timeout(0 if LONG else 300)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_keys_and_sizes(seed: int, bundled_index: Path, tmp_path: Path,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    # Export (x) writes to the current folder; the palette's screenshot to ~/Downloads;
    # o would open a browser.
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr("webbrowser.open", lambda *args, **kwargs: True)
    keymap = tmp_path / "keymap.toml"
    keymap.write_text("", encoding="utf-8")
    started = time.monotonic()
    monkey = Monkey(seed)
    try:
        asyncio.run(run_monkey(monkey, bundled_index, keymap))
    except BaseException as exc:
        note = monkey.replay_note()
        print(note)
        exc.add_note(note)
        raise
    assert not monkey.failed_workers, f"{monkey.replay_note()}\nfailed workers: " + \
        "; ".join(monkey.failed_workers)
    print(f"seed {seed}: {monkey.presses} keys, {monkey.restarts} restarts, "
          f"{time.monotonic() - started:.1f} s")
