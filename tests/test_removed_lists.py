"""Lists changed or removed inside a segment a build reuses: the segment is taken as it
is, the removed papers marked deleted, and every read answers as a build of the
remaining lists from scratch would (docnums aside)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_cli import run
from tests.test_incremental import QUERIES, SOURCES, _cut, _segment_inodes, analysed
from tui.core.export import export
from tui.core.index import first_screen, reuse
from tui.core.index.analysis import stem
from tui.core.index.library import Library, open_library
from tui.core.search.search import SORTS, search, similar
from tui.core.state import StateStore

__all__ = ["analysed"]  # a fixture, used by name

pytestmark = pytest.mark.shared_material

Key = tuple[str, int]
"""A paper by its list file and position: stable across builds, unlike docnums."""


def _key(library: Library, docnum: int) -> Key:
    paper = library.paper(docnum)
    return paper.file, paper.position


def _answers(library: Library, state: StateStore) -> dict[str, object]:
    """What a reader sees, with papers named by list and position, not docnum."""
    order = library.list_order
    out: dict[str, object] = {
        "papers": [(p.id, p.file, p.position, p.name, p.title) for p in library.papers()],
        "count": len(library),
        "lists": [{k: v for k, v in s.items() if k != "path"} for s in library.lists],
        "prefixes": library.prefix_table,
        "terms": library.text_terms.starting("", 10**9),
        "vocabulary": library.vocabulary,
        "norms": {name: [column[d] for d in order]
                  for name, column in library.scorer.norms.items()},
        "name order": [_key(library, d) for d in library.name_order],
        "year order": [_key(library, d) for d in library.year_order],
        "export": export(library.papers(), "json", state),
    }
    for query in (*QUERIES, "is:unread", "is:read gaussian", "NOT gaussian",
                  "kernel NOT gaussian", "list:aistats"):
        for sort in SORTS:
            result = search(library, query, limit=None, sort=sort, state=state)
            out[f"{query} by {sort}"] = (result.total, [(_key(library, h.docnum),
                                                         round(h.score, 9)) for h in result.hits])
        typed = search(library, query, limit=10, typing=True, state=state)
        out[f"{query} typed"] = [(_key(library, h.docnum), round(h.score, 9))
                                 for h in typed.hits]
    first = library.list_order[0]
    out["similar"] = [(_key(library, h.docnum), round(h.score, 9))
                      for h in similar(library, first, None).hits]
    return out


def _full(files: list[Path], root: Path, state: StateStore) -> dict[str, object]:
    assert not root.exists()
    with open_library(files, str(root), rebuild=True) as library:
        assert library.size == len(library)  # no deleted documents
        return _answers(library, state)


def _library(tmp_path: Path, count: int = 4) -> tuple[list[Path], StateStore]:
    lists = tmp_path / "lists"
    lists.mkdir()
    files = [_cut(s, lists) for s in SOURCES[:count]]
    with open_library(files, str(tmp_path / "ix")) as library:
        # Small lists: one segment, so every change below falls inside it.
        assert len(library.searcher.reader().leaf_readers()) == 1
    return files, StateStore(tmp_path / "state.json")


def test_removing_a_list_from_a_shared_segment_analyses_nothing(
        tmp_path: Path, analysed: list[str]) -> None:
    files, state = _library(tmp_path)
    with open_library(files, str(tmp_path / "ix")) as library:
        before = _segment_inodes(library)
        papers = library.papers()
        gone = [p for p in papers if p.file == SOURCES[2]]
        staying = [p for p in papers if p.file != SOURCES[2]]
        for paper in staying[::5]:
            state.set_read(paper.id, True)
        for paper in staying[::9] + gone[::3]:
            state.toggle_star(paper.id)
        words_before = set(library.vocabulary)
    analysed.clear()
    files.pop(2)
    with open_library(files, str(tmp_path / "ix")) as library:
        assert analysed == []
        assert _segment_inodes(library) == before, "the segment is linked, not rebuilt"
        assert library.size > len(library) == len(staying)
        assert not library.docnums_of(p.id for p in gone)
        assert all(library.get(p.id) is None for p in gone)
        assert [p.id for p in library.papers()] == [p.id for p in staying]
        assert {p.id for p in library.papers() if state.is_read(p.id)} == \
            {p.id for p in staying[::5]}
        starred = library.docnums_of(state.starred_ids())
        assert {library.paper(d).id for d in starred} == {p.id for p in staying[::9]}
        # The words only the removed list had: not suggested, expanded to, or found.
        gone_words = {w for w in words_before - library.vocabulary if w.isalpha()}
        assert gone_words, "the removed list had words of its own"
        gone_terms = {stem(w) for w in gone_words} - {stem(w) for w in library.vocabulary}
        assert gone_terms
        expanded = {t for terms in library.prefix_table.values() for t in terms}
        for term in gone_terms:
            assert library.doc_frequency("text", term) == 0, term
            assert term not in expanded, term
            assert term not in dict(library.terms_starting("text", term[:4], 10_000)), term
            assert not search(library, term, limit=None, rescue=False).hits, term
        incremental = _answers(library, state)
    assert incremental == _full(files, tmp_path / "full", state)


def test_changing_a_list_in_a_shared_segment_analyses_it_alone(
        tmp_path: Path, analysed: list[str]) -> None:
    files, state = _library(tmp_path, 5)
    with open_library(files, str(tmp_path / "ix")) as library:
        old = [p for p in library.papers() if p.file == SOURCES[2]]
        state.set_read(old[-1].id, True)
        assert len(old) <= reuse.COMPACT_SHARE * len(library)  # not compacted
    analysed.clear()
    _cut(SOURCES[2], files[2].parent, slice(5, None))  # its first five papers dropped
    with open_library(files, str(tmp_path / "ix")) as library:
        assert analysed == [SOURCES[2]]
        # Written after the segment that held it, it is still listed where it was given.
        assert list(dict.fromkeys(p.file for p in library.papers())) == list(SOURCES)
        assert library.list_order != range(len(library))
        assert not library.docnums_of(p.id for p in old[:5])
        assert library.get(old[-1].id).file == SOURCES[2]
        assert [library.paper(d).id for d in library.docnums_of(state.read_ids())] == \
            [old[-1].id]
        incremental = _answers(library, state)
    assert incremental == _full(files, tmp_path / "full", state)


def test_a_segment_mostly_removed_is_built_again(tmp_path: Path, analysed: list[str]) -> None:
    """Compaction: removed papers above `COMPACT_SHARE` of a segment's rebuild it."""
    files, state = _library(tmp_path, 5)
    with open_library(files, str(tmp_path / "ix")) as library:
        counts = {str(s["file"]): int(s["papers"]) for s in library.lists}
    total, removed = sum(counts.values()), 0
    while len(files) > 1:
        analysed.clear()
        gone = files.pop(0)
        removed += counts[gone.name]
        with open_library(files, str(tmp_path / "ix")) as library:
            if removed > reuse.COMPACT_SHARE * total:
                assert analysed == [f.name for f in files]
                assert library.size == len(library)
                break
            assert analysed == []
            assert library.size == total
    else:
        raise AssertionError("never compacted")
    with open_library(files, str(tmp_path / "ix")) as library:
        incremental = _answers(library, state)
    assert incremental == _full(files, tmp_path / "full", state)


