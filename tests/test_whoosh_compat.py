"""Each private name of Whoosh that `tui.core.whoosh_compat` touches, checked against the
installed Whoosh: an upgrade that moves one fails here, by name."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
from whoosh import fields, query as wq
from whoosh.codec.whoosh3 import W3Codec
from whoosh.filedb.filestore import FileStorage, RamStorage
from whoosh.writing import SegmentWriter

from tui.core import whoosh_compat as compat

WORDS = ["alpha beta", "alpha gamma", "alpha beta delta", "alphabet"] * 5


def _index(storage, blocklimit: int = 4):
    schema = fields.Schema(text=fields.TEXT())
    ix = storage.create_index(schema)
    writer = ix.writer(codec=W3Codec(blocklimit=blocklimit, compression=0))
    for text in WORDS:
        writer.add_document(text=text)
    writer.commit()
    return ix


def test_posting_blocks_read_what_the_public_api_reads() -> None:
    ix = _index(RamStorage())
    with ix.searcher() as searcher:
        ((leaf, _),) = searcher.reader().leaf_readers()
        blocks = list(compat.posting_blocks(leaf.postings("text", "alpha")))
        expected = list(leaf.postings("text", "alpha").items_as("weight"))
    assert len(blocks) > 1  # several 4-posting blocks
    assert [(d, w) for ids, weights in blocks for d, w in zip(ids, weights)] == expected


def test_posting_blocks_add_the_segment_s_base() -> None:
    ix = _index(RamStorage())
    with ix.searcher() as searcher:
        ((leaf, _),) = searcher.reader().leaf_readers()
        ids = [d for block, _ in compat.posting_blocks(leaf.postings("text", "alpha"), 1000)
               for d in block]
        expected = list(leaf.postings("text", "alpha").all_ids())
    assert ids == [d + 1000 for d in expected]


@pytest.mark.parametrize("wanted", [[], [0], [1, 2, 3], list(range(0, 20, 3)), [19], [4, 99]])
def test_block_positions_read_what_the_public_api_reads(wanted: list[int]) -> None:
    ix = _index(RamStorage())
    with ix.searcher() as searcher:
        ((leaf, _),) = searcher.reader().leaf_readers()
        public = leaf.postings("text", "alpha")
        expected = {}
        while public.is_active():
            if public.id() in wanted:
                expected[public.id()] = list(public.value_as("positions"))
            public.next()
        found = {d: list(p) for d, p in compat.block_positions(
            leaf.postings("text", "alpha"), wanted)}
    assert found == expected
    assert set(found) == {d for d in wanted if d < 20 and d % 4 != 3}  # "alphabet" is not "alpha"


def test_a_matcher_without_blocks_fails_before_it_yields() -> None:
    with pytest.raises(AttributeError):
        next(compat.posting_blocks(wq.NullQuery.matcher(None)))


def test_the_postings_writer_takes_blocks() -> None:
    """What `fill_block` sets and `write_block` calls (test_postings checks the bytes)."""
    storage = RamStorage()
    ix = storage.create_index(fields.Schema(text=fields.TEXT()))
    writer = ix.writer(codec=W3Codec(blocklimit=7, compression=0))
    try:
        writer.fieldwriter.start_field("text", ix.schema["text"])
        writer.fieldwriter.start_term(b"alpha")  # a term's first block is now open
        postwriter = compat.block_writer(writer.fieldwriter)
        assert compat.block_limit(postwriter) == 7
        for name in ("_ids", "_weights", "_values", "_maxweight", "_minlength", "_maxlength"):
            assert hasattr(postwriter, name), name
        assert callable(postwriter._write_block)
        assert hasattr(writer, "_added")
    finally:
        writer.cancel()


def test_segments_written_elsewhere_can_be_committed(tmp_path: Path) -> None:
    """The builder's parallel path: a worker's unlocked writer, its segment committed
    by the parent's writer."""
    storage = FileStorage(str(tmp_path))
    ix = storage.create_index(fields.Schema(text=fields.TEXT()))
    parent = ix.writer()
    worker = compat.unlocked_segment_writer(ix)
    worker.add_document(text="alpha beta")
    segment = compat.finish_segment(worker)
    compat.commit_segments(parent, [segment])
    with storage.open_index().searcher() as searcher:
        assert searcher.doc_count() == 1
        assert searcher.doc_frequency("text", "beta") == 1
    assert "_lk" in inspect.signature(SegmentWriter.__init__).parameters


def test_wildcard_terms_come_from_the_term_dictionary() -> None:
    ix = _index(RamStorage())
    with ix.searcher() as searcher:
        found = list(compat.wildcard_terms(wq.Wildcard("text", "al*a"), searcher.reader()))
    assert [t.decode() if isinstance(t, bytes) else t for t in found] == ["alpha"]


def test_toc_segments_name_each_segment_by_the_prefix_of_its_files(tmp_path: Path) -> None:
    ix = _index(FileStorage(str(tmp_path)).create())
    found = compat.toc_segments(ix)
    assert len(found) == 1
    ((name, segment),) = found.items()
    assert any(f.startswith(name + ".") for f in ix.storage.list())
    assert segment.doc_count_all() == len(WORDS)


def test_unfiltered_postings_keep_the_deleted_documents_and_name_them() -> None:
    ix = _index(RamStorage())
    writer = ix.writer()
    writer.delete_document(0)
    writer.commit(merge=False)
    with ix.searcher() as searcher:
        ((leaf, _),) = searcher.reader().leaf_readers()
        matcher = compat.unfiltered_postings(leaf, "text", "alpha")
        deleted = compat.deleted_docnums(leaf)
        every = [d for ids, _ in compat.posting_blocks(matcher) for d in ids]
        live = list(leaf.postings("text", "alpha").all_ids())
    assert deleted == {0}
    assert every[0] == 0 and [d for d in every if d not in deleted] == live


def test_stem_exceptions_are_the_stemmer_s_own() -> None:
    from whoosh.lang.porter2 import stem

    found = compat.stem_exceptions()
    assert found["dying"] == "die" and len(found) > 10
    assert all(stem(word) == term for word, term in found.items())
