"""Which list files a set of paths names, before any of them is read, and a list
file's bytes as text (`decode`, which every text reader uses).

Kept apart from `seeds` (which parses lists): the reader finds its lists' index before
it loads anything else, and this needs no parsing.
"""

from __future__ import annotations

from collections.abc import Iterable
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
            found = sorted(p for p in path.glob("*.txt") if p.is_file())
            if not found:
                raise SeedError(f"{path}: folder has no .txt paper lists")
            files.extend(found)
        elif path.is_file():
            files.append(path)
        elif path.exists():
            raise SeedError(f"{path}: not a regular file")
        else:
            raise SeedError(f"{path}: no such file or folder")
    unique: dict[Path, None] = {}
    for f in files:
        unique.setdefault(f.resolve(), None)
    return list(unique)


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
