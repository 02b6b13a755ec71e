"""Progress for the library's calls, only when asked (``progress=``): the engine's
steps (tokenizing, indexing, matching, streaming the training data) and the reading
of each input, as a tqdm bar when tqdm is installed, else lines on stderr; or any
callable, given each step's report (``stage``, ``done``, ``total``, ``fraction``
from 0 to 1)::

    >>> import io
    >>> lines = Lines(io.StringIO())
    >>> lines(Reading("read test")); lines(Reading("read train")); lines.close()
    >>> print(lines.stream.getvalue(), end="")
    ngram-overlap: read test
    ngram-overlap: read train
    ngram-overlap: done
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, NamedTuple, TextIO


class Reading(NamedTuple):
    """A step with no measure of its own: an input being read."""
    stage: str
    done: int = 0
    total: int = 0
    fraction: float = 0.0


class Lines:
    """Progress as lines: one when a stage starts, one at each further tenth of the
    run, one at the end."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.stage = ""
        self.tenth = -1

    def __call__(self, progress: Any) -> None:
        fraction = _fraction(progress)
        tenth = int(fraction * 10)
        if progress.stage != self.stage or tenth > self.tenth:
            shown = f" {fraction:6.1%}" if not isinstance(progress, Reading) else ""
            self.stream.write(f"ngram-overlap: {progress.stage}{shown}\n")
            self.stream.flush()
            self.stage, self.tenth = progress.stage, max(tenth, self.tenth)

    def close(self) -> None:
        self.stream.write("ngram-overlap: done\n")
        self.stream.flush()


class Bar:
    """Progress as a tqdm bar, in percent of the run."""

    def __init__(self, tqdm: Any) -> None:
        self.bar = tqdm(total=100, unit="%", desc="ngram-overlap", leave=False)

    def __call__(self, progress: Any) -> None:
        self.bar.set_description(f"ngram-overlap: {progress.stage}", refresh=False)
        self.bar.update(max(0, int(_fraction(progress) * 100) - self.bar.n))

    def close(self) -> None:
        self.bar.update(100 - self.bar.n)
        self.bar.close()


class _Callback:
    def __init__(self, function: Callable[[Any], Any]) -> None:
        self.function = function

    def __call__(self, progress: Any) -> None:
        self.function(progress)

    def close(self) -> None:
        pass


def _fraction(progress: Any) -> float:
    try:
        return float(progress.fraction)
    except (AttributeError, KeyError):
        return 0.0


Reporter = Lines | Bar | _Callback


def reporter(progress: bool | Callable[[Any], Any] | None) -> Reporter | None:
    """What ``progress=`` asks for: None (silent), True (a tqdm bar when tqdm is
    installed, else lines on stderr) or a callable given each step's report."""
    if not progress:
        return None
    if callable(progress):
        return _Callback(progress)
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return Lines()
    return Bar(tqdm)
