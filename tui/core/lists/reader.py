"""The one way in: any list file, as its title and a stream of `Paper` records.

`open_list` detects the file's format (`detect`) and reads it: paragraph lists with
`paragraphs`, the structured formats with `structured`, a part of a large JSON Lines
file (`parts`) on its own.
"""

from __future__ import annotations

from pathlib import Path

from tui.core.lists import detect as kinds
from tui.core.lists.detect import structured_kind
from tui.core.lists.parts import Part
from tui.core.lists.structured import ListStream, open_structured

__all__ = ["ListStream", "open_list", "open_structured", "structured_kind"]


def open_list(source: str | Path | Part) -> ListStream:
    """Open any list file, or a part of a JSON Lines one (see `parts`); SeedError (one
    line) when it cannot be read at all.

    Opened whole, a list that gives no paper raises once its papers are exhausted;
    opened as a part, that is left to `parts.merge_summaries`.
    """
    part = source if isinstance(source, Part) else None
    path = Path(source.path if isinstance(source, Part) else source)
    if part is not None and not part.whole:
        return open_structured(path, kinds.JSONL, part)
    kind = structured_kind(path)
    if kind is None:
        from tui.core.lists.paragraphs import open_paragraphs

        title, papers = open_paragraphs(path)
        return ListStream(title, path.name, str(path), papers)
    return open_structured(path, kind, part)