def test_a_list_given_back_after_its_removal_is_built_again(
        tmp_path: Path, analysed: list[str]) -> None:
    files, state = _library(tmp_path)
    removed = files.pop(1)
    open_library(files, str(tmp_path / "ix")).close()
    analysed.clear()
    files.insert(1, removed)
    with open_library(files, str(tmp_path / "ix")) as library:
        assert analysed == [removed.name]
        assert len(library.docnums_of(p.id for p in library.papers())) == len(library)
        incremental = _answers(library, state)
    assert incremental == _full(files, tmp_path / "full", state)


def test_the_first_screen_keeps_the_docnums_of_its_rows(tmp_path: Path) -> None:
    files, _ = _library(tmp_path)
    _cut(SOURCES[3], files[3].parent, slice(3, None))  # written after the others now
    seeds = [str(f) for f in files]
    screen = first_screen.look(seeds, str(tmp_path / "ix"))
    assert screen is not None and not screen.rows
    with open_library(files, str(tmp_path / "ix")) as library:
        first_screen.save(screen, library)
        found = first_screen.look(seeds, str(tmp_path / "ix"))
        assert found is not None and found.rows
        assert list(found.docnums) != list(range(len(found.docnums)))
        assert [(p.id, p.file) for p in found.rows] == \
            [(library.paper(d).id, library.paper(d).file) for d in found.docnums]


