"""A student's upload, looked at and copied without trusting it.

An upload is whatever a stranger handed in: a file, or a folder as a zip unpacks it. Before the
grader reads a byte of it, :func:`inspect_upload` lists it without following anything:

* only regular files are taken; a symbolic link is not followed (it could point at a file only
  the grader may read, or at ``/dev/zero``), and a named pipe, a device or a socket is refused
  by name, each with one line saying what it is;
* a file over :data:`MAX_FILE_BYTES` is refused (a classic ``multiAgents.py`` is about 15 kB);
  so are files past :data:`MAX_FILES` and folders nested deeper than :data:`MAX_DEPTH`;
* version-control folders, virtual environments and compiled files are left out silently.

Every read goes through :func:`read_regular`, which opens without following a link and without
blocking, checks on the open file that it is a regular file of at most the cap, and reads at most
that much; so a file swapped for a pipe after the listing is still never waited on.
:func:`stage` copies the accepted files into a folder given to the worker's user alone
(folders ``0500``, files ``0400``, owned by that user).
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pacman.errors import PacmanError

#: Largest file of an upload that is read (bytes).
MAX_FILE_BYTES = 1_000_000
#: Most files of an upload that are taken.
MAX_FILES = 2000
#: Deepest folder of an upload that is looked into (the upload's own folder is 0).
MAX_DEPTH = 8
#: Names left out without a word: version control, environments, compiled files.
SKIPPED = frozenset({".git", ".hg", ".svn", "__pycache__", ".venv", "venv", ".DS_Store",
                     "__MACOSX"})
_OPEN_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)
_DIR_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_DIRECTORY", 0)


class UploadRefused(PacmanError, OSError):
    """A file of an upload that is not read; the message says what it is (an ``OSError`` too:
    callers that cannot read a file treat it as one they could not open)."""


@dataclass(frozen=True)
class Upload:
    """An upload's ``root`` (a file or folder), its regular ``files`` (paths relative to the
    root; ``"."`` for a single file) and one line per entry it refused (``refused``)."""

    root: Path
    files: tuple[str, ...]
    refused: tuple[str, ...]

    def taken(self, path: Path) -> bool:
        """Whether ``path`` (inside the root, not resolved) is one of the accepted files."""
        if path == self.root:
            return self.files == (".",)
        try:
            relative = path.relative_to(self.root).as_posix()
        except ValueError:
            return False
        return relative in self.files

    def reason(self, path: Path) -> str | None:
        """The refusal line of ``path``, if it was refused."""
        try:
            relative = "." if path == self.root else path.relative_to(self.root).as_posix()
        except ValueError:
            return None
        name = self.root.name if relative == "." else relative
        return next((line for line in self.refused if line.startswith(f"{name}: ")), None)


def kind_of(mode: int) -> str | None:
    """What a file that is not a regular file or folder is (``None`` for those two)."""
    if stat.S_ISLNK(mode):
        return "a symbolic link (not followed)"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO), not a file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device, not a file"
    if stat.S_ISSOCK(mode):
        return "a socket, not a file"
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return "not a regular file"


def inspect_upload(root: Path) -> Upload:
    """List ``root`` (see the module docstring). ``root`` itself is the instructor's path and
    is taken as given (a link to it is followed); nothing inside it is. Raises ``OSError``
    only when ``root`` itself cannot be looked at."""
    root = Path(os.path.abspath(root))
    mode = os.stat(root).st_mode
    if not stat.S_ISDIR(mode):
        what = kind_of(mode)
        if what is None and os.stat(root).st_size > MAX_FILE_BYTES:
            what = _too_big(os.stat(root).st_size)
        return Upload(root, () if what else (".",), (f"{root.name}: {what}",) if what else ())
    files: list[str] = []
    refused: list[str] = []
    fd = os.open(root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        _walk(fd, "", 0, files, refused)
    finally:
        os.close(fd)
    return Upload(root, tuple(files), tuple(refused))


def _walk(dir_fd: int, prefix: str, depth: int, files: list[str], refused: list[str]) -> None:
    with os.scandir(dir_fd) as listing:
        names = sorted(entry.name for entry in listing)
    for name in names:
        if name in SKIPPED or name.endswith((".pyc", ".pyo")):
            continue
        relative = prefix + name
        try:
            info = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        except OSError as error:
            refused.append(f"{relative}: unreadable ({error.strerror or error})")
            continue
        what = kind_of(info.st_mode)
        if what is not None:
            refused.append(f"{relative}: {what}")
        elif stat.S_ISDIR(info.st_mode):
            if depth + 1 > MAX_DEPTH:
                refused.append(f"{relative}: nested more than {MAX_DEPTH} folders deep")
                continue
            try:
                child = os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
            except OSError as error:
                refused.append(f"{relative}: unreadable ({error.strerror or error})")
                continue
            try:
                _walk(child, relative + "/", depth + 1, files, refused)
            finally:
                os.close(child)
        elif info.st_size > MAX_FILE_BYTES:
            refused.append(f"{relative}: {_too_big(info.st_size)}")
        elif len(files) >= MAX_FILES:
            refused.append(f"{relative}: more than {MAX_FILES} files in the upload")
        else:
            files.append(relative)


def _too_big(size: int) -> str:
    return f"{size:,} bytes, over the cap of {MAX_FILE_BYTES:,} bytes per file"


@contextlib.contextmanager
def _opened(path: Path) -> Iterator[int]:
    """A file descriptor of ``path`` opened without following a link in its last component
    and without blocking; raises :class:`UploadRefused` for anything but a regular file."""
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as error:
        if os.path.islink(path):
            raise UploadRefused(f"{path.name}: a symbolic link (not followed)") from None
        raise error
    try:
        info = os.fstat(fd)
        what = kind_of(info.st_mode)
        if what is None and stat.S_ISDIR(info.st_mode):
            what = "a folder, not a file"
        if what is not None:
            raise UploadRefused(f"{path.name}: {what}")
        if info.st_size > MAX_FILE_BYTES:
            raise UploadRefused(f"{path.name}: {_too_big(info.st_size)}")
        yield fd
    finally:
        os.close(fd)


def read_regular(path: Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them (see the module
    docstring). Raises :class:`UploadRefused` (an ``OSError``) for a link, a pipe, a device, a
    socket or a file over :data:`MAX_FILE_BYTES`, and ``OSError`` when it cannot be read."""
    with _opened(path) as fd:
        chunks, left = [], min(limit, MAX_FILE_BYTES)
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 16))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)


