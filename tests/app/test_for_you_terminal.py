"""The for-you order in a real terminal (tmux): nothing starred says so; after a star
the list is ranked by it and says what it ranks by; "not interested" pushes a paper
out of the order, and `u` brings it back."""

from __future__ import annotations

import shlex
import shutil
import sys

import pytest

from tests.app.test_real_terminal import Tmux, terminal_env

__all__ = ["terminal_env"]  # a fixture, used by name

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def first_row(screen: str) -> str:
    """The list's first row: the line under the Papers pane's top border."""
    lines = screen.splitlines()
    top = next(i for i, line in enumerate(lines) if " Papers " in line)
    return lines[top + 1]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_for_you_follows_stars_and_not_interested(terminal_env: dict[str, str], size) -> None:
    tmux = Tmux(f"{shlex.quote(sys.executable)} -m tui", *size, terminal_env)
    try:
        tmux.wait_for("38 papers")
        tmux.keys("Down")  # to the list
        assert "Gecko" in first_row(tmux.wait_for("Open"))
        tmux.keys("g")  # on the first paper: Gecko, in list order
        tmux.keys("F")
        tmux.wait_for("Nothing is starred yet")
        tmux.keys("s")
        tmux.keys("F")
        screen = tmux.wait_for("for you: 1 starred")
        assert "For you: ordered by 1 starred paper" in screen
        # Gecko's own kind first: ParaTool (LLM tool calls, as Gecko), Gecko left out.
        screen = tmux.wait_until(lambda s: "ParaTool" in first_row(s), "ParaTool first")
        assert "Gecko" not in screen.split(" Papers ")[1].split("papers ·")[0]
        tmux.keys("g", "d")  # ParaTool: not interested
        screen = tmux.wait_for("1 starred, 1 not interested")
        screen = tmux.wait_until(lambda s: "ParaTool" not in first_row(s), "ParaTool gone")
        pushed = first_row(screen)
        tmux.keys("u")
        tmux.wait_until(lambda s: "ParaTool" in first_row(s)
                        and s.splitlines()[-2].startswith(" for you: 1 starred · "),
                        "ParaTool back, the mark undone")
        tmux.keys("F")  # back to the list order
        tmux.wait_until(lambda s: "Gecko" in first_row(s) and "for you" not in s,
                        "list order again")
        assert pushed != first_row(tmux.screen())
        tmux.keys("q")
        tmux.wait_for("EXITED 0")
    finally:
        tmux.close()
