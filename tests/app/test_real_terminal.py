"""The reader in a real terminal: tmux runs `python -m tui`, keys go in with
`send-keys`, and the screen is read back with `capture-pane -p`.

Skipped where tmux is missing (CI installs it).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

ROOT = Path(__file__).resolve().parents[2]
WAIT_SECONDS = 60.0
"""How long to wait for the screen to show something before failing."""


class Tmux:
    """One detached tmux session running a command at a fixed size."""

    def __init__(self, command: str, width: int, height: int, env: dict[str, str]) -> None:
        self.name = f"paperscope-test-{uuid.uuid4().hex[:8]}"
        # A server of its own: no other session (a developer's, another test's) can
        # change this window's size.
        self.tmux = ["tmux", "-L", self.name, "-f", "/dev/null"]
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        # COLUMNS/LINES may be left in this process's environment by in-process test
        # runs; they would override the window's real size.
        shell = (f"cd {shlex.quote(str(ROOT))} && env -u COLUMNS -u LINES {exports} {command};"
                 " echo EXITED $?; sleep 30")
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
        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            screen = self.screen()
            if text in screen:
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} never appeared; the screen was:\n{screen}")
            time.sleep(0.1)  # polling interval, not an assertion

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
