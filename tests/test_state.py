"""Reading state: persistence, atomic writes, recovery, and several writers at once."""

from __future__ import annotations

import errno
import fcntl
import json
import multiprocessing
import os
import random
import re
import signal
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tui.core import state as state_module
from tui.core.state import (
    DATA_DIR_ENV,
    SCHEMA_VERSION,
    StateStore,
    default_state_path,
    dump_state,
    merge_records,
    parse_state,
)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "state.json"


@pytest.fixture
def ram_path(tmp_path: Path) -> Iterator[Path]:
    """A state path on tmpfs when there is one, for the tests that save hundreds of times.

    They test merging and crash safety, which do not depend on the disk; on a busy
    disk each fsync can take tens of milliseconds and the tests would crawl.
    """
    if not os.access("/dev/shm", os.W_OK):
        yield tmp_path / "data" / "state.json"
        return
    with tempfile.TemporaryDirectory(dir="/dev/shm", prefix="paperscope-test-") as folder:
        yield Path(folder) / "data" / "state.json"


def temp_files(folder: Path) -> list[Path]:
    return sorted(folder.glob(".state.json.*.tmp"))


def assert_one_line(notice: str | None) -> None:
    assert notice and "\n" not in notice


# Basics ---------------------------------------------------------------------------


def test_changes_persist_across_instances(path: Path) -> None:
    store = StateStore(path)
    assert store.toggle_star("p1") is True
    store.set_read("p2", True)
    assert store.toggle_read("p3") is True
    store.set_note("p1", "remember {this} \\ ünïcode\nsecond line")
    assert store.notices == []

    again = StateStore(path)
    assert again.starred_ids() == {"p1"}
    assert again.read_ids() == {"p2", "p3"}
    assert again.noted_ids() == {"p1"}
    assert again.note("p1") == "remember {this} \\ ünïcode\nsecond line"
    assert again.note("unknown") == ""
    assert not again.is_starred("unknown") and not again.is_read("unknown")

    assert again.toggle_star("p1") is False
    assert again.toggle_read("p3") is False
    again.set_note("p1", "   ")  # blank removes
    third = StateStore(path)
    assert third.starred_ids() == set() and third.read_ids() == {"p2"} and third.noted_ids() == set()


def test_file_has_schema_version_and_is_json(path: Path) -> None:
    StateStore(path).toggle_star("x")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["schema"] == 1  # no paper is marked not interested: still the first shape
    assert data["papers"]["x"]["star"][0] is True


def test_not_interested_is_kept_beside_stars_and_undone(path: Path) -> None:
    store = StateStore(path)
    assert store.toggle_dislike("x") is True and store.toggle_star("y") is True
    again = StateStore(path)
    assert again.is_disliked("x") and again.disliked_ids() == {"x"}
    assert again.starred_ids() == {"y"} and not again.is_disliked("y")
    assert json.loads(path.read_text(encoding="utf-8"))["schema"] == SCHEMA_VERSION == 2
    assert again.toggle_dislike("x") is False
    third = StateStore(path)
    assert third.disliked_ids() == set() and third.starred_ids() == {"y"}
    assert json.loads(path.read_text(encoding="utf-8"))["schema"] == 1


