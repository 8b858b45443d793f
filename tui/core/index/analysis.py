"""Text analysis shared by indexing, querying and highlighting.

One function, `terms`, turns text into index terms. Indexing, the query parser and the
highlighter all go through it, so what is highlighted is exactly what matched.

Folding makes typed ASCII meet rendered Unicode: NFKC turns `ℓₚ` into `lp` and `τ²`
into `τ2`, Greek letters are spelled out (`τ` → `tau`), and everything is case-folded.
Words are then stemmed (Porter2, the Snowball English stemmer) with a cache, because
stemming is the costliest step and abstracts repeat their words.

Whoosh's own analyzer chain builds a Token per step per word; doing the whole chain in
one function over `re.finditer` is several times faster, which is what lets a 21k
abstract index build in seconds.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from functools import lru_cache

from whoosh.analysis import Token, Tokenizer
from whoosh.lang.porter2 import stem as _porter2

# Bump when the analysis changes, so existing indexes are rebuilt.
ANALYSIS_VERSION = 1

_GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ϵ": "epsilon",
    "ζ": "zeta", "η": "eta", "θ": "theta", "ϑ": "theta", "ι": "iota", "κ": "kappa",
    "λ": "lambda", "μ": "mu", "ν": "nu", "ξ": "xi", "ο": "omicron", "π": "pi", "ϖ": "pi",
    "ρ": "rho", "ϱ": "rho", "σ": "sigma", "ς": "sigma", "τ": "tau", "υ": "upsilon",
    "φ": "phi", "ϕ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega",
}
_GREEK_TABLE = str.maketrans(
    {**_GREEK, **{k.upper(): v for k, v in _GREEK.items() if k.upper() != k}}
)

# Words so common that they only slow queries down and blur ranking. Kept short on
# purpose: "it", "may" or "will" can be content words in titles.
STOP_WORDS = frozenset(
    "a an and are as at be by for from has have in is of on or that the this to was "
    "were which with we our its their these those than".split()
)

_WORD = re.compile(r"\w+")
# Longer tokens are noise (hashes, run-together garbage) and would bloat the index.
_MAX_TOKEN = 40


def fold(text: str) -> str:
    """Normalise text for matching: NFKC, Greek letters spelled out, case-folded."""
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text).translate(_GREEK_TABLE)
    return text.casefold()


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """Porter2 stem of a folded word; numbers and non-Latin words pass through."""
    if not word.isascii() or not word.isalpha():
        return word
    return _porter2(word)


def iter_words(text: str) -> Iterator[tuple[str, int, int]]:
    """Yield (folded word, start, end) for each indexed word, offsets into `text` itself.

    Words are found before folding so that offsets stay true to the original text
    (NFKC can change lengths); this is what highlighting needs. An ASCII text folds
    to the same length, so it is folded once instead of word by word.
    """
    if text.isascii():
        for match in _WORD.finditer(text.lower()):
            word = match.group()
            if word not in STOP_WORDS and len(word) <= _MAX_TOKEN:
                yield word, match.start(), match.end()
        return
    for match in _WORD.finditer(text):
        for word in _WORD.findall(fold(match.group())):
            if word in STOP_WORDS or len(word) > _MAX_TOKEN:
                continue
            yield word, match.start(), match.end()


def iter_terms(text: str) -> Iterator[tuple[str, int, int]]:
    """Yield (term, start, end) for each indexed word, offsets into `text` itself."""
    for word, start, end in iter_words(text):
        yield stem(word), start, end


_TERMS: dict[str, str] = {}
"""Folded word → its index term, or "" for a word that is not indexed. A plain dict
lookup per word: indexing calls this for every word of every field, and a cached
function call costs several times more."""
_TERMS_MAX = 200_000


def _term(word: str) -> str:
    if word in STOP_WORDS or len(word) > _MAX_TOKEN:
        return ""
    return stem(word)


def terms(text: str) -> list[str]:
    """The index terms of `text`, in order."""
    known = _TERMS
    if len(known) > _TERMS_MAX:
        known.clear()
    out = []
    append = out.append
    for word in _WORD.findall(fold(text)):
        term = known.get(word)
        if term is None:
            term = known[word] = _term(word)
        if term:
            append(term)
    return out


def words(text: str) -> list[str]:
    """The folded, unstemmed words of `text` (stop words included)."""
    return _WORD.findall(fold(text))


class PaperAnalyzer(Tokenizer):
    """A Whoosh analyzer that runs `terms` (fold, split, drop stop words, stem).

    Whoosh calls it for query text; indexing passes pre-analysed term lists, which
    Whoosh accepts in place of a string, so both sides share `terms` exactly.
    """

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PaperAnalyzer)

    def __hash__(self) -> int:
        return hash(PaperAnalyzer)

    def __call__(  # type: ignore[override]
        self,
        value: str,
        positions: bool = False,
        chars: bool = False,
        keeporiginal: bool = False,
        removestops: bool = True,
        start_pos: int = 0,
        start_char: int = 0,
        tokenize: bool = True,
        mode: str = "",
        **kwargs: object,
    ) -> Iterator[Token]:
        token = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        if not tokenize:
            token.original = token.text = value
            token.boost = 1.0
            if positions:
                token.pos = start_pos
            if chars:
                token.startchar, token.endchar = start_char, start_char + len(value)
            yield token
            return
        # Offsets cost a per-word fold; only highlighting asks for them.
        source = iter_terms(value) if chars else ((t, 0, 0) for t in terms(value))
        for pos, (term, start, end) in enumerate(source, start_pos):
            token.text = term
            token.boost = 1.0
            if keeporiginal:
                token.original = term
            if positions:
                token.pos = pos
            if chars:
                token.startchar, token.endchar = start_char + start, start_char + end
            yield token
