"""Posting lists read from the segments' arrays (`postarrays`) are Whoosh's own lists."""

from __future__ import annotations

from array import array
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.test_incremental import SOURCES, _cut
from tui.core.index import postarrays
from tui.core.index.library import Library, open_library
from tui.core.index.postarrays import DATA_EXT, DIRECTORY_EXT, ArraysWriter, SegmentArrays
from tui.core.index.schema import SCORED_FIELDS
from tui.core.index.postingcache import PostingCache, read_postings
from tui.core.search.search import search


def _library_with_deletions(tmp_path: Path) -> Library:
    """A library of two segments, the first holding a removed list's deleted papers."""
    lists = tmp_path / "lists"
    lists.mkdir()
    files = [_cut(s, lists) for s in SOURCES]
    open_library(files, str(tmp_path / "ix")).close()  # small lists: one segment
    kept = files[:1] + files[2:]
    open_library(kept, str(tmp_path / "ix")).close()  # one list of five removed from it
    # And a list added after it: a segment of its own.
    library = open_library([*kept, _cut(SOURCES[1], lists, slice(0, 30))], str(tmp_path / "ix"))
    assert library.searcher.reader().has_deletions(), "a removed list left deleted papers"
    return library


def _every_list(library: Library) -> list[tuple[str, str]]:
    reader = library.searcher.reader()
    return [(field, term.decode("utf-8")) for field, term in reader.all_terms()
            if field in SCORED_FIELDS]


def _arrays(library: Library):
    """What the library's posting cache reads a segment's arrays with."""
    return PostingCache(library.searcher.reader()).arrays_of


@pytest.mark.shared_material
def test_every_list_read_from_the_arrays_is_whooshs(tmp_path: Path) -> None:
    with _library_with_deletions(tmp_path) as library:
        reader = library.searcher.reader()
        arrays = _arrays(library)
        leaves = [leaf for leaf, _ in reader.leaf_readers()]
        assert len(leaves) == 2 and all(arrays(leaf) is not None for leaf in leaves)
        keys = _every_list(library)
        assert {"text", "name", "title"} <= {f for f, _ in keys} and len(keys) > 1000
        for field, term in keys:
            assert read_postings(reader, field, term, arrays) == \
                read_postings(reader, field, term), (field, term)
        # The directories count each term's papers as Whoosh does, and know which
        # terms a segment lacks, here or anywhere.
        cache = PostingCache(reader)
        absent = [("text", "zzzqx"), ("name", "text"), ("title", "")]
        for field, term in keys[::7] + absent:
            assert cache.doc_frequency(field, term) == reader.doc_frequency(field, term)
            assert cache.frequency(field, term) == reader.frequency(field, term)
        assert any(arrays(leaf).count(f, t) == 0 for leaf in leaves for f, t in keys)
        # A field that is not scored (a paper's id) has no arrays: Whoosh reads it.
        field, term = next((f, t) for f, t in reader.all_terms() if f not in SCORED_FIELDS)
        assert all(arrays(leaf).postings(field, term.decode(), 0) is None
                   and arrays(leaf).count(field, term.decode()) is None for leaf in leaves)
        assert read_postings(reader, field, term.decode(), arrays)[0]


