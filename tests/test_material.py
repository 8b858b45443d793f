"""Where test material comes from (`tests/material.py`): made lists when the corpora are
absent, the corpora's own when present, skips that say what they need, and no test or
benchmark that finds `../shared` by itself."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench.material import ENV
from tests import material
from tests.conftest import MATERIAL_FIXTURES, ROOT
from tui.core.lists.paragraphs import paragraphs

OWNERS = {ROOT / "tests" / "material.py", ROOT / "bench" / "material.py", Path(__file__)}
_SHARED_PATH = re.compile(r"(^|[/\\])shared([/\\]|$)")
_SHARED_IN_PATH = re.compile(r"[/\\]shared([/\\]|$)|(^|[/\\])shared[/\\]")


def names_shared(source: str) -> list[int]:
    """Lines of `source` where a string (not a docstring) names the shared folder."""
    tree = ast.parse(source)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                       ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    # In an f-string, a part ending in "shared" may run on into a value ("shared{n}").
    parts = {id(value) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)
             for value in node.values}
    return sorted(node.lineno for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and id(node) not in docstrings
                  and (_SHARED_IN_PATH if id(node) in parts else _SHARED_PATH).search(node.value))


@pytest.fixture
def hidden(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """The shared folder hidden, as on a fresh clone; the helper's caches emptied."""
    monkeypatch.setenv(ENV, str(tmp_path / "absent"))
    material._corpora_sizes.cache_clear()
    yield
    material._corpora_sizes.cache_clear()


def test_the_check_finds_a_path_to_the_shared_folder() -> None:
    source = ('"""Reads ../shared/corpora, said in a docstring."""\n'
              'A = ROOT.parent / "shared" / "corpora"\n'
              'B = "../shared/names/names_dev.jsonl"\n'
              'C = "shared.jsonl"\n'
              'def f():\n    """From shared/corpora."""\n    return Path("x/shared")\n'
              'D = f"shared{n}"\nE = f"{root}/shared/corpora"\n')
    assert names_shared(source) == [2, 3, 7, 9]


@pytest.mark.parametrize("folder", ["tests", "bench"])
def test_only_the_material_modules_name_the_shared_folder(folder: str) -> None:
    found = {str(path.relative_to(ROOT)): lines
             for path in sorted((ROOT / folder).rglob("*.py")) if path not in OWNERS
             if (lines := names_shared(path.read_text(encoding="utf-8")))}
    assert found == {}, "ask tests/material.py (or bench/material.py) for shared material"


def test_what_asks_for_lists_is_marked() -> None:
    """`pytest -m shared_material` (CI's run beside the shared folder) runs each test
    that asks for lists: its module carries the mark, or (in a conftest) the fixture
    asking is one the root conftest marks its users of."""
    unmarked = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if path in OWNERS or "conference_lists(" not in source:
            continue
        if path.name != "conftest.py":
            unmarked += [] if "shared_material" in source else [str(path)]
            continue
        unmarked += [f"{path}: {node.name}" for node in ast.walk(ast.parse(source))
                     if isinstance(node, ast.FunctionDef) and "conference_lists(" in
                     ast.unparse(node) and node.name not in MATERIAL_FIXTURES]
    assert unmarked == []


def test_made_lists_have_the_sizes_asked_for_and_are_the_same_each_time(hidden) -> None:
    files = material.conference_lists((30, 7, 12), seed=5)
    assert not material.have_corpora()
    counts = [len(paragraphs(f.read_text(encoding="utf-8"))) - 1 for f in files]
    assert counts == [30, 7, 12]
    first = [f.read_text(encoding="utf-8") for f in files]
    material._made.cache_clear()
    again = [f.read_text(encoding="utf-8") for f in material.conference_lists((30, 7, 12), 5)]
    assert again == first
    assert [f.read_text(encoding="utf-8")
            for f in material.conference_lists((30, 7, 12), 6)] != first


def test_made_abstracts_are_of_the_bundled_sentences_and_do_not_repeat(hidden) -> None:
    abstracts = material.abstracts_of(material.conference_lists((200, 200)))
    assert len(set(abstracts)) == len(abstracts) == 400
    seeds = material.abstracts_of(sorted(material.SEEDS.glob("*.txt")))
    assert {w for a in abstracts for w in a.split()} <= {w for a in seeds for w in a.split()}
    assert not set(abstracts) & set(seeds)
    lengths = sorted(len(a.split()) for a in abstracts)
    assert lengths[0] > 20 and lengths[len(lengths) // 2] > 100


def test_the_corpora_give_the_lists_nearest_each_size(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    corpora = tmp_path / "shared" / "corpora"
    corpora.mkdir(parents=True)
    for name, count in (("a.txt", 5), ("b.txt", 9), ("c.txt", 20), ("d.txt", 9)):
        (corpora / name).write_text("T\n\n" + "\n\n".join(f"Paper {n}." for n in range(count)),
                                    encoding="utf-8")
    monkeypatch.setenv(ENV, str(tmp_path / "shared"))
    material._corpora_sizes.cache_clear()
    try:
        assert material.have_corpora()
        assert [p.name for p in material.conference_lists((9, 9, 4))] == ["b.txt", "d.txt", "a.txt"]
        with pytest.raises(ValueError, match="5 lists asked for, the corpora hold 4"):
            material.conference_lists((1, 2, 3, 4, 5))
    finally:
        material._corpora_sizes.cache_clear()


def test_needs_skips_saying_what_is_missing_and_marks_the_test(hidden) -> None:
    def probe() -> None: ...

    marked = material.needs("qrels", "README.md", why="reference figures")(probe)
    marks = {m.name: m for m in marked.pytestmark}
    assert set(marks) == {"skipif", "shared_material"}
    assert marks["skipif"].args == (True,)
    assert marks["skipif"].kwargs["reason"] == \
        "needs ../shared/qrels/README.md (reference figures): absent"


BENCHES = {"engine": "corpora", "grow": "corpora", "lookup": "corpora", "reader": "corpora",
           "soak": "corpora", "scale": "corpora", "names": "labelled names",
           "relevance": "collections folder"}


@pytest.mark.parametrize("bench", sorted(BENCHES))
def test_a_benchmark_without_its_material_says_so_in_one_line(bench: str,
                                                              tmp_path: Path) -> None:
    absent = tmp_path / "absent"
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / f"{bench}.py")],
                          cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, ENV: str(absent)})
    assert proc.returncode == 2
    assert proc.stdout == ""
    (line,) = proc.stderr.splitlines()
    assert re.fullmatch(rf"{bench}\.py: no {BENCHES[bench]} at {re.escape(str(absent))}/\S+ "
                        r"\(use --\w+\)", line)
