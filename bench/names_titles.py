"""The secondary measure of ``bench/names.py``: derived names against real paper titles.

Titles are a weak reference: many correct names are ones the title does not use, so the
precision here is a lower bound, kept as a secondary line beside the labelled figures
(``bench/name_labels.py``). The abstracts go through the product's own path,
``tui.core.lists.paragraphs.read_list`` (which renders each abstract with
``tui.core.render.text`` and calls ``derive_name`` and ``derive_title``), and each
derived name is judged against the real title from the ``*.titles.jsonl`` sidecar:

* A title that starts with a name and a colon ("CoupleNet: ...") *expects* that name.
  The prefix counts as a name when it is at most five words and either one word, or has
  a coined-looking word (a capital right after a letter, or a digit: "CoupleNet",
  "R-C3D"; not "Domain-Size", which is Title Case), or is all capitalised words
  ("Phased LSTM"). A trailing "(ACRONYM)" in the prefix is dropped. A plain phrase of
  capitalised words counts only where the abstract writes it with those capitals; an
  abstract that only says "stratification learning" does not present a name.
* Normalisation, for every comparison: Unicode NFKC, case-folding, hyphens, dashes and
  underscores read as spaces, whitespace collapsed, quotes and TeX ``$``/braces/
  backslashes dropped, a leading "the" dropped ("the Trajectron"), and a plural equals
  its singular ("TAFE-Nets" / "TAFE-Net").
* A derived name is **correct** when it equals the expected one. Two more rules, counted
  and printed apart, accept what the abstract itself declares to be the same name:
  the *alias* rule, "Long Form (SHORT)", "SHORT (Long Form)" or "Long Form, or SHORT for
  short" (paperscope prefers the short form; both are the abstract's), and the
  *head-noun* rule, a title that adds a class noun the abstract writes after the name
  ("SoftTriple Loss" for "SoftTriple" where the abstract says "the SoftTriple loss").
* With no expected name, a derived name is a **false positive** only when it does not
  occur in the title, as whole words ("SIN" is not in "Using"; a plural is fine).
  *Literal* precision takes that word for word. *Spelled-out* precision, the headline
  figure, also accepts the name written out in the title, and nothing else: the long
  form the abstract itself gives it ("focal visual-text attention network (FVTA)", title
  "Focal Visual-Text Attention for ..."; at least two consecutive words shared), an
  acronym of consecutive title words, function words skipped ("AROW", "Adaptive
  Regularization of Weight Vectors"; a final "Net" stands for "Network": "PSMNet", "Pyramid Stereo Matching
  Network"), or the name without its class noun ("Recurrent Attentive Zooming Network"
  under "Recurrent Attentive Zooming for ...").

Precision = derived names that are not false positives / all derived names; it is also
printed apart for titles that start with a name and for the others, since the abstract
alone cannot tell whether its authors put the name in the title.
Recall = correct names / titles whose expected name the abstract writes outside URLs (a
name the abstract never writes cannot be derived); recall over every titled name is
printed too. Many "false positives" are real names of the paper that its title does
not use ("We present Committee, a new multi-class learning algorithm ..." under "A
Multi-class Linear Learning Algorithm Related to Winnow"), so precision here is a lower
bound; the samples show which.
"""

from __future__ import annotations

import json
import random
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bench.name_labels import JOINERS, MARKUP, comparison_form
from tui.core.model import Paper
from tui.core.lists.paragraphs import read_list
from tui.core.render.text import render

_URL = re.compile(r"\S*(?:https?://|www\.|github\.com)\S*")
_SKIPPED = frozenset("of for and the with in on a an to via by from".split())


def normalise(name: str, fold: bool = True) -> str:
    """The comparison form of a name (see the module docstring); ``fold=False`` keeps case."""
    if fold:
        return comparison_form(name)
    name = JOINERS.sub(" ", MARKUP.sub("", unicodedata.normalize("NFKC", name))).strip()
    return name[4:] if name.lower().startswith("the ") else name  # "the Trajectron"


def same_name(got: str, want: str) -> bool:
    """Equal normalised names, also when one is the plural ("TAFE-Nets" / "TAFE-Net")."""
    return bool(got and want) and (got in (want, want + "s") or want == got + "s")


