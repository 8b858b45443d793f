"""The builder's postings writer writes exactly the bytes Whoosh's own writer would."""

from __future__ import annotations

from array import array
from pathlib import Path

from whoosh.codec.whoosh3 import W3Codec
from whoosh.filedb.filestore import FileStorage

from tui.core.index.builder import _add_prepared, _documents as list_documents
from tui.core.index.postings import SPILL_AFTER, Postings
from tui.core.index.schema import SCORED_FIELDS, document, make_schema
from tui.core.lists.paragraphs import make_paper
from tui.core.lists.parts import Part
from tui.core.render.plain import rendered_text

SEEDS = Path(__file__).resolve().parent.parent / "seeds"

# Terms whose byte order differs from naive expectations (accents, ß, Greek, CJK), and
# words repeated across papers so that posting lists span several small blocks.
EXTRA = [
    "Straße ébène zeta Ωmega 論文 model model straße",
    "ébène ébène zeta zeta zeta model 論文 alpha",
    "model zeta",
]


def _documents() -> list[dict[str, object]]:
    docs = []
    for path in sorted(SEEDS.glob("*.txt")):
        docs += list_documents(Part(path), {}, set())
    for position, raw in enumerate(EXTRA):
        paper = make_paper(raw, "Extra 論文列表", "extra.txt", position)
        docs.append(document(paper, rendered_text(raw)))
    return docs


def _segment_bytes(folder: Path, through_pool: bool,
                   spill_after: int = SPILL_AFTER) -> dict[str, bytes]:
    """Build one segment of the documents; its files by extension."""
    folder.mkdir()
    ix = FileStorage(str(folder)).create_index(make_schema())
    writer = ix.writer(compound=False, codec=W3Codec(blocklimit=4, compression=0))
    postings = Postings(spill_after=spill_after, spill_dir=str(folder))
    lengths = {name: array("I") for name in SCORED_FIELDS}
    for doc in _documents():
        _add_prepared(writer, doc, postings)
        for name, column in lengths.items():
            column.append(len(doc[name]))
    if through_pool:
        # The reference: every posting through Whoosh's pool, sort and codec calls.
        for name, tbytes, items in postings.records():
            for docnum, weight, value in items:
                writer.pool.add((name, tbytes, docnum, weight, value))
        postings.discard()
    else:
        postings.write(writer.fieldwriter, writer.schema, lengths)
    writer.commit()
    return {p.name.split(".", 1)[1]: p.read_bytes()
            for p in folder.iterdir() if p.name.startswith("MAIN_") and "." in p.name}


def test_postings_match_whoosh_writer_byte_for_byte(tmp_path: Path) -> None:
    ours = _segment_bytes(tmp_path / "ours", through_pool=False)
    reference = _segment_bytes(tmp_path / "reference", through_pool=True)
    assert set(ours) == set(reference)
    assert {"pst", "trm"} <= set(ours)
    for ext in sorted(reference):
        assert ours[ext] == reference[ext], ext


def test_terms_spanning_several_blocks_are_searchable(tmp_path: Path) -> None:
    folder = tmp_path / "ix"
    _segment_bytes(folder, through_pool=False)
    ix = FileStorage(str(folder)).open_index()
    with ix.searcher() as searcher:
        model = list(searcher.postings("text", "model").all_ids())
        assert len(model) > 8  # several 4-posting blocks
        assert model == sorted(model)
        assert len(list(searcher.postings("text", "zeta").all_ids())) == 3
        assert searcher.doc_frequency("text", "ébène") == 2


def test_postings_spilled_to_runs_write_the_same_bytes(tmp_path: Path) -> None:
    # A bound this low spills every few documents: many runs, terms spread over them.
    spilled = _segment_bytes(tmp_path / "spilled", through_pool=False, spill_after=400)
    reference = _segment_bytes(tmp_path / "reference", through_pool=True)
    assert set(spilled) == set(reference)
    for ext in sorted(reference):
        assert spilled[ext] == reference[ext], ext
    assert not list((tmp_path / "spilled").glob("postings-*.run"))


def test_spilling_keeps_memory_bounded(tmp_path: Path) -> None:
    postings = Postings(spill_after=8_000, spill_dir=str(tmp_path))
    most = 0
    for docnum, doc in enumerate(_documents()):
        postings.add_terms("text", docnum, doc["text"])
        most = max(most, postings.held)
        assert postings.held <= 8_000
    runs = list(tmp_path.glob("postings-*.run"))
    assert len(runs) >= 3
    assert most > 4_000  # the bound, not an empty table, is what kept it down
    records = list(postings.records())
    terms = [term for _, term, _ in records]
    assert terms == sorted(set(terms))
    for _, _, items in records:
        docnums = [d for d, _, _ in items]
        assert docnums == sorted(set(docnums))
    postings.discard()
    assert not list(tmp_path.glob("postings-*.run"))


def test_merging_runs_holds_one_term_at_a_time(tmp_path: Path) -> None:
    # Reading the runs back must not keep what was read: a build's memory while it
    # writes is bounded like its memory while it collects, whatever the runs hold.
    import random
    import tracemalloc

    rng = random.Random(7)
    postings = Postings(spill_after=20_000, spill_dir=str(tmp_path))
    for docnum in range(3_000):
        postings.add_terms("text", docnum, [f"w{rng.randrange(20_000):05d}" for _ in range(60)])
    runs = list(tmp_path.glob("postings-*.run"))
    on_disk = sum(run.stat().st_size for run in runs)
    assert len(runs) >= 5 and on_disk > 1_000_000
    tracemalloc.start()
    try:
        count = sum(1 for _ in postings.records())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        postings.discard()
    assert count > 10_000
    assert peak < on_disk / 4, (peak, on_disk)
