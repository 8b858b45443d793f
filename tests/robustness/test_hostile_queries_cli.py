"""Hostile queries through the command line: `search -` batches and argv.

The batch test times each answer as it streams out of one long-running process, so the
worst CLI latency is recorded next to the in-process ones.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.robustness.cli import CLI_TIMEOUT_S, assert_contract, cli_env, run_cli
from tests.robustness.conftest import note_latency
from tests.robustness.query_generator import QueryGenerator
from tui.core.index.library import open_library

BATCH, BATCH_LONG = 200, 3000
BATCH_BOUND_S = 5.0
"""One answer in a batch: the in-process bound plus JSON and snippet work, with margin."""


def batch_queries(index: Path, count: int, seed: int) -> list[str]:
    """Generated queries that fit on one stdin line each (no surrogates: stdin is bytes)."""
    with open_library(index_dir=str(index)) as library:
        generator = QueryGenerator(library.vocabulary, seed, surrogates=False)
        return [generator.draw() for _ in range(count)]


def stream_batch(index: Path, queries: list[str]) -> tuple[list[tuple[float, str]], str, int]:
    """Run `search -` on ``queries``; return (seconds, line) per output line, stderr, code."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tui", "search", "-", "--limit", "5", "--index-dir", str(index)],
        cwd=ROOT, env=cli_env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE)
    timer = threading.Timer(CLI_TIMEOUT_S * 5, proc.kill)  # a hang ends as a failure
    timer.start()
    payload = "".join(q + "\n" for q in queries).encode("utf-8")
    writer = threading.Thread(target=lambda: (proc.stdin.write(payload), proc.stdin.close()))
    errors: list[bytes] = []
    reader = threading.Thread(target=lambda: errors.append(proc.stderr.read()))
    writer.start()
    reader.start()
    lines, last = [], time.perf_counter()
    try:
        for raw in proc.stdout:
            now = time.perf_counter()
            lines.append((now - last, raw.decode("utf-8")))
            last = now
        code = proc.wait()
    finally:
        timer.cancel()
        writer.join()
        reader.join()
    return lines, b"".join(errors).decode("utf-8", "replace"), code


def check_batch(index: Path, count: int, seed: int, label: str, record_property) -> None:
    queries = batch_queries(index, count, seed)
    lines, stderr, code = stream_batch(index, queries)
    assert code in (0, 1), f"exit {code}: {stderr[-2000:]}"
    assert "Traceback" not in stderr and stderr.strip() == "", stderr[-2000:]
    assert len(lines) == len(queries), f"{len(lines)} answers to {len(queries)} queries"
    worst = (0.0, "")
    for (seconds, line), query in zip(lines, queries):
        answer = json.loads(line)
        assert answer["query"] == query
        assert isinstance(answer["hits"], list) and len(answer["hits"]) <= 5
        note_latency(label, seconds, query)
        worst = max(worst, (seconds, query))
    record_property(f"worst_latency_ms[{label}]", round(worst[0] * 1000, 1))
    record_property(f"worst_query[{label}]", worst[1][:500])
    print(f"{label}: {len(queries)} queries, worst {worst[0] * 1000:.1f} ms for {worst[1][:200]!r}")
    assert worst[0] < BATCH_BOUND_S, f"{worst[0]:.1f} s for {worst[1][:300]!r}"


def test_batch_of_hostile_queries(bundled_index: Path, record_property) -> None:
    check_batch(bundled_index, BATCH, 3, "cli-batch/bundled", record_property)


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_batch_of_hostile_queries_long(bundled_index: Path, record_property) -> None:
    check_batch(bundled_index, BATCH_LONG, 13, "cli-batch-long/bundled", record_property)


@pytest.mark.parametrize("args", [
    ["--", "-gecko"], ["--", "--"], ["ANDNOT", "ANDNOT"], ["a" * 100_000], ["\t"], [""],
    ["is:starred"], ["has:note", "is:unread"], ["title:", "name:", "id:"], ['"', "(", ")"],
], ids=["dash-word", "dash-dash", "operator", "100k-chars", "tab", "empty", "is-starred",
        "state-filters", "bare-fields", "unbalanced"])
def test_argv_queries_answer_or_refuse_in_one_line(bundled_index: Path, args: list[str]) -> None:
    run = run_cli("search", *args, "--index-dir", str(bundled_index))
    assert_contract(run)


@pytest.mark.parametrize("args", [["search", "-gecko"], ["search", "--limit", "0", "x"],
                                  ["search", "--limit", "-1", "x"], ["search", "--json", "--jsonl", "x"]])
def test_argv_mistakes_are_usage_errors(bundled_index: Path, args: list[str]) -> None:
    run = run_cli(*args, "--index-dir", str(bundled_index))
    assert_contract(run, allowed=(2,))


# Undecodable input: argv bytes become lone surrogates; stdin bytes depend on the locale.
# Only C/POSIX locales are installed here, where Python reads stdio with surrogateescape;
# PYTHONIOENCODING=utf-8:strict gives what a user's en_US.UTF-8 terminal gives.
STRICT_UTF8 = {"PYTHONIOENCODING": "utf-8:strict"}


def test_undecodable_argv_byte_in_a_wildcard(bundled_index: Path) -> None:
    run = run_cli("search", "gra\udcffph*", "--index-dir", str(bundled_index))
    assert_contract(run, allowed=(0, 1))


def test_undecodable_argv_byte_in_plain_words(bundled_index: Path) -> None:
    run = run_cli("search", "\udcff", "gecko", "--index-dir", str(bundled_index))
    assert_contract(run, allowed=(0,))
    assert "Gecko" in run.stdout


def test_undecodable_argv_byte_with_json_output(bundled_index: Path) -> None:
    run = run_cli("search", "\udcff", "gecko", "--json", "--index-dir", str(bundled_index),
                  env=STRICT_UTF8)
    assert_contract(run, allowed=(0,))
    assert json.loads(run.stdout)["hits"]


def test_undecodable_line_in_a_batch(bundled_index: Path) -> None:
    run = run_cli("search", "-", "--index-dir", str(bundled_index),
                  stdin=b"gecko\n\xff\xfe broken\nslam\n", env=STRICT_UTF8)
    assert_contract(run, allowed=(0,))
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert [a["query"] for a in answers][::2] == ["gecko", "slam"] and len(answers) == 3


def test_undecodable_line_in_a_batch_default_locale(bundled_index: Path) -> None:
    """In the C locale too, every line is answered (the bad bytes as U+FFFD)."""
    run = run_cli("search", "-", "--index-dir", str(bundled_index),
                  stdin=b"gecko\n\xff\xfe broken\nslam\n", env={"LC_ALL": "C.UTF-8"})
    assert_contract(run, allowed=(0,))
    answers = [json.loads(line) for line in run.stdout_bytes.decode("utf-8").splitlines()]
    assert [a["query"] for a in answers] == ["gecko", "\ufffd\ufffd broken", "slam"]
