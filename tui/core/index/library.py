"""A library: the loaded lists and their open index, ready to search.

This is the object the CLI, the reader and the benchmarks hold. It owns one Whoosh
searcher (searchers are costly to open and safe to reuse while the index does not
change; it is replaced only when the index is damaged under it) and turns docnums into
`Paper` records.
"""

from __future__ import annotations

import contextlib
import os
import threading
from array import array
from collections.abc import Callable, Collection, Iterable, Sequence
from functools import cached_property
from pathlib import Path

from whoosh import query as wq
from whoosh.filedb.structfile import StructFile
from whoosh.query import Term

from tui.core.index import dense, prefixtops
from tui.core.index.fieldnorms import Norms
from tui.core.index.members import Selection
from tui.core.index.opening import OpenIndex, Progress, changed_files, open_index
from tui.core.index.schema import SCORED_FIELDS
from tui.core.index.postingcache import PostingCache, read_postings
from tui.core.index.scorer import Scorer
from tui.core.index.plans import count_up_to, match_all
from tui.core.index.recent import RecentTops
from tui.core.index.topk import DENSE_FROM
from tui.core.index.aids import AIDS, TypingAids
from tui.core.index.termlists import TermLists
from tui.core.index.orders import ORDERS, Orders
from tui.core.index.positions import PositionReads
from tui.core.index.sidefiles import NORMS_FILE, parse_norms, side_files
from tui.core.locations import lists_and_index_dirs
from tui.core.model import Paper, from_extras

TYPE_CHECKING = False  # as typing's: a cold search need not import typing (2 ms)
if TYPE_CHECKING:
    from typing import TypeVar
    T = TypeVar("T")

_ATTEMPTS = 5
"""Tries of a read while the index is damaged under the library, each after reopening it."""
PAPER_CACHE = 8192
"""Papers kept once read (a paper is about 1.7 KB); beyond, the longest-kept are
forgotten. Reading one again costs about a tenth of a millisecond, while keeping every
paper a long session reaches would hold the whole corpus: 35 MB at 21k papers."""
_LAZY = ("scorer", *AIDS, *ORDERS)
"""Cached properties that hold what was read from the index."""


def _identity(path: Path | None) -> tuple[int, int] | None:
    """The folder's device and inode: a folder replaced by a rebuild is another one."""
    if path is None:
        return None
    with contextlib.suppress(OSError):
        st = os.stat(path)
        return st.st_dev, st.st_ino
    return None


