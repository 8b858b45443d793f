"""When the cyclic garbage collector walks the old objects: while nobody is typing.

Left to Python, a full collection walks every long-lived object of the reader (hundreds
of thousands: Textual, the open index, caches of papers and drawn lines) whenever
enough objects have survived young collections. In a long session that was a pause of
100 ms or more, more than once a second, in the middle of typing.

`IdleCollector` keeps Python's young collections (short, and frequent on purpose) and
runs the full ones itself:

- when one is due (as often as Python would run one) and input has stopped for a
  moment, or at the latest a few seconds later in non-stop use;
- each time freezing what survived (`gc.freeze`), so that the next full collection
  walks only what is newer;
- and now and then a deep collection that unfreezes everything first, so that
  reference cycles among once-frozen objects are reclaimed too: every few minutes when
  idle, or in non-stop use once the frozen objects have grown a few times over, or by
  150,000, whichever comes first.

From the moment the reader starts running until it takes over, it holds full
collections off (`hold`): start-up makes the objects that then live as long as the
reader, and a full collection walking them (25 ms on this machine) fell into the first
frame or delayed the first results.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

_NEVER = 1 << 30
"""A full-collection threshold that is never reached."""


class IdleCollector:
    """Full collections at idle moments, of the objects made since the last one."""

    IDLE_AFTER = 1.0
    """Seconds without input after which the reader counts as idle."""
    LONGEST_WAIT = 5.0
    """Seconds after which a due full collection runs even in the middle of typing."""
    DUE_AFTER = 10
    """Young-generation (1) collections after which a full one is due: Python's own
    threshold, so full collections run about as often as usual, only at better times."""
    DEEP_EVERY = 300.0
    """Seconds between deep collections (frozen objects included), run when idle."""
    DEEP_GROWTH = 3
    """A deep collection also runs, idle or not, once this many times as many objects
    are frozen as right after the last one: objects frozen alive may since have become
    garbage in reference cycles (Textual's drawn lines are such cycles), and only a
    deep collection reclaims them."""
    DEEP_GROWTH_MAX = 150_000
    """… or once this many more objects are frozen, whichever comes first: a deep
    collection walks every object, so with a large live set a relative bound alone let
    the garbage, and the pause that reclaims it, grow with it (up to a second)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._last_input = self._last_full = self._last_deep = clock()
        self._middle_at_last_full = 0
        self._saved_threshold: tuple[int, int, int] | None = None
        self._frozen_after_deep = 0
        self._started = False
        self.full_collections = 0
        """Full collections run so far (the one at `start` and deep ones included; for
        tests and benchmarks)."""
        self.deep_collections = 0

    @property
    def running(self) -> bool:
        return self._started

    def hold(self) -> None:
        """No full collections until `start` (or `stop`); young ones run as usual."""
        if self._saved_threshold is None:
            self._saved_threshold = gc.get_threshold()
            young, middle, _ = self._saved_threshold
            gc.set_threshold(young, middle, _NEVER)

    def start(self) -> None:
        """Take over full collections. What exists now lives as long as the reader
        (Textual, the open index, the first screens), so it is frozen at once."""
        if self._started:
            return
        self.hold()
        self._started = True
        self._collect(deep=False)
        self._last_deep = self._last_full
        self._frozen_after_deep = gc.get_freeze_count()

    def stop(self) -> None:
        """Give full collections back to Python and unfreeze (the reader has closed;
        in a test run, the next reader starts in the same process)."""
        if self._saved_threshold is None:
            return
        gc.set_threshold(*self._saved_threshold)
        self._saved_threshold = None
        self._started = False
        gc.unfreeze()

    def input(self) -> None:
        """A key, a click or a paste has arrived."""
        self._last_input = self._clock()

    def tick(self) -> bool:
        """Run the collection that is due, if the moment is right; True if one ran."""
        if not self.running:
            return False
        now = self._clock()
        idle = now - self._last_input >= self.IDLE_AFTER
        base = max(1, self._frozen_after_deep)
        grown = gc.get_freeze_count() >= min(self.DEEP_GROWTH * base, base + self.DEEP_GROWTH_MAX)
        if grown or (idle and now - self._last_deep >= self.DEEP_EVERY):
            self._collect(deep=True)
            return True
        if _middle_collections() - self._middle_at_last_full < self.DUE_AFTER:
            return False
        if not idle and now - self._last_full < self.LONGEST_WAIT:
            return False
        self._collect(deep=False)
        return True

    def _collect(self, deep: bool) -> None:
        if deep:
            gc.unfreeze()
            self.deep_collections += 1
        gc.collect()
        gc.freeze()
        self.full_collections += 1
        self._last_full = self._clock()
        if deep:
            self._last_deep = self._last_full
            self._frozen_after_deep = gc.get_freeze_count()
        self._middle_at_last_full = _middle_collections()


def _middle_collections() -> int:
    """How many times generation 1 has been collected in this process."""
    return int(gc.get_stats()[1]["collections"])
