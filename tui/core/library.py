"""A library: the loaded lists and their open index, ready to search.

This is the object the CLI, the reader and the benchmarks hold. It owns one Whoosh
searcher for its lifetime (searchers are costly to open and safe to reuse while the
index does not change) and turns docnums into `Paper` records.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path

from whoosh.query import Term

from tui.core.sidefiles import PREFIX_FILE, WORDS_FILE, read_json, read_lengths
from tui.core.index import OpenIndex, Progress, open_index
from tui.core.locations import bundled_seeds, index_dirs
from tui.core.model import Paper
from tui.core.schema import SCORED_FIELDS
from tui.core.scorer import PostingCache, Scorer, norms_for
from tui.core.seeds import discover


class Library:
    """Paper lists with their index: papers by docnum, by id, and a shared searcher."""

    def __init__(self, opened: OpenIndex, files: list[Path]) -> None:
        self.opened = opened
        self.files = files
        self.ix = opened.ix
        self.notices: list[str] = list(opened.notices)
        self._lock = threading.RLock()
        self.searcher = opened.searcher
        # Whoosh's FileIndex.schema re-reads the table of contents from disk on every
        # access; an open library must keep working if the folder is rebuilt or deleted.
        self.schema = self.searcher.schema
        self._papers: dict[int, Paper] = {}

    @property
    def lists(self) -> list[dict[str, object]]:
        """One summary per list: title, file, path and paper count, in order."""
        return list(self.opened.meta["lists"])  # type: ignore[arg-type]

    @property
    def index_path(self) -> Path | None:
        """The index folder, or None when the index is in memory."""
        return self.opened.path

    def __len__(self) -> int:
        return int(self.opened.meta["papers"])  # type: ignore[arg-type]

    def paper(self, docnum: int) -> Paper:
        """The paper stored at `docnum`."""
        cached = self._papers.get(docnum)
        if cached is not None:
            return cached
        with self._lock:
            fields = self.searcher.stored_fields(docnum)
        paper = Paper(
            id=fields["id"],
            list_title=fields.get("list", ""),
            file=fields.get("file", ""),
            position=int(fields.get("position", 0)),
            name=fields.get("name", ""),
            title=fields.get("title", ""),
            raw=fields.get("raw", ""),
        )
        self._papers[docnum] = paper
        return paper

    def papers(self, docnums: Sequence[int] | None = None) -> list[Paper]:
        """Papers for `docnums`, or every paper in list order."""
        if docnums is None:
            docnums = range(len(self))
        return [self.paper(d) for d in docnums]

    def docnum_of(self, paper_id: str) -> int | None:
        """The docnum of the first paper with this id (or a unique id prefix)."""
        paper_id = paper_id.strip().lower()
        if not paper_id:
            return None
        with self._lock:
            found = list(Term("id", paper_id).docs(self.searcher))
            if not found and len(paper_id) >= 4:
                found = sorted(
                    d for term in self.searcher.reader().expand_prefix("id", paper_id)
                    for d in Term("id", term.decode() if isinstance(term, bytes) else term)
                    .docs(self.searcher)
                )
        return found[0] if found else None

    def get(self, paper_id: str) -> Paper | None:
        """The paper with this id (or unique id prefix), if any."""
        docnum = self.docnum_of(paper_id)
        return None if docnum is None else self.paper(docnum)

    @cached_property
    def prefix_table(self) -> dict[str, list[str]]:
        """Short prefix → its most frequent indexed terms (built with the index)."""
        table = self._side_file(read_json, PREFIX_FILE)
        return table if isinstance(table, dict) else {}

    @cached_property
    def vocabulary(self) -> frozenset[str]:
        """The unstemmed words of the abstracts, for spelling suggestions."""
        words = self._side_file(read_json, WORDS_FILE)
        return frozenset(words) if isinstance(words, list) else frozenset()

    def _side_file(self, reader, name: str) -> object:
        """Read a side file; if it is gone or damaged, say so once and do without."""
        try:
            return reader(self.ix.storage, name)
        except Exception:  # noqa: BLE001 - typing aids must never stop a search
            self.notices.append(f"index file {name} is missing or damaged; "
                                "run 'paperscope index --rebuild'")
            return None

    @cached_property
    def scorer(self) -> Scorer:
        """The BM25 scorer over this library's index, with its posting cache."""
        norms = {}
        for name in SCORED_FIELDS:
            lengths = self._side_file(read_lengths, name)
            if lengths is not None and len(lengths) == len(self):
                norms[name] = norms_for(lengths)
        return Scorer(self.searcher, norms, PostingCache(self.searcher.reader()),
                      lambda q: sorted(q.docs(self.searcher)))

    def close(self) -> None:
        """Release the searcher and the index's files."""
        self.searcher.close()

    def __enter__(self) -> "Library":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_library(seeds: Sequence[str | Path] | None = None, index_dir: str | None = None,
                 progress: Progress | None = None, rebuild: bool = False) -> Library:
    """Open (building where needed) the index of `seeds`, or of the bundled lists.

    Raises `seeds.SeedError` with a one-line message for unusable list files.
    """
    bundled = not seeds
    files = discover([bundled_seeds()] if bundled else seeds)
    roots = index_dirs(files, bundled, index_dir)
    opened = open_index(files, roots, progress, rebuild=rebuild)
    return Library(opened, files)
