"""Note drafts: what the note editor holds, kept on disk until it is saved or cancelled.

A draft is the editor's text written while it is open (a second after typing stops,
and at once when the reader is told to end), so that a dropped connection loses at
most that second. Drafts live in ``drafts/`` beside ``state.json`` (the user data
folder, or ``PAPERSCOPE_DATA_DIR``), one JSON file per paper and reader::

    drafts/<paper id>.<session>.json  {"paper": id, "text": "...", "saved_at": ns}

Each reader is a *session* with its own files, so two readers editing one paper's note
never overwrite or remove each other's draft; the note itself is decided by the state
store (the later save wins). A live session holds an ``flock`` on
``drafts/.<session>.lock``; a draft whose session holds no lock was left by a reader
that ended without saving, and is offered back by :meth:`DraftStore.recover`.

Drafts are never part of the reading state: exports and searches see saved notes only.
Failures never raise: a draft that cannot be written is retried at the next write, and
a file that cannot be read is left where it is.
"""

from __future__ import annotations

import json
import os
import re
import time
import uuid
from contextlib import suppress
from pathlib import Path
from typing import NamedTuple

from tui.core.durable import atomic_write_text
from tui.core.locks import held_by_another, hold_while_alive
from tui.core.state import default_state_path

DRAFTS_FOLDER = "drafts"
"""The folder, beside ``state.json``, that holds the drafts."""
_SAFE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def default_drafts_dir() -> Path:
    """Where drafts live when no folder is given: beside the state file."""
    return default_state_path().parent / DRAFTS_FOLDER


class Draft(NamedTuple):
    """One draft file's content."""

    paper_id: str
    text: str
    saved_at: int
    """When it was written, in nanoseconds since the epoch."""
    path: Path


class DraftStore:
    """The drafts of one reader (a session), and a view of every other session's.

    Only :meth:`write` creates files and takes the session's lock, so a store that only
    looks (``paperscope show``) leaves nothing behind.
    """

    def __init__(self, folder: Path | str | None = None) -> None:
        self.folder = Path(folder) if folder is not None else default_drafts_dir()
        """The drafts folder."""
        self.session = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        """This reader's part of its draft file names."""
        self.notices: list[str] = []
        """One-line reports of drafts that could not be written, oldest first."""
        self._lock_fd: int | None = None
        self._adopted: dict[str, list[Path]] = {}  # paper id → recovered drafts it replaces

    # Writing -----------------------------------------------------------------------

    def write(self, paper_id: str, text: str) -> bool:
        """Keep `text` as this session's draft of the paper's note; False if it failed."""
        path = self._own_path(paper_id)
        record = {"paper": paper_id, "text": text, "saved_at": time.time_ns()}
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            self._hold_lock()
            # ensure_ascii keeps a lone surrogate (undecodable pasted bytes) writable.
            atomic_write_text(path, json.dumps(record))
        except OSError as exc:
            message = f"could not keep a draft in {self.folder}: {exc.strerror or exc}"
            if message not in self.notices:
                self.notices.append(message)
            return False
        return True

    def remove(self, paper_id: str) -> None:
        """Forget the paper's draft: this session's, and any it recovered and replaced."""
        for path in [self._own_path(paper_id), *self._adopted.pop(paper_id, [])]:
            with suppress(OSError):
                path.unlink()

    def close(self) -> None:
        """Release the session's lock (a clean end); the drafts themselves stay."""
        if self._lock_fd is not None:
            with suppress(OSError):
                self._lock_path(self.session).unlink()
            os.close(self._lock_fd)
            self._lock_fd = None

    # Reading -----------------------------------------------------------------------

    def drafts_of(self, paper_id: str) -> list[Draft]:
        """Every readable draft of the paper's note, from any session, newest first."""
        if not _SAFE_ID.fullmatch(paper_id):
            return []
        found = []
        for path in self._paths_of(paper_id):
            draft = _read(path, paper_id)
            if draft is not None:
                found.append(draft)
        return sorted(found, key=lambda d: d.saved_at, reverse=True)

    def has_draft(self, paper_id: str) -> bool:
        """Whether any session keeps an unsaved draft of the paper's note."""
        return _SAFE_ID.fullmatch(paper_id) is not None and any(self._paths_of(paper_id))

    def recover(self, paper_id: str, saved_note: str) -> Draft | None:
        """The newest draft left by a reader that has ended (or by this one, when a save
        failed), to start the editor from.

        Drafts of other live readers are theirs and stay untouched. Left drafts that hold
        nothing beyond the saved note are removed; the others are *adopted*: removed
        when this session saves or cancels the note (:meth:`remove`), kept otherwise.
        """
        left = [d for d in self.drafts_of(paper_id)
                if _session_of(d.path) == self.session or not self._alive(_session_of(d.path))]
        useful = []
        for draft in left:
            if draft.text == saved_note or not draft.text.strip():
                with suppress(OSError):
                    draft.path.unlink()
            else:
                useful.append(draft)
        if not useful:
            return None
        self._adopted[paper_id] = [d.path for d in useful]
        return useful[0]

    # Internals ---------------------------------------------------------------------

    def _own_path(self, paper_id: str) -> Path:
        if not _SAFE_ID.fullmatch(paper_id):
            raise ValueError(f"not a paper id: {paper_id!r}")
        return self.folder / f"{paper_id}.{self.session}.json"

    def _paths_of(self, paper_id: str) -> list[Path]:
        try:
            return list(self.folder.glob(f"{paper_id}.*.json"))
        except OSError:
            return []

    def _lock_path(self, session: str) -> Path:
        return self.folder / f".{session}.lock"

    def _hold_lock(self) -> None:
        if self._lock_fd is None:  # a fresh session: its lock is never contended
            self._lock_fd = hold_while_alive(self._lock_path(self.session))

    def _alive(self, session: str) -> bool:
        """Whether the reader of `session` still runs (holds its lock).

        Where nothing can be locked, every other session counts as ended.
        """
        if held_by_another(self._lock_path(session)):
            return True
        # Free, so its reader is gone: its lock file can go too (its drafts stay).
        with suppress(OSError):
            self._lock_path(session).unlink()
        return False


def _session_of(path: Path) -> str:
    """The session part of ``<paper id>.<session>.json``."""
    return path.name.split(".")[1] if path.name.count(".") == 2 else ""


def _read(path: Path, paper_id: str) -> Draft | None:
    """The draft in `path`, or None when it cannot be read (it is left where it is)."""
    try:
        record = json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, ValueError):
        return None
    if (not isinstance(record, dict) or record.get("paper") != paper_id
            or not isinstance(record.get("text"), str)
            or type(record.get("saved_at")) is not int):
        return None
    return Draft(paper_id, record["text"], record["saved_at"], path)