class Library(TypingAids, TermLists, Orders, PositionReads):
    """Paper lists with their index: papers by docnum, by id, and a shared searcher.

    Whoosh opens some files only on first use, and the side files are read on first
    use; the library opens them all at once, since open files outlive their names when
    another process replaces or deletes the folder. Files damaged in place (truncated)
    make reads fail: `guarded` then reopens the index, which rebuilds it if need be,
    with a one-line notice, and reads again.
    """

    def __init__(self, opened: OpenIndex, files: list[Path],
                 reopen: Callable[[], OpenIndex] | None = None) -> None:
        self.files = files
        self.notices: list[str] = list(opened.notices)
        # What reading the lists left out (bad lines, broken entries), on every open.
        for summary in opened.meta.get("lists", ()):  # type: ignore[union-attr]
            self.notices += list(summary.get("notices", ()))
        self._lock = threading.RLock()
        self._reopen = reopen
        self._handles: dict[str, StructFile | PostingCache] = {}
        self.generation = 0
        """How many times the index was (re)opened; reads compare it to see a reopen."""
        self._attach(opened)
        self.guarded(self._load)

    def _attach(self, opened: OpenIndex) -> None:
        """Read from `opened` from now on, forgetting what was read from the last one."""
        with self._lock:
            previous = getattr(self, "searcher", None)
            handles, self._handles = self._handles, {}
            self.opened = opened
            self.ix = opened.ix
            self.searcher = opened.searcher
            # Whoosh's FileIndex.schema re-reads the table of contents from disk on every
            # access; an open library must keep working if the folder is rebuilt or deleted.
            self.schema = self.searcher.schema
            self._papers: dict[int, Paper] = {}
            self._tops = RecentTops()  # answers of the index just replaced are no more
            for name in _LAZY:
                self.__dict__.pop(name, None)
            self._folder = _identity(opened.path)
            self.generation += 1
            for handle in handles.values():
                with contextlib.suppress(Exception):
                    handle.close()
            if previous is not None and previous is not opened.searcher:
                with contextlib.suppress(Exception):
                    previous.close()

    def _load(self) -> None:
        """Open what Whoosh and the side files would open on first use."""
        with self._lock:
            for leaf, _ in self.searcher.reader().leaf_readers():
                if leaf.doc_count_all():
                    leaf.stored_fields(0)  # opens the segment's stored-fields column
            for name in side_files(SCORED_FIELDS):
                if name not in self._handles:
                    self._handles[name] = self.ix.storage.open_file(name)

    def guarded(self, read: Callable[[], T]) -> T:
        """`read()`, which reads the index; if it fails because the index's files were
        damaged, replaced or deleted under this library, reopen the index and read again.

        Any other failure is raised as it is.
        """
        for attempt in range(_ATTEMPTS):
            generation = self.generation
            try:
                return read()
            except Exception:
                if attempt + 1 == _ATTEMPTS or not self._recover(generation):
                    raise
        raise AssertionError("unreachable")

    def _damaged(self) -> bool:
        """Whether the index folder was replaced, deleted or changed since it was opened."""
        path = self.opened.path
        if path is None:
            return False
        if self._folder is None or _identity(path) != self._folder:
            return True
        return bool(changed_files(path, self.opened.meta))

    def _recover(self, generation: int) -> bool:
        """After a read failed: reopen (or rebuild) the index if it was damaged under this
        library. True when the read is worth trying again."""
        with self._lock:
            if self.generation != generation:
                return True  # another thread reopened it meanwhile
            if self._reopen is None or not self._damaged():
                return False
            path = self.opened.path
            try:
                opened = self._reopen()
            except Exception:  # noqa: BLE001 - changed again meanwhile: the read tries again
                return True
            self._attach(opened)
            self.notices.extend(opened.notices
                                or [f"index at {path} changed while in use; reopened it"])
            # A failure here shows again in the read, which then recovers again.
            with contextlib.suppress(Exception):
                self._load()
            return True

    @property
    def lists(self) -> list[dict[str, object]]:
        """One summary per list: title, file, path and paper count, in order."""
        return list(self.opened.meta["lists"])  # type: ignore[arg-type]

    @property
    def index_path(self) -> Path | None:
        """The index folder, or None when the index is in memory."""
        return self.opened.path

    def __len__(self) -> int:
        """How many papers there are (deleted documents left out)."""
        return int(self.opened.meta["papers"])  # type: ignore[arg-type]

    @property
    def size(self) -> int:
        """How many docnums there are, deleted documents (see `reuse`) included."""
        return int(self.opened.meta.get("docnums", len(self)))  # type: ignore[arg-type]

    def paper(self, docnum: int) -> Paper:
        """The paper stored at `docnum`."""
        cached = self._papers.get(docnum)
        if cached is not None:
            return cached
        return self.guarded(lambda: self._read_paper(docnum))

    def _read_paper(self, docnum: int) -> Paper:
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
            **from_extras(fields.get("info")),
        )
        with self._lock:
            papers = self._papers
            if len(papers) >= PAPER_CACHE:
                del papers[next(iter(papers))]
            papers[docnum] = paper
        return paper

    def papers(self, docnums: Sequence[int] | None = None) -> list[Paper]:
        """Papers for `docnums`, or every paper in list order."""
        if docnums is None:
            docnums = self.list_order
        return [self.paper(d) for d in docnums]

    def docnum_of(self, paper_id: str) -> int | None:
        """The docnum of the first paper with this id (or a unique id prefix)."""
        paper_id = paper_id.strip().lower()
        if not paper_id:
            return None
        return self.guarded(lambda: self._find(paper_id))

    def _find(self, paper_id: str) -> int | None:
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

    # Reads for the search. Each takes the library's lock itself: the searcher is not safe
    # to use from two threads at once, and a reopen replaces it.

    def evaluate(self, q: wq.Query, among: set[int] | None = None) -> dict[int, float]:
        """The BM25 score of every paper `q` matches (see `scorer`), or `among` these."""
        with self._lock:
            return self.scorer.evaluate(q, among)

    def matching(self, q: wq.Query) -> set[int] | Selection | None:
        """Every paper `q` matches, unscored (None: not of a shape `plans` takes)."""
        with self._lock:
            return match_all(self.scorer, q)

    def count_up_to(self, q: wq.Query, bound: int) -> int | None:
        """`plans.count_up_to`: the matches of `q` if at most `bound`, else None."""
        with self._lock:
            return count_up_to(self.scorer, q, bound)

    def top(self, q: wq.Query, k: int, count: bool = True,
            ) -> tuple[list[tuple[int, float]], int | None] | None:
        """The best `k` (docnum, score) pairs of `evaluate(q)` and the number of matches
        (None unless `count`ed) (`topk`, or `prefixtops` for a keystroke's short prefix;
        None: not of its shapes), kept (`recent`)."""
        with self._lock:
            return self._tops.top(q, k, lambda n: prefixtops.top(
                self.scorer, None if count else self.prefix_tops, q, n, count), count)

    def dense_top(self, terms: Sequence[tuple[str, str, float]], k: int | None,
                  among: Collection[int] | None = None, excluded: Collection[int] = (),
                  ) -> list[tuple[int, float]]:
        """`dense.top` of `terms` ((field, term, boost) each): many long lists."""
        with self._lock:
            return dense.top(self.scorer, terms, k, among, excluded)

    def dense_sums(self, terms: Sequence[tuple[str, str, float]]) -> None:
        """Add `terms`' lists whole now (`dense.sums`, which keeps the sums), so that a
        `dense_top` of them soon to come only chooses its best."""
        with self._lock:
            dense.sums(self.scorer, terms)

    def doc_frequency(self, fieldname: str, term: str) -> int:
        """Papers holding index term `term` in `fieldname`, deleted ones left out."""
        with self._lock:
            return self.scorer.doc_frequency(fieldname, term)

    def key_terms(self, text: str, count: int) -> list[tuple[str, float]]:
        """The `count` terms of `text` most distinctive among the abstracts, with their
        weights (Whoosh's Bo1 model, as in more-like-this)."""
        from tui.core.index.keyterms import FIELD, key_terms

        with self._lock:
            words = self.searcher.reader().field_length(FIELD)
            return key_terms(self.schema, self.scorer, len(self), words, text, count)

    def docnums_of(self, ids: Iterable[str]) -> set[int]:
        """Every docnum holding one of these paper ids (a paper may be in several lists).

        Read from the id's postings (deleted papers left out), not with a query's
        matcher, which costs twice as much (the unread filter and each re-rank of the
        for-you order ask for every read or starred id)."""
        out: set[int] = set()
        with self._lock:
            reader = self.searcher.reader()
            for paper_id in ids:
                out.update(read_postings(reader, "id", paper_id)[0])
        return out

    def _side_file(self, parse: Callable[[bytes], object], name: str) -> object:
        """Read a side file from the handle opened with the index.

        If the index was damaged under the library, this raises, so that the search
        reopens it (see `guarded`); if only this file is unusable, say so once and do
        without.
        """
        try:
            with self._lock:
                handle = self._handles[name]
                handle.seek(0)
                data = handle.read()
            return parse(data)
        except Exception:  # noqa: BLE001 - typing aids must never stop a search
            if self._reopen is not None and self._damaged():
                raise
            self.notices.append(f"index file {name} is missing or damaged; "
                                "run 'paperscope index --rebuild'")
            return None

    def prepare(self, dense: bool = False) -> None:
        """Read ahead what a first search reads before scoring (`Scorer.prepare`, the
        short prefixes' table); silent on failure: a search finds out what is wrong.
        `dense`: lists will be added whole (`dense_top`, for starred papers) anyway."""
        with contextlib.suppress(Exception), self._lock:  # only ever reading ahead
            self.scorer.prepare(SCORED_FIELDS)
            self.prefix_tops  # noqa: B018  (decoded now: 2 MB at 250k papers)
        if dense or self.size * 2 >= DENSE_FROM:  # its common words will be added whole
            with contextlib.suppress(ImportError):
                import numpy  # noqa: F401  (a tenth of a second, off the first keystroke)

    def read_lists(self, terms: Iterable[tuple[str, str]],
                   cancelled: Callable[[], bool] = lambda: False) -> int:
        """Read the posting lists of `terms` ((field, term) each) into the posting cache
        as `dense_top` adds them (docnums, impacts), so that a ranking soon to ask for
        them finds them there; the lock is taken a list at a time, so that a search
        started meanwhile waits for one list at most. Stops when `cancelled()`; the
        lists read."""
        done = 0
        for fieldname, text in terms:
            if cancelled():
                break
            with self._lock:
                if self.scorer.postings(fieldname, text)[0]:
                    self.scorer.impacts(fieldname, text)
                    dense.docnums(self.scorer, fieldname, text)
            done += 1
        return done

    @cached_property
    def scorer(self) -> Scorer:
        """The BM25 scorer over this library's index, with its posting cache (whose
        files close with the index's); a field's norms are read when first scored."""

        def read(name: str) -> array | None:
            found = self._side_file(parse_norms, NORMS_FILE.format(name))
            return found if found is not None and len(found) == self.size else None

        cache = self._handles["posting lists"] = PostingCache(self.searcher.reader())
        scorer = Scorer(self.searcher, Norms(SCORED_FIELDS, read), cache,
                        lambda q: sorted(q.docs(self.searcher)))
        scorer.tie_rank = self.tie_rank
        return scorer

    def close(self) -> None:
        """Release the searcher and the index's files."""
        with self._lock:
            for handle in self._handles.values():
                with contextlib.suppress(Exception):
                    handle.close()
            self._handles = {}
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
    files, roots = lists_and_index_dirs(seeds, index_dir)
    opened = open_index(files, roots, progress, rebuild=rebuild)
    return Library(opened, files, lambda: open_index(files, roots))
