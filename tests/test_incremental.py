"""A library that grows: adding, changing or removing a list analyses that list only,
and leaves an index that answers exactly as a build of every list from scratch would."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.material import abstracts_of, conference_lists
from tui.core.index import builder
from tui.core.index.analysis import stem
from tui.core.index.library import Library, open_library
from tui.core.index.sidefiles import name_key
from tui.core.naming.derive import derive_name
from tui.core.index import reuse
from tui.core.search.search import search

_LISTS = {path.name: path for path in conference_lists((59, 55, 46, 44, 20))}
SOURCES = tuple(_LISTS)
"""Five short conference lists, by file name (`tests/material.py`)."""
QUERIES = ("causal", "gaussian process", "markov chain monte carlo", "ne", "sto",
           "kernel methods", "bayes*", '"graphical models"', "neural network", "")

pytestmark = pytest.mark.shared_material


def _cut(source: str, folder: Path, keep: slice = slice(None)) -> Path:
    """A list made of `source`'s title and the paragraphs `keep` selects."""
    title, *papers = _LISTS[source].read_text(encoding="utf-8").split("\n\n")
    path = folder / source
    path.write_text("\n\n".join([title, *papers[keep]]), encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def fine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Small lists cut as a large library's are: a segment per list, up to the most a
    build of every list makes (unless a test asks for the defaults)."""
    if "defaults" not in request.keywords:
        monkeypatch.setattr(reuse, "SMALL_BYTES", 0)
        monkeypatch.setattr(reuse, "SEGMENT_BYTES", 1)


@pytest.fixture
def analysed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the list files each build parses, in order."""
    parsed: list[str] = []
    documents = builder._documents

    def counting(part, summary, vocab):
        parsed.append(part.path.name)
        return documents(part, summary, vocab)

    monkeypatch.setattr(builder, "_documents", counting)
    return parsed


def _segment_inodes(library: Library) -> dict[str, int]:
    folder = library.index_path
    assert folder is not None
    return {p.name: p.stat().st_ino for p in folder.iterdir() if p.name.startswith("MAIN_")
            and not p.name.endswith("WRITELOCK")}


def _answers(library: Library) -> dict[str, object]:
    """Everything a reader sees that depends on the index's content and order."""
    scorer = library.scorer
    out: dict[str, object] = {
        "papers": [(p.id, p.file, p.position, p.name, p.title) for p in library.papers()],
        "lists": [{k: v for k, v in s.items() if k != "path"} for s in library.lists],
        "prefixes": library.prefix_table,
        "terms": library.text_terms.starting("", 10**9),
        "vocabulary": library.vocabulary,
        "norms": {name: list(column) for name, column in scorer.norms.items()},
        "name order": list(library.name_order),
        "year order": list(library.year_order),
    }
    for query in QUERIES:
        result = search(library, query, limit=None)
        out[query] = [(h.docnum, round(h.score, 9)) for h in result.hits]
    return out


def _full(files: list[Path], root: Path) -> dict[str, object]:
    """The answers of a build of `files` from scratch, in a root of its own."""
    assert not root.exists()
    with open_library(files, str(root), rebuild=True) as library:
        return _answers(library)


def test_adding_a_list_analyses_it_alone(tmp_path: Path, analysed: list[str]) -> None:
    lists = tmp_path / "lists"
    lists.mkdir()
    files = [_cut(s, lists) for s in SOURCES[:3]]
    with open_library(files, str(tmp_path / "ix")) as library:
        before = _segment_inodes(library)
        first_ids = [p.id for p in library.papers()]
    analysed.clear()
    files.insert(2, _cut(SOURCES[3], lists))  # in the middle: docnums follow list order
    with open_library(files, str(tmp_path / "ix")) as library:
        assert analysed == [SOURCES[3]]
        after = _segment_inodes(library)
        reused = {n: i for n, i in after.items() if n in before}
        assert reused and reused == {n: before[n] for n in reused}, "linked, not rebuilt"
        assert len(after) > len(before)
        incremental = _answers(library)
        ids = [p.id for p in library.papers()]
    assert set(first_ids) <= set(ids) and len(ids) > len(first_ids)
    assert incremental == _full(files, tmp_path / "full")


def test_changing_a_list_analyses_it_alone(tmp_path: Path, analysed: list[str]) -> None:
    lists = tmp_path / "lists"
    lists.mkdir()
    files = [_cut(s, lists) for s in SOURCES[:4]]
    with open_library(files, str(tmp_path / "ix")) as library:
        kept = {p.id for p in library.papers() if p.file != SOURCES[1]}
    analysed.clear()
    _cut(SOURCES[1], lists, slice(5, None))  # its first five papers dropped
    with open_library(files, str(tmp_path / "ix")) as library:
        assert analysed == [SOURCES[1]]
        incremental = _answers(library)
        assert kept <= {p.id for p in library.papers()}
    assert incremental == _full(files, tmp_path / "full")


def test_removing_a_list_leaves_no_trace(tmp_path: Path, analysed: list[str]) -> None:
    from tui.core.state import StateStore

    lists = tmp_path / "lists"
    lists.mkdir()
    files = [_cut(s, lists) for s in SOURCES[:4]]
    state = StateStore(tmp_path / "state.json")
    with open_library(files, str(tmp_path / "ix")) as library:
        gone = [p for p in library.papers() if p.file == SOURCES[2]]
        staying = [p for p in library.papers() if p.file != SOURCES[2]]
        for paper in staying[::7]:
            state.set_read(paper.id, True)
        gone_words = set(library.vocabulary)
    analysed.clear()
    files.pop(2)
    with open_library(files, str(tmp_path / "ix")) as library:
        assert analysed == []
        incremental = _answers(library)
        assert len(library) == len(staying)
        assert not library.docnums_of(p.id for p in gone)
        # The words only the removed list had: gone from suggestions and prefixes.
        gone_words -= library.vocabulary
        assert gone_words, "the removed list had words of its own"
        expanded = {t for terms in library.prefix_table.values() for t in terms}
        staying_terms = {stem(w) for w in library.vocabulary}
        gone_terms = {stem(w) for w in gone_words if w.isalpha()} - staying_terms
        assert gone_terms
        for term in gone_terms:
            assert library.doc_frequency("text", term) == 0, term
            assert term not in expanded, term
        assert {p.id for p in library.papers() if state.is_read(p.id)} == \
            {p.id for p in staying[::7]}
    assert incremental == _full(files, tmp_path / "full")


def test_a_rebuild_reuses_nothing(tmp_path: Path, analysed: list[str]) -> None:
    lists = tmp_path / "lists"
    lists.mkdir()
    files = [_cut(s, lists) for s in SOURCES[:2]]
    open_library(files, str(tmp_path / "ix")).close()
    analysed.clear()
    open_library(files, str(tmp_path / "ix"), rebuild=True).close()
    assert analysed == [SOURCES[0], SOURCES[1]]


def test_segments_stay_few_as_lists_are_added_one_at_a_time(tmp_path: Path,
                                                            analysed: list[str]) -> None:
    cores = os.cpu_count() or 1
    lists = tmp_path / "lists"
    lists.mkdir()
    files: list[Path] = []
    for n in range(reuse.MOST_SEGMENTS + reuse.SLACK + 3):
        (lists / str(n)).mkdir()
        files.append(_cut(SOURCES[n % len(SOURCES)], lists / str(n), slice(n, n + 4)))
        analysed.clear()
        with open_library(files, str(tmp_path / "ix")) as library:
            most = reuse.max_segments(sum(f.stat().st_size for f in files), cores)
            assert len(library.searcher.reader().leaf_readers()) <= most
            assert len(library) == 4 * len(files)
        # The new list, and past the bound a few small neighbours, never all of them.
        assert analysed[-1] == files[-1].name
        assert len(files) == 1 or len(analysed) < len(files)
    assert _answers_of(files, tmp_path / "ix") == _full(files, tmp_path / "full")


def _answers_of(files: list[Path], root: Path) -> dict[str, object]:
    with open_library(files, str(root)) as library:
        return _answers(library)


def test_reused_files_are_the_same_inodes_when_nothing_else_changed(tmp_path: Path) -> None:
    lists = tmp_path / "lists"
    lists.mkdir()
    files = [_cut(s, lists) for s in SOURCES[:2]]
    with open_library(files, str(tmp_path / "ix")) as library:
        before = _segment_inodes(library)
    files.append(_cut(SOURCES[2], lists))
    with open_library(files, str(tmp_path / "ix")) as library:
        after = _segment_inodes(library)
    assert all(after[name] == inode for name, inode in before.items())
    assert os.listdir(tmp_path / "ix").count(library.index_path.name) == 1


def test_a_folder_of_lists_keeps_its_index_root_as_lists_are_added(tmp_path: Path) -> None:
    """Otherwise every new list would start an index root of its own, with nothing in
    it to reuse."""
    from tui.core.locations import lists_and_index_dirs

    lists = tmp_path / "lists"
    lists.mkdir()
    _cut(SOURCES[0], lists)
    files, roots = lists_and_index_dirs([lists], None)
    _cut(SOURCES[1], lists)
    more, roots_after = lists_and_index_dirs([lists], None)
    assert len(more) == len(files) + 1
    assert roots_after == roots
    other = tmp_path / "other"
    other.mkdir()
    _cut(SOURCES[0], other)
    assert lists_and_index_dirs([other], None)[1] != roots


@pytest.mark.defaults
def test_a_small_library_stays_one_segment_and_a_list_added_is_analysed_alone(
        tmp_path: Path, analysed: list[str]) -> None:
    """The default cut: lists of a few hundred kilobytes are one segment, as they were
    before builds reused anything (so their searches are as fast), and a list added
    to them still comes as a segment of its own."""
    lists = tmp_path / "lists"
    lists.mkdir()
    files = [_cut(s, lists) for s in SOURCES[:3]]
    with open_library(files, str(tmp_path / "ix")) as library:
        assert len(library.searcher.reader().leaf_readers()) == 1
    analysed.clear()
    files.append(_cut(SOURCES[3], lists))
    with open_library(files, str(tmp_path / "ix")) as library:
        assert analysed == [SOURCES[3]]
        assert len(library.searcher.reader().leaf_readers()) == 2
        incremental = _answers(library)
    with open_library(files, str(tmp_path / "full"), rebuild=True) as library:
        assert _answers(library) == incremental


@pytest.mark.defaults
def test_the_cut_grows_with_the_library_within_bounds() -> None:
    small, middle, large = reuse.SMALL_BYTES - 1, 24_000_000, 10 ** 12
    assert reuse.target_segments(small, 2) == 1
    assert reuse.target_segments(middle, 2) == max(2, -(-middle // reuse.SEGMENT_BYTES))
    assert reuse.target_segments(large, 2) == reuse.MOST_SEGMENTS
    assert all(reuse.max_segments(n, 2) == reuse.target_segments(n, 2) + reuse.SLACK
               for n in (small, middle, large))


def _jsonl(folder: Path, count: int) -> Path:
    """A JSON Lines list of `count` arXiv-shaped records, abstracts from the corpora."""
    import json

    paragraphs = abstracts_of(conference_lists((126,)))
    path = folder / "snapshot.jsonl"
    with open(path, "w", encoding="utf-8") as out:
        for n, text in enumerate(paragraphs[:count]):
            out.write(json.dumps({"id": f"2101.{n:05d}", "title": " ".join(text.split()[:8]),
                                  "authors": "A. Lovelace", "abstract": text,
                                  "update_date": "2021-01-1" + str(n % 10)}) + "\n")
    return path


def test_a_list_cut_across_segments_is_reused_whole(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A large JSON Lines file is cut into parts that workers write as segments of
    their own: the block holding it spans them, and is reused as one."""
    if (os.cpu_count() or 1) < 2:
        pytest.skip("a file is cut in one part per core")
    monkeypatch.setattr(builder, "_PARALLEL_BYTES", 1)  # cut even a small file
    lists = tmp_path / "lists"
    lists.mkdir()
    files = [_cut(SOURCES[0], lists, slice(0, 5)), _jsonl(lists, 200),
             _cut(SOURCES[1], lists, slice(0, 5))]
    with open_library(files, str(tmp_path / "ix")) as library:
        blocks = library.opened.meta["blocks"]

        def holding(name: str) -> dict:
            return next(b for b in blocks if any(f[0] == name for f in b["files"]))

        spanning, changed = holding("snapshot.jsonl"), holding(SOURCES[1])
        assert len(spanning["segments"]) > 1, "the JSON Lines file was cut"
        assert changed is not spanning
        before = _segment_inodes(library)
    _cut(SOURCES[1], lists, slice(1, 5))
    files.append(_cut(SOURCES[2], lists, slice(0, 5)))
    with open_library(files, str(tmp_path / "ix")) as library:
        after = _segment_inodes(library)
        kept = [n for n in before if n.split(".")[0] in spanning["segments"]]
        assert kept and all(after.get(n) == before[n] for n in kept)
        assert not any(n.split(".")[0] in changed["segments"] for n in after)
        incremental = _answers(library)
    assert incremental == _full(files, tmp_path / "full")


def test_a_large_json_lines_file_makes_as_many_segments_as_other_lists(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A snapshot alone is cut into the segments the same bytes of other lists would
    make (not one per core, which at 250,000 records made two segments four times
    the size of a paragraph library's), its papers still in file order."""
    if (os.cpu_count() or 1) < 2:
        pytest.skip("a file is cut in parts for worker processes")
    monkeypatch.setattr(builder, "_PARALLEL_BYTES", 1)  # cut even a small file
    lists = tmp_path / "lists"
    lists.mkdir()
    snapshot = _jsonl(lists, 200)
    cores = os.cpu_count() or 1
    with open_library([snapshot], str(tmp_path / "ix")) as library:
        (block,) = library.opened.meta["blocks"]
        expected = reuse.target_segments(snapshot.stat().st_size, cores)
        assert expected > cores
        assert len(block["segments"]) == expected
        assert [p.position for p in library.papers()] == list(range(len(library)))


def test_an_index_from_other_code_is_not_reused(tmp_path: Path, analysed: list[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from tui.core.index import opening

    lists = tmp_path / "lists"
    lists.mkdir()
    files = [_cut(s, lists) for s in SOURCES[:2]]
    open_library(files, str(tmp_path / "ix")).close()
    monkeypatch.setattr(opening, "code_digest", lambda: "another version")
    analysed.clear()
    files.append(_cut(SOURCES[2], lists))
    open_library(files, str(tmp_path / "ix")).close()
    assert analysed == [SOURCES[0], SOURCES[1], SOURCES[2]]


def test_a_previous_index_deleted_while_linked_gives_a_whole_build(
        tmp_path: Path, analysed: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process removing the previous index mid-build: the build is done again,
    with nothing to reuse."""
    import shutil

    lists = tmp_path / "lists"
    lists.mkdir()
    files = [_cut(s, lists) for s in SOURCES[:2]]
    open_library(files, str(tmp_path / "ix")).close()
    link_files = reuse.link_files
    calls: list[Path] = []

    def deleting(source: Path, target: Path, segment_ids: list[str]) -> None:
        calls.append(source)
        shutil.rmtree(source)
        link_files(source, target, segment_ids)

    monkeypatch.setattr(builder, "link_files", deleting)
    analysed.clear()
    files.append(_cut(SOURCES[2], lists))
    with open_library(files, str(tmp_path / "ix")) as library:
        assert len(calls) == 1
        assert analysed[-3:] == [SOURCES[0], SOURCES[1], SOURCES[2]]
        incremental = _answers(library)
    assert incremental == _full(files, tmp_path / "full")


def test_reordered_lists_are_reused_in_their_new_order(tmp_path: Path,
                                                       analysed: list[str]) -> None:
    """Docnums follow the order the lists are given in, whichever build wrote them."""
    lists = tmp_path / "lists"
    lists.mkdir()
    files = [_cut(s, lists) for s in SOURCES[:3]]
    open_library(files, str(tmp_path / "ix")).close()
    analysed.clear()
    files = [files[2], files[0], files[1]]
    with open_library(files, str(tmp_path / "ix")) as library:
        assert analysed == []
        assert [p.file for p in library.papers()[:1]] == [SOURCES[2]]
        incremental = _answers(library)
    assert incremental == _full(files, tmp_path / "full")


def test_a_table_of_contents_deleted_mid_build_gives_a_whole_build(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process wiping the index root while a build writes its segments: the
    segment writer finds no table of contents in the folder being built, and the build
    is done again rather than failing (Whoosh says EmptyIndexError, not FileNotFound)."""
    lists = tmp_path / "lists"
    lists.mkdir()
    files = [_cut(s, lists) for s in SOURCES[:2]]
    new_segment = builder._new_segment
    wiped: list[Path] = []

    def wiping(ix, *args, **kwargs):
        if not wiped:
            folder = Path(ix.storage.folder)
            for toc in folder.glob("*.toc"):
                toc.unlink()
                wiped.append(toc)
        return new_segment(ix, *args, **kwargs)

    monkeypatch.setattr(builder, "_new_segment", wiping)
    with open_library(files, str(tmp_path / "ix")) as library:
        assert wiped  # the first attempt did lose its table of contents
        whole = _answers(library)
    assert whole == _full(files, tmp_path / "full")


def test_a_build_by_workers_gives_what_one_in_process_gives(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers save their segments' records and the parent reads them back to make
    the side files; a build in one process merges its records as it made them. Both
    give the same index, and papers whose name keys are equal keep list order in the
    name order."""
    if (os.cpu_count() or 1) < 2:
        pytest.skip("workers run one per core")
    import json

    lists = tmp_path / "lists"
    lists.mkdir()
    files = [_cut(SOURCES[0], lists, slice(0, 5)), _jsonl(lists, 120)]
    # Three titles only, in two spellings: many papers share each name key.
    titles = ["Sparse Coding", "SPARSE CODING", "Kernel Methods", "Deep Nets"]
    shared = lists / "shared.jsonl"
    with open(files[1], encoding="utf-8") as source, open(shared, "w", encoding="utf-8") as out:
        records = [json.loads(line) for line in source]
        # The papers named by their abstracts sort by those names: keep the others.
        for n, record in enumerate(r for r in records if not derive_name(r["abstract"])):
            record["title"] = titles[n % len(titles)]
            out.write(json.dumps(record) + "\n")
    files[1].unlink()
    files[1] = shared
    monkeypatch.setattr(builder, "_PARALLEL_BYTES", 1)
    with open_library(files, str(tmp_path / "workers")) as library:
        assert len(library.opened.meta["blocks"][-1]["segments"]) > 1, "workers wrote it"
        by_workers = _answers(library)
        rank = library.list_rank
        keys = [name_key(library.paper(d).name, library.paper(d).title)
                for d in library.name_order]
        assert keys == sorted(keys)
        runs = [[rank[d] for d, k in zip(library.name_order, keys) if k == key]
                for key in set(keys)]
        assert any(len(run) > 20 for run in runs)
        assert all(run == sorted(run) for run in runs), "equal keys keep list order"
    monkeypatch.setattr(builder, "_PARALLEL_BYTES", 10**12)
    assert _full(files, tmp_path / "in-process") == by_workers
