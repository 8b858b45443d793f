"""What says that something derived from the lists is still current, without Whoosh.

Two things can make a derived file stale: the lists (a file's size, times and inode
say whether it may have changed) and the code that derives names, titles, rendering
and analysis from them (an upgrade, a fix). The index's fingerprint and the reader's
first screen (`first_screen`) are both keyed on these.
"""

from __future__ import annotations

import contextlib
import functools
from pathlib import Path

DERIVING_PACKAGES = ("lists", "naming", "render")
"""The core packages whose code decides what the index holds, every module of each."""
DERIVING_MODULES = ("index/aliases", "index/analysis", "index/builder", "index/fields",
                    "index/impactfiles", "index/norms", "index/postarrays", "index/postings",
                    "index/sidedata", "index/schema", "index/sidefiles", "index/termtable",
                    "index/tiers", "model")
"""The other core modules that do, as paths below `tui/core` without `.py`."""


def deriving_sources() -> list[Path]:
    """The source files whose code decides what the index holds."""
    core = Path(__file__).resolve().parent.parent
    sources = [core / f"{name}.py" for name in DERIVING_MODULES]
    for package in DERIVING_PACKAGES:
        sources += sorted((core / package).glob("*.py"))
    return sources


@functools.lru_cache(maxsize=1)
def code_digest() -> str:
    """A digest of the code that turns lists into index content.

    Names, titles, rendering and analysis are derived at build time; when that code
    changes (an upgrade, a fix), indexes built by the old code are stale even though
    the lists are not. Reading these few source files costs well under a millisecond.
    """
    import hashlib  # here: the reader's first screen (`code_stat_key`) needs none

    digest = hashlib.blake2b(digest_size=8)
    for source in deriving_sources():
        with contextlib.suppress(OSError):
            digest.update(source.read_bytes())
    return digest.hexdigest()


@functools.lru_cache(maxsize=1)
def code_stat_key() -> str:
    """The code that turns lists into index content, as each source file's path and
    `stat_key`: what a cache read before the first frame (`first_screen`) is keyed on.

    An upgrade or a fix rewrites the files it changes, so this changes with
    `code_digest`, without reading the files or loading a hash (about 3 ms of a start).
    """
    lines = []
    for source in deriving_sources():
        try:
            lines.append(f"{source}\0{stat_key(source)}")
        except OSError:
            lines.append(f"{source}\0missing")
    return "\n".join(lines)


def stat_key(path: Path) -> str:
    """A file's size, times and inode: unchanged, its content is taken as unchanged."""
    st = path.stat()
    # ctime changes on every write and cannot be set back by tools that restore
    # mtimes, so together these say whether a file may have changed since it was hashed.
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}"
