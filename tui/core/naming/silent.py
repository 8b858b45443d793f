"""A name the abstract never introduces but uses: the fallback of ``naming``.

Many abstracts introduce their contribution without a name ("We propose a novel
approach to learning the joint distribution ...") and then simply use one as the
subject of what follows ("GibbsNet is the best of both worlds ... We show that GibbsNet
is able to ..."). :func:`silent_name` finds such a name, only when no phrasing named
anything: a coined word (an inner capital or a digit) that opens sentences after the
unnamed introduction as the subject of a verb, is used at least twice, and does not
occur before the introduction (a name used before it is someone else's).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tui.core.naming.clauses import BACKGROUND
from tui.core.naming.filters import resolved_name
from tui.core.naming.patterns import intro_objects
from tui.core.naming.phrases import LIKELY, Candidate
from tui.core.naming.text import acronym_long_form, is_capitalised, is_strong_name, trim_word

__all__ = ["silent_name"]

# Words just before a long form that make its acronym what the paper builds on: "based
# on the structural equation model (SEM)", "a class of set covering problem (SCOP)".
_BUILT_ON = frozenset("based on upon of using uses use via from with under by in".split())

# "GibbsNet is", "HoloGAN instead learns", "that M3D-RPN achieves": a name, perhaps an
# adverb, then a verb in the present or past ("learns", "is", "can", "was").
_VERB_AFTER = (
    r" (?:(?:[a-z]+ly|instead|also|then|thus|further) )?"
    r"(?:is|are|was|can|has|does|[a-z]{2,}[^s\W]s|[a-z]{3,}ed)\b"
)
_SUBJECT_OPENS = re.compile(rf"(?:[Tt]he )?([^\s,;:()]{{3,40}}){_VERB_AFTER}")
# A literal start lets the engine skip ahead: several times faster than an alternation.
_SUBJECT_AFTER_THAT = re.compile(rf" that (?:the )?([^\s,;:()]{{3,40}}){_VERB_AFTER}")
# "experiments demonstrate that Conformal Data Cleaning (CDC) improves ...": the long
# form and its acronym as the subject, the name defined where it is first used.
_DEFINED_SUBJECT = re.compile(rf"\(([^\s,;:()]{{2,40}})\){_VERB_AFTER}")
_MIN_MENTIONS = 2
_NAME_SHAPE = re.compile(r"[^\W_][\w+*'’.-]*")


def silent_name(text: str, sentences: Sequence[str]) -> str:
    """The coined name the abstract uses for its unnamed contribution, or ""."""
    # Most abstracts have no coined subject at all: check that first, it is cheap.
    if not any(
        is_strong_name(trim_word(match.group(1)))
        for sentence in sentences[1:]
        for match in _subjects(sentence)
    ):
        return ""
    first_intro = next(
        (i for i, sentence in enumerate(sentences) if any(True for _ in intro_objects(sentence))),
        None,
    )
    if first_intro is None:
        return ""
    before = " ".join(sentences[: first_intro + 1])
    best, best_uses = "", 0
    for index in range(first_intro + 1, len(sentences)):
        sentence = sentences[index]
        if BACKGROUND.search(sentence):
            continue
        for match in _subjects(sentence):
            name = trim_word(match.group(1))
            if not _NAME_SHAPE.fullmatch(name) or not is_strong_name(name):
                continue
            if name in before or name == best:
                continue
            if not _first_use_is_own(sentences, name, index, match.start(1)):
                continue
            if not resolved_name(Candidate(name, LIKELY, index, match.start())):
                continue  # "CNNs", "GPUs", "3D": terms, not names
            uses = text.count(name)
            if _defined_here(sentence, name, match.start(1)):
                uses += 1  # "Long Form (ACR)" names it twice
            if uses >= _MIN_MENTIONS and uses > best_uses:
                best, best_uses = name, uses
    return best


def _subjects(sentence: str) -> list[re.Match[str]]:
    """Where a sentence has a subject and its verb: at its start, or after "that"."""
    found = [match] if (match := _SUBJECT_OPENS.match(sentence)) else []
    if " that " in sentence:
        found.extend(_SUBJECT_AFTER_THAT.finditer(sentence))
    if ")" in sentence:
        found.extend(m for m in _DEFINED_SUBJECT.finditer(sentence) if _long_form_opens(sentence, m))
    return found


def _long_form_opens(sentence: str, match: re.Match[str]) -> bool:
    """Whether the long form of "(ACR)" opens the sentence or follows "that": the subject
    of the verb after it ("We show that Conformal Data Cleaning (CDC) improves")."""
    before = sentence[: match.start()]
    long_form = acronym_long_form(match.group(1), before)
    if not long_form or not before.endswith(long_form + " "):
        return False
    head = before[: len(before) - len(long_form) - 1]
    if head.endswith("that ") or head.endswith("that the "):
        return True
    # Opening the sentence, a lower-case long form is mostly a term being recalled ("The
    # conditional restricted Boltzmann machine (CRBM) can model ..."); a name is written
    # with capitals.
    return head in ("", "The ") and is_capitalised(long_form)


def _defined_here(sentence: str, name: str, at: int) -> bool:
    """Whether ``name`` stands at ``at`` as "(ACR)" right after its long form."""
    return sentence[at - 1 : at] == "(" and bool(acronym_long_form(name, sentence[: at - 1]))


def _first_use_is_own(sentences: Sequence[str], name: str, index: int, at: int) -> bool:
    """Whether the name's first use is this subject, or its definition "(ACR)" after a
    long form the paper offers ("Our approach, time-contrastive learning (TCL), ...")
    rather than builds on ("based on the structural equation model (SEM)"); "such as
    PILCO which learns" first uses PILCO as someone else's method."""
    first = next(i for i, sentence in enumerate(sentences) if name in sentence)
    sentence = sentences[first]
    where = sentence.find(name)
    if first == index and where == at:
        return True
    if sentence[where - 1 : where] != "(" or sentence[where + len(name) :][:1] != ")":
        return False
    before = sentence[: where - 1]
    long_form = acronym_long_form(name, before)
    start = before.rfind(long_form) if long_form else len(before)
    return not any(word.lower() in _BUILT_ON for word in before[:start].split()[-4:])
