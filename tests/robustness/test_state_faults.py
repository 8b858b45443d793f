"""State faults: writers killed mid-save, writers racing, a full disk, hostile notes.

tests/test_state.py already kills forked writers (autosave off, explicit saves) and
checks that saved additions survive, runs two forked writers, and fakes ENOSPC in
fsync. This file goes further, through the public StateStore API only:

* the writers are separate interpreters (``state_worker``), as real paperscope
  processes are, and after every kill the file must equal *exactly* the model of the
  acknowledged changes (or that plus the one change in flight): removals and toggles
  included, not only additions;
* two writers race while a third is killed again and again mid-save;
* the disk is really full (a tiny tmpfs in a private mount namespace), for data blocks
  and for inodes, and a short write is faked where no mount is possible.
"""

from __future__ import annotations

import errno
import json
import os
import random
import select
import signal
import subprocess
import sys
import tempfile
import time
from itertools import islice
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import ROOT
from tests.robustness.cli import cli_env
from tests.robustness.state_worker import Model, changes
from tui.core.state import StateStore

KILLS, KILLS_LONG = 30, 200
IDS = [f"p{n}" for n in range(40)]
ALL_FIELDS = ["star", "read", "note"]


def spawn_worker(spec: dict) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "tests.robustness.state_worker",
                             json.dumps(spec)], cwd=ROOT, env=cli_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def wait_for_line(proc: subprocess.Popen[bytes], timeout: float) -> bytes:
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    if not ready:
        proc.kill()
        pytest.fail(f"the writer acknowledged nothing within {timeout} s: {proc.stderr.read()!r}")
    # A byte at a time from the pipe itself: a buffered readline may take the next
    # acknowledgements along, which `communicate` (reading the descriptor) then misses.
    line, fd = b"", proc.stdout.fileno()
    while not line.endswith(b"\n"):
        byte = os.read(fd, 1)
        if not byte:
            break
        line += byte
    return line


def temp_files(folder: Path) -> list[Path]:
    return sorted(folder.glob(".state.json.*.tmp"))


def kill_rounds(path: Path, rounds: int, seed: int, ids: list[str],
                fields: list[str]) -> tuple[Model, int]:
    """Kill a writer ``rounds`` times; after each kill the file must match the model.

    Returns the final model and how many kills left a temp file (landed mid-write).
    """
    rng = random.Random(seed)
    model = Model.of(StateStore(path, autosave=False))
    mid_write = 0
    for round_ in range(rounds):
        spec = {"path": str(path), "seed": f"{seed}-{round_}", "ids": ids, "fields": fields}
        proc = spawn_worker(spec)
        first = wait_for_line(proc, 60)
        # Kill at a random moment: most land inside a save, as the file is large.
        time.sleep(rng.uniform(0, 0.04))
        proc.send_signal(signal.SIGKILL)
        rest, errors = proc.communicate(timeout=60)
        assert proc.returncode == -signal.SIGKILL, errors
        mid_write += bool(temp_files(path.parent))
        acked = [int(line) for line in (first + rest).split()]
        assert acked == list(range(len(acked))), "saves were acknowledged out of order"
        stream = list(islice(changes(spec["seed"], ids, fields), len(acked) + 1))
        saved = model.copy()
        for change in stream[:-1]:
            saved.apply(change)
        in_flight = saved.copy()
        in_flight.apply(stream[-1])
        loaded = StateStore(path, autosave=False)
        assert loaded.notices == [], loaded.notices
        found = Model.of(loaded)
        assert found in (saved, in_flight), (
            f"round {round_}: {len(acked)} saves acknowledged, the file holds neither them "
            f"nor them plus the change in flight")
        model = found
    return model, mid_write


