"""Other libraries' private names only in their compat modules, and the library's
searcher and lock only in core/index; plus an import-cycle finder for `tui/`.

Both checks read the source, so they see every import: at module level, under
`TYPE_CHECKING` (a type-only import still says one module knows another) and inside
functions (imported late for speed, but a dependency all the same).
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

PACKAGE = ROOT / "tui"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))
            if "__pycache__" not in path.parts}


def _imports(path: Path, known: dict[str, Path]) -> set[str]:
    """The `tui` modules that `path` imports, anywhere in it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [f"{node.module}.{alias.name}" for alias in node.names] + [node.module]
            # `from tui.core.index import library` imports the module `library`; the
            # package itself counts only when a name is taken from its __init__.
            if all(name in known for name in names[:-1]):
                names.pop()
        else:
            continue
        found.update(name for name in names if name in known)
    return found


def import_graph() -> dict[str, set[str]]:
    """Module → the `tui` modules it imports."""
    known = _modules()
    return {name: _imports(path, known) - {name} for name, path in known.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The graph's strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for child in sorted(graph.get(node, ())):
            if child not in index:
                visit(child)
                low[node] = min(low[node], low[child])
            elif child in on_stack:
                low[node] = min(low[node], index[child])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_import_graph_sees_late_and_type_only_imports() -> None:
    graph = import_graph()
    assert "tui.core.index.library" in graph["tui.core.search.filters"]  # TYPE_CHECKING
    assert "tui.commands" in graph["tui.cli"]  # inside a function


# -- other libraries' private names ----------------------------------------------------

COMPAT_MODULES = {"tui.app.compat", "tui.core.whoosh_compat", "tui.core.python_compat"}
"""The one module per library allowed to use its private names."""


PUBLIC_UNDERSCORED = frozenset({"_exit", "_getframe", "_asdict", "_replace", "_fields", "_make"})
"""Documented public names that start with an underscore (`os._exit`, `sys._getframe`,
named tuples' methods)."""


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in PUBLIC_UNDERSCORED


def _own_names(trees: dict[str, ast.Module]) -> set[str]:
    """The private names paperscope defines itself: functions, classes, class
    attributes, module globals and attributes it sets on `self` or `cls`."""
    own: set[str] = set()
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                own.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                own.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) \
                    and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                own.add(node.attr)
            elif isinstance(node, ast.alias) and node.asname:
                own.add(node.asname)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and node.value.isidentifier():
                own.add(node.value)  # __slots__ entries, getattr names
    return {name for name in own if _private(name)}


def foreign_private_names(trees: dict[str, ast.Module]) -> list[str]:
    """Where a module outside the compat modules uses a private name it did not define:
    `x._name` of another library's object, or an import from a private module."""
    own = _own_names(trees)
    found = []
    for module, tree in sorted(trees.items()):
        if module in COMPAT_MODULES:
            continue
        for node in sorted(ast.walk(tree), key=lambda n: getattr(n, "lineno", 0)):
            if isinstance(node, ast.Attribute) and _private(node.attr) and node.attr not in own:
                found.append(f"{module}:{node.lineno} .{node.attr}")
            elif isinstance(node, ast.ImportFrom) and node.module \
                    and not node.module.startswith("tui"):
                parts = node.module.split(".") + [alias.name for alias in node.names]
                if any(_private(part) for part in parts):
                    found.append(f"{module}:{node.lineno} from {node.module} import ...")
    return found


def _trees() -> dict[str, ast.Module]:
    return {name: ast.parse(path.read_text(encoding="utf-8"))
            for name, path in _modules().items()}


def test_the_private_name_finder_finds_them() -> None:
    code = ("from textual.widgets._footer import FooterKey\n"
            "class Mine:\n"
            "    def __init__(self):\n"
            "        self._own = 1\n"
            "    def go(self, view, other):\n"
            "        view._scroll_update(1)\n"
            "        other._own = 2\n"
            "        other._set = 3\n"
            "        return self._own\n")
    found = foreign_private_names({"tui.example": ast.parse(code)})
    assert found == ["tui.example:1 from textual.widgets._footer import ...",
                     "tui.example:6 ._scroll_update", "tui.example:8 ._set"]


def test_no_private_name_of_another_library_outside_the_compat_modules() -> None:
    assert foreign_private_names(_trees()) == []


def _class_bodies(path: Path) -> dict[str, set[str]]:
    """Class name → the names its body defines (methods and class attributes)."""
    bodies: dict[str, set[str]] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef):
            names = bodies.setdefault(node.name, set())
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names.add(item.name)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    names.add(item.target.id)
                elif isinstance(item, ast.Assign):
                    names.update(t.id for t in item.targets if isinstance(t, ast.Name))
    return bodies


