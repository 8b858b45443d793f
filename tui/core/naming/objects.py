"""The object of an introducing verb: which name stands in "we propose |X, a ...".

:func:`after_intro` reads the words after "we propose" (and kin, found by
:func:`tui.core.naming.patterns.intro_objects`): an acronym with its long form, a name
right there, "the X algorithm", or a name after the descriptive words that lead to the
object's head noun ("a novel framework, NAME, ...", "a family of schemes NAME").
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tui.core.naming.filters import is_generic_term, is_textbook, resolved_name
from tui.core.naming.phrases import (
    CLEAR,
    CONNECTORS,
    GENERIC_NOUNS,
    LIKELY,
    PREPOSITION_OR_VERB,
    Candidate,
    acronym_in_object,
    followed_by_apposition,
    is_generic_noun,
    name_at,
    name_with_noun,
    word_after,
)
from tui.core.naming.text import acronym_long_form, is_strong_name, trim_word, words_with_spans

__all__ = ["after_intro"]

_NOT_AN_OBJECT = frozenset("to that how whether why what".split())
_NOUN_APPOSITION = re.compile(r",\s+an?\s")
_THE_APPOSITION = re.compile(r"\s*(?:,\s*(?:a|an|the|which|that)\s|:\s|\.?$)")
# Words that end the noun phrase of the object: a name after them is in another phrase
# ("we present experiments which use WSAT ...").
_ENDS_DESCRIPTORS = CONNECTORS | frozenset("which that who whose where when while using".split())
_DESCRIPTOR_GAPS = frozenset(["", ",", "--", "—", "–", ":", "-"])
# "we propose posteriordb, a database of ...": at most four words to the head noun.
_LOWER_CASE_APPOSED = re.compile(r"([a-z][\w+-]*[a-z0-9]),\s+an?\s+")
# "a family of schemes NAME", "a suite of benchmarks NAME": the head noun comes after "of".
_COLLECTIVE_NOUNS = frozenset(
    "family families suite suites type types kind kinds class classes variant variants".split()
)
_PREPOSITION_AFTER = re.compile(r" (?:for|to|in|on|with|that|which|by|via)\b")
# After "a new architecture NAME" the phrase may also go on with "based on".
_AFTER_APPOSED_NAME = re.compile(r" (?:for|to|in|on|with|that|which|by|via|based on)\b")
# "a modified/standard X": the capitalised X is a method that exists already.
_KNOWN_BEFORE = re.compile(
    r"\b(?:modified|improved|extended|generali[sz]ed|standard|classical|classic|conventional|"
    r"original|existing|popular|well-known|traditional|vanilla|so-called)\b"
)
_ACRONYM_AFTER = re.compile(r" \(([^()]{1,30})\)")


def after_intro(sentence: str, pos: int, index: int) -> Iterator[Candidate]:
    """Names in the object of an introducing verb: "we propose X, a ..." and kin."""
    if sentence.startswith(", ", pos):
        pos += 2  # "We propose, WarpGAN, a fully automatic network"
    rest = sentence[pos:]
    words = words_with_spans(rest, 0, 13)
    if not words or words[0][0].lower() in _NOT_AN_OBJECT:
        return
    acronym = acronym_in_object(rest)
    if acronym is not None:
        # The title keeps the whole object ("a Full Name (ACR) for ..."), so start there.
        candidate = Candidate(acronym[0], acronym[1], index, pos, acronym[2])
        yield candidate
        if resolved_name(candidate):
            return
    else:
        name, _end = name_at(rest, 0)
        if name:
            yield Candidate(name, CLEAR, index, pos)
            return
        name = name_with_noun(rest, 0) or _lower_case_apposed(rest)
        if name:
            # "we present Ring loss, a simple ...": one more mention makes it the name;
            # "we propose prepacking, a simple yet effective method": so does a noun.
            yield Candidate(name, CLEAR if name[0].islower() else LIKELY, index, pos)
            return
    # Past a term of the field ("a Convolutional Neural Network (CNN)-based model
    # “RotationNet,”"), the object's head noun may still carry the name.
    if words[0][0].lower() == "the" and len(words) > 1:
        found = tuple(_after_the(rest, words[1][1], pos, index))
        if found:
            yield from found
            return
    refused = rest.find(f"({acronym[0]})") if acronym is not None else -1
    yield from _after_descriptors(rest, words, pos, index, refused)


def _lower_case_apposed(rest: str) -> str:
    """A lower-case word as the whole object, set off by a noun phrase that says what it
    is: "we propose posteriordb, a database of models", "we present dip-means, a novel
    robust method"."""
    match = _LOWER_CASE_APPOSED.match(rest)
    if match is None:
        return ""
    for word, _start, _stop in words_with_spans(rest, match.end(), 5):
        if is_generic_noun(word):
            return match.group(1)
        if word in _ENDS_DESCRIPTORS:
            break
    return ""


