"""Text helpers for :mod:`tui.core.naming`: sentences, name-shaped words, acronyms, cutting.

Everything here is pure, stdlib-only string work on an abstract already rendered to plain
Unicode. The functions are small and forgiving: they return empty results rather than
raising, because abstracts arrive with mojibake, stray markup and any script.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import islice

# Abbreviations whose trailing period does not end a sentence. "al." covers "et al.".
_ABBREVIATIONS = frozenset(
    "e.g i.e al etc vs cf fig figs eq eqs resp approx sec no nos ca ref refs viz dr prof st".split()
)
# No look-behind: a pattern that starts with a character class scans far faster.
_SENTENCE_END = re.compile(r"[.!?]\s+|[。！？]\s*")  # CJK full stops need no space

# Characters a name may contain besides letters and digits: "SCHUR-A*", "C++", "β-VAE",
# "Vision–language", "k*-NN", "Fashion++", "O(1)" is not supported on purpose.
_NAME_CHARS = r"\w\-–*+'’.²³/&^"
# At least one letter or digit: a lone dash or dot between words ("architecture - FASON")
# is punctuation, not a word.
WORD = re.compile(rf"[{_NAME_CHARS}]*?[^\W_][{_NAME_CHARS}]*")
# Punctuation a word may carry at its edges that is not part of the name.
_EDGE_TRIM = ".,;:!?'’-–/&^`()[]{}\"“”"

# Hyphen suffixes that make a compound descriptive rather than a name ("GAN-based").
_DESCRIPTIVE_SUFFIXES = frozenset(
    "based like style driven aware free guided level wise specific agnostic oriented "
    "inspired type shaped invariant equivariant dependent independent constrained "
    "regularized augmented conditioned enhanced friendly centric scale order trained "
    "pretrained initialized supervised annotated labeled labelled hard hardness complete "
    "completeness".split()
)


@lru_cache(maxsize=64)  # derive_title splits the text derive_name has just split
def split_sentences(text: str) -> tuple[str, ...]:
    """Split ``text`` into sentences, keeping "e.g.", "et al." and initials inside one."""
    text = text.strip()
    pieces: list[str] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        pieces.append(text[start : match.start() + 1])
        start = match.end()
    pieces.append(text[start:])
    sentences: list[str] = []
    for piece in pieces:
        if not piece:
            continue  # text ending in "。" leaves an empty tail
        if sentences and _continues(sentences[-1], piece):
            sentences[-1] = f"{sentences[-1]} {piece}"
        else:
            sentences.append(piece)
    return tuple(sentences)


def _continues(previous: str, piece: str) -> bool:
    """Whether ``piece`` still belongs to the sentence ``previous`` (a false split)."""
    if piece[0].islower():
        return True  # a real sentence does not start in lower case
    last_word = previous.rsplit(" ", 1)[-1].rstrip(".").lower()
    if last_word in _ABBREVIATIONS:
        return True
    # A single capital before the period is an initial ("J. Smith"), not a sentence end.
    return len(last_word) == 1 and last_word.isalpha()


@lru_cache(maxsize=65536)
def trim_word(word: str) -> str:
    """Strip edge punctuation that belongs to the sentence rather than to the word."""
    word = word.strip(_EDGE_TRIM)
    if word.endswith(("'s", "’s")):
        word = word[:-2]
    if word[:1] in "mte":  # "mboxMobileNetV2": a TeX command left glued to the word
        word = _TEX_COMMAND.sub("", word, count=1)
    return word


_TEX_COMMAND = re.compile(
    r"^(?:mbox|textbf|textit|texttt|textsc|textrm|emph|mathrm|mathbf)(?=[A-Z])"
)


@lru_cache(maxsize=65536)  # the same words recur across sentences and abstracts
def is_strong_name(word: str) -> bool:
    """A word shaped like a coined name: "ABFNet", "X-EviProbe", "3DPoV", "word2vec".

    It needs an upper-case letter after the first character, or letters mixed with
    digits; descriptive compounds ("GAN-based") and roman numerals do not count.
    """
    if len(word) < 2 or not any(ch.isalpha() for ch in word):
        return False
    parts = _HYPHENS.split(word)
    if len(parts) > 1 and parts[-1].lower() in _DESCRIPTIVE_SUFFIXES:
        return False
    if _ROMAN.fullmatch(word) or _PREFIXED_ADJECTIVE.fullmatch(word):
        return False
    has_inner_upper = any(ch.isupper() for ch in word[1:])
    has_digit = any(ch.isdigit() for ch in word)
    return has_inner_upper or (has_digit and sum(ch.isalpha() for ch in word) >= 2)


_HYPHENS = re.compile(r"[-–]")
_ROMAN = re.compile(r"[IVX]+")
# "pseudo-Bayesian", "non-Gaussian", "quasi-Newton": a prefix on a proper adjective;
# "8-point", "3.5-point", "3-layer": a count on a noun.
_PREFIXED_ADJECTIVE = re.compile(r"[a-z]+-[A-Z][a-z]+|\d+(?:\.\d+)?-[a-z]+")


def is_capitalised(word: str) -> bool:
    """A word starting with a capital, or with a letter of a script without case (CJK)."""
    if not word:
        return False
    first = word[0]
    if first.isupper():
        return True
    # Scripts without case (Chinese, Japanese, Korean...) cannot signal a name by capitals,
    # so a letter that is neither upper nor lower case counts as capitalised.
    return first.isalpha() and not first.islower()


def words_with_spans(text: str, pos: int = 0, limit: int = 12) -> list[tuple[str, int, int]]:
    """The first ``limit`` words of ``text`` from ``pos`` (see :data:`WORD`), with their
    start and end offsets relative to ``pos``. Callers only ever look a few words ahead,
    so the scan stops early."""
    return [
        (m.group(), m.start() - pos, m.end() - pos)
        for m in islice(WORD.finditer(text, pos), limit)
    ]


def acronym_long_form(short: str, before: str) -> str:
    """The long form that ``short`` abbreviates at the end of ``before``, or "".

    This is the Schwartz–Hearst matcher: walk the short form's letters and digits
    backwards, finding each in ``before`` from the right, and require its first letter to
    start a word. "Anisotropic Butterworth Fusion Network" + "ABFNet" matches; "large
    language models" + "LLMs" matches too, so callers decide whether it was introduced.
    """
    letters = [ch.lower() for ch in short if ch.isalnum()]
    if not letters or not before:
        return ""
    words = before.split()
    # Initials of the last words (or parts of hyphenated words) first: the shortest
    # match would read "Decision Directed Acyclic Graph (DDAG)" as the textbook "Directed
    # Acyclic Graph", and "attribute-guided augmentation (AGA)" as "augmentation".
    if len(letters) > 2:
        parts = [(n, part) for n, word in enumerate(words) for part in _HYPHENS.split(word)]
        tail = parts[-len(letters) :]
        starts_word = len(tail) == len(letters) and (
            tail[0][0] == 0 or parts[-len(letters) - 1][0] != tail[0][0]
        )
        if starts_word and [part.lstrip(_EDGE_TRIM)[:1].lower() for _, part in tail] == letters:
            return " ".join(words[tail[0][0] :])
    # Schwartz–Hearst look at most min(|A| + 5, 2|A|) words before the parenthesis.
    window = " ".join(words[-min(len(letters) + 5, 2 * len(letters)):])
    text = window.lower()
    s_index = len(letters) - 1
    l_index = len(text) - 1
    while s_index >= 0:
        ch = letters[s_index]
        if ch.isdigit() and s_index > 0 and ch not in text[: l_index + 1]:
            s_index -= 1  # "A2J" for "Anchor-to-Joint": a digit may stand for a word
            continue
        while l_index >= 0 and (
            text[l_index] != ch
            or (s_index == 0 and l_index > 0 and text[l_index - 1].isalnum())
        ):
            l_index -= 1
        if l_index < 0:
            return ""
        l_index -= 1
        s_index -= 1
    start = text.rfind(" ", 0, l_index + 1) + 1
    return window[start:].strip()


def cut_phrase(phrase: str, limit: int = 100) -> str:
    """Cut ``phrase`` to at most about ``limit`` characters at a clause or word boundary.

    Prefer the last clause boundary (", which", "; ", " before ") in the last part of the
    window, since cutting there early throws away most of the room; else cut at a word
    boundary. Then drop dangling function words and open brackets so the line still
    reads as a phrase.
    """
    phrase = phrase.strip().rstrip(".;:, 。；：，")
    hard = _HARD_BREAK.search(phrase)
    if hard and hard.start() >= 40:  # "A fundamental question: Can ..." keeps its question
        phrase = phrase[: hard.start()]
    if len(phrase) > limit:
        window = phrase[: limit + 1]
        cut = -1
        for match in _CLAUSE_BREAK.finditer(window):
            if match.start() >= limit * 0.7:
                cut = match.start()
        if cut < 0:
            cut = window.rfind(" ")
        phrase = phrase[:cut] if cut > 0 else window[:limit]
    return _tidy_end(phrase)


_CLAUSE_BREAK = re.compile(
    r",\s|;\s|\s[—–-]{1,2}\s|\s(?:which|that|where|while|whereas|by|via|using|before|"
    r"after|to|for|with|in|on|and|through|into|onto|under|across|without|from|at|over|"
    r"among|between|within|against|as|than)\s"
)
# A colon or semicolon inside a description opens a list or a new clause: stop there.
_HARD_BREAK = re.compile(r"[:;]\s")
_DANGLING = frozenset(
    "a an the of for to and or in on with by that which via from as at its their our "
    "this these is are be into under over between while whereas where using both".split()
)


def _tidy_end(phrase: str) -> str:
    """Drop trailing function words, punctuation and unbalanced brackets."""
    phrase = phrase.strip()
    for _ in range(8):  # bounded: each pass removes something or stops
        before = phrase
        if phrase.count("(") > phrase.count(")"):
            phrase = phrase[: phrase.rfind("(")]
        phrase = phrase.rstrip(" ,;:—–-([{")
        words = phrase.rsplit(" ", 1)
        if len(words) == 2 and words[1].lower() in _DANGLING:
            phrase = words[0]
        if phrase == before:
            break
    return phrase.strip()
