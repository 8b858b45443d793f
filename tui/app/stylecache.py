"""The reader's parsed styles, kept between starts.

Textual parses every stylesheet each time an app starts: the reader's own
(`paperscope.tcss`) and the default CSS of each widget class on the screen. That is
some 13 ms of the reader's first frame, more than any other one part of it, and the
result never changes from one start to the next: a parsed rule set depends only on its
CSS text, where it was read from, its scope and priority, the theme's variables, and
the Textual (and Rich) code that parsed it.

So the reader's stylesheet (`KeptStylesheet`) looks each source up in the rule sets
parsed at an earlier start before parsing it, and the app writes what it parsed to one
file of the user's cache folder (`save`). The file is a cache: one that is missing,
torn, written by another Textual or Rich, or that fails to load in any way is ignored
and written again; a source with errors is never kept, so that Textual reports them
every time. The file is a pickle, so it is read only from the user's own cache folder
(`locations.cache_dir`), like the index.
"""

from __future__ import annotations

import os
import pickle
import sys
from pathlib import Path

from tui.app.compat import SourceStylesheet
from tui.core.durable import atomic_write

FILE = "styles.pickle"
_FORMAT = 1
"""Bumped when the file's layout changes."""
MAX_ENTRIES = 256
"""Past this many kept sources (themes switched back and forth), the file starts over."""
_PARSER_MODULES = ("textual", "textual.css.parse", "textual.css.model", "textual.css.styles",
                   "textual.css.scalar", "textual.color", "rich", "rich.style")
"""The modules whose code makes and shapes a parsed rule set: the file is keyed by
their files (an upgrade of Textual or Rich replaces them)."""


def parser_key() -> tuple:
    """The installed parser's identity: each of its modules' path, size and mtime."""
    key = []
    for name in _PARSER_MODULES:
        path = getattr(sys.modules.get(name), "__file__", None) or ""
        try:
            info = os.stat(path)
        except OSError:
            key.append((path, None))
        else:
            key.append((path, info.st_size, info.st_mtime_ns))
    return (_FORMAT, sys.version_info[:2], tuple(key))


def load(path: Path) -> tuple[dict[str, str], dict]:
    """(the CSS variables, the rule sets parsed with them) kept in `path` by this
    parser, or two empty dicts when there are none to trust."""
    try:
        data = pickle.loads(path.read_bytes())
        if (data["parser"] == parser_key() and isinstance(data["variables"], dict)
                and isinstance(data["entries"], dict)):
            return data["variables"], data["entries"]
    except Exception:  # noqa: BLE001 - a cache: any failure to read it means "none"
        pass
    return {}, {}


def save(stylesheet: KeptStylesheet, path: Path) -> None:
    """Write `stylesheet`'s rule sets to `path` if it parsed any source that was not
    kept there. Fails silently: the next start parses again."""
    if not stylesheet.added:
        return
    entries = stylesheet.kept if len(stylesheet.kept) <= MAX_ENTRIES else {}
    try:
        data = pickle.dumps({"parser": parser_key(), "variables": stylesheet.variables,
                             "entries": entries}, protocol=pickle.HIGHEST_PROTOCOL)
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, data, durable=False)
    except Exception:  # noqa: BLE001 - a cache: never stop the reader over it
        return
    stylesheet.added = False


class KeptStylesheet(SourceStylesheet):
    """Textual's stylesheet, reusing the rule sets in `kept`, parsed with the same
    variables (see the module), and adding to it each source it had to parse."""

    def __init__(self, *, variables: dict[str, str],
                 kept: tuple[dict[str, str], dict] | None = None) -> None:
        """`kept`: what `load` read, (variables, rule sets parsed with them)."""
        super().__init__(variables=variables)
        self._loaded = kept if kept is not None else ({}, {})
        self.kept: dict = {}
        """(CSS, where read from, defaults?, tie breaker, scope) → the rule sets
        Textual parsed from that source with the stylesheet's variables."""
        self.added = False
        """Whether a source was parsed here that `kept` did not hold before."""
        self._take_loaded()

    def set_variables(self, variables: dict[str, str]) -> None:
        changed = variables != self.variables
        super().set_variables(variables)
        if changed:  # another theme (the user's, set after the app was made)
            self._take_loaded()

    def _take_loaded(self) -> None:
        """Start from the loaded rule sets if they were parsed with these variables."""
        variables, entries = self._loaded
        self.kept = dict(entries) if variables == self.variables else {}
        self.added = False

    def parse_source(self, css: str, read_from: tuple[str, str], is_default_rules: bool,
                     tie_breaker: int, scope: str) -> list:
        key = (css, read_from, is_default_rules, tie_breaker, scope)
        rules = self.kept.get(key)
        if rules is None:
            rules = super().parse_source(css, read_from, is_default_rules, tie_breaker,
                                         scope)
            if not any(rule.errors for rule in rules):
                self.kept[key] = rules
                self.added = True
        return rules
