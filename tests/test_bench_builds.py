"""A measured build's CPU time (`bench/builds.py`): the work of the process and of the
workers it waited for, which the formats row compares where the wall clock drifts."""

from __future__ import annotations

from bench.builds import timed_process

BUSY = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.4: pass\n"


def test_cpu_time_counts_the_work_and_not_the_waiting() -> None:
    busy = timed_process(BUSY + "print(1)")
    idle = timed_process("import time\ntime.sleep(0.4)\nprint(1)")
    assert busy.output == idle.output == "1"
    assert busy.cpu_s >= 0.4
    assert idle.seconds >= 0.4 and idle.cpu_s < 0.3


def test_cpu_time_counts_the_workers_the_process_waited_for() -> None:
    code = ("import subprocess, sys\n"
            f"for _ in range(2): subprocess.run([sys.executable, '-c', {BUSY!r}], check=True)\n"
            "print(2)")
    timed = timed_process(code)
    assert timed.output == "2"
    assert timed.cpu_s >= 0.8
