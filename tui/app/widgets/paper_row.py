"""What one row of the paper list says: a label, a snippet, and room for markers.

Kept apart from the widget so that the text of a row can be tested without a screen,
and so that reading-state markers (star, unread) can be added in one place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from rich.style import Style
from rich.text import Text

if TYPE_CHECKING:
    from tui.core.model import Paper

MARKER_CELLS = 3
"""Cells before the label for per-paper markers: star, unread, and a blank before the name."""
_SHORT_TITLE_WORDS = 4
_SOURCE_FROM_CELLS = 40
"""Rows narrower than this leave out the list's name (the status line still has it)."""
_BYLINE_FROM_CELLS = 48
"""Rows this wide show the first author and the year before the list's name."""


class RowStyles(NamedTuple):
    """Rich styles for the parts of a row, read from the widget's component classes."""

    head: Style
    rest: Style
    source: Style
    snippet: Style
    match: Style
    marker: Style
    bar: Style = Style()
    """The cursor bar before the first line of a row."""


def row_label(paper: Paper) -> tuple[str, str]:
    """The row's bold head (the name, or a short title) and the rest of the title.

    The rest keeps its leading separator, so that head + rest reads as the title.
    """
    title = " ".join(paper.title.split())
    if paper.titled:
        # The list's own title leads; the name derived from the abstract stays beside.
        colon = title.find(": ")
        head, rest = (title[:colon], title[colon:]) if 0 < colon <= 40 else (title, "")
        if paper.name and paper.name.casefold() not in title.casefold():
            rest += f" · {paper.name}"
        return head, rest
    if paper.name:
        if title.startswith(paper.name):
            return paper.name, title[len(paper.name):]
        return paper.name, f" — {title}" if title else ""
    colon = title.find(": ")
    if 0 < colon <= 40:
        return title[:colon], title[colon:]
    words = title.split(" ")
    rest = " ".join(words[_SHORT_TITLE_WORDS:])
    return " ".join(words[:_SHORT_TITLE_WORDS]), f" {rest}" if rest else ""


def short_byline(paper: Paper) -> str:
    """"2019 · Chien et al.": the year and the first author's surname ("" when unknown).

    The year comes first, so that a narrow row cut from the right still shows it.
    """
    parts = [str(paper.year)] if paper.year else []
    if paper.authors and paper.authors[0].split():
        parts.append(paper.authors[0].split()[-1] + (" et al." if len(paper.authors) > 1 else ""))
    return " · ".join(parts)


def label_line(paper: Paper, width: int, styles: RowStyles, markers: Text | None = None) -> Text:
    """The first line of a row: markers, head, rest of the title and, if room, the list."""
    head, rest = row_label(paper)
    line = Text(no_wrap=True, overflow="ellipsis")
    line.append_text(markers if markers is not None else Text(" " * MARKER_CELLS))
    body = Text.assemble((head, styles.head), (rest, styles.rest))
    source = paper.list_title
    room = width - line.cell_len - 1  # one blank cell before the scrollbar
    if room >= _BYLINE_FROM_CELLS and short_byline(paper):
        # Who and when come before which list: cut from the right, the list goes first.
        source = f"{short_byline(paper)}  {source}"
    # The list's name is the least important part: show it only when it fits beside a
    # readable label, and cut it before the title.
    if source and room >= _SOURCE_FROM_CELLS:
        source_text = Text(source, style=styles.source)
        source_text.truncate(max(12, room // 3), overflow="ellipsis")
        body.truncate(room - source_text.cell_len - 2, overflow="ellipsis", pad=True)
        line.append_text(body)
        line.append("  ")
        line.append_text(source_text)
    else:
        body.truncate(max(0, room), overflow="ellipsis")
        line.append_text(body)
    line.truncate(max(0, width))  # markers alone can be wider than a tiny pane
    return line


def snippet_line(excerpt: str, spans: list[tuple[int, int]], width: int,
                 styles: RowStyles) -> Text:
    """The second line of a row while searching: the excerpt with matches marked."""
    indent = " " * (MARKER_CELLS + 1)
    text = Text(excerpt, style=styles.snippet, no_wrap=True, overflow="ellipsis")
    for start, end in spans:
        text.stylize(styles.match, start, end)
    line = Text(indent) + text
    line.truncate(width, overflow="ellipsis")
    return line
