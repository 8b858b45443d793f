"""Import Whoosh without modules that a search never needs.

When Whoosh is imported, four of its modules import, by name, things that paperscope
never or rarely calls, and that together cost about as much as the rest of a cold
`paperscope search` imports:

- `whoosh.compat` imports `urllib.request` (for `urlretrieve`, which an index never
  calls), and with it http, email and ssl; and `html` (for `escape`, which only
  Whoosh's own highlighters call), whose table of entities costs about 1 ms;
- `whoosh.reading` imports the `cached_property` package, which imports asyncio (and
  with it inspect, logging and concurrent.futures) for its coroutine support; Whoosh
  decorates one plain property with it, as `functools.cached_property` does;
- `whoosh.util.times` imports `calendar` (about 0.6 ms) for `monthrange`, which only
  date ranges and relative dates call (paperscope's schema has no date field);
- `whoosh.query.terms` imports `whoosh.lang.morph_en`, which compiles hundreds of
  patterns at import, for the `Variations` query (paperscope's queries never use it).

`install()` (run when `tui.core` is imported, at no cost: it imports nothing) puts a
finder first on `sys.meta_path` that has each of these four Whoosh modules executed
while stand-ins answer for what it imports: the stand-ins for functions forward to the
real function, imported at its first call. A stand-in is in `sys.modules` only while
that one module runs, so any other import of these modules, by anyone, gets the real
ones; a module already imported is used as it is. Whoosh is imported when the index
first needs it, as before. tests/test_import_hygiene.py checks that a plain search
loads none of what the stand-ins answer for.
"""

from __future__ import annotations

import functools
import importlib
import sys
import types
from collections.abc import Callable
from importlib.machinery import ModuleSpec, PathFinder


def _forward(module: str, name: str) -> Callable[..., object]:
    """A function that imports `module` at its first call and calls its `name`."""

    def call(*args: object, **kwargs: object) -> object:
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"`{module}.{name}`, imported when first called."
    return call


def stand_ins() -> dict[str, dict[str, dict[str, object]]]:
    """For each Whoosh module concerned: the modules it imports but does not need, and
    what it takes from each."""
    return {
        "whoosh.compat": {
            "urllib.request": {"urlretrieve": _forward("urllib.request", "urlretrieve")},
            "html": {"escape": _forward("html", "escape")}},
        "whoosh.reading": {
            "cached_property": {"cached_property": functools.cached_property}},
        "whoosh.util.times": {
            "calendar": {"monthrange": _forward("calendar", "monthrange")}},
        "whoosh.query.terms": {
            "whoosh.lang.morph_en": {"variations": _forward("whoosh.lang.morph_en",
                                                            "variations")}},
    }


class _LoaderWithStandIns:
    """A module's own loader, executing it while stand-ins are in `sys.modules`."""

    def __init__(self, loader, modules: dict[str, dict[str, object]]) -> None:
        self._loader = loader
        self._modules = modules

    def create_module(self, spec: ModuleSpec) -> types.ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        placed: dict[str, types.ModuleType] = {}
        for name, attributes in self._modules.items():
            if name not in sys.modules:
                stand_in = types.ModuleType(name, "A stand-in while Whoosh is imported.")
                stand_in.__dict__.update(attributes)
                sys.modules[name] = placed[name] = stand_in
        try:
            self._loader.exec_module(module)
        finally:
            for name, stand_in in placed.items():
                if sys.modules.get(name) is stand_in:
                    del sys.modules[name]

    def __getattr__(self, name: str) -> object:
        # Everything else (get_source, is_package, ...) is the real loader's.
        return getattr(self._loader, name)


class _StandInFinder:
    """Finds the Whoosh modules concerned as the path finder does, with their loader
    wrapped; it leaves `sys.meta_path` once they are all imported."""

    def __init__(self) -> None:
        self._pending = stand_ins()

    def find_spec(self, name: str, path, target=None) -> ModuleSpec | None:
        modules = self._pending.pop(name, None)
        if modules is None:
            return None
        if not self._pending and self in sys.meta_path:
            sys.meta_path.remove(self)
        spec = PathFinder.find_spec(name, path, target)
        if spec is not None and spec.loader is not None:
            spec.loader = _LoaderWithStandIns(spec.loader, modules)
        return spec


def install() -> None:
    """Put the finder first on `sys.meta_path`, unless it is there or Whoosh is imported."""
    if "whoosh.compat" in sys.modules or any(isinstance(f, _StandInFinder)
                                             for f in sys.meta_path):
        return
    sys.meta_path.insert(0, _StandInFinder())
