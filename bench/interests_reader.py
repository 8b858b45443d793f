"""The reader's for-you order against the keystroke budget, for `bench/interests.py`.

On the made libraries the interests bench times its re-ranks on (`lists-N`, `index-N`
in its work folder), as `bench/scale.py` judges the reader's list actions:

- the budget is 1.5× the reader's keystroke p95 (key → frame with the repainted list,
  `bench/reader_probe.py`'s queries typed a character at a time) at the smallest size,
  the median of `runs` fresh readers' p95s, since one reader's p95 moves by half
  between quiet runs;
- at each size, `bench/reader_actions.py`'s rounds in a fresh reader: `F` (the list in
  for-you order), `s` (a star more, the re-rank), `F` back, on every paper and on a
  query; and sort, filter and similar beside them, the same way.

Each action kind's p95 and median per size, and whether the for-you p95 is within the
budget, as printed lines.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from pathlib import Path

from bench import reader_actions, reader_probe
from bench.engine import percentile

BUDGET_TIMES = 1.5
"""The budget: this many times the keystroke p95 at the base size (`bench/scale.py`'s)."""


def keystroke_budget(workdir: Path, base: int, runs: int) -> tuple[float, list[float]]:
    """(the budget in ms, each run's keystroke p95) at `base` papers."""
    p95s = []
    for _ in range(runs):
        to_frame, _, _ = reader_probe.keystrokes_in_child(
            str(workdir / f"lists-{base}"), str(workdir / f"index-{base}"),
            reader_probe.QUERIES)
        p95s.append(percentile(to_frame, 0.95))
    return BUDGET_TIMES * statistics.median(p95s), p95s


def reader_lines(workdir: Path, sizes: Sequence[int], rounds: int, runs: int) -> list[str]:
    """The printed lines: the budget, each kind's figures per size, the goal per size."""
    base = min(sizes)
    budget, p95s = keystroke_budget(workdir, base, runs)
    lines = [f"reader keystroke p95 at {base:,} ({runs} readers): "
             + ", ".join(f"{p:.1f}" for p in p95s)
             + f" ms; budget {BUDGET_TIMES}× their median = {budget:.1f} ms"]
    goals = []
    for size in sizes:
        figures, late = reader_actions.actions_in_child(
            str(workdir / f"lists-{size}"), str(workdir / f"index-{size}"), rounds)
        for kind in reader_actions.KINDS:
            ms = [v for name, values in figures.items()
                  if reader_actions.kind_of(name) == kind for v in values]
            missed = [name for name in late if reader_actions.kind_of(name) == kind]
            if not ms:
                lines.append(f"reader {kind} at {size:,}: every press timed out")
                goals += [f"- reader for-you at {size:,}: timed out: not met"] * (
                    kind == "for you")
                continue
            p95 = percentile(ms, 0.95)
            lines.append(f"reader {kind} at {size:,}: p95 {p95:.1f} ms, median "
                         f"{statistics.median(ms):.1f} ms ({len(ms)} presses"
                         + (f", {len(missed)} timed out" if missed else "") + ")")
            if kind == "for you":
                met = p95 <= budget and not missed
                goals.append(f"- reader for-you p95 at {size:,} within the keystroke budget "
                             f"({budget:.1f} ms): {p95:.1f} ms: {'met' if met else 'not met'}")
    return [*lines, *goals]