# Class nouns a title may write after a name ("SoftTriple Loss", "The SYNTHIA Dataset").
_HEAD_NOUNS = frozenset(
    """
    dataset datasets benchmark benchmarks corpus database model models loss losses network
    networks net nets estimator estimators algorithm algorithms method methods framework
    curve curves challenge system systems
    """.split()
)


def head_noun_name(got: str, want: str, body: str) -> bool:
    """Whether the title's name is the derived one plus a class noun that the abstract
    itself writes after it: "SoftTriple Loss" for "SoftTriple" where the abstract says
    "the SoftTriple loss", "The SYNTHIA Dataset" for "SYNTHIA" ("the SYNTHIA dataset")."""
    if not got or not want.startswith(got + " "):
        return False
    noun = want[len(got) + 1 :]
    return noun in _HEAD_NOUNS and f"{got} {noun}" in body


def title_name(title: str) -> tuple[str, bool]:
    """The name a real title starts with ("CoupleNet: ..."), and whether it looks coined.

    A coined name is one word or has a word with an inner capital or a digit. A run of
    capitalised words ("Phased LSTM", "Network Dissection") is returned as not coined:
    in Title Case venues it is often a plain phrase, so it only counts as a name where
    the abstract writes it.
    """
    match = re.match(r"\s*([^:]+?)\s*:\s", title)
    if not match:
        return "", False
    prefix = match.group(1).strip(" \"“”'")
    # "Structural Expectation Propagation (SEP): ..." names SEP; the long form is an alias.
    prefix = re.sub(r"\s*\([^()]*\)$", "", prefix) or prefix
    words = prefix.split()
    if not words or len(words) > 5 or len(prefix) > 40:
        return "", False
    # "Domain-Size", "First-Person": Title Case capitalises both halves of a compound, so
    # only a capital right after a letter ("CoupleNet", "SfM") or a digit looks coined.
    if len(words) == 1 or any(re.search(r"[^\W\d_][A-Z]|\d", word) for word in words):
        return prefix, True
    if all(word[:1].isupper() for word in words):
        return prefix, False
    return "", False


@dataclass
class Tally:
    """Counts and examples for the report."""

    derived: int = 0
    false_positives: int = 0
    """Judged with spelled-out forms allowed."""
    false_positives_literal: int = 0
    expected: int = 0
    expected_written: int = 0
    correct_strict: int = 0
    correct_alias: int = 0
    derived_named: int = 0
    """Derived names under a title that starts with a name."""
    false_positives_named: int = 0
    correct_head_noun: int = 0
    """Counted in correct_alias too: the title adds a class noun ("SoftTriple Loss")."""
    correct_written: int = 0
    misses: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)


def judge(tally: Tally, where: str, text: str, title: str, name: str) -> None:
    """Count one abstract (see the module docstring for the rules)."""
    title = render(title).text
    expected, coined = title_name(title)
    got, want, body = normalise(name), normalise(expected), normalise(text)
    prose = _URL.sub(" ", text)
    written = bool(want) and want in normalise(prose)
    if written and not coined:
        written = normalise(expected, fold=False) in normalise(prose, fold=False)
    if want and not coined and not written:
        expected = want = ""  # a plain phrase the abstract never uses is no name
    strict = same_name(got, want)
    alias = bool(got and want) and not strict and (
        f"{want} ({got})" in body
        or f"{got} ({want})" in body
        or re.search(
            rf"{re.escape(want)}(?:\W+\w+){{0,2}}\W+(?:or )?{re.escape(got)} (?:for|in) short",
            body,
        )
        is not None
    )
    headed = bool(want) and not (strict or alias) and head_noun_name(got, want, body)
    tally.correct_head_noun += headed
    alias = alias or headed
    if want:
        tally.expected += 1
        tally.expected_written += written
        tally.correct_strict += strict
        tally.correct_alias += alias
        if written and (strict or alias):
            tally.correct_written += 1
        elif written:
            tally.misses.append(f"{where}  want {expected!r}  got {name!r}  | {title}")
    if not name:
        return
    tally.derived += 1
    if want:
        literal_wrong = spelled_wrong = not (strict or alias)
        tally.derived_named += 1
        tally.false_positives_named += spelled_wrong
    else:
        literal_wrong = not _in_title(got, normalise(title))
        spelled_wrong = (
            literal_wrong
            and not _spelled_out_in_title(got, title, body)
            and not _head_noun_dropped(got, normalise(title))
        )
    tally.false_positives_literal += literal_wrong
    if spelled_wrong:
        tally.false_positives += 1
        tally.wrong.append(f"{where}  got {name!r}  | {title}")


