"""Export: every format is parsed back by an independent reader and compared with the input."""

from __future__ import annotations

import csv
import io
import json
import re
import tempfile
from pathlib import Path

import bibtexparser
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

from tui.core.export import FORMATS, export
from tui.core.model import Paper
from tui.core.render.text import render
from tui.core.state import StateStore


def rendered(raw: str) -> str:
    return render(raw).text


NASTY = [
    "plain",
    "{",
    "}",
    "}{",
    "{{{ unbalanced",
    "closing }}} only",
    "\\",
    "ends with a backslash \\",
    "\\{ escaped brace \\}",
    "\\textbf{bold} \\% \\\\ double",
    "100% of $5 & #1 a_b x^2 ~home",
    'quotes "double" \'single\' “curly” «guillemets»',
    "ünïcödé — naïve café 日本語 𝔘 🙂",
    "@misc{evil, title={x}}",
    "}, title = {injected",
    "a,b=c",
    "line one\nline two\n\n\nnew paragraph\r\nwindows\rmac",
    "   leading and trailing   ",
    "- list item\n+ plus\n1. ordered\n2) paren\n=====\n---\n***\n# heading\n> quote\n    code",
    "*em* _em_ **strong** `code` [link](http://x) ![img](y) <b>html</b> <http://auto>",
    "&amp; &#35; &copy; R&D | a | b | ~~strike~~",
    "tab\there\x00nul\x07bell\x7fdel",
    "",
]


def paper(n: int, text: str, name: str = "Name", paper_id: str | None = None) -> Paper:
    return Paper(
        id=paper_id or f"id{n:04d}",
        list_title=f"List {text}",
        file=f"{n:03d}_{text[:5]}.txt",
        position=n,
        name=name,
        title=f"Title {text}",
        raw=f"Abstract {text}",
    )


NASTY_PAPERS = [paper(n, text, name=text) for n, text in enumerate(NASTY)] + [
    paper(90, "math", paper_id="abc123", name=""),
    Paper("latex", "ICML 2026 Papers", "000.txt", 7, "GATS", "On $\\tau^2$-bench",
          "On BFCLv3 and $\\tau^2$-bench, GATS wins."),
]

# Stores here never save (autosave off, no save() call), so nothing is ever created.
_NEVER_WRITTEN = Path(tempfile.gettempdir()) / "paperscope-export-test-never-written" / "state.json"


def make_state(papers: list[Paper], seed: int, notes: list[str] | None = None) -> StateStore:
    """A store that is never written to disk, with some stars, reads and notes."""
    store = StateStore(_NEVER_WRITTEN, autosave=False)
    for n, p in enumerate(papers):
        if (n + seed) % 2:
            store.toggle_star(p.id)
        if (n + seed) % 3:
            store.set_read(p.id, True)
        if notes is not None:
            store.set_note(p.id, notes[n % len(notes)] if notes else "")
        elif (n + seed) % 4:
            store.set_note(p.id, f"note on {p.title}\nwith {{braces}} \\ and 100%")
    return store


# Hypothesis: any text but lone surrogates, which no decoded file can hold.
any_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
paper_lists = st.lists(
    st.builds(
        Paper,
        id=st.text("abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=12),
        list_title=any_text,
        file=any_text,
        position=st.integers(0, 10**6),
        name=any_text,
        title=any_text,
        raw=any_text,
    ),
    max_size=5,
    unique_by=lambda p: p.id,
)
examples = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# Normalisations that the Markdown and BibTeX writers promise -------------------------------

_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1b\x7f]")


def one_line(text: str) -> str:
    return " ".join(_CONTROL.sub("", text).split())


def paragraphs(text: str) -> list[str]:
    """Paragraphs of stripped, non-blank lines, each joined with newlines."""
    result: list[list[str]] = [[]]
    for line in text.splitlines():
        if one_line(line):
            result[-1].append(one_line(line))
        elif result[-1]:
            result.append([])
    return ["\n".join(lines) for lines in result if lines]


# JSON and CSV ----------------------------------------------------------------------------


