"""How one run of the reader is set up: what to open and how to show it."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple


class ReaderSettings(NamedTuple):
    """Everything `create_app` needs; tests pin the parts that vary between runs."""

    seeds: tuple[str, ...] | None = None
    """List files or folders to open; None opens the bundled lists."""
    index_dir: str | None = None
    """Where to keep the index; None lets the core choose."""
    query: str = ""
    """The query typed when the reader opens."""
    theme: str | None = None
    """A Textual theme name; None keeps Textual's default."""
    cursor_blink: bool = True
    """Whether the search box's cursor blinks (off for screenshots)."""
    show_timings: bool = True
    """Whether the status line shows how long the search took (off for screenshots)."""
    keymap_file: Path | None = None
    """A keymap file to use instead of the usual places."""
    search_limit: int = 1000
    """At most this many hits of a query are listed; the status line shows the total."""
    read_after: float = 3.0
    """Seconds a paper stays in the detail pane before it is marked read (0: never)."""
