"""The reader in a real terminal: tmux runs `python -m tui`, keys go in with
`send-keys`, and the screen is read back with `capture-pane -p`.

`test_resize_paste_suspend_and_quit_in_a_shell` runs the reader from an interactive
shell in the pane, so that ctrl+z and `fg` work as they do for a person, and checks
that the terminal modes are the shell's again after quitting.

Skipped where tmux is missing (CI installs it).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.cells import cell_len

from tui.app.layout import WIDE_FROM

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

ROOT = Path(__file__).resolve().parents[2]
WAIT_SECONDS = 60.0
"""How long to wait for the screen to show something before failing."""


class Tmux:
    """One detached tmux session running a command at a fixed size."""

    def __init__(self, command: str, width: int, height: int, env: dict[str, str],
                 *, interactive: bool = False, cwd: Path = ROOT) -> None:
        """Run `command` and then wait, or with `interactive` run `command` (a shell) alone."""
        self.name = f"paperscope-test-{uuid.uuid4().hex[:8]}"
        # A server of its own: no other session (a developer's, another test's) can
        # change this window's size.
        self.tmux = ["tmux", "-L", self.name, "-f", "/dev/null"]
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        # COLUMNS/LINES may be left in this process's environment by in-process test
        # runs; they would override the window's real size.
        run = f"env -u COLUMNS -u LINES {exports} {command}"
        shell = f"cd {shlex.quote(str(cwd))} && " + (
            f"exec {run}" if interactive else f"{run}; echo EXITED $?; sleep 30")
        subprocess.run([*self.tmux, "new-session", "-d", "-s", self.name, "-x", str(width),
                        "-y", str(height), shell], check=True)

    def keys(self, *keys: str, literal: bool = False) -> None:
        flags = ["-l"] if literal else []
        subprocess.run([*self.tmux, "send-keys", "-t", self.name, *flags, *keys], check=True)

    def screen(self) -> str:
        return subprocess.run([*self.tmux, "capture-pane", "-p", "-t", self.name], check=True,
                              capture_output=True, text=True).stdout

    def wait_for(self, text: str) -> str:
        """Poll the screen until `text` shows; fail with the last screen if it never does."""
        return self.wait_until(lambda screen: text in screen, repr(text))

    def wait_until(self, check: Callable[[str], object], what: str) -> str:
        """Poll the screen until `check(screen)` holds; fail with the last screen if not."""
        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            screen = self.screen()
            if check(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"never saw {what}; the screen was:\n{screen}")
            time.sleep(0.1)  # polling interval, not an assertion

    def display(self, fmt: str) -> str:
        """A tmux format for the pane, e.g. `#{cursor_flag}`."""
        return subprocess.run([*self.tmux, "display-message", "-p", "-t", self.name, fmt],
                              check=True, capture_output=True, text=True).stdout.strip()

    def resize(self, width: int, height: int) -> None:
        subprocess.run([*self.tmux, "resize-window", "-t", self.name, "-x", str(width),
                        "-y", str(height)], check=True)

    def paste(self, text: str) -> None:
        """Paste `text` as a terminal does: bracketed if the application asked for it."""
        subprocess.run([*self.tmux, "set-buffer", "-b", "test", "--", text], check=True)
        subprocess.run([*self.tmux, "paste-buffer", "-p", "-d", "-b", "test", "-t", self.name],
                       check=True)

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], check=False, capture_output=True)


@pytest.fixture
def terminal_env(tmp_path: Path, index_dir: str) -> dict[str, str]:
    keymap = tmp_path / "keymap.toml"
    keymap.write_text("")
    return {
        "TERM": "xterm-256color",
        "PAPERSCOPE_KEYMAP": str(keymap),
        "PAPERSCOPE_INDEX_DIR": index_dir,
        "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
    }


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_type_a_query_and_quit_in_tmux(terminal_env: dict[str, str], size) -> None:
    tmux = Tmux(f"{shlex.quote(sys.executable)} -m tui", *size, terminal_env)
    try:
        tmux.wait_for("38 papers")
        tmux.keys("/")
        tmux.keys("tool calls", literal=True)
        screen = tmux.wait_for("2 of 38 papers")
        assert "ParaTool" in screen and "Gecko" in screen
        assert "tool calls" in screen.splitlines()[1]  # typed into the search box
        tmux.keys("Enter")  # to the list: its keys show in the footer
        tmux.wait_for("Open")
        tmux.keys("Enter")  # open the paper: the detail pane's keys show
        tmux.wait_for("Next match")
        # The cursor stayed on Gecko, the paper it was on before the search (the pane
        # is drawn a frame after the footer, hence waiting rather than asserting).
        screen = tmux.wait_for("Gecko: a stateful")
        assert "paper 1 of 19" in screen
        assert ("Papers ─" in screen) == (size[0] >= 100)  # narrow: the detail alone
        tmux.keys("q")
        screen = tmux.wait_for("EXITED 0")
        # The terminal is restored: the app's screen is gone.
        assert "of 38 papers" not in screen
    finally:
        tmux.close()


def test_query_on_the_command_line_under_tmux(terminal_env: dict[str, str]) -> None:
    tmux = Tmux(f"{shlex.quote(sys.executable)} -m tui diffusion", 40, 12, terminal_env)
    try:
        screen = tmux.wait_for("of 38 papers")
        assert "diffusion" in screen
        tmux.keys("C-c")
        tmux.wait_for("EXITED 0")
    finally:
        tmux.close()


PROMPT = "paperscope-test$"
"""The shell's prompt in the pane."""
TERMINAL_MODES = ("alternate_on", "cursor_flag", "wrap_flag", "insert_flag", "origin_flag",
                  "keypad_flag", "keypad_cursor_flag", "mouse_any_flag", "mouse_all_flag",
                  "mouse_button_flag", "mouse_standard_flag", "mouse_sgr_flag",
                  "mouse_utf8_flag")
