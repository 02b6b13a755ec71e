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
import signal
import threading
from collections.abc import Iterator
from typing import TextIO

from .errors import visible

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
