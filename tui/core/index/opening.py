"""The index's life: fingerprint, open, build, rebuild, lock, fall back.

An index lives in a folder named after the fingerprint of its lists' content and of the
schema version (`ix-<fingerprint>`), inside an index root such as `index/`. Opening
means computing the fingerprint and opening that folder; if it is missing, a builder
takes a lock, builds into a temporary folder and renames it into place, so readers
never see half an index and processes that start together build once. A folder that
fails to open, or whose files are not the sizes the build recorded, is damaged: it is
moved aside and rebuilt, with a notice. When no root is writable, the index is built
in memory. A build takes the segments of the previous index in its root whose lists
are unchanged (see `reuse`), except when a rebuild is asked for or an index was found
damaged.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from whoosh import index as whoosh_index
from whoosh.filedb.filestore import FileStorage, RamStorage
from whoosh.index import Index
from whoosh.searching import Searcher

from tui.core.durable import atomic_write_text, fsync_folder
from tui.core.index.freshness import code_digest, stat_key
from tui.core.index.schema import SCHEMA_VERSION
from tui.core.locks import holding, open_lock_file

TYPE_CHECKING = False  # as typing's: a cold search need not import typing (2 ms)
if TYPE_CHECKING:
    from tui.core.index.reuse import FileKey, Previous

Progress = Callable[[int, int], None]
"""Called as progress(done, total) while an index is built."""

_LOCK_NAME = ".lock"
_META = "paperscope.json"
_HASHES = "file-hashes.json"
_BUILD_ATTEMPTS = 3
"""Builds in one root whose folder another process deletes or truncates meanwhile."""


def _random_hex(digits: int) -> str:
    """Random hex digits for a folder or file name of this process's own (from the
    system's random source: uuid would import `platform` into every start)."""
    return os.urandom((digits + 1) // 2).hex()[:digits]


class _Harmed(Exception):
    """The folder being built, or just built, was deleted or changed by another process."""


@dataclass
class OpenIndex:
    """An opened Whoosh index with where it lives and what happened opening it."""

    ix: Index
    searcher: Searcher
    path: Path | None
    """The index folder, or None when it lives in memory."""
    meta: dict[str, object]
    notices: list[str] = field(default_factory=list)
    built: bool = False


def fingerprint(files: list[Path], known: dict[str, list[str]] | None = None) -> str:
    """A digest of the lists' names and content and of the schema version.

    Each file's content is hashed, but `known` (path → [stat key, digest], kept by the
    caller) lets a file whose size, times and inode are unchanged skip re-reading:
    hashing 24 MB of lists costs a cold search 60 ms. A touched file is re-hashed and,
    its content unchanged, gives the same fingerprint.
    """
    digest = hashlib.blake2b(digest_size=10)
    digest.update(f"schema {SCHEMA_VERSION} {code_digest()}\n".encode())
    for path in files:
        key = stat_key(path)
        entry = known.get(str(path)) if known is not None else None
        if entry and entry[0] == key:
            file_digest = entry[1]
        else:
            with open(path, "rb") as handle:  # in chunks: a list may be gigabytes
                file_digest = hashlib.file_digest(
                    handle, lambda: hashlib.blake2b(digest_size=16)).hexdigest()
            if known is not None:
                known[str(path)] = [key, file_digest]
        digest.update(path.name.encode() + b"\0" + file_digest.encode())
    return digest.hexdigest()


def _cached_fingerprint(files: list[Path], roots: list[Path]) -> tuple[str, list[FileKey]]:
    """`fingerprint`, with file digests remembered in the first index root; and each
    file's name and digest, by which a build finds the lists it can reuse."""
    cache = roots[0] / _HASHES if roots else None
    known: dict[str, list[str]] = {}
    if cache is not None:
        with contextlib.suppress(OSError, ValueError):
            loaded = json.loads(cache.read_text(encoding="utf-8"))
            if isinstance(loaded, dict):
                known = loaded
    before = dict(known)
    fp = fingerprint(files, known)
    if cache is not None and known != before:
        with contextlib.suppress(OSError):
            cache.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(cache, json.dumps(known), durable=False)
    return fp, [(path.name, known[str(path)][1]) for path in files]


def _made(folder: Path) -> None:
    """`folder.mkdir(parents=True, exist_ok=True)`, which raises FileExistsError when
    another process makes the folder and a third deletes it between its two steps
    (`tests/robustness/test_index_sharing.py` deletes the index again and again): made
    again, unless a file holds its name."""
    for _ in range(_BUILD_ATTEMPTS):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            return
        except FileExistsError:
            if folder.exists() and not folder.is_dir():
                raise
    folder.mkdir(parents=True, exist_ok=True)


@contextlib.contextmanager
def _locked(root: Path) -> Iterator[None]:
    """Hold an exclusive lock on `root` so only one process builds at a time."""
    for attempt in range(_BUILD_ATTEMPTS):
        # The root may have been deleted since it was made, even between these two.
        _made(root)
        try:
            fd = open_lock_file(root / _LOCK_NAME)
            break
        except FileNotFoundError:
            if attempt + 1 == _BUILD_ATTEMPTS:
                raise
    with holding(fd):
        yield


def _open_folder(folder: Path) -> tuple[Index, dict[str, object], Searcher]:
    """Open a built index folder; raises on anything missing or corrupt.

    The searcher opened here to check the index is kept for the library to use:
    opening one costs tens of milliseconds on a large index.
    """
    meta = json.loads((folder / _META).read_text(encoding="utf-8"))
    if meta.get("schema") != SCHEMA_VERSION:
        raise ValueError("index from another version")
    changed = changed_files(folder, meta)
    if changed:
        raise ValueError(f"missing or truncated: {', '.join(changed[:3])}")
    ix = whoosh_index.open_dir(str(folder))
    # Opening is lazy; a searcher touches the segment files, so damage shows now.
    searcher = ix.searcher()
    if searcher.doc_count_all() != meta.get("docnums", meta["papers"]) \
            or searcher.doc_count() != meta["papers"]:
        searcher.close()
        raise ValueError("paper count does not match")
    return ix, meta, searcher


def changed_files(folder: Path, meta: dict[str, object]) -> list[str]:
    """The index files that are missing or not the size the build wrote them at.

    Whoosh reads a truncated file without noticing until a search reaches the lost
    part; one stat per file (about twenty) catches that before anything is read.
    """
    sizes = meta.get("sizes")
    if not isinstance(sizes, dict) or not sizes:
        return [_META]
    changed = []
    for name, size in sizes.items():
        try:
            st = os.stat(folder / name)
        except OSError:
            changed.append(name)
            continue
        if not stat.S_ISREG(st.st_mode) or st.st_size != size:
            changed.append(name)
    return changed


def _fsync_files(folder: Path) -> None:
    """Flush every file of a built index, then the folder, to disk before it is renamed
    into place: after a crash the folder is then complete or absent, never half there."""
    for path in folder.iterdir():
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    fsync_folder(folder)


def _writable(root: Path) -> bool:
    try:
        _made(root)
        probe = root / f".probe-{os.getpid()}-{_random_hex(6)}"
        probe.write_bytes(b"")
        probe.unlink()
        return True
    except OSError:
        return False


def _remove_stale(root: Path, keep: str) -> None:
    """Remove other fingerprints' folders; processes holding them open keep working."""
    for child in root.iterdir():
        if child.name != keep and child.name.startswith(("ix-", ".tmp-", ".bad-")):
            shutil.rmtree(child, ignore_errors=True)


class BuildRamStorage(RamStorage):
    """An in-memory index whose build keeps its temporary files in folders of its own.

    Whoosh's RamStorage puts a segment's temporary column files in
    `<system temp>/<index name>.tmp`: one folder for every process on the machine. Two
    processes building in memory at once (no writable index folder) then take the
    files from under each other, and a build fails with "seek of closed file".
    """

    def __init__(self) -> None:
        super().__init__()
        self.temp_folders: list[str] = []
        """The folders `temp_storage` made, removed by `remove_temp_folders`."""

    def temp_storage(self, name: str | None = None) -> FileStorage:
        folder = tempfile.mkdtemp(prefix="paperscope-build-")
        self.temp_folders.append(folder)
        return FileStorage(folder).create()

    def remove_temp_folders(self) -> None:
        """Remove what the build left in its temporary folders (the index is in memory)."""
        for folder in self.temp_folders:
            shutil.rmtree(folder, ignore_errors=True)
        self.temp_folders.clear()


def build_into(storage, files: list[Path], progress: Progress | None,
               **reuse: object) -> dict[str, object]:
    """Build (imported here: parsing and rendering cost a search nothing until needed);
    `reuse` is the builder's `keys` and `previous`."""
    from tui.core.index.builder import build_into as build

    return build(storage, files, progress, **reuse)  # type: ignore[arg-type]


def _read_previous(root: Path, name: str) -> Previous | None:
    """The previous index in `root` whose segments a build may take (imported here:
    only a build reads it)."""
    from tui.core.index.reuse import read_previous

    return read_previous(root, name, _META, _reusable)


def _reusable(folder: Path, meta: dict[str, object]) -> bool:
    """Whether a previous index folder's segments may be taken into a new build: the
    same schema and deriving code, and every file the size its build wrote it at."""
    return (meta.get("schema") == SCHEMA_VERSION and meta.get("code") == code_digest()
            and not changed_files(folder, meta))


def _file_vanished(exc: BaseException) -> bool:
    """Whether `exc` comes from a file that was not found (also where Whoosh, cleaning
    up after it, raised another error in its place). Whoosh's EmptyIndexError is one:
    in a folder this build created, it means the table of contents was deleted (a
    segment writer reads it again for each segment it writes)."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, (FileNotFoundError, whoosh_index.EmptyIndexError)):
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or (None if cause.__suppress_context__ else cause.__context__)
    return False


def _build_on_disk(root: Path, name: str, files: list[Path], progress: Progress | None,
                   fp: str, keys: list[FileKey],
                   reuse: bool) -> tuple[Index, dict[str, object], Searcher]:
    """Build into a temporary folder and rename it into place; with `reuse`, the
    unchanged lists' segments are taken from the previous index in `root`."""
    _made(root)
    tmp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=root))
    try:
        previous = _read_previous(root, name) if reuse else None
        meta = build_into(FileStorage(str(tmp)), files, progress, keys=keys,
                          previous=previous)
        meta.update(fingerprint=fp, schema=SCHEMA_VERSION, code=code_digest())
        meta["sizes"] = {p.name: p.stat().st_size for p in sorted(tmp.iterdir())}
        (tmp / _META).write_text(json.dumps(meta), encoding="utf-8")
        _fsync_files(tmp)
        os.rename(tmp, root / name)
    except BaseException as exc:
        # A build whose folder, or a file it wrote, vanished under it failed for that,
        # not for its own sake.
        harmed = isinstance(exc, Exception) and (not tmp.is_dir() or _file_vanished(exc))
        shutil.rmtree(tmp, ignore_errors=True)
        if harmed:
            raise _Harmed(f"{tmp} was deleted while it was built") from exc
        raise
    with contextlib.suppress(OSError):
        fsync_folder(root)
    _remove_stale(root, name)
    _reweigh_later(root / name, meta)
    try:
        return _open_folder(root / name)
    except Exception as exc:  # noqa: BLE001 - the build opened it a moment ago
        with contextlib.suppress(OSError):
            os.rename(root / name, root / f".bad-{_random_hex(8)}")
        raise _Harmed(f"{root / name} was changed as soon as it was built") from exc


