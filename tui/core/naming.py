"""Names and titles for abstracts that come without a title.

``derive_name`` finds the method, system or benchmark an abstract introduces, written as
the abstract writes it ("Gecko", "SCHUR-A*", "Agent Primitives"), or "" when it
introduces none. ``derive_title`` makes one readable line from the abstract's own words.

A wrong name is worse than none: a name is only returned when a phrasing marks it as the
paper's own ("we propose X, a ...", "Full Name (ACR)" as the object of "we introduce",
"called X") and nothing marks it as background (an acronym the abstract used before it
introduced anything, a generic term like "LLMs"). Both functions take the abstract as
plain Unicode (``tui.core.render``) and never raise.
"""

from __future__ import annotations

from dataclasses import dataclass

from tui.core.naming_patterns import Candidate, find_candidates
from tui.core.naming_text import split_sentences
from tui.core.naming_title import build_title

__all__ = ["derive_name", "derive_title"]

# A candidate needs this much evidence: one clear introducing phrasing (3.0), or a weaker
# one (an opening "X, a ...") backed by repeated mentions.
_THRESHOLD = 3.0
# "X, a new ..." opening the abstract already introduces X (see _sentence_subject).
_OWN_OPENING = 2.0
# A name used before the paper introduces anything is background, not the contribution.
_BACKGROUND_PENALTY = 2.5
# Common terms of the field that appear as objects of "we propose" without being coined
# by the paper ("we propose CNN features ...", "we present MCMC methods ...").
_GENERIC_TERMS = frozenset(
    """
    we our the this these in a an it ai ml nlp cv rl dl llm llms vlm vlms mllm mllms
    cnn cnns rnn rnns gnn gnns gan gans vae vaes mlp mlps lstm lstms gru grus dnn dnns
    svm svms mcmc sgd pca ica lda em hmm hmms crf crfs gp gps mdp mdps pomdp pomdps
    bn kl map mle iid gpu gpus cpu cpus api apis sota iou roc auc nmf svd knn
    transformer transformers bayesian gaussian markov euclidean riemannian hilbert
    monte carlo however moreover finally specifically furthermore additionally first
    second third then thus therefore here recently
    """.split()
)
_MAX_INPUT = 100_000  # longer "abstracts" are runaway paragraphs; the head is enough


@dataclass(slots=True)
class _Evidence:
    """Accumulated support for one candidate name across the abstract."""

    score: float
    first_sentence: int
    """The first sentence with a clear introducing phrasing (else the first at all)."""


def derive_name(text: str) -> str:
    """The method, system or benchmark ``text`` introduces, or "" when it names none."""
    try:
        return _derive_name(_normalise(text))
    except Exception:  # a reader must show the paper even if naming trips on odd input
        return ""


def derive_title(text: str, name: str) -> str:
    """One readable line in the abstract's own words, starting with ``name`` if given.

    ``name`` is normally ``derive_name(text)``; with "" the title is the phrase that says
    what the paper proposes or studies.
    """
    try:
        return build_title(_normalise(text), (name or "").strip())
    except Exception:  # same reason as above: a title is a convenience, never a crash
        return (name or "").strip()


def _normalise(text: str) -> str:
    """Collapse whitespace (hard-wrapped paragraphs) and bound the work on huge inputs."""
    if not isinstance(text, str):
        return ""
    return " ".join(text[:_MAX_INPUT].split())


def _derive_name(text: str) -> str:
    """Score every candidate name and return the best one above the threshold."""
    sentences = split_sentences(text)
    evidence: dict[str, _Evidence] = {}
    for index, sentence in enumerate(sentences):
        for candidate in find_candidates(sentence, index):
            if not _plausible(candidate):
                continue
            found = evidence.get(candidate.name)
            if found is None:
                evidence[candidate.name] = _Evidence(candidate.score, index)
                continue
            # Background check counts from the clear introduction: "PointNet is a
            # pioneer ..." before "we propose PointNet++" does not make PointNet ours.
            if candidate.score >= _THRESHOLD and found.score < _OWN_OPENING:
                found.first_sentence = index
            # Two introducing phrasings add up, but one strong phrasing is enough.
            found.score = max(found.score, candidate.score) + 0.5
    best_name, best_score, best_sentence = "", 0.0, len(sentences)
    for name, found in evidence.items():
        score = found.score + _mention_bonus(text, name)
        if _used_before(sentences, name, found.first_sentence):
            score -= _BACKGROUND_PENALTY
        if score > best_score or (score == best_score and found.first_sentence < best_sentence):
            best_name, best_score, best_sentence = name, score, found.first_sentence
    return best_name if best_score >= _THRESHOLD else ""


def _plausible(candidate: Candidate) -> bool:
    """Reject generic terms and plural acronyms ("LLMs"), which name a class of things."""
    name = candidate.name
    if name.lower() in _GENERIC_TERMS or len(name) > 60:
        return False
    if name.endswith("s") and len(name) > 2 and name[:-1].isupper():
        return False
    return any(ch.isalpha() for ch in name)


def _mention_bonus(text: str, name: str) -> float:
    """Half a point per further mention, up to 1.5: coined names are used again."""
    return min(1.5, 0.5 * max(0, _count_mentions(text, name) - 1))


def _used_before(sentences: list[str], name: str, introduced_in: int) -> bool:
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
