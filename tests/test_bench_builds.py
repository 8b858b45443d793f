"""Measured builds (`bench/builds.py`): the CPU time of the process and of the
workers it waited for, which the formats row compares where the wall clock drifts, and
the plain Whoosh builds the engine benchmark times beside paperscope's."""

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


def test_plain_whoosh_builds_keep_what_their_kind_says(tmp_path) -> None:
    from pathlib import Path

    from whoosh import index

    from bench.builds import timed_plain_whoosh_build
    from tui.core.lists.paragraphs import paragraphs

    seeds = sorted((Path(__file__).resolve().parents[1] / "seeds").glob("*.txt"))
    abstracts = [a for path in seeds for a in paragraphs(path.read_text(encoding="utf-8"))[1:]]
    for kind, stored in (("merged", False), ("best", True)):
        timed = timed_plain_whoosh_build(seeds, tmp_path / kind, kind)
        count, segments = (int(x) for x in timed.output.split())
        assert count == len(abstracts)
        ix = index.open_dir(str(tmp_path / kind))
        with ix.searcher() as searcher:
            assert searcher.doc_count() == count
            kept = [fields.get("text") for fields in searcher.all_stored_fields()]
            assert segments == len(searcher.reader().leaf_readers())
        if stored:
            assert sorted(kept) == sorted(abstracts)
        else:
            assert kept == [None] * count
        if kind == "merged":
            assert segments == 1
