"""The first rows of the paper list, kept beside the index to be shown before it opens.

Opening the reader with no query lists every paper in list order. Those rows depend
only on the lists and on the code that derives names and titles from them, yet showing
them from the index means loading Whoosh and the core first: most of the reader's
start-up. So once the lists are open, the reader writes their first rows to
`first-screen.json` in the index root, under a key made of each list's path and stat
key and of the deriving code's files (`freshness`). At the next start, a key that
still matches lets the list show those rows in its very first frame; the library's
own answer replaces them when it is ready.

This module imports neither Whoosh nor the rest of the core's search: it runs before
they are loaded.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from tui.core.durable import atomic_write
from tui.core.index.freshness import code_stat_key, stat_key
from tui.core.lists.files import SeedError
from tui.core.locations import lists_and_index_dirs
from tui.core.model import Paper, extras, from_extras

if TYPE_CHECKING:
    from tui.core.index.library import Library

FILE = "first-screen.json"
ROWS = 200
"""Rows kept: a screen of the tallest terminals, about 30 KB of JSON."""
_FORMAT = 4
"""Bumped when the file's layout changes."""
_FIELDS = (str, str, str, int, str, str, dict)
"""A row: id, list title, file, position, name, title and what a structured list gave
(`model.extras`): a `Paper` without its abstract."""


class FirstScreen(NamedTuple):
    """What the index roots hold for these lists: their key, and the rows if current."""

    key: str
    """The lists' and the deriving code's key, taken before the index was opened."""
    roots: tuple[Path, ...]
    """The index roots, best first; the rows are written to the first writable one."""
    papers: int = 0
    """How many papers the lists hold (0 when no current rows were found)."""
    rows: tuple[Paper, ...] = ()
    """The first papers in list order, without abstracts."""
    docnums: tuple[int, ...] = ()
    """Each row's docnum: its position, unless lists were changed or removed in a
    segment the index reused (see `reuse`)."""


def _key(files: Iterable[Path]) -> str:
    """The lists' and the deriving code's files, each by path and stat key, spelt out
    (no digest: none is exact, and hashing would load a library before the first
    frame); about 100 bytes a file."""
    lines = [f"first-screen {_FORMAT}", code_stat_key()]
    lines += [f"{path}\0{stat_key(path)}" for path in files]
    return "\n".join(lines)


def look(seeds: Sequence[str] | None, index_dir: str | None) -> FirstScreen | None:
    """The key of these lists and, when an index root holds them for that key, their
    first rows. None when the lists cannot be found or read: opening them says why."""
    try:
        files, roots = lists_and_index_dirs(seeds, index_dir)
        key = _key(files)
    except (OSError, SeedError):
        return None
    for root in roots:
        found = _read(root / FILE, key)
        if found is not None:
            papers, rows, docnums = found
            return FirstScreen(key, tuple(roots), papers, rows, docnums)
    return FirstScreen(key, tuple(roots))


def _read(path: Path, key: str) -> tuple[int, tuple[Paper, ...], tuple[int, ...]] | None:
    """(papers, rows, their docnums) from `path` if it is well formed and written
    under `key`."""
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("key") != key:
        return None
    papers, rows, docnums = data.get("papers"), data.get("rows"), data.get("docnums")
    if not isinstance(papers, int) or not isinstance(rows, list) or len(rows) > papers \
            or not isinstance(docnums, list) or len(docnums) != len(rows) \
            or not all(type(d) is int for d in docnums):
        return None
    made = []
    for row in rows:
        if (not isinstance(row, list) or len(row) != len(_FIELDS)
                or not all(type(value) is kind for value, kind in zip(row, _FIELDS))):
            return None
        made.append(Paper(*row[:6], raw="", **from_extras(row[6])))
    return papers, tuple(made), tuple(docnums)


def save(screen: FirstScreen, library: Library) -> None:
    """Write `library`'s first rows under `screen.key`, unless they are there already.

    The key was taken before the library was opened: had a list changed in between,
    the rows would be kept under the old key, which the next start no longer matches.
    A cache, so not flushed to disk: a file lost or torn in a crash is not read, and
    is written again at the next start. Fails silently where nothing can be read or
    written.
    """
    if screen.rows or not screen.roots:
        return
    try:
        docnums = list(library.list_order[:ROWS])
        papers = [library.paper(docnum) for docnum in docnums]
    except Exception:  # noqa: BLE001 - a cache: reading it must never stop a start
        return
    rows = [[p.id, p.list_title, p.file, p.position, p.name, p.title, extras(p)]
            for p in papers]
    data = json.dumps({"key": screen.key, "papers": len(library), "rows": rows,
                       "docnums": docnums},
                      ensure_ascii=False).encode()
    for root in screen.roots:
        try:
            atomic_write(root / FILE, data, durable=False)
            return
        except OSError:
            continue
