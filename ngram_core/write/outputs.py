"""The files a run writes: checked before any work, then written together or not at all.

The rules, for every output flag of the command (``--csv``, ``--rows-csv``,
``--clean-out``, ``--dirty-out``):

* an output that is an input of the run (the same file, through any link or
  name) is refused before any work, and so are two outputs on one path;
* a symbolic link is followed: its target is replaced, the link kept;
* a character device, a FIFO or a socket (``/dev/stdout``, ``/dev/fd/N``,
  ``>(gzip > out.gz)``) is written to, never replaced, and must be writable up
  front; a path naming one of the run's open file descriptors (``/dev/stdout``,
  ``/dev/stderr``, ``/dev/fd/N``, ``/proc/self/fd/N``) is written through that
  descriptor, whatever it is open on, and one not open is refused;
* every other output is tried before the work: a file is made in its folder and
  removed, so a path that cannot be written is refused up front, never after;
* a new file gets the mode the umask leaves (``0666 & ~umask``), an existing
  file keeps its own;
* every regular output is first written whole beside its target; only once all
  of them are is each moved into place, the old file kept aside until the last
  one is in. When one cannot be placed, those already placed are taken back and
  the old files stay: a full disk leaves no mix of two runs' outputs. Streams
  are written last. An interruption at any point leaves no temporary file.

    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> given = os.path.join(folder, "train.jsonl")
    >>> open(given, "w").close()
    >>> plan_outputs([("--csv", given)], inputs=[given])
    Traceback (most recent call last):
    ...
    ngram_core.errors.InputError: ...train.jsonl: is an input of this run; --csv never replaces an input
"""

from __future__ import annotations

import os
import secrets
import stat
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import BinaryIO, NamedTuple, Union

from ..errors import InputError, shown
from ..read.files import file_identity

TEMPORARY_PREFIX = ".ngram-overlap-"


class Output(NamedTuple):
    """One output of a run: its flag, the path as given, the file written (a link's
    target, resolved) and whether it is a stream (written to, not replaced); ``fd``:
    the open descriptor the path names (``/dev/fd/N``), written through, or None."""
    flag: str
    path: str
    target: str
    stream: bool
    fd: int | None = None


#: Paths that name a descriptor of the process itself, and the descriptor.
_FD_NAMES = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}
_FD_FOLDERS = ("/dev/fd/", "/proc/self/fd/")


def descriptor_named(path: str) -> int | None:
    """The descriptor a path such as ``/dev/fd/63`` or ``/dev/stdout`` names (a
    shell's process substitution, ``>(gzip > out.gz)``, is one); None for any other
    path. Such a path resolves to no file (``/proc/…/fd/pipe:[…]``), so it is written
    through the descriptor.

    >>> descriptor_named("/dev/fd/63"), descriptor_named("/dev/stdout"), descriptor_named("out.csv")
    (63, 1, None)
    """
    if path in _FD_NAMES:
        return _FD_NAMES[path]
    for folder in _FD_FOLDERS + (f"/proc/{os.getpid()}/fd/",):       # pid: now, not at import
        if path.startswith(folder) and path[len(folder):].isdigit():
            return int(path[len(folder):])
    return None


