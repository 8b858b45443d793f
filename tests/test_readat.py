"""Index files read by range through a descriptor kept open (`readat`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from whoosh.filedb.filestore import FileStorage, RamStorage

from tui.core.index.library import open_library
from tui.core.index.readat import ReadAt
from tui.core.search.search import search

DATA = bytes(range(256)) * 40


def _storage(tmp_path: Path) -> FileStorage:
    (tmp_path / "f.bin").write_bytes(DATA)
    return FileStorage(str(tmp_path))


@pytest.mark.parametrize("keep", [True, False])
def test_a_range_reads_what_the_file_holds_and_short_at_its_end(tmp_path: Path,
                                                                keep: bool) -> None:
    found = ReadAt(_storage(tmp_path), "f.bin", keep=keep)
    assert (found._fd is not None) == (keep and hasattr(os, "pread"))
    for offset, size in [(0, 10), (255, 300), (len(DATA) - 5, 5), (len(DATA) - 5, 50),
                         (len(DATA), 8)]:
        assert found.read(offset, size) == DATA[offset:offset + size]
    found.close()
    assert found.read(3, 4) == DATA[3:7]  # closed: the file is opened for the read


@pytest.mark.skipif(not hasattr(os, "pread"), reason="no pread here")
def test_a_read_cut_short_by_the_system_reads_on(tmp_path: Path, monkeypatch) -> None:
    found = ReadAt(_storage(tmp_path), "f.bin", keep=True)
    real = os.pread
    monkeypatch.setattr(os, "pread", lambda fd, size, offset: real(fd, min(size, 7), offset))
    assert found.read(100, 50) == DATA[100:150]


def test_an_index_in_memory_is_read_through_its_storage() -> None:
    storage = RamStorage()
    with storage.create_file("f.bin") as handle:
        handle.write(DATA)
    found = ReadAt(storage, "f.bin", keep=True)
    assert found._fd is None
    assert found.read(500, 20) == DATA[500:520]


def _index_descriptors() -> list[str]:
    out = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.endswith((".pa", ".pim")):
            out.append(target)
    return out


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")
def test_a_library_opens_each_list_file_once_and_closes_them_with_it(
        tmp_path: Path, monkeypatch) -> None:
    """Searches read every list through one descriptor per file, opened once; closing
    the library closes them."""
    index = str(tmp_path / "ix")
    open_library(index_dir=index).close()
    opened: list[str] = []
    real = os.open
    monkeypatch.setattr(os, "open", lambda path, *rest: opened.append(str(path))
                        or real(path, *rest))
    before = set(_index_descriptors())
    with open_library(index_dir=index) as library:
        for query in ("learning", "graph neural", "model", "diffusion model"):
            assert search(library, query, 10).hits
        files = [p for p in opened if p.endswith((".pa", ".pim"))]
        assert files and len(files) == len(set(files)), "a list file was opened twice"
        assert len(set(_index_descriptors()) - before) == len(files)
    assert set(_index_descriptors()) <= before, "closing the library left list files open"
