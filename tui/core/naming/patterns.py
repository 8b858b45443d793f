"""Where an abstract introduces a name: the phrasings :mod:`tui.core.naming.derive` looks for.

:func:`find_candidates` takes one sentence and returns
:class:`~tui.core.naming.phrases.Candidate` records: a name, how strongly the phrasing
marks it as the paper's own, and where it stands. This module reads the object of an
introducing verb ("we propose X, a ..."); the other phrasings live in
``naming_clauses.py``, the reading of a name at one spot in ``naming_phrases.py``, and
the scoring across sentences in ``naming.py``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from functools import lru_cache

from tui.core.naming.asides import aside_names, called_at_the_end
from tui.core.naming.clauses import (
    BACKGROUND,
    OWNED,
    PASSIVE,
    after_naming,
    after_our,
    before_passive,
    sentence_subject,
    short_form,
)
from tui.core.naming.phrases import (
    CLEAR,
    CONNECTORS,
    GENERIC_NOUNS,
    LIKELY,
    PREPOSITION_OR_VERB,
    WEAK,
    Candidate,
    acronym_in_object,
    followed_by_apposition,
    is_generic_noun,
    name_at,
    name_with_noun,
    word_after,
)
from tui.core.naming.filters import is_textbook
from tui.core.naming.text import acronym_long_form, is_strong_name, trim_word, words_with_spans

__all__ = ["Candidate", "find_candidates", "intro_objects"]

_VERBS = (
    r"propos|introduc|present|develop|design|devis|describ|buil[dt]|construct|creat|"
    r"releas|contribut|offer|formulat|put forward|establish|unveil|coin|curat|collect|provid|"
    r"suggest|deriv"
)
# Regexes that start with a literal space (or a small class) let the engine skip ahead,
# several times faster than a leading alternation; sentences get a space in front.
_VERB_AT = re.compile(
    # "We propose, WarpGAN, a ...": a comma before a name; "We describe, analyze and
    # experiment with" lists verbs.
    rf" ((?:{_VERBS})(?:e|es|ed|ing|s)?)\b(?:,(?=\s+[A-Z]))?\s+"
    # "we propose and analyze X": the object comes after the second verb.
    r"(?:and\s+(?:analy[sz]e|study|evaluate|test|implement|validate|investigate|apply|"
    r"discuss|demonstrate)\s+)?"
)
# Who introduces: "we", "this paper", "and" (a second verb); "by"/"to"/"," need care below.
_SUBJECT_BEFORE = re.compile(
    r"(?:\b(?:[Ww]e|I|authors|and|(?:[Tt]his|[Oo]ur|[Tt]he|present)\s+"
    r"(?:paper|work|study|article|letter|chapter|note|thesis))"
    r"(?:\s+(?:also|further|then|first|here|hereby|therefore|thus|now|newly|additionally|"
    r"instead|subsequently|next|finally|hence|specifically|accordingly|have|has))*"
    r"|\b([Bb]y|to)|(,))$"
)
_CONTRIBUTION = re.compile(
    r"\b[Cc]ontributions?(?: of (?:this|the|our) (?:paper|work))? (?:is|are|includes?)\s+"
    r"(?:the\s+introduction\s+of\s+)?"
)
_PARTICIPLE = re.compile(r"(?:propos|introduc|present|develop)ing")
_TO_VERBS = frozenset("propose introduce present develop design devise".split())
_NAMING = re.compile(
    r"[ (](?:(?:called|named|dubbed|termed|coined|nicknamed|namely|denoted|referred(?: to)?|"
    r"abbreviated|known(?=\s+as))(?:\s+(?:as|by))?\s+"
    r"|[Ww]e\s+(?:call|name|term|dub|refer to|denote)"
    r"(?:\s+(?:it|this|these|them|the|our)(?:\s+[a-z-]+){0,4})?,?(?:\s+as)?\s+)(?:the\s+)?"
)
_HINT = re.compile(
    rf"[ (](?:{_VERBS}|call|named|namely|name |dub|term|coin|denot|refer|abbreviat|"
    r"[Oo]ur |[Tt]he (?:proposed|resulting|new) |[Tt]his (?:new|novel|proposed) )"
)
# "our method, X", "the proposed X", "our Full Name (ACR) framework".
_OUR = re.compile(
    r" (?:[Oo]ur|([Tt]he (?:proposed|resulting|new))|[Tt]his(?= (?:new|novel|proposed)\b))\s+"
    r"(?:(?:proposed|new|novel|resulting|final|general|overall)\s+)?"
)
_NOT_AN_OBJECT = frozenset("to that how whether why what".split())
_NOUN_APPOSITION = re.compile(r",\s+an?\s")
_THE_APPOSITION = re.compile(r"\s*(?:,\s*(?:a|an|the|which|that)\s|:\s|\.?$)")
# Words that end the noun phrase of the object: a name after them is in another phrase
# ("we present experiments which use WSAT ...").
_ENDS_DESCRIPTORS = CONNECTORS | frozenset("which that who whose where when while using".split())
_DESCRIPTOR_GAPS = frozenset(["", ",", "--", "—", "–", ":", "-"])
_PREPOSITION_AFTER = re.compile(r" (?:for|to|in|on|with|that|which|by|via)\b")
# After "a new architecture NAME" the phrase may also go on with "based on".
_AFTER_APPOSED_NAME = re.compile(r" (?:for|to|in|on|with|that|which|by|via|based on)\b")
# "we propose a compression model to defend attacks: ComDefend." The name closes the
# sentence whose object it names, after a colon or a dash.
_CLOSING_NAME = re.compile(r"(?::|\s[-—–]{1,3})\s+(?=\S)(?!.*[:—–])")
# "..., resulting in the DART algorithm", "leading to the ... (SPALS) method".
# "a modified/standard X": the capitalised X is a method that exists already.
_KNOWN_BEFORE = re.compile(
    r"\b(?:modified|improved|extended|generali[sz]ed|standard|classical|classic|conventional|"
    r"original|existing|popular|well-known|traditional|vanilla|so-called)\b"
)
_ACRONYM_AFTER = re.compile(r" \(([^()]{1,30})\)")
_RESULT = re.compile(
    r"\b(?:resulting in|leading to|which leads to|which results in)\s+(?:the|a|an)\s+"
)


def intro_objects(sentence: str) -> Iterator[int]:
    """Offsets where the object of an introducing verb starts ("we propose |X, a ...").

    Accepts "we/this paper/and propose", "by proposing", ", proposing", "our
    contribution is", and after "to" only verbs that cannot mean using someone else's
    work ("fail to provide X" is not).
    """
    padded = " " + sentence
    for match in _VERB_AT.finditer(padded):
        subject = _SUBJECT_BEFORE.search(padded, max(0, match.start() - 90), match.start())
        if subject is None:
            continue
        verb = match.group(1)
        if subject.group(1) == "to" and verb not in _TO_VERBS:
            continue
        if subject.group(1) in ("by", "By") and not verb.endswith("ing"):
            continue  # "by design" is no verb
        if subject.group(2) and not _PARTICIPLE.fullmatch(verb):
            continue  # ", offering limited insight" is no introduction
        yield match.end() - 1
    if "ontribution" in sentence:  # "Our second contribution is a new dataset -- X --"
        for match in _CONTRIBUTION.finditer(sentence):
            yield match.end()


def find_candidates(sentence: str, index: int) -> tuple[Candidate, ...]:
    """All candidate names in one sentence, from every phrasing.

    Cached because ``derive_title`` asks again for the sentences ``derive_name`` just
    read; the key includes the index, which the candidates carry.
    """
    return _find_candidates(sentence, index)


@lru_cache(maxsize=256)
def _find_candidates(sentence: str, index: int) -> tuple[Candidate, ...]:
    """See :func:`find_candidates`."""
    found: list[Candidate] = []
    padded = " " + sentence  # the regexes start with a space; offsets are one too far
    # One cheap hint regex spares the costly ones on the many sentences without a verb
    # of introduction or naming, or "our": this halves the time over a large corpus.
    hinted = _HINT.search(padded) is not None
    has_intro = False
    if hinted:
        for start in intro_objects(sentence):
            has_intro = True
            found.extend(_after_intro(sentence, start, index))
    if has_intro and not found:
        found.extend(_closing_name(sentence, index))
    if hinted or "result" in sentence or "lead" in sentence:
        found.extend(_resulting(sentence, index))
    owned: bool | None = has_intro or (bool(OWNED.search(sentence)) if hinted else None)
    if hinted:
        # Others' work ("a popular method called X") outweighs "we"/"our" in the sentence;
        # only words before the naming word count ("called PG-means, which fits a
        # classical mixture model" names the paper's own algorithm).
        for match in _NAMING.finditer(padded):
            # The clause of the naming word: "..., which commonly involves ..., we propose
            # an architecture called ManTra-Net" names the paper's own architecture.
            clause = max(padded.rfind(",", 0, match.start()), padded.rfind(";", 0, match.start()))
            background = BACKGROUND.search(padded, max(0, clause), match.start())
            score = WEAK if background else CLEAR if owned else LIKELY
            # "known as" mostly names others' work unless we just introduced something.
            known_as = padded.startswith(" known", match.start()) and not has_intro
            naming_score = min(score, LIKELY) if known_as else score
            named = after_naming(sentence, match.end() - 1, index, naming_score)
            if padded[match.start() + 1 : match.start() + 3] in ("we", "We"):
                # "(which we call Autoconj)" names the paper's own thing even in a sentence
                # about others' work; "which we call "familiar objects"" names a notion.
                named = (_we_call(candidate) for candidate in named)
            found.extend(named)
        for match in _OUR.finditer(padded):
            found.extend(after_our(sentence, match.end() - 1, index, bool(match.group(1))))
    found.extend(sentence_subject(sentence, index, owned))
    if " short" in sentence:
        found.extend(short_form(sentence, index, bool(owned or OWNED.search(sentence))))
    passive = PASSIVE.search(sentence) if hinted else None  # its verbs are in the hint
    if passive is not None:
        found.extend(before_passive(sentence[: passive.start()], index))
    if hinted and not found:
        found.extend(called_at_the_end(sentence, index))  # "we call this Group-Topic."
    if not found and ("," in sentence or "(" in sentence):
        # Only where no other phrasing named anything: "we present GroupNet built with a
        # novel DGConv operation" names GroupNet, its part comes in passing.
        found.extend(aside_names(sentence, index))
    return tuple(found)


def _we_call(candidate: Candidate) -> Candidate:
    """A name given with "we call": clear when it is written as a name."""
    name = candidate.name
    if is_strong_name(name.split()[0]) or name[:1].isupper():
        return replace(candidate, score=CLEAR)
    return candidate


def _after_intro(sentence: str, pos: int, index: int) -> Iterator[Candidate]:
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
        yield Candidate(acronym[0], acronym[1], index, pos, acronym[2])
        return
    name, _end = name_at(rest, 0)
    if name:
        yield Candidate(name, CLEAR, index, pos)
        return
    name = name_with_noun(rest, 0)
    if name:
        yield Candidate(name, LIKELY, index, pos)  # "we present Ring loss, a simple ..."
        return
    if words[0][0].lower() == "the" and len(words) > 1:
        found = tuple(_after_the(rest, words[1][1], pos, index))
        if found:
            yield from found
            return
    yield from _after_descriptors(rest, words, pos, index)


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
    rest: str, words: list[tuple[str, int, int]], pos: int, index: int
) -> Iterator[Candidate]:
    """Walk the descriptive words of the object to its head noun and look for a name
    there: "a new LazySVD framework", "an efficient Avatar-Net that", "a novel
    framework, NAME, ...", "a system -- Calibration Wizard --"."""
    tried_part = False
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
            if words[number - 1][0] == "based":
                continue  # "a detector based GZSL framework": the name is the topic's
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


