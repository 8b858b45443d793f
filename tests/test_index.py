"""The index's life: build, reuse, rebuild, corruption, concurrency, read-only folders."""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
from pathlib import Path

import pytest

from tests.conftest import ROOT, write_list
from tui.core.index import opening as index_module
from tui.core.index.freshness import deriving_sources
from tui.core.index.library import open_library
from tui.core.locations import index_dirs
from tui.core.search.search import search

LIST = "Test List\n\nWe propose Zebrafish, a stripe counter.\n\nWe study horses at length.\n"


@pytest.fixture()
def seeds(tmp_path: Path) -> Path:
    folder = tmp_path / "lists"
    folder.mkdir()
    write_list(folder, "a.txt", LIST)
    return folder


def test_the_code_digest_reads_the_code_that_derives_index_content() -> None:
    """A source the digest names but cannot find would let a fix leave stale indexes."""
    sources = deriving_sources()
    assert sources and all(path.is_file() for path in sources)
    core = ROOT / "tui" / "core"
    for part in ("lists/paragraphs.py", "naming/derive.py", "render/text.py", "render/math.py",
                 "index/aliases.py", "index/schema.py"):
        assert core / part in sources


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


def test_file_sizes_are_recorded_and_a_truncated_file_is_rebuilt(seeds: Path,
                                                                  tmp_path: Path) -> None:
    with open_at(seeds, tmp_path / "ix") as lib:
        folder = lib.index_path
    meta = json.loads((folder / "paperscope.json").read_text(encoding="utf-8"))
    on_disk = {p.name: p.stat().st_size for p in folder.iterdir() if p.name != "paperscope.json"}
    assert meta["sizes"] == on_disk
    (postings,) = folder.glob("*.pst")
    os.truncate(postings, postings.stat().st_size - 1)  # one byte: Whoosh would not notice
    with open_at(seeds, tmp_path / "ix") as lib:
        assert lib.opened.built
        assert [n for n in lib.notices if "damaged" in n and "\n" not in n]
        assert search(lib, "zebrafish").hits


