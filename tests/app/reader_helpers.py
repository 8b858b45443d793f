"""Helpers for driving the reader in tests: wait until it has caught up, type a query.

Waiting is on state (the reader's `idle` and the worker manager), never a sleep.
"""

from __future__ import annotations

from textual.pilot import Pilot

from tui.app.app import PaperscopeApp
from tui.core.model import Paper


async def settle(pilot: Pilot) -> None:
    """Wait until the lists are open and the latest search is on screen."""
    app = pilot.app
    assert isinstance(app, PaperscopeApp)
    for _ in range(500):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if app.reader.idle and not app.workers:
            await pilot.pause()
            return
    raise AssertionError("the reader did not settle")


async def type_query(pilot: Pilot, text: str) -> None:
    """Focus the search box, replace its text by typing `text`, and wait for results."""
    app = pilot.app
    assert isinstance(app, PaperscopeApp)
    await pilot.press("slash")
    app.reader.search_box.value = ""
    await pilot.press(*[_key(ch) for ch in text])
    await settle(pilot)


def _key(char: str) -> str:
    return {" ": "space", "/": "slash", "?": "question_mark"}.get(char, char)


def selected(app: PaperscopeApp) -> Paper:
    """The paper under the list's cursor."""
    hit = app.reader.paper_list.current
    assert hit is not None
    return hit.paper


def detail_text(app: PaperscopeApp) -> str:
    """The detail pane's text as drawn."""
    return "\n".join(strip.text for strip in app.reader.detail._strips)


async def wait_until(pilot: Pilot, condition, what: str) -> None:
    """Let the app run until `condition()` holds (a timer is involved, not a worker)."""
    for _ in range(300):
        if condition():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"timed out waiting for {what}")
