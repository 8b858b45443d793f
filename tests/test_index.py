"""The index's life: build, reuse, rebuild, corruption, concurrency, read-only folders."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest

from tests.conftest import ROOT, write_list
from tui.core import index as index_module
from tui.core.library import open_library
from tui.core.locations import index_dirs
from tui.core.search import search

LIST = "Test List\n\nWe propose Zebrafish, a stripe counter.\n\nWe study horses at length.\n"


@pytest.fixture()
def seeds(tmp_path: Path) -> Path:
    folder = tmp_path / "lists"
    folder.mkdir()
    write_list(folder, "a.txt", LIST)
    return folder


def open_at(seeds: Path, where: Path, **kw):
    return open_library([seeds], str(where), **kw)


def test_first_use_builds_then_reuses(seeds: Path, tmp_path: Path) -> None:
    with open_at(seeds, tmp_path / "ix") as first:
        assert first.opened.built and len(first) == 2
        folder = first.index_path
    with open_at(seeds, tmp_path / "ix") as second:
        assert not second.opened.built
        assert second.index_path == folder


def test_content_change_rebuilds_but_touch_does_not(seeds: Path, tmp_path: Path) -> None:
    with open_at(seeds, tmp_path / "ix") as lib:
        before = lib.index_path
    os.utime(seeds / "a.txt")  # new mtime, same content
    with open_at(seeds, tmp_path / "ix") as lib:
        assert not lib.opened.built and lib.index_path == before
    write_list(seeds, "a.txt", LIST + "\nWe introduce Okapi, a giraffe relative.\n")
    with open_at(seeds, tmp_path / "ix") as lib:
        assert lib.opened.built and len(lib) == 3
        assert search(lib, "okapi").hits
        assert lib.index_path != before
    assert not before.exists(), "the stale index is cleaned up"


def test_same_size_same_mtime_edit_is_still_noticed(seeds: Path, tmp_path: Path) -> None:
    with open_at(seeds, tmp_path / "ix") as lib:
        before = lib.index_path
    stat = (seeds / "a.txt").stat()
    write_list(seeds, "a.txt", LIST.replace("horses", "zebras"))
    os.utime(seeds / "a.txt", ns=(stat.st_atime_ns, stat.st_mtime_ns))
    with open_at(seeds, tmp_path / "ix") as lib:
        assert lib.index_path != before
        assert search(lib, "zebras").hits


def test_schema_version_change_rebuilds(seeds: Path, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    with open_at(seeds, tmp_path / "ix") as lib:
        before = lib.index_path
    monkeypatch.setattr(index_module, "SCHEMA_VERSION", index_module.SCHEMA_VERSION + 1000)
    with open_at(seeds, tmp_path / "ix") as lib:
        assert lib.opened.built and lib.index_path != before


@pytest.mark.parametrize("damage", ["truncate", "delete-toc", "garbage-meta", "delete-side"])
def test_corrupt_index_is_rebuilt_with_a_notice(seeds: Path, tmp_path: Path,
                                                damage: str) -> None:
    with open_at(seeds, tmp_path / "ix") as lib:
        folder = lib.index_path
    if damage == "truncate":
        for f in folder.iterdir():
            if f.suffix in (".pst", ".trm", ".seg", ".fdt", ".toc"):
                f.write_bytes(f.read_bytes()[:10])
    elif damage == "delete-toc":
        for f in folder.glob("*.toc"):
            f.unlink()
    elif damage == "garbage-meta":
        (folder / "paperscope.json").write_text("{not json")
    else:
        (folder / "prefixes.json").unlink()
    with open_at(seeds, tmp_path / "ix") as lib:
        assert lib.opened.built
        assert any("damaged" in n for n in lib.notices)
        assert all("\n" not in n for n in lib.notices)
        assert search(lib, "zebrafish").hits


def test_explicit_rebuild(seeds: Path, tmp_path: Path) -> None:
    with open_at(seeds, tmp_path / "ix"):
        pass
    with open_at(seeds, tmp_path / "ix", rebuild=True) as lib:
        assert lib.opened.built and search(lib, "horses").hits


def _open_and_search(args: tuple[str, str]) -> int:
    seeds, where = args
    with open_library([seeds], where) as lib:
        return len(search(lib, "zebrafish").hits)


@pytest.mark.parametrize("processes", [2, 8])
def test_concurrent_first_use_all_succeed(seeds: Path, tmp_path: Path, processes: int) -> None:
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(processes) as pool:
        found = pool.map(_open_and_search, [(str(seeds), str(tmp_path / "ix"))] * processes)
    assert found == [1] * processes
    assert len(list((tmp_path / "ix").glob("ix-*"))) == 1


def test_unwritable_index_root_falls_back_to_the_next(seeds: Path, tmp_path: Path) -> None:
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where a folder should be")
    roots = [blocked / "index", tmp_path / "cache"]
    opened = index_module.open_index([seeds / "a.txt"], roots)
    assert opened.path is not None and opened.path.parent == tmp_path / "cache"
    opened.searcher.close()


def test_nothing_writable_builds_in_memory(seeds: Path, tmp_path: Path) -> None:
    blocked = tmp_path / "blocked"
    blocked.write_text("")
    opened = index_module.open_index([seeds / "a.txt"], [blocked / "x", blocked / "y"])
    assert opened.path is None
    assert any("memory" in n for n in opened.notices)
    assert opened.searcher.doc_count() == 2


def test_locations(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lists = [tmp_path / "a.txt"]
    bundled = index_dirs(lists, bundled=True, override=None)
    assert bundled[0] == ROOT / "index"
    assert bundled[1].name == "bundled"
    other = index_dirs(lists, bundled=False, override=None)
    assert ROOT / "index" not in other and other[0].name.startswith("lists-")
    assert index_dirs(lists, False, str(tmp_path / "x")) == [tmp_path / "x"]
    monkeypatch.setenv("PAPERSCOPE_INDEX_DIR", str(tmp_path / "env"))
    assert index_dirs(lists, True, None) == [tmp_path / "env"]
    assert index_dirs(lists, True, str(tmp_path / "flag")) == [tmp_path / "flag"]