"""Pane modes an application may change; the reader must leave them as it found them."""
STRAY = re.compile(r"\x1b|\^\[|\[\?[\d;]*[a-zA-Z$]|\d+;\d+(\$y|R|c)")
"""Escape sequences, or the rest of one, that reached the shell as text (e.g. the
terminal's answer to a query the reader made, arriving after it quit)."""


def modes(tmux: Tmux) -> dict[str, str]:
    values = tmux.display(" ".join(f"#{{{name}}}" for name in TERMINAL_MODES)).split()
    return dict(zip(TERMINAL_MODES, values))


def reader_drawn(width: int, height: int, query: str, status: str) -> Callable[[str], bool]:
    """Whether a screen is the reader laid out for `width`×`height` with the list of
    `query` (and `status`): a one-line search box when short, list and detail side by
    side when wide (the app's breakpoints).

    The footer's right end (the palette key) sits at the right edge (the last cell is
    left blank): a frame left from another size, which tmux crops or pads, does not pass.
    """
    tall, wide = height >= 18, width >= WIDE_FROM

    def check(screen: str) -> bool:
        rows = screen.split("\n")[:height]
        if len(rows) < height:
            return False
        footer = rows[-1].rstrip()
        box = rows[1] if tall else rows[0]
        panes = rows[3] if tall else rows[1]
        return (footer.endswith("Palette") and width - 2 <= cell_len(footer) <= width
                and all(cell_len(row) <= width for row in rows)
                and query in box and ("▔" in rows[0]) == tall
                and "Papers ─" in panes and ("Detail ─" in panes) == wide
                and status in rows[-2] and "Traceback" not in screen)
    return check


