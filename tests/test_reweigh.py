"""The segments a grown library took over are weighed again off the reader's path
(`reweigh`): afterwards their impacts are read again, and every answer is a fresh
build's to the last bit."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import SEEDS
from tui.core.index import reuse, reweigh
from tui.core.index.impactfiles import EXT, StoredImpacts
from tui.core.index.library import Library, open_library
from tui.core.index.postingcache import PostingCache
from tui.core.search.search import search

QUERIES = ("learning", "neural network", "graph", "t", "co", "diffusion model", "")


@pytest.fixture
def grown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Path], Path]:
    """The bundled lists, cut in several segments, indexed one list first and then all
    of them (so the first list's segments are taken over); the lists and the index's
    root. `reweigh.start` records the folders it is asked to weigh."""
    monkeypatch.setattr(reuse, "SMALL_BYTES", 0)
    monkeypatch.setattr(reuse, "SEGMENT_BYTES", 1)
    started: list[Path] = []
    monkeypatch.setattr(reweigh, "start", started.append)
    lists = tmp_path / "lists"
    lists.mkdir()
    files = []
    for seed in sorted(SEEDS.glob("*.txt")):
        files.append(lists / seed.name)
        files[-1].write_bytes(seed.read_bytes())
    root = tmp_path / "ix"
    open_library(files[:1], str(root)).close()
    monkeypatch.setattr(reweigh, "REWEIGH_FROM", 1)
    with open_library(files, str(root)) as library:
        assert started == [library.opened.path], "the build asked for its segments to be weighed"
    return files, root


def _unread(library: Library) -> list[tuple[str, str]]:
    """The scored terms whose impacts are not read from the impacts files."""
    reader = library.searcher.reader()
    stored = StoredImpacts(reader, library.scorer.norms, PostingCache(reader).arrays_of)
    missing = []
    for field in ("text", "title", "name"):
        for term in reader.lexicon(field):
            text = term.decode("utf-8") if isinstance(term, bytes) else term
            if stored.get(field, text, len(library.scorer.postings(field, text)[0])) is None:
                missing.append((field, text))
    return missing


def _hits(library: Library) -> dict[str, list[tuple[int, float]]]:
    return {q: [(h.docnum, h.score) for h in search(library, q, limit=50).hits]
            for q in QUERIES}


START = reweigh.start
"""The real `start`, which the `grown` fixture replaces."""


@pytest.mark.parametrize("how", ["in this process", "by the command",
                                 "as the build starts it"])
def test_a_grown_library_reads_its_impacts_again_once_weighed(grown, tmp_path: Path,
                                                               how: str) -> None:
    files, root = grown
    with open_library(files, str(root)) as library:
        folder = library.opened.path
        assert _unread(library), "the segments taken over do not fit the new norms"
        sizes = {p.name: p.stat().st_size for p in folder.iterdir()}
    if how == "in this process":
        assert reweigh.reweigh(folder) > 0
    elif how == "as the build starts it":
        process = START(folder)
        for _ in range(600):  # waited for by the thread `start` leaves, not by this test
            if process.returncode is not None:
                break
            time.sleep(0.05)
        assert process.returncode == 0
    else:
        done = subprocess.run([sys.executable, "-m", "tui.core.index.reweigh", str(folder)],
                              capture_output=True, text=True, timeout=120)
        assert (done.returncode, done.stderr) == (0, "")
    assert {p.name: p.stat().st_size for p in folder.iterdir()} == sizes, \
        "the same files, the same sizes: the index's size check holds"
    assert reweigh.reweigh(folder) == 0, "nothing left to weigh"
    with open_library(files, str(root)) as library:
        assert library.opened.path == folder, "opened as it is, not rebuilt"
        assert _unread(library) == []
        answers = _hits(library)
    with open_library(files, str(tmp_path / "fresh"), rebuild=True) as library:
        assert _hits(library) == answers


def test_a_file_that_would_change_size_is_left_as_it_was(grown, monkeypatch) -> None:
    files, root = grown
    with open_library(files, str(root)) as library:
        folder = library.opened.path
    before = {p.name: p.read_bytes() for p in folder.glob(f"*{EXT}")}
    write = reweigh.write_impacts

    def longer(storage, segment_id, norms, name):
        write(storage, segment_id, norms, name)
        with open(folder / name, "ab") as handle:
            handle.write(b"\0")

    monkeypatch.setattr(reweigh, "write_impacts", longer)
    assert reweigh.reweigh(folder) == 0
    assert {p.name: p.read_bytes() for p in folder.glob(f"*{EXT}")} == before
    assert sorted(p.name for p in folder.iterdir() if p.name.startswith(".")) == []


def test_what_a_reweigh_stopped_midway_left_is_removed(grown) -> None:
    files, root = grown
    with open_library(files, str(root)) as library:
        folder = library.opened.path
    left = folder / f".{next(folder.glob('*' + EXT)).stem}{EXT}.99999"
    left.write_bytes(b"half a file")
    reweigh.reweigh(folder)
    assert not left.exists()


def test_a_small_library_or_a_whole_build_starts_no_process(tmp_path: Path,
                                                           monkeypatch) -> None:
    started: list[Path] = []
    monkeypatch.setattr(reweigh, "start", started.append)
    monkeypatch.setattr(reuse, "SMALL_BYTES", 0)
    monkeypatch.setattr(reuse, "SEGMENT_BYTES", 1)
    files = sorted(SEEDS.glob("*.txt"))
    open_library(files[:1], str(tmp_path / "ix")).close()
    open_library(files, str(tmp_path / "ix")).close()  # taken over, but few postings
    monkeypatch.setattr(reweigh, "REWEIGH_FROM", 1)
    open_library(files, str(tmp_path / "other"), rebuild=True).close()  # nothing taken
    assert started == []


def test_a_folder_that_is_gone_is_one_line_and_a_failure(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "tui.core.index.reweigh",
                           str(tmp_path / "gone")], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 1
    assert len(done.stderr.splitlines()) == 1 and "gone" in done.stderr
