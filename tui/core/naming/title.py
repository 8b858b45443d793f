"""One-line titles made from an abstract's own words (see :func:`build_title`)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from tui.core.naming.filters import resolved_name
from tui.core.naming.patterns import find_candidates, intro_objects
from tui.core.naming.text import cut_phrase, split_sentences

_TITLE_LIMIT = 100
_MIN_WORDS = 3  # a proposal phrase shorter than this is a fragment ("by hand")
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
    r"(?:[Aa]n?|[Tt]he|[Oo]ne|[Tt]wo|[Tt]hree|[Ff]our|[Ss]everal|[Ff]irst|[Nn]ew|[Nn]ovel|"
    r"[Oo]ur)\b|[A-Z0-9]"
)
_PARENTHESIS = re.compile(r"\s*\(\s*([^()]{1,60}?)\s*\)")
_NAMING_WORD = re.compile(
    r",?\s*(?:called|named|dubbed|termed|coined|namely|denoted|referred to|"
    r"(?:that |which )?we call(?: it)?)"
    r"(?:\s+(?:as|by))?\s+[\"“'‘]{0,2}"
)
_CLOSING = re.compile(r"[\"”'’]{0,2},?")
# ", or "DUOL" for short" after the long form repeats the name the title starts with.
_FOR_SHORT = re.compile(r",?\s+(?:or\s+)?[\"“]?(\S+?)[\"”]?\s+(?:for|in)\s+short\b,?")
# "Polya-Gamma augmented Thompson Sampling, achieves ...": the long form ends at the comma
# where the sentence goes on with its verb.
_LONG_FORM_THEN_VERB = re.compile(r"([A-Z][^,;:()]{2,80}), (?!(?:which|that|and|or)\b)[a-z]+s\b")
_NAME_PARENTHESIS = re.compile(r"\s*\(([^()]{3,150})\)\s*,?\s*")
_APPOSITION = re.compile(r"\s*(?:[,:;]|\s[—–-]{1,2}|\s(?:is|are)\b)\s*")
_CLOSE_COMMA = re.compile(r"(?:\s+[a-z][\w-]*){1,2},\s+")
_PASSIVE_VERB = re.compile(
    r"\s+(?:is|are|was)\s+(?:proposed|presented|introduced|developed|described)"
    r"(?:\s+in\s+this\s+(?:paper|work))?\b"
)
# "CoCoReviewBench, which curates ..." reads better kept as a clause than after a colon.
_RELATIVE_CLAUSE = re.compile(r"(?:which|that|where|who)\b")


def build_title(text: str, name: str) -> str:
    """"Name: description" when the abstract names something, else a capitalised phrase."""
    sentences = split_sentences(text)
    if not sentences:
        return name
    if name:
        description = _describe_name(sentences, name)
        if not description:
            description = _without_name(_proposal(sentences), name)
        if not description:
            return name
        # The description gets about the limit of its own; a long name may overrun it a
        # little rather than leave a stub ("Gecko: a stateful ... for refining LLM tool calls").
        limit = max(50, _TITLE_LIMIT + 5 - len(name) - 2)
        clause = description.startswith(", ")
        description = cut_phrase(description[2:] if clause else description, limit)
        if not description:
            return name  # "ECDF: " would promise a description that is not there
        return f"{name}, {description}" if clause else f"{name}: {description}"
    phrase = _proposal(sentences) or sentences[0]
    phrase = cut_phrase(phrase, _TITLE_LIMIT)
    return phrase[:1].upper() + phrase[1:]


def _describe_name(sentences: Sequence[str], name: str) -> str:
    """The words that describe ``name`` where the abstract introduces it."""
    for index, sentence in enumerate(sentences):
        for candidate in find_candidates(sentence, index):
            if resolved_name(candidate) == name:
                description = _description_at(sentence[candidate.start :], candidate.name)
                return _tidy_description(description, name)
    return ""


def _tidy_description(description: str, name: str) -> str:
    """Drop a repeated name ("Hadamard Response: Hadamard Response, a ...") and a passive
    verb ("a ... network is proposed for ..." reads "a ... network for ...")."""
    if description.lower().startswith(name.lower()):
        description = description[len(name) :].lstrip(" ,:;—–-")
        if not _NOUN_PHRASE_START.match(description):
            return ""
    description = _PASSIVE_VERB.sub("", description, count=1)
    verb = _LONG_FORM_THEN_VERB.match(description)
    return verb.group(1) if verb else description


def _description_at(phrase: str, name: str) -> str:
    """Turn "NAME, a ..." / "a Full Name (NAME) for ..." / "a model called NAME that ..."
    into the description alone; "" when the phrase does not describe the name."""
    if phrase.startswith(name):
        rest = phrase[len(name) :]
        paren = _NAME_PARENTHESIS.match(rest)
        if paren:  # "GCR-RL (Geometric Coherence ...) that computes ..."
            return f"{paren.group(1)} {rest[paren.end():]}".strip()
        apposition = _APPOSITION.match(rest)
        if apposition is None:
            # "WebWorld series, the first open-web simulator": skip up to a close comma.
            apposition = _CLOSE_COMMA.match(rest)
        if apposition is None:
            return ""
        description = rest[apposition.end() :]
        if _RELATIVE_CLAUSE.match(description):
            return ", " + description
        return description if _NOUN_PHRASE_START.match(description) else ""
    description = _without_name(phrase, name)
    return description if description != phrase else ""


def _without_name(phrase: str, name: str) -> str:
    """``phrase`` without "(NAME)" after a long form or "called NAME" after a noun.

    Precompiled patterns and a string comparison rather than a regex built per name:
    compiling one for each of 21k abstracts cost more than the rest of the title.
    """
    for match in _PARENTHESIS.finditer(phrase):
        if match.group(1) == name:
            phrase = phrase[: match.start()] + phrase[match.end() :]
            break
    if " short" in phrase:
        for match in _FOR_SHORT.finditer(phrase):
            if match.group(1) == name:
                phrase = phrase[: match.start()] + phrase[match.end() :]
                break
    for match in _NAMING_WORD.finditer(phrase):
        end = match.end()
        if phrase.startswith(name, end):
            end += len(name)
            end += len(_CLOSING.match(phrase, end).group())
            return phrase[: match.start()] + phrase[end:]
    return phrase


def _proposal(sentences: Sequence[str]) -> str:
    """What the abstract proposes or studies, from the earliest sentence that says so;
    failing that, what it shows ("we show that ...")."""
    for finders in ((_intro_starts, _studies_starts), (_finds_starts,)):
        for sentence in sentences:
            for finder in finders:
                for start in finder(sentence):
                    phrase = sentence[start:].strip()
                    # "difficult to design by hand" leaves "by hand": too short to say
                    # what the paper does, so look further.
                    if (
                        phrase
                        and not _EMPTY_OBJECT.match(phrase)
                        and len(cut_phrase(phrase, _TITLE_LIMIT).split()) >= _MIN_WORDS
                    ):
                        return _strip_to(phrase)
    return ""


def _intro_starts(sentence: str) -> Iterator[int]:
    """Objects of "we propose" and kin."""
    return intro_objects(sentence)


def _studies_starts(sentence: str) -> Iterator[int]:
    """Objects of "this paper studies" and kin."""
    return (match.end() for match in _STUDIES.finditer(sentence))


def _finds_starts(sentence: str) -> Iterator[int]:
    """Clauses after "we show that" and kin."""
    return (match.end() for match in _FINDS.finditer(sentence))


def _strip_to(phrase: str) -> str:
    """"to learn X" reads as a title when the infinitive marker goes."""
    return phrase[3:] if phrase.startswith("to ") else phrase
