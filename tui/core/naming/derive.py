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
* ``naming_title``: the title line;
* ``naming_evidence``: adding up each candidate's evidence across the abstract;
* this module: the choice among the candidates.
"""

from __future__ import annotations

import re

from tui.core.naming.evidence import OWN_OPENING, THRESHOLD, Scored, scored_candidates
from tui.core.naming.silent import silent_name
from tui.core.naming.text import split_sentences
from tui.core.naming.title import build_title

__all__ = ["derive_name", "derive_title"]

# A network named after a component ("HBO" block, "HBONets"): a likely phrasing will do.
_NETWORK_SUPPORT = 2.5
_NETWORK_OF = re.compile(r"-?Net(?:s|work)?")
_TEX_EN_DASH = re.compile(r"\b([A-Z][a-z]+)--([A-Z][a-z])")
_TEX_DASH = re.compile(r"(?<=\S)-{2,3}(?=\S)")
_MAX_INPUT = 100_000  # longer "abstracts" are runaway paragraphs; the head is enough


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
    scored = scored_candidates(text, sentences)
    best: Scored | None = None
    for candidate in scored:
        # Ties go to the name introduced first.
        if best is None or candidate.score > best.score or (
            candidate.score == best.score and candidate.first_sentence < best.first_sentence
        ):
            best = candidate
    best_score = best.score if best is not None and best.score > 0 else 0.0
    if best is None or best_score < THRESHOLD:
        # No phrasing named the contribution: perhaps the abstract just uses a name.
        return silent_name(text, sentences) if best_score < OWN_OPENING else ""
    return _extended(best.name, {candidate.name: candidate.score for candidate in scored})


def _extended(name: str, scores: dict[str, float]) -> str:
    """A believed new version of ``name`` ("PointNet++" over "PointNet"): the paper's.

    Only a suffix of symbols counts; a longer word ("WebWorld-Bench" next to WebWorld)
    is usually a part or a companion of the main name, as the corpora show.
    """
    for other, score in scores.items():
        suffix = other[len(name) :] if other.startswith(name) else ""
        if score >= THRESHOLD and suffix and not any(ch.isalnum() for ch in suffix):
            return other
    # "the HBO block ... HBONet": the network built from a component is the main object.
    for other, score in scores.items():
        if score >= _NETWORK_SUPPORT and _NETWORK_OF.fullmatch(other, len(name)) and (
            other[: len(name)].lower() == name.lower()
        ):
            return other
    return name
