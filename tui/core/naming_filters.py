"""Which candidate names to believe: generic terms, plurals and tiny acronyms are not names."""

from __future__ import annotations

import re

from tui.core.naming_phrases import CONNECTORS, Candidate
from tui.core.naming_text import is_capitalised

# Common terms of the field that appear as objects of "we propose" without being coined
# by the paper ("we propose CNN features ...", "we present MCMC methods ...").
_GENERIC_TERMS = frozenset(
    """
    we our the this these in a an it ai ml nlp cv rl dl llm llms vlm vlms mllm mllms
    cnn cnns rnn rnns gnn gnns gan gans vae vaes mlp mlps lstm lstms gru grus dnn dnns
    svm svms mcmc sgd pca ica lda em hmm hmms crf crfs gp gps mdp mdps pomdp pomdps
    kl map mle iid gpu gpus cpu cpus api apis sota iou roc auc nmf svd knn
    transformer transformers bayesian gaussian markov euclidean riemannian hilbert
    rkhs rpca rgb-d rgbd sgld hmc admm lasso relu re-id reid
    monte carlo
    """.split()
)
# Words that open sentences without naming anything ("Secondly, a ... is proposed").
# Adverbs in -ly are caught by their ending.
_OPENERS = frozenset(
    """
    here then next also thus hence therefore however today moreover furthermore further
    meanwhile instead likewise overall first second third fourth besides nevertheless
    nonetheless still yet again now altogether in on for to as at by with from this that
    these those such our we it its their there when while although though since because
    """.split()
)
_DIMENSIONS = re.compile(r"\d+(?:\.\d+)?D")  # "3D", "2.5D"
_PLURAL_ACRONYM = re.compile(r"[A-Z0-9-]+s")
_PDF_ARTIFACT = re.compile(r"cid:\d")  # "(cid:173)": a soft hyphen lost in PDF extraction


def resolved_name(candidate: Candidate) -> str:
    """The name a candidate stands for, or "" when it is not plausible as one.

    Generic terms ("CNN"), plural acronyms ("LLMs": a class of things), dimensions
    ("3D") and two-character names ("TV", "IP", "DP": too often textbook terms) are
    dropped; a dropped acronym with a capitalised long form yields the long form
    ("Hadamard Response (HR)" names Hadamard Response).
    """
    long_form = candidate.long_form
    if long_form and " " not in long_form and long_form.islower():
        return ""  # "re-identification (re-ID)" shortens a word, it coins no name
    if _plausible(candidate.name):
        return candidate.name
    if _PLURAL_ACRONYM.fullmatch(candidate.name) and _capitalised_phrase(candidate.long_form):
        return candidate.name  # "Part-based One-vs-One Features (POOFs)"
    if (
        len(candidate.name) <= 2
        and _capitalised_phrase(long_form)
    ):
        return long_form if _plausible(long_form) else ""
    return ""


def _capitalised_phrase(phrase: str) -> bool:
    """Whether every word of ``phrase`` but connectors is capitalised ("Hadamard Response")."""
    words = phrase.split()
    return bool(words) and all(is_capitalised(w) or w in CONNECTORS for w in words)


def _plausible(name: str) -> bool:
    """See :func:`resolved_name`."""
    # Two Latin characters are too few to tell "TV" from a name; two Chinese ones are not.
    if (len(name) <= 2 and name.isascii()) or len(name) > 60 or name.lower() in _GENERIC_TERMS:
        return False
    if " " not in name and (name.lower() in _OPENERS or name.endswith("ly")):
        return False
    if _DIMENSIONS.fullmatch(name) or _PDF_ARTIFACT.search(name):
        return False
    if name.endswith("s") and name[:-1].isupper():
        return False
    return any(ch.isalpha() for ch in name)