@pytest.mark.shared_material
def test_a_segment_whose_keys_share_a_hash_is_read_through_whoosh(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lists = tmp_path / "lists"
    lists.mkdir()
    files = [_cut(s, lists, slice(0, 30)) for s in SOURCES[:2]]
    with open_library(files, str(tmp_path / "plain")) as library:
        expected = [(h.paper.id, h.score) for h in search(library, "gaussian process").hits]
    monkeypatch.setattr(postarrays, "key_hash", lambda field, term: (len(term) % 3, 0))
    with open_library(files, str(tmp_path / "ix")) as library:
        folder = library.index_path
        assert list(folder.glob(f"*{DATA_EXT}")) and not list(folder.glob(f"*{DIRECTORY_EXT}"))
        reader = library.searcher.reader()
        assert all(_arrays(library)(leaf) is None for leaf, _ in reader.leaf_readers())
        assert [(h.paper.id, h.score) for h in search(library, "gaussian process").hits] \
            == expected


@pytest.mark.shared_material
def test_a_directory_of_another_byte_order_is_not_read_and_a_damaged_one_raises(
        tmp_path: Path) -> None:
    lists = tmp_path / "lists"
    lists.mkdir()
    files = [_cut(SOURCES[0], lists, slice(0, 30))]
    with open_library(files, str(tmp_path / "ix")) as library:
        reader = library.searcher.reader()
        (leaf, _), = reader.leaf_readers()
        segment_id = leaf.segment().segment_id()
        storage = leaf.storage()
        assert SegmentArrays.open(storage, segment_id) is not None
        path = library.index_path / (segment_id + DIRECTORY_EXT)
        data = path.read_bytes()
        magic = postarrays._MAGIC
        other = b"b" if magic.endswith(b"l") else b"l"
        path.write_bytes(magic[:-1] + other + data[len(magic):])  # the other byte order
        assert SegmentArrays.open(storage, segment_id) is None
        path.write_bytes(data[:-4])  # damaged: the library then reopens the index
        with pytest.raises(OSError):
            SegmentArrays.open(storage, segment_id)
        path.unlink()
        assert SegmentArrays.open(storage, segment_id) is None


def test_the_hash_is_hashlibs_blake2b() -> None:
    """blake2b comes from hashlib's own implementation module (`python_compat`), which
    spares a search the OpenSSL bindings: it must be the very function hashlib gives."""
    import hashlib

    assert postarrays.blake2b is hashlib.blake2b
    key = ("text", b"kernel")
    digest = hashlib.blake2b(b"text\0kernel", digest_size=12).digest()
    assert postarrays.key_hash(*key) == (int.from_bytes(digest[:8], "little"),
                                         int.from_bytes(digest[8:], "little"))


@pytest.mark.shared_material
def test_key_terms_are_whooshs_more_like_this_terms(tmp_path: Path) -> None:
    """Bo1 over the directories' sums of weights weighs a text's terms as Whoosh's
    expander does over its term files: the same terms, weights and order."""
    lists = tmp_path / "lists"
    lists.mkdir()
    files = [_cut(s, lists) for s in SOURCES]
    with open_library(files, str(tmp_path / "ix")) as library:
        assert not library.searcher.reader().has_deletions()
        texts = [library.paper(d).raw for d in range(0, len(library), max(1, len(library) // 40))]
        texts += ["", "the of and", "zzzqx unheard words", texts[0] + " " + texts[1]]
        for text in texts:
            expected = library.searcher.key_terms_from_text("text", text, numterms=15)
            assert library.key_terms(text, 15) == expected, text[:60]


def test_a_segment_whose_lists_failed_midway_gets_no_directory() -> None:
    """A directory is written only once every list is: a build that fails while
    writing lists leaves none, and the data file it opened closed."""
    from whoosh.filedb.filestore import RamStorage

    storage = RamStorage()
    with ArraysWriter(storage, "done", ["text"]) as arrays:
        arrays.add("text", b"kernel", [0, 3, 9], [1.0, 2.0, 1.0])
    found = SegmentArrays.open(storage, "done")
    assert found is not None and found.postings("text", "kernel", 10)[0].tolist() == [10, 13, 19]
    assert found.frequency("text", "kernel") == 4.0 and found.count("text", "kernel") == 3

    with pytest.raises(RuntimeError), ArraysWriter(storage, "failed", ["text"]) as arrays:
        arrays.add("text", b"kernel", [0, 3], [1.0, 1.0])
        raise RuntimeError("the lists stop here")
    assert not storage.file_exists("failed" + DIRECTORY_EXT)
    assert SegmentArrays.open(storage, "failed") is None
    # RamStorage keeps a file's bytes when it is closed, and only then.
    assert storage.file_exists("failed" + DATA_EXT)


@given(st.lists(st.integers(0, 2**31 - 1), unique=True).map(sorted),
       st.integers(0, 2**31 - 1))
def test_a_list_decodes_to_its_docnums_plus_the_segment_s_base(ids: list[int], base: int) -> None:
    """Docnums are stored whole and shifted by the base in one addition: no digit may
    carry into the next, whatever the docnums and base (their sums stay below 2^31 in
    a library; here they reach 2^32 - 2, every digit's limit)."""
    weights = [float(i % 7 + 1) for i in range(len(ids))]
    data = array("I", ids).tobytes() + array("f", weights).tobytes()
    found, found_weights = postarrays.decode(memoryview(data), len(ids), base)
    assert [d for d in array("I", found.tobytes())] == [d + base for d in ids]
    assert list(found_weights) == weights
