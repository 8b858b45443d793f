"""A process's own peak resident memory, for the benchmarks' measured child processes.

`getrusage(RUSAGE_SELF).ru_maxrss` is not that for a process that another one started:
Linux keeps the high-water mark across `exec`, and the memory it counts before `exec`
is the parent's (Python starts children with vfork, or fork, whose copy counts the
parent's pages too). A child of a benchmark that has held 800 MB reports 800 MB
however little it uses itself: the scale benchmark, having held its corpus and its
peers' indexes, measured an "open reader at 250k" of 880 MB that peaked at under
100 MB. /proc's VmHWM is the high-water mark of the memory the process has mapped
since its `exec`, its own alone.
"""

from __future__ import annotations

import resource
import sys


def peak_rss_kb() -> int:
    """This process's peak resident memory in KB, counted from its own start (VmHWM);
    where /proc is not there, `ru_maxrss`, which may include its parent's."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // 1024 if sys.platform == "darwin" else peak  # bytes there, KB here


def peak_rss_mb() -> float:
    """`peak_rss_kb` in MB."""
    return peak_rss_kb() / 1024
