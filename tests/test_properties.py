"""Property tests: arbitrary queries and list files never raise; highlighting is exact."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from whoosh.lang.porter2 import exceptional_forms

from tests.conftest import SEEDS
from tui.core.index.analysis import iter_terms, iter_words, stem
from tui.core.lists.paragraphs import SeedError, parse_list, read_list
from tui.core.search.highlight import _RESHAPED, _words, match_spans
from tui.core.search.search import search

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


WORDS = st.text(alphabet="abcdeghiklnorstuyz", min_size=1, max_size=14)


@settings(max_examples=5000, deadline=None)
@given(word=st.one_of(WORDS, st.sampled_from(sorted(exceptional_forms))))
def test_a_term_starts_with_its_word_s_first_letters(word: str) -> None:
    # Highlighting stems only words whose first two letters start a query term (the
    # first letter, for terms of one or two letters), and Porter2's exceptions.
    term = stem(word)
    assert term[:1] == word[:1]
    assert term[:2] == word[:2] or len(term) <= 2 or word in _RESHAPED


def test_every_word_of_the_seeds_stems_as_highlighting_assumes() -> None:
    """The same, on every word of the bundled lists."""
    words = {word for path in SEEDS.glob("*.txt")
             for word, _, _ in iter_words(path.read_text(encoding="utf-8"))}
    assert len(words) > 1000
    wrong = [w for w in words if stem(w)[:2] != w[:2] and len(stem(w)) > 2
             and w not in _RESHAPED]
    assert not wrong


def test_words_rewritten_from_their_third_letter_on_are_highlighted() -> None:
    text = "They cry, flying, dying and aging at Ab."
    words = ["cry", "flying", "dying", "aging", "ab"]
    assert sorted(stem(w) for w in words) == ["ab", "age", "cri", "die", "fli"]
    found = match_spans(text, {stem(w) for w in words})
    assert [text[a:b] for a, b in found] == ["cry", "flying", "dying", "aging", "Ab"]


@settings(max_examples=300, deadline=None)
@given(text=st.lists(st.one_of(WORDS, st.sampled_from(
    ["τ²", "ℓₚ", "Ǆemal", "ﬁnding", "Über", "x_1", "ẞ", "-", " ", ".", "\n", "İstanbul",
     "the", "a" * 41, "_", "2x", "(", "n't"]),
    st.sampled_from(sorted(exceptional_forms))),
    max_size=40).map(" ".join),
    terms=st.sets(st.one_of(WORDS, st.sampled_from(["tau2", "lp", "find", "über", "x_1",
                                                    "the", "a" * 41, "2x"]),
                            st.sampled_from(sorted(map(stem, exceptional_forms)))),
                  min_size=1, max_size=6))
def test_match_spans_are_the_words_whose_term_is_asked_for(text: str, terms: set[str]) -> None:
    expected: list[tuple[int, int]] = []
    for term, start, end in iter_terms(text):  # every word stemmed, in text order
        if term in terms and (not expected or expected[-1] != (start, end)):
            expected.append((start, end))
    assert match_spans(text, terms) == expected


@settings(max_examples=300, deadline=None)
@given(text=st.lists(st.one_of(WORDS, st.sampled_from(
    ["–", "—", "’", "“", "”", "…", "×", "→", "·", "Ⓐ", "e\u0301", "\u00a0", "\u212a", "Dying", "AB", "x_1",
     "-", " ", ".", "\n", "the", "a" * 41, "2x", "n't"]),
    st.sampled_from(sorted(exceptional_forms))),
    max_size=40).map("".join),
    terms=st.sets(st.one_of(WORDS, st.sampled_from(["x_1", "the", "a" * 41, "2x", "e", "k", "ab"]),
                            st.sampled_from(sorted(map(stem, exceptional_forms)))),
                  min_size=1, max_size=6))
def test_a_text_whose_only_non_ascii_characters_are_not_of_words_is_highlighted_alike(
        text: str, terms: set[str]) -> None:
    """Dashes, quotes and the like take the ASCII path (the Kelvin sign, a letter that
    lower case makes ASCII, does not); the pieces run together, so that every boundary
    is tried."""
    test_match_spans_are_the_words_whose_term_is_asked_for.hypothesis.inner_test(text, terms)


def test_words_between_non_ascii_punctuation_are_highlighted_in_any_case() -> None:
    text = "Flying – DYING’s “Ab” × cafe\u0301…"
    looked_up = _words.cache_info()
    found = match_spans(text, {"fli", "die", "ab", "cafe"})
    assert [text[a:b] for a, b in found] == ["Flying", "DYING", "Ab", "cafe"]
    assert _words.cache_info() == looked_up, "its words were found one by one, in Python"


# Titles as they come: printable ASCII words and punctuation, with the characters the
# renderer reacts to mixed in often enough to be found.
TITLE_TEXT = st.lists(
    st.one_of(st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7e),
                      max_size=12),
              st.sampled_from(["--", "...", "'", '"', "``", "''", "\\&", "$x$", "http://a.b",
                               "www.x", "~", "<b>", "*a*", "_a_", "{A}", ". .", ":", "-"])),
    max_size=12).map(" ".join)


@settings(max_examples=2000, deadline=None)
@given(title=TITLE_TEXT)
def test_a_title_left_unrendered_is_what_the_renderer_would_give(title: str) -> None:
    from tui.core.lists.records import _RENDERED, clean_line, display_title
    from tui.core.render.text import render

    title = clean_line(title)
    if title and not _RENDERED.search(title):
        assert display_title(title) == clean_line(render(title).text)
