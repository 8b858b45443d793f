"""Spelling suggestions ("did you mean") from the lists' own vocabulary."""

from __future__ import annotations

import re
import time

from tui.core.index.analysis import STOP_WORDS, fold, stem

TYPE_CHECKING = False  # as typing's: a cold search need not import typing (2 ms)
if TYPE_CHECKING:
    from tui.core.index.library import Library
    from tui.core.search.query import CompiledQuery

_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_WORD = r"(?<![\w:])([^\W\d_]{4,20})\b(?!:)"
"""Compiled by `re` at its first use: only a search that finds nothing corrects."""
_MAX_CORRECTIONS = 8
"""Past this many unknown words a query is not a typo; correcting it costs seconds."""
_BUDGET_SECONDS = 0.15
"""A suggestion is a courtesy: past this, the remaining words are left as typed."""
_MAX_EDITS2_LEN = 8
"""Two-edit candidates grow with the square of the length; beyond this, one edit only."""


def _edits1(word: str) -> set[str]:
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    deletes = [a + b[1:] for a, b in splits if b]
    swaps = [a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1]
    replaces = [a + c + b[1:] for a, b in splits if b for c in _LETTERS]
    inserts = [a + c + b for a, b in splits for c in _LETTERS]
    return set(deletes + swaps + replaces + inserts)


def correct_word(library: "Library", word: str) -> str | None:
    """The most frequent known word within two edits of `word`, or None."""
    vocab = library.vocabulary

    def best(candidates: set[str]) -> str | None:
        known = [c for c in candidates if c in vocab]
        if not known:
            return None
        return max(known, key=lambda c: (library.doc_frequency("text", stem(c)), c))

    near = _edits1(word)
    found = best(near)
    if found is None and len(word) <= _MAX_EDITS2_LEN:
        found = best({e2 for e1 in near for e2 in _edits1(e1)})
    return found


def suggest(library: "Library", compiled: "CompiledQuery") -> str | None:
    """The query with unknown words corrected, or None when nothing changes."""
    changed = False
    tried = 0
    deadline = time.perf_counter() + _BUDGET_SECONDS

    def fix(match: re.Match[str]) -> str:
        nonlocal changed, tried
        original = match.group(1)
        if original in ("AND", "OR", "NOT"):
            return original
        word = fold(original)
        if word in STOP_WORDS or not word.isascii() or word in library.vocabulary \
                or library.doc_frequency("text", stem(word)):
            return original
        tried += 1
        if tried > _MAX_CORRECTIONS or time.perf_counter() > deadline:
            return original
        fixed = correct_word(library, word)
        if fixed is None or fixed == word:
            return original
        changed = True
        return fixed

    text = re.sub(_WORD, fix, compiled.text)
    return text if changed else None
