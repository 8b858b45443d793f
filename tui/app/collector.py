"""When the cyclic garbage collector may walk the whole heap: while nobody is typing.

Python's collector runs a full collection every so many young ones, whenever that
falls. In the reader that was a pause of 10–25 ms in the middle of a keystroke, the
slowest twentieth of them. `IdleCollector` keeps the young collections (short, and
frequent on purpose) but moves the full ones to moments without input, with an upper
bound on how long they wait, so that garbage in reference cycles cannot pile up in a
session of non-stop use.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

_NEVER = 1 << 30
"""A full-collection threshold that is never reached."""


class IdleCollector:
    """Full collections at idle moments; start-up's objects frozen out of them."""

    IDLE_AFTER = 1.0
    """Seconds without input after which the reader counts as idle."""
    LONGEST_WAIT = 30.0
    """Seconds after which a due full collection runs even in the middle of typing."""
    DUE_AFTER = 10
    """Young-generation (1) collections after which a full one is due: Python's own
    default, so a full collection runs about as often as usual, only at a better time."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._last_input = self._last_full = clock()
        self._middle_at_last_full = 0
        self._saved_threshold: tuple[int, int, int] | None = None
        self.full_collections = 0
        """Full collections run by `tick` (for tests and benchmarks)."""

    @property
    def running(self) -> bool:
        return self._saved_threshold is not None

    def start(self) -> None:
        """Take over full collections; what exists now is frozen (it lives as long as
        the reader: Textual, the open index, the first screens), so that no full
        collection walks it again."""
        if self.running:
            return
        gc.collect()
        gc.freeze()
        self._saved_threshold = gc.get_threshold()
        young, middle, _ = self._saved_threshold
        gc.set_threshold(young, middle, _NEVER)
        self._last_full = self._clock()
        self._middle_at_last_full = _middle_collections()

    def stop(self) -> None:
        """Give full collections back to Python and unfreeze (the reader has closed;
        in a test run, the next reader starts in the same process)."""
        if self._saved_threshold is None:
            return
        gc.set_threshold(*self._saved_threshold)
        self._saved_threshold = None
        gc.unfreeze()

    def input(self) -> None:
        """A key, a click or a paste has arrived."""
        self._last_input = self._clock()

    def tick(self) -> bool:
        """Run a full collection if one is due and the reader is idle, or if one has
        waited too long; True if it ran."""
        if not self.running:
            return False
        now = self._clock()
        if _middle_collections() - self._middle_at_last_full < self.DUE_AFTER:
            return False
        idle = now - self._last_input >= self.IDLE_AFTER
        if not idle and now - self._last_full < self.LONGEST_WAIT:
            return False
        gc.collect()
        self.full_collections += 1
        self._last_full = self._clock()
        self._middle_at_last_full = _middle_collections()
        return True


def _middle_collections() -> int:
    """How many times generation 1 has been collected in this process."""
    return int(gc.get_stats()[1]["collections"])
