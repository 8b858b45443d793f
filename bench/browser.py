"""The reader in a browser beside the reader in a terminal: start-up and keystrokes.

    python bench/browser.py [--seeds PATH...] [--runs 5] [--index-dir DIR]

Needs Chromium and chromedriver (Debian: chromium, chromium-driver) and tmux.

1. Start-up: the time until the first paper's name shows in the list. In the browser:
   from the tab's navigation start to the first frame xterm.js rendered with it, in
   the page's own clock (`paperscope serve` already running, as a user finds it: the
   page, its websocket and a fresh reader process per tab are all counted). In the
   terminal: from starting `tmux new-session` with `python -m tui` to the first
   `capture-pane` that shows it (polled; one capture takes a few ms). Runs alternate,
   browser then terminal; medians are compared.
2. Keystroke: the names of the first papers typed one key at a time into the search
   box (every prefix of a name finds its paper, so no key waits for the "did you
   mean" pause); each key is timed until the list (the left pane, below the search
   box) first shows a change (unread marks aside: a paper shown for 3 s becomes read
   whatever is typed), and until the search box echoed it. In the browser from the
   page's keydown event to the rendered frame, in the page's clock; in the terminal
   from `tmux send-keys` to the capture that shows it. Each key waits until the screen has been still for 0.4 s;
   keys after which the list did not change within two seconds are counted, not timed.

Both readers run on the same lists, index and terminal size (the page's). The load
average is printed with the figures: the machine may be shared.
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.reader_probe import percentile  # noqa: E402
from bench.webpage import (  # noqa: E402
    SEARCH_BOX_ROWS, Page, ServedReader, find_browser, free_port, list_rows, open_browser,
)

CHANGE_SECONDS = 2.0
"""How long a key may take to change the list before it counts as changing nothing."""
QUIET_SECONDS = 0.4
"""How long the screen must stay as it is before the next key: each key starts from a
reader that has drawn everything the previous one caused."""


class Terminal:
    """The reader in a detached tmux session of its own, at a fixed size."""

    def __init__(self, command: str, width: int, height: int, env: dict[str, str]) -> None:
        self.started = time.perf_counter()
        self.tmux = ["tmux", "-L", f"paperscope-bench-{uuid.uuid4().hex[:8]}", "-f", "/dev/null"]
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        subprocess.run([*self.tmux, "new-session", "-d", "-s", "bench", "-x", str(width),
                        "-y", str(height), f"env -u COLUMNS -u LINES {exports} {command}"],
                       check=True)

    def screen(self) -> str:
        return subprocess.run([*self.tmux, "capture-pane", "-p", "-t", "bench"],
                              check=True, capture_output=True, text=True).stdout

    def key(self, key: str, literal: bool = True) -> float:
        """Send one key; the perf_counter time just before."""
        started = time.perf_counter()
        subprocess.run([*self.tmux, "send-keys", "-t", "bench", *(["-l"] if literal else []),
                        key], check=True)
        return started

    def wait(self, check, timeout: float) -> tuple[float, str] | None:
        """(perf_counter time, screen) of the first capture for which `check` holds."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            screen = self.screen()
            if check(screen):
                return time.perf_counter(), screen
        return None

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], check=False, capture_output=True)


def _names(seeds: list[str] | None, index_dir: str, queries: int) -> tuple[str, list[str]]:
    """What the list's first row starts with (the first paper's name or title), and the
    names of the first `queries` papers that have one, lower-cased, to type.

    Every prefix of a paper's name finds that paper, so no key waits for the "did you
    mean" that follows a pause when nothing matches.
    """
    from tui.core.index.library import open_library

    with open_library(seeds, index_dir) as library:
        papers = library.papers()
    names = [p.name.lower() for p in papers if p.name and p.name.isascii()][:queries]
    return (papers[0].name or papers[0].title)[:20], names


def _quiet(screen, timeout: float = 30.0) -> None:
    """Until `screen()` has stayed the same for QUIET_SECONDS."""
    deadline = time.monotonic() + timeout
    last, since = screen(), time.monotonic()
    while time.monotonic() < deadline and time.monotonic() - since < QUIET_SECONDS:
        time.sleep(0.02)
        now = screen()
        if now != last:
            last, since = now, time.monotonic()


def _shows(name: str):
    return lambda screen: any(name in row for row in list_rows(screen))


def browser_startup(chrome, url: str, name: str) -> float:
    """ms from navigation start to the first frame whose list shows `name`."""
    chrome.switch_to.new_window("tab")
    page = Page(chrome)
    page.open(url)
    page.wait_for(_shows(name))
    first = next(t for t, screen in page.frames() if _shows(name)(screen))
    chrome.close()
    chrome.switch_to.window(chrome.window_handles[0])
    return first


def terminal_startup(command: str, size: tuple[int, int], env: dict[str, str],
                     name: str) -> float:
    terminal = Terminal(command, *size, env)
    try:
        seen = terminal.wait(_shows(name), timeout=60)
        assert seen is not None, "the terminal reader did not show the list"
        return (seen[0] - terminal.started) * 1000
    finally:
        terminal.close()


def _rows(screen: str) -> list[str]:
    """The list's rows without the unread marks: a paper shown for 3 s becomes read,
    which changes its row whatever was typed."""
    return [row.replace("•", " ") for row in list_rows(screen)]


def _box(screen: str) -> list[str]:
    """The search box's rows: they change when a typed key is echoed."""
    return screen.splitlines()[:SEARCH_BOX_ROWS]


class KeyTimes:
    """Per key: ms until the search box echoed it and until the list changed."""

    def __init__(self) -> None:
        self.echo: list[float] = []
        self.list: list[float] = []
        self.unchanged = 0
        """Keys after which the list stayed as it was (their echo is still timed)."""


