"""Where query terms occur in a text, and the best short excerpt around them."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from functools import lru_cache
from itertools import takewhile

from tui.core.index.analysis import _MAX_TOKEN, _WORD, STOP_WORDS, iter_words, stem
from tui.core.whoosh_compat import stem_exceptions

Spans = list[tuple[int, int]]

_NON_ASCII_WORD_CHAR = re.compile(r"(?![\x00-\x7f])\w")
"""A character of a word that is not ASCII (a letter, a digit)."""
_RESHAPED = frozenset(word for word, term in stem_exceptions().items()
                      if term[:2] != word[:2])
"""Words whose term does not start with their own first two letters: Porter2's
exceptions ("dying" → "die"). Its rules only rewrite a word from its third letter on,
or cut it to one letter (and maybe an "e")."""


@lru_cache(maxsize=2048)
def _words(text: str) -> dict[str, tuple[tuple[int, int], ...]]:
    """Each indexed word of a non-ASCII text (folded, not yet stemmed) → its spans in
    the text (an ASCII text's are found as `_ascii_spans` finds them).

    Remembered: while a query is typed the same visible papers are highlighted again on
    every keystroke. Words are not stemmed here: stemming is the costliest step of
    analysis, and `match_spans` only stems the few words that could match. Only tuples
    are kept, so that the garbage collector stops tracking the table: thousands of
    cached lists would lengthen every full collection.
    """
    found: dict[str, list[tuple[int, int]]] = {}
    for word, start, end in iter_words(text):
        spans = found.get(word)
        if spans is None:
            found[word] = [(start, end)]
        elif spans[-1] != (start, end):
            spans.append((start, end))
    return {word: tuple(spans) for word, spans in found.items()}


def match_spans(text: str, terms: Collection[str]) -> Spans:
    """Character spans of the words in `text` whose index term is in `terms`."""
    if not terms or not text:
        return []
    # Stemming is the costly step (Porter2 in Python, tens of microseconds a new word),
    # and a word's term starts with the word's first two letters, unless the term is
    # of two letters or fewer (then with its first) or the word one of Porter2's
    # exceptions: only words that can still match are stemmed.
    heads = {term[:2] for term in terms if len(term) > 2}
    initials = {term[:1] for term in terms if len(term) <= 2}

    def matches(word: str) -> bool:
        return ((word[:2] in heads or word[:1] in initials or word in _RESHAPED)
                and stem(word) in terms)

    if text.isascii():
        return _ascii_spans(text.lower(), matches)
    lowered = text.lower()
    if len(lowered) == len(text) and not (_NON_ASCII_WORD_CHAR.search(text)
                                          or _NON_ASCII_WORD_CHAR.search(lowered)):
        # Only its punctuation is not ASCII (dashes, quotes, "×"), in lower case too: its
        # words are ASCII, and fold as lower case does, where they stand.
        return _ascii_spans(lowered, matches)
    spans: Spans = []
    for word, where in _words(text).items():
        if matches(word):
            spans.extend(where)
    if len(spans) > 1:
        spans = sorted(set(spans))  # two words of one span (NFKC can split) count once
    return spans


def _ascii_spans(lowered: str, matches: Callable[[str], bool]) -> Spans:
    """`match_spans` of a text whose words are ASCII (`lowered`: the text in lower
    case, which folds its words, every character where it was). Its distinct words are found at C speed; only those that match are then
    looked for, as whole words: in an abstract, a few words of a few hundred."""
    spans: Spans = []
    for word in set(_WORD.findall(lowered)):
        if word in STOP_WORDS or len(word) > _MAX_TOKEN or not matches(word):
            continue
        size, at = len(word), lowered.find(word)
        while at >= 0:
            end = at + size
            if not (at and _word_char(lowered[at - 1])) \
                    and not (end < len(lowered) and _word_char(lowered[end])):
                spans.append((at, end))
            at = lowered.find(word, end)
    spans.sort()
    return spans


def _word_char(char: str) -> bool:
    """Whether an ASCII character is one of a word's (`\\w`)."""
    return char.isalnum() or char == "_"


def snippet(text: str, terms: Collection[str], width: int = 200) -> tuple[str, Spans]:
    """An excerpt of about `width` characters holding the most distinct matches.

    Returns the excerpt (with `…` where text was cut) and the match spans within it.
    Without matches it is the start of the text.
    """
    spans = match_spans(text, terms)
    if len(text) <= width:
        return text, spans
    start = 0
    if spans:
        # Slide a window over the matches; keep the one covering most distinct words.
        best_count, best_start = -1, spans[0][0]
        for i, (s, _) in enumerate(spans):
            # Spans are sorted by start: past the window's end, none can end within it.
            seen = {text[a:b].casefold()
                    for a, b in takewhile(lambda span: span[0] <= s + width, spans[i:])
                    if b <= s + width}
            if len(seen) > best_count:
                best_count, best_start = len(seen), s
        # Start a little before the first match, at a word boundary.
        start = max(0, best_start - width // 5)
        if start:
            space = text.rfind(" ", 0, start + 1)
            start = space + 1 if space >= 0 and best_start - space < width // 2 else start
    end = min(len(text), start + width)
    if end < len(text):
        space = text.rfind(" ", start + width // 2, end)
        end = space if space > 0 else end
    prefix = "…" if start > 0 else ""
    suffix = "…" if end < len(text) else ""
    excerpt = prefix + text[start:end] + suffix
    shift = len(prefix) - start
    inside = [(a + shift, b + shift) for a, b in spans if a >= start and b <= end]
    return excerpt, inside
