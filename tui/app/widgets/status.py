"""One-line widgets that say what is going on: the status line and the match banner."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

if TYPE_CHECKING:
    from tui.core.model import Paper
    from tui.core.search.hits import SearchResult


def status_text(result: SearchResult | None, papers: int, current: Paper | None,
                show_timings: bool = True, filtered: bool = False) -> str:
    """E.g. `12 of 38 papers · list: ICML 2026 Papers · 4 ms`.

    `filtered`: the list is narrowed (by the reader's filter) even with no query.
    """
    if result is None:
        return f"{papers:,} papers"
    shown = len(result.hits)
    if not result.query.strip() and not filtered:
        parts = [f"{papers:,} papers"]
    elif not result.exact:  # counted up to a bound while typing; exact once it pauses
        parts = [f"first {shown:,} of more than {result.total:,} matches · {papers:,} papers"]
    elif shown < result.total:
        parts = [f"first {shown:,} of {result.total:,} matches · {papers:,} papers"]
    else:
        parts = [f"{result.total:,} of {papers:,} papers"]
    if result.fuzzy:
        parts.append("close matches")
    if current is not None:
        parts.append(f"list: {current.list_title}")
    if show_timings:
        parts.append(f"{result.elapsed_ms:.0f} ms")
    return " · ".join(parts)


def banner_text(result: SearchResult | None) -> Text | None:
    """What to say above the list when the query found nothing as typed, else None."""
    if result is None or not result.query.strip():
        return None
    query = result.query.strip()
    if result.suggestion:
        return Text.assemble("No match for ", (f"“{query}”", "bold"), " · did you mean ",
                             (f"“{result.suggestion}”", "bold"), "? (Enter)")
    if result.fuzzy and result.hits:
        return Text.assemble("No exact match for ", (f"“{query}”", "bold"),
                             " · showing close matches")
    if not result.hits:
        return Text.assemble("No papers match ", (f"“{query}”", "bold"), ".")
    return None


class StatusLine(Widget):
    """Counts, the current paper's list and the search time.

    Not a `Static`: `Static.update` asks for a new layout of the screen, which costs a
    full repaint on every cursor move; this line's size never changes.
    """

    text: reactive[str] = reactive("", layout=False)
    """What the line says."""

    def __init__(self, text: str = "", *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.set_reactive(StatusLine.text, text)

    def update(self, text: str) -> None:
        """Say `text`."""
        self.text = text

    def render(self) -> str:
        return self.text


class MatchBanner(Static):
    """Says when nothing matched and offers the "did you mean" suggestion."""

    def say(self, text: Text | None) -> None:
        """Show `text`, or hide the banner when it is None."""
        if text is None and not self.display:
            return  # hidden and staying so: no new layout of the screen on a keystroke
        self.display = text is not None
        self.update(text or "")