def stage(upload: Upload, destination: Path, owner: tuple[int, int] | None) -> Path:
    """Copy the accepted files of ``upload`` to ``destination / upload.root.name`` (the
    copy of a single file is that file), owned by ``owner`` (``(uid, gid)``; ``None``: left to
    the caller's user) and readable by that user alone; returns the copy's path. A file that
    stopped being a regular file since :func:`inspect_upload` is left out."""
    target = destination / upload.root.name
    if upload.files == (".",):
        _copy(upload.root, target, owner)
        return target
    target.mkdir()
    folders = {target}
    for relative in upload.files:
        source, copy = upload.root / relative, target / relative
        for parent in reversed(copy.relative_to(target).parents[:-1]):
            folder = target / parent
            if folder not in folders:
                folder.mkdir()
                folders.add(folder)
        if not _safe_parents(upload.root, relative):
            continue
        with contextlib.suppress(OSError):
            _copy(source, copy, owner)
    for folder in sorted(folders, key=lambda p: len(p.parts), reverse=True):
        if owner is not None:
            os.chown(folder, *owner)
        os.chmod(folder, 0o500)
    return target


def _safe_parents(root: Path, relative: str) -> bool:
    """Whether no folder between ``root`` and the file ``relative`` is a link (now)."""
    current = root
    for part in Path(relative).parts[:-1]:
        current = current / part
        if not stat.S_ISDIR(os.lstat(current).st_mode):
            return False
    return True


def _copy(source: Path, copy: Path, owner: tuple[int, int] | None) -> None:
    data = read_regular(source)
    fd = os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with open(fd, "wb") as handle:
        handle.write(data)
        if owner is not None:
            os.fchown(fd, *owner)
        os.fchmod(fd, 0o400)
