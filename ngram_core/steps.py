"""Resumable work: every stage is a generator that yields progress and returns its result.

A *step generator* yields a progress value after each short step and returns
its result. :class:`Steps` is the one driver: iterate it for the progress
values, then read ``.result``. The page iterates it itself, giving the
browser a turn between steps; everyone else calls :func:`run_steps`, with an
optional progress callback::

    >>> def count_to(n):
    ...     for i in range(n):
    ...         yield i
    ...     return "done"
    >>> seen = []
    >>> run_steps(count_to(3), seen.append), seen
    ('done', [0, 1, 2])
    >>> run = Steps(count_to(2))
    >>> [p for p in run], run.result
    ([0, 1], 'done')
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from time import perf_counter
from typing import Any, Generic, TypeVar

P = TypeVar("P")
Q = TypeVar("Q")
R = TypeVar("R")

#: A generator that yields progress values of type P and returns an R.
StepGenerator = Generator[P, None, R]


class Steps(Generic[P, R]):
    """Drive a step generator: iterating yields its progress, ``result`` holds its return value.

    ``result`` is set once the iteration has run to the end; stopping early
    (a cancelled run) leaves it ``None``.
    """

    def __init__(self, steps: Generator[P, Any, R]):
        self._steps = steps
        self.result: R | None = None

    def __iter__(self) -> Iterator[P]:
        self.result = yield from self._steps


def run_steps(steps: Generator[P, Any, R], on_progress: Callable[[P], object] | None = None) -> R:
    """Drive a step generator to its end, calling ``on_progress`` with each value; return its result."""
    run = Steps(steps)
    for progress in run:
        if on_progress is not None:
            on_progress(progress)
    return run.result  # type: ignore[return-value]   # set: the iteration ran to its end


def relabel(steps: Generator[P, Any, R], label: Callable[[P], Q]) -> Generator[Q, None, R]:
    """Re-yield a step generator's progress as ``label(progress)``; pass its result through.

    >>> def two():
    ...     yield 1
    ...     yield 2
    ...     return "r"
    >>> run_steps(relabel(two(), lambda p: p * 10), print)
    10
    20
    'r'
    """
    run = Steps(steps)
    for progress in run:
        yield label(progress)
    return run.result  # type: ignore[return-value]


def release_steps(containers: list, chunk: int = 4096):
    """Empty sets and dicts a chunk at a time, yielding the items let go so far.

    Freeing half a million objects in one go holds a browser tab for about
    0.1 s; popping them in paced chunks spreads that over several steps::

        >>> big, index = set(range(10_000)), dict.fromkeys(range(5_000))
        >>> run_steps(release_steps([big, index])), big, index
        (15000, set(), {})
    """
    pacer = Pacer()
    total = sum(len(container) for container in containers)
    released = 0
    for container in containers:
        pop = container.pop if isinstance(container, set) else container.popitem
        while container:
            count = min(chunk, len(container))
            for _ in range(count):
                pop()
            released += count
            if pacer.due():
                yield released
    return total


class Abandoned(Exception):
    """Thrown into a step generator whose result is no longer wanted (a cancelled run).

    A generator that holds large containers catches it, lets them go with
    :func:`release_steps` (still yielding, so the freeing is paced too) and
    raises it again; any other generator just ends. See :func:`abandon_steps`.
    """


def abandon_steps(steps: Generator[Any, Any, Any]):
    """End a step generator that was stopped at a yield: throw :class:`Abandoned`
    into it and re-yield what it yields while letting its state go.

    Closing it instead would free everything it built in one go (a quarter
    of a second of a browser tab for the definitions of a 2 MB pair)::

        >>> def holding():
        ...     big = set(range(10_000))
        ...     try:
        ...         yield "working"
        ...         yield "still working"
        ...     except Abandoned:
        ...         yield from release_steps([big])
        ...         raise
        >>> work = holding()
        >>> next(work)
        'working'
        >>> run_steps(abandon_steps(work)), work.gi_frame is None
        (None, True)
    """
    try:
        progress = steps.throw(Abandoned())
        while True:
            yield progress
            progress = next(steps)
    except (Abandoned, StopIteration):
        return


def stage_fraction(spans: dict[str, tuple[float, float]], stage: str, done: int,
                   total: int) -> float:
    """Overall progress from 0 to 1 of a run whose stages take ``spans[stage] =
    (start, weight)`` of it: ``stage_fraction({"a": (0.5, 0.5)}, "a", 1, 2)`` is 0.75."""
    start, weight = spans[stage]
    part = done / total if total else 1.0
    return start + weight * min(part, 1.0)


class Pacer:
    """Tells a step generator when it has run long enough to yield.

    Yielding on elapsed time rather than on a count of work keeps every step
    short whatever the input's shape (one 2 MB row or 200,000 tiny ones) and
    whatever the machine's speed. Results never depend on where steps end.
    """

    def __init__(self, seconds: float = 0.008):
        self.seconds = seconds
        self._next = perf_counter() + seconds

    def due(self) -> bool:
        now = perf_counter()
        if now >= self._next:
            self._next = now + self.seconds
            return True
        return False
