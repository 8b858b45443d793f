"""The Textual reader. Only this package imports Textual; the core never does.

`run` is what `paperscope` (no subcommand) calls. Textual is imported inside it, so
that importing `tui.app` stays cheap.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

# Textual paints at most TEXTUAL_FPS frames a second (60 by default), so a new result
# waits up to a frame before it is drawn; at 120 that wait halves, which is a third of
# a typical keystroke's time. Frames are only drawn when something changed, so this
# costs nothing at rest. Set before Textual is imported; the user's own value wins.
os.environ.setdefault("TEXTUAL_FPS", "120")


def run(seeds: Sequence[str] | None = None, index_dir: str | None = None,
        query: str = "") -> int:
    """Open the reader on `seeds` (None: the bundled lists) with `query` typed; exit code."""
    from tui.app.app import create_app

    app = create_app(seeds, index_dir, query)
    app.run()
    if app.error_message:
        # After the terminal is restored, and as one line, like the CLI's other errors.
        print(app.error_message, file=sys.stderr)
    return app.return_code or 0


__all__ = ["run"]
