"""Names and titles for abstracts that come without a title.

``derive_name`` finds the method, system or benchmark an abstract introduces, written as
the abstract writes it ("Gecko", "SCHUR-A*", "Agent Primitives"), or "" when it
introduces none. ``derive_title`` makes one readable line from the abstract's own words.

A wrong name is worse than none: a name is only returned when a phrasing marks it as the
paper's own ("we propose X, a ...", "Full Name (ACR)" as the object of "we introduce",
"called X") and nothing marks it as background (an acronym the abstract used before it
introduced anything, a generic term like "LLMs", a textbook method like "Canonical
Correlation Analysis (CCA)") or as secondary (a further module, dataset or variant
introduced with "also"/"further" after the main contribution needs repeated use to be
believed).
Both functions take the abstract as plain Unicode (``tui.core.render.text``), never
raise, and need no more than the standard library. ``python bench/names.py`` measures them
against abstracts labelled by a careful reading, and against 21k real titles.

The work is split by concern:

* ``naming_text``: sentences, word shapes, the acronym matcher, cutting a phrase;
* ``naming_phrases``: reading a name at one spot, acronyms in an object, the scores;
* ``naming_patterns``: the verbs of "we propose" and kin, and the per-sentence entry;
* ``naming_objects``: the name in the object of such a verb ("we propose |X, a ...");
* ``naming_clauses``: "called X", "our method, X", "X is a ...", "X is proposed";
* ``naming_asides``: names given in passing ("a novel ... (ACR)", "The method, X, ...");
* ``naming_filters``: which candidates are plausible names at all;
* ``naming_silent``: the fallback, a coined name the abstract uses without introducing;
* ``naming_title``: the title line; this module: scoring across the abstract.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from tui.core.naming.clauses import VERSIONED_NAME
from tui.core.naming.filters import resolved_name
from tui.core.naming.patterns import find_candidates, intro_objects
from tui.core.naming.silent import silent_name
from tui.core.naming.text import split_sentences
from tui.core.naming.title import build_title

__all__ = ["derive_name", "derive_title"]

# A candidate needs this much evidence: one clear introducing phrasing (3.0), or a weaker
# one (an opening "X, a ...") backed by repeated mentions.
_THRESHOLD = 3.0
# "X, a new ..." opening the abstract already introduces X (naming_clauses.sentence_subject).
_OWN_OPENING = 2.0
# A name used before the paper introduces anything is background, not the contribution.
_BACKGROUND_PENALTY = 2.5
# "We also propose X" after the main contribution: X is secondary, it needs more support.
_SECONDARY_PENALTY = 0.75
_ADDITIVE = re.compile(
    r"\b(?:also|further|furthermore|additionally|[Ii]n addition|[Mm]oreover|[Ss]econd(?:ly)?|"
    r"[Tt]hird(?:ly)?|[Bb]esides)\b"
)
# A network named after a component ("HBO" block, "HBONets"): a likely phrasing will do.
_NETWORK_SUPPORT = 2.5
_NETWORK_OF = re.compile(r"-?Net(?:s|work)?")
# "two algorithms, FooRank-I and FooRank-II", "Gated Flow (G-F) and Gated Bridge (G-B)":
# an abstract that introduces several named things at once has no single name.
_LISTED_PENALTY = 2.0
_AND_ANOTHER_NAME = re.compile(
    r"\)?(?:\s*\([^()]{0,80}\))?,?\s+(?:and|or)\s+(?:the\s+)?(?:[A-Z][\w-]*\s+){0,5}?"
    r"\(?[A-Z][\w-]*[A-Z]"
)
# "X is a new technique for ... . We propose a sampler ...": the paper's own work comes
# later and does not mention X, so the opening defined the background.
_OPENING_IS_A = re.compile(r"(?:\s*\([^()]{1,120}\))?\s+(?:is|are)\s+an?\s")
_TEX_EN_DASH = re.compile(r"\b([A-Z][a-z]+)--([A-Z][a-z])")
_TEX_DASH = re.compile(r"(?<=\S)-{2,3}(?=\S)")
# A new version of a name the abstract discusses is the paper's ("FlowNet 2.0").
_SUCCESSOR_BONUS = 0.5
_MAX_INPUT = 100_000  # longer "abstracts" are runaway paragraphs; the head is enough


@dataclass(slots=True)
class _Evidence:
    """Accumulated support for one candidate name across the abstract."""

    score: float
    first_sentence: int
    """The first sentence with a clear introducing phrasing (else the first at all)."""
    start: int
    """Where the phrase introducing the name starts in that sentence."""
    aside: bool = False
    """Named only in passing there (see ``Candidate.aside``)."""


def derive_name(text: str) -> str:
    """The method, system or benchmark ``text`` introduces, or "" when it names none."""
    try:
        name = _derive_name(_normalise(text))
        if "–" in name and "--" in text:  # written "Lead--Exceed", read "Lead–Exceed"
            written = name.replace("–", "--")
            return written if written in " ".join(text.split()) else name
        return name
    except Exception:  # a reader must show the paper even if naming trips on odd input
        return ""


def derive_title(text: str, name: str) -> str:
    """One readable line in the abstract's own words, starting with ``name`` if given.

    ``name`` is normally ``derive_name(text)``; with "" the title is the phrase that says
    what the paper proposes or studies.
    """
    name = name.strip() if isinstance(name, str) else ""
    try:
        read = _normalise(name)  # the name as derive_name read it ("Lead–Exceed")
        title = build_title(_normalise(text), read)
        return name + title[len(read) :] if read != name and title.startswith(read) else title
    except Exception:  # same reason as above: a title is a convenience, never a crash
        return name


def _normalise(text: str) -> str:
    """Collapse whitespace (hard-wrapped paragraphs) and bound the work on huge inputs."""
    if not isinstance(text, str):
        return ""
    text = " ".join(text[:_MAX_INPUT].split())
    # TeX dashes: "method---SEGA (...)---which" and "Automata--a" are dashes between
    # words, not hyphens; "Mumford--Shah" joins two names with an en dash.
    if "--" in text:
        text = _TEX_DASH.sub(" — ", _TEX_EN_DASH.sub(r"\1–\2", text))
    return text


def _derive_name(text: str) -> str:
    """Score every candidate name and return the best one above the threshold."""
    sentences = split_sentences(text)
    evidence: dict[str, _Evidence] = {}
    for index, sentence in enumerate(sentences):
        for candidate in find_candidates(sentence, index):
            name = resolved_name(candidate)
            if not name:
                continue
            found = evidence.get(name)
            if found is None:
                evidence[name] = _Evidence(candidate.score, index, candidate.start, candidate.aside)
                continue
            # Background check counts from the clear introduction: "PointNet is a
            # pioneer ..." before "we propose PointNet++" does not make PointNet ours.
            if candidate.score >= _THRESHOLD and found.score < _OWN_OPENING:
                found.first_sentence, found.start = index, candidate.start
                found.aside = candidate.aside
            # Two introducing phrasings add up, but one strong phrasing is enough.
            found.score = max(found.score, candidate.score) + 0.5
    scores: dict[str, float] = {}
    best_name, best_score, best_sentence = "", 0.0, len(sentences)
    for name, found in evidence.items():
        mentions = _count_mentions(text, name)
        score = found.score + _mention_bonus(mentions)
        if _used_before(sentences, name, found.first_sentence):
            score -= _BACKGROUND_PENALTY
        if _secondary(sentences, found, evidence, mentions):
            # A name in passing after the named contribution is a part of it, never it.
            score -= _BACKGROUND_PENALTY if found.aside else _SECONDARY_PENALTY
        if _coordinated(sentences[found.first_sentence], name):
            score -= _LISTED_PENALTY
        if found.first_sentence == 0 and _opening_is_background(sentences, name):
            score -= _BACKGROUND_PENALTY
        if VERSIONED_NAME.search(name) and _count_mentions(text, name.rsplit(" ", 1)[0]) > mentions:
            score += _SUCCESSOR_BONUS  # "FlowNet 2.0" where the abstract discusses FlowNet
        scores[name] = score
        if score > best_score or (score == best_score and found.first_sentence < best_sentence):
            best_name, best_score, best_sentence = name, score, found.first_sentence
    if best_score < _THRESHOLD:
        # No phrasing named the contribution: perhaps the abstract just uses a name.
        return silent_name(text, sentences) if best_score < _OWN_OPENING else ""
    return _extended(best_name, scores)


def _secondary(
    sentences: Sequence[str], found: _Evidence, evidence: dict[str, _Evidence], mentions: int
) -> bool:
    """Whether the name is introduced as a further contribution ("We also propose X",
    "In addition, we introduce X") after the abstract already introduced something: a
    module, dataset or variant next to the main contribution; or given in passing ("a
    new metric, X, is devised") after an earlier sentence named the contribution.

    A name after an unnamed contribution is not secondary: "We propose a method ... At
    its core is a novel Spatial Attention Module (SAM)" names the paper by its part, and
    so does "We propose a method ... We further introduce the PPGNet, a ..." when the
    abstract uses PPGNet again (once, it may be a side product).
    """
    if found.first_sentence == 0:
        return False
    sentence = sentences[found.first_sentence]
    earlier = [other for other in evidence.values() if other.first_sentence < found.first_sentence]
    if found.aside:
        return any(other.score >= _THRESHOLD for other in earlier)
    if _ADDITIVE.search(sentence, 0, found.start + 1) is None:
        return False
    # "We propose a method ... We further introduce the PPGNet, a ... PPGNet ...": after
    # an unnamed contribution a further name used again carries the paper's only name.
    if mentions > 1 and not any(other.score >= _OWN_OPENING for other in earlier):
        return False
    return _introduced_before(sentences, found.first_sentence)


def _introduced_before(sentences: Sequence[str], index: int) -> bool:
    """Whether a sentence before ``index`` already introduces something."""
    return any(any(True for _ in intro_objects(earlier)) for earlier in sentences[:index])


def _extended(name: str, scores: dict[str, float]) -> str:
    """A believed new version of ``name`` ("PointNet++" over "PointNet"): the paper's.

    Only a suffix of symbols counts; a longer word ("WebWorld-Bench" next to WebWorld)
    is usually a part or a companion of the main name, as the corpora show.
    """
    for other, score in scores.items():
        suffix = other[len(name) :] if other.startswith(name) else ""
        if score >= _THRESHOLD and suffix and not any(ch.isalnum() for ch in suffix):
            return other
    # "the HBO block ... HBONet": the network built from a component is the main object.
    for other, score in scores.items():
        if score >= _NETWORK_SUPPORT and _NETWORK_OF.fullmatch(other, len(name)) and (
            other[: len(name)].lower() == name.lower()
        ):
            return other
    return name


def _mention_bonus(mentions: int) -> float:
    """Half a point per further mention, up to 1.5: coined names are used again."""
    return min(1.5, 0.5 * max(0, mentions - 1))


def _used_before(sentences: Sequence[str], name: str, introduced_in: int) -> bool:
    """Whether ``name`` appears in a sentence before the one that introduces it."""
    return any(_count_mentions(sentence, name) for sentence in sentences[:introduced_in])


def _count_mentions(text: str, name: str) -> int:
    """Occurrences of ``name`` as a whole word ("LIME" is not in "PL-LIME").

    Plain ``str.find`` with a boundary check: compiling a regex per name costs more than
    the whole search on a large corpus.
    """
    count, start = 0, text.find(name)
    while start >= 0:
        end = start + len(name)
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        if not (before.isalnum() or before in "-_") and not (after.isalnum() or after in "-_"):
            count += 1
        start = text.find(name, end)
    return count


def _coordinated(sentence: str, name: str) -> bool:
    """Whether ``name`` is the first of two names joined by "and" in its sentence."""
    at = sentence.find(name)
    return at >= 0 and _AND_ANOTHER_NAME.match(sentence, at + len(name)) is not None


def _opening_is_background(sentences: Sequence[str], name: str) -> bool:
    """Whether the abstract opens with "X is a ..." and then introduces something else."""
    if not sentences[0].startswith(name) or not _OPENING_IS_A.match(sentences[0], len(name)):
        return False
    return any(
        name not in sentence and any(True for _ in intro_objects(sentence))
        for sentence in sentences[1:]
    )
