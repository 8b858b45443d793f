"""Structured lists (JSON, JSON Lines, BibTeX, CSV/TSV) as a title and a stream of
`Paper` records.

Each format's reader yields records; `fields` maps them and `records` makes each one a
`Paper`; what had to be left out is counted in the stream's notices, complete once its
papers are exhausted.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from tui.core.lists.files import SeedError
from tui.core.lists import detect as kinds
from tui.core.lists.fields import FieldTooLarge, flatten, map_record, parse_year
from tui.core.lists.parts import Part
from tui.core.lists.records import Tally, make_record_paper
from tui.core.model import Paper, PaperList

_TOO_LARGE = ("record with a field too large to be a paper's",
              "records with a field too large to be a paper's")
_EMPTY = ("record with neither title nor abstract", "records with neither title nor abstract")


@dataclass
class ListStream:
    """A list being read: its title, file, and papers produced one at a time."""

    title: str
    file: str
    path: str
    papers: Iterator[Paper]
    tally: Tally | None = None

    @property
    def notices(self) -> list[str]:
        """What was left out, one line per reason (complete once `papers` is exhausted)."""
        return self.tally.notices() if self.tally is not None else []


def open_structured(path: Path, kind: str, part: Part | None = None) -> ListStream:
    """Read a JSON, JSON Lines, BibTeX or CSV/TSV list (or a part of a JSON Lines one)
    as a stream of papers."""
    tally = Tally(str(path))
    whole_read = part is None
    if kind == kinds.JSON:
        from tui.core.lists.jsonlists import document_records

        title, records = document_records(path, tally)
    elif kind == kinds.JSONL:
        from tui.core.lists.jsonlists import line_records

        part = part or Part(path)
        title = path.stem
        records = line_records(path, tally, part.start, part.stop, part.first_line)
    elif kind == kinds.BIBTEX:
        from tui.core.lists.bibtex import bibtex_records

        title, records = bibtex_records(path, tally)
    else:
        from tui.core.lists.csvlists import csv_records

        title, records = path.stem, csv_records(path, kind, tally)
    papers = _papers(records, title, path, tally, by_line=kind == kinds.JSONL,
                     raise_if_empty=whole_read)
    return ListStream(title, path.name, str(path), papers, tally)


def read_structured(path: Path, kind: str) -> PaperList:
    """A whole structured list at once (the builder streams it instead)."""
    stream = open_structured(path, kind)
    papers = tuple(stream.papers)
    return PaperList(title=stream.title, file=stream.file, path=stream.path, papers=papers,
                     notices=tuple(stream.notices))


def _papers(records: Iterator[tuple[str, int, Mapping[str, object]]], title: str,
            path: Path, tally: Tally, by_line: bool, raise_if_empty: bool) -> Iterator[Paper]:
    """Papers from records; a JSON Lines record's position is its line (0-based), so
    that a part of the file knows it without reading what comes before."""
    count = 0
    # A record without a year is taken to be of the list's year, when its title or
    # file name says one (`aistats2019.json`, "NeurIPS 2018 Papers").
    list_year = parse_year({"year": title}) or parse_year({"year": path.stem})
    for where, number, record in records:
        flat = flatten(record)
        try:
            fields = map_record(flat, default_venue=title, default_year=list_year)
        except FieldTooLarge:
            tally.skip(_TOO_LARGE, where)
            continue
        position = number - 1 if by_line else count
        paper = make_record_paper(fields, title, path.name, position,
                                  bibkey=str(flat.get("bibkey") or ""))
        if paper is None:
            tally.skip(_EMPTY, where)
            continue
        count += 1
        yield paper
    if count == 0 and raise_if_empty:
        why = "; ".join(n.split(": ", 1)[1] for n in tally.notices())
        raise SeedError(f"{path}: no papers in this list" + (f" ({why})" if why else ""))
