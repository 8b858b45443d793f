"""The Textual reader. Only this package imports Textual; the core never does.

`run` is what `paperscope` (no subcommand) calls. Textual is imported inside it, so
that importing `tui.app` stays cheap.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

# Textual paints at most TEXTUAL_FPS frames a second (60 by default), so a new result
# waits for the next frame's turn before it is drawn. The echo of a key has usually
# just taken a frame when the key's result arrives, so the wait is most of a frame
# period: at 240 it is 3 ms (p50) instead of 6-8 ms at 120, a fifth of a keystroke.
# Frames are only drawn when something changed (one per key, however fast the
# frame rate), so this costs nothing at rest. Set before Textual is imported; the
# user's own value wins.
os.environ.setdefault("TEXTUAL_FPS", "240")


def run(seeds: Sequence[str] | None = None, index_dir: str | None = None,
        query: str = "") -> int:
    """Open the reader on `seeds` (None: the bundled lists) with `query` typed; exit code."""
    from tui.core.lists.files import discover

    if seeds:
        # A path that names no list raises SeedError now, before the screen is taken
        # over; the command line turns it into one line and exit code 2.
        discover(seeds)
    from tui.app.app import create_app

    app = create_app(seeds, index_dir, query)
    app.run()
    if app.error_message:
        # After the terminal is restored, and as one line, like the CLI's other errors.
        print(app.error_message, file=sys.stderr)
    return app.return_code or 0


__all__ = ["run"]
