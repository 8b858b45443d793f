"""A query is compiled once: cleaned, its filters and words taken out, parsed lazily."""

from __future__ import annotations

from whoosh import query as wq

from tui.core.index.schema import make_schema
from tui.core.search import query as query_module
from tui.core.search.query import compile_query, positive_terms

SCHEMA = make_schema()


def test_the_query_is_cleaned_and_split_once() -> None:
    compiled = compile_query("is:starred Gecko tool-use \udcff -slam diffu", SCHEMA, typing=True)
    assert compiled.typed == "is:starred Gecko tool-use \ufffd -slam diffu"
    assert compiled.filters == ("is:starred",)
    assert "is:starred" not in compiled.text and "NOT slam" in compiled.text
    assert compiled.words[:2] == ("gecko", "tool")
    assert compiled.last_word == "diffu"
    assert not compiled.structured
    assert compile_query("slam OR lidar", SCHEMA).structured
    assert compile_query("diffu", SCHEMA).last_word == ""  # submitted: a word as written


def test_each_form_is_parsed_once_with_a_parser_of_its_own(monkeypatch) -> None:
    made: list[bool] = []
    real = query_module.make_parser

    def counted(schema, group_and=True, *rest):
        made.append(group_and)
        return real(schema, group_and, *rest)

    monkeypatch.setattr(query_module, "make_parser", counted)
    compiled = compile_query("butterworth fusion -slam", SCHEMA)
    assert made == []  # nothing parsed until a form is asked for
    assert compiled.strict is compiled.strict
    assert compiled.loose is compiled.loose
    assert made == [True, False]


def test_the_any_word_form_still_excludes() -> None:
    loose = compile_query("butterworth fusion -slam", SCHEMA).loose
    assert isinstance(loose, wq.And)
    assert any(isinstance(part, wq.Not) for part in loose.subqueries)
    assert "slam" not in positive_terms(loose)
    assert {"butterworth", "fusion"} <= positive_terms(loose)


def test_a_query_the_parser_cannot_take_degrades_to_its_words(monkeypatch) -> None:
    class Broken:
        def parse(self, text):
            raise ValueError(text)

    monkeypatch.setattr(query_module, "make_parser", lambda *args: Broken())
    compiled = compile_query("gecko tools", SCHEMA)
    assert positive_terms(compiled.strict) >= {"gecko", "tool"}
