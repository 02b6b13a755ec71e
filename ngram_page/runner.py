"""Running the page's work on the main thread without freezing the tab.

The engine's stages are step generators; :meth:`Runner.drive` iterates one
and gives the browser a turn (``await asyncio.sleep(0)``) whenever Python
has held the thread for STEP_SECONDS.
A change is debounced, and a new run cancels the one in progress. The runner
also keeps the longest stretch Python held the thread, which the browser
benchmark reads from the body's ``data-timing``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time

from ngram_core.steps import abandon_steps

from .dom import log_error, mark, show_page_error
from .text import timing_line

STEP_SECONDS = 0.016           # give the browser a turn at least this often
DEBOUNCE_SECONDS = 0.15
#: A turn is ``asyncio.sleep(0)``, which Pyodide runs as a posted message: with
#: input arriving, Chromium ran those ahead of timers for 0.6 s at a time, which
#: held back the page's own timers (the debounce of a changed control). So at
#: least this often the turn is a short sleep, which Pyodide runs as a timer.
TIMERS_SECONDS = 0.1
TIMER_TURN = 0.003             # more than Pyodide's 2 ms: a setTimeout


@contextlib.contextmanager
def collection_paused():
    """No garbage collection while reading or checking, then freeze what survived.

    A full collection over a few hundred thousand rows takes longer than the
    tab may stall. Frozen objects are skipped by later collections; reference
    counting still frees them when the page lets go of them.
    """
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


def spawn(coroutine):
    """Run a coroutine as a task; an unexpected error is shown on the page, not lost."""
    task = asyncio.ensure_future(coroutine)

    def done(finished):
        if finished.cancelled():
            return
        error = finished.exception()
        if error is not None:
            show_page_error(f"Something went wrong: {type(error).__name__}: {error}. "
                            f"The last valid result is still shown.")
            log_error(str(error))

    task.add_done_callback(done)
    return task


class Runner:
    """The run in progress, the debounce timer, and the clock of Python's turns."""

    def __init__(self):
        self.resumed = time.perf_counter()   # when Python last took the thread back
        self.timers_ran = self.resumed       # when the last turn went through a timer
        self.longest = (0.0, "")             # the longest stretch held, and where
        self.task = None                     # the run in progress
        self.pending = None                  # the debounce timer

    def restart(self) -> float:
        """Start timing new work from now; returns the time."""
        self.resumed = time.perf_counter()
        self.longest = (0.0, "")
        return self.resumed

    async def breathe(self, where: str) -> None:
        """Give the browser a turn, noting the longest stretch Python held the thread."""
        held = time.perf_counter() - self.resumed
        if held > self.longest[0]:
            self.longest = (held, where)
        if self.resumed - self.timers_ran >= TIMERS_SECONDS:
            await asyncio.sleep(TIMER_TURN)
            self.timers_ran = time.perf_counter()
        else:
            await asyncio.sleep(0)
        self.resumed = time.perf_counter()

    async def turn(self, where: str) -> None:
        """Breathe if Python has held the thread for STEP_SECONDS already."""
        if time.perf_counter() - self.resumed >= STEP_SECONDS:
            await self.breathe(where)

    async def drive(self, steps, show=None):
        """Run a step generator to its end, giving the browser a turn every STEP_SECONDS.

        ``show(progress)`` is called before each such turn. Returns the
        generator's result. When the run is cancelled, the generator is ended by
        a task of its own, in steps (:func:`ngram_core.steps.abandon_steps`):
        closing it here would free what it built in one long stall.
        """
        try:
            while True:       # not a for loop: its iterator would close ``steps`` on leaving
                try:
                    progress = next(steps)
                except StopIteration as done:
                    return done.value
                if time.perf_counter() - self.resumed >= STEP_SECONDS:
                    if show is not None:
                        show(progress)
                    await self.breathe(getattr(progress, "stage", None)
                                       or getattr(steps, "__name__", "steps"))
        except asyncio.CancelledError:
            spawn(self.let_go(steps))
            raise

    async def let_go(self, steps) -> None:
        """End an abandoned step generator, giving the browser turns as it frees its state."""
        for _ in abandon_steps(steps):
            await self.turn("letting go")

    def debounce(self, action) -> None:
        """Call ``action()`` soon: the latest change wins."""
        if self.pending is not None and not self.pending.done():
            self.pending.cancel()
        self.pending = spawn(self._after_pause(action))

    async def _after_pause(self, action) -> None:
        await asyncio.sleep(DEBOUNCE_SECONDS)
        action()

    def start(self, coroutine):
        """Run ``coroutine`` as the run in progress, cancelling the one before; returns its task."""
        self.cancel()
        self.task = spawn(coroutine)
        return self.task

    def cancel(self) -> bool:
        """Cancel the run in progress; True if there was one."""
        if self.task is not None and not self.task.done():
            self.task.cancel()
            return True
        return False

    def report(self, started: float, computed: float, done: float) -> None:
        """Write the last run's timing to the body's ``data-timing``."""
        held, where = self.longest
        mark("timing", timing_line(computed - started, done - computed, held, where))
