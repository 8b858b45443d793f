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


def test_plain_words_are_built_as_the_parser_builds_them() -> None:
    """The fast path for plain words (`parse_plain`) gives the parser's own query: the
    same terms, fields, boosts and shape, over every field set a policy chooses, all
    words and any word, for words each field's analyzer treats its own way (stop words,
    digits, underscores, accents, other scripts, capitals, repeats)."""
    import random

    from tui.core.search.query import make_parser, parse_plain, plain_words

    vocabulary = ["graph", "neural", "networks", "the", "of", "and", "not", "or", "a",
                  "2019", "x2", "resnet50", "GPT4o", "semi_supervised", "_x", "naïve",
                  "Über", "学习", "ℝ", "ﬁne", "ABFNet", "learning", "learn", "butterworth",
                  "I", "s", "e2e", "Transformers", "it", "was", "x_", "__", "a1b2c3"]
    rng = random.Random(17)
    seen_fields = set()
    for _ in range(400):
        text = " ".join(rng.choice(vocabulary) for _ in range(rng.randint(1, 6)))
        for typing in (False, True):
            compiled = compile_query(text + rng.choice(["", "  ", "?"]), SCHEMA, typing)
            fields = compiled.policy.fields
            seen_fields.add(tuple(fields))
            words = plain_words(compiled.text)
            assert words is not None, compiled.text
            for group_and in (True, False):
                parser = make_parser(SCHEMA, group_and, fields)
                assert parse_plain(parser, words, group_and, fields) == \
                    parser.parse(compiled.text), (compiled.text, group_and)
    assert len(seen_fields) > 1  # more than one policy's fields were tried


def test_only_words_alone_take_the_fast_path() -> None:
    from tui.core.search.query import plain_words

    assert plain_words(" graph  neural ") == ["graph", "neural"]
    for text in ("graph AND neural", "NOT graph", "title:graph", '"graph neural"',
                 "graph*", "gra?h", "(graph)", "graph -neural", "graph OR", "", "  "):
        assert plain_words(text) is None, text


def test_a_parser_is_made_once_per_schema_grouping_and_fields() -> None:
    from tui.core.search.query import make_parser, parse_plain

    fields = {"name": 2.0, "text": 1.0}
    parser = make_parser(SCHEMA, True, fields)
    assert make_parser(SCHEMA, True, dict(fields)) is parser
    assert make_parser(SCHEMA, False, fields) is not parser
    assert make_parser(SCHEMA, True, {"text": 1.0}) is not parser
    assert make_parser(make_schema(), True, fields) is not parser  # another schema
    # The analyses kept for the schema give what the parser gives, the second time too.
    for _ in range(2):
        assert parse_plain(parser, ["Graph", "the", "networks"], True, fields) == \
            parser.parse("Graph the networks")