def test_resize_paste_suspend_and_quit_in_a_shell(terminal_env: dict[str, str], tmp_path: Path,
                                                   bundled_library) -> None:
    """`paperscope` from a shell at 80×24: a query; resized to 40×12 and 200×50; a
    bracketed paste; ctrl+z and `fg`; keys typed together in the palette; q. After
    each step the reader is drawn for the size, and at the end the shell has its
    terminal back: its modes, its prompt, no stray escape sequences, echo."""
    from tui.core.search.search import search

    # `paperscope` as installed runs `tui.cli:main`; this one runs the checkout's.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "paperscope"
    wrapper.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m tui "$@"\n')
    wrapper.chmod(0o755)
    env = {**terminal_env, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
           "PS1": f"{PROMPT} ", "HISTFILE": os.devnull}
    tmux = Tmux("bash --norc --noprofile -i", 80, 24, env, interactive=True, cwd=tmp_path)
    try:
        tmux.wait_for(PROMPT)
        shell_modes = modes(tmux)
        assert shell_modes["alternate_on"] == "0" and shell_modes["cursor_flag"] == "1"
        tmux.keys("paperscope", "Enter")
        tmux.wait_for("38 papers")
        tmux.keys("/")
        tmux.keys("tool calls", literal=True)
        tmux.wait_until(reader_drawn(80, 24, "tool calls", "2 of 38 papers"), "the query at 80×24")

        for width, height in [(40, 12), (200, 50)]:
            tmux.resize(width, height)
            tmux.wait_until(reader_drawn(width, height, "tool calls", "2 of 38 papers"),
                            f"the reader redrawn at {width}×{height}")
        tmux.resize(80, 24)
        tmux.wait_until(reader_drawn(80, 24, "tool calls", "2 of 38 papers"), "80×24 again")

        # Bracketed paste into the search box: focusing it selects the query, so the
        # pasted text replaces it. Unbracketed, the line break would be Enter (to the
        # list) and the "q" after it would quit.
        pasted = "stateful simulation"
        expected = search(bundled_library, pasted, limit=1000).total
        assert expected > 0
        tmux.keys("Escape")
        tmux.wait_for("⏎ Open")  # in the list (its keys in the footer)
        tmux.keys("/")
        tmux.paste(f"{pasted}\nq")
        status = f"{expected} of 38 papers"
        tmux.wait_until(reader_drawn(80, 24, pasted, status), f"the pasted query and {status}")

        # ctrl+z: back to the shell with the shell's terminal; fg: the reader redrawn.
        tmux.keys("C-z")
        screen = tmux.wait_until(lambda s: "Stopped" in s and s.rstrip().endswith(PROMPT),
                                 "the shell after ctrl+z")
        assert modes(tmux) == shell_modes, "ctrl+z left the terminal in the reader's modes"
        tmux.keys("fg", "Enter")
        tmux.wait_until(reader_drawn(80, 24, pasted, status), "the reader redrawn after fg")
        assert modes(tmux)["alternate_on"] == "1"

        # Keys typed in quick succession arrive together: ctrl+p with PageUp, and Enter
        # twice on a paper in the palette (each quit with a traceback once).
        tmux.keys("C-p", "PageUp")
        tmux.wait_for("Search for commands")
        tmux.keys("webwrld", literal=True)
        tmux.wait_for("Jump to paper · ")  # a paper found by the palette
        tmux.keys("Enter", "Enter")
        tmux.wait_until(lambda s: "Detail ━" in s and "WebWorld: the first" in s
                        and "Search for commands" not in s, "WebWorld opened from the palette")

        # q from the list: the terminal is the shell's again.
        tmux.keys("Escape")
        tmux.wait_for("⏎ Open")
        tmux.keys("q")
        screen = tmux.wait_until(
            lambda s: s.rstrip().endswith(PROMPT) and modes(tmux) == shell_modes,
            "the prompt with the shell's terminal modes")
        assert screen.rstrip().splitlines()[-1] == PROMPT  # nothing typed after it
        assert not STRAY.search(screen), f"stray escape sequence:\n{screen}"
        assert "Traceback" not in screen
        tmux.keys('echo "exit code $?"', "Enter")  # echoed as typed: the tty is sane again
        screen = tmux.wait_for("exit code 0")
        assert f'{PROMPT} echo "exit code $?"' in screen
        assert not STRAY.search(screen), f"stray escape sequence:\n{screen}"
    finally:
        tmux.close()
