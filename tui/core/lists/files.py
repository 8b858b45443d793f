"""Which list files a set of paths names, before any of them is read, and a list
file's bytes as text (`decode`, which every text reader uses).

Kept apart from `seeds` (which parses lists): the reader finds its lists' index before
it loads anything else, and this needs no parsing.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from fnmatch import fnmatch
from pathlib import Path


class SeedError(Exception):
    """A list file that cannot be read; the message is one line meant for the user."""


def discover(paths: Iterable[str | Path]) -> list[Path]:
    """Expand files and folders into the list files they name, in a stable order.

    A folder contributes its `*.txt` files (not recursively). Raises SeedError for a
    missing path or a folder without any `.txt` file.
    """
    files: list[Path] = []
    for raw in paths:
        path = Path(raw).expanduser()
        if path.is_dir():
            found = _folder_lists(path)
            if not found:
                raise SeedError(f"{path}: folder has no .txt paper lists")
            files.extend(found)
        elif path.is_file():
            files.append(path.resolve())
        elif path.exists():
            raise SeedError(f"{path}: not a regular file")
        else:
            raise SeedError(f"{path}: no such file or folder")
    return list(dict.fromkeys(files))  # each file once, where it first came


def _folder_lists(folder: Path) -> list[Path]:
    """A folder's `*.txt` files (links to files too), resolved, in name order.

    One read of the folder, and the folder resolved once: resolving each file walks
    every part of its path, which at 500 lists cost the reader 20 ms before its first
    frame. A file that is itself a link is resolved on its own.
    """
    base = folder.resolve()
    found = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if fnmatch(entry.name, "*.txt") and entry.is_file():
                path = Path(entry.path).resolve() if entry.is_symlink() else base / entry.name
                found.append((entry.name, path))
    found.sort()
    return [path for _, path in found]


def decode(data: bytes, source: str) -> str:
    """Decode a list file's bytes as UTF-8 text, refusing binary and other encodings."""
    if b"\x00" in data:
        raise SeedError(f"{source}: binary file (contains NUL bytes), expected UTF-8 text")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SeedError(
            f"{source}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})"
        ) from None
    return text
