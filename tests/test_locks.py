"""One lock helper for the index build, the reading state and the note drafts."""

from __future__ import annotations

import ast
import multiprocessing
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tui.core.durable import atomic_write
from tui.core.locks import LockTimeout, exclusive_lock, held_by_another, hold_while_alive

PACKAGE = Path(__file__).resolve().parents[1] / "tui"


def _hold(path: str, held, release) -> None:
    with exclusive_lock(Path(path)):
        held.set()
        release.wait(10)


@contextmanager
def held_elsewhere(path: Path, hold: Callable[..., None]) -> Iterator[None]:
    """While inside, another process holds the lock at `path` (taken by `hold`); it
    ends on the way out."""
    ctx = multiprocessing.get_context("fork")
    held, release = ctx.Event(), ctx.Event()
    holder = ctx.Process(target=hold, args=(str(path), held, release))
    holder.start()
    try:
        assert held.wait(10)
        yield
    finally:
        release.set()
        holder.join(10)


def test_a_lock_held_elsewhere_times_out_and_is_free_once_released(tmp_path: Path) -> None:
    path = tmp_path / "x.lock"
    with held_elsewhere(path, _hold):
        started = time.monotonic()
        with pytest.raises(LockTimeout, match="busy here"):
            with exclusive_lock(path, 0.2, busy="busy here"):
                pass
        assert time.monotonic() - started >= 0.2
    with exclusive_lock(path, 1.0):  # released when the holder closed it
        pass


@pytest.mark.parametrize("durable", [True, False])
def test_an_atomic_write_replaces_the_file_and_leaves_no_temp_file(tmp_path: Path,
                                                                   durable: bool) -> None:
    target = tmp_path / "f.json"
    target.write_text("old")
    atomic_write(target, b"new", durable=durable)
    assert target.read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.json"]


def _hold_alive(path: str, held, release) -> None:
    fd = hold_while_alive(Path(path))
    held.set()
    release.wait(10)
    assert fd is not None  # closed when the process ends


def test_a_lock_held_while_alive_is_seen_by_others_until_its_process_ends(tmp_path: Path) -> None:
    path = tmp_path / "session.lock"
    assert not held_by_another(path)  # no lock file at all
    with held_elsewhere(path, _hold_alive):
        assert held_by_another(path)
        with pytest.raises(BlockingIOError):
            hold_while_alive(path)
    assert not held_by_another(path)  # it ended without unlocking: the lock went with it
    fd = hold_while_alive(path)
    assert fd is not None
    os.close(fd)


def test_only_the_lock_helper_imports_fcntl() -> None:
    """Every flock goes through `tui.core.locks`, so the locking rules live in one place."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if "fcntl" in names and path.name != "locks.py":
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert found == []
