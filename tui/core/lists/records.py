"""From a record's fields to a `Paper`, and the count of what had to be left out.

A paper's id comes from its abstract exactly as a paragraph list's does (the abstract
cleaned the same way: control characters dropped, whitespace runs collapsed), so the
same paper read from a `.txt` and from a `.json` shares its id and reading state. A
record without an abstract takes an id from its source id (or, lacking one, its
title) and is listed by its title; a record with neither is skipped and counted.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from tui.core.lists.fields import Fields, one_line
from tui.core.lists.papers import make_paper  # one id and naming scheme for every format
from tui.core.model import Paper

# The paragraph reader's cleaning (see `seeds.paragraphs`): C0/C1 controls dropped,
# U+0085 left to become a space.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f]")


def clean_abstract(abstract: str) -> str:
    """The abstract as a paragraph list would hold it: one line, no control characters."""
    return one_line(_CONTROL.sub("", abstract))


def clean_line(value: str) -> str:
    """A title, author or venue on one line, without control characters."""
    # Most are printable already: no control character (all are unprintable) to drop.
    return one_line(value if value.isprintable() else _CONTROL.sub("", value))


def source_paper_id(source: str) -> str:
    """The id of a paper known only by its source id or title."""
    return hashlib.blake2b(("source:" + source.casefold()).encode("utf-8"),
                           digest_size=6).hexdigest()


# What the renderer can change: anything beyond printable ASCII, the characters its
# LaTeX, math and Markdown start with, dashes and bare links. A title without any of
# them (most titles) is shown as it is, without the renderer's cost.
_RENDERED = re.compile(r"[^\x20-\x7e]|[\\$*`{}\[\]~<>^_'\"&%#|]|--|https?:|www\.")


def display_title(title: str) -> str:
    """A title as shown: math and LaTeX rendered the way abstracts are."""
    if not title or not _RENDERED.search(title):
        return title
    from tui.core.render.text import render  # rendering is paid only by structured lists

    return clean_line(render(title).text)


def make_record_paper(fields: Fields, list_title: str, file: str, position: int,
                      bibkey: str = "") -> Paper | None:
    """The `Paper` for one record's fields, or None when it has neither title nor
    abstract. `fields` hold display-ready text (LaTeX already decoded for BibTeX)."""
    raw = clean_abstract(fields.abstract)
    title = display_title(clean_line(fields.title))
    if not raw and not title:
        return None
    extra = dict(titled=bool(title), authors=_clean_all(fields.authors), year=fields.year,
                 venue=clean_line(fields.venue), link=clean_line(fields.link),
                 doi=clean_line(fields.doi), source_id=clean_line(fields.source_id),
                 keywords=_clean_all(fields.keywords), bibkey=bibkey)
    if raw:
        return make_paper(raw, list_title, file, position, title, **extra)
    source = extra["source_id"] or title
    return Paper(id=source_paper_id(source), list_title=list_title, file=file,  # type: ignore[arg-type]
                 position=position, name="", title=title, raw="", **extra)


def _clean_all(values) -> tuple[str, ...]:
    """Each value cleaned once, the empty ones dropped."""
    return tuple(v for v in map(clean_line, values) if v)


@dataclass
class Tally:
    """What a reader left out of one file, for a one-line notice per reason."""

    source: str
    """The file, as notices name it."""
    skipped: dict[tuple[str, str], list] = field(default_factory=dict)
    """(reason, reason in the plural) → [how many, where the first one was]."""

    def skip(self, reason: tuple[str, str], where: str) -> None:
        """Count one record left out for `reason` (singular, plural), found at `where`
        ("line 17", "record 5")."""
        entry = self.skipped.setdefault(reason, [0, where])
        entry[0] += 1

    def merged(self, later: Tally) -> Tally:
        """This tally and that of the part of the file after it: counts added, the
        first place kept."""
        out = Tally(self.source, {k: list(v) for k, v in self.skipped.items()})
        for reason, (count, where) in later.skipped.items():
            out.skipped.setdefault(reason, [0, where])[0] += count
        return out

    def notices(self) -> list[str]:
        """One line per reason: how many were skipped and where the first one was."""
        out = []
        for (one, many), (count, where) in self.skipped.items():
            if count == 1:
                out.append(f"{self.source}: skipped 1 {one} (at {where})")
            else:
                out.append(f"{self.source}: skipped {count:,} {many} (first at {where})")
        return out
