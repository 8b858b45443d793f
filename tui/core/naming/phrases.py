"""Reading a name at a given place: a coined word, a run of capitalised words, an acronym.

These are the building blocks of :mod:`tui.core.naming.patterns` and
:mod:`tui.core.naming.clauses`: each looks at one spot of a sentence (just after "we
propose", "called", "our method,") and says which name, if any, stands there. The
scores and the :class:`Candidate` record they produce are defined here too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tui.core.naming.text import (
    WORD,
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
MODIFIER = 2.0
"""Score of an acronym of a lower-case term that modifies a noun ("a total variation
(TV) based approach"): textbook terms look like this, so it needs several mentions."""
WEAK = 1.5
"""Score of a naming phrasing in a sentence about others' work ("the popular X")."""


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
    long_form: str = ""
    """What an acronym stands for, as the abstract writes it ("" if not an acronym)."""
    quoted: bool = False
    """Whether the abstract sets the name in quotes ("called “exclusive group lasso”")."""
    aside: bool = False
    """Whether the name is given in passing (``naming_asides``), not as what the paper
    introduces: after a named contribution it is a part or a companion of it."""
    spelled_before: bool = False
    """Whether ``long_form`` comes before a naming word ("a short video dataset, called
    SVD"): the abstract spells the name out as its own, even in lower case."""


# Nouns a coined name follows ("a new dataset, CrowdPose,"), or precedes as a modifier
# ("a new LazySVD framework"), or takes in parentheses ("a primal-dual method (Quartz)").
GENERIC_NOUNS = frozenset(
    """
    method approach framework model system algorithm technique network architecture tool
    toolkit benchmark dataset database corpus library agent pipeline solution estimator
    procedure scheme strategy module loss metric simulator environment paradigm mechanism
    layer objective platform suite family language representation descriptor detector
    classifier sampler optimizer regularizer transformer encoder decoder policy protocol
    measure kernel game engine tracker forest tree graph machine block unit operator
    formulation
    """.split()
)
# Words that may join capitalised words inside one name ("Learning to Rank"). Not "and":
# "namely Multi-PIE and AR" lists two things, it names none.
CONNECTORS = frozenset("of to for in on with the from by via".split())
DETERMINERS = frozenset("a an the our".split())

_SHORT_FORM = re.compile(r"[\w\-–*+'’.²³/&^]{2,30}")
# Before the long form of an acronym only a determiner and adjectives may stand.
_BEFORE_LONG_FORM = re.compile(
    r"\s(?:for|of|to|in|on|with|by|from|via|using|that|which|based|under|over|at|as)\s|;"
)
# "the framework of self-supervised semi-supervised learning (S4L)": "of" after these
# nouns opens the long form instead of a background topic.
_OF_LONG_FORM = re.compile(
    r"\b(?:class|family|framework|notion|concept|paradigm|type|kind|form|variant|set|suite)"
    r"\s+of\b"
)
# A colon is fine right after a generic noun: "a novel approach: Full Name (ACR)".
_NOUN_COLON = re.compile(r"\b([a-z]+):\s")
_NOUN_PHRASE_GOES_ON = re.compile(r"\s+([a-z][\w-]*)\s+[^(]{0,60}\(")
_MODIFIES = re.compile(r"[ -](?!(?:that|which|for|to|in|on|with|by|and|or|is|are|as)\b)[a-z]")
# A short form that is more than initials ("PAD-Net", "SoDeep", "HD-CNNs") is coined.
_COINED_SHORT = re.compile(r"[a-z].*[A-Z]|[A-Z].*[a-rt-z]|-[A-Z][a-z]")
# "a novel regional multi-person pose estimation (RMPE) framework" is the paper's own.
_NEW_BEFORE = re.compile(r"\b(?:novel|new|proposed)\s+$")
_CLOSES_OBJECT = re.compile(r"\s*(?:[,.;:]|\s(?:which|that|to)\s)")
_VERB_LIKE = frozenset("that which is are was were can will and or but as".split())
# Parenthesised words after a noun that are remarks, not names: "a method (Section 3)".
_PAREN_NOT_NAMES = frozenset("see section sec fig figure eq table appendix e.g i.e".split())
_APPOSITION_START = re.compile(
    r"[\"”’'`]{0,2}\s*(?:[,:;.()—–]|$|-{1,2}\s|(?:which|that|is)\b)"
)
# "Ring loss, a ...", "Mondrian forests.": capitalised words and one generic noun.
_NAME_WITH_NOUN = re.compile(
    r"((?:[A-Z][\w-]*\s){1,3}([a-z]+))(?=\s*(?:[,(:;.]|$)|\s+(?:which|that)\b)"
)
PREPOSITION_OR_VERB = re.compile(
    r"[\"”’'`]{0,2} "
    r"(?:for|to|in|on|with|by|via|which|that|is|are|was|were|can|will|and|as|from|of)\b"
)
_WORD_AFTER = re.compile(r" ([a-z]+)")
_LETTER_DIGIT = re.compile(r"[A-Z]\d")
_CAPITALISED_SHORT = re.compile(r"[A-Z][a-z]{2,11}")
_VERSION = re.compile(r"\d{1,2}(?:\.\d{1,2})?")  # "Deep Voice 2", "FlowNet 2.0"
_VERSIONED = re.compile(r"[A-Z]\w*[a-z]\w*")  # not "RTRMC 1": a footnote mark
# "SURFMNet", "PSST": a coined word; "Edge-Preserving" is a capitalised compound.
_CAMEL_OR_ACRONYM = re.compile(r"[A-Za-z][A-Z]")
_QUOTED = re.compile(r"[\"“]([^\"”]{2,50})[\"”]")


def is_generic_noun(word: str) -> bool:
    """A word of :data:`GENERIC_NOUNS`, singular or plural."""
    return word in GENERIC_NOUNS or (word.endswith("s") and word[:-1] in GENERIC_NOUNS)


def word_after(text: str, pos: int) -> str:
    """The lower-case word right after ``pos`` (one space between), or ""."""
    match = _WORD_AFTER.match(text, pos)
    return match.group(1) if match else ""


def followed_by_apposition(text: str, end: int) -> bool:
    """Whether a name ending at ``end`` is followed by punctuation or a relative clause."""
    return bool(_APPOSITION_START.match(text, end))


def name_at(
    text: str, pos: int, strong_only: bool = False, loose: bool = False, before_noun: bool = False
) -> tuple[str, int]:
    """The name starting at ``pos`` in ``text`` and the offset where it ends, or ("", pos).

    A name is a strong word ("ABFNet") or a run of capitalised words, possibly joined by
    connectors ("Agent Primitives", "Learning to Rank"). A weak name (no strong word) must
    be followed by punctuation or a relative clause, since "we present Bayesian
    optimization for ..." names nothing; ``loose`` lifts that where a naming word
    ("called") already says a name follows, and ``before_noun`` where a generic noun may
    follow ("the Professor Forcing algorithm").
    """
    chunk = text[pos : pos + 200]
    # Most places hold no name: judge the first word before reading the next eight.
    first = WORD.search(chunk)
    if first is None or chunk[: first.start()].strip(" \"“‘`*'"):
        return "", pos
    word = trim_word(first.group())
    if not word or not (is_strong_name(word) or is_capitalised(word)):
        return "", pos
    words = words_with_spans(chunk, 0, 9)
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
        if taken and _VERSION.fullmatch(word) and _VERSIONED.fullmatch(taken[-1][0]):
            taken.append((word, start + raw.find(word) + len(word)))  # "Deep Voice 2"
            break
        following = trim_word(words[number + 1][0]) if number + 1 < len(words) else ""
        # "Learning to Rank" joins plain words; "SURFMNet for Spectral ..." goes on to
        # spell the name out.
        if (
            taken
            and word.lower() in CONNECTORS
            and is_capitalised(following)
            and not _CAMEL_OR_ACRONYM.search(taken[0][0])
        ):
            taken.append((word, stop))
            continue
        break
    while taken and taken[-1][0].lower() in CONNECTORS:
        taken.pop()
    if not taken or len(taken) > 6:
        return "", pos
    name = " ".join(word for word, _ in taken)
    end = pos + taken[-1][1]
    if text[end : end + 1] == "(":
        return "", pos  # "CAT(κ) spaces", "f(x)": notation, not a name
    strong = any(is_strong_name(word) for word, _ in taken)
    if len(name) < 2 or (strong_only and not strong):
        return "", pos
    if not strong and not followed_by_apposition(text, end):
        # After a naming word a plain name may go on with a preposition ("named Houdini
        # for ..."), but not with a noun ("called the Hawaiian earring").
        if not (loose and PREPOSITION_OR_VERB.match(text, end)) and not (
            before_noun and is_generic_noun(word_after(text, end))
        ):
            return "", pos
    return name, end


def name_with_noun(text: str, pos: int) -> str:
    """A name of capitalised words and a generic lower-case noun ("Ring loss") at ``pos``."""
    match = _NAME_WITH_NOUN.match(text, pos)
    if match is None or not is_generic_noun(match.group(2)):
        return ""
    name = match.group(1)
    return "" if name.split()[0].lower() in CONNECTORS | DETERMINERS else name


def quoted_name(text: str, pos: int) -> str:
    """A short quoted phrase at ``pos`` ("named "deep defense""), without the quotes."""
    match = _QUOTED.match(text, pos)
    if match is None or len(match.group(1).split()) > 5:
        return ""
    return match.group(1).strip(" ,.;:")


def acronym_in_object(rest: str) -> tuple[str, float, str] | None:
    """"(ACR)" closing a verb's object, as in "we propose Full Name (ACR)".

    Returns the short form, its score and its long form ("" when the parenthesis holds a
    plain name). Nothing but a determiner and adjectives may stand between the verb and
    the long form, so "we propose a method for large language models (LLMs)" yields
    nothing while "Federated Learning Aggregation Biased by a Foundation Model (FedBaF)"
    is fine. Commas may separate adjectives ("a new stochastic, low-rank, approximate
    natural-gradient (SLANG) method"). Also accepts "we propose ACR (Full Name)" and "a
    primal-dual method (Quartz)". When the noun phrase goes on to a second parenthesis,
    that one names the whole ("a multiple-instance (MI) learning technique (EM-DD)").
    """
    best: tuple[str, float, str] | None = None
    search_from = 0
    for _ in range(3):
        paren = rest.find("(", search_from)
        close = rest.find(")", paren) if 0 < paren <= 200 else -1
        if close < 0:
            break
        found = _paren_name(rest[:paren], rest[paren + 1 : close].strip(), rest[close + 1 :])
        best = found or best
        # Look further only while the noun phrase continues after ")": "(MI) learning".
        following = _NOUN_PHRASE_GOES_ON.match(rest, close + 1)
        if not following or following.group(1) in CONNECTORS | _VERB_LIKE:
            break
        search_from = close + 1
    return best


def _paren_name(head: str, inside: str, after: str) -> tuple[str, float, str] | None:
    """The name a parenthesis after ``head`` gives, if ``head`` leads to it cleanly.

    A long form in lower case is a weaker sign, and weaker still when the noun phrase
    goes on after the parenthesis: "an integer programming (IP) formulation", "a total
    variation (TV) based approach" abbreviate textbook terms that modify the real head.
    """
    short = trim_word(inside)
    capitalised_short = _capitalised_short_form(short, head)
    if capitalised_short:
        return short, CLEAR, capitalised_short  # "the Quantile Snapshot Scan (Qsnap)"
    # "a Multimodal Memory Model (M3)": a letter and a digit name it once spelled out.
    if _SHORT_FORM.fullmatch(inside) and (is_strong_name(short) or _LETTER_DIGIT.fullmatch(short)):
        long_form = acronym_long_form(short, head)
        start = head.rfind(long_form) if long_form else -1
        if start >= 0 and not _blocked(head[:start]):
            if any(is_capitalised(w) or is_strong_name(w) for w in long_form.split()):
                return short, CLEAR, long_form
            if _COINED_SHORT.search(short):
                return short, CLEAR, long_form  # "prediction-and-distillation network (PAD-Net)"
            novel = _NEW_BEFORE.search(head[:start]) is not None
            if is_generic_noun(word_after(after, 0)):
                # "a ... (HOPE) model": the acronym names the object's own head noun.
                return short, CLEAR if novel else LIKELY, long_form
            if _MODIFIES.match(after) and not novel:
                return short, MODIFIER, long_form
            if is_generic_noun(long_form.rsplit(" ", 1)[-1].lower()):
                return short, CLEAR, long_form  # "a deep contour-aware network (DCAN)"
            if " " in long_form and _CLOSES_OBJECT.match(after):
                # "we propose attribute-guided augmentation (AGA), which learns": the
                # acronym closes the verb's object, as a name does.
                return short, CLEAR, long_form
            return short, LIKELY, long_form
    head_words = head.split()
    if not head_words or _blocked(head):
        return None
    last = trim_word(head_words[-1])
    if len(head_words) == 1 and is_strong_name(last) and acronym_long_form(last, inside):
        return last, CLEAR, inside  # "we propose GCR-RL (Geometric Coherence ...)"
    if (
        is_generic_noun(last.lower())
        and _SHORT_FORM.fullmatch(inside)
        and (is_strong_name(short) or is_capitalised(short))
        and short.lower() not in _PAREN_NOT_NAMES
    ):
        return short, CLEAR, ""  # "a novel primal-dual method (Quartz)"
    return None


def _capitalised_short_form(short: str, head: str) -> str:
    """The long form of a short form written as a capitalised word ("Qsnap"), or "".

    Such a word is only a short form when a long form of capitalised words ends the head
    and the word's letters spell it: "the Quantile Snapshot Scan (Qsnap)", not "a
    method (Section 3)" or "a Shape Prior (Figure)".
    """
    if not _CAPITALISED_SHORT.fullmatch(short) or is_strong_name(short):
        return ""
    long_form = acronym_long_form(short, head)
    words = long_form.split()
    if len(words) < 2 or not all(is_capitalised(word) for word in words):
        return ""
    if not head.rstrip().endswith(long_form) or _blocked(head[: head.rfind(long_form)]):
        return ""
    return long_form


def _blocked(pre: str) -> bool:
    """Whether the words before a long form leave the verb's object ("a method for ...").

    Prepositions and relative pronouns open a new phrase; commas are fine only between
    adjectives after a determiner; a colon only after a generic noun.
    """
    for match in _NOUN_COLON.finditer(pre):
        if not is_generic_noun(match.group(1)):
            return True
    pre = _NOUN_COLON.sub(" ", pre)
    if _BEFORE_LONG_FORM.search(" " + _OF_LONG_FORM.sub("", pre) + " "):
        return True
    pieces = pre.split(",")
    if len(pieces) == 1:
        return False
    first = pieces[0].split()
    return not first or first[0].lower() not in DETERMINERS or len(pieces) > 4
