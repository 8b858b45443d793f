"""From the string a user typed to a Whoosh query, forgiving every mistake.

The query language: plain words (stemmed, all required first), "quoted phrases",
AND / OR / NOT, `-word`, the field prefixes `name:`, `title:`, `list:`, `text:`, `id:`,
and `word*` wildcards. The last word is also a prefix while it is being typed.
Malformed input never raises: the parser is given a cleaned string, and if Whoosh still
fails the query degrades to its plain words.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from whoosh import qparser, query as wq

from tui.core.index.analysis import fold, stem, terms
from tui.core.index.schema import FIELD_BOOSTS, QUERY_FIELDS

MAX_QUERY_CHARS = 1000
"""Longer input is cut: no one types more, and parsing cost grows with length."""
MAX_WORDS = 64

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]+")
# `-word` at the start of a word means NOT; a hyphen inside a word (VGGT-Motion) does not.
_MINUS = re.compile(r"(?:(?<=^)|(?<=[\s(]))-(?=[\w\"(])")
_FIELD = re.compile(r"(?<![\w:])(\w+):")
_OPERATORS = frozenset({"AND", "OR", "NOT", "ANDNOT", "ANDMAYBE"})
_PLAIN_WORD = re.compile(r"(?:^|[\s(])([^\W_][\w]*)$")
_SURROGATE = re.compile("[\ud800-\udfff]")
_QUESTION = re.compile(r"(?<!\w)\?|\?(?!\w)")
_ALLOWED_FIELDS = frozenset(QUERY_FIELDS) | {"id"}


@dataclass(frozen=True)
class ParsedQuery:
    """A cleaned query string and what the search needs to know about it."""

    text: str
    """The cleaned query string given to the parser."""
    structured: bool
    """True when the user wrote AND or OR: their logic is kept, with no any-word fallback."""
    last_word: str
    """The folded last word when the query ends inside a plain word, else ""."""
    words: tuple[str, ...]
    """The plain words of the query, folded, in order."""


def clean(raw: str) -> str:
    """Remove control characters, cap the length, and rewrite `-word` as NOT word."""
    text = _CONTROL.sub(" ", without_surrogates(raw))[:MAX_QUERY_CHARS]
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


def analyse(raw: str, prefix: bool = True) -> ParsedQuery:
    """Clean `raw` and note its structure and last word."""
    raw = without_surrogates(raw)
    text = clean(raw)
    structured = bool(re.search(r"\b(?:AND|OR)\b", text))
    match = _PLAIN_WORD.search(raw[:MAX_QUERY_CHARS]) if prefix else None
    last = fold(match.group(1)) if match else ""
    plain = [w for w in re.findall(r"\w+", re.sub(r"\b\w+:", " ", text)) if w not in _OPERATORS]
    return ParsedQuery(text, structured, last, tuple(fold(w) for w in plain[:MAX_WORDS]))


def make_parser(schema, group_and: bool = True,
                fields: Mapping[str, float] = FIELD_BOOSTS) -> qparser.QueryParser:
    """A multi-field parser over `fields` (by default name, title, text and math
    aliases), with their boosts."""
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
    return parser


def to_whoosh(parsed: ParsedQuery, schema, group_and: bool = True,
              fields: Mapping[str, float] = FIELD_BOOSTS) -> wq.Query:
    """Parse into a Whoosh query over `fields`; any parser failure degrades to the
    plain words."""
    try:
        q = make_parser(schema, group_and, fields).parse(parsed.text)
    except Exception:  # noqa: BLE001 - whatever the parser trips on, search the words
        q = None
    if q is None or q is wq.NullQuery:
        q = words_query(parsed.words, group_and, fields)
    return q


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


def last_term(parsed: ParsedQuery) -> str:
    """The index term of the last typed word ("" when there is none)."""
    return stem(parsed.last_word) if parsed.last_word else ""
