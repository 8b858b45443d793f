"""From the string a user typed to a Whoosh query, forgiving every mistake.

The query language: plain words (stemmed, all required first), "quoted phrases",
AND / OR / NOT, `-word`, the field prefixes `name:`, `title:`, `list:`, `text:`, `id:`,
and `word*` wildcards. The last word is also a prefix while it is being typed.
Malformed input never raises: the parser is given a cleaned string, and if Whoosh still
fails the query degrades to its plain words.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from whoosh import qparser, query as wq
from whoosh.fields import Schema

from tui.core.index.analysis import fold, stem, terms
from tui.core.index.schema import FIELD_BOOSTS, QUERY_FIELDS
from tui.core.search.fields import expand_year_ranges, loose_with_filters
from tui.core.search.filters import split_filters
from tui.core.search.policy import Policy, policy_for

MAX_QUERY_CHARS = 1000
"""Longer input is cut: no one types more, and parsing cost grows with length."""
MAX_WORDS = 64

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]+")
# `-word` at the start of a word means NOT; a hyphen inside a word (VGGT-Motion) does not.
_MINUS = re.compile(r"(?:(?<=^)|(?<=[\s(]))-(?=[\w\"(])")
_FIELD = re.compile(r"(?<![\w:])(\w+):")
_OPERATORS = frozenset({"AND", "OR", "NOT", "ANDNOT", "ANDMAYBE"})
_PLAIN_WORD = re.compile(r"(?:^|[\s(])([^\W_][\w]*)$")
_ONLY_WORDS = re.compile(r"\s*\w+(?:\s+\w+)*\s*")
_SURROGATE = re.compile("[\ud800-\udfff]")
_QUESTION = re.compile(r"(?<!\w)\?|\?(?!\w)")
_ALLOWED_FIELDS = frozenset(QUERY_FIELDS) | {"id"}
_HIGHLIGHT_FIELDS = frozenset({"name", "title", "text", "alias", "list", "heading"})


@dataclass(frozen=True, eq=False)
class CompiledQuery:
    """A query as typed, compiled once: its cleaned text, its words, its filters, and its
    all-words (`strict`) and any-word (`loose`) Whoosh forms, each parsed when first used.

    Everything here depends on the query and the schema only; what depends on the index
    (prefix expansion, scores) is the search's.
    """

    typed: str
    """The query as typed, with lone surrogates replaced (see `without_surrogates`)."""
    text: str
    """The cleaned query string given to the parser, without its reading-state filters."""
    filters: tuple[str, ...]
    """The reading-state filters it named (`is:starred`...), lower case, in order."""
    structured: bool
    """True when the user wrote AND or OR: their logic is kept, with no any-word fallback."""
    last_word: str
    """The folded last word when the query ends inside a plain word (and a prefix was
    asked for), else ""."""
    words: tuple[str, ...]
    """The plain words of the query, folded, in order."""
    policy: Policy
    """How it is searched: the fields its kind calls for, prefix, feedback (`policy`)."""
    schema: Schema = field(repr=False)

    @cached_property
    def strict(self) -> wq.Query:
        """Every word required (the user's own operators kept)."""
        return self._parse(group_and=True)

    @cached_property
    def loose(self) -> wq.Query:
        """Any word will do; `NOT x` still excludes."""
        return keep_exclusions(self._parse(group_and=False))

    @property
    def last_term(self) -> str:
        """The index term of the last typed word ("" when there is none)."""
        return stem(self.last_word) if self.last_word else ""

    @cached_property
    def repeats(self) -> Counter[str]:
        """How often each index term of the words is asked for (Whoosh's parser keeps
        a repeated word once)."""
        return Counter(terms(" ".join(self.words)))

    def _parse(self, group_and: bool) -> wq.Query:
        """Parse over the policy's fields with a parser of its own; any parser failure
        degrades to the words. Any-word, the `author:`, `year:` and `venue:` it names
        stay required."""
        fields = self.policy.fields

        def parse(text: str, group: bool) -> wq.Query | None:
            try:
                parser = make_parser(self.schema, group, fields)
                words = plain_words(text)
                if words is not None:
                    return parse_plain(parser, words, group, fields)
                return parser.parse(text)
            except Exception:  # noqa: BLE001 - whatever the parser trips on, search the words
                return None

        q = None if group_and else loose_with_filters(self.text, parse)
        if q is None:
            q = parse(self.text, group_and)
        if q is None or q is wq.NullQuery:
            q = words_query(self.words, group_and, fields)
        return q


def compile_query(query: str, schema: Schema, typing: bool = False) -> CompiledQuery:
    """Clean `query`, take out its filters, note its structure, words and last word, and
    choose how it is searched (`policy.policy_for`).

    `typing=True`: the query is being typed, so its last word is also a prefix.
    """
    typed = without_surrogates(query)
    rest, filters = split_filters(typed)
    text = clean(rest)
    structured = bool(re.search(r"\b(?:AND|OR)\b", text))
    match = _PLAIN_WORD.search(rest[:MAX_QUERY_CHARS]) if typing else None
    last = fold(match.group(1)) if match else ""
    plain = [w for w in re.findall(r"\w+", re.sub(r"\b\w+:", " ", text)) if w not in _OPERATORS]
    words = tuple(fold(w) for w in plain[:MAX_WORDS])
    # After the words and structure are read: a range's years are no words or OR of the user's.
    text = expand_year_ranges(text)
    return CompiledQuery(typed, text, tuple(filters), structured, last, words,
                         policy_for(rest, words, typing, structured), schema)


def clean(raw: str) -> str:
    """Remove control characters, cap the length, and rewrite `-word` as NOT word.

    `raw` holds no lone surrogates (`without_surrogates`).
    """
    text = _CONTROL.sub(" ", raw)[:MAX_QUERY_CHARS]
    # A question mark ends a question ("which paper proposed X?"); only inside a word
    # (`colo?r`) is it a wildcard.
    text = _QUESTION.sub(" ", text)
    text = _MINUS.sub("NOT ", text)
    # Unknown field prefixes (`foo:bar`) are words, not fields.
    text = _FIELD.sub(lambda m: m.group(0) if m.group(1) in _ALLOWED_FIELDS else m.group(1) + " ",
                      text)
    # A field prefix with nothing after it (`title:` while typing) adds nothing.
    text = re.sub(r"\b\w+:(?=\s|$)", " ", text)
    # An odd quote would swallow the rest of the query: close it at the end.
    if text.count('"') % 2:
        text += '"'
    return text


def without_surrogates(text: str) -> str:
    """Replace lone surrogates (undecodable bytes from argv or a pipe) with U+FFFD.

    They cannot be encoded as UTF-8, so they would fail deep inside Whoosh or when
    printed; the replacement keeps the rest of the query intact.
    """
    return _SURROGATE.sub("\ufffd", text)


_PARSERS: dict[tuple[int, bool, tuple[tuple[str, float], ...]],
               tuple[Schema, qparser.QueryParser]] = {}
"""Parsers made (`make_parser`), by schema, grouping and fields: making one costs a
tenth of a millisecond, about a tenth of a typed query at 21k papers, and a parser
keeps no state between parses."""
_ANALYSES: dict[int, tuple[Schema, dict[tuple[str, str], tuple[str, ...]]]] = {}
"""By schema: each field's analysis of the words seen (`parse_plain`), which depends
on the schema's analyzers alone."""
_KEPT_PARSERS = 32
_KEPT_WORDS = 4096


def make_parser(schema, group_and: bool = True,
                fields: Mapping[str, float] = FIELD_BOOSTS) -> qparser.QueryParser:
    """A multi-field parser over `fields` (by default name, title, text and math
    aliases), with their boosts; made once per schema, grouping and fields."""
    key = (id(schema), group_and, tuple(fields.items()))
    kept = _PARSERS.get(key)
    if kept is not None and kept[0] is schema:
        return kept[1]
    group = qparser.AndGroup if group_and else qparser.OrGroup
    parser = qparser.MultifieldParser(
        list(fields), schema, fieldboosts=dict(fields), group=group
    )
    # Ranges, boosts and `*:*` are not part of the language and only invite surprises.
    for plugin in (qparser.RangePlugin, qparser.BoostPlugin, qparser.EveryPlugin):
        parser.remove_plugin_class(plugin)
    # Only AND, OR and NOT: Whoosh's ANDNOT/ANDMAYBE/REQUIRE build both operands twice,
    # so a chain of them costs 2^n, and they are not part of paperscope's language.
    parser.replace_plugin(qparser.OperatorsPlugin(AndNot=None, AndMaybe=None, Require=None))
    if len(_PARSERS) >= _KEPT_PARSERS:
        _PARSERS.clear()
    _PARSERS[key] = (schema, parser)
    return parser


def plain_words(text: str) -> list[str] | None:
    """The words of a query string that is words alone (no operator, field, quote,
    wildcard or bracket), else None."""
    if not _ONLY_WORDS.fullmatch(text):
        return None
    words = text.split()
    return None if _OPERATORS.intersection(words) else words


def parse_plain(parser: qparser.QueryParser, words: list[str], group_and: bool,
                fields: Mapping[str, float]) -> wq.Query:
    """What `parser.parse` (a `make_parser` parser over `fields`) gives for plain words,
    built as its multi-field plugin and term queries build it, without its passes
    over the string: a third of a typed query's time at 21k papers. Each word is an OR
    over the fields, of the term (or terms) each field's analyzer makes of it, with
    the field's boost; the words are ANDed (or ORed), and the tree normalized as the
    parser normalizes it. tests/test_query.py holds it equal to the parser's output."""
    clauses = []
    analysed = _analyses(parser.schema)
    for word in words:
        found = [_term_query(parser, analysed, name, word, boost)
                 for name, boost in fields.items()]
        clauses.append(wq.Or([q for q in found if q is not None]))
    q = (wq.And if group_and else wq.Or)(clauses).normalize()
    return q or wq.NullQuery


def _analyses(schema: Schema) -> dict[tuple[str, str], tuple[str, ...]]:
    """The analyses kept for `schema`: (field, word) → the field's token texts."""
    kept = _ANALYSES.get(id(schema))
    if kept is None or kept[0] is not schema:
        if len(_ANALYSES) >= _KEPT_PARSERS:
            _ANALYSES.clear()
        kept = _ANALYSES[id(schema)] = (schema, {})
    if len(kept[1]) >= _KEPT_WORDS:
        kept[1].clear()
    return kept[1]


def _term_query(parser: qparser.QueryParser, analysed: dict[tuple[str, str], tuple[str, ...]],
                name: str, word: str, boost: float) -> wq.Query | None:
    """`parser.term_query(name, word, ...)`, as Whoosh builds it, with the field's
    analysis of the word remembered: a word typed stays in the query keystroke after
    keystroke, and each field's analyzer costs several Python calls per word."""
    field = parser.schema[name] if parser.schema and name in parser.schema else None
    if field is None or field.self_parsing():
        return parser.term_query(name, word, parser.termclass, boost=boost)
    texts = analysed.get((name, word))
    if texts is None:
        texts = analysed[(name, word)] = tuple(
            field.process_text(word, mode="query", tokenize=True, removestops=True))
    if len(texts) > 1:
        return parser.multitoken_query(field.multitoken_query, list(texts), name,
                                       parser.termclass, boost)
    return parser.termclass(name, texts[0], boost=boost) if texts else None


def words_query(words: tuple[str, ...], group_and: bool = True,
                fields: Mapping[str, float] = FIELD_BOOSTS) -> wq.Query:
    """A query for plain words over `fields` (every default field unless told)."""
    clauses = []
    for word in words:
        for term in terms(word):
            clauses.append(wq.Or([wq.Term(f, term, boost=b) for f, b in fields.items()]))
    if not clauses:
        return wq.NullQuery
    return wq.And(clauses) if group_and else wq.Or(clauses)


def keep_exclusions(q: wq.Query) -> wq.Query:
    """In an any-word query, `NOT x` must still exclude, not match everything else."""
    if not isinstance(q, wq.Or):
        return q
    negatives = [c for c in q.subqueries if isinstance(c, wq.Not)]
    if not negatives:
        return q
    positives = [c for c in q.subqueries if not isinstance(c, wq.Not)]
    if not positives:
        return wq.NullQuery
    return wq.And([wq.Or(positives), *negatives])


def positive_terms(q: wq.Query) -> frozenset[str]:
    """Index terms the query looks for (not those under NOT), for highlighting."""
    found: set[str] = set()

    def walk(node: wq.Query) -> None:
        if isinstance(node, wq.Not):
            return
        if isinstance(node, wq.Term) and node.fieldname in _HIGHLIGHT_FIELDS:
            text = node.text
            found.add(text.decode("utf-8") if isinstance(text, bytes) else text)
        elif isinstance(node, wq.Phrase) and node.fieldname in _HIGHLIGHT_FIELDS:
            found.update(node.words)
        for child in node.children():
            walk(child)

    walk(q)
    return frozenset(found)