def expected_rows(papers: list[Paper], state: StateStore | None) -> list[dict[str, object]]:
    rows = []
    for p in papers:
        row: dict[str, object] = {
            "id": p.id,
            "list": p.list_title,
            "file": p.file,
            "position": p.position,
            "name": p.name or None,
            "title": p.title,
            "text": rendered(p.raw),
            "authors": list(p.authors) or None,
            "year": p.year,
            "venue": p.venue or None,
            "link": p.link or None,
            "doi": p.doi or None,
        }
        if state is not None:
            row.update(
                starred=state.is_starred(p.id), read=state.is_read(p.id), note=state.note(p.id) or None
            )
        rows.append(row)
    return rows


def check_json(papers: list[Paper], state: StateStore | None) -> None:
    assert json.loads(export(papers, "json", state)) == expected_rows(papers, state)


def check_csv(papers: list[Paper], state: StateStore | None) -> None:
    rows = list(csv.reader(io.StringIO(export(papers, "csv", state), newline="")))
    expected = expected_rows(papers, state)
    header = ["id", "list", "file", "position", "name", "title", "text", "authors", "year",
              "venue", "link", "doi"]
    if state is not None:
        header += ["starred", "read", "note"]
    assert rows[0] == header
    def cell(value: object) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, list):
            return "; ".join(value)
        return "" if value is None else str(value)

    assert rows[1:] == [[cell(row[c]) for c in header] for row in expected]


# BibTeX ----------------------------------------------------------------------------------

_BIB_DECODE = {
    r"\textbackslash{}": "\\",
    r"\textbraceleft{}": "{",
    r"\textbraceright{}": "}",
    r"\textasciicircum{}": "^",
    r"\textasciitilde{}": "~",
    **{"\\" + c: c for c in "%&$#_"},
}
_BIB_ESCAPE = re.compile("|".join(re.escape(k) for k in _BIB_DECODE))


def parse_bib(text: str) -> bibtexparser.Library:
    """bibtexparser with no middleware, so that field values keep their braces as written."""
    return bibtexparser.parse_string(text, parse_stack=[])


def unbrace(value: str) -> str:
    assert value.startswith("{") and value.endswith("}"), value
    return value[1:-1]


def bib_decode(value: str) -> str:
    """Exact inverse of the writer's escaping of a ``{…}`` field value.

    Fails on anything left unescaped that BibTeX or LaTeX would act on.
    """
    inner = unbrace(value)
    leftover = _BIB_ESCAPE.sub("", inner)
    assert not set(leftover) & set("\\{}%&$#_^~"), inner
    return _BIB_ESCAPE.sub(lambda m: _BIB_DECODE[m.group()], inner)


def check_bib(papers: list[Paper], state: StateStore | None) -> None:
    library = parse_bib(export(papers, "bib", state))
    assert library.failed_blocks == []
    assert [e.key for e in library.entries] == [p.bibkey or p.id for p in papers]
    for entry, p in zip(library.entries, papers):
        assert entry.entry_type == ("inproceedings" if p.venue else "misc")
        fields = {f.key: f.value for f in entry.fields}
        note = state.note(p.id) if state is not None else ""
        given = {name for name, value in (("author", p.authors), ("year", p.year),
                                          ("booktitle", p.venue), ("url", p.link),
                                          ("doi", p.doi)) if value}
        assert set(fields) == {"title", "note", "abstract"} | given | (
            {"annote"} if one_line(note) else set())
        assert bib_decode(unbrace(fields["title"])) == one_line(p.title)  # {{…}} keeps the case
        assert bib_decode(fields["note"]) == one_line(p.list_title)
        assert bib_decode(fields["abstract"]) == one_line(rendered(p.raw))
        if one_line(note):
            assert bib_decode(fields["annote"]) == one_line(note)


def latex_reader() -> LatexNodes2Text:
    """pylatexenc, told what the \\text… commands print (as LaTeX's own definitions do)."""
    db = get_default_latex_context_db()
    db.add_context_category(
        "paperscope-test",
        prepend=True,
        macros=[
            MacroTextSpec("textbackslash", "\\"),
            MacroTextSpec("textbraceleft", "{"),
            MacroTextSpec("textbraceright", "}"),
            MacroTextSpec("textasciicircum", "^"),
            MacroTextSpec("textasciitilde", "~"),
        ],
    )
    return LatexNodes2Text(latex_context=db, math_mode="verbatim")


