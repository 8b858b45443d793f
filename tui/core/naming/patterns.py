"""Where an abstract introduces a name: the phrasings :mod:`tui.core.naming.derive` looks for.

:func:`find_candidates` takes one sentence and returns
:class:`~tui.core.naming.phrases.Candidate` records: a name, how strongly the phrasing
marks it as the paper's own, and where it stands. This module reads the object of an
introducing verb ("we propose X, a ...") through ``naming.objects``; the other phrasings live in
``naming_clauses.py``, the reading of a name at one spot in ``naming_phrases.py``, and
the scoring across sentences in ``naming.py``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from functools import lru_cache

from tui.core.naming.asides import aside_names, by_means_of, called_at_the_end
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
from tui.core.naming.objects import after_intro
from tui.core.naming.phrases import (
    CLEAR,
    LIKELY,
    WEAK,
    Candidate,
    acronym_in_object,
    is_generic_noun,
    name_at,
    quoted_name,
    word_after,
)
from tui.core.naming.text import is_strong_name

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
_OPEN_QUOTES = "\"“"
# "we propose a compression model to defend attacks: ComDefend." The name closes the
# sentence whose object it names, after a colon or a dash.
_CLOSING_NAME = re.compile(r"(?::|\s[-—–]{1,3})\s+(?=\S)(?!.*[:—–])")
# "..., resulting in the DART algorithm", "leading to the ... (SPALS) method".
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
            found.extend(after_intro(sentence, start, index))
    if has_intro and not found:
        found.extend(_closing_name(sentence, index))
    if has_intro and not found:
        found.extend(by_means_of(" " + sentence, index))
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
            we_name = padded[match.start() + 1 : match.start() + 3] in ("we", "We")
            quoted = _quoted_own_name(sentence, match.end() - 1) if we_name else ""
            if quoted:
                # "We refer to this predictive as "GLM predictive"": the quotes hold the
                # whole name, not only its first capitalised word.
                found.append(Candidate(quoted, CLEAR, index, match.end() - 1, quoted=True))
                continue
            named = after_naming(sentence, match.end() - 1, index, naming_score)
            if we_name:
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


def _quoted_own_name(sentence: str, pos: int) -> str:
    """A quoted name of several words after "we call"/"we refer to ... as", written as a
    name (a capital or a coined word in it); "which we call "familiar objects"" is a
    notion, not a name."""
    if sentence[pos : pos + 1] not in _OPEN_QUOTES:
        return ""
    name = quoted_name(sentence, pos)
    words = name.split()
    if "(" in name or sentence.startswith(" (", pos + len(name) + 2):
        return ""  # "“Convolutional Slice Generator” (CSG)": the acronym is the name used
    if len(words) < 2 or not any(word[:1].isupper() or is_strong_name(word) for word in words):
        return ""
    return name


def _we_call(candidate: Candidate) -> Candidate:
    """A name given with "we call": clear when it is written as a name."""
    name = candidate.name
    if is_strong_name(name.split()[0]) or name[:1].isupper():
        return replace(candidate, score=CLEAR)
    return candidate


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
