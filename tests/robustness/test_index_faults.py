"""Index faults: damaged, deleted or shared index folders, before and during runs.

Whatever happens to the index folder, the user gets the same results as from a sound
index (rebuilt if need be, with a one-line notice) and no process crashes. Damage to a
library that is already open is tested in a forked child, so that a crash there (even
a SIGBUS from a truncated memory-mapped file) cannot take pytest down with it.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import ROOT, SEEDS
from tests.robustness.cli import assert_contract, cli_env, index_folders, run_cli
from tui.core.index.library import open_library
from tui.core.search.search import search

QUERIES = ("gecko", "ge", "xqzzyw", "diffusion policy", "slam OR unlearning", "",
           "title:framework", "geckos")
"""A word, a short prefix (the prefix table), a word found nowhere (spelling and fuzzy
rescue, the vocabulary), two words, an operator, everything, a field, a typo."""

Answers = dict[str, list[tuple[str, float]]]


def answers(library) -> Answers:
    """Each query's hits as (paper id, rounded score), best first."""
    return {q: [(h.paper.id, round(h.score, 3)) for h in search(library, q, limit=20).hits]
            for q in QUERIES}


@pytest.fixture(scope="module")
def sound_index(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Answers]:
    """A built index root of copies of the bundled lists, and the answers it gives.

    Copies, so that a test can edit the lists; the copies live next to the index root
    and keep their paths when the test copies both (see ``copy_of``).
    """
    base = tmp_path_factory.mktemp("sound")
    shutil.copytree(SEEDS, base / "lists")
    with open_library([base / "lists"], str(base / "index")) as library:
        return base, answers(library)


def copy_of(sound: Path, tmp_path: Path) -> tuple[Path, Path]:
    """A private copy of the sound lists and index root; returns the root and ix-* folder.

    The index is keyed by the lists' content, not their path, so the copy is reused.
    """
    shutil.copytree(sound / "lists", tmp_path / "lists")
    root = tmp_path / "index"
    shutil.copytree(sound / "index", root)
    return root, index_folders(root)[0]


def lists_of(root: Path) -> Path:
    return root.parent / "lists"


def open_at(root: Path):
    return open_library([lists_of(root)], str(root))


# Damage between runs -----------------------------------------------------------------

FILES = {
    "postings": "*.pst", "posting arrays": "*.pa", "posting directory": "*.pad",
    "terms": "*.trm", "stored fields": "*._stored.col",
    "toc": "_MAIN_*.toc", "metadata": "paperscope.json", "prefix table": "prefixes.json",
    "prefix tops": "prefix-tops.json",
    "vocabulary": "words.json", "text norms": "norms-text.bin",
    "whoosh lengths": "*._text_len.col",
}


