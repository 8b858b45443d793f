"""Phrasings that name without "we propose": naming words, "our X", openings, passives.

Each function takes one sentence (and where the phrasing was found) and yields
:class:`~tui.core.naming.phrases.Candidate` records; :mod:`tui.core.naming.patterns`
decides when to call them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tui.core.naming.phrases import (
    CLEAR,
    GENERIC_NOUNS,
    LIKELY,
    WEAK,
    Candidate,
    acronym_in_object,
    is_generic_noun,
    name_at,
    name_with_noun,
    quoted_name,
    word_after,
)
from tui.core.naming.text import acronym_long_form, is_capitalised, is_strong_name, trim_word

_NOUNS = "|".join(sorted(GENERIC_NOUNS))
# A naming word in a sentence about others' work names their thing, not the paper's.
BACKGROUND = re.compile(
    r"\b(?:popular|existing|previous|prior|recent|recently|widely|well-known|known|"
    r"standard|classical|conventional|traditional|commonly|baseline)\b"
)
OWNED = re.compile(r"\b(?:[Ww]e|[Oo]ur|novel|new|proposed)\b")
PASSIVE = re.compile(r"\s(?:is|are|was)\s+(?:proposed|presented|introduced|developed|described)\b")
# "The framework, called Seq-SG2SL, ..." names the paper's own framework.
_OUR_THING_BEFORE = re.compile(
    rf"(?:The|This|Our)\s+(?:[a-z-]+\s+){{0,2}}(?:{_NOUNS})s?,?\s+\w+(?:\s+(?:as|by))?\s+$"
)
_LIST_GOES_ON = re.compile(r",? and |, [A-Z]")
# "our (proposed) method, NAME" / "our framework (CLAR)": up to two adjectives first.
_GENERIC_THEN = re.compile(rf"(?:[a-z-]+\s+){{0,2}}({_NOUNS})s?\s*(?:,|--|—|–|:|-(?=\s))?\s*")
# Cheap test before the work: does the sentence open with "X, a", "X is", "X was"?
_SUBJECT_HINT = re.compile(r"[^\s,]+(?: [^\s,]+){0,9}?(?:\s*,\s*an?\s| (?:is|are|was) )")
_PARENTHETICAL = re.compile(r"^\s*\([^()]{1,120}\)")
_NEW_APPOSITION = re.compile(r"[,:]\s+an?\s+(?:new|novel)\b")
_APPOSITION = re.compile(r"\s*,\s*an?\s|\s+is\s+an?\s+(?:novel|new)\b")
_PRESENTED_LATER = re.compile(r"\b(?:is|are) (?:presented|proposed|introduced|described)\b")
_PASSIVE_AFTER_NAME = re.compile(
    r"\s+(?:is|are|was)\s+(?:proposed|introduced|presented|developed)\b"
)
# A verb after "our X": "Our ScratchDet achieves", "our SPGNet attains", "Our X is".
_THIRD_PERSON = re.compile(r" (?:[a-z]+[^s\W]s|is|can|has|was)\b")
_IS_A = re.compile(r"\s+is\s+an?\s")
VERSIONED_NAME = re.compile(r"\w \d{1,2}(?:\.\d{1,2})?$")
"""A name ending in a version number: "FlowNet 2.0", "Deep Voice 3"."""
_PROBLEM = re.compile(
    r"(?:[\w-]+\s+){0,4}?(?:problem|task|challenge|question|topic|area|field|setting)s?\b"
)
# The last "(ACR)" before the verb, at most six words (no comma) before it.
_LAST_PAREN = re.compile(r"\(([^()\s,]{2,30})\)(?:\s+[^\s,()]+){0,6}\s*$")
_INNER_APPOSITION = re.compile(r", (?=\S)")
_NAMING_WORD_AT_END = re.compile(r",?\s*\(?\s*\b(?:called|named|dubbed|termed|coined)\s*$")
_IS_NEW = re.compile(r",\s+(?:is|are)\s+an?\s+(?:new|novel)\b")


def after_naming(sentence: str, pos: int, index: int, score: float) -> Iterator[Candidate]:
    """The name after "called", "named", "termed", "we call it", ..."""
    rest = sentence[pos:]
    if _OUR_THING_BEFORE.match(sentence, 0, pos):
        score = CLEAR  # "The framework, called Seq-SG2SL, derives ..."
    acronym = acronym_in_object(rest)  # "termed Anchor-to-Joint network (A2J)"
    if acronym is not None:
        yield Candidate(acronym[0], score, index, pos, acronym[2])
        return
    name, end = name_at(rest, 0, loose=True)
    if name and _LIST_GOES_ON.match(rest, end) and sentence[:pos].endswith("namely "):
        return  # "two prominent models, namely GLOW and RealNVP": a list of others' work
    name = name or name_with_noun(rest, 0)
    if name:
        spelled = _spelled_before(sentence, pos, name)
        yield Candidate(name, score, index, pos, spelled, spelled_before=bool(spelled))
        return
    name = quoted_name(rest, 0)  # "called “exclusive group lasso”": quotes make it a name
    # ... but not a term the sentence does not own: "slow processors called "stragglers"".
    if name and (score >= CLEAR or not name.islower()):
        yield Candidate(name, score, index, pos, quoted=True)


def _spelled_before(sentence: str, pos: int, name: str) -> str:
    """The words before "called" that the name abbreviates: "a large-scale short video
    dataset, called SVD" spells SVD out, so it is not the textbook SVD (see
    ``naming_filters.resolved_name``)."""
    if not name.isupper() or " " in name:
        return ""
    before = _NAMING_WORD_AT_END.sub("", sentence[:pos])
    long_form = acronym_long_form(name, before)
    if not before.endswith(long_form) or " " not in long_form:
        return ""
    # "a robust version of PCA called RPCA" builds on a term; it spells out nothing.
    return "" if any(is_strong_name(word) for word in long_form.split()) else long_form


def after_our(sentence: str, pos: int, index: int, proposed: bool) -> Iterator[Candidate]:
    """"our method, NAME, ...", "our CLIP-Q method", "our framework (CLAR)", "the proposed
    DifNet", "our Full Name (ACR) framework"."""
    rest = sentence[pos:]
    long_form_first = _our_acronym(rest)
    if long_form_first is not None:
        yield Candidate(long_form_first[0], long_form_first[1], index, pos, long_form_first[2])
        return
    name, end = name_at(rest, 0, strong_only=True)
    if name:
        if is_generic_noun(word_after(rest, end)):
            yield Candidate(name, CLEAR, index, pos)  # "our proposed CLIP-Q method"
        elif proposed or _THIRD_PERSON.match(rest, end):
            # "the proposed DifNet achieves", "Our MnasNet achieves": used as the subject
            yield Candidate(name, LIKELY, index, pos)
        return
    match = _GENERIC_THEN.match(rest)
    if match is None:
        return
    after = match.end()
    if rest[after : after + 1] == "(":
        close = rest.find(")", after)
        inside = trim_word(rest[after + 1 : close]) if close > 0 else ""
        if inside and " " not in inside and (is_strong_name(inside) or is_capitalised(inside)):
            yield Candidate(inside, CLEAR, index, pos)  # "our framework (CLAR)"
        return
    # After "our method," a plain name or a long form may stand: "Our general algorithm,
    # Predtron, yields", "Our approach, Polya-Gamma augmented Thompson Sampling (PG-TS),".
    apposition = rest[: after].rstrip()[-1:] in (",", "-", "—", "–", ":")
    if apposition:
        acronym = acronym_in_object(rest[after:])
        if acronym is not None and acronym[1] >= CLEAR:
            yield Candidate(acronym[0], CLEAR, index, pos + after, acronym[2])
            return
    name, _ = name_at(rest, after, strong_only=not apposition)
    if name:
        yield Candidate(name, CLEAR, index, pos + after)  # "our method, NAME"