def private_overrides(modules: list[str]) -> list[str]:
    """Private names of another library's class that a class of `modules` redefines
    (an override of a private method is a touch of it)."""
    import importlib
    import inspect

    found = []
    for name in modules:
        if name in COMPAT_MODULES:
            continue
        module = importlib.import_module(name)
        bodies = _class_bodies(Path(inspect.getsourcefile(module) or ""))
        for cls in vars(module).values():
            if not inspect.isclass(cls) or cls.__module__ != name:
                continue
            foreign = [base for base in cls.__mro__[1:] if not base.__module__.startswith("tui")]
            for attr in sorted(bodies.get(cls.__name__, ())):
                if _private(attr) and any(attr in vars(base) for base in foreign):
                    found.append(f"{name}.{cls.__name__}.{attr}")
    return sorted(found)


def test_the_override_finder_finds_them() -> None:
    assert private_overrides(["tests.architecture_example"]) == [
        "tests.architecture_example.Reader._vformat"]


def test_no_class_overrides_a_private_name_outside_the_compat_modules() -> None:
    importable = sorted(name for name in _modules() if name != "tui.__main__")  # it runs
    assert private_overrides(importable) == []


# -- the library's lock and searcher ---------------------------------------------------

def test_only_the_index_room_touches_the_searcher_and_its_lock() -> None:
    """A search feature asks `Library` (which takes its lock itself), never its searcher."""
    found = []
    for module, tree in sorted(_trees().items()):
        if module.startswith("tui.core.index.") or module in COMPAT_MODULES:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in ("_lock", "searcher", "scorer"):
                found.append(f"{module}:{node.lineno} .{node.attr}")
    assert found == []


# -- the house's shape -------------------------------------------------------------------

def test_no_import_cycle_anywhere_in_tui() -> None:
    """Every module could be read, and changed, knowing only what it imports."""
    assert cycles(import_graph()) == []


READER_LAYERS = [
    {"tui.app.app"},
    {"tui.app.commands", "tui.app.screens.reader", "tui.app.screens.help"},
    {"tui.app.screens.opening", "tui.app.screens.panes", "tui.app.searching"},
    {"tui.app.reading"},
    {"tui.app.sharing", "tui.app.drafting", "tui.app.for_you", "tui.app.screens.note", "tui.app.screens.confirm",
     "tui.app.view", "tui.app.prepared"},
    {"tui.app.widgets"},
    {"tui.app.bindings", "tui.app.compat", "tui.app.messages", "tui.app.layout",
     "tui.app.settings", "tui.app.keymap", "tui.app.collector", "tui.app.hangup",
     "tui.app.screens", "tui.app.stylecache"},
]
"""The reader, top down: the app, its screens, what the reader screen owns (the opening,
the panes, the live search), the reading keys, what they use (and the Protocols through
which the screen's objects know it), the widgets, the leaves.
A module imports only from its own layer or below it."""


def _layer(module: str) -> int:
    for depth, members in enumerate(READER_LAYERS):
        if module in members or any(module.startswith(m + ".") for m in members):
            return depth
    raise AssertionError(f"{module} is in no layer of READER_LAYERS: place it")


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Imports in tui.app from a lower layer to a higher one (`READER_LAYERS`)."""
    return sorted(f"{module} -> {imported}" for module, imports in graph.items()
                  if module.startswith("tui.app.")
                  for imported in imports
                  if imported.startswith("tui.app.") and _layer(imported) < _layer(module))


def test_the_layer_check_finds_an_upward_import() -> None:
    graph = {"tui.app.reading": {"tui.app.widgets.detail", "tui.app.app"},
             "tui.app.widgets.detail": {"tui.app.compat"}}
    assert upward_imports(graph) == ["tui.app.reading -> tui.app.app"]


def test_the_reader_s_arrows_run_downward() -> None:
    """app → screen → reading → widgets: the app calls the screen, the screen its
    objects; what goes back up goes by message (or by a callback it was handed)."""
    assert upward_imports(import_graph()) == []


MAX_LINES = 400


def test_no_module_over_400_lines() -> None:
    long = {name: lines for name, path in _modules().items()
            if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_no_type_ignore_in_the_reader_s_screens_and_reading() -> None:
    """Where a `type: ignore` stood, a module reached into one it did not know."""
    reader = [name for name in _modules()
              if name.startswith("tui.app.screens.") or name in (
                  "tui.app.reading", "tui.app.searching", "tui.app.sharing",
                  "tui.app.commands", "tui.app.drafting")]
    assert len(reader) >= 9
    found = [f"{name}:{number}" for name in reader
             for number, line in enumerate(
                 _modules()[name].read_text(encoding="utf-8").splitlines(), 1)
             if "type: ignore" in line]
    assert found == []
