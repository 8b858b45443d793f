"""Derived names measured against a careful reading of the abstracts.

A label file (``../shared/names/names_dev.jsonl``) holds one JSON object per line::

    {"file": "cvpr2017.txt", "position": 12, "primary": "FlowNet 2.0" or null,
     "also": ["other own names", "long forms"], "confidence": "high" or "low"}

naming the abstract at ``position`` (0-based paragraph after the title line) of
``file`` and the name it introduces for its own contribution (``primary``; null when it
introduces none) with its other own names (``also``).

**The comparison.** A derived name is *right* when its comparison form equals that of
the primary or of one of the "also" names. The comparison form is the name after
Unicode NFKC, case-folding, hyphens, dashes, underscores and whitespace all read as one
space ("VGGT-Motion" = "VGGT Motion" = "vggt motion"), quotes and TeX markup (``$``,
braces, backslashes) dropped, and a leading "the" dropped ("the Trajectron"). Nothing
else is forgiven: no plural folding, no prefix or substring match, no acronym of a long
form. Case and hyphens are forgiven because an abstract writes one name either way
("Group-Topic", "group topic"), and the label records the name, not its typography;
everything else changes which thing is named ("XNM" is a module, "XNMs" the network).

**The figures.** precision = right names / names derived (over all labelled abstracts,
including those that introduce no name); recall = right names / abstracts whose label
has a primary. A *miss* is an abstract with a primary and no right name; a *wrong* name
is a derived name that is not right (so a wrong name under a primary is both).
"""

from __future__ import annotations

import json
import random
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "Label", "LabelError", "LabelScore", "comparison_form", "is_right", "read_labels",
    "score_names", "split_halves",
]


class LabelError(ValueError):
    """A label file that cannot be read; the message is one line for the user."""


@dataclass(frozen=True, slots=True)
class Label:
    """One abstract's careful reading."""

    file: str
    position: int
    primary: str | None
    """The name the paper introduces for its own contribution, or None."""
    also: tuple[str, ...] = ()
    """Its other own names: long forms, variants, named parts."""
    confidence: str = "high"

    @property
    def where(self) -> str:
        """``file:position``, as the reports print it."""
        return f"{self.file}:{self.position}"


def read_labels(path: Path) -> list[Label]:
    """Every label in ``path``; :class:`LabelError` names the first bad line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise LabelError(f"cannot read labels {path}: {error}") from None
    labels: list[Label] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            primary = record["primary"]
            label = Label(
                file=str(record["file"]),
                position=int(record["position"]),
                primary=str(primary) if primary else None,
                also=tuple(str(name) for name in record.get("also") or ()),
                confidence=str(record.get("confidence", "high")),
            )
        except (ValueError, KeyError, TypeError) as error:
            raise LabelError(f"{path}:{number}: not a label ({error})") from None
        labels.append(label)
    return labels


# Dropped before comparing: quotes and TeX markup around or inside a name.
MARKUP = re.compile(r"[$\\{}\"“”‘’'`]")
# Read as one space: whitespace, hyphens, dashes and underscores between words.
JOINERS = re.compile(r"[\s\-‐‑‒–—_]+")


def comparison_form(name: str) -> str:
    """The form in which two names are compared (see the module docstring)."""
    name = unicodedata.normalize("NFKC", name).casefold()
    name = JOINERS.sub(" ", MARKUP.sub("", name)).strip()
    return name[4:] if name.startswith("the ") else name


def is_right(derived: str, label: Label) -> bool:
    """Whether ``derived`` is the label's primary or one of its "also" names."""
    got = comparison_form(derived) if derived else ""
    if not got or label.primary is None:
        return False
    return any(got == comparison_form(name) for name in (label.primary, *label.also))


@dataclass
class LabelScore:
    """Counts over a set of labelled abstracts, with the errors to study."""

    labelled: int = 0
    with_primary: int = 0
    derived: int = 0
    right: int = 0
    misses: list[tuple[Label, str]] = field(default_factory=list)
    """(label, derived name or "") for each abstract with a primary and no right name."""
    wrong: list[tuple[Label, str]] = field(default_factory=list)
    """(label, derived name) for each derived name that is not right."""

    @property
    def precision(self) -> float | None:
        """Right names / names derived; None when nothing was derived."""
        return self.right / self.derived if self.derived else None

    @property
    def recall(self) -> float | None:
        """Right names / abstracts with a primary; None when no label has one."""
        return self.right / self.with_primary if self.with_primary else None


def score_names(pairs: Iterable[tuple[Label, str]]) -> LabelScore:
    """Score (label, derived name) pairs; "" means no name was derived."""
    result = LabelScore()
    for label, derived in pairs:
        derived = derived.strip()
        right = is_right(derived, label)
        result.labelled += 1
        result.with_primary += label.primary is not None
        result.derived += bool(derived)
        result.right += right
        if derived and not right:
            result.wrong.append((label, derived))
        if label.primary is not None and not right:
            result.misses.append((label, derived))
    return result


def split_halves(labels: Sequence[Label], seed: int = 12) -> tuple[list[Label], list[Label]]:
    """Two fixed halves of ``labels``: one to develop on, one to check now and then.

    The order of the file does not matter: labels are sorted before the seeded shuffle,
    and each half keeps the file's order.
    """
    keys = sorted({(label.file, label.position) for label in labels})
    random.Random(seed).shuffle(keys)
    first = set(keys[: (len(keys) + 1) // 2])
    half_a = [label for label in labels if (label.file, label.position) in first]
    half_b = [label for label in labels if (label.file, label.position) not in first]
    return half_a, half_b
