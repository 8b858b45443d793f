"""Fill a real, tiny file system, then change state: run inside a private tmpfs mount.

``python -m tests.robustness.state_disk_full FOLDER blocks|inodes`` saves a good state
in FOLDER, fills the file system (with data, or with empty files until no inode is
left), makes more changes, frees the space and saves again. It prints what it saw as
JSON; the test judges it. The test mounts FOLDER (a small tmpfs) in a mount namespace
of its own, so the full disk is real (ENOSPC from the kernel) and nobody else sees it.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import sys
from pathlib import Path

from tui.core.state import StateStore


def fill(folder: Path, how: str) -> int:
    """Fill the file system under ``folder``; return the errno that stopped it."""
    filler = folder / "filler"
    filler.mkdir()
    if how == "blocks":
        fd = os.open(filler / "data", os.O_WRONLY | os.O_CREAT)  # unbuffered: no flush at close
        try:
            while True:
                os.write(fd, b"\0" * 4096)
        except OSError as exc:
            return exc.errno
        finally:
            os.close(fd)
    n = 0
    while True:
        try:
            (filler / str(n)).touch()
        except OSError as exc:
            return exc.errno
        n += 1


def main(folder: Path, how: str) -> dict[str, object]:
    path = folder / "state" / "state.json"
    store = StateStore(path)
    for n in range(40):
        store.set_note(f"kept-{n}", f"note {n} " * 20)
    store.toggle_star("kept-0")
    good = path.read_bytes()
    report: dict[str, object] = {"first_save_notices": list(store.notices)}
    if how == "inodes":
        # Remove the lock file too: creating it again needs an inode as well.
        path.with_name(path.name + ".lock").unlink()
    report["fill_errno"] = errno.errorcode.get(fill(folder, how), "?")
    raised = None
    try:
        store.toggle_star("new-star")
        store.set_note("new-note", "written while the disk was full " * 40)
        notice = store.save()
    except Exception as exc:  # noqa: BLE001 - reported, and the test fails on it
        raised, notice = f"{type(exc).__name__}: {exc}", None
    report.update(
        raised=raised,
        notice=notice,
        notices=list(store.notices),
        file_unchanged=path.read_bytes() == good,
        leftovers=sorted(p.name for p in path.parent.iterdir()
                         if p.name not in ("state.json", "state.json.lock")),
        in_memory=store.is_starred("new-star") and store.note("new-note") != "",
        reloaded_clean=StateStore(path, autosave=False).notices == [],
    )
    shutil.rmtree(folder / "filler")
    report["save_after_freeing"] = store.save()
    again = StateStore(path, autosave=False)
    report["after"] = {
        "new_star": again.is_starred("new-star"), "new_note": bool(again.note("new-note")),
        "kept": len([pid for pid in again.noted_ids() if pid.startswith("kept-")]),
        "kept_star": again.is_starred("kept-0"), "notices": again.notices,
    }
    return report


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1]), sys.argv[2])))
    sys.stdout.flush()
    os._exit(0)
