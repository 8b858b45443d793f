"""The index folder shared, locked away or pulled away: many processes, read-only
roots, lists edited between runs, and a folder deleted while runs go on.

Everything goes through the real command line. Read-only folders: this suite runs as
root, for whom ``chmod`` does not stop writes, so a read-only root is simulated in two
ways: a path whose parent is a regular file (always), and a real read-only bind mount in
a private mount namespace (``unshare``; skipped where not permitted). The chmod variant
runs only for other users.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.conftest import ROOT, SEEDS
from tests.robustness.cli import Run, assert_contract, cli_env, index_folders, run_cli

GECKO_ID = "b39ee4c5321a"
"""The bundled paper found by "gecko" (its id is derived from its text)."""


@pytest.fixture
def lists(tmp_path: Path) -> Path:
    """A private copy of the bundled lists, free to edit."""
    return Path(shutil.copytree(SEEDS, tmp_path / "lists"))


def spawn_search(lists: Path, root: Path, query: str = "gecko") -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "tui", "search", query, "--json", "--seeds", str(lists),
         "--index-dir", str(root)],
        cwd=ROOT, env=cli_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def finish(proc: subprocess.Popen[bytes], args: list[str]) -> Run:
    out, err = proc.communicate(timeout=180)
    return Run(args, proc.returncode, out, err)


def assert_found_gecko(run: Run) -> None:
    assert_contract(run, allowed=(0,))
    assert json.loads(run.stdout)["hits"][0]["id"] == GECKO_ID, run.describe()


def assert_tidy(root: Path, folders: int = 1) -> None:
    """One index folder per set of lists, and nothing half-built or set aside left over."""
    assert len(index_folders(root)) == folders, sorted(p.name for p in root.iterdir())
    assert not list(root.glob(".tmp-*")) and not list(root.glob(".bad-*"))


# Many processes at once -----------------------------------------------------------------


@pytest.mark.parametrize("processes", [2, 8])
def test_processes_building_the_same_index_at_once(lists: Path, tmp_path: Path,
                                                   processes: int) -> None:
    root = tmp_path / "index"
    procs = [spawn_search(lists, root) for _ in range(processes)]
    for proc in procs:
        run = finish(proc, ["search", "gecko"])
        assert_found_gecko(run)
        assert run.stderr_lines == [], run.describe()
    assert_tidy(root)


def mixed_round(lists_a: Path, lists_b: Path, root: Path, processes: int) -> None:
    procs = [spawn_search(lists_a if n % 2 else lists_b, root) for n in range(processes)]
    for proc in procs:
        assert_found_gecko(finish(proc, ["search", "gecko"]))


def test_two_sets_of_lists_sharing_one_index_root(lists: Path, tmp_path: Path) -> None:
    """Each set's build removes the other's folder (stale fingerprints); all runs work."""
    other = Path(shutil.copytree(lists, tmp_path / "other"))
    first = sorted(other.glob("*.txt"))[0]
    first.write_text(first.read_text(encoding="utf-8") + "\n\nWe propose Okapi, a late "
                     "addition to the list.\n", encoding="utf-8")
    mixed_round(lists, other, tmp_path / "index", 8)


@pytest.mark.slow
def test_two_sets_of_lists_sharing_one_index_root_long(lists: Path, tmp_path: Path) -> None:
    other = Path(shutil.copytree(lists, tmp_path / "other"))
    first = sorted(other.glob("*.txt"))[0]
    first.write_text(first.read_text(encoding="utf-8") + "\n\nWe propose Okapi.\n",
                     encoding="utf-8")
    for round_ in range(20):
        mixed_round(lists, other, tmp_path / f"index-{round_ % 2}", 8)


# Read-only roots --------------------------------------------------------------------------


def test_index_root_under_a_regular_file(lists: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where a folder should be")
    run = run_cli("search", "gecko", "--json", "--seeds", str(lists),
                  "--index-dir", str(blocker / "index"))
    assert_found_gecko(run)
    assert len(run.stderr_lines) == 1 and "memory" in run.stderr_lines[0], run.describe()
    assert blocker.read_text() == "a file where a folder should be"


def run_read_only(root: Path, *args: str) -> Run:
    """Run paperscope with ``root`` bind-mounted read-only in a private mount namespace."""
    script = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"'
    command = ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, str(root),
               sys.executable, "-m", "tui", *args, "--index-dir", str(root)]
    proc = subprocess.run(command, cwd=ROOT, env=cli_env(), capture_output=True, timeout=180)
    return Run(list(args), proc.returncode, proc.stdout, proc.stderr)


def test_read_only_root_with_a_sound_index(private_mounts: None, lists: Path,
                                           tmp_path: Path) -> None:
    root = tmp_path / "index"
    assert_found_gecko(run_cli("search", "gecko", "--json", "--seeds", str(lists),
                               "--index-dir", str(root)))
    before = sorted(p.name for p in root.rglob("*"))
    run = run_read_only(root, "search", "gecko", "--json", "--seeds", str(lists))
    assert_found_gecko(run)
    assert run.stderr_lines == [], run.describe()
    assert sorted(p.name for p in root.rglob("*")) == before


@pytest.mark.parametrize("state", ["empty", "damaged", "lists edited"])
def test_read_only_root_that_needs_a_build(private_mounts: None, lists: Path, tmp_path: Path,
                                           state: str) -> None:
    """Nothing can be written: the index is built in memory, with a one-line notice."""
    root = tmp_path / "index"
    root.mkdir()
    if state != "empty":
        assert_found_gecko(run_cli("search", "gecko", "--json", "--seeds", str(lists),
                                   "--index-dir", str(root)))
    if state == "damaged":
        for toc in root.glob("ix-*/_MAIN_*.toc"):
            toc.unlink()
    query = "gecko"
    if state == "lists edited":
        first = sorted(lists.glob("*.txt"))[0]
        first.write_text(first.read_text(encoding="utf-8") + "\n\nWe propose Okapi, added "
                         "after the index was built.\n", encoding="utf-8")
        query = "okapi"
    run = run_read_only(root, "search", query, "--json", "--seeds", str(lists))
    assert_contract(run, allowed=(0,))
    assert json.loads(run.stdout)["hits"], run.describe()
    assert run.stderr_lines and any("memory" in line for line in run.stderr_lines), run.describe()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only folders anyway")
def test_read_only_root_with_chmod(lists: Path, tmp_path: Path) -> None:
    root = tmp_path / "index"
    assert_found_gecko(run_cli("search", "gecko", "--json", "--seeds", str(lists),
                               "--index-dir", str(root)))
    root.chmod(0o500)
    try:
        run = run_cli("search", "gecko", "--json", "--seeds", str(lists), "--index-dir", str(root))
        assert_found_gecko(run)
        assert run.stderr_lines == []
    finally:
        root.chmod(0o700)


# Lists edited between runs ---------------------------------------------------------------


def test_edits_between_runs_show_up_in_the_next_run(tmp_path: Path) -> None:
    path = tmp_path / "edited.txt"
    path.write_text("Edit List\n\nWe propose Zebrafish, a stripe counter.\n\n"
                    "We study horses at length.\n", encoding="utf-8")
    root = tmp_path / "index"

    def search(query: str, allowed: tuple[int, ...] = (0, 1)) -> Run:
        run = run_cli("search", query, "--json", "--seeds", str(path), "--index-dir", str(root))
        assert_contract(run, allowed=allowed)
        return run

    def titles(query: str) -> list[str]:
        run = search(query)
        return [h["title"] for h in json.loads(run.stdout)["hits"]] if run.returncode == 0 else []

    assert titles("zebrafish")
    # Same size, same mtime: only the content (and ctime) differ.
    stat = path.stat()
    path.write_text(path.read_text(encoding="utf-8").replace("Zebrafish", "Quaggafis"),
                    encoding="utf-8")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert path.stat().st_size == stat.st_size
    assert titles("quaggafis") and not titles("zebrafish")
    # An editor's atomic save: a new file renamed over the old one.
    fresh = tmp_path / ".edited.txt.swp"
    fresh.write_text("Edit List\n\nWe propose Okapi, a forest giraffe.\n", encoding="utf-8")
    os.replace(fresh, path)
    assert titles("okapi") and not titles("quaggafis")
    # A broken save, then the fix.
    path.write_bytes(b"Edit List\n\nWe propose Okapi\x00, a forest giraffe.\n")
    broken = search("okapi", allowed=(2,))
    assert "NUL" in broken.stderr_lines[0] and "edited.txt" in broken.stderr_lines[0]
    path.write_text("Edit List\n\nWe propose Okapi, a forest giraffe.\n\nWe add Narwhal.\n",
                    encoding="utf-8")
    assert titles("narwhal") and titles("okapi")
    assert_tidy(root)
    path.unlink()
    gone = search("okapi", allowed=(2,))
    assert "no such file" in gone.stderr_lines[0]


# The folder pulled away while runs go on ----------------------------------------------------


def runs_while_harmed(lists: Path, root: Path, runs: int, truncate: bool, seed: int) -> list[Run]:
    """Batch searches run one after another while a thread deletes (or truncates) the index."""
    rng = random.Random(seed)
    stop = threading.Event()

    def harm() -> None:
        while not stop.wait(rng.uniform(0.0, 0.1)):
            if truncate and rng.random() < 0.5:
                for path in root.glob("ix-*/*"):
                    try:
                        os.truncate(path, 0)
                    except OSError:
                        pass
            else:
                shutil.rmtree(root if rng.random() < 0.5 else root / "x", ignore_errors=True)
                for folder in index_folders(root):
                    shutil.rmtree(folder, ignore_errors=True)

    harmer = threading.Thread(target=harm, daemon=True)
    harmer.start()
    try:
        return [run_cli("search", "-", "--seeds", str(lists), "--index-dir", str(root),
                        stdin="gecko\nslam\nge\nxqzzyw\n") for _ in range(runs)]
    finally:
        stop.set()
        harmer.join()


def assert_all_answered(results: list[Run]) -> None:
    for run in results:
        assert_contract(run, allowed=(0,))
        assert len(run.stdout.splitlines()) == 4, run.describe()


def test_index_deleted_again_and_again_during_runs(lists: Path, tmp_path: Path) -> None:
    assert_all_answered(runs_while_harmed(lists, tmp_path / "index", 8, truncate=False, seed=1))


@pytest.mark.slow
def test_index_truncated_and_deleted_during_runs_long(lists: Path, tmp_path: Path) -> None:
    """Files truncated while a run has the index open, between its open and its searches,
    or while it builds: the run reopens or rebuilds the index (about 1 run in 8 under this
    harm once ended with an internal error: struct.error, KeyError: 'id', Block tag error)."""
    assert_all_answered(runs_while_harmed(lists, tmp_path / "index", 60, truncate=True, seed=2))
