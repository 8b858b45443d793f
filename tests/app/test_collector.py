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
    before = idle.full_collections
    survivor = [object()]  # made since the last collection, still in use
    frozen = gc.get_freeze_count()
    assert idle.tick(), "idle and due: now"
    assert idle.full_collections == before + 1
    assert gc.get_freeze_count() > frozen, "survivors are frozen: the next walk is short"
    assert survivor
    assert not idle.tick(), "nothing due right after a full collection"


def test_no_collection_when_none_is_due(collector) -> None:
    idle, clock = collector
    clock.now += IdleCollector.DEEP_EVERY / 2
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


def test_deep_collections_unfreeze_when_idle_and_in_the_end_anyway(collector) -> None:
    idle, clock = collector
    clock.now += IdleCollector.DEEP_EVERY
    idle.input()
    assert not idle.tick(), "not while typing"
    clock.now += IdleCollector.IDLE_AFTER
    cycle: list[object] = []
    cycle.append(cycle)
    gc.freeze()  # garbage among frozen objects: only a deep collection finds it
    del cycle
    frozen = gc.get_freeze_count()
    assert idle.tick()
    assert idle.deep_collections == 1
    assert gc.get_freeze_count() < frozen, "the frozen cycle was reclaimed"
    idle.input()
    assert not idle.tick(), "nothing due while typing"
    kept = [[] for _ in range(3 * gc.get_freeze_count())]  # frozen objects grow 4×
    gc.freeze()
    assert idle.tick(), "non-stop use still gets a deep collection in the end"
    assert idle.deep_collections == 2
    assert kept


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
        started = app.collector.full_collections
        make_middle_collections(IdleCollector.DUE_AFTER)
        app.collector._last_input -= IdleCollector.IDLE_AFTER  # as if a second went by
        for _ in range(100):
            if app.collector.full_collections > started:
                break
            await pilot.pause(0.05)
        assert app.collector.full_collections == started + 1
    assert gc.get_threshold() == saved
    assert gc.get_freeze_count() == 0


def test_hold_defers_full_collections_until_start() -> None:
    saved = gc.get_threshold()
    idle = IdleCollector()
    idle.hold()
    try:
        assert gc.get_threshold()[2] > 1_000_000 and not idle.running
        assert gc.get_freeze_count() == 0 and idle.full_collections == 0
        idle.start()
        assert idle.running and idle.full_collections == 1
        assert gc.get_freeze_count() > 0
    finally:
        idle.stop()
    assert gc.get_threshold() == saved and gc.get_freeze_count() == 0
    idle.hold()
    idle.stop()  # held, never started: given back all the same
    assert gc.get_threshold() == saved


async def test_the_reader_runs_no_full_collection_while_it_starts(make_app) -> None:
    full = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            full.append(app.collector.running)

    app = make_app()
    gc.callbacks.append(seen)
    try:
        async with app.run_test() as pilot:
            # What start-up makes: many long-lived objects, many young collections.
            # Python's own policy would now run a full collection at the next young one.
            kept = [[] for _ in range(len(gc.get_objects(generation=2)) // 2)]
            make_middle_collections(3 * IdleCollector.DUE_AFTER)
            more = [[] for _ in range(10 * gc.get_threshold()[0])]
            await settle(pilot)
            for _ in range(20):
                if app.collector.running:
                    break
                await pilot.pause()
    finally:
        gc.callbacks.remove(seen)
    assert full and all(full), "the first full collection is the collector's own"
    assert kept and more


def test_a_deep_collection_comes_after_a_bounded_growth_of_frozen_objects(collector) -> None:
    idle, clock = collector
    idle.DEEP_GROWTH_MAX = 2_000  # far below the 3× of what start froze
    idle.input()  # typing non-stop: only growth can call for a deep collection
    few = [[] for _ in range(1_000)]
    gc.freeze()
    assert not idle.tick(), "grown by less than the bound"
    more = [[] for _ in range(1_500)]
    gc.freeze()
    assert idle.tick() and idle.deep_collections == 1, "grown past the bound"
    assert few and more