def browser_keys(chrome, url: str, name: str, queries: list[str]) -> KeyTimes:
    """From the page's keydown to the first rendered frame with the echo / a new list."""
    chrome.switch_to.new_window("tab")
    page = Page(chrome)
    page.open(url)
    page.wait_for(_shows(name))
    page.type("/")
    _quiet(page.screen)
    times = KeyTimes()
    for query in queries:
        for key in query:
            screen = page.screen()
            before, box = _rows(screen), _box(screen)
            keys_before = len(page.key_times())
            page.type(key)
            deadline = time.monotonic() + CHANGE_SECONDS
            while time.monotonic() < deadline and _rows(page.screen()) == before:
                time.sleep(0.01)
            _quiet(page.screen)
            down = page.key_times()[keys_before]
            frames = [(t - down, screen) for t, screen in page.frames()
                      if 0 < t - down <= CHANGE_SECONDS * 1000]
            echoed = [t for t, screen in frames if _box(screen) != box]
            changed = [t for t, screen in frames if _rows(screen) != before]
            times.echo += echoed[:1]
            if changed:
                times.list.append(changed[0])
            else:
                times.unchanged += 1
        page.type("\ue003" * len(query))  # backspace: an empty box for the next query
        _quiet(page.screen)
    chrome.close()
    chrome.switch_to.window(chrome.window_handles[0])
    return times


def terminal_keys(command: str, size: tuple[int, int], env: dict[str, str], name: str,
                  queries: list[str]) -> KeyTimes:
    """From `tmux send-keys` to the first capture with the echo / a new list."""
    terminal = Terminal(command, *size, env)
    times = KeyTimes()
    try:
        assert terminal.wait(_shows(name), timeout=60), "the terminal reader did not start"
        terminal.key("/")
        _quiet(terminal.screen)
        for query in queries:
            for key in query:
                screen = terminal.screen()
                before, box = _rows(screen), _box(screen)
                sent = terminal.key(key)
                echoed = terminal.wait(lambda s: _box(s) != box, CHANGE_SECONDS)
                if echoed:
                    times.echo.append((echoed[0] - sent) * 1000)
                changed = (echoed if echoed and _rows(echoed[1]) != before else
                           terminal.wait(lambda s: _rows(s) != before, CHANGE_SECONDS))
                if changed:
                    times.list.append((changed[0] - sent) * 1000)
                else:
                    times.unchanged += 1
                _quiet(terminal.screen)
            for _ in query:
                terminal.key("BSpace", literal=False)
            _quiet(terminal.screen)
    finally:
        terminal.close()
    return times


def _summary(values: list[float]) -> str:
    return (f"median {statistics.median(values):7.1f} ms   p95 {percentile(values, 0.95):7.1f}"
            f" ms   ({len(values)} timed)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", nargs="+", help="lists (default: the bundled ones)")
    parser.add_argument("--runs", type=int, default=5, help="start-ups of each (default 5)")
    parser.add_argument("--queries", type=int, default=4,
                        help="how many papers' names to type (default 4)")
    parser.add_argument("--index-dir", help="where to keep the index (default: a temp dir)")
    args = parser.parse_args(argv)
    found = find_browser()
    if found is None:
        print("bench: needs chromium and chromedriver", file=sys.stderr)
        return 2

    home = Path(tempfile.mkdtemp(prefix="paperscope-bench-browser-"))
    index_dir = args.index_dir or str(home / "index")
    env = {"PAPERSCOPE_DATA_DIR": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config")}
    name, queries = _names(args.seeds, index_dir, args.queries)
    seeds = [os.path.abspath(p) for p in args.seeds or []]
    reader = shlex.join([sys.executable, "-m", "tui", "--index-dir", index_dir,
                         *(["--seeds", *seeds] if seeds else [])])
    print(f"load average before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")

    server = ServedReader(free_port(), index_dir, dict(os.environ, **env), seeds)
    chrome = open_browser(*found)
    try:
        probe = Page(chrome)
        probe.open(server.url)
        probe.wait_for(_shows(name))
        size = probe.size()
        print(f"terminal size {size[0]}x{size[1]}, first row {name!r}")

        in_browser, in_terminal = [], []
        for _ in range(args.runs):
            in_browser.append(browser_startup(chrome, server.url, name))
            in_terminal.append(terminal_startup(reader, size, env, name))
        browser_ms, terminal_ms = statistics.median(in_browser), statistics.median(in_terminal)
        print(f"start-up, browser : median {browser_ms:7.0f} ms  "
              f"(runs {', '.join(f'{v:.0f}' for v in in_browser)})")
        print(f"start-up, terminal: median {terminal_ms:7.0f} ms  "
              f"(runs {', '.join(f'{v:.0f}' for v in in_terminal)})")
        print(f"start-up ratio browser/terminal: {browser_ms / terminal_ms:.2f}")

        in_page = browser_keys(chrome, server.url, name, queries)
        in_tmux = terminal_keys(reader, size, env, name, queries)
        for label, times in (("browser ", in_page), ("terminal", in_tmux)):
            print(f"keystroke, {label}, echo: {_summary(times.echo)}")
            print(f"keystroke, {label}, list: {_summary(times.list)}, "
                  f"{times.unchanged} left the list as it was")
        for what in ("echo", "list"):
            ratio = (statistics.median(getattr(in_page, what))
                     / statistics.median(getattr(in_tmux, what)))
            print(f"keystroke ratio browser/terminal, {what} (medians): {ratio:.2f}")
    finally:
        chrome.quit()
        server.stop()
    print(f"load average after: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
