"""The evidence for each candidate name across an abstract: what ``derive`` decides on.

Every phrasing of :mod:`tui.core.naming.patterns` proposes candidates sentence by
sentence; this module adds them up per name and says, for each, what the rest of the
abstract makes of it: how often it is used, whether it was used before the paper
introduced anything (background), whether it comes as a further part after the main
contribution (secondary), whether it is one of several names listed together, and
whether the abstract opens by defining it as someone else's. ``Scored.score`` sums
these the way the rules weigh them; ``derive`` chooses among the scored candidates.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from tui.core.naming.clauses import VERSIONED_NAME
from tui.core.naming.filters import resolved_name
from tui.core.naming.patterns import find_candidates, intro_objects

__all__ = ["OWN_OPENING", "THRESHOLD", "Scored", "scored_candidates"]

# A candidate needs this much evidence: one clear introducing phrasing (3.0), or a weaker
# one (an opening "X, a ...") backed by repeated mentions.
THRESHOLD = 3.0
# "X, a new ..." opening the abstract already introduces X (naming_clauses.sentence_subject).
OWN_OPENING = 2.0
# A name used before the paper introduces anything is background, not the contribution.
_BACKGROUND_PENALTY = 2.5
# "We also propose X" after the main contribution: X is secondary, it needs more support.
_SECONDARY_PENALTY = 0.75
_ADDITIVE = re.compile(
    r"\b(?:also|further|furthermore|additionally|[Ii]n addition|[Mm]oreover|[Ss]econd(?:ly)?|"
    r"[Tt]hird(?:ly)?|[Bb]esides)\b"
)
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
# A new version of a name the abstract discusses is the paper's ("FlowNet 2.0").
_SUCCESSOR_BONUS = 0.5


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


@dataclass(frozen=True, slots=True)
class Scored:
    """One candidate name with the rules' score."""

    name: str
    score: float
    """The rules' total: the phrasing's score, mentions, and the penalties below."""
    first_sentence: int
    """The sentence that introduces it (ties between scores go to the earlier)."""


def scored_candidates(text: str, sentences: Sequence[str]) -> list[Scored]:
    """Every plausible candidate name of ``text`` (split into ``sentences``), in the order
    the abstract first proposes them."""
    evidence: dict[str, _Evidence] = {}
    for index, sentence in enumerate(sentences):
        for candidate in find_candidates(sentence, index):
            name = resolved_name(candidate)
            if not name:
                continue
            found = evidence.get(name)
            if found is None:
                evidence[name] = _Evidence(candidate.score, index, candidate.start,
                                           candidate.aside)
                continue
            # Background check counts from the clear introduction: "PointNet is a
            # pioneer ..." before "we propose PointNet++" does not make PointNet ours.
            if candidate.score >= THRESHOLD and found.score < OWN_OPENING:
                found.first_sentence, found.start = index, candidate.start
                found.aside = candidate.aside
            # Two introducing phrasings add up, but one strong phrasing is enough.
            found.score = max(found.score, candidate.score) + 0.5
    return [_scored(text, sentences, name, found, evidence) for name, found in evidence.items()]


def _scored(text: str, sentences: Sequence[str], name: str, found: _Evidence,
            evidence: dict[str, _Evidence]) -> Scored:
    """The rules' score of one candidate."""
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
    return Scored(name, score, found.first_sentence)


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
        return any(other.score >= THRESHOLD for other in earlier)
    if _ADDITIVE.search(sentence, 0, found.start + 1) is None:
        return False
    # "We propose a method ... We further introduce the PPGNet, a ... PPGNet ...": after
    # an unnamed contribution a further name used again carries the paper's only name.
    if mentions > 1 and not any(other.score >= OWN_OPENING for other in earlier):
        return False
    return _introduced_before(sentences, found.first_sentence)


def _introduced_before(sentences: Sequence[str], index: int) -> bool:
    """Whether a sentence before ``index`` already introduces something."""
    return any(any(True for _ in intro_objects(earlier)) for earlier in sentences[:index])


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
