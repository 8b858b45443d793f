"""Names given in passing, outside the object of an introducing verb.

Two phrasings that name the paper's own thing without "we propose X":

* a new thing's acronym, whatever the verb: "we specify a new fully convolutional
  Siamese network (FCSN)", "At its core is a novel Spatial Attention Module (SAM)";
* an apposition to a noun that stands for the paper's thing: "The method, "Principal
  Components Pruning (PCP)", is based on ...", "A new optimization strategy, Mean Field
  Annealing, is presented".

:func:`aside_names` yields :class:`~tui.core.naming.phrases.Candidate` records for one
sentence, as the other phrasing modules do; ``naming_patterns`` calls it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tui.core.naming.clauses import BACKGROUND
from tui.core.naming.filters import is_textbook
from tui.core.naming.text import is_capitalised, is_strong_name, trim_word
from tui.core.naming.phrases import (
    CLEAR,
    GENERIC_NOUNS,
    LIKELY,
    Candidate,
    acronym_in_object,
    followed_by_apposition,
    is_generic_noun,
    name_at,
    quoted_name,
)

__all__ = ["aside_names", "by_means_of", "called_at_the_end"]

_NOUNS = "|".join(sorted(GENERIC_NOUNS))
# "a new ...", "a simple yet novel ...": an indefinite noun phrase the paper calls new.
_NEW_THING = re.compile(r"\b[Aa]n?\s+(?:[a-z-]+\s+){0,3}?(?:new|novel)\s+")
# "The method, NAME, ..." opening a sentence; "a new strategy, NAME, ..." anywhere.
_THE_NOUN_COMMA = re.compile(rf"(?:The|This)\s+(?:[a-z-]+\s+){{0,2}}?(?:{_NOUNS}),\s+")
_NEW_NOUN_COMMA = re.compile(
    rf"\b[Aa]n?\s+(?:[a-z-]+\s+){{0,3}}?(?:new|novel)\s+(?:[a-z-]+\s+){{0,3}}?(?:{_NOUNS}),\s+"
)
_QUOTES = "\"“”'‘’"
_BY_MEANS_OF = re.compile(r" (?:by|with|using|via|through) (?:(?:a|an|the|our) )?(?=[A-Z])")
# "We call our new implementation with GOSS and EFB LightGBM.", "thus the term
# Attentional Push.": a naming word whose name is the end of the sentence.
_CALL = re.compile(
    r"\b(?:[Ww]e (?:call|name|term|dub|coin)|(?:hence|thus) the (?:name|term))\b"
)
_CLOSING_WORDS = re.compile(r"((?:[^\s(),;:]+ ){0,3}[^\s(),;:]+?)[\"”'’]*[.!]?$")


def aside_names(sentence: str, index: int) -> Iterator[Candidate]:
    """Names a sentence gives in passing (see the module docstring)."""
    if "new" in sentence or "novel" in sentence:
        yield from _new_acronyms(sentence, index)
        for match in _NEW_NOUN_COMMA.finditer(sentence):
            yield from _apposition(sentence, match, index)
    opening = _THE_NOUN_COMMA.match(sentence)
    if opening is not None:
        yield from _apposition(sentence, opening, index)


def called_at_the_end(sentence: str, index: int) -> Iterator[Candidate]:
    """The name that ends a sentence with a naming word, where the words right after it
    name nothing: "We model the groups and topics jointly; we call this model, which
    learns both at once, Group-Topic.", "thus the term Attentional Push.": the
    capitalised or coined words closing the sentence, or its last word when a coined
    word comes before ("EFB LightGBM"). Not in a sentence that cites ("an algorithm
    introduced in [1] ... that we call here OPTSPACE")."""
    match = None
    if " call" in sentence or " name" in sentence or " term" in sentence or " dub" in sentence:
        for match in _CALL.finditer(sentence):
            pass
    if match is None or "[" in sentence or "et al" in sentence:
        return
    closing = _CLOSING_WORDS.search(sentence, match.end())
    if closing is None:
        return
    words = [trim_word(word) for word in closing.group(1).split()]
    taken: list[str] = []
    for word in reversed(words):
        if not word or not (is_strong_name(word) or is_capitalised(word)):
            break
        taken.insert(0, word)
    if taken and any(is_strong_name(word) for word in taken[:-1]):
        taken = taken[-1:]  # "GOSS and EFB LightGBM": the last coined word
    if taken:
        yield Candidate(" ".join(taken), CLEAR, index, match.start())


def by_means_of(sentence: str, index: int) -> Iterator[Candidate]:
    """A named thing the paper's introduction works by, where its object named nothing:
    "we propose to learn such features by Trilinear Attention Sampling Network (TASN)",
    "we augment recurrent networks with Predictive-State Decoders (PSDs)". The long form
    must be capitalised words ending in a generic noun, so "a method for Zero-Shot
    Learning (ZSL)" (a task) and "by Stochastic Gradient Descent (SGD)" (a term) are
    not read; a plural ("using Dynamic Bayesian Networks (DBNs)") is a class of models
    the paper uses. One mention is not enough: the name must be used again."""
    for match in _BY_MEANS_OF.finditer(sentence):
        found = acronym_in_object(sentence[match.end() :])
        if found is None or found[1] < CLEAR or not found[2] or found[0].endswith("s"):
            continue
        head = found[2].rsplit(" ", 1)[-1]
        if head[:1].isupper() and is_generic_noun(head.lower()) and not is_textbook(found[2]):
            yield Candidate(found[0], LIKELY, index, match.start(), found[2], aside=True)


def _new_acronyms(sentence: str, index: int) -> Iterator[Candidate]:
    """"a new fully convolutional Siamese network (FCSN)" under any verb; not where the
    sentence speaks of others' work ("a popular new method (X)")."""
    for match in _NEW_THING.finditer(sentence):
        if _others_work(sentence, match.start()):
            return
        rest = sentence[match.start() :]
        found = acronym_in_object(rest)
        if found is None or found[1] < LIKELY:
            continue
        close = rest.find(")", rest.find("(" + found[0]))
        # Not "a novel integral probability metric (IPM)-based GAN": a modifier.
        if rest[close + 1 : close + 2] != "-":
            yield Candidate(found[0], found[1], index, match.start(), found[2], aside=True)


def _apposition(sentence: str, match: re.Match[str], index: int) -> Iterator[Candidate]:
    """The name set off by commas after a noun: "The method, NAME, is ...", quoted or
    not, possibly a long form with its acronym."""
    if _others_work(sentence, match.end()):
        return
    rest = sentence[match.end() :]
    if rest.startswith("the "):
        rest = rest[4:]  # "a new deep neural network, the Action4DNet, to recognize"
    unquoted = rest.lstrip(_QUOTES)
    quoted = len(unquoted) < len(rest)
    found = acronym_in_object(unquoted)
    paren = unquoted.find(")")
    if found is not None and found[1] >= CLEAR and paren >= 0:
        if _closes(unquoted, paren + 1):
            yield Candidate(found[0], CLEAR, index, match.start(), found[2], aside=True)
        return
    name, end = name_at(unquoted, 0, loose=True)
    if not name and quoted:
        name = quoted_name(rest, 0)
        end = len(name)
    if name and _closes(unquoted, end):
        yield Candidate(name, CLEAR, index, match.start(), quoted=quoted, aside=True)


def _others_work(sentence: str, end: int) -> bool:
    """Whether the words before ``end`` speak of others' work ("Recently, a new ...")."""
    return BACKGROUND.search(sentence.lower(), 0, end) is not None


def _closes(text: str, end: int) -> bool:
    """Whether an apposition ends at ``end``: a closing quote, then a comma or a verb."""
    after = text[end:].lstrip(_QUOTES)
    return after.startswith(",") or followed_by_apposition(after, 0) and not after.startswith(
        "("
    )
