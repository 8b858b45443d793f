"""Where an abstract introduces a name: the phrasings :mod:`tui.core.naming` looks for.

:func:`find_candidates` takes one sentence and yields :class:`Candidate` records: a name,
how strongly the phrasing marks it as the paper's own, and where it stands. Scoring
across sentences (mentions, background acronyms, the threshold) lives in ``naming.py``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from tui.core.naming_text import (
    acronym_long_form,
    is_capitalised,
    is_strong_name,
    trim_word,
    words_with_spans,
)

CLEAR = 3.0
"""Score of a phrasing that by itself marks a name as the paper's own."""
LIKELY = 2.5
"""Score of a phrasing that needs one more mention of the name to be believed."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """A possible name found by one phrasing in one sentence."""

    name: str
    score: float
    """How strongly the phrasing marks the name as the paper's own (see CLEAR)."""
    sentence: int
    """Index of the sentence in the abstract."""
    start: int
    """Offset in the sentence where the phrase describing the name starts."""


_VERBS = (
    r"propos|introduc|present|develop|design|devis|describ|buil[dt]|construct|creat|"
    r"releas|contribut|offer|formulat|put forward|establish|unveil|coin|curat|collect|provid|"
    r"suggest"
)
# "we propose", "this paper introduces", "and present", "by proposing", "to propose".
INTRO = re.compile(
    r"(?:\b(?:[Ww]e|I|paper|work|study|article|letter|chapter|authors|and)\s+"
    r"(?:(?:also|further|then|first|here|hereby|therefore|thus|now|newly|additionally|"
    r"instead|subsequently|next|finally|hence|specifically|accordingly)\s+)*"
    rf"(?:{_VERBS})(?:e|es|ed|ing|s)?"
    # Only the -ing form after "by" ("by design" is no verb), and after "to" only the
    # verbs that cannot mean using someone else's thing ("fail to provide X").
    rf"|\b[Bb]y\s+(?:{_VERBS})ing"
    r"|\bto\s+(?:propose|introduce|present|develop|design|devise)"
    r"|,\s+(?:propos|introduc|present|develop)ing"
    r")\b\s+"
    # "we propose and analyze X": the object comes after the second verb.
    r"(?:and\s+(?:analy[sz]e|study|evaluate|test|implement|validate|investigate|apply|"
    r"discuss|demonstrate)\s+)?"
)
_NAMING = re.compile(
    r"(?<!so-)\b(?:called|named|dubbed|termed|coined|nicknamed|namely|denoted|"
    r"referred to|abbreviated)(?:\s+(?:as|by))?\s+"
    r"|\bwe\s+(?:call|name|term|dub|refer to|denote)"
    r"(?:\s+(?:it|this|them|the|our)(?:\s+[a-z]+)?)?(?:\s+as)?\s+"
)
# Starts with a space on purpose: a literal first character lets the regex engine skip
# ahead, three times faster than a bare alternation (sentences start with "We"/"Our").
_HINT = re.compile(rf" (?:{_VERBS}|call|named|namely|name |dub|term|coin|denot|refer|abbreviat|our )")
_OUR = re.compile(r"\b[Oo]ur\s+(?:proposed\s+|new\s+|novel\s+|resulting\s+|final\s+)?")
# Nouns a coined name follows ("a new dataset, CrowdPose,"), or precedes as a modifier
# ("a new LazySVD framework"), or takes in parentheses ("a primal-dual method (Quartz)").
_GENERIC_NOUNS = frozenset(
    """
    method methods approach approaches framework model models system algorithm algorithms
    technique network networks architecture tool toolkit benchmark dataset database corpus
    library agent pipeline solution estimator procedure scheme strategy module loss
    metric simulator environment paradigm mechanism layer objective platform suite family
    language representation descriptor detector classifier sampler optimizer regularizer
    transformer encoder decoder policy protocol measure kernel game engine tracker
    """.split()
)
# "we propose the framework of self-supervised semi-supervised learning (S4L)": "of" after
# these nouns opens the long form instead of a background topic.
_OF_LONG_FORM = re.compile(
    r"\b(?:class|family|framework|notion|concept|paradigm|type|kind|form|variant|set|suite)"
    r"\s+of\b"
)
_BEFORE_LONG_FORM = re.compile(
    r"\s(?:for|of|to|in|on|with|by|from|via|using|that|which|based|under|over|at|as)\s|[;:]"
)
_SHORT_FORM = re.compile(r"[\w\-–*+'’.²³/&^]{2,30}")
_DETERMINERS = frozenset("a an the our".split())
# Words that may join capitalised words inside one name ("Learning to Rank").
_CONNECTORS = frozenset("of to for and in on with the from by via".split())
_NOT_AN_OBJECT = frozenset("to that how whether why what".split())
_OWNED = re.compile(r"\b(?:[Ww]e|[Oo]ur|novel|new|proposed)\b")


