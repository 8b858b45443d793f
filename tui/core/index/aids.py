"""What the builder wrote for typing: the prefix table, the text's terms with their
counts, and the vocabulary for spelling suggestions (a mixin of `Library`).

Each is read from its side file on first use; a file missing or damaged gives an empty
aid with a notice (`Library._side_file`), so that typing never stops a search.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property

from tui.core.index.prefixtops import PrefixTops
from tui.core.index.sidefiles import PREFIX_FILE, TERMS_FILE, TOPS_FILE, WORDS_FILE, parse_json
from tui.core.index.termtable import TermTable

AIDS = ("prefix_table", "prefix_tops", "text_terms", "vocabulary")
"""The cached properties below, forgotten when the index is reopened."""


class TypingAids:
    """The prefix table, the term table and the vocabulary of a library's index."""

    _side_file: Callable[..., object]

    @cached_property
    def prefix_table(self) -> dict[str, list[str]]:
        """Prefix → its most frequent indexed terms (built with the index; see
        `sidefiles.PREFIX_SCAN` for which prefixes have a row)."""
        table = self._side_file(parse_json, PREFIX_FILE)
        return table if isinstance(table, dict) else {}

    @cached_property
    def prefix_tops(self) -> PrefixTops | None:
        """The best papers of each short prefix (built with the index: `prefixtops`);
        None when unreadable."""
        tops = self._side_file(PrefixTops, TOPS_FILE)
        return tops if isinstance(tops, PrefixTops) else None

    @cached_property
    def text_terms(self) -> TermTable | None:
        """The text's terms with their counts (`termtable`); None when unreadable."""
        table = self._side_file(TermTable.parse, TERMS_FILE)
        return table if isinstance(table, TermTable) else None

    @cached_property
    def vocabulary(self) -> frozenset[str]:
        """The unstemmed words of the abstracts, for spelling suggestions."""
        words = self._side_file(parse_json, WORDS_FILE)
        return frozenset(words) if isinstance(words, list) else frozenset()
