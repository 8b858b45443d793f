"""Structured paper lists: JSON, JSON Lines, BibTeX and CSV, as shipped and as broken.

The real files are read from ../shared/formats/; the other shapes (arXiv's JSON Lines,
OpenReview's notes, CSV, broken variants) are built from them in temporary folders.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tui.core.lists.records import clean_abstract
from tui.core.model import Paper
from tui.core.render.text import render
from tui.core.lists.paragraphs import SeedError, read_list
from tests.material import external, needs

AISTATS_JSON = external("formats", "aistats2019.json")
AISTATS_BIB = external("formats", "aistats2019_pmlr_excerpt.bib")

needs_material = needs("formats", "aistats2019.json", why="a real list as its publisher ships it")


def records() -> list[dict[str, object]]:
    return json.loads(AISTATS_JSON.read_text(encoding="utf-8"))


def write(folder: Path, name: str, content: str | bytes) -> Path:
    path = folder / name
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return path


def titles(papers: tuple[Paper, ...]) -> list[str]:
    return [p.title for p in papers]


# The real files ----------------------------------------------------------------------------


@needs_material
@needs("corpora", "aistats2019.txt", why="the same list as paragraphs")
def test_json_gives_the_paragraph_lists_abstracts_ids_titles_and_authors() -> None:
    """aistats2019.txt holds these abstracts with whitespace collapsed and control
    characters dropped, leaving out those under 100 characters and repeats."""
    from_json = read_list(AISTATS_JSON)
    from_txt = read_list(external("corpora", "aistats2019.txt"))
    seen: set[str] = set()
    kept = []
    for paper in from_json.papers:
        if len(paper.raw) >= 100 and paper.raw not in seen:
            seen.add(paper.raw)
            kept.append(paper)
    assert [p.raw for p in kept] == [p.raw for p in from_txt.papers]
    assert [p.id for p in kept] == [p.id for p in from_txt.papers]
    assert len(from_json.papers) == len(records())
    for paper, record in zip(from_json.papers, records()):
        assert paper.titled
        assert paper.title == " ".join(render(str(record["title"])).text.split())
        assert paper.authors == tuple(a.strip() for a in str(record["author"]).split(";"))
        assert paper.link == record["site"]
        assert paper.source_id == record["id"]
        assert paper.year == 2019  # from the file's name: the records give none


@needs_material
def test_publishers_bibtex_is_read_with_its_header_and_latex() -> None:
    plist = read_list(AISTATS_BIB)
    assert len(plist.papers) == 81 and plist.notices == ()
    # The @Proceedings header names the list and gives every paper its venue and year.
    assert plist.title == "The 22nd International Conference on Artificial Intelligence and Statistics"
    assert {(p.year, p.venue) for p in plist.papers} == {(2019, plist.title)}
    by_key = {p.bibkey: p for p in plist.papers}
    assert by_key["letarte19a"].authors == ("Gaël Letarte", "Emilie Morvant", "Pascal Germain")
    assert "Umut Güçlü" in by_key["ambrogioni19a"].authors
    assert by_key["pedregosa19a"].title == "Proximal Splitting Meets Variance Reduction"
    assert by_key["pedregosa19a"].name == "VRTOS"  # still derived from the abstract
    # The raw 0x0E that PDF extraction left is dropped, as from a paragraph list.
    assert all("\x0e" not in p.raw for p in plist.papers)
    assert any("network flows" in p.raw for p in plist.papers)


@needs_material
def test_the_same_paper_from_json_and_bibtex_shares_its_id() -> None:
    bib = {p.title.casefold(): p.id for p in read_list(AISTATS_BIB).papers}
    json_ids = {p.title.casefold(): p.id for p in read_list(AISTATS_JSON).papers}
    shared = set(bib) & set(json_ids)
    assert len(shared) == 81
    bib_raw = {p.title.casefold(): p.raw for p in read_list(AISTATS_BIB).papers}
    json_raw = {p.title.casefold(): p.raw for p in read_list(AISTATS_JSON).papers}
    # The two sources spell a few abstracts differently (’ for ', LaTeX accents): the
    # ids agree exactly where the text does.
    assert all((bib[t] == json_ids[t]) == (bib_raw[t] == json_raw[t]) for t in shared)
    assert sum(bib[t] == json_ids[t] for t in shared) > 60


# BibTeX as written by hand --------------------------------------------------------------------

HAND_BIB = r"""% A comment line before anything.
@string{icml = "International Conference on Machine Learning"}
@comment{ignored entirely}
@Proceedings{conf, title = {Kernel Days 2017}, year = 2017}
@inproceedings{areS,
  title = {{AR}e{S}: Actionable Recourse -- Summaries},
  author = {Sch{\"o}lkopf, Bernhard and {\O}stergaard, Jan and Doe, Jr., John},
  booktitle = icml,
  year = {2018},
  abstract = {We propose AReS, pages 1--10 --- with $a--b$ intact.},
  doi = {10.1/x}
}
@article{broken, title = {Never closed
@misc{titleonly, title = {A Title Without Abstract}, crossref = {conf}}
@misc{nothing, note = {neither title nor abstract}}
"""


def test_bibtex_latex_strings_comments_and_broken_entries(tmp_path: Path) -> None:
    plist = read_list(write(tmp_path, "hand.bib", HAND_BIB))
    assert plist.title == "Kernel Days 2017"
    ares, title_only = plist.papers
    assert ares.title == "AReS: Actionable Recourse – Summaries"
    assert ares.authors == ("Bernhard Schölkopf", "Jan Østergaard", "John Doe Jr.")
    assert ares.venue == "International Conference on Machine Learning"
    assert (ares.year, ares.doi, ares.bibkey, ares.source_id) == (2018, "10.1/x", "areS", "areS")
    assert "pages 1–10 — with $a--b$ intact" in ares.raw
    # No abstract: listed by its title, with an id from its key; the crossref gives the year.
    assert (title_only.title, title_only.raw, title_only.year) == (
        "A Title Without Abstract", "", 2017)
    assert title_only.id != ares.id and len(title_only.id) == len(ares.id)
    assert any("skipped 1 broken entry (at line 13)" in n for n in plist.notices)
    assert any("skipped 1 record with neither title nor abstract" in n for n in plist.notices)


# JSON Lines in arXiv's shape ------------------------------------------------------------------


def arxiv_lines(count: int = 40) -> list[str]:
    lines = []
    for n, record in enumerate(records()[:count]):
        authors = [a.strip() for a in str(record["author"]).split(";")]
        lines.append(json.dumps({
            "id": f"19{n:02d}.{n:05d}", "submitter": authors[0], "title": record["title"],
            "authors": ", ".join(authors[:-1]) + (" and " if len(authors) > 1 else "")
                       + authors[-1],
            "abstract": "  " + str(record["abstract"]).replace(". ", ".\n  ") + "\n",
            "categories": "cs.LG stat.ML", "doi": None, "update_date": "2019-03-0%d" % (n % 9 + 1),
        }))
    return lines


@needs_material
def test_arxiv_json_lines(tmp_path: Path) -> None:
    lines = arxiv_lines()
    path = write(tmp_path, "arxiv.jsonl", "\n".join(lines) + "\n")
    plist = read_list(path)
    from_json = read_list(AISTATS_JSON).papers[:40]
    assert [p.id for p in plist.papers] == [p.id for p in from_json]  # same abstracts
    assert [p.authors for p in plist.papers] == [p.authors for p in from_json]
    first = plist.papers[0]
    assert first.year == 2019 and first.keywords == ("cs.LG", "stat.ML")
    assert first.link == "https://arxiv.org/abs/1900.00000"
    assert plist.notices == ()


@needs_material
def test_bad_json_lines_are_counted_and_the_rest_read(tmp_path: Path) -> None:
    lines = arxiv_lines(10)
    lines[2] = lines[2][:-5]           # cut short
    lines[6] = '["not", "an", "object"]'
    lines.insert(8, "\x00\x00\x00")    # NUL bytes
    lines.insert(4, "")                # blank lines are no records
    plist = read_list(write(tmp_path, "some.ndjson", "\n".join(lines)))
    assert len(plist.papers) == 8
    assert plist.notices == (f"{tmp_path / 'some.ndjson'}: skipped 3 lines that are not "
                             "JSON objects (first at line 3)",)


def test_a_huge_line_is_skipped_without_being_held(tmp_path: Path) -> None:
    from tui.core.lists import jsonlists

    good = json.dumps({"title": "Small", "abstract": "We propose Tiny, a small model."})
    huge = '{"title": "' + "x" * (jsonlists.MAX_LINE_BYTES + 10) + '"}'
    plist = read_list(write(tmp_path, "big.jsonl", f"{good}\n{huge}\n{good}\n"))
    assert titles(plist.papers) == ["Small", "Small"]
    assert "skipped 1 line longer than 16 MB (at line 2)" in plist.notices[0]


def test_json_lines_are_read_as_a_stream(tmp_path: Path) -> None:
    """The builder's reader yields a paper before the file's end is read."""
    from tui.core.lists.reader import open_list

    path = write(tmp_path, "s.jsonl", json.dumps({"title": "First", "abstract": "We do A."})
                 + "\n" + '{"broken\n' * 3)
    stream = open_list(path)
    assert next(stream.papers).title == "First"
    assert stream.notices == []  # the bad lines after it are not read yet
    assert list(stream.papers) == [] and "skipped 3" in stream.notices[0]



def test_a_paragraph_list_is_read_as_a_stream(tmp_path: Path, monkeypatch) -> None:
    """The builder's reader makes each paper of a paragraph list when it is asked for,
    so that the abstract it renders for the paper is still remembered when the index
    renders it: a list of more papers than the renderer remembers was rendered twice."""
    from tui.core.lists import paragraphs
    from tui.core.lists.reader import open_list

    path = write(tmp_path, "p.txt", "Some Papers\n\n" + "".join(
        f"We propose method number {n} for things.\n\n" for n in range(50)))
    whole = read_list(path).papers
    made = []
    real = paragraphs.make_paper
    monkeypatch.setattr(paragraphs, "make_paper", lambda *a, **k: made.append(a) or real(*a, **k))
    stream = open_list(path)
    first = next(stream.papers)
    assert (stream.title, len(made)) == ("Some Papers", 1)
    assert (first, *stream.papers) == whole


@pytest.mark.parametrize("text", ["a  b", " \t a\nb \x85", "\u3000x\u2003\u2028y\x1c\x0b",
                                  "", "   ", "\xa0\xa0", "one"])
def test_one_line_is_the_whitespace_collapse_it_replaces(text: str) -> None:
    """`one_line` joins `str.split()`'s words: the same as substituting `\\s+` with a
    space and stripping, for every whitespace character Unicode has."""
    import re
    import sys

    from tui.core.lists.papers import one_line

    spaces = "".join(c for c in map(chr, range(sys.maxunicode + 1)) if re.fullmatch(r"\s", c))
    for value in (text, text + spaces + text, spaces + "x" + spaces):
        assert one_line(value) == re.sub(r"\s+", " ", value).strip()


# JSON documents --------------------------------------------------------------------------------


def test_openreview_notes(tmp_path: Path) -> None:
    notes = {"notes": [
        {"id": "aB3", "forum": "aB3", "cdate": 1695000000000, "pdate": 1714000000000, "content": {
            "title": {"value": "Spiking $\\ell_1$ Networks"},
            "abstract": {"value": "We propose SpikeNet, a spiking network."},
            "authors": {"value": ["Ann Lee", "Bo Chen"]},
            "keywords": {"value": ["spiking", "sparsity"]},
            "venue": {"value": "ICLR 2024 poster"}}},
        {"id": "cD4", "content": {"title": "Old API title", "abstract": "Plain strings."}},
    ]}
    plist = read_list(write(tmp_path, "iclr.txt", json.dumps(notes)))  # JSON in a .txt
    first, second = plist.papers
    assert first.title == "Spiking ℓ₁ Networks" and first.authors == ("Ann Lee", "Bo Chen")
    assert (first.venue, first.year) == ("ICLR 2024 poster", 2024)
    assert first.link == "https://openreview.net/forum?id=aB3"
    assert first.keywords == ("spiking", "sparsity") and first.source_id == "aB3"
    assert second.title == "Old API title" and second.venue == "iclr"


def test_malformed_json_names_file_line_and_column(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.json", '[\n  {"title": "A",\n   "abstract" "B"}\n]')
    with pytest.raises(SeedError) as caught:
        read_list(path)
    assert str(caught.value) == f"{path}:3:15: malformed JSON: Expecting ':' delimiter"


@pytest.mark.parametrize("content, found", [
    ('["a", "b", "c"]', "found an array of 3 strings"),
    ("[]", "found an empty array"),
    ('{"count": 3, "names": ["x"]}', "found an object with keys count, names"),
    ("42", "found a single number"),
])
def test_json_without_records_says_what_it_found(tmp_path: Path, content: str,
                                                 found: str) -> None:
    with pytest.raises(SeedError, match=f"no paper records in this JSON: {found}"):
        read_list(write(tmp_path, "x.json", content))


def test_deep_nesting_and_bad_bytes_get_one_line(tmp_path: Path) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(SeedError, match="nested too deeply"):
        read_list(write(tmp_path, "deep.json", deep))
    with pytest.raises(SeedError, match=r"nul.json:1:\d+: malformed JSON: Invalid control"):
        read_list(write(tmp_path, "nul.json", '[{"title": "a\x00b"}]'))
    with pytest.raises(SeedError, match="UTF-16 text, expected UTF-8"):
        read_list(write(tmp_path, "u16.json", '[{"title": "x"}]'.encode("utf-16")))
    with pytest.raises(SeedError, match=r"latin.json:1:13: not UTF-8 text \(byte 0xe9\)"):
        read_list(write(tmp_path, "latin.json", '[{"title": "\xe9"}]'.encode("latin-1")))


def test_bom_and_records_without_abstract_or_title(tmp_path: Path) -> None:
    data = [{"title": "Only a title", "doi": "10.5/abc"}, {"abstract": "We propose X."},
            {"venue": "nothing else"}, {"title": "   "}]
    plist = read_list(write(tmp_path, "b.json", b"\xef\xbb\xbf" + json.dumps(data).encode()))
    only_title, only_abstract = plist.papers
    assert only_title.raw == "" and only_title.link == "https://doi.org/10.5/abc"
    assert only_abstract.titled is False and only_abstract.title  # derived, as ever
    assert plist.notices == (f"{tmp_path / 'b.json'}: skipped 2 records with neither title "
                             "nor abstract (first at record 3)",)
    # The id of a title-only paper comes from its source id: stable across files.
    again = read_list(write(tmp_path, "c.json", json.dumps([data[0]])))
    assert again.papers[0].id == only_title.id


def test_a_list_of_nothing_usable_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(SeedError, match="no papers in this list .skipped 2 records"):
        read_list(write(tmp_path, "e.json", '[{"x": 1}, {"y": 2}]'))


# CSV and TSV -------------------------------------------------------------------------------------


def test_csv_with_header_authors_and_a_wrong_row(tmp_path: Path) -> None:
    content = ('Title,Abstract,Authors,Year,URL\n'
               '"Kernels, again","We propose KernelNet.\nTwo lines.","Lee, Ann; Chen, Bo",2017,'
               'https://x.org/1\n'
               'Short row,only two\n'
               'Second,"We study things.",Cara Diaz and Dan Ek,2019-05-01,\n')
    plist = read_list(write(tmp_path, "list.csv", content))
    first, second = plist.papers
    assert first.title == "Kernels, again" and first.raw == "We propose KernelNet. Two lines."
    assert first.authors == ("Ann Lee", "Bo Chen") and first.year == 2017
    assert second.authors == ("Cara Diaz", "Dan Ek") and second.year == 2019
    assert plist.notices == (f"{tmp_path / 'list.csv'}: skipped 1 row with the wrong number "
                             "of fields (at line 4)",)


def test_tsv_is_detected_in_a_txt(tmp_path: Path) -> None:
    plist = read_list(write(tmp_path, "t.txt", "title\tabstract\nA\tWe propose A.\n"))
    assert titles(plist.papers) == ["A"] and plist.papers[0].raw == "We propose A."


def test_csv_without_title_or_abstract_names_its_columns(tmp_path: Path) -> None:
    with pytest.raises(SeedError, match="no title or abstract column .*'name', 'score'"):
        read_list(write(tmp_path, "x.csv", "name,score\na,1\n"))


# Paragraph lists stay as they were ----------------------------------------------------------------


@pytest.mark.parametrize("first", ["{\\em Deep} nets are deep.", "[1] We propose A.",
                                   "@ the start, we propose B.", "title, abstract"])
def test_paragraph_lists_that_look_a_little_structured(tmp_path: Path, first: str) -> None:
    path = write(tmp_path, "p.txt", f"My List\n\n{first}\n\nWe propose C, a method.\n")
    plist = read_list(path)
    assert plist.title == "My List" and len(plist.papers) == 2
    assert plist.papers[0].raw == clean_abstract(first)
    assert not plist.papers[0].titled and plist.papers[0].authors == ()


# A large JSON Lines file is indexed in parts, side by side ------------------------------------


@needs_material
def test_a_large_json_lines_file_is_indexed_in_parts(tmp_path: Path) -> None:
    from tui.core.index.builder import _PARALLEL_BYTES
    from tui.core.index.library import open_library
    from tui.core.lists.parts import split_parts

    lines = []
    for n, record in enumerate(records() * 3):
        record = {**record, "title": f"{n:04d} {record['title']}"}
        lines.append(json.dumps(record) if n not in (7, 900) else "{broken")
    path = write(tmp_path, "big.jsonl", "\n".join(lines) + "\n")
    assert path.stat().st_size >= _PARALLEL_BYTES
    parts = split_parts([path], 2, _PARALLEL_BYTES)
    assert len(parts) == 2 and parts[0].stop == parts[1].start and parts[1].first_line > 2
    with open_library([path], str(tmp_path / "ix")) as library:
        papers = library.papers()
        assert len(papers) == len(lines) - 2
        # List order and positions (a JSON Lines record's line) run on across the parts.
        assert [p.position for p in papers] == [n for n in range(len(lines)) if n not in (7, 900)]
        assert all(p.title.startswith(f"{p.position:04d} ") for p in papers)
        assert library.lists == [{"title": "big", "file": "big.jsonl", "path": str(path),
                                  "papers": len(papers),
                                  "notices": [f"{path}: skipped 2 lines that are not JSON "
                                              "objects (first at line 8)"]}]
