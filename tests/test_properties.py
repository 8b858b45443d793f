"""Property tests: arbitrary queries and arbitrary list files never raise."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tui.core.search import search
from tui.core.seeds import SeedError, parse_list, read_list

OPERATOR_SOUP = st.sampled_from(
    ['"', "(", ")", "AND", "OR", "NOT", "-", "*", "?", "name:", "title:", "list:", "text:",
     "id:", ":", "^", "~", "\\", "$", "{", "}", "[", "]", " ", "\x00", "\x1b", "τ²", "ℓₚ"])
QUERIES = st.one_of(
    st.text(max_size=200),
    st.lists(st.one_of(OPERATOR_SOUP, st.text(alphabet="abcdegilnorstuwxyz", max_size=8)),
             max_size=30).map(" ".join),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=QUERIES)
def test_any_query_returns_a_result(bundled_library, query: str) -> None:
    result = search(bundled_library, query)
    assert result.total >= len(result.hits)
    for hit in result.hits:
        assert hit.paper.id
        text, spans = hit.snippet(120)
        assert all(0 <= a < b <= len(text) for a, b in spans)


LIST_TEXT = st.one_of(
    st.text(max_size=2000),
    st.lists(st.text(min_size=1, max_size=300), max_size=20).map("\n\n".join),
    st.binary(max_size=500).map(lambda b: b.decode("utf-8", "replace")),
)


@settings(max_examples=200, deadline=None)
@given(text=LIST_TEXT)
def test_any_list_text_parses_or_raises_seed_error(text: str) -> None:
    try:
        plist = parse_list(text, Path("list.txt"))
    except SeedError as err:
        assert "\n" not in str(err)
        return
    assert plist.papers
    for paper in plist.papers:
        assert paper.raw.strip() and paper.id and "\n" not in paper.title


@settings(max_examples=100, deadline=None)
@given(data=st.binary(max_size=600))
def test_any_bytes_read_or_raise_seed_error(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.txt"
        path.write_bytes(data)
        try:
            read_list(path)
        except SeedError as err:
            assert "\n" not in str(err)