def find_candidates(sentence: str, index: int) -> tuple[Candidate, ...]:
    """All candidate names in one sentence, from every phrasing below.

    Cached because ``derive_title`` asks again for the sentences ``derive_name`` just
    read; the key includes the index, which the candidates carry.
    """
    return _find_candidates(sentence, index)


@lru_cache(maxsize=256)
def _find_candidates(sentence: str, index: int) -> tuple[Candidate, ...]:
    """See :func:`find_candidates`."""
    found: list[Candidate] = []
    # One cheap hint regex spares the costly ones on the many sentences without a verb
    # of introduction or naming, or "our": this halves the time over a large corpus.
    hinted = sentence.startswith("Our ") or _HINT.search(sentence) is not None
    has_intro = False
    if hinted:
        for match in INTRO.finditer(sentence):
            has_intro = True
            found.extend(_after_intro(sentence, match.end(), index))
    owned = has_intro or bool(_OWNED.search(sentence))
    if hinted:
        for match in _NAMING.finditer(sentence):
            rest = sentence[match.end() :]
            # "termed Anchor-to-Joint regression network (A2J)" names A2J.
            acronym = _acronym_in_object(rest)
            name = acronym[0] if acronym else name_at(rest, 0)[0]
            if name:
                found.append(Candidate(name, CLEAR if owned else 1.5, index, match.end()))
        for match in _OUR.finditer(sentence):
            found.extend(_after_our(sentence, match.end(), index))
    found.extend(_sentence_subject(sentence, index, owned))
    return tuple(found)


def _after_intro(sentence: str, pos: int, index: int) -> Iterator[Candidate]:
    """Names in the object of an introducing verb: "we propose X, a ..." and kin."""
    rest = sentence[pos:]
    words = words_with_spans(rest, 0, 9)
    if not words or words[0][0].lower() in _NOT_AN_OBJECT:
        return
    found = _acronym_in_object(rest)
    if found is not None:
        # The title keeps the whole object ("a Full Name (ACR) for ..."), so start there.
        yield Candidate(found[0], found[1], index, pos)
        return
    name, _end = name_at(rest, 0)
    if name:
        yield Candidate(name, CLEAR, index, pos)
        return
    if words[0][0].lower() == "the" and len(words) > 1:
        # "the Mimic Score, a ...", "the Trajectron, a graph-structured model".
        name, end = name_at(rest, words[1][1])
        if name and re.match(r"\s*,\s*(?:a|an|the)\s", rest[end:]):
            yield Candidate(name, CLEAR, index, pos + words[1][1])
        return
    yield from _after_descriptors(rest, words, pos, index)


def _after_descriptors(
    rest: str, words: list[tuple[str, int, int]], pos: int, index: int
) -> Iterator[Candidate]:
    """"a novel framework, NAME, ..." / "a new LazySVD framework": walk the descriptive
    words of the object to its head noun and look for a name around it."""
    for number, (word, start, stop) in enumerate(words[:8]):
        lowered = word.lower()
        following = words[number + 1] if number + 1 < len(words) else None
        if following is None:
            return
        if (
            number > 0
            and is_strong_name(trim_word(word))
            and following[0].lower() in _GENERIC_NOUNS
            and rest[stop:following[1]] == " "
        ):
            yield Candidate(trim_word(word), LIKELY, index, pos)
            return
        if lowered in _GENERIC_NOUNS:
            gap = rest[stop : following[1]]
            if gap.strip() in (",", ""):
                name, end = name_at(rest, following[1], strong_only=True)
                if name and _followed_by_apposition(rest, end):
                    yield Candidate(name, CLEAR, index, pos + following[1])
            return
        if number > 0 and lowered in _CONNECTORS or rest[stop : stop + 1] in (";", ":", "("):
            return