def with_background(path: Path, notes: int = 600) -> None:
    """A state file big enough that a save takes a while (so kills land mid-save)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    store = StateStore(path, autosave=False)
    for n in range(notes):
        store.set_note(f"background-{n}", f"background note number {n} " * 4)
    assert store.save() is None


def check_kills(ram_dir: Path, rounds: int, seed: int, record_property) -> int:
    path = ram_dir / "state" / "state.json"
    with_background(path)
    _, mid_write = kill_rounds(path, rounds, seed, IDS, ALL_FIELDS)
    after = StateStore(path)
    after.toggle_star("after-the-kills")
    assert after.notices == [] and temp_files(path.parent) == []
    assert len([p for p in after.noted_ids() if p.startswith("background-")]) == 600
    record_property("kills_mid_write", f"{mid_write} of {rounds}")
    print(f"{mid_write} of {rounds} kills left a temp file (landed mid-write)")
    return mid_write


def test_killed_writers_lose_nothing_acknowledged(ram_dir: Path, record_property) -> None:
    check_kills(ram_dir, KILLS, 1, record_property)


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_killed_writers_lose_nothing_acknowledged_long(ram_dir: Path, record_property) -> None:
    mid_write = check_kills(ram_dir, KILLS_LONG, 2, record_property)
    assert mid_write > 0, "no kill landed inside a write: the test did not test that"


def test_two_writers_race_while_a_third_is_killed_again_and_again(ram_dir: Path) -> None:
    """No change of either survivor is lost, whatever the killed one was doing."""
    path = ram_dir / "state" / "state.json"
    with_background(path, notes=200)
    # Both survivors change the same papers, in different fields (stars and notes for
    # one, read marks for the other), so that neither can overwrite the other's work.
    survivors = [{"path": str(path), "seed": "left", "ids": IDS, "fields": ["star", "note"],
                  "count": 300, "lock_timeout": 30.0, "pause": 0.004},
                 {"path": str(path), "seed": "right", "ids": IDS, "fields": ["read"],
                  "count": 300, "lock_timeout": 30.0, "pause": 0.004}]
    procs = [spawn_worker(spec) for spec in survivors]
    victims = [f"victim{n}" for n in range(20)]
    rng = random.Random(3)
    kill_rounds_done = 0
    while any(proc.poll() is None for proc in procs) and kill_rounds_done < 40:
        victim = spawn_worker({"path": str(path), "seed": f"victim-{kill_rounds_done}",
                               "ids": victims, "fields": ALL_FIELDS})
        wait_for_line(victim, 60)
        time.sleep(rng.uniform(0, 0.03))
        victim.kill()
        victim.communicate(timeout=60)
        kill_rounds_done += 1
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err.decode(errors="replace")
        assert len(out.split()) > 0
    final = Model.of(StateStore(path, autosave=False))
    for spec in survivors:
        expected = Model()
        for change in islice(changes(spec["seed"], IDS, spec["fields"]), spec["count"]):
            expected.apply(change)
        assert final.restricted(set(IDS), set(spec["fields"])) == expected, spec["seed"]
    print(f"{kill_rounds_done} writers killed while the two others wrote")
    assert kill_rounds_done >= 3, "the survivors finished before the kills began"


# A full disk ---------------------------------------------------------------------------


def run_disk_full(how: str, size: str) -> dict:
    with tempfile.TemporaryDirectory(prefix="paperscope-full-") as folder:
        script = (f'mount -t tmpfs -o {size} tmpfs "$0" && exec "$@"')
        command = ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, folder,
                   sys.executable, "-m", "tests.robustness.state_disk_full", folder, how]
        proc = subprocess.run(command, cwd=ROOT, env=cli_env(), capture_output=True, timeout=120)
        assert proc.returncode == 0, proc.stderr.decode(errors="replace")
        return json.loads(proc.stdout)


@pytest.mark.parametrize("how, size", [("blocks", "size=256k"),
                                       ("inodes", "size=1m,nr_inodes=64")])
def test_a_really_full_disk_gives_a_notice_and_keeps_the_last_good_state(
        private_mounts: None, how: str, size: str) -> None:
    report = run_disk_full(how, size)
    assert report["first_save_notices"] == []
    assert report["fill_errno"] == "ENOSPC"
    assert report["raised"] is None, report["raised"]
    notice = report["notice"]
    assert notice and "\n" not in notice and "No space left" in notice, report
    assert all("\n" not in n for n in report["notices"])
    assert report["file_unchanged"] and report["reloaded_clean"], report
    assert report["leftovers"] == [], report
    assert report["in_memory"], report
    assert report["save_after_freeing"] is None, report
    assert report["after"] == {"new_star": True, "new_note": True, "kept": 40, "kept_star": True,
                               "notices": []}


class _ShortWriteThenFull:
    """Stands in for the temp file: writes part of the data, then the disk is full."""

    def __init__(self, handle: object) -> None:
        self.handle = handle

    def __enter__(self) -> "_ShortWriteThenFull":
        return self

    def __exit__(self, *exc: object) -> None:
        self.handle.close()  # type: ignore[attr-defined]

    def write(self, data: bytes) -> int:
        self.handle.write(data[: len(data) // 3])  # type: ignore[attr-defined]
        raise OSError(errno.ENOSPC, "No space left on device")

    def __getattr__(self, name: str) -> object:
        return getattr(self.handle, name)


def test_a_short_write_on_a_full_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where no tmpfs can be mounted: the temp file's write fails part way (ENOSPC)."""
    path = tmp_path / "state.json"
    store = StateStore(path)
    store.set_note("kept", "a note written before the disk filled up")
    good = path.read_bytes()
    real_fdopen = os.fdopen
    monkeypatch.setattr(os, "fdopen", lambda fd, *a, **k: _ShortWriteThenFull(real_fdopen(fd, *a, **k)))
    store.toggle_star("new")
    notice = store.save()
    assert notice and "\n" not in notice and "No space left" in notice
    assert path.read_bytes() == good and temp_files(tmp_path) == []
    monkeypatch.undo()
    assert store.save() is None
    again = StateStore(path)
    assert again.is_starred("new") and again.note("kept")


# Hostile notes -------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(note=st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=300),
       paper_id=st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=20))
def test_any_note_text_round_trips(note: str, paper_id: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = StateStore(Path(folder) / "state.json")
        store.set_note(paper_id, note)
        assert store.notices == []
        expected = note if note.strip() else ""
        assert StateStore(Path(folder) / "state.json").note(paper_id) == expected


@pytest.mark.parametrize("note", ["\udcff pasted bytes", "half an emoji \ud83d"])
def test_a_lone_surrogate_in_a_note_is_a_notice_not_a_crash(tmp_path: Path, note: str) -> None:
    path = tmp_path / "state.json"
    store = StateStore(path)
    store.toggle_star("before")
    store.set_note("p", note)  # must not raise
    store.toggle_star("after")  # nor may anything after it
    assert all("\n" not in n for n in store.notices)
    assert StateStore(path).starred_ids() == {"before", "after"}