def _head_noun_dropped(got: str, title: str) -> bool:
    """Whether the title writes the name without its class noun: "Recurrent Attentive
    Zooming Network" in "Recurrent Attentive Zooming for Joint Crowd Counting"."""
    words = got.split()
    if len(words) < 3 or words[-1] not in _HEAD_NOUNS:
        return False
    return _in_title(" ".join(words[:-1]), title)


def _in_title(got: str, title: str) -> bool:
    """Whether the title has the name as whole words, perhaps in the plural ("Spatial
    Topic Processes"); "SIN" is not in "Using", nor "ACT" in "Actions"."""
    return re.search(rf"(?<!\w){re.escape(got)}(?:s|es)?(?!\w)", title) is not None


def _spelled_out_in_title(got: str, title: str, body: str) -> bool:
    """Whether the title writes the derived name out: as the long form the abstract gives
    it, or as consecutive words whose initials are the acronym."""
    title_words = normalise(title).split()
    short = re.escape(got)
    defined = rf"((?:\S+ ){{1,12}})(?:\({short}\)|(?:or )?{short} (?:for|in) short)"
    for match in re.finditer(defined, body):
        if _longest_shared_run(match.group(1).split(), title_words) >= 2:
            return True
    letters = "".join(ch for ch in got if ch.isalpha())
    if any(word.startswith("net") for word in title_words):
        letters = re.sub(r"nets?$", "n", letters)  # "PSMNet": Pyramid Stereo Matching Network
    if not 3 <= len(letters) <= 10:
        return False
    initials = "".join(w[0] for w in title_words if w[0].isalnum() and w not in _SKIPPED)
    return letters in initials


def _longest_shared_run(words: list[str], title_words: list[str]) -> int:
    """Length of the longest run of consecutive words common to both lists."""
    best = 0
    for i in range(len(words)):
        for j in range(len(title_words)):
            k = 0
            while (
                i + k < len(words)
                and j + k < len(title_words)
                and words[i + k] == title_words[j + k]
            ):
                k += 1
            best = max(best, k)
    return best


def corpus_papers(corpora: Path) -> Iterator[tuple[str, Paper, str]]:
    """(where, paper, real title) for every abstract whose title the sidecar gives."""
    for sidecar in sorted(corpora.glob("*.titles.jsonl")):
        list_file = sidecar.with_name(sidecar.name.replace(".titles.jsonl", ".txt"))
        if not list_file.exists():
            continue
        papers = read_list(list_file).papers
        for line in sidecar.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            position = record["i"]
            if 0 <= position < len(papers):
                yield f"{list_file.name}:{position}", papers[position], record["title"]


def title_figures(tally: Tally) -> str:
    """The secondary line: precision and recall against real titles."""
    derived = max(tally.derived, 1)
    literal = 1 - tally.false_positives_literal / derived
    spelled = 1 - tally.false_positives / derived
    recall = tally.correct_written / max(tally.expected_written, 1)
    return (
        f"title-based (secondary): precision {spelled:.3f} spelled-out, {literal:.3f} "
        f"literal ({tally.derived} names); recall {recall:.3f} "
        f"({tally.correct_written}/{tally.expected_written} titled names the abstract writes)"
    )


def report_titles(tally: Tally, samples: int) -> None:
    """The title-based details and a reproducible sample of misses and false positives."""
    everything = (tally.correct_strict + tally.correct_alias) / max(tally.expected, 1)
    named, other = tally.derived_named, tally.derived - tally.derived_named
    other_fp = tally.false_positives - tally.false_positives_named
    print(
        f"  spelled-out, by title: {1 - tally.false_positives_named / max(named, 1):.3f} "
        f"under titles that start with a name ({named} names), "
        f"{1 - other_fp / max(other, 1):.3f} under other titles ({other} names)"
    )
    print(
        f"  recall: {everything:.3f} of all {tally.expected} titled names; "
        f"{tally.correct_alias - tally.correct_head_noun} correct by the alias rule, "
        f"{tally.correct_head_noun} by the head-noun rule"
    )
    rng = random.Random(0)
    for label, rows in (("misses", tally.misses), ("false positives", tally.wrong)):
        print(f"\n-- title-based: sample of {label} ({len(rows)}) --")
        for row in rng.sample(rows, min(samples, len(rows))):
            print(row[:220])
