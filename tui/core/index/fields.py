"""The index side of the fields structured lists add: authors and years.

Authors are indexed by their words with accents folded away (`author:scholkopf` finds
Schölkopf) and without stemming (names are not English words). Stop words are left
out as they are everywhere else: an author term for "and" would make every query with
"and" in it require an author called And. So are initials ("J." of "J. Smith"): a
letter names nobody, and as a term it would match most papers of a large library
whenever a word being typed is one letter long. Years are plain terms of the `year` field;
`year_order` reads them back to sort by year without loading a paper.
"""

from __future__ import annotations

import re
import unicodedata
from array import array
from collections.abc import Iterable, Iterator, Sequence

from whoosh.analysis import Token, Tokenizer

from tui.core.index.analysis import STOP_WORDS

TYPE_CHECKING = False  # as typing's: a cold search need not import typing (2 ms)
if TYPE_CHECKING:
    from whoosh.reading import IndexReader

_WORD = re.compile(r"\w+")


def fold_name(text: str) -> str:
    """Lower case, without accents: "Schölkopf" → "scholkopf", "Łukasz" → "lukasz"."""
    if text.isascii():  # most names: no accent to take away
        return text.casefold()
    text = unicodedata.normalize("NFKD", text.replace("ł", "l").replace("Ł", "L")
                                 .replace("ø", "o").replace("Ø", "O").replace("ß", "ss"))
    return "".join(c for c in text if not unicodedata.combining(c)).casefold()


def author_terms(authors: Iterable[str]) -> list[str]:
    """The index terms of a paper's authors: every word of every name, folded, but
    initials and stop words."""
    out = []
    for name in authors:
        out += [w for w in _WORD.findall(fold_name(name)) if len(w) > 1 and w not in STOP_WORDS]
    return out


class AuthorAnalyzer(Tokenizer):
    """The `author` field's analyzer for query text: `author_terms` on one string."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AuthorAnalyzer)

    def __hash__(self) -> int:
        return hash(AuthorAnalyzer)

    def __call__(self, value: str, positions: bool = False, chars: bool = False,  # type: ignore[override]
                 keeporiginal: bool = False, removestops: bool = True, start_pos: int = 0,
                 start_char: int = 0, tokenize: bool = True, mode: str = "",
                 **kwargs: object) -> Iterator[Token]:
        token = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        words = author_terms([value]) if tokenize else [value]
        for pos, word in enumerate(words, start_pos):
            token.text = word
            token.boost = 1.0
            if keeporiginal:
                token.original = word
            if positions:
                token.pos = pos
            if chars:  # offsets are not kept for names: nothing highlights them
                token.startchar, token.endchar = start_char, start_char + len(value)
            yield token


def year_order(reader: IndexReader, order: Sequence[int], size: int) -> Sequence[int]:
    """The docnums of `order` (list order; all below `size`), newest year first (list
    order within a year); papers without a year last. Read from the `year` field's
    postings in `reader` (which the caller holds the index's lock for), so no paper is
    loaded."""
    from tui.core.index.postingcache import read_postings

    years = array("i", bytes(4 * size))
    for term in reader.field_terms("year") if "year" in reader.indexed_field_names() else ():
        text = term.decode() if isinstance(term, bytes) else term
        if not text.isdigit():
            continue
        for docnum in read_postings(reader, "year", text)[0]:
            if 0 <= docnum < size:
                years[docnum] = int(text)
    # A stable sort: list order within a year.
    return array("I", sorted(order, key=lambda d: (years[d] == 0, -years[d])))