def _after_our(sentence: str, pos: int, index: int) -> Iterator[Candidate]:
    """"our method, NAME, ..." and "our Full Name (ACR) framework"."""
    rest = sentence[pos:]
    found = _acronym_in_object(rest)
    if found is not None:
        yield Candidate(found[0], found[1], index, pos)
        return
    match = re.match(r"([a-z]+)s?,?\s+", rest)
    if match and match.group(1) in _GENERIC_NOUNS:
        name, _ = name_at(rest, match.end(), strong_only=True)
        if name:
            yield Candidate(name, CLEAR, index, pos + match.end())


def _followed_by_apposition(text: str, end: int) -> bool:
    """Whether a name ending at ``end`` is followed by punctuation or a relative clause."""
    return bool(_APPOSITION_START.match(text, end))


_APPOSITION_START = re.compile(r"[\"”’'`]?\s*(?:[,:;.(—–]|$|-{1,2}\s|(?:which|that|is)\b)")


def _acronym_in_object(rest: str) -> tuple[str, float] | None:
    """"(ACR)" closing a verb's object, as in "we propose Full Name (ACR)", and its score.

    Nothing but a determiner and adjectives may stand between the verb and the long
    form, so "we propose a method for large language models (LLMs)" yields nothing while
    "Federated Learning Aggregation Biased by a Foundation Model (FedBaF)" is fine.
    Commas may separate adjectives ("a new stochastic, low-rank, approximate
    natural-gradient (SLANG) method"). Also accepts "we propose ACR (Full Name)" and "a
    primal-dual method (Quartz)". When the noun phrase goes on to a second parenthesis,
    that one names the whole ("a multiple-instance (MI) learning technique (EM-DD)").
    """
    best: tuple[str, float] | None = None
    search_from = 0
    for _ in range(3):
        paren = rest.find("(", search_from)
        close = rest.find(")", paren) if 0 < paren <= 200 else -1
        if close < 0:
            break
        found = _paren_name(rest[:paren], rest[paren + 1 : close].strip())
        best = found or best
        # Look further only while the noun phrase continues after ")": "(MI) learning".
        following = _NOUN_PHRASE_GOES_ON.match(rest, close + 1)
        if not following or following.group(1) in _CONNECTORS | _VERB_LIKE:
            break
        search_from = close + 1
    return best


_NOUN_PHRASE_GOES_ON = re.compile(r"\s+([a-z][\w-]*)\s+[^(]{0,60}\(")
_VERB_LIKE = frozenset("that which is are was were can will and or but as".split())


def _paren_name(head: str, inside: str) -> tuple[str, float] | None:
    """The name a parenthesis after ``head`` gives, if ``head`` leads to it cleanly."""
    short = trim_word(inside)
    if _SHORT_FORM.fullmatch(inside) and is_strong_name(short):
        long_form = acronym_long_form(short, head)
        start = head.rfind(long_form) if long_form else -1
        if start >= 0 and not _blocked(head[:start]):
            lower = not any(is_capitalised(w) or is_strong_name(w) for w in long_form.split())
            return short, LIKELY if lower else CLEAR
    head_words = head.split()
    if not head_words or _blocked(head):
        return None
    last = trim_word(head_words[-1])
    if len(head_words) == 1 and is_strong_name(last) and acronym_long_form(last, inside):
        return last, CLEAR  # "we propose GCR-RL (Geometric Coherence Regularized ...)"
    if (
        last.lower() in _GENERIC_NOUNS
        and _SHORT_FORM.fullmatch(inside)
        and (is_strong_name(short) or is_capitalised(short))
        and short.lower() not in _PAREN_NOT_NAMES
    ):
        return short, CLEAR  # "a novel primal-dual method (Quartz)"
    return None


