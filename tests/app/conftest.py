"""Shared set-up for the reader's tests: one index of the bundled lists, a fixed
configuration, and a way to wait until the reader has caught up (never a sleep)."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from pathlib import Path

import pytest

from tui.app.app import PaperscopeApp, create_app

@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Run `async def` tests in a fresh event loop (no async plugin needed)."""
    if not inspect.iscoroutinefunction(pyfuncitem.obj):
        return None
    names = pyfuncitem._fixtureinfo.argnames
    asyncio.run(pyfuncitem.obj(**{name: pyfuncitem.funcargs[name] for name in names}))
    return True


TEST_OPTIONS = dict(theme="textual-dark", cursor_blink=False, show_timings=False,
                    read_after=0)
"""What makes screenshots repeatable: a fixed theme, no blinking, no timings, and no
auto-read timer (a slow machine would otherwise catch a paper marked read or not)."""


@pytest.fixture(scope="session")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    """An index folder shared by the session, so the bundled lists are indexed once."""
    return str(tmp_path_factory.mktemp("index"))


@pytest.fixture(autouse=True)
def no_user_keymap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point the keymap at an empty file, so a developer's own keymap cannot leak in."""
    keymap = tmp_path / "keymap.toml"
    keymap.write_text("", encoding="utf-8")
    monkeypatch.setenv("PAPERSCOPE_KEYMAP", str(keymap))
    return keymap


@pytest.fixture
def make_app(index_dir: str) -> Callable[..., PaperscopeApp]:
    """The CLI's factory with the test configuration; keyword arguments override it."""

    def make(seeds: list[str] | None = None, query: str = "", **options: object) -> PaperscopeApp:
        chosen = {**TEST_OPTIONS, "index_dir": index_dir, **options}
        index = chosen.pop("index_dir")
        return create_app(seeds, index, query, **chosen)  # type: ignore[arg-type]

    return make
