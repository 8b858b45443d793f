"""A typed prefix expands to the same terms whether the prefix table lists it or the
index's terms are read: the most frequent terms that start with it, exactly."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tui.core.index import sidedata, termtable
from tui.core.index.analysis import stem
from tui.core.index.library import open_library
from tui.core.index.sidefiles import PREFIX_FANOUT, SHORT_PREFIX, TERMS_FILE
from tui.core.index.termtable import TermTable
from tui.core.search import expand

SEEDS = Path(__file__).resolve().parent.parent / "seeds"


def test_long_prefixes_that_start_many_terms_have_a_row() -> None:
    df = Counter({f"trans{c}{d}": 1 + ord(d) % 5 for c in "abcdefgh" for d in "abcdefgh"})
    df.update({"tree": 3, "treat": 2})
    table = sidedata.prefix_table(df)
    assert set(table) >= {"t", "tr", "tra", "tre"}
    # 64 terms start with "tran" and "trans", 8 with each "transX": at a bound of 32,
    # only the first two are listed.
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sidedata, "PREFIX_SCAN", 32)
        table = sidedata.prefix_table(df)
    assert {p for p in table if len(p) > SHORT_PREFIX} == {"tran", "trans"}
    best = sorted(df, key=lambda t: (-df[t], t))[:PREFIX_FANOUT]
    assert table["trans"] == best


# The seeds hold ~1,400 terms, so a long prefix starts a handful of them: at a bound of
# 6 some are listed and some read (the first assert checks that both ways are tried).
@pytest.mark.parametrize("bound", [2, 6])
def test_expansions_are_the_most_frequent_terms_listed_or_not(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bound: int) -> None:
    monkeypatch.setattr(sidedata, "PREFIX_SCAN", bound)
    monkeypatch.setattr(expand, "PREFIX_SCAN", bound)
    with open_library([SEEDS], str(tmp_path / "ix"), rebuild=True) as lib:
        reader = lib.searcher.reader()
        df = {t.decode(): reader.doc_frequency("text", t) for t in reader.lexicon("text")}
        prefixes = sorted({t[:n] for t in df for n in range(SHORT_PREFIX + 1, len(t))
                           if t.isalpha()})
        listed = [p for p in prefixes if p in lib.prefix_table]
        read = [p for p in prefixes if p not in lib.prefix_table]
        assert listed and read  # both ways are tried
        for prefix in prefixes:
            best = sorted((t for t in df if t.startswith(prefix)),
                          key=lambda t: (-df[t], t))[:PREFIX_FANOUT]
            assert expand.expansions(lib, prefix) == list(dict.fromkeys([stem(prefix), *best]))


def test_the_term_table_is_the_index_s_text_terms_with_their_counts(tmp_path: Path) -> None:
    with open_library([SEEDS], str(tmp_path / "ix"), rebuild=True) as lib:
        reader = lib.searcher.reader()
        lexicon = [(t.decode(), reader.doc_frequency("text", t)) for t in reader.lexicon("text")]
        assert lib.text_terms is not None and len(lexicon) > 500
        assert lib.text_terms.starting("", len(lexicon) + 1) == lexicon
        for prefix in sorted({t[:n] for t, _ in lexicon for n in (1, 3, 5)}):
            held = [(t, df) for t, df in lexicon if t.startswith(prefix)]
            for scan in (1, 4, 10**6):
                assert lib.terms_starting("text", prefix, scan) == held[:scan]


def test_a_term_table_reads_back_what_was_written() -> None:
    counts = {"zeta": 2, "alpha": 5, "été": 1, "nul": 0, "a\u00e9": 3}
    table = TermTable.parse(termtable.encode(counts))
    assert table.starting("", 99) == [("alpha", 5), ("a\u00e9", 3), ("zeta", 2), ("été", 1)]
    assert table.starting("a", 1) == [("alpha", 5)]
    assert table.starting("b", 9) == []
    assert TermTable.parse(termtable.encode({})).starting("", 9) == []
    with pytest.raises(ValueError):
        TermTable.parse(termtable.encode(counts)[:-3] + b"\xff")
    with pytest.raises(ValueError):
        TermTable.parse(termtable.encode(counts)[:9])


def test_an_unreadable_term_table_falls_back_to_the_index(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table that cannot be read (the index's files otherwise whole) leaves the
    expansions as they were, read from the index, with a notice."""
    prefixes = ("trans", "netw", "optim", "learn", "zebr")
    with open_library([SEEDS], str(tmp_path / "ix"), rebuild=True) as lib:
        expected = [expand.expansions(lib, p) for p in prefixes]

    def unreadable(data: bytes) -> TermTable:
        raise ValueError("damaged")

    monkeypatch.setattr(TermTable, "parse", staticmethod(unreadable))
    with open_library([SEEDS], str(tmp_path / "ix")) as lib:
        assert [expand.expansions(lib, p) for p in prefixes] == expected
        assert lib.text_terms is None
        assert [n for n in lib.notices if TERMS_FILE in n and "\n" not in n]
