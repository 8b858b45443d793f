"""Impacts and splits written at build time (`impactfiles`): the very numbers the scorer
would compute, read only where they were weighed with the library's norms of today."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from whoosh.filedb.filestore import FileStorage

from tests.conftest import SEEDS
from tests.material import conference_lists
from tui.core.index import builder, reuse
from tui.core.index.impactfiles import EXT, SegmentImpacts, StoredImpacts
from tui.core.index.library import Library, open_library
from tui.core.index.postarrays import SegmentArrays
from tui.core.index.sidefiles import TOPS_FILE
from tui.core.index.postingcache import PostingCache
from tui.core.index.schema import SCORED_FIELDS
from tui.core.index.tiers import impacts
from tui.core.search.search import search

QUERIES = ("learning", "neural network", "graph", "t", "co", "diffusion model", "")

pytestmark = pytest.mark.shared_material


@pytest.fixture
def segmented(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lists cut in several segments, as a large library's are."""
    monkeypatch.setattr(reuse, "SMALL_BYTES", 0)
    monkeypatch.setattr(reuse, "SEGMENT_BYTES", 1)


@pytest.fixture(scope="module", params=["in one process", "by workers"])
def conferences(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """Three conference lists of some six hundred papers each (`tests/material.py`),
    built in several segments, in one process or by workers (whose records the build
    process reads back for the norms)."""
    if request.param == "by workers" and (os.cpu_count() or 1) < 2:
        pytest.skip("workers run one per core")
    files = conference_lists((547, 583, 602))
    root = tmp_path_factory.mktemp("impacts") / "ix"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(reuse, "SMALL_BYTES", 0)
        patch.setattr(reuse, "SEGMENT_BYTES", 1)
        patch.setattr(builder, "_PARALLEL_BYTES", 1 if request.param == "by workers" else 10**12)
        open_library(files, str(root)).close()
    return files, root


def _stored(library: Library) -> StoredImpacts:
    reader = library.searcher.reader()
    return StoredImpacts(reader, library.scorer.norms, PostingCache(reader).arrays_of)


def _hits(library: Library) -> dict[str, list[tuple[int, float]]]:
    return {q: [(h.docnum, h.score) for h in search(library, q, limit=50).hits]
            for q in QUERIES}


def _terms(library: Library) -> list[tuple[str, str]]:
    reader = library.searcher.reader()
    return [(field, term.decode("utf-8") if isinstance(term, bytes) else term)
            for field in SCORED_FIELDS if field in reader.indexed_field_names()
            for term in reader.lexicon(field)]


def test_every_list_reads_the_impacts_the_scorer_would_compute(conferences) -> None:
    with open_library(*conferences) as library:
        reader = library.searcher.reader()
        assert len(reader.leaf_readers()) > 1
        stored, scorer = _stored(library), library.scorer
        joined = 0
        for field, term in _terms(library):
            ids, tfs = scorer.postings(field, term)
            found = stored.get(field, term, len(ids))
            assert found is not None, (field, term)
            weighed, made = found
            # To the last bit: a score must not depend on where its impacts came from.
            assert weighed.tobytes() == impacts(ids, tfs, scorer.norms.get(field)).tobytes()
            if made is not None:
                high, cut = made
                assert len(high) == len(ids) and 0 in high and 1 in high
                assert all(r < cut for r, top in zip(weighed, high) if not top)
                joined += sum((field, term) in leaf for leaf, _ in reader.leaf_readers()) > 1
        assert joined  # some split lists are joined from several segments


def test_a_search_answers_the_same_with_stored_impacts_or_without(
        conferences, monkeypatch: pytest.MonkeyPatch) -> None:
    with open_library(*conferences) as library:
        stored = _hits(library)
    monkeypatch.setattr(StoredImpacts, "get", lambda *_: None)
    with open_library(*conferences) as library:
        assert _hits(library) == stored


@pytest.mark.parametrize("damage", ["cut short", "another format", "garbled header",
                                    "header not a mapping", "missing"])
def test_a_damaged_impacts_file_is_not_read(conferences, tmp_path: Path, damage: str) -> None:
    """A library finds its damaged files by their sizes and rebuilds (`opening`); a
    segment's impacts file that does not fit its directory is not read in any case."""
    with open_library(*conferences) as library:
        folder = library.index_path
    assert folder is not None
    copy = tmp_path / "copy"
    copy.mkdir()
    segment_id = sorted(folder.glob("*" + EXT))[0].name[:-len(EXT)]
    for path in folder.glob(segment_id + ".*"):
        (copy / path.name).write_bytes(path.read_bytes())
    damaged = copy / (segment_id + EXT)
    storage = FileStorage(str(copy))
    arrays = SegmentArrays.open(storage, segment_id)
    assert arrays is not None
    assert SegmentImpacts.open(storage, segment_id, arrays) is not None
    if damage == "cut short":
        damaged.write_bytes(damaged.read_bytes()[:-3])
    elif damage == "another format":
        damaged.write_bytes(b"paperscope-impacts-0-" + damaged.read_bytes()[21:])
    elif damage in ("garbled header", "header not a mapping"):  # of the same size
        data = damaged.read_bytes()
        start = len(b"paperscope-impacts-1-") + 1 + 16
        size = int.from_bytes(data[start - 8:start], sys.byteorder)
        header = b"\xff" + data[start + 1:start + size] if damage == "garbled header" \
            else b"[]".ljust(size)
        damaged.write_bytes(data[:start] + header + data[start + size:])
    else:
        damaged.unlink()
    assert SegmentImpacts.open(storage, segment_id, arrays) is None


def test_impacts_weighed_for_other_norms_are_not_read(tmp_path: Path, segmented) -> None:
    """Adding a list moves the average length, and so every reused segment's norms: its
    impacts are weighed again, and the answers are a fresh build's to the last bit."""
    lists = tmp_path / "lists"
    lists.mkdir()
    seeds = sorted(SEEDS.glob("*.txt"))
    files = []
    for seed in seeds:
        files.append(lists / seed.name)
        files[-1].write_bytes(seed.read_bytes())
    with open_library(files[:1], str(tmp_path / "ix")) as library:
        reader = library.searcher.reader()
        common = max(reader.lexicon("text"), key=lambda t: reader.doc_frequency("text", t))
        common = common.decode("utf-8")
        ids = library.scorer.postings("text", common)[0]
        assert _stored(library).get("text", common, len(ids)) is not None
    with open_library(files, str(tmp_path / "ix")) as library:
        ids = library.scorer.postings("text", common)[0]
        assert _stored(library).get("text", common, len(ids)) is None
        grown = _hits(library)
    with open_library(files, str(tmp_path / "full"), rebuild=True) as library:
        assert _hits(library) == grown


def test_a_prepared_library_s_first_search_reads_nothing_first(tmp_path: Path,
                                                                monkeypatch) -> None:
    """`Library.prepare` reads what a first search would read before scoring: every
    segment's arrays and impacts header and the scored fields' norms. The search then
    opens none of them, and answers as an unprepared library does."""
    index = str(tmp_path / "ix")
    with open_library(index_dir=index) as unprepared:
        want = [(h.docnum, h.score) for h in search(unprepared, "learning model", 10).hits]
    read: list[str] = []
    for kind in (SegmentArrays, SegmentImpacts):
        real = kind.open
        monkeypatch.setattr(kind, "open", lambda *args, real=real, name=kind.__name__:
                            read.append(name) or real(*args))
    side_file = Library._side_file
    monkeypatch.setattr(Library, "_side_file", lambda self, parse, name:
                        read.append(name) or side_file(self, parse, name))
    with open_library(index_dir=index) as library:
        library.prepare()
        assert {"SegmentArrays", "SegmentImpacts", "norms-text.bin", TOPS_FILE} <= set(read)
        read.clear()
        got = [(h.docnum, h.score) for h in search(library, "learning model", 10).hits]
        assert not read, "the first search read what prepare should have"
        search(library, "l", 10, typing=True, count_up_to=100)  # a first letter typed
        assert TOPS_FILE not in read, "the first letter read the table prepare should have"
    assert got == want and got


def test_prepare_on_a_closed_library_is_silent(tmp_path: Path) -> None:
    library = open_library(index_dir=str(tmp_path / "ix"))
    library.close()
    library.prepare()  # reading ahead never raises: a search says what is wrong
