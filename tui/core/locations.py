"""Where the bundled lists are, and where each set of lists keeps its index."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from tui.core.lists.files import discover

APP_NAME = "paperscope"
INDEX_DIR_ENV = "PAPERSCOPE_INDEX_DIR"

_PACKAGE_ROOT = Path(__file__).resolve().parent.parent
_CHECKOUT = _PACKAGE_ROOT.parent


def checkout_root() -> Path | None:
    """The project checkout the package runs from, or None when installed elsewhere."""
    if (_CHECKOUT / "pyproject.toml").is_file() and (_CHECKOUT / "seeds").is_dir():
        return _CHECKOUT
    return None


def bundled_seeds() -> Path:
    """The folder of bundled paper lists: `seeds/` in a checkout, else the package copy."""
    root = checkout_root()
    if root is not None:
        return root / "seeds"
    # Installed without a checkout, the lists ship inside the package as `tui/seeds`.
    return _PACKAGE_ROOT / "seeds"


def cache_dir() -> Path:
    """The user's cache folder for paperscope (platformdirs imported here: a search
    given its index folder never asks for it)."""
    import platformdirs

    return Path(platformdirs.user_cache_dir(APP_NAME))


def index_dirs(seed_files: list[Path], bundled: bool, override: str | None) -> list[Path]:
    """Folders to try for the index, best first.

    `--index-dir` or PAPERSCOPE_INDEX_DIR wins. The bundled lists use `index/` in a
    checkout and fall back to the cache; other lists use the cache, keyed by the paths
    given (`seed_files`: list files or folders of them) so that each set of lists has
    an index root of its own, which a folder keeps as lists are added to it or removed
    from it: a build then reuses the previous index's unchanged lists (`reuse`).
    """
    chosen = override or os.environ.get(INDEX_DIR_ENV)
    if chosen:
        return [Path(chosen).expanduser()]
    dirs = []
    root = checkout_root()
    if bundled and root is not None:
        dirs.append(root / "index")
    dirs.append(cache_dir() / ("bundled" if bundled else f"lists-{_lists_key(seed_files)}"))
    return dirs


def _lists_key(seed_files: list[Path]) -> str:
    """The name of the index folder of the lists `seed_files` name, in the cache."""
    import hashlib  # here: the bundled lists and a chosen folder need no key

    return hashlib.blake2b(
        "\n".join(sorted(str(p.resolve()) for p in seed_files)).encode(), digest_size=8
    ).hexdigest()


def lists_and_index_dirs(seeds: Iterable[str | Path] | None,
                         override: str | None) -> tuple[list[Path], list[Path]]:
    """The list files that `seeds` names (the bundled lists when None or empty) and
    the folders to try for their index.

    Raises `lists.files.SeedError` with a one-line message for a path that names no list.
    """
    seeds = list(seeds or ())
    bundled = not seeds
    files = discover([bundled_seeds()] if bundled else seeds)
    # The root is keyed by the seeds as given, not by the files found in them.
    given = files if bundled else [Path(s).expanduser() for s in seeds]
    return files, index_dirs(given, bundled, override)