@pytest.mark.parametrize("text", [t for t in NASTY if "--" not in t and "''" not in t and "`" not in t])
def test_bibtex_reads_as_the_same_text_in_latex(text: str) -> None:
    """An independent LaTeX reader (pylatexenc) sees the original characters."""
    p = Paper("k", "list", "f.txt", 0, "", text, text)
    (entry,) = parse_bib(export([p], "bib")).entries
    decoded = latex_reader().latex_to_text(unbrace(entry.fields_dict["abstract"].value))
    assert " ".join(decoded.split()) == one_line(rendered(text))


def test_bibtex_keys_are_safe_and_unique() -> None:
    ids = ["same", "same", "we ird,{id}"]
    papers = [paper(n, "x", paper_id=paper_id) for n, paper_id in enumerate(ids)]
    library = parse_bib(export(papers, "bib"))
    assert library.failed_blocks == []
    assert [e.key for e in library.entries] == ["same", "same-2", "we-ird--id-"]


# Markdown --------------------------------------------------------------------------------


def inline_text(token) -> str:  # type: ignore[no-untyped-def]
    """The plain text of an inline token; any markup other than line breaks fails."""
    parts = []
    for child in token.children:
        assert child.type in ("text", "hardbreak"), (child.type, token.content)
        parts.append(child.content if child.type == "text" else "\n")
    return "".join(parts)


_PLAIN_BLOCK_TOKENS = {
    "heading_close", "paragraph_open", "paragraph_close", "list_item_open", "list_item_close", "inline"
}


def parse_markdown(doc: str) -> list[dict[str, object]]:
    """Read the export back with a CommonMark parser (markdown-it) into per-paper dicts."""
    tokens = MarkdownIt("commonmark").parse(doc)
    papers: list[dict[str, object]] = []
    current: dict[str, object] = {}
    where = "top"
    for n, token in enumerate(tokens):
        if token.type == "heading_open":
            heading = inline_text(tokens[n + 1])
            if token.tag == "h1":
                assert heading == "paperscope export"
                continue
            assert token.tag == "h2"
            current = {"title": heading, "facts": {}, "text": [], "note": []}
            papers.append(current)
        elif token.type in ("bullet_list_open", "blockquote_open"):
            where = "list" if token.type == "bullet_list_open" else "quote"
        elif token.type in ("bullet_list_close", "blockquote_close"):
            where = "top"
        elif token.type == "inline" and tokens[n - 1].type == "paragraph_open":
            if not papers:
                continue  # the count line
            children = [c.type for c in token.children]
            if where == "list":
                assert children[:4] == ["text", "strong_open", "text", "strong_close"], token.content
                key = token.children[2].content.rstrip(":")
                value = "".join(c.content for c in token.children[4:] if c.type == "text")
                assert all(c.type == "text" for c in token.children[4:])
                current["facts"][key] = value.lstrip(" ")  # type: ignore[index]
            elif where == "quote":
                current["note"].append(inline_text(token))  # type: ignore[union-attr]
            elif children == ["text", "strong_open", "text", "strong_close", "text"]:
                assert token.children[2].content == "Note:"
            else:
                current["text"].append(inline_text(token))  # type: ignore[union-attr]
        elif token.type not in _PLAIN_BLOCK_TOKENS:
            raise AssertionError(f"unexpected block {token.type} in {token.content!r}")
    return papers


def check_markdown(papers: list[Paper], state: StateStore | None) -> None:
    doc = export(papers, "md", state)
    parsed = parse_markdown(doc)
    assert len(parsed) == len(papers)
    for got, p in zip(parsed, papers):
        facts = {
            "List": one_line(p.list_title),
            "File": one_line(p.file),
            "Position": str(p.position),
            "Id": p.id,
        }
        if one_line(p.name):
            facts["Name"] = one_line(p.name)
        for label, value in (("Authors", ", ".join(p.authors)), ("Year", str(p.year or "")),
                             ("Venue", p.venue), ("Link", p.link), ("DOI", p.doi)):
            if one_line(value):
                facts[label] = one_line(value)
        if state is not None:
            facts["Starred"] = "yes" if state.is_starred(p.id) else "no"
            facts["Read"] = "yes" if state.is_read(p.id) else "no"
        assert got == {
            "title": one_line(p.title) or "(untitled)",
            "facts": facts,
            "text": paragraphs(rendered(p.raw)),
            "note": paragraphs(state.note(p.id)) if state is not None else [],
        }


