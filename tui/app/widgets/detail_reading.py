"""The detail pane's reading-state part: the star, the read mark and the note.

Kept apart from `detail_text` so that the abstract's text does not depend on the state,
and so that the note can be tested without a screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

if TYPE_CHECKING:
    from tui.app.widgets.detail_text import DetailStyles
    from tui.core.model import Paper
    from tui.core.state import StateStore


def reading_text(paper: Paper, state: StateStore, styles: DetailStyles,
                 drafted: bool = False, because: list[str] | None = None) -> Text:
    """A line for the star and read mark (and an unsaved draft of the note, when
    `drafted`; the not-interested mark), the words that put the paper high in the
    for-you order (`because`), then the note under a heading, if any.

    Words, not only symbols, so that it reads the same without colour.
    """
    marks = ["★ starred" if state.is_starred(paper.id) else "not starred",
             "read" if state.is_read(paper.id) else "• unread"]
    if state.is_disliked(paper.id):
        marks.append("✗ not interested (d undoes)")
    if drafted:
        marks.append("✎ unsaved note draft (e recovers it)")
    out = Text()
    out.append("\n\n" + " · ".join(marks), style=styles.meta)
    if because:
        out.append("\nWhy for you: ", style=styles.meta)
        out.append(", ".join(because))
    note = state.note(paper.id).strip()
    if note:
        out.append("\n\nNote", style=styles.title)
        out.append("  (e to edit)\n", style=styles.meta)
        out.append(note)
    return out
