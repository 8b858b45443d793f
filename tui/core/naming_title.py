"""One-line titles made from an abstract's own words (see :func:`build_title`)."""

from __future__ import annotations

import re

from tui.core.naming_patterns import INTRO, find_candidates
from tui.core.naming_text import cut_phrase, split_sentences

_TITLE_LIMIT = 100
# What an analysis paper says instead of "we propose": the object is what it studies.
_STUDIES = re.compile(
    r"\b(?:(?:[Tt]his|[Tt]he present|[Oo]ur)\s+(?:paper|work|study|article|note|thesis|"
    r"letter|chapter)|[Ww]e)\s+(?:(?:also|further|first|here|then|now)\s+)*"
    r"(?:stud(?:y|ies)|investigates?|considers?|address(?:es)?|examines?|explores?|"
    r"analy[sz]es?|tackles?|focus(?:es)? on|deals? with|revisits?|characteri[sz]es?|"
    r"is concerned with|concerns|extends?|generali[sz]es?|describes?)\s+"
)
_FINDS = re.compile(r"\b[Ww]e\s+(?:show|prove|demonstrate|find|argue|establish)\s+that\s+")
# An object that only points back ("we address this problem") says nothing on its own.
_EMPTY_OBJECT = re.compile(r"(?:this|these|that|those|it|them|such|the problem|here)\b", re.I)
# A description should read as a noun phrase: "a stateful ...", "the first ...".
_NOUN_PHRASE_START = re.compile(
    r"(?:a|an|the|one|two|three|four|several|first|new|novel|our)\b|[A-Z0-9]", re.I
)


def build_title(text: str, name: str) -> str:
    """"Name: description" when the abstract names something, else a capitalised phrase."""
    sentences = split_sentences(text)
    if not sentences:
        return name
    if name:
        description = _describe_name(sentences, name) or _proposal(sentences)
        if not description:
            return name
        limit = max(40, _TITLE_LIMIT - len(name) - 2)
        return f"{name}: {cut_phrase(description, limit)}"
    phrase = _proposal(sentences) or sentences[0]
    phrase = cut_phrase(phrase, _TITLE_LIMIT)
    return phrase[:1].upper() + phrase[1:]


def _describe_name(sentences: list[str], name: str) -> str:
    """The words that describe ``name`` where the abstract introduces it."""
    for index, sentence in enumerate(sentences):
        for candidate in find_candidates(sentence, index):
            if candidate.name == name:
                return _description_at(sentence[candidate.start :], name)
    return ""


def _description_at(phrase: str, name: str) -> str:
    """Turn "NAME, a ..." / "a Full Name (NAME) for ..." / "a model called NAME that ..."
    into the description alone; "" when the phrase does not describe the name."""
    if phrase.startswith(name):
        rest = phrase[len(name) :]
        paren = re.match(r"\s*\(([^()]{3,150})\)\s*,?\s*", rest)
        if paren:  # "GCR-RL (Geometric Coherence ...) that computes ..."
            return f"{paren.group(1)} {rest[paren.end():]}".strip()
        apposition = re.match(r"\s*(?:[,:;]|\s[—–-]{1,2}|\s(?:is|are)\b)\s*", rest)
        if apposition is None:
            # "WebWorld series, the first open-web simulator": skip up to a close comma.
            apposition = re.match(r"(?:\s+[a-z][\w-]*){1,2},\s+", rest)
        if apposition is None:
            return ""
        description = rest[apposition.end() :]
        return description if _NOUN_PHRASE_START.match(description) else ""
    escaped = re.escape(name)
    # The long form precedes "(NAME)", or a naming word precedes NAME: drop that part.
    description = re.sub(rf"\s*\(\s*{escaped}\s*\)", "", phrase, count=1)
    description = re.sub(
        rf",?\s*(?:called|named|dubbed|termed|coined|namely|denoted|referred to|we call it)"
        rf"(?:\s+(?:as|by))?\s+[\"“]?{escaped}[\"”]?,?",
        "",
        description,
        count=1,
    )
    return description if description != phrase else ""


def _proposal(sentences: list[str]) -> str:
    """What the abstract proposes or studies, from the earliest sentence that says so."""
    for pattern in ((INTRO, _STUDIES), (_FINDS,)):
        for sentence in sentences:
            for regex in pattern:
                for match in regex.finditer(sentence):
                    phrase = sentence[match.end() :].strip()
                    if phrase and not _EMPTY_OBJECT.match(phrase):
                        return _strip_to(phrase)
    return ""


def _strip_to(phrase: str) -> str:
    """"to learn X" reads as a title when the infinitive marker goes."""
    return phrase[3:] if phrase.startswith("to ") else phrase