def _after_the(rest: str, after_the: int, pos: int, index: int) -> Iterator[Candidate]:
    """"the Mimic Score, a ...", "the HCI Stereo Metrics.", "the DeepFool algorithm"."""
    name, end = name_at(rest, after_the, before_noun=True)
    if not name:
        return
    if _THE_APPOSITION.match(rest, end):
        yield Candidate(name, CLEAR, index, pos + after_the)
    elif is_generic_noun(noun := word_after(rest, end)):
        # "the Softstar algorithm, a softened ... technique": described, so named.
        described = _NOUN_APPOSITION.match(rest, end + 1 + len(noun)) is not None
        yield Candidate(name, CLEAR if described or is_strong_name(name) else LIKELY, index, pos)
    elif is_strong_name(name) and _PREPOSITION_AFTER.match(rest, end):
        yield Candidate(name, CLEAR, index, pos + after_the)  # "propose the CVM-Net for"
    elif is_strong_name(name):
        yield Candidate(name, LIKELY, index, pos)  # "the CutMix augmentation strategy"


def _after_descriptors(
    rest: str, words: list[tuple[str, int, int]], pos: int, index: int, refused: int = -1
) -> Iterator[Candidate]:
    """Walk the descriptive words of the object to its head noun and look for a name
    there: "a new LazySVD framework", "an efficient Avatar-Net that", "a novel
    framework, NAME, ...", "a system -- Calibration Wizard --"."""
    tried_part = False
    after_of = -1  # the "of" of "a family of", which does not end the noun phrase
    for number, (word, start, stop) in enumerate(words[:12]):
        lowered = word.lower()
        following = words[number + 1] if number + 1 < len(words) else None
        if following is None:
            return
        if not tried_part and word.lstrip("\"“'‘")[:1].isupper():
            tried_part = True  # only the first run of capitals: "Restricted Boltzmann ..."
            name = _named_part(rest, start)
            if name:
                yield Candidate(name, CLEAR, index, pos)  # "a new Ring Loss, which"
                return
        if number > 0 and is_strong_name(trim_word(word)) and lowered != "based":
            if (
                words[number - 1][0] == "based"
                or is_generic_term(trim_word(word))
                or (0 <= refused < start and rest[start - 1 : start] == "(")
            ):
                # "a detector based GZSL framework": the name is the topic's; in "a
                # ... (CNN)-based model X" a term of the field describes, it names nothing;
                # from an acronym refused with its long form on ("Gradient Descent
                # Ascent (GDA) methods", "super-resolution (SR) and ... (ITM) framework,
                # called X"), the object's acronyms are terms like it.
                continue
            name = trim_word(word)
            if rest[stop : following[1]] == " " and is_generic_noun(following[0].lower()):
                yield Candidate(name, CLEAR, index, pos)  # "we propose a GraphBit method"
                return
            if followed_by_apposition(rest, stop) or _PREPOSITION_AFTER.match(rest, stop):
                yield Candidate(name, LIKELY, index, pos)  # "a novel Reasoning-RCNN to"
                return
            continue  # "a Deep Stochastic IOC RNN Encoder-decoder framework, DESIRE,"
        if is_generic_noun(lowered):
            gap = rest[stop : following[1]].strip(" \"“”'‘")
            if gap == "(" and is_generic_term(trim_word(following[0])):
                continue  # "a Convolutional Neural Network (CNN)-based model X"
            if not gap and following[0] == "of" and lowered in _COLLECTIVE_NOUNS:
                after_of = number + 1  # "a family of quantization schemes vqSGD (...)"
                continue
            if not gap and (
                following[0] in ("and", "or", "based") or is_generic_noun(following[0])
            ):
                # "a feature detector and descriptor: LiFF", "a network pipeline,", "our
                # neural network based algorithm NN-UCB"
                continue
            if gap in _DESCRIPTOR_GAPS:
                name, end = name_at(rest, following[1], strong_only=not gap)
                if name and (
                    followed_by_apposition(rest, end) or _AFTER_APPOSED_NAME.match(rest, end)
                ):
                    yield Candidate(name, CLEAR, index, pos + following[1])
            return
        if number == after_of or (
            lowered == "of" and number > 0 and words[number - 1][0].lower() in _COLLECTIVE_NOUNS
        ):
            continue  # "a new type of RPCA method, RES-PCA, which"
        if number > 0 and lowered in _ENDS_DESCRIPTORS or rest[stop : stop + 1] in ";:(":
            return


def _named_part(rest: str, start: int) -> str:
    """Capitalised words ending in a capitalised generic noun, in the middle of a
    sentence: "a new Ring Loss, which", "a Context Encoding Module to capture"; a name
    by its capitals, unless it is a textbook term ("a Deep Neural Network"), a plural
    ("two other Mixture Models": a class), or modifies a noun ("... Network (Graph CNN)
    based method"). An acronym right after it is the name it goes by."""
    name, end = name_at(rest, start, loose=True)
    words = name.split()
    head = words[-1] if words else ""
    if (
        len(words) < 2
        or not head[:1].isupper()
        or head.lower() not in GENERIC_NOUNS
        or any(word.lower() in CONNECTORS for word in words)
        or is_textbook(name)
    ):
        return ""
    if _KNOWN_BEFORE.search(rest, 0, start):
        return ""  # "a modified Fast Marching Method": someone else's method, changed
    paren = _ACRONYM_AFTER.match(rest, end)
    short = trim_word(paren.group(1)) if paren else ""
    end = paren.end() if paren else end
    if not (
        followed_by_apposition(rest, end)
        or PREPOSITION_OR_VERB.match(rest, end)
        or is_generic_noun(word_after(rest, end))
    ):
        return ""  # "a Graph Convolutional Neural Network (Graph CNN) based method"
    if is_strong_name(short) and acronym_long_form(short, name):
        return short  # "a Symmetry-constrained Rectification Network (ScRN)"
    return name