def damage(folder: Path, pattern: str, how: str) -> None:
    for path in folder.glob(pattern):
        if how == "deleted":
            path.unlink()
        else:
            os.truncate(path, 0 if how == "empty" else path.stat().st_size // 2)


def between_cases() -> list:
    """Every kind of file, emptied, cut in half or deleted.

    A truncated file is caught at open by the file sizes the build records (before,
    truncated postings or stored fields failed every run with an internal error, and a
    truncated side file degraded typing aids or ranking until a manual rebuild).
    """
    return [pytest.param(kind, how, id=f"{kind}-{how}")
            for kind in FILES for how in ("empty", "half", "deleted")]


@pytest.mark.parametrize("kind, how", between_cases())
def test_damaged_index_file_between_runs(sound_index, tmp_path: Path, kind: str, how: str) -> None:
    sound, expected = sound_index
    root, folder = copy_of(sound, tmp_path)
    damage(folder, FILES[kind], how)
    with open_at(root) as library:
        assert all("\n" not in notice for notice in library.notices)
        assert answers(library) == expected


@pytest.mark.parametrize("how", ["folder deleted", "root deleted", "folder is a file",
                                 "every file empty", "root emptied"])
def test_index_folder_gone_between_runs(sound_index, tmp_path: Path, how: str) -> None:
    sound, expected = sound_index
    root, folder = copy_of(sound, tmp_path)
    if how == "folder deleted":
        shutil.rmtree(folder)
    elif how == "root deleted":
        shutil.rmtree(root)
    elif how == "folder is a file":
        shutil.rmtree(folder)
        folder.write_text("not an index")
    elif how == "every file empty":
        damage(folder, "*", "empty")
    else:
        for child in root.iterdir():
            shutil.rmtree(child) if child.is_dir() else child.unlink()
    with open_at(root) as library:
        assert answers(library) == expected


def test_cli_after_a_truncated_postings_file(sound_index, tmp_path: Path) -> None:
    sound, _ = sound_index
    root, folder = copy_of(sound, tmp_path)
    damage(folder, FILES["postings"], "half")
    run = run_cli("search", "-", "--seeds", str(lists_of(root)), "--index-dir", str(root),
                  stdin="\n".join(QUERIES) + "\n")
    assert_contract(run, allowed=(0,))
    assert len(run.stdout.splitlines()) == len(QUERIES)


def test_cli_rebuilds_a_damaged_index_with_one_notice_then_runs_clean(sound_index,
                                                                       tmp_path: Path) -> None:
    sound, _ = sound_index
    root, folder = copy_of(sound, tmp_path)
    damage(folder, FILES["toc"], "half")
    first = run_cli("search", "gecko", "--json", "--seeds", str(lists_of(root)),
                    "--index-dir", str(root))
    assert_contract(first, allowed=(0,))
    assert len(first.stderr_lines) == 1 and "rebuilding" in first.stderr_lines[0]
    second = run_cli("search", "gecko", "--json", "--seeds", str(lists_of(root)),
                     "--index-dir", str(root))
    assert_contract(second, allowed=(0,))
    assert second.stderr_lines == [], second.describe()
    assert json.loads(second.stdout)["hits"] == json.loads(first.stdout)["hits"]
    assert len(index_folders(root)) == 1 and not list(root.glob(".tmp-*"))


# Damage while a library is open --------------------------------------------------------


def index_elsewhere(root: Path, *options: str) -> None:
    """Run `paperscope index` on the same lists and root, as another terminal would."""
    subprocess.run([sys.executable, "-m", "tui", "index", *options, "--seeds", str(lists_of(root)),
                    "--index-dir", str(root)],
                   cwd=ROOT, env=cli_env(), check=True, capture_output=True, timeout=120)


def rebuild_elsewhere(root: Path, folder: Path) -> None:
    """`paperscope index --rebuild` in another terminal: the folder is replaced in place."""
    index_elsewhere(root, "--rebuild")


def edit_and_index_elsewhere(root: Path, folder: Path) -> None:
    """A list is edited and another paperscope opens it: the old folder is removed."""
    first = sorted(lists_of(root).glob("*.txt"))[0]
    with first.open("a", encoding="utf-8") as handle:
        handle.write("\n\nWe propose Okapi, a new abstract added while the reader was open.\n")
    index_elsewhere(root)


DURING: dict[str, Callable[[Path, Path], None]] = {
    "folder deleted": lambda root, folder: shutil.rmtree(folder),
    "rebuilt by another process": rebuild_elsewhere,
    "lists edited, indexed by another process": edit_and_index_elsewhere,
    "every file truncated": lambda root, folder: damage(folder, "*", "empty"),
    # The arrays are what a search reads of the postings (see `postarrays`).
    "postings truncated": lambda root, folder: damage(folder, FILES["posting arrays"], "empty"),
    "side files deleted": lambda root, folder: damage(folder, "*.json", "deleted"),
}


def search_after(root: Path, folder: Path, harm: Callable[[Path, Path], None],
                 warm: bool) -> tuple[str, object]:
    """In a forked child: open, (warm up,) harm the index, search again; report back."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: never return into pytest
        try:
            os.close(read_fd)
            library = open_at(root)
            if warm:
                answers(library)
            harm(root, folder)
            try:
                outcome: tuple[str, object] = ("answers", (answers(library), library.notices))
            except Exception as exc:  # noqa: BLE001 - reported to the parent
                outcome = ("raised", f"{type(exc).__name__}: {exc}")
            os.write(write_fd, pickle.dumps(outcome))
        finally:
            os._exit(0)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as report:
        data = report.read()
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return "killed", signal.Signals(os.WTERMSIG(status)).name
    return pickle.loads(data)


def during_cases() -> list:
    """Each harm, to a warm library (it has already read papers, posting lists and side
    files) and to a cold one (it has only opened the index, as the reader has right
    after start-up).

    Cold libraries once failed when the folder was deleted or replaced: Whoosh opens the
    stored-fields column on the first read, which then found no file (TypeError in
    whoosh/codec/whoosh3.py). Truncated files made searches raise (struct.error, Block
    tag error) instead of reopening or rebuilding the index.
    """
    return [pytest.param(harm, warm, id=f"{harm}-{'warm' if warm else 'cold'}")
            for harm in DURING for warm in (True, False)]


@pytest.mark.parametrize("harm, warm", during_cases())
def test_searches_continue_when_the_open_index_is_harmed(sound_index, tmp_path: Path,
                                                         harm: str, warm: bool) -> None:
    sound, expected = sound_index
    root, folder = copy_of(sound, tmp_path)
    kind, result = search_after(root, folder, DURING[harm], warm)
    assert kind != "killed", f"the searching process died of {result}"
    assert kind == "answers", f"search raised {result}"
    found, notices = result
    assert all("\n" not in notice for notice in notices)
    if harm == "side files deleted":
        # Typing aids may degrade, but then the library says so (once, in one line).
        assert found == expected or notices, "answers changed without a notice"
    elif harm.startswith("lists edited"):
        assert found["gecko"] == expected["gecko"]  # the open library keeps its own lists
    elif harm in ("folder deleted", "rebuilt by another process"):
        assert found == expected  # open files outlive their names: nothing was lost
    else:
        # Truncated in place: a read that fails makes the library rebuild the index, with
        # a notice, and answer in full (a warm library may need nothing from the file).
        assert found == expected
        assert warm or any("damaged" in notice for notice in notices), notices


def batch_then_edit(root: Path, folder: Path, first_query: str) -> tuple[str, str, int]:
    """A `search -` batch answers ``first_query``; another terminal edits and indexes the
    lists; the batch goes on with three more queries."""
    proc = subprocess.Popen([sys.executable, "-m", "tui", "search", "-", "--seeds",
                             str(lists_of(root)), "--index-dir", str(root)],
                            cwd=ROOT, env=cli_env(), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        proc.stdin.write(first_query + "\n")
        proc.stdin.flush()
        assert proc.stdout.readline().startswith('{"query"')
        edit_and_index_elsewhere(root, folder)
        out, err = proc.communicate("slam\nge\ngecko\n", timeout=120)
    finally:
        proc.kill()
    return out, err, proc.returncode


def test_cli_batch_survives_an_edit_indexed_from_another_terminal(sound_index,
                                                                  tmp_path: Path) -> None:
    sound, _ = sound_index
    root, folder = copy_of(sound, tmp_path)
    out, err, code = batch_then_edit(root, folder, "gecko")
    assert code == 0 and "Traceback" not in err and err == "", err
    assert len(out.splitlines()) == 3


def test_cli_batch_survives_an_edit_before_it_showed_a_paper(sound_index, tmp_path: Path) -> None:
    """The batch's first query found nothing, so no paper had been read yet (Whoosh's
    lazily opened stored-fields column must already be open)."""
    sound, _ = sound_index
    root, folder = copy_of(sound, tmp_path)
    out, err, code = batch_then_edit(root, folder, "xqzzyw")
    assert code == 0 and "Traceback" not in err and err == "", err
    assert len(out.splitlines()) == 3
