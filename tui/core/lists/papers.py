"""A paper from its abstract: its stable id, and its derived name and title.

One scheme for every format, so that the same paper read from a paragraph list and
from a structured one shares its id and its reading state.
"""

from __future__ import annotations

import hashlib
import unicodedata

from tui.core.model import Paper
from tui.core.render.plain import rendered_text


def one_line(value: str) -> str:
    """Whitespace runs (line breaks included) as single spaces, none at either end.

    The same as substituting `\\s+` and stripping (both use Unicode's whitespace), at a
    fifth of the cost on an abstract: every abstract of every format passes here.
    """
    return " ".join(value.split())


def paper_id(raw: str) -> str:
    """A stable id from the abstract's words, blind to spacing, case and Unicode form."""
    if not raw.isascii():
        raw = unicodedata.normalize("NFKC", raw)
    normal = one_line(raw).casefold()
    return hashlib.blake2b(normal.encode("utf-8"), digest_size=6).hexdigest()


def make_paper(raw: str, list_title: str, file: str, position: int,
               title: str = "", **extra: object) -> Paper:
    """Derive a Paper's id, name and title from one abstract.

    A record that carries its own `title` keeps it, and no title is derived. `extra`
    holds what a structured list adds (`model.EXTRA_FIELDS`).
    """
    from tui.core.naming.derive import derive_name, derive_title

    text = rendered_text(raw)
    name = derive_name(text)
    return Paper(
        id=paper_id(raw),
        list_title=list_title,
        file=file,
        position=position,
        name=name,
        title=title or derive_title(text, name),
        raw=raw,
        **extra,  # type: ignore[arg-type]
    )
