"""A typed prefix expands to the same terms whether the prefix table lists it or the
index's terms are read: the most frequent terms that start with it, exactly."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tui.core.index import sidedata
from tui.core.index.analysis import stem
from tui.core.index.library import open_library
from tui.core.index.sidefiles import PREFIX_FANOUT, SHORT_PREFIX
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
