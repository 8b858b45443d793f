"""A class for tests/test_architecture.py to find: it overrides a private method of
the standard library's `string.Formatter`, and defines a private name of its own."""

from __future__ import annotations

import string


class Reader(string.Formatter):
    """Stands for a widget that overrides a private method of its library's base."""

    _mine = 1
    """Its own: the base has no such name."""

    def _vformat(self, *args: object, **kwargs: object):  # type: ignore[override]
        return super()._vformat(*args, **kwargs)
