"""The reader's garbage-collection policy: full collections wait for idle moments."""

from __future__ import annotations

import gc

import pytest

from reader_helpers import settle
from tui.app.collector import IdleCollector


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def make_middle_collections(count: int) -> None:
    for _ in range(count):
        gc.collect(1)


@pytest.fixture
def collector():
    saved = gc.get_threshold()
    clock = Clock()
    idle = IdleCollector(clock)
    idle.start()
    yield idle, clock
    idle.stop()
    assert gc.get_threshold() == saved, "stop gives full collections back to Python"


def test_python_runs_no_full_collection_on_its_own(collector) -> None:
    idle, _ = collector
    assert gc.get_threshold()[2] > 1_000_000
    assert gc.get_freeze_count() > 0  # start-up's objects are out of the walks


def test_a_due_collection_waits_for_input_to_stop(collector) -> None:
    idle, clock = collector
    make_middle_collections(IdleCollector.DUE_AFTER)
    idle.input()
    clock.now += IdleCollector.IDLE_AFTER / 2
    assert not idle.tick(), "typing: not now"
    clock.now += IdleCollector.IDLE_AFTER
    assert idle.tick(), "idle and due: now"
    assert idle.full_collections == 1
    assert not idle.tick(), "nothing due right after a full collection"


def test_no_collection_when_none_is_due(collector) -> None:
    idle, clock = collector
    clock.now += 3600
    make_middle_collections(IdleCollector.DUE_AFTER - 1)
    assert not idle.tick()


def test_non_stop_typing_still_collects_in_the_end(collector) -> None:
    idle, clock = collector
    make_middle_collections(IdleCollector.DUE_AFTER)
    elapsed = 0.0
    while not idle.tick():
        clock.now += 0.1
        elapsed += 0.1
        idle.input()
        assert elapsed <= IdleCollector.LONGEST_WAIT + 1, "garbage would pile up"
    assert elapsed >= IdleCollector.LONGEST_WAIT - 1


def test_stop_unfreezes_and_is_safe_twice() -> None:
    idle = IdleCollector()
    idle.start()
    idle.stop()
    idle.stop()
    assert gc.get_freeze_count() == 0
    assert not idle.tick()


async def test_the_reader_collects_while_idle_and_gives_the_collector_back(make_app) -> None:
    saved = gc.get_threshold()
    app = make_app()
    async with app.run_test() as pilot:
        await settle(pilot)
        for _ in range(20):
            if app.collector.running:
                break
            await pilot.pause()
        assert app.collector.running
        assert gc.get_threshold()[2] > 1_000_000
        await pilot.press("j")
        make_middle_collections(IdleCollector.DUE_AFTER)
        app.collector._last_input -= IdleCollector.IDLE_AFTER  # as if a second went by
        for _ in range(100):
            if app.collector.full_collections:
                break
            await pilot.pause(0.05)
        assert app.collector.full_collections == 1
    assert gc.get_threshold() == saved
    assert gc.get_freeze_count() == 0
