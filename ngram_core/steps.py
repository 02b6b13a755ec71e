"""Resumable work: every stage is a generator that yields progress and returns its result.

A caller that must stay responsive (the page) resumes the generator a step at
a time and may stop early; everyone else calls :func:`run_steps`::

    >>> def count_to(n):
    ...     for i in range(n):
    ...         yield i
    ...     return "done"
    >>> run_steps(count_to(3))
    'done'
"""

from time import perf_counter


def run_steps(steps):
    """Drive a step generator to its end and return its return value."""
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            return stop.value


class Pacer:
    """Tells a step generator when it has run long enough to yield.

    Yielding on elapsed time rather than on a count of work keeps every step
    short whatever the input's shape (one 2 MB row or 200,000 tiny ones) and
    whatever the machine's speed. Results never depend on where steps end.
    """

    def __init__(self, seconds: float = 0.015):
        self.seconds = seconds
        self._next = perf_counter() + seconds

    def due(self) -> bool:
        now = perf_counter()
        if now >= self._next:
            self._next = now + self.seconds
            return True
        return False
