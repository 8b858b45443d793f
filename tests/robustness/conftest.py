"""Fixtures of the robustness suite, and a summary of the worst query latencies.

The latency summary is printed at the end of every run (no ``-s`` needed) and each
bulk-query test also stores it with ``record_property`` for JUnit reports.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from tests.material import conference_lists

CORPUS_SIZES = (200, 158, 143, 20)
"""The larger index: four conference lists, 521 papers (`tests/material.py`)."""

WORST_LATENCY: dict[str, tuple[float, str]] = {}
"""Label → (seconds, query) of the slowest query seen under that label this session."""


def note_latency(label: str, seconds: float, query: str) -> None:
    """Remember ``query`` if it is the slowest seen so far under ``label``."""
    if seconds > WORST_LATENCY.get(label, (-1.0, ""))[0]:
        WORST_LATENCY[label] = (seconds, query)


def pytest_terminal_summary(terminalreporter) -> None:  # noqa: ANN001 - pytest's own type
    if not WORST_LATENCY:
        return
    terminalreporter.section("robustness: worst query latency")
    for label, (seconds, query) in sorted(WORST_LATENCY.items()):
        shown = query if len(query) <= 160 else f"{query[:160]}… ({len(query)} chars)"
        terminalreporter.write_line(f"{label}: {seconds * 1000:.1f} ms for {shown!r}")


@pytest.fixture(scope="session")
def corpus_files() -> list[Path]:
    """Four conference lists: the corpora's, or made."""
    return conference_lists(CORPUS_SIZES)


@pytest.fixture(scope="session")
def corpus_library(corpus_files: list[Path], tmp_path_factory: pytest.TempPathFactory):
    """The library of ``corpus_files``, indexed once per session."""
    from tui.core.index.library import open_library

    library = open_library(corpus_files, str(tmp_path_factory.mktemp("corpus-index")))
    yield library
    library.close()


@pytest.fixture(scope="session")
def bundled_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An index root holding the bundled lists' index, built once for the CLI tests."""
    from tui.core.index.library import open_library

    root = tmp_path_factory.mktemp("bundled-cli-index")
    open_library(index_dir=str(root)).close()
    return root


@pytest.fixture
def ram_dir(tmp_path: Path) -> Iterator[Path]:
    """A folder on tmpfs when there is one: for tests that save state hundreds of times.

    They test crash safety and merging, not the disk; on a busy disk each fsync can take
    tens of milliseconds (the same reasoning as ``ram_path`` in tests/test_state.py).
    """
    if not os.access("/dev/shm", os.W_OK):
        yield tmp_path
        return
    with tempfile.TemporaryDirectory(dir="/dev/shm", prefix="paperscope-robust-") as folder:
        yield Path(folder)


@cache
def private_mounts_work() -> bool:
    """Whether this process may mount file systems in a private mount namespace.

    Root in a container with CAP_SYS_ADMIN can; the mounts are then invisible to every
    other process and vanish with the namespace, so nothing leaks into the machine.
    """
    if not (shutil.which("unshare") and shutil.which("mount")):
        return False
    probe = ["unshare", "--mount", "--propagation", "private", "sh", "-c",
             "d=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs \"$d\" && umount \"$d\"; "
             "s=$?; rmdir \"$d\"; exit $s"]
    try:
        return subprocess.run(probe, capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.fixture
def private_mounts() -> None:
    """Skip unless private mount namespaces work (see ``private_mounts_work``)."""
    if not private_mounts_work():
        pytest.skip("needs `unshare --mount` and mount rights (root with CAP_SYS_ADMIN)")
