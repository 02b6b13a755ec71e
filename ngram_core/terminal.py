"""What the command's terminal gets, and how a run ends when the outside stops it.

* Text written to the terminal has its control characters made visible
  (:func:`~ngram_core.errors.visible`): an id holding an escape sequence is shown
  as ``\\x1b]52;…``, never run by the terminal. JSON, CSV and the clean split keep
  the bytes as they are (JSON escapes them itself).
* SIGTERM and SIGHUP become :class:`Stopped`, raised where the run is, so every
  ``finally`` runs (temporary files removed) before the command ends with the
  usual status, 128 + the signal's number; Ctrl-C ends with ``interrupted`` and
  130.
* Standard output that cannot take the result (a closed pipe, a full disk, closed
  outright) ends the run with one line, never a traceback.

    >>> import io
    >>> out = io.StringIO()
    >>> _ = VisibleText(out).write("row \\x1b[8mhidden\\x1b[0m\\n")
    >>> out.getvalue()
    'row \\\\x1b[8mhidden\\\\x1b[0m\\n'
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import TextIO, TypeVar

from .run.check import Progress
from .errors import visible

T = TypeVar("T")

#: The signals a run ends on with its temporaries removed.
STOP_SIGNALS = ("SIGTERM", "SIGHUP")
INTERRUPTED = 130


class Stopped(BaseException):
    """The run was stopped by a signal (see :data:`STOP_SIGNALS`)."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum
        self.name = signal.Signals(signum).name

    @property
    def status(self) -> int:
        return 128 + self.signum


class VisibleText:
    """A text stream whose writes have their control characters made visible."""

    def __init__(self, stream: TextIO):
        self.stream = stream

    def write(self, text: str) -> int:
        return self.stream.write(visible(text))

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()

    def __getattr__(self, name: str):
        return getattr(self.stream, name)


@contextlib.contextmanager
def stop_signals_raise() -> Iterator[None]:
    """While inside, SIGTERM and SIGHUP raise :class:`Stopped` in the main thread (the
    handlers before are put back after); elsewhere than the main thread, nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        raise Stopped(signum)

    before = {}
    for name in STOP_SIGNALS:
        number = getattr(signal, name, None)
        if number is not None:
            before[number] = signal.signal(number, stop)
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


def until_stopped(work: Callable[[], T], err: VisibleText) -> T | int:
    """``work()`` with SIGTERM and SIGHUP raising :class:`Stopped`; a run the outside
    stops ends in one line and its status: ``interrupted`` and 130 for Ctrl-C, 128 + N
    for signal N. Every ``finally`` inside ``work`` has run by then."""
    try:
        with stop_signals_raise():
            return work()
    except KeyboardInterrupt:
        err.write("ngram-overlap: interrupted\n")
        return INTERRUPTED
    except Stopped as e:
        err.write(f"ngram-overlap: stopped by {e.name}\n")
        return e.status


# --- progress, and the result on standard output ---------------------------------

class ProgressBar:
    """Draws a one-line progress bar on a terminal; silent on anything else. While B
    streams: bytes read of all, the rate and the time left."""

    def __init__(self, stream: TextIO | None):
        self.stream = stream if stream is not None and stream.isatty() else None
        self.started = time.monotonic()

    def __call__(self, progress: Progress) -> None:
        if self.stream is not None:
            filled = int(progress.fraction * 30)
            self.stream.write(f"\r[{'#' * filled}{' ' * (30 - filled)}] "
                              f"{progress.fraction:6.1%} {progress.stage:<11}"
                              f"{streaming_line(progress, time.monotonic() - self.started)}")

    def clear(self) -> None:
        if self.stream is not None:
            self.stream.write("\r" + " " * 100 + "\r")


def streaming_line(progress: Progress, seconds: float) -> str:
    """``" 1.2 of 3.0 GB, 9.1 MB/s, 3 min left"`` while B streams (its units are bytes)::

        >>> streaming_line(Progress("stream B", 300 * 10**6, 900 * 10**6), 30.0)
        ' 300.0 of 900.0 MB, 10.0 MB/s, 60 s left'
    """
    if progress.stage != "stream B" or not progress.done or seconds <= 0:
        return ""
    done, total = progress.done, progress.total
    unit, scale = ("GB", 1e9) if total >= 1e9 else ("MB", 1e6)
    rate = done / seconds
    left = (total - done) / rate
    when = f"{left:.0f} s" if left < 90 else f"{left / 60:.0f} min"
    return f" {done / scale:.1f} of {total / scale:.1f} {unit}, {rate / 1e6:.1f} MB/s, {when} left"


#: The status of a result whose reader closed the pipe (as a process killed by SIGPIPE).
CLOSED_PIPE = 141


def write_result(out, text: str, stderr: VisibleText, own_stdout: bool) -> int:
    """The report on standard output: a closed pipe ends quietly (as ``head`` expects),
    any other failure (a full disk) in one line. ``own_stdout``: ``out`` is the
    process's standard output (silenced after a failure)."""
    try:
        out.write(text)
        out.flush()
    except BrokenPipeError:
        if own_stdout:
            silence_stdout()
        return CLOSED_PIPE
    except OSError as e:
        if own_stdout:
            silence_stdout()
        stderr.write(f"ngram-overlap: standard output: cannot be written: {e.strerror or e}\n")
        return 2
    return 0


def silence_stdout() -> None:
    """Point the process's stdout at /dev/null, so Python's flush at exit does not fail
    again on what could not be written."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, AttributeError, ValueError):
        pass


def tolerant(stream: TextIO) -> TextIO:
    """The process's own stdout or stderr, made to escape what it cannot encode
    (a strict UTF-8 terminal and a name that is not UTF-8) rather than fail."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="backslashreplace")
    return stream
