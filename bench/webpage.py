"""The served reader and a headless Chromium page on it, for the browser test and bench.

`ServedReader` runs `paperscope serve` on a free loopback port in a process group of
its own; `open_browser` starts Chromium headless through Selenium, with Debian's
chromedriver named explicitly (Selenium would otherwise try to download one);
`Page` reads the screen the page shows and types into it.

Reading the screen: textual-serve's page keeps its xterm.js `Terminal` inside a
closure. A setter on `Object.prototype`, installed before the page's own script runs,
catches the terminal when that script assigns `this.terminal`, hands it to
`window.__paperscope_term` and removes itself. The screen is then read through
xterm.js's public buffer API; nothing on the page changes. The same hook records,
in the page's own clock, when each rendered frame first showed a given text and
when each key went down, for the bench's timings.
"""

from __future__ import annotations

import os
import queue
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BROWSERS = ("chromium", "chromium-browser", "google-chrome")
"""Where Debian and others put a Chromium-based browser."""
WAIT_SECONDS = 60.0
"""How long to wait for the page to show something before failing."""
SEARCH_BOX_ROWS = 3
"""The search box's height at 18 rows or more: what lies below it is the results."""

HOOK = """
(() => {
  const frames = window.__paperscope_frames = [];   // [ms, screen text] per change
  window.__paperscope_keys = [];                   // ms of every keydown
  document.addEventListener("keydown",
    () => window.__paperscope_keys.push(performance.now()), true);
  Object.defineProperty(Object.prototype, "terminal", {
    configurable: true,
    set(value) {
      Object.defineProperty(this, "terminal",
        {value, writable: true, configurable: true, enumerable: true});
      if (!(value && value.buffer && value.onRender)) return;
      delete Object.prototype.terminal;
      window.__paperscope_term = value;
      let last = null;
      value.onRender(() => {
        const text = window.__paperscope_screen();
        if (text !== last) { frames.push([performance.now(), text]); last = text; }
      });
    },
  });
  window.__paperscope_screen = () => {
    const term = window.__paperscope_term;
    if (!term) return null;
    const buffer = term.buffer.active, rows = [];
    for (let y = 0; y < term.rows; y++) {
      const line = buffer.getLine(buffer.viewportY + y);
      rows.push(line ? line.translateToString(true) : "");
    }
    return rows.join("\\n");
  };
})();
"""


def find_browser() -> tuple[str, str] | None:
    """(browser, chromedriver) paths, or None where either is missing."""
    browser = next((path for name in BROWSERS if (path := shutil.which(name))), None)
    driver = shutil.which("chromedriver")
    return (browser, driver) if browser and driver else None


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def port_is_free(port: int) -> bool:
    try:
        with socket.create_server(("127.0.0.1", port)):
            return True
    except OSError:
        return False


def children(pid: int) -> list[int]:
    """The live (not zombie) child processes of `pid`, from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces, so split after its ')'.
        state, ppid = stat.rsplit(")", 1)[1].split()[:2]
        if int(ppid) == pid and state != "Z":
            found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """True while `pid` runs (a zombie counts as ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def serve_command(port: int, index_dir: str, seeds: Sequence[str] = ()) -> list[str]:
    command = [sys.executable, "-m", "tui", "serve", "--port", str(port), "--index-dir",
               index_dir]
    return command + (["--seeds", *seeds] if seeds else [])


class ServedReader:
    """`paperscope serve` on a loopback port, in its own process group."""

    def __init__(self, port: int, index_dir: str, env: dict[str, str],
                 seeds: Sequence[str] = ()) -> None:
        self.port = port
        self.process = subprocess.Popen(
            serve_command(port, index_dir, seeds), cwd=ROOT, env=env, text=True,
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            start_new_session=True)
        self._lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.first_line = self._lines.get(timeout=WAIT_SECONDS)
        """What the server printed first (the URL, once it listens)."""

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line.rstrip("\n"))
        self._lines.put("")  # end of output

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def readers(self) -> list[int]:
        """The reader processes the server runs now (one per open tab)."""
        return children(self.process.pid)

    def interrupt(self, timeout: float = 30.0) -> int:
        """Send SIGINT to the server alone and wait for it; its exit code."""
        self.process.send_signal(signal.SIGINT)
        return self.process.wait(timeout=timeout)

    def stop(self) -> None:
        """End the server and anything it left (for clean-up after a failure)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.process.wait()


def open_browser(browser: str, driver: str, width: int = 1280, height: int = 760):
    """Headless Chromium driven by Selenium."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = browser
    # Root in a container has no sandbox to give; /dev/shm is often tiny there.
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                 f"--window-size={width},{height}", "--hide-scrollbars"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(driver), options=options)


class Page:
    """The reader as one browser tab shows it (the browser's current tab)."""

    def __init__(self, chrome) -> None:
        self.chrome = chrome
        # Per tab: every tab is a target of its own for the DevTools protocol.
        chrome.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HOOK})
        # A headless window never has the focus; without this the page's focus and
        # blur events (which tell the reader it is being looked at) never come.
        chrome.execute_cdp_cmd("Emulation.setFocusEmulationEnabled", {"enabled": True})

    def open(self, url: str) -> None:
        self.chrome.get(url)

    def screen(self) -> str:
        """The terminal's visible text, one line per row ('' before it exists)."""
        return self.chrome.execute_script("return window.__paperscope_screen() || ''")

    def size(self) -> tuple[int, int]:
        return tuple(self.chrome.execute_script(
            "const t = window.__paperscope_term; return [t.cols, t.rows]"))

    def wait_for(self, check: Callable[[str], bool] | str,
                 timeout: float = WAIT_SECONDS) -> str:
        """Poll the screen until `check` (or the text) holds; the screen then."""
        test = check if callable(check) else (lambda screen: check in screen)
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if test(screen):
                return screen
            time.sleep(0.05)
        raise AssertionError(f"the page did not show what was awaited; it shows:\n{screen}")

    def focus(self) -> None:
        """Give the terminal the keyboard focus, as a click on it would."""
        self.chrome.execute_script(
            "document.querySelector('.xterm-helper-textarea').focus()")

    def type(self, keys: str) -> None:
        """Type into the terminal as a person would (Selenium's key events)."""
        from selenium.webdriver.common.by import By

        self.chrome.find_element(By.CSS_SELECTOR, ".xterm-helper-textarea").send_keys(keys)

    def frames(self) -> list[tuple[float, str]]:
        """(page ms, screen) of every rendered frame that changed the screen so far."""
        return [tuple(frame) for frame in self.chrome.execute_script(
            "return window.__paperscope_frames")]

    def key_times(self) -> list[float]:
        """Page ms of every keydown so far."""
        return self.chrome.execute_script("return window.__paperscope_keys")


def list_rows(screen: str) -> list[str]:
    """The rows of the paper list: the left pane of the wide layout, below the search box.

    Each row is the text between the pane's left border and the next border character.
    """
    rows = []
    for line in screen.splitlines()[SEARCH_BOX_ROWS:]:
        if line[:1] not in "┃│▊|":
            continue
        inner = line[1:]
        end = min((i for i, ch in enumerate(inner) if ch in "┃│"), default=len(inner))
        text = inner[:end].strip(" ▌▆▇█▅▄▃▂▁")
        if text and not text.startswith(("━", "─")):
            rows.append(text)
    return rows
