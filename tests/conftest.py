"""Shared test set-up: isolation from the user's folders, and the --long option."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "seeds"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--long", action="store_true", default=False,
                     help="also run the long variants (soak, many kills, many key presses)")


MAX_WORKERS = 4
"""Test processes `-n auto` starts at most: the real-terminal, signal and reader tests
run beside processes of their own, and more workers than cores would load the machine
past what their waits allow for."""


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto` (pyproject.toml's addopts): a worker per core, up to MAX_WORKERS."""
    affinity = getattr(os, "sched_getaffinity", None)  # Linux: the cores this may use
    cores = len(affinity(0)) if affinity else os.cpu_count() or 1
    return max(1, min(MAX_WORKERS, cores))


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--long"):
        os.environ["PAPERSCOPE_LONG_TESTS"] = "1"


MATERIAL_FIXTURES = frozenset({"corpus_files", "corpus_library"})
"""Fixtures made of `tests.material.conference_lists`: a test using one is marked."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if MATERIAL_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.shared_material)
    if config.getoption("--long") or os.environ.get("PAPERSCOPE_LONG_TESTS"):
        return
    skip = pytest.mark.skip(reason="long variant: run with --long")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _isolated_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """Every test gets its own cache, data and config folders: never the user's."""
    home = tmp_path_factory.mktemp("home")
    for var, sub in (("XDG_CACHE_HOME", "cache"), ("XDG_DATA_HOME", "data"),
                     ("XDG_CONFIG_HOME", "config")):
        monkeypatch.setenv(var, str(home / sub))
    monkeypatch.setenv("PAPERSCOPE_DATA_DIR", str(home / "data" / "paperscope"))
    monkeypatch.delenv("PAPERSCOPE_INDEX_DIR", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    yield


@pytest.fixture(scope="session")
def bundled_library(tmp_path_factory: pytest.TempPathFactory):
    """The bundled lists, indexed once per session in a temporary folder."""
    from tui.core.index.library import open_library

    library = open_library(index_dir=str(tmp_path_factory.mktemp("bundled-index")))
    yield library
    library.close()


def write_list(folder: Path, name: str, text: str | bytes) -> Path:
    """Write a list file for a test and return its path."""
    path = folder / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path