def _our_acronym(rest: str) -> tuple[str, float, str] | None:
    """An acronym whose long form follows "our" at once; in "our work unlocks a new class
    of ... (SMILE)" the parenthesis belongs to another phrase."""
    paren = rest.find("(")
    close = rest.find(")", paren) if 0 < paren <= 120 else -1
    if close < 0:
        return None
    head, inside = rest[:paren], rest[paren + 1 : close].strip()
    short = trim_word(inside)
    if " " in inside or not is_strong_name(short):
        return None
    long_form = acronym_long_form(short, head)
    if not long_form or head.find(long_form) != 0:
        return None
    capitalised = any(is_capitalised(word) for word in long_form.split())
    return short, CLEAR if capitalised else LIKELY, long_form


_FOR_SHORT = re.compile(r"([^\s(]+)\s+(?:for|in)\s+short\b")


def short_form(sentence: str, index: int, owned: bool) -> Iterator[Candidate]:
    """"termed Double Updating Online Learning, or "DUOL" for short", "The Progressive-X
    algorithm, Prog-X in short, is proposed": the short name the abstract will use."""
    for match in _FOR_SHORT.finditer(sentence):
        name = trim_word(match.group(1).strip("\"“”'‘’"))
        if name and (is_strong_name(name) or is_capitalised(name)):
            # Named twice (the long form, then this): the short form is the one used.
            yield Candidate(name, (CLEAR if owned else LIKELY) + 0.5, index, match.start())