def test_the_command_line_shows_no_paper_of_a_removed_list(tmp_path: Path) -> None:
    files, _ = _library(tmp_path)
    with open_library(files, str(tmp_path / "ix")) as library:
        gone = [p for p in library.papers() if p.file == SOURCES[2]]
    files.pop(2)
    seeds = ["--seeds", *map(str, files)]
    listed = json.loads(run("list", "--json", *seeds, index_dir=str(tmp_path / "ix")).stdout)
    ids = {paper["id"] for paper in listed}
    with open_library(files, str(tmp_path / "ix")) as library:
        assert library.size > len(library)  # the segment was reused, not rebuilt
        assert ids == {p.id for p in library.papers()}
    assert not ids & {p.id for p in gone}
    for paper in gone[:3]:
        shown = run("show", paper.id, *seeds, index_dir=str(tmp_path / "ix"))
        assert shown.returncode == 1 and "Traceback" not in shown.stderr
        found = run("search", paper.title, "--json", "--limit", "500", *seeds,
                    index_dir=str(tmp_path / "ix"))
        assert found.returncode in (0, 1) and "Traceback" not in found.stderr
        hits = json.loads(found.stdout)["hits"] if found.stdout.strip() else []
        assert not {h["id"] for h in hits} & {p.id for p in gone}
    exported = run("export", "--format", "json", *seeds, index_dir=str(tmp_path / "ix"))
    assert {r["id"] for r in json.loads(exported.stdout)} == ids


def test_an_index_of_the_previous_format_is_rebuilt_cleanly(
        tmp_path: Path, analysed: list[str]) -> None:
    """An index whose meta predates removed lists (no `removed` in its blocks, an older
    schema) is neither opened nor reused: it is rebuilt, without a traceback."""
    files, _ = _library(tmp_path)
    with open_library(files, str(tmp_path / "ix")) as library:
        folder = library.index_path
        expected = [p.id for p in library.papers()]
    assert folder is not None
    meta_path = folder / "paperscope.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    meta["schema"] -= 1
    for block in meta["blocks"]:
        del block["removed"]
    meta_path.write_text(json.dumps(meta), encoding="utf-8")
    analysed.clear()
    with open_library(files, str(tmp_path / "ix")) as library:
        assert analysed == [f.name for f in files]
        assert [p.id for p in library.papers()] == expected


class _Segment:
    """What `mark_deleted` reads and writes of a Whoosh segment."""

    def __init__(self, count: int) -> None:
        self.count, self.deleted = count, set()

    def doc_count_all(self) -> int:
        return self.count

    def delete_document(self, docnum: int) -> None:
        self.deleted.add(docnum)


def test_removed_papers_are_deleted_in_the_segments_a_block_spans() -> None:
    """A block of two segments (a list cut in parts spans them) and a new block after it:
    list order follows the positions given, and each removed paper is deleted in its
    own segment, at its own docnum there."""
    from tui.core.index.removed import list_order, mark_deleted

    def summary(name: str, papers: int) -> dict[str, object]:
        return {"file": name, "papers": papers}

    spanning = reuse.Block([("a", "1"), ("b", "1"), ("c", "1")], ["s1", "s2"], 9, 0,
                           [summary("a", 2), summary("b", 4), summary("c", 3)], [1],
                           [0, None, 2])
    new = reuse.Block([("b", "2")], ["s3"], 3, 0, [summary("b", 3)], [], [1])
    order, dead, lists = list_order([spanning, new])
    assert list(order) == [0, 1, 9, 10, 11, 6, 7, 8]
    assert [i for i, gone in enumerate(dead) if gone] == [2, 3, 4, 5]
    assert [s["file"] for s in lists] == ["a", "b", "c"]
    segments = [_Segment(5), _Segment(4), _Segment(3)]
    mark_deleted(segments, dead)
    assert [s.deleted for s in segments] == [{2, 3, 4}, {0}, set()]


def test_the_plan_reuses_a_block_without_its_changed_list_until_compaction(
        tmp_path: Path) -> None:
    def block(counts: list[int]) -> reuse.Block:
        files = [(name, "1") for name in "abc"]
        return reuse.Block(files, ["s"], sum(counts), 3,
                           [{"file": n, "papers": c} for (n, _), c in zip(files, counts)])

    keys = [("a", "1"), ("b", "2"), ("c", "1")]  # b changed
    small = block([10, 2, 10])
    pieces = reuse.plan(keys, [1, 1, 1], reuse.Previous(tmp_path, [small]), 1)
    assert [(p.block is small, p.files, p.kept) for p in pieces] == \
        [(True, [0, 2], [0, 2]), (False, [1], [])]
    large = block([10, 10, 10])  # a third of it would be deleted: built again
    pieces = reuse.plan(keys, [1, 1, 1], reuse.Previous(tmp_path, [large]), 1)
    assert [(p.block, p.files) for p in pieces] == [(None, [0, 1, 2])]