def plan_outputs(asked: Sequence[tuple[str, str]], inputs: Sequence[str]) -> list[Output]:
    """Check every ``(flag, path)`` asked for before the work starts (see the module's
    rules) and return what will be written; an :class:`~ngram_core.errors.InputError`
    names the first path refused."""
    input_ids = {i for i in map(file_identity, inputs) if i is not None}
    planned: list[Output] = []
    seen: dict[object, str] = {}
    for flag, path in asked:
        fd = descriptor_named(path)
        if fd is not None:
            planned.append(_descriptor_output(flag, path, fd, input_ids, seen))
            continue
        target = os.path.realpath(path)
        identity = file_identity(target)
        if identity is not None and identity in input_ids:
            raise InputError(path, f"is an input of this run; {flag} never replaces an input")
        key = identity or target
        if key in seen:
            raise InputError(path, f"is named by both {seen[key]} and {flag}: one file cannot "
                                   f"hold two outputs")
        seen[key] = flag
        mode = os.stat(target).st_mode if identity is not None else None
        if mode is not None and stat.S_ISDIR(mode):
            raise InputError(path, f"is a folder; {flag} needs a file name")
        if mode is not None and (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)
                                 or stat.S_ISSOCK(mode)):
            if not os.access(target, os.W_OK):
                raise InputError(path, "cannot be written: permission denied")
            planned.append(Output(flag, path, target, True))
            continue
        folder = os.path.dirname(target)
        if not os.path.isdir(folder):
            named = os.path.dirname(os.path.abspath(path))
            if os.path.exists(folder):       # a file where the folder would be
                raise InputError(path, f"cannot be written: {shown(named)!r} is a file, "
                                       f"not a folder")
            raise InputError(path, f"cannot be written: no folder {shown(named)!r}")
        if not os.access(folder, os.W_OK | os.X_OK) or \
                (identity is not None and not os.access(target, os.W_OK)):
            raise InputError(path, "cannot be written: permission denied")
        _try_folder(path, folder)
        planned.append(Output(flag, path, target, False))
    return planned


def _descriptor_output(flag: str, path: str, fd: int, input_ids: set[tuple[int, int]],
                       seen: dict[object, str]) -> Output:
    """The output of a path naming descriptor ``fd``: open for writing, or refused."""
    try:
        st = os.fstat(fd)
    except OSError:
        raise InputError(path, f"cannot be written: descriptor {fd} is not open") from None
    if _access_mode(fd) == os.O_RDONLY:
        raise InputError(path, f"cannot be written: descriptor {fd} is open for reading only")
    identity = (st.st_dev, st.st_ino)
    if stat.S_ISREG(st.st_mode) and identity in input_ids:
        raise InputError(path, f"is an input of this run; {flag} never replaces an input")
    key = ("fd", fd)
    if key in seen:
        raise InputError(path, f"is named by both {seen[key]} and {flag}: one file cannot "
                               f"hold two outputs")
    seen[key] = flag
    return Output(flag, path, path, True, fd)


def _access_mode(fd: int) -> int | None:
    """How ``fd`` is open (``os.O_RDONLY``, ``os.O_WRONLY``, ``os.O_RDWR``); None
    where that cannot be asked."""
    try:
        import fcntl
        return fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE
    except (ImportError, OSError):
        return None


def _try_folder(path: str, folder: str) -> None:
    """A file made in ``folder`` and removed at once: what cannot be made now (a
    read-only disk, a folder of the kernel's such as ``/proc/…/fd``) is refused
    before the work."""
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=TEMPORARY_PREFIX, suffix=".part")
    except OSError as e:
        raise _written(path, e) from None
    os.close(fd)
    unlink_quietly(probe)


def _new_file_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def unlink_quietly(path: str | None) -> None:
    """Remove a file if it is there (None: nothing); a failure is no error (cleaning up)."""
    if path is None:
        return
    try:
        os.unlink(path)
    except OSError:
        pass


def _written(path: str, e: OSError) -> InputError:
    return InputError(path, f"cannot be written: {e.strerror or e}")


#: What an output holds: its bytes, or a function writing them into an open file (a
#: cleaned training file of any size, streamed).
Content = Union[bytes, Callable[[BinaryIO], None]]


def write_outputs(outputs: Sequence[Output], data: Mapping[str, Content]) -> None:
    """Write ``data[flag]`` to each output, all of them or none (see the module's rules)."""
    files = [o for o in outputs if not o.stream]
    temporaries: dict[str, str] = {}
    kept_aside: list[tuple[Output, str | None]] = []       # placed, and the old file's copy
    try:
        for o in files:                                    # 1. each written whole beside
            _write_beside(o, data[o.flag], temporaries)
        try:                                               # 2. each moved into place
            for o in files:
                old = _aside(o)
                try:
                    os.replace(temporaries[o.flag], o.target)
                except BaseException as e:
                    unlink_quietly(old)
                    if isinstance(e, OSError):
                        raise _written(o.path, e) from None
                    raise
                del temporaries[o.flag]
                kept_aside.append((o, old))
        except BaseException:
            for o, old in reversed(kept_aside):            # taken back: the old files stay
                try:
                    if old is None:
                        os.unlink(o.target)
                    else:
                        os.replace(old, o.target)
                except OSError:
                    pass
            kept_aside.clear()
            raise
        for o in outputs:                                  # 3. streams, last
            if o.stream:
                _write_stream(o, data[o.flag])
    finally:
        for temporary in temporaries.values():
            unlink_quietly(temporary)
        for _, old in kept_aside:
            unlink_quietly(old)


