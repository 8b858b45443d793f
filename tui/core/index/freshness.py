"""What says that something derived from the lists is still current, without Whoosh.

Two things can make a derived file stale: the lists (a file's size, times and inode
say whether it may have changed) and the code that derives names, titles, rendering
and analysis from them (an upgrade, a fix). The index's fingerprint and the reader's
first screen (`first_screen`) are both keyed on these.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
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
    digest = hashlib.blake2b(digest_size=8)
    for source in deriving_sources():
        with contextlib.suppress(OSError):
            digest.update(source.read_bytes())
    return digest.hexdigest()


def stat_key(path: Path) -> str:
    """A file's size, times and inode: unchanged, its content is taken as unchanged."""
    st = path.stat()
    # ctime changes on every write and cannot be set back by tools that restore
    # mtimes, so together these say whether a file may have changed since it was hashed.
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}"