def before_passive(before: str, index: int) -> Iterator[Candidate]:
    """"MAGSAC is proposed", "a Feature Distilling GAN (FD-GAN) is proposed for ...",
    "a primary object discovery (POD) algorithm for a video sequence is proposed"."""
    name, start = _last_word(before)
    if name and is_strong_name(name):
        yield Candidate(name, CLEAR, index, start)
        return
    paren = _LAST_PAREN.search(before)
    if paren is None:
        return
    short = trim_word(paren.group(1))
    head = before[: paren.start()]
    long_form = acronym_long_form(short, head) if is_strong_name(short) else ""
    if long_form and head.rstrip().endswith(long_form):
        capitalised = any(is_capitalised(word) for word in long_form.split())
        start = max(0, head.rfind(long_form))
        yield Candidate(short, CLEAR if capitalised else LIKELY, index, start, long_form)


def _last_word(text: str) -> tuple[str, int]:
    r"""The last word of ``text`` (edge punctuation trimmed) and where it starts.

    String methods, not a regex: ``(\S+)\s*$`` searched over a long run without spaces
    takes quadratic time.
    """
    stripped = text.rstrip()
    start = max(stripped.rfind(" "), stripped.rfind("\t"), stripped.rfind("\n")) + 1
    return trim_word(stripped[start:]), start


def sentence_subject(sentence: str, index: int, owned: bool | None) -> Iterator[Candidate]:
    """A sentence that opens with the name ("X, a novel ...", "X is a ...", "X, a
    system ..., is presented") or gives it a novel apposition ("..., NetVLAD, is a new",
    "techniques behind CatBoost, a new gradient boosting toolkit").

    ``owned`` says whether the sentence speaks of the paper's own work ("we", "our",
    "new"); None means not yet checked, which is done only if a name opens the sentence.
    """
    if "a n" in sentence and (", a" in sentence or ": a" in sentence):
        for match in _NEW_APPOSITION.finditer(sentence):
            name, start = _last_word(sentence[: match.start()])
            if name and is_strong_name(name) and start > 0:
                yield Candidate(name, CLEAR, index, start)
    if "is a n" in sentence or "are a n" in sentence:
        for match in _INNER_APPOSITION.finditer(sentence):
            name, end = name_at(sentence, match.end(), strong_only=True)
            if name and _IS_NEW.match(sentence, end):
                yield Candidate(name, CLEAR, index, match.end())
    if not _SUBJECT_HINT.match(sentence):
        return
    name, end = name_at(sentence, 0)
    if not name:
        return
    if owned is None:
        owned = bool(OWNED.search(sentence))
    if " " not in name and not owned and not is_strong_name(name):
        return
    after = _PARENTHETICAL.sub("", sentence[end:], count=1)  # "ALVINN (Autonomous ...) is"
    if _APPOSITION.match(after):
        presented = _PRESENTED_LATER.search(after) is not None
        yield Candidate(name, CLEAR if presented or owned else WEAK, index, 0)
    elif _PASSIVE_AFTER_NAME.match(after):
        yield Candidate(name, LIKELY, index, 0)
    elif _IS_A.match(after):
        # An abstract that opens with "X is a ..." is about X, unless X is others' work or
        # a problem it works on ("Face Super-Resolution (SR) is a domain-specific ...
        # problem", "Visual Domain Adaptation is a problem of immense importance").
        opening = (
            index == 0
            and not BACKGROUND.search(sentence)
            and not _PROBLEM.match(after, _IS_A.match(after).end())
        )
        yield Candidate(name, CLEAR if opening else 1.0, index, 0)
    elif VERSIONED_NAME.search(name) and not BACKGROUND.search(sentence):
        # "FlowNet 2.0 is only marginally slower than the original FlowNet": a new version
        # as the subject; ``naming`` believes it when the abstract discusses the original.
        yield Candidate(name, LIKELY, index, 0)
