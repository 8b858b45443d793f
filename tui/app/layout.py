"""The reader's layout constants: where the breakpoints fall and what the first screen
of the list holds. A leaf module: the app and the screen both read it, it reads neither."""

from __future__ import annotations

WIDE_FROM = 100
"""From this many columns, list and detail sit side by side (the app's breakpoint)."""
TALL_FROM = 18
"""From this many rows, the search box has its full height."""
HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (WIDE_FROM, "-wide")]
"""List and detail sit side by side from WIDE_FROM columns; below, one takes the screen."""
VERTICAL_BREAKPOINTS = [(0, "-short"), (TALL_FROM, "-tall")]
"""Short terminals get a one-line search box."""
PREPARED_ROWS_EXTRA = 2
"""Rows beyond one screen whose papers and snippets the worker prepares (a snippet
costs about half a millisecond: it runs the analyzer over the whole abstract)."""


def first_screen_guess(width: int, height: int) -> tuple[int, int]:
    """(snippet width, rows) of the list on a `width`×`height` screen before layout."""
    list_width = width // 2 if width >= WIDE_FROM else width
    return max(20, list_width - 6), max(1, height - 8) // 2 + PREPARED_ROWS_EXTRA
