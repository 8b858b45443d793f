"""The reader's parts on their own: the virtual list at 50,000 rows, row labels, the
status line, the keymap file."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.style import Style
from textual.app import App, ComposeResult

from tui.app.keymap import load_keymap
from tui.app.widgets.paper_list import PaperList
from tui.app.widgets.paper_row import RowStyles, label_line, row_label
from tui.app.widgets.status import banner_text, status_text
from tui.core.model import Paper
from tui.core.search.hits import SearchResult


def _paper(n: int, name: str = "", title: str = "") -> Paper:
    return Paper(id=f"id{n}", list_title="Venue 2026 Papers", file="venue.txt", position=n,
                 name=name, title=title or f"Method{n}: a way to do thing number {n}",
                 raw=f"We propose Method{n}, a way to do thing number {n}.")


class _CountingHit:
    """A hit that records when its paper is loaded (the real one reads the index)."""

    def __init__(self, docnum: int, loaded: list[int]) -> None:
        self.docnum = docnum
        self._loaded = loaded

    @property
    def paper(self) -> Paper:
        self._loaded.append(self.docnum)
        return _paper(self.docnum, name=f"Method{self.docnum}")

    def snippet(self, width: int) -> tuple[str, list[tuple[int, int]]]:
        return f"… thing number {self.docnum} …", [(2, 7)]


class _ListApp(App[None]):
    def compose(self) -> ComposeResult:
        yield PaperList()


async def test_fifty_thousand_rows_load_only_the_visible_papers() -> None:
    loaded: list[int] = []
    hits = [_CountingHit(d, loaded) for d in range(50_000)]
    app = _ListApp()
    async with app.run_test(size=(80, 24)) as pilot:
        papers = app.query_one(PaperList)
        papers.show(hits, frozenset())  # type: ignore[arg-type]
        await pilot.pause()
        assert papers.virtual_size.height == 50_000
        assert set(loaded) == set(range(24))  # the visible rows, nothing more
        papers.focus()
        await pilot.press("end")
        await pilot.pause()
        assert papers.cursor == 49_999 and 49_999 in loaded
        assert len(set(loaded)) < 60
        await pilot.press("pageup")
        await pilot.pause()
        assert papers.cursor == 49_999 - papers.page_rows == 49_999 - 24
        # While searching a row has two lines: label and snippet.
        loaded.clear()
        papers.show(hits[:1000], frozenset({"thing"}))  # type: ignore[arg-type]
        await pilot.pause()
        assert papers.row_height == 2 and papers.virtual_size.height == 2000
        assert len(set(loaded)) <= 12
        assert papers.render_line(1).text.strip().startswith("… thing number")


@pytest.mark.parametrize(("name", "title", "head", "rest"), [
    ("Gecko", "Gecko: a stateful simulation", "Gecko", ": a stateful simulation"),
    ("SAG", "Sparse ActionGen for sparse actions", "SAG", " — Sparse ActionGen for sparse actions"),
    ("", "Upper bounds for known link functions for all p", "Upper bounds for known",
     " link functions for all p"),
    ("", "Dense retrieval: what works", "Dense retrieval", ": what works"),
    ("", "Short", "Short", ""),
])
def test_row_label(name: str, title: str, head: str, rest: str) -> None:
    assert row_label(_paper(1, name, title)) == (head, rest)


_STYLES = RowStyles(*(Style() for _ in range(6)))


@given(width=st.integers(min_value=1, max_value=200),
       title=st.text(min_size=1, max_size=120), name=st.sampled_from(["", "X", "超长名字"]))
def test_a_row_never_overflows_its_width(width: int, title: str, name: str) -> None:
    line = label_line(_paper(1, name, name + title), width, _STYLES)
    assert line.cell_len <= width


def test_status_line() -> None:
    paper = _paper(0)
    everything = SearchResult("", [object()] * 38, 38, elapsed_ms=4.2)  # type: ignore[list-item]
    assert status_text(everything, 38, paper) == "38 papers · list: Venue 2026 Papers · 4 ms"
    found = SearchResult("tool", [object()] * 12, 12, frozenset({"tool"}), elapsed_ms=4)  # type: ignore[list-item]
    assert status_text(found, 38, paper) == "12 of 38 papers · list: Venue 2026 Papers · 4 ms"
    cut = SearchResult("t", [object()] * 1000, 4213, elapsed_ms=9)  # type: ignore[list-item]
    assert status_text(cut, 50000, None, show_timings=False) == \
        "first 1,000 of 4,213 matches · 50,000 papers"


def test_banner() -> None:
    assert banner_text(SearchResult("", [], 0)) is None
    assert banner_text(SearchResult("tool", [object()], 1)) is None  # type: ignore[list-item]
    offered = banner_text(SearchResult("transfomer", [object()], 1, suggestion="transformer",  # type: ignore[list-item]
                                       fuzzy=True)).plain
    assert "did you mean “transformer”" in offered and "Enter" in offered
    assert banner_text(SearchResult("zzq", [], 0)).plain == "No papers match “zzq”."


def test_keymap_file_forms(tmp_path: Path) -> None:
    path = tmp_path / "keys.toml"
    path.write_text('[keymap]\n"list.down" = ["ctrl+n", "down"]\n"app.quit" = "ctrl+q, q"\n'
                    '"no.such" = "x"\n"list.up" = 3\n')
    loaded = load_keymap(path)
    assert loaded.keymap == {"list.down": "ctrl+n,down", "app.quit": "ctrl+q,q"}
    assert len(loaded.notices) == 2
    assert "no.such" in loaded.notices[0] and "list.up" in loaded.notices[1]
    path.write_text('"detail.next_match" = "f"\n')  # top-level form
    assert load_keymap(path).keymap == {"detail.next_match": "f"}


def test_missing_default_keymap_is_silent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PAPERSCOPE_KEYMAP")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    loaded = load_keymap()
    assert loaded.keymap == {} and loaded.notices == []
    assert loaded.path == tmp_path / "paperscope" / "keymap.toml"


# What structured lists add to a row, the detail pane and the copied reference ----------------

_TITLED = Paper(id="t1", list_title="aistats2019", file="aistats2019.json", position=4,
                name="IKL", title="Implicit Kernel Learning", raw="We propose IKL, a kernel.",
                titled=True, authors=("Chun-Liang Li", "Wei-Cheng Chang", "Youssef Mroueh"),
                year=2019, venue="AISTATS", link="https://example.org/ikl", doi="10.1/ikl")


def test_a_titled_row_leads_with_its_title_and_keeps_the_name_beside() -> None:
    from dataclasses import replace

    assert row_label(_TITLED) == ("Implicit Kernel Learning", " · IKL")
    named_in_title = replace(_TITLED, title="IKL: Implicit Kernel Learning")
    assert row_label(named_in_title) == ("IKL", ": Implicit Kernel Learning")


def test_year_and_first_author_show_where_the_width_allows() -> None:
    from tui.app.widgets.paper_row import short_byline

    assert short_byline(_TITLED) == "2019 · Li et al."
    assert short_byline(_paper(1)) == ""
    wide, narrow = (label_line(_TITLED, width, _STYLES).plain for width in (100, 40))
    assert "2019 · Li et al." in wide and "aistats2019" in wide
    assert "2019" not in narrow


def test_the_reference_and_the_detail_carry_authors_year_and_link() -> None:
    from tui.app.sharing import reference_text
    from tui.app.widgets.detail_text import DetailStyles, detail_text

    assert reference_text(_TITLED) == ("Implicit Kernel Learning\nIKL\nChun-Liang Li, "
                                      "Wei-Cheng Chang, Youssef Mroueh\nAISTATS, 2019\n"
                                      "aistats2019\nhttps://example.org/ikl\ndoi 10.1/ikl\n"
                                      "id t1\n")
    text, _ = detail_text(_TITLED, frozenset(), DetailStyles(*(Style() for _ in range(8))))
    lines = text.plain.splitlines()
    assert lines[2] == "Chun-Liang Li, Wei-Cheng Chang, Youssef Mroueh"
    assert lines[3] == "2019 · AISTATS" and "https://example.org/ikl" in lines