# The tests -------------------------------------------------------------------------------

CHECKS = {"json": check_json, "csv": check_csv, "bib": check_bib, "md": check_markdown}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("with_state", [False, True], ids=["no-state", "state"])
def test_nasty_papers_round_trip(fmt: str, with_state: bool) -> None:
    state = make_state(NASTY_PAPERS, seed=1) if with_state else None
    CHECKS[fmt](NASTY_PAPERS, state)


@pytest.mark.parametrize("fmt", FORMATS)
@examples
@given(papers=paper_lists, seed=st.integers(0, 3), notes=st.none() | st.lists(any_text, max_size=3))
def test_any_papers_round_trip(
    fmt: str, papers: list[Paper], seed: int, notes: list[str] | None
) -> None:
    CHECKS[fmt](papers, make_state(papers, seed, notes) if notes is not None else None)


def test_empty_selection() -> None:
    assert json.loads(export([], "json")) == []
    assert export([], "bib") == ""
    header = ["id", "list", "file", "position", "name", "title", "text", "authors", "year",
              "venue", "link", "doi"]
    assert list(csv.reader(io.StringIO(export([], "csv")))) == [header]
    assert parse_markdown(export([], "md")) == []


def test_unknown_format() -> None:
    with pytest.raises(ValueError, match="md, json, bib, csv"):
        export([], "docx")


def test_markdown_reads_well() -> None:
    """A glance at the document a person gets, beyond what the parser checks."""
    doc = export(NASTY_PAPERS[-1:], "md", make_state(NASTY_PAPERS[-1:], seed=1))
    assert doc.startswith("# paperscope export\n\n1 paper.\n\n## On ")
    assert "- **Name:** GATS\n- **List:** ICML 2026 Papers\n" in doc
    assert "**Note:**\n\n> note on" in doc


# What structured lists add -----------------------------------------------------------------

STRUCTURED = Paper(
    "5a1e", "AISTATS 2019", "aistats2019.bib", 3, "VRTOS", "Proximal Splitting {Meets} 100%",
    "We propose VRTOS.", titled=True, authors=("Fabian Pedregosa", "Kilian Fatras"), year=2019,
    venue="Artificial Intelligence and Statistics", link="https://example.org/p?a=1&b=2",
    doi="10.1000/x_1", bibkey="pedregosa19a")


@pytest.mark.parametrize("fmt", FORMATS)
def test_structured_fields_round_trip(fmt: str) -> None:
    """Authors, year, venue, link and DOI survive every format, read back independently."""
    CHECKS[fmt]([STRUCTURED, NASTY_PAPERS[0]], None)


def test_bibtex_keeps_the_papers_own_key_and_fields() -> None:
    library = parse_bib(export([STRUCTURED, STRUCTURED], "bib"))
    assert library.failed_blocks == []
    assert [e.key for e in library.entries] == ["pedregosa19a", "pedregosa19a-2"]
    entry = library.entries[0]
    fields = {f.key: bib_decode(f.value) for f in entry.fields if f.key != "title"}
    assert entry.entry_type == "inproceedings"
    assert fields["author"] == "Fabian Pedregosa and Kilian Fatras"
    assert (fields["year"], fields["booktitle"]) == ("2019", STRUCTURED.venue)
    assert (fields["url"], fields["doi"]) == (STRUCTURED.link, STRUCTURED.doi)


def test_markdown_shows_the_structured_facts() -> None:
    (got,) = parse_markdown(export([STRUCTURED], "md"))
    facts = got["facts"]
    assert facts["Authors"] == "Fabian Pedregosa, Kilian Fatras"  # type: ignore[index]
    assert (facts["Year"], facts["Venue"]) == ("2019", STRUCTURED.venue)  # type: ignore[index]
    assert facts["DOI"] == STRUCTURED.doi  # type: ignore[index]
