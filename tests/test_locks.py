"""One lock helper for the index build and the reading state."""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path

import pytest

from tui.core.durable import atomic_write
from tui.core.locks import LockTimeout, exclusive_lock


def _hold(path: str, held, release) -> None:
    with exclusive_lock(Path(path)):
        held.set()
        release.wait(10)


def test_a_lock_held_elsewhere_times_out_and_is_free_once_released(tmp_path: Path) -> None:
    path = tmp_path / "x.lock"
    ctx = multiprocessing.get_context("fork")
    held, release = ctx.Event(), ctx.Event()
    holder = ctx.Process(target=_hold, args=(str(path), held, release))
    holder.start()
    try:
        assert held.wait(10)
        started = time.monotonic()
        with pytest.raises(LockTimeout, match="busy here"):
            with exclusive_lock(path, 0.2, busy="busy here"):
                pass
        assert time.monotonic() - started >= 0.2
    finally:
        release.set()
        holder.join(10)
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
