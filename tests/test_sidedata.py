"""A segment's side record (`sidedata.SegmentData`) reads back as it was saved, and is
saved a piece at a time: a worker writing a segment of 125,000 papers held eight times
the record's size in Python objects while encoding it whole."""

from __future__ import annotations

import json
import random
import tracemalloc
from array import array

from whoosh.filedb.filestore import RamStorage

from tui.core.index import sidedata
from tui.core.index.schema import SCORED_FIELDS
from tui.core.index.sidedata import PartData, SegmentData


def _record(papers: int, lists: int, seed: int = 5) -> SegmentData:
    rng = random.Random(seed)
    keys = [rng.choice(["", 'a "quoted" name', "naïve été", "x\ny", "学习"]) + str(d)
            for d in range(papers)]
    data = SegmentData(name_keys=keys, words=[f"w{i}" for i in range(500)],
                       terms=[f"t{i}" for i in range(400)])
    for column in data.lengths.values():
        column.extend(rng.randrange(300) for _ in range(papers))
    for n in range(lists):
        data.parts.append(PartData(papers // lists, array("I", rng.sample(range(500), 50)),
                                   array("I", rng.sample(range(400), 40)),
                                   array("I", [rng.randrange(1, 9) for _ in range(40)])))
    return data


def _same(a: SegmentData, b: SegmentData) -> bool:
    return (a.name_keys == b.name_keys and a.words == b.words and a.terms == b.terms
            and {k: list(v) for k, v in a.lengths.items()}
            == {k: list(v) for k, v in b.lengths.items()}
            and [(p.papers, list(p.words), list(p.terms), list(p.counts)) for p in a.parts]
            == [(p.papers, list(p.words), list(p.terms), list(p.counts)) for p in b.parts])


def test_a_record_reads_back_as_it_was_saved() -> None:
    for papers, lists in ((0, 0), (1, 1), (9000, 7)):  # more keys than one piece holds
        data = _record(papers, lists)
        storage = RamStorage()
        sidedata.save(storage, "seg", data)
        assert _same(sidedata.load(storage, "seg"), data)
        assert set(json.loads(data.to_bytes())) == {"lengths", "words", "terms", "parts",
                                                     "name_keys"}
        assert set(json.loads(data.to_bytes())["lengths"]) == set(SCORED_FIELDS)


def test_a_record_is_encoded_a_piece_at_a_time() -> None:
    data = _record(60_000, 30)
    size = len(data.to_bytes())
    tracemalloc.start()
    try:
        largest = max(len(chunk) for chunk in data.chunks())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert largest * 8 < size
    assert peak < size / 2  # encoded whole, the peak was several times the size
