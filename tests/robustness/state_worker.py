"""A separate paperscope process that changes reading state, for the state-fault tests.

Run as ``python -m tests.robustness.state_worker SPEC_JSON``. It applies the changes of
``changes(seed, ids, fields)`` one by one through the public StateStore API, saving after
each one as the reader's autosave does, and prints the number of each change once its
save has succeeded (``save()`` returned None), so that the test knows exactly what was
saved before it kills the process.

The same generator runs in the test, which replays the changes on a model to know what
the file must hold.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tui.core.state import StateStore

Change = tuple[str, str, object]
"""(kind, paper id, value): kind is star (toggle), read (set), note (set; "" removes)."""

NOTES = ["a short note", "نقطة مهمة \u202eRTL\u202c", "emoji 👩‍👩‍👧‍👦 and ✓", "line\nbreaks\r\nkept",
         'quotes " and \\ backslashes \\u0000 {}', "中文笔记", "x" * 2000, "\x00 nul \x1b[31m",
         "   ", "tab\tseparated\tvalues", "combining e\u0301 a\u0308"]


def changes(seed: str, ids: list[str], fields: list[str]) -> Iterator[Change]:
    """An endless, reproducible stream of changes to ``fields`` of ``ids``."""
    rng = random.Random(seed)
    while True:
        kind = rng.choice(fields)
        paper_id = rng.choice(ids)
        if kind == "star":
            yield ("star", paper_id, None)
        elif kind == "read":
            yield ("read", paper_id, rng.random() < 0.6)
        else:
            yield ("note", paper_id, rng.choice(NOTES + [""]) + f" #{rng.randrange(10**6)}"
                   if rng.random() < 0.8 else "")


def apply(store: StateStore, change: Change) -> None:
    kind, paper_id, value = change
    if kind == "star":
        store.toggle_star(paper_id)
    elif kind == "read":
        store.set_read(paper_id, bool(value))
    else:
        store.set_note(paper_id, str(value))


@dataclass
class Model:
    """What the state must hold: the same changes applied to plain sets and a dict."""

    stars: set[str] = field(default_factory=set)
    reads: set[str] = field(default_factory=set)
    notes: dict[str, str] = field(default_factory=dict)

    def apply(self, change: Change) -> None:
        kind, paper_id, value = change
        if kind == "star":
            self.stars ^= {paper_id}
        elif kind == "read":
            (self.reads.add if value else self.reads.discard)(paper_id)
        elif str(value).strip():
            self.notes[paper_id] = str(value)
        else:
            self.notes.pop(paper_id, None)

    def copy(self) -> "Model":
        return Model(set(self.stars), set(self.reads), dict(self.notes))

    def restricted(self, ids: set[str], fields: set[str]) -> "Model":
        """Only ``fields`` of ``ids``: one writer's share of a shared file."""
        return Model(self.stars & ids if "star" in fields else set(),
                     self.reads & ids if "read" in fields else set(),
                     {k: v for k, v in self.notes.items() if k in ids} if "note" in fields else {})

    @classmethod
    def of(cls, store: StateStore) -> "Model":
        return cls(store.starred_ids(), store.read_ids(),
                   {pid: store.note(pid) for pid in store.noted_ids()})


def main(spec: dict) -> int:
    """Apply ``spec["count"]`` changes (forever when None), acknowledging each save."""
    # autosave=False and an explicit save per change: what autosave does, plus its result.
    store = StateStore(Path(spec["path"]), autosave=False,
                       lock_timeout=spec.get("lock_timeout", 5.0))
    stream = changes(spec["seed"], spec["ids"], spec["fields"])
    n = 0
    while spec.get("count") is None or n < spec["count"]:
        apply(store, next(stream))
        if store.save() is None:
            sys.stdout.write(f"{n}\n")
            sys.stdout.flush()
        n += 1
        time.sleep(spec.get("pause", 0.0))  # a user's pace, so other writers get between
    # A save that failed (a lock held too long) is retried; the changes are still pending.
    for _ in range(20):
        if store.save() is None:
            return 0
    return 3


if __name__ == "__main__":
    sys.exit(main(json.loads(sys.argv[1])))