def _reweigh_later(folder: Path, meta: dict[str, object]) -> None:
    """Start weighing again the segments a build took over, where enough of them wait
    (imported here: only a build needs it; see `reweigh`)."""
    from tui.core.index import reweigh

    waiting = meta.get("unweighed")
    if isinstance(waiting, int) and waiting >= reweigh.REWEIGH_FROM:
        with contextlib.suppress(OSError):  # the searches weigh them as before
            reweigh.start(folder)


def open_index(files: list[Path], roots: list[Path], progress: Progress | None = None,
               rebuild: bool = False) -> OpenIndex:
    """Open the index of `files`, building it first where needed."""
    fp, keys = _cached_fingerprint(files, roots)
    name = f"ix-{fp}"
    notices: list[str] = []
    # A fresh build when asked for, or when an index was found damaged: a segment
    # linked from another folder shares its files with it.
    reuse = not rebuild
    for root in roots:
        folder = root / name
        if not rebuild and folder.is_dir():
            try:
                ix, meta, searcher = _open_folder(folder)
                return OpenIndex(ix, searcher, folder, meta, notices)
            except Exception:  # noqa: BLE001 - any failure means the folder is unusable
                pass  # rebuilt below, under the lock, if it is still bad there
        if not _writable(root):
            continue
        with _locked(root):
            # Another process may have built it while this one waited for the lock.
            if not rebuild and folder.is_dir():
                try:
                    ix, meta, searcher = _open_folder(folder)
                    return OpenIndex(ix, searcher, folder, meta, notices)
                except Exception:  # noqa: BLE001
                    notices.append(f"index at {folder} was damaged; rebuilding it")
                    reuse = False
                    bad = root / f".bad-{_random_hex(8)}"
                    with contextlib.suppress(OSError):
                        os.rename(folder, bad)
            elif rebuild and folder.is_dir():
                with contextlib.suppress(OSError):
                    os.rename(folder, root / f".bad-{_random_hex(8)}")
            for _ in range(_BUILD_ATTEMPTS):
                try:
                    ix, meta, searcher = _build_on_disk(root, name, files, progress, fp,
                                                          keys, reuse)
                    return OpenIndex(ix, searcher, root / name, meta, notices, built=True)
                except _Harmed:
                    continue  # deleted or truncated by another process meanwhile
                except OSError as exc:
                    notices.append(f"cannot write the index in {root} ({exc.strerror or exc})")
                    break
            else:
                notices.append(f"the index in {root} kept changing while it was built")
    storage = BuildRamStorage()
    try:
        meta = build_into(storage, files, progress)
    finally:
        storage.remove_temp_folders()
    meta.update(fingerprint=fp, schema=SCHEMA_VERSION)
    notices.append("no writable index folder; the index is kept in memory for this run")
    ix = storage.open_index()
    return OpenIndex(ix, ix.searcher(), None, meta, notices, built=True)