def _write_beside(o: Output, data: Content, temporaries: dict[str, str]) -> None:
    """``data`` in a new temporary file in the target's folder, with the mode the
    target will have, named in ``temporaries[o.flag]`` as soon as it exists (so an
    interruption at any point leaves it to be removed)."""
    folder = os.path.dirname(o.target)
    try:
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=TEMPORARY_PREFIX, suffix=".part")
    except OSError as e:
        raise _written(o.path, e) from None
    temporaries[o.flag] = temporary
    try:
        with os.fdopen(fd, "wb") as f:
            _put(f, data)
            try:
                mode = stat.S_IMODE(os.stat(o.target).st_mode)
            except OSError:
                mode = _new_file_mode()
            os.fchmod(f.fileno(), mode)
    except OSError as e:
        raise _written(o.path, e) from None


def _aside(o: Output) -> str | None:
    """A second name for the file now at ``o.target`` (a hard link, so the target is
    never missing), to put it back if a later output fails; None: no file there."""
    if not os.path.lexists(o.target):
        return None
    folder = os.path.dirname(o.target)
    for _ in range(100):
        old = os.path.join(folder, f"{TEMPORARY_PREFIX}{secrets.token_hex(6)}.old")
        try:
            os.link(o.target, old)
        except FileExistsError:
            continue
        except OSError:
            return None          # no hard links here: the old file cannot be taken back
        return old
    return None


def _put(f: BinaryIO, data: Content) -> None:
    if isinstance(data, bytes):
        f.write(data)
    else:
        data(f)


def _write_stream(o: Output, data: Content) -> None:
    """Write to a device, FIFO or socket as it is, never replacing it (a named
    descriptor: through a copy of it, so the position it is at is kept)."""
    try:
        fd = os.dup(o.fd) if o.fd is not None else os.open(o.target, os.O_WRONLY)
        with os.fdopen(fd, "wb") as f:
            _put(f, data)
    except OSError as e:
        raise _written(o.path, e) from None


def write_output(path: str, data: bytes) -> None:
    """One file written whole: :func:`write_outputs` of a single output."""
    write_outputs(plan_outputs([("output", path)], ()), {"output": data})


# --- a folder of outputs ---------------------------------------------------------------

class FolderPlan(NamedTuple):
    """The outputs of a run written into one folder (``decontaminate --out``): each
    checked (:func:`plan_outputs`), the folders made for them (removed again, when
    empty, if the run ends without writing), and the files an earlier run wrote
    there that this run does not (removed once this run's outputs are placed)."""
    folder: str
    outputs: list[Output]
    made: list[str]
    stale: list[str]


