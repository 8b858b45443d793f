"""ASCII search aliases for the math in an abstract, for the index.

`math_aliases` gives the search index ASCII spellings of each math segment (`$\\tau^2$` →
`tau2 tau 2`), since nobody types `τ²` into a search box.
"""

from __future__ import annotations

import re
import unicodedata

from tui.core.render import tables as T
from tui.core.render.math import glue_prefix
from tui.core.render.scan import find_math

_ALIAS_TOKEN = re.compile(r"\\([A-Za-z]+)|\\.|([A-Za-z0-9]+)|([\^_{}])|(\s+)|(.)", re.S)


def math_aliases(raw: str) -> str:
    """ASCII search aliases for each math segment: `$\\ell_p$` → `ell_p ellp ell p`.

    Each run of a segment that reads as one term (`\\tau^2`, `x_{ij}`) gives its compact
    form, that form without underscores, and its pieces; formatting commands (`\\mathcal`,
    `\\frac`, `\\left`) are left out. "" when `raw` has no math.
    """
    aliases: dict[str, None] = {}
    for _, _, start, end in find_math(raw):
        for pieces, compact in _alias_terms(raw[start:end]):
            for alias in (compact, compact.replace("_", ""), " ".join(pieces)):
                if alias:
                    aliases.setdefault(alias, None)
    return " ".join(aliases)


def _alias_terms(body: str) -> list[tuple[list[str], str]]:
    """Split a math body into terms, each as (pieces, compact form with underscores)."""
    terms: list[tuple[list[str], str]] = []
    pieces: list[str] = []
    compact, joined, pending_underscore = "", False, False

    def finish() -> None:
        nonlocal pieces, compact, joined, pending_underscore
        if pieces:
            terms.append((pieces, compact))
        pieces, compact, joined, pending_underscore = [], "", False, False

    for match in _ALIAS_TOKEN.finditer(body):
        command, word, joiner, _, other = match.groups()
        prefix = glue_prefix(command) if command else None
        if prefix and command not in T.SYMBOLS and command not in T.ALIAS_NOISE:
            command, word, joined = None, command[len(prefix) :], True  # `\mathcalO` is O
        if other is not None:  # a Unicode symbol typed directly, or punctuation
            command = T.SYMBOL_NAMES.get(other)
            folded = unicodedata.normalize("NFKD", other).encode("ascii", "ignore").decode()
            word = folded if command is None and folded.isalnum() else None
        if command is not None and command in T.ALIAS_NOISE:
            joined = True  # `\mathcal{O}` is a term O, not `mathcal` plus O
            continue
        if command is not None or word is not None:
            if command is not None and not joined:
                finish()  # `p\geq 1`: a symbol starts its own term
            piece = command if command is not None else word
            compact += ("_" if pending_underscore and compact else "") + piece
            pieces.append(piece)
            joined, pending_underscore = False, False
        elif joiner is not None and (joiner != "}" or body[match.end() : match.end() + 1] in "^_"):
            joined = True  # `^`, `_`, `{` and a `}` before a script keep the term going
            pending_underscore = pending_underscore or joiner == "_"
        else:
            finish()  # whitespace, punctuation, escapes and closing groups end a term
    finish()
    return terms