def _closing_name(sentence: str, index: int) -> Iterator[Candidate]:
    """A name that closes an introducing sentence after a colon or a dash: "we contribute
    the first large-scale database for 3D car understanding - ApolloCar3D"."""
    tail = sentence[-80:]  # a name closes the sentence; the tail bounds the work
    for match in _CLOSING_NAME.finditer(tail):
        name, end = name_at(tail, match.end())
        if name and not tail[end:].strip(" .!\"”'’"):
            yield Candidate(name, CLEAR, index, 0)
        return


def _resulting(sentence: str, index: int) -> Iterator[Candidate]:
    """"..., resulting in the new PONSS algorithm": the result of the paper's own steps."""
    for match in _RESULT.finditer(sentence):
        rest = sentence[match.end() :]
        if rest.startswith(("new ", "novel ")):
            rest = rest.split(" ", 1)[1]
        acronym = acronym_in_object(rest)
        if acronym is not None and is_generic_noun(word_after(rest, rest.find(")") + 1)):
            yield Candidate(acronym[0], acronym[1], index, match.start(), acronym[2])
            continue
        name, end = name_at(rest, 0, strong_only=True, before_noun=True)
        if name and is_generic_noun(word_after(rest, end)):
            yield Candidate(name, LIKELY, index, match.start())