def plan_folder(folder: str, names: Sequence[str], inputs: Sequence[str],
                earlier: Sequence[str] = ()) -> FolderPlan:
    """Plan writing ``names`` (``/``-separated, below ``folder``), before any work.

    After the run the folder holds exactly this run's outputs: a file there that an
    earlier run wrote (``earlier``, names below the folder) and this one does not is
    removed once the new outputs are placed; a file no earlier run wrote (nor this
    one) is refused now, naming it, so nothing of the person's is removed or mixed
    with a run's outputs. A file being written by a run beside it
    (:data:`TEMPORARY_PREFIX`) is passed over.

        >>> import tempfile
        >>> folder = tempfile.mkdtemp()
        >>> for name in ("old.jsonl", "notes.txt"):
        ...     open(os.path.join(folder, name), "w").close()
        >>> plan_folder(folder, ["new.jsonl"], (), earlier=["old.jsonl"])
        Traceback (most recent call last):
        ...
        ngram_core.errors.InputError: ...: holds a file no run wrote there (notes.txt): give an empty or new folder, so that it holds only what this run writes
        >>> os.remove(os.path.join(folder, "notes.txt"))
        >>> [os.path.basename(p) for p in plan_folder(folder, ["new.jsonl"], (), ["old.jsonl"]).stale]
        ['old.jsonl']
    """
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise InputError(folder, "is not a folder: --out names the folder written into")
    present = _files_below(folder)
    ours, before = set(names), set(earlier)
    unknown = sorted(name for name in present if name not in ours and name not in before)
    if unknown:
        listed = ", ".join(unknown[:3]) + (f" and {len(unknown) - 3:,} more" if len(unknown) > 3
                                           else "")
        raise InputError(folder, f"holds {'a file' if len(unknown) == 1 else 'files'} no run "
                                 f"wrote there ({listed}): give an empty or new folder, so "
                                 f"that it holds only what this run writes")
    stale = [os.path.join(folder, *name.split("/")) for name in sorted(present)
             if name in before and name not in ours]
    paths = [os.path.join(folder, *name.split("/")) for name in names]
    made: list[str] = []
    for parent in dict.fromkeys(os.path.dirname(path) for path in paths):
        missing = []
        while parent and not os.path.isdir(parent):
            missing.append(parent)
            parent = os.path.dirname(parent)
        for path in reversed(missing):
            try:
                os.makedirs(path, exist_ok=True)
            except OSError as e:          # under a file, on a read-only or virtual system
                remove_empty(made)
                raise InputError(folder, f"cannot be written: {_folder_refusal(path, e)}") \
                    from None
            made.append(path)
    try:
        outputs = plan_outputs(list(zip(names, paths)), inputs=inputs)
    except BaseException:
        remove_empty(made)
        raise
    return FolderPlan(folder, outputs, made, stale)


def _folder_refusal(path: str, error: OSError) -> str:
    """Why folder ``path`` could not be made, in words (the first part of it that is a
    file, else the system's reason)::

        >>> import tempfile
        >>> with tempfile.NamedTemporaryFile() as f:
        ...     _folder_refusal(os.path.join(f.name, "sub"), FileExistsError()) == (
        ...         f"{shown(f.name)!r} is a file, not a folder")
        True
    """
    part = os.path.dirname(path)
    while part and not os.path.exists(part):
        part = os.path.dirname(part)
    if part and not os.path.isdir(part):
        return f"{shown(part)!r} is a file, not a folder"
    if os.path.exists(path) and not os.path.isdir(path):
        return f"{shown(path)!r} is a file, not a folder"
    reason = error.strerror or type(error).__name__
    return f"the folder {shown(path)!r} cannot be made ({reason.lower()})"


def _files_below(folder: str) -> list[str]:
    """The files below ``folder`` as ``/``-separated names, a run's own temporary files
    and folders passed over."""
    found = []
    for top, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(TEMPORARY_PREFIX)]
        for name in files:
            if not name.startswith(TEMPORARY_PREFIX):
                found.append(os.path.relpath(os.path.join(top, name), folder)
                             .replace(os.sep, "/"))
    return found


def write_folder(plan: FolderPlan, data: Mapping[str, Content]) -> None:
    """Write the planned outputs (all of them or none, :func:`write_outputs`), then
    remove an earlier run's files this run does not write, and the folders that
    leaves empty."""
    try:
        write_outputs(plan.outputs, data)
    except BaseException:
        remove_empty(plan.made)
        raise
    emptied = set()
    top = os.path.normpath(plan.folder)
    for path in plan.stale:
        unlink_quietly(path)
        parent = os.path.dirname(path)
        while parent and os.path.normpath(parent) != top and len(parent) > len(top):
            emptied.add(parent)
            parent = os.path.dirname(parent)
    remove_empty(sorted(emptied))


def remove_empty(folders: Sequence[str]) -> None:
    """Remove each of ``folders`` that is empty, deepest first (so a folder whose
    only content was an emptied folder goes too)."""
    for folder in sorted(folders, key=len, reverse=True):
        try:
            os.rmdir(folder)
        except OSError:
            pass


@contextmanager
def made_folders_kept_tidy(plan: FolderPlan | None) -> Iterator[None]:
    """A run that ends before its outputs are written leaves no folder its plan made."""
    try:
        yield
    except BaseException:
        if plan is not None:
            remove_empty(plan.made)
        raise
