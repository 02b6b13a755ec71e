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


def run_steps(steps):
    """Drive a step generator to its end and return its return value."""
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            return stop.value
