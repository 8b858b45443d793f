"""Screenshots of the reader's main states at 80×24 and 120×40.

The app comes from the CLI's factory with a fixed theme, no cursor blink, no timings,
the bundled lists and a session-scoped index folder. Review the report
(`snapshot_report.html`) before updating a snapshot with `--snapshot-update`.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from reader_helpers import settle, type_query

SIZES = [(80, 24), (120, 40)]


async def _start(pilot: Pilot) -> None:
    await settle(pilot)


async def _search(pilot: Pilot) -> None:
    await settle(pilot)
    await type_query(pilot, "tool calls")


async def _suggestion(pilot: Pilot) -> None:
    await settle(pilot)
    await type_query(pilot, "transfomer")


async def _detail(pilot: Pilot) -> None:
    await settle(pilot)
    await type_query(pilot, "tool")
    await pilot.press("enter", "g", "enter", "n")
    await settle(pilot)


async def _help(pilot: Pilot) -> None:
    await settle(pilot)
    await pilot.press("question_mark")
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("state", [_start, _search, _suggestion, _detail, _help],
                         ids=["start", "search", "suggestion", "detail", "help"])
def test_reader_looks_right(snap_compare, make_app, state, size: tuple[int, int]) -> None:
    assert snap_compare(make_app(), terminal_size=size, run_before=state)
