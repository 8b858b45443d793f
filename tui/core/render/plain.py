"""The abstract as plain text, remembered: the one rendering that naming, indexing and
search all share.

Kept apart from `text` so that importing it costs nothing: finding list files and
searching must not pay for the renderer (about 50 ms to import) until a text is needed.
"""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=4096)
def rendered_text(raw: str) -> str:
    """The abstract as plain text, remembered: naming, indexing and the vocabulary all
    need it while a list is read, and rendering is the costly part of parsing."""
    # Imported here: finding list files (a search does) must not pay for rendering.
    from tui.core.render.text import render

    return render(raw).text