def test_an_older_paperscope_refuses_a_file_with_not_interested_marks(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rather than read it and drop the marks it does not know when it saves."""
    StateStore(path).toggle_dislike("x")
    text = path.read_text(encoding="utf-8")
    monkeypatch.setattr(state_module, "SCHEMA_VERSION", 1)
    with pytest.raises(state_module.NewerSchemaError):
        parse_state(text)


def test_data_dir_env_var(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "elsewhere"))
    assert default_state_path() == tmp_path / "elsewhere" / "state.json"
    store = StateStore()
    store.toggle_star("x")
    assert (tmp_path / "elsewhere" / "state.json").is_file()
    monkeypatch.delenv(DATA_DIR_ENV)
    assert default_state_path().name == "state.json"
    assert "paperscope" in str(default_state_path())


def test_autosave_off_saves_only_when_asked(path: Path) -> None:
    store = StateStore(path, autosave=False)
    store.toggle_star("x")
    assert not path.exists()
    assert store.save() is None
    assert StateStore(path).is_starred("x")
    assert store.save() is None  # nothing pending: no write


def test_threads_sharing_a_store(path: Path) -> None:
    store = StateStore(path)
    def star_many(thread: int) -> None:
        for n in range(25):
            store.toggle_star(f"t{thread}-{n}")

    threads = [threading.Thread(target=star_many, args=(t,)) for t in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(StateStore(path).starred_ids()) == 100


# Merging between stores (as between processes) -------------------------------------


def test_reload_picks_up_other_writers(path: Path) -> None:
    first, second = StateStore(path), StateStore(path)
    first.toggle_star("x")
    assert not second.is_starred("x")
    second.reload()
    assert second.is_starred("x")


def test_different_fields_of_one_paper_merge(path: Path) -> None:
    first, second = StateStore(path), StateStore(path)
    first.toggle_star("x")
    second.set_note("x", "mine")  # second never saw the star
    merged = StateStore(path)
    assert merged.is_starred("x") and merged.note("x") == "mine"
    assert second.is_starred("x")  # a save also brings in others' changes


def test_removed_star_and_note_are_not_resurrected(path: Path) -> None:
    first, second = StateStore(path), StateStore(path)
    first.toggle_star("x")
    first.set_note("x", "old")
    second.reload()
    assert second.toggle_star("x") is False
    second.set_note("x", "")
    first.set_read("y", True)  # first still believes x is starred and noted; it saves anyway
    final = StateStore(path)
    assert not final.is_starred("x") and final.note("x") == ""
    assert not first.is_starred("x") and first.note("x") == ""


@pytest.mark.parametrize("order", ["first-saves-first", "second-saves-first"])
def test_last_change_wins_whatever_the_save_order(path: Path, order: str) -> None:
    first, second = StateStore(path, autosave=False), StateStore(path, autosave=False)
    first.set_note("x", "earlier")
    second.set_note("x", "later")
    savers = [first, second] if order == "first-saves-first" else [second, first]
    for store in savers:
        assert store.save() is None
    assert StateStore(path).note("x") == "later"


def test_a_change_outranks_what_it_replaced_even_if_the_clock_is_behind(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    StateStore(path).set_note("x", "seen")
    monkeypatch.setattr(state_module.time, "time_ns", lambda: 1)  # clock far in the past
    late = StateStore(path)
    late.set_note("x", "replaced")
    assert StateStore(path).note("x") == "replaced"


times = st.integers(0, 10**6)
paper_fields = st.fixed_dictionaries(
    {},
    optional={
        "star": st.tuples(st.booleans(), times),
        "read": st.tuples(st.booleans(), times),
        "note": st.tuples(st.text(max_size=3), times),
    },
).filter(bool)
record_sets = st.dictionaries(st.sampled_from("abc"), paper_fields)


@given(record_sets, record_sets)
def test_merge_is_order_independent_and_idempotent(left: dict, right: dict) -> None:
    times = [reg[1] for recs in (left, right) for fields in recs.values() for reg in fields.values()]
    merged = merge_records(left, right)
    assert merge_records(merged, right) == merged
    if len(times) == len(set(times)):  # equal times break ties by save order, by design
        assert merged == merge_records(right, left)
    assert parse_state(dump_state(merged)) == merged


# Failures: atomic writes, corrupt files, unwritable folders ----------------------------


def test_failed_replace_keeps_old_file_and_memory(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = StateStore(path)
    store.toggle_star("kept")
    before = path.read_bytes()

    def broken_replace(src: object, dst: object) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "replace", broken_replace)
    assert store.toggle_star("new") is True
    notice = store.notices[-1]
    assert_one_line(notice)
    assert "Input/output error" in notice
    assert path.read_bytes() == before
    assert temp_files(path.parent) == []
    assert store.starred_ids() == {"kept", "new"}  # memory keeps working

    monkeypatch.undo()
    assert store.save() is None  # retried at the next save
    assert StateStore(path).starred_ids() == {"kept", "new"}


@pytest.mark.parametrize(
    "content",
    [
        b"{not json",
        b"",
        b"\xff\xfe\x00garbage",
        b"[]",
        b'{"papers": {}}',
        b'{"schema": 1}',
        b'{"schema": 1, "papers": {"x": {"star": ["yes", 1]}}}',
        b'{"schema": 1, "papers": {"x": {"note": ["a", 1.5]}}}',
        b'{"schema": 1, "papers": {"x": []}}',
    ],
    ids=[
        "truncated", "empty", "binary", "list", "no-schema", "no-papers",
        "bad-value", "bad-time", "bad-entry",
    ],
)
def test_corrupt_file_is_moved_aside(path: Path, content: bytes) -> None:
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    store = StateStore(path)
    assert len(store.notices) == 1
    assert_one_line(store.notices[0])
    asides = list(path.parent.glob("state.json.corrupt-*"))
    assert len(asides) == 1
    assert re.fullmatch(r"state\.json\.corrupt-\d{8}-\d{6}", asides[0].name)
    assert asides[0].read_bytes() == content
    assert asides[0].name in store.notices[0]
    assert store.starred_ids() == set()
    store.toggle_star("fresh")
    assert StateStore(path).starred_ids() == {"fresh"}


def test_file_corrupted_while_open_is_moved_aside_at_save(path: Path) -> None:
    store = StateStore(path)
    store.toggle_star("a")
    path.write_text("{oops", encoding="utf-8")
    path.with_name("state.json.corrupt-20000101-000000").write_text("older")
    store.toggle_star("b")
    assert len(list(path.parent.glob("state.json.corrupt-*"))) == 2
    assert StateStore(path).is_starred("b")


def test_newer_schema_is_left_untouched(path: Path) -> None:
    path.parent.mkdir(parents=True)
    content = json.dumps({"schema": SCHEMA_VERSION + 1, "whatever": []})
    path.write_text(content, encoding="utf-8")
    store = StateStore(path)
    assert len(store.notices) == 1
    store.toggle_star("x")
    assert store.is_starred("x")
    assert path.read_text(encoding="utf-8") == content
    assert_one_line(store.save())


def failing(exc: OSError):
    def fail(*args: object, **kwargs: object) -> None:
        raise exc

    return fail


@pytest.mark.parametrize(
    "target, exc",
    [
        ("mkstemp", PermissionError(errno.EACCES, "Permission denied")),
        ("fsync", OSError(errno.ENOSPC, "No space left on device")),
    ],
    ids=["read-only", "disk-full"],
)
def test_failing_write_is_a_notice_not_a_crash(
    path: Path, monkeypatch: pytest.MonkeyPatch, target: str, exc: OSError
) -> None:
    store = StateStore(path)
    store.set_note("x", "saved")
    before = path.read_bytes()
    monkeypatch.setattr(tempfile if target == "mkstemp" else os, target, failing(exc))
    for n in range(5):
        store.toggle_star(f"p{n}")
    assert len(store.notices) == 1  # repeats are not piled up
    assert_one_line(store.notices[0])
    assert exc.strerror in store.notices[0]
    assert_one_line(store.save())
    assert path.read_bytes() == before
    assert temp_files(path.parent) == []
    assert store.starred_ids() == {f"p{n}" for n in range(5)} and store.note("x") == "saved"
    monkeypatch.undo()
    assert store.save() is None
    assert StateStore(path).starred_ids() == {f"p{n}" for n in range(5)}


def test_parent_is_a_file(tmp_path: Path) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder")
    store = StateStore(blocker / "state.json")  # cannot read: a notice, not a crash
    assert store.toggle_star("x") is True
    assert store.is_starred("x")
    assert_one_line(store.save())
    assert all("\n" not in notice for notice in store.notices)
    assert blocker.read_text() == "not a folder"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only folders anyway")
def test_read_only_folder_with_chmod(path: Path) -> None:
    StateStore(path).toggle_star("old")
    before = path.read_bytes()
    path.parent.chmod(0o500)
    try:
        store = StateStore(path)
        store.toggle_star("new")
        assert_one_line(store.save())
        assert store.starred_ids() == {"old", "new"}
        assert path.read_bytes() == before
    finally:
        path.parent.chmod(0o700)


def test_lock_held_elsewhere_times_out_and_retries(path: Path) -> None:
    store = StateStore(path, lock_timeout=0.05)
    store.toggle_star("a")
    fd = os.open(path.with_name("state.json.lock"), os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        store.toggle_star("b")
        assert_one_line(store.notices[-1])
    finally:
        os.close(fd)
    assert store.save() is None
    assert StateStore(path).starred_ids() == {"a", "b"}


def test_orphan_temp_files_are_cleaned_at_save(path: Path) -> None:
    store = StateStore(path)
    store.toggle_star("a")
    orphan = path.parent / ".state.json.abc123.tmp"
    orphan.write_text("half a file")
    store.toggle_star("b")
    assert not orphan.exists()


# Real processes -------------------------------------------------------------------


def _ops(tag: str, count: int) -> list[tuple[str, str, object]]:
    """A reproducible mix of changes; the two tags never touch the same paper field."""
    rng = random.Random(tag)
    ops: list[tuple[str, str, object]] = []
    for n in range(count):
        own, shared = f"{tag}{rng.randrange(30)}", f"shared{rng.randrange(10)}"
        kind = rng.choice(["star", "read", "note", "unnote"])
        if tag == "a":
            ops.append((kind, own if kind in ("note", "unnote") else shared, n))
        else:
            ops.append((kind, shared if kind in ("note", "unnote") else own, n))
    return ops


def _apply(store: StateStore, op: tuple[str, str, object]) -> None:
    kind, paper_id, n = op
    if kind == "star":
        store.toggle_star(paper_id)
    elif kind == "read":
        store.set_read(paper_id, n % 3 != 0)
    elif kind == "note":
        store.set_note(paper_id, f"note {n} {{ü}} \\ %")
    else:
        store.set_note(paper_id, "")


def _change_concurrently(path: str, tag: str, count: int, go: object) -> None:
    store = StateStore(Path(path))
    go.wait()  # type: ignore[attr-defined]
    failures = 0
    for op in _ops(tag, count):
        _apply(store, op)
        failures += bool(store.notices)
        store.notices.clear()
    os._exit(min(failures, 100))


def test_two_processes_keep_each_others_changes(ram_path: Path) -> None:
    ram_path.parent.mkdir(parents=True)
    ctx = multiprocessing.get_context("fork")
    go = ctx.Event()
    procs = [
        ctx.Process(target=_change_concurrently, args=(str(ram_path), tag, 200, go)) for tag in "ab"
    ]
    for proc in procs:
        proc.start()
    go.set()
    for proc in procs:
        proc.join(60)
    assert [proc.exitcode for proc in procs] == [0, 0]

    model = StateStore(ram_path.parent / "model.json", autosave=False)  # the same ops, one process
    for tag in "ab":
        for op in _ops(tag, 200):
            _apply(model, op)
    final = StateStore(ram_path)
    assert final.starred_ids() == model.starred_ids()
    assert final.read_ids() == model.read_ids()
    assert final.noted_ids() == model.noted_ids()
    assert {pid: final.note(pid) for pid in final.noted_ids()} == {
        pid: model.note(pid) for pid in model.noted_ids()
    }


def _save_until_killed(path: Path, prefix: str, report_fd: int) -> None:
    store = StateStore(path, autosave=False)
    n = 0
    while True:
        paper_id = f"{prefix}-{n}"
        store.toggle_star(paper_id)
        store.set_note(paper_id, f"note {n}")
        if store.save() is None:
            os.write(report_fd, f"{n}\n".encode())
        n += 1


def kill_while_saving(path: Path, rounds: int, seed: int) -> int:
    """Kill writers at random moments; check each time that every reported save survived.

    Returns how many kills left a temp file behind (a kill in the middle of a write).
    """
    rng = random.Random(seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    # A big file makes each save long enough that most kills land inside one.
    base = StateStore(path, autosave=False)
    for n in range(1000):
        base.set_note(f"base-{n}", f"background note number {n} " * 3)
    assert base.save() is None
    expected = set(base.noted_ids())
    mid_write = 0
    for round_ in range(rounds):
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:  # child: never return into pytest
            try:
                os.close(read_fd)
                _save_until_killed(path, f"r{round_}", write_fd)
            finally:
                os._exit(1)
        os.close(write_fd)
        with os.fdopen(read_fd, "rb") as reports:
            first = reports.readline()  # wait for the first save, then kill at a random moment
            time.sleep(rng.uniform(0, 0.03))
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            mid_write += bool(temp_files(path.parent))
            assert first, "the writer died before its first save"
            saved = [int(line) for line in (first + reports.read()).split()]
        expected |= {f"r{round_}-{n}" for n in saved}
        loaded = StateStore(path, autosave=False)
        assert loaded.notices == []
        assert expected <= loaded.noted_ids()
        assert {f"r{round_}-{n}" for n in saved} <= loaded.starred_ids()
    final = StateStore(path)
    final.toggle_star("after")
    assert final.notices == [] and temp_files(path.parent) == []
    return mid_write


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


class _HalfWriter:
    """Stands in for the temp file: writes half of what it is given, then the process dies."""

    def __init__(self, handle: object) -> None:
        self.handle = handle

    def __enter__(self) -> _HalfWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.handle.close()  # type: ignore[attr-defined]

    def write(self, data: bytes) -> None:
        self.handle.write(data[: len(data) // 2])  # type: ignore[attr-defined]
        self.handle.flush()  # type: ignore[attr-defined]
        _die()


def _break_at(stage: str) -> None:
    """Make the next save die at ``stage`` (this runs in a throwaway child process)."""
    real_fdopen, real_replace = os.fdopen, os.replace
    if stage == "half-written":
        os.fdopen = lambda fd, *a, **k: _HalfWriter(real_fdopen(fd, *a, **k))  # type: ignore[assignment]
    elif stage == "before-replace":
        os.replace = lambda *a: _die()  # type: ignore[assignment]
    else:
        os.replace = lambda *a: (real_replace(*a), _die())  # type: ignore[assignment]


@pytest.mark.parametrize("stage", ["half-written", "before-replace", "after-replace"])
def test_sigkill_at_each_stage_of_a_save(path: Path, stage: str) -> None:
    store = StateStore(path)
    store.toggle_star("saved")
    pid = os.fork()
    if pid == 0:  # child: never return into pytest
        try:
            _break_at(stage)
            store.toggle_star("dying")
        finally:
            os._exit(1)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    assert len(temp_files(path.parent)) == (1 if stage != "after-replace" else 0)
    loaded = StateStore(path)
    assert loaded.notices == []
    assert loaded.starred_ids() == ({"saved", "dying"} if stage == "after-replace" else {"saved"})
    loaded.toggle_star("after")
    assert temp_files(path.parent) == [] and loaded.notices == []


def test_sigkill_while_saving_loses_nothing_saved(ram_path: Path) -> None:
    kill_while_saving(ram_path, rounds=50, seed=1)


@pytest.mark.slow
def test_sigkill_while_saving_long(ram_path: Path, request: pytest.FixtureRequest) -> None:
    long = request.config.getoption("--long", default=False) or os.environ.get("PAPERSCOPE_LONG_TESTS")
    if not long:
        pytest.skip("long variant: run with --long or PAPERSCOPE_LONG_TESTS=1")
    kills_mid_write = kill_while_saving(ram_path, rounds=500, seed=2)
    print(f"{kills_mid_write} of 500 kills landed mid-write")