def test_the_built_folder_is_flushed_to_disk_before_it_is_renamed_into_place(
        seeds: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    flushed: list[str] = []
    renamed: list[tuple[str, list[str]]] = []
    fsync, rename = os.fsync, os.rename

    def spy_fsync(fd: int) -> None:
        flushed.append(os.readlink(f"/proc/self/fd/{fd}"))
        fsync(fd)

    def spy_rename(src, dst) -> None:
        renamed.append((str(src), list(flushed)))
        rename(src, dst)

    monkeypatch.setattr(os, "fsync", spy_fsync)
    monkeypatch.setattr(os, "rename", spy_rename)
    with open_at(seeds, tmp_path / "ix") as lib:
        folder = lib.index_path
    (tmp, before), = [(src, done) for src, done in renamed if Path(src).name.startswith(".tmp-")]
    expected = {str(Path(tmp) / p.name) for p in folder.iterdir()} | {tmp}
    assert expected <= set(before)


def _answers(lib) -> dict[str, list[str]]:
    return {q: [h.paper.id for h in search(lib, q).hits]
            for q in ("zebrafish", "zeb", "zebrafsh", "horses OR stripe", "")}


@pytest.mark.parametrize("harm", ["folder deleted", "folder replaced"])
def test_a_fresh_library_survives_its_folder_going_away(seeds: Path, tmp_path: Path,
                                                        harm: str) -> None:
    """Nothing read yet: what Whoosh opens lazily was opened with the library."""
    with open_at(seeds, tmp_path / "ix") as lib:
        expected = _answers(lib)
    with open_at(seeds, tmp_path / "ix") as lib:
        if harm == "folder deleted":
            shutil.rmtree(lib.index_path)
        else:
            open_at(seeds, tmp_path / "ix", rebuild=True).close()
        assert _answers(lib) == expected
        assert lib.paper(1).raw.startswith("We study horses")
        assert lib.get(lib.paper(0).id) is not None
        assert lib.notices == [], "nothing needed reopening"


@pytest.mark.parametrize("pattern", ["*.pa", "*.pad", "*.json", "*"])
def test_files_truncated_under_an_open_library_are_rebuilt(seeds: Path, tmp_path: Path,
                                                           pattern: str) -> None:
    with open_at(seeds, tmp_path / "ix") as lib:
        expected = _answers(lib)
    with open_at(seeds, tmp_path / "ix") as lib:
        for path in lib.index_path.glob(pattern):
            os.truncate(path, 0)
        assert _answers(lib) == expected
        assert [n for n in lib.notices if "damaged" in n], lib.notices
        assert all("\n" not in n for n in lib.notices)
        assert lib.paper(0).id == search(lib, "zebrafish").hits[0].paper.id


def test_a_failure_that_is_not_the_index_is_raised_as_it_is(seeds: Path, tmp_path: Path) -> None:
    with open_at(seeds, tmp_path / "ix") as lib:
        folder, generation = lib.index_path, lib.generation
        with pytest.raises(IndexError):
            lib.paper(10**6)
        assert lib.notices == [] and lib.generation == generation
        assert lib.index_path == folder


def test_a_paper_read_from_a_truncated_stored_column_rebuilds(tmp_path: Path) -> None:
    """Papers are read one by one from the stored-fields column, well after the open."""
    folder = tmp_path / "lists"
    folder.mkdir()
    animals = [f"We propose Model{n:03d}, which counts the stripes of zebra number {n} "
               + "in long videos of the savanna taken over many seasons. " * 3
               for n in range(300)]
    write_list(folder, "many.txt", "Many Papers\n\n" + "\n\n".join(animals) + "\n")
    with open_at(folder, tmp_path / "ix") as lib:
        expected = [p.name for p in lib.papers()]
    with open_at(folder, tmp_path / "ix") as lib:
        assert lib.paper(0).name == expected[0]
        (column,) = lib.index_path.glob("*._stored.col")
        os.truncate(column, column.stat().st_size // 2)
        assert [p.name for p in lib.papers()] == expected
        assert [n for n in lib.notices if "damaged" in n], lib.notices


@pytest.mark.parametrize("harm", ["folder deleted while built", "files deleted while built",
                                  "file truncated once built"])
def test_a_build_harmed_by_another_process_is_done_again(seeds: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         harm: str) -> None:
    """Another process deleting or truncating the index root while this one builds
    (`rmtree` racing the build can leave the folder but not its files)."""
    builds: list[str] = []
    build, remove_stale = index_module.build_into, index_module._remove_stale

    def harmed_build(storage, files, progress, **reuse):
        builds.append(storage.folder)
        if len(builds) == 1 and harm == "folder deleted while built":
            shutil.rmtree(storage.folder)
        elif len(builds) == 1 and harm == "files deleted while built":
            create_file = storage.create_file

            def create_after_deleting(name, *args, **kw):
                for path in Path(storage.folder).rglob("*"):
                    if path.is_file():
                        path.unlink()
                return create_file(name, *args, **kw)

            monkeypatch.setattr(storage, "create_file", create_after_deleting)
        return build(storage, files, progress, **reuse)

    def truncating_remove_stale(root: Path, keep: str) -> None:
        remove_stale(root, keep)
        if harm == "file truncated once built" and len(builds) == 1:
            for path in (root / keep).glob("*.pst"):
                os.truncate(path, 0)

    monkeypatch.setattr(index_module, "build_into", harmed_build)
    monkeypatch.setattr(index_module, "_remove_stale", truncating_remove_stale)
    with open_at(seeds, tmp_path / "ix") as lib:
        assert lib.index_path is not None and lib.opened.built, lib.notices
        assert search(lib, "zebrafish").hits
    assert len(builds) == 2


def test_the_paper_cache_is_bounded(tmp_path: Path, monkeypatch) -> None:
    from tui.core.index import library as library_module

    monkeypatch.setattr(library_module, "PAPER_CACHE", 3)
    with open_library(None, str(tmp_path / "ix")) as library:  # the bundled lists
        first = [library.paper(d) for d in range(6)]
        assert len(library._papers) == 3, "the longest-kept papers were forgotten"
        assert sorted(library._papers) == [3, 4, 5]
        assert library.paper(0) == first[0], "a forgotten paper reads again the same"
        assert len(library._papers) == 3


def test_in_memory_builds_keep_their_temporary_files_apart(tmp_path) -> None:
    """Whoosh's own RamStorage gives every process the same temporary folder, so two
    in-memory builds at once removed each other's files ("seek of closed file")."""
    from tui.core.index.opening import BuildRamStorage

    first, second = BuildRamStorage(), BuildRamStorage()
    a, b = first.temp_storage("MAIN.tmp"), second.temp_storage("MAIN.tmp")
    assert a.folder != b.folder
    handle = a.create_file("x.ctmp")
    handle.write(b"column")
    handle.close()
    second.remove_temp_folders()
    assert a.file_exists("x.ctmp")          # the other build's files are untouched
    first.remove_temp_folders()
    assert not Path(a.folder).exists() and not Path(b.folder).exists()


def test_the_norms_read_at_search_are_those_of_each_papers_own_length(
        seeds: Path, tmp_path: Path) -> None:
    """The builder writes BM25's length norms; the scorer must get each paper's own."""
    from array import array

    from tui.core.index.analysis import terms
    from tui.core.index.norms import norms_for
    from tui.core.render.plain import rendered_text

    write_list(seeds, "b.txt", "Other List\n\n" + "We count many many words here. " * 9 + "\n")
    with open_at(seeds, tmp_path / "ix") as lib:
        stored = [lib.searcher.stored_fields(d) for d in range(len(lib))]
        lengths = array("I", [len(terms(rendered_text(s["raw"]))) for s in stored])
        assert len(set(lengths)) == 3  # three lengths, so a mix-up of papers shows
        assert list(lib.scorer.norms["text"]) == list(norms_for(lengths))


def test_a_search_reads_the_norms_of_the_fields_it_scores_only(tmp_path: Path) -> None:
    """Each field's norms take 4 bytes a paper. A field no paper has words in (the
    authors, years, venues and headings of paragraph lists) is never scored, nor is a
    field the query does not search (`list`, `year`): their norms stay on disk."""
    import tracemalloc

    from tui.core.index import sidefiles

    papers = 2000
    folder = tmp_path / "lists"
    folder.mkdir()
    words = ["sparse", "coding", "kernel", "graph", "signal", "network", "bound", "prior"]
    for n in range(0, papers, 500):
        abstracts = [" ".join(words[(d + i) % 8] for i in range(d % 13 + 5)) + f" case{d}."
                     for d in range(n, n + 500)]
        write_list(folder, f"l{n}.txt", f"List {n}\n\n" + "\n\n".join(abstracts) + "\n")
    with open_at(folder, tmp_path / "ix") as lib:
        assert len(lib) == papers
        tracemalloc.start()
        try:
            for query in ("sparse cod", "kernel graph", "s", "network -prior"):
                assert search(lib, query, typing=True).total
            held = tracemalloc.take_snapshot().filter_traces(
                [tracemalloc.Filter(True, sidefiles.__file__)])
        finally:
            tracemalloc.stop()
        # name, title, text and alias at most: four fields of the nine.
        assert sum(stat.size for stat in held.statistics("filename")) < 5 * 4 * papers


def test_a_root_deleted_while_it_is_made_is_made_again(tmp_path: Path, monkeypatch) -> None:
    """mkdir(exist_ok=True) raises when the folder is made and deleted by others between
    its mkdir and its check: the index root is then made again."""
    from tui.core.index import opening

    root = tmp_path / "root"
    real = Path.mkdir
    raced = []

    def racing(self, *args, **kwargs):
        if self == root and not raced:
            raced.append(self)
            raise FileExistsError(17, "File exists", str(self))  # made, then deleted
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", racing)
    opening._made(root)
    assert raced and root.is_dir()
    (tmp_path / "file").write_text("")
    with pytest.raises(FileExistsError):
        opening._made(tmp_path / "file")
