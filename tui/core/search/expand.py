"""Prefix and wildcard expansion: the last typed word as a prefix, `word*` as terms.

Whoosh would expand a prefix or a wildcard into every matching term: over a second for
`t*` on 46k abstracts. Here each becomes an OR of its most frequent terms, from a table
built with the index for 1–3 letters and from the term dictionary beyond that.
"""

from __future__ import annotations

from whoosh import query as wq

from tui.core.index.analysis import stem
from tui.core.index.library import Library
from tui.core.index.prefixtops import expansion_terms
from tui.core.index.schema import FIELD_BOOSTS
from tui.core.index.sidefiles import PREFIX_FANOUT, PREFIX_SCAN, SHORT_PREFIX
from tui.core.search.query import CompiledQuery

_EXPAND_SCAN = 4000
"""Stop scanning the term dictionary for a wildcard's terms after this many."""
_MAX_WILDCARD_TERMS = 32


def expansions(library: Library, word: str) -> list[str]:
    """Index terms that a partly typed, folded `word` may be the start of.

    The word's own stem comes first; then the most frequent terms starting with it;
    and when none do (`diffusio`), the longest term it starts with (`diffus`).
    """
    own = stem(word)
    out = [own]
    listed = library.prefix_table.get(word)
    if listed is not None:  # every short prefix, and long ones that start many terms
        return expansion_terms(word, listed)  # as the short prefixes' table has them
    if len(word) > SHORT_PREFIX:
        # Not listed, so it starts at most PREFIX_SCAN terms: all of them are read.
        found = [(frequency, term) for term, frequency
                 in library.terms_starting("text", word, PREFIX_SCAN + 1)]
        found.sort(key=lambda c: (-c[0], c[1]))
        out += [t for _, t in found[:PREFIX_FANOUT]]
        if len(out) == 1 and library.doc_frequency("text", own) == 0:
            for k in range(len(word) - 1, max(3, len(word) - 5), -1):
                if library.doc_frequency("text", word[:k]):
                    out.append(word[:k])
                    break
    return list(dict.fromkeys(out))


def expand(library: Library, q: wq.Query, compiled: CompiledQuery,
           names_only_up_to: int) -> wq.Query:
    """`q` with its wildcards and prefixes bounded, and the last typed word of
    `compiled` also matching as a prefix: only in names and titles while it has at most
    `names_only_up_to` letters."""
    target = compiled.last_term
    bounded: dict[str, list[str]] = {}
    # Whoosh's parser drops repeated words; a word asked for three times in a long
    # question matters more, as in BM25's query term frequency, so it is weighted back.
    repeats = compiled.repeats

    def grow(node: wq.Query) -> wq.Query:
        if isinstance(node, wq.Term) and repeats.get(node.text, 1) > 1 \
                and node.fieldname in FIELD_BOOSTS:
            node = wq.Term(node.fieldname, node.text, boost=node.boost * repeats[node.text])
        if isinstance(node, wq.Wildcard):
            return _bounded_wildcard(library, node)
        if isinstance(node, wq.Prefix):
            return _alternatives(node.fieldname, expansions(library, node.text)[1:] or [node.text],
                                 node.boost)
        if target and isinstance(node, wq.Term) and node.text == target \
                and node.fieldname in FIELD_BOOSTS:
            if node.fieldname == "alias" or (len(compiled.last_word) <= names_only_up_to
                                             and node.fieldname not in ("name", "title")):
                return node
            if target not in bounded:
                bounded[target] = expansions(library, compiled.last_word)
            return _alternatives(node.fieldname, bounded[target], node.boost)
        return node

    return q.accept(grow)


def _bounded_wildcard(library: Library, node: wq.Wildcard) -> wq.Query:
    """A wildcard as an OR of its most frequent matching terms (Whoosh would take all)."""
    found = [(frequency, term) for term, frequency in library.terms_matching(node, _EXPAND_SCAN)]
    found.sort(key=lambda c: (-c[0], c[1]))
    options = [t for _, t in found[:_MAX_WILDCARD_TERMS]]
    return _alternatives(node.fieldname, options, node.boost) if options else wq.NullQuery


def _alternatives(fieldname: str, options: list[str], boost: float) -> wq.Query:
    if len(options) == 1:
        return wq.Term(fieldname, options[0], boost=boost)
    return wq.Or([wq.Term(fieldname, t, boost=boost) for t in options])
