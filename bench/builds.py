"""Timing fresh processes: an index build, with the peak memory of all its processes,
and a cold `paperscope search` next to a bare `python -c pass`.

A build's memory is that of its process and of the worker processes it starts, so it is
measured two ways, both printed by the benchmarks that build:

- the resident memory of the whole process tree, summed, sampled every 50 ms from
  /proc (what the machine had to hold at once; a peak between two samples is missed);
- the largest single process's peak, from /proc for the build process itself (see
  `rss`) and `getrusage` for its waited-for children (exact, but one process only).
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_RUSAGE = ("import resource as _r; from bench.rss import peak_rss_kb as _p; "
           "print('MAXRSS', _p(), _r.getrusage(_r.RUSAGE_CHILDREN).ru_maxrss)")
"""Appended to the measured code: its own peak (`rss`: not the benchmark's, which
`ru_maxrss` would include) and its children's (KB on Linux). The children are the
build's forked workers: what they count of the build's pages is theirs too."""


@dataclass(frozen=True)
class Timed:
    """One measured process: wall seconds, what it printed, peak memory in KB."""

    seconds: float
    output: str
    tree_peak_kb: int
    """The whole process tree's resident memory, summed, at its sampled peak; never less
    than `largest_kb` (the tree held at least that much then, even between samples)."""
    largest_kb: int
    """The largest single process's peak resident memory: its own, counted from its start
    (see `rss`)."""
    cpu_s: float = 0.0
    """CPU seconds (user and system) of the process and the workers it waited for. On a
    machine whose speed drifts from one minute to the next, a steadier measure of the
    work done than the wall clock."""


def tree_rss_kb(root: int) -> int:
    """The resident memory of process `root` and all its descendants, in KB."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as handle:
                    ppid = int(handle.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        try:
            with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as handle:
                total += next((int(line.split()[1]) for line in handle
                               if line.startswith("VmRSS:")), 0)
        except OSError:
            continue
    return total


def timed_process(code: str, *args: str) -> Timed:
    """Run Python `code` with `args` (sys.argv[1:]) in a fresh process from the checkout,
    sampling its process tree's memory every 50 ms; exits the bench if it fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code + "\n" + _RUSAGE, *args], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True)
    peak = 0
    while proc.poll() is None:
        peak = max(peak, tree_rss_kb(proc.pid))
        time.sleep(0.05)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    out = proc.stdout.read() if proc.stdout else ""
    if proc.returncode:
        sys.exit(f"bench: a measured process failed ({proc.returncode}): {code.splitlines()[0]}")
    lines = out.splitlines()
    own, children = (int(x) for x in lines[-1].split()[1:])
    largest = max(own, children)
    return Timed(elapsed, "\n".join(lines[:-1]), max(peak, largest), largest, cpu)


def timed_build(lists: list[Path], index_dir: Path) -> tuple[float, int, int, float]:
    """Build the index of `lists` with paperscope's own builder in a fresh process:
    (seconds, papers, peak KB of the build's processes, summed, CPU seconds)."""
    timed = timed_paperscope_build(lists, index_dir)
    return timed.seconds, int(timed.output.split()[-1]), timed.tree_peak_kb, timed.cpu_s


def timed_paperscope_build(lists: list[Path], index_dir: Path) -> Timed:
    """Build the index of `lists` from scratch, as `paperscope index --rebuild` does, in
    a fresh process; it prints the paper count."""
    code = ("import sys; from tui.core.index.library import open_library; "
            "lib = open_library(sys.argv[2:], sys.argv[1], rebuild=True); print(len(lib)); "
            "lib.close()")
    return timed_process(code, str(index_dir), *map(str, lists))


PLAIN_WHOOSH_BUILD = """
import sys
from pathlib import Path
from whoosh import fields, index
from whoosh.analysis import StemmingAnalyzer
from tui.core.lists.paragraphs import paragraphs

stored, multisegment = sys.argv[2] == "stored", sys.argv[3] == "multisegment"
schema = fields.Schema(text=fields.TEXT(analyzer=StemmingAnalyzer(), stored=stored))
ix = index.create_in(sys.argv[1], schema)
writer = ix.writer(procs=2, limitmb=256, multisegment=multisegment)
count = 0
for path in sys.argv[4:]:
    for abstract in paragraphs(Path(path).read_text(encoding="utf-8"))[1:]:
        writer.add_document(text=abstract)
        count += 1
writer.commit()
with ix.reader() as reader:
    print(count, len(reader.leaf_readers()))
"""
"""Plain Whoosh: one stemmed text field, two writer processes, the abstracts as read;
argv: index folder, stored|unstored, multisegment|merged, list files."""

PLAIN_WHOOSH_KINDS = {
    "merged": ("unstored", "merged"),
    "best": ("stored", "multisegment"),
}
"""The plain Whoosh builds the benchmarks time. `merged`: the abstract not stored, the
two writers' segments merged into one at commit. `best`: Whoosh at its fastest for a
build that keeps what paperscope keeps: the abstract stored, each writer process's
segment kept as it is (`multisegment=True`, no merge at commit)."""


def timed_plain_whoosh_build(lists: list[Path], index_dir: Path, kind: str = "merged") -> Timed:
    """Build a plain Whoosh index (`PLAIN_WHOOSH_BUILD`, one of `PLAIN_WHOOSH_KINDS`) of
    `lists` in a fresh process; it prints the paper count and its segments."""
    shutil.rmtree(index_dir, ignore_errors=True)
    index_dir.mkdir(parents=True)
    return timed_process(PLAIN_WHOOSH_BUILD, str(index_dir), *PLAIN_WHOOSH_KINDS[kind],
                         *map(str, lists))


def folder_bytes(folder: Path) -> int:
    """The size on disk of the files under `folder`."""
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def cold_searches(seeds: list[str], index_dir: Path, runs: int, query: str = "kernel",
                  cached: bool = True) -> tuple[list[float], list[float]]:
    """(ms of a cold `paperscope search QUERY`, ms of a bare `python -c pass`), `runs`
    each, alternately so that load drifts hit both alike; the index is built first.

    `cached`: both run as installed, with Python's bytecode cache on (where the
    environment turns it off, paperscope's own modules would be compiled at every
    start, which no installed copy does), kept beside the index; otherwise with the
    environment as it is.
    """
    env = dict(os.environ)
    if cached:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(index_dir.parent / "pycache")
    search = [sys.executable, "-m", "tui", "search", "--seeds", *seeds,
              "--index-dir", str(index_dir), "--limit", "10", query]
    bare = [sys.executable, "-c", "pass"]
    cold: list[float] = []
    plain: list[float] = []
    for _ in range(2):  # build the index if needed, and fill the caches
        subprocess.run(search, cwd=ROOT, env=env, capture_output=True, check=False)
    for _ in range(runs):
        for command, times in ((search, cold), (bare, plain)):
            started = time.perf_counter()
            subprocess.run(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=False)
            times.append((time.perf_counter() - started) * 1000)
    return cold, plain