# Parenthesised words after a noun that are remarks, not names: "a method (Section 3)".
_PAREN_NOT_NAMES = frozenset("see section sec fig figure eq table appendix e.g i.e".split())


def _blocked(pre: str) -> bool:
    """Whether the words before a long form leave the verb's object ("a method for ...").

    Prepositions and relative pronouns open a new phrase; commas are fine only between
    adjectives after a determiner.
    """
    if _BEFORE_LONG_FORM.search(" " + _OF_LONG_FORM.sub("", pre) + " "):
        return True
    pieces = pre.split(",")
    if len(pieces) == 1:
        return False
    first = pieces[0].split()
    return not first or first[0].lower() not in _DETERMINERS or len(pieces) > 4


def name_at(text: str, pos: int, strong_only: bool = False) -> tuple[str, int]:
    """The name starting at ``pos`` in ``text`` and the offset where it ends, or ("", pos).

    A name is a strong word ("ABFNet") or a run of capitalised words, possibly joined by
    connectors ("Agent Primitives", "Learning to Rank"). A weak name (no strong word) must
    be followed by punctuation or a relative clause, since "we present Bayesian
    optimization for ..." names nothing.
    """
    chunk = text[pos : pos + 200]
    words = words_with_spans(chunk, 0, 9)
    if not words or chunk[: words[0][1]].strip(" \"“‘`*"):
        return "", pos
    taken: list[tuple[str, int]] = []  # (word, end offset in chunk)
    previous_stop = words[0][1]
    for number, (raw, start, stop) in enumerate(words[:8]):
        if taken and chunk[previous_stop:start] != " ":
            break  # punctuation between two words ends the name
        word = trim_word(raw)
        if not word:
            break
        previous_stop = stop
        if is_strong_name(word) or is_capitalised(word):
            word_end = start + raw.find(word) + len(word)
            taken.append((word, word_end))
            if word_end != stop:
                break  # trailing "." or "'s": the name ends here
            continue
        following = trim_word(words[number + 1][0]) if number + 1 < len(words) else ""
        if taken and word.lower() in _CONNECTORS and is_capitalised(following):
            taken.append((word, stop))
            continue
        break
    while taken and taken[-1][0].lower() in _CONNECTORS:
        taken.pop()
    if not taken or len(taken) > 6:
        return "", pos
    name = " ".join(word for word, _ in taken)
    end = pos + taken[-1][1]
    strong = any(is_strong_name(word) for word, _ in taken)
    if len(name) < 2 or (strong_only and not strong):
        return "", pos
    if not strong and not _followed_by_apposition(text, end):
        return "", pos
    return name, end


# Cheap test before the work: does the sentence open with "X, a", "X is", "X was"?
_SUBJECT_HINT = re.compile(r"[^\s,]+(?: [^\s,]+){0,5}?(?:\s*,\s*an?\s| (?:is|are|was) )")
_APPOSITION = re.compile(r"\s*,\s*an?\s|\s+is\s+an?\s+(?:novel|new)\b")
_PASSIVE = re.compile(r"\s+(?:is|are|was)\s+(?:proposed|introduced|presented|developed)\b")
_IS_A = re.compile(r"\s+is\s+an?\s")


def _sentence_subject(sentence: str, index: int, owned: bool) -> Iterator[Candidate]:
    """A sentence that opens with the name: "X, a novel ...", "X is a ...", "X is proposed"."""
    if not _SUBJECT_HINT.match(sentence):
        return
    name, end = name_at(sentence, 0)
    if not name or (" " not in name and not owned and not is_strong_name(name)):
        return
    after = sentence[end:]
    if _APPOSITION.match(after):
        yield Candidate(name, 2.0 if owned else 1.5, index, 0)
    elif _PASSIVE.match(after):
        yield Candidate(name, LIKELY, index, 0)
    elif _IS_A.match(after):
        yield Candidate(name, 1.0, index, 0)
