"""B's partitions walked by local worker processes: the streamed check on every core
of one machine (an :class:`~ngram_core.run.stream.Executor`, as Dask's is).

The contract: the same answer as the walk in this process, byte for byte, in a
fraction of the time on a machine of several cores, and the same error. Each
worker gets A's index once (pickled when it starts), then a partition at a
time, sent in file order as workers free up (each told what is known of the
cap then: :class:`~ngram_core.run.stream.CapFloor`); results come back in the
order they finish, which the streamed check is built for (Dask's workers finish
in any order too: a partition that used a position past a window's cap is
walked again, ranked, see :func:`~ngram_core.run.stream.over_cap`). Of several
partitions' errors, the first in file order is raised. One partition, one
process asked for, or fewer bytes of B than ``from_bytes`` (where starting
workers costs more than they save) are walked here, with no worker started.

Workers start by ``forkserver`` where the system has it (a fresh interpreter
forked from a clean server: nothing of this process's threads, such as
pyarrow's, is copied; the server has imported the engine), else by ``spawn``;
the script this process runs is not run again in them. They ignore Ctrl-C, which this process
takes and answers by stopping them. A worker that dies (killed, out of memory)
is one :class:`~ngram_core.errors.InputError` saying what to do.

>>> with local_processes(1) as executor:
...     executor is None
True
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any

from ..errors import InputError
from .stream import Extra, Partition, extra_of, part_bytes

#: B's bytes from which the command walks it in worker processes unless told how many
#: (``--jobs``): starting a worker and sending it A's index takes about half a second.
PROCESSES_FROM_BYTES = 64 * 2**20

#: What a worker runs, imported by the forkserver before it forks any worker.
WORKER_MODULES = ("ngram_core.run.stream", "ngram_core.run.suite")

#: A worker's copy of A's index (set once, when the worker starts).
_index: Any = None


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system says it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:                 # not on Linux
        return max(1, os.cpu_count() or 1)


def affordable_workers(wanted: int) -> int:
    """How many of ``wanted`` workers the memory free now holds, each taking about
    what this process holds (A's index, the libraries) and a quarter more (a
    piece of B), with a fifth of that memory left over: at least 1, and
    ``wanted`` where the system does not say."""
    own, free = _resident_bytes(), _available_bytes()
    if not own or free is None:
        return wanted
    return max(1, min(wanted, int(free * 0.8 // (own * 1.25))))


def _resident_bytes() -> int | None:
    try:
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmRSS:"))
    except (OSError, StopIteration, ValueError):
        return None


def _available_bytes() -> int | None:
    try:
        with open("/proc/meminfo") as f:
            return next(int(line.split()[1]) * 1024 for line in f
                        if line.startswith("MemAvailable:"))
    except (OSError, StopIteration, ValueError):
        return None


class OnProcesses:
    """Runs partition work in up to ``jobs`` local worker processes, started at the
    first :meth:`map` of two partitions or more (of ``from_bytes`` or more) and kept
    for the next (:meth:`close` stops them)."""

    def __init__(self, jobs: int, from_bytes: int = 0):
        self.jobs, self.from_bytes = jobs, from_bytes
        self._pool: ProcessPoolExecutor | None = None
        self._index: Any = None

    def map(self, work: Callable[..., Any], parts: Sequence[Partition],
            choices: dict[int, tuple[Any, ...]], index: Any,
            extra: Extra = None) -> Iterator[Any]:
        """``work(part, *choices[part.file_index], index, *extra_of(extra)(part))`` of
        every partition, each result as it finishes. Partitions are sent in order,
        two per worker at most waiting or walked, so ``extra`` as a function is
        called when a partition is sent, knowing the results yielded before. A
        result carrying an error stops the sending; the partitions before it are
        awaited, and the error of the first in file order that has one is raised:
        the error one process walking B in order meets first."""
        more = extra_of(extra)
        if self._pool is None and self.from_bytes:       # the default: as memory allows
            self.jobs = min(self.jobs, affordable_workers(self.jobs))
        if (len(parts) < 2 or self.jobs < 2
                or sum(map(part_bytes, parts)) < self.from_bytes):
            for part in parts:
                result = work(part, *choices[part.file_index], index, *more(part))
                if result.error is not None:
                    raise result.error
                yield result
            return
        pool = self._pool_for(index, len(parts))
        waiting = iter(parts)
        sent: dict[Future, int] = {}

        def send(count: int) -> None:
            for part in itertools.islice(waiting, count):
                try:
                    future = pool.submit(_walk, work, part, choices[part.file_index],
                                         more(part))
                except BrokenProcessPool:         # a worker died before its result came
                    raise _lost() from None
                sent[future] = part.index
        failed: dict[int, Any] = {}          # partition -> its error
        try:
            with _main_unseen():                # the workers start here
                send(2 * self.jobs)
            while sent:
                done, _ = wait(sent, return_when=FIRST_COMPLETED)
                for future in sorted(done, key=sent.__getitem__):
                    partition = sent.pop(future)
                    result = _result_of(future)
                    if result.error is not None:
                        failed[partition] = result.error
                    elif not failed:
                        yield result
                        send(1)
                if failed:                      # only the partitions before it matter
                    first = min(failed)
                    if all(p > first for p in sent.values()):
                        raise failed[first]
        except BaseException:
            self.close()
            raise

    def each(self, work: Callable[[Any], Any], items: Sequence[Any]) -> list[Any]:
        """``work(item)`` of every item, the results in order; a result that is an
        :class:`~ngram_core.errors.InputError` is raised."""
        results = [work(item) for item in items]
        for result in results:
            if isinstance(result, InputError):
                raise result
        return results

    def close(self) -> None:
        """Stop the workers: each ended at once, then waited for (a few seconds at
        most), and the pool's own thread with them."""
        pool, self._pool, self._index = self._pool, None, None
        if pool is None:
            return
        processes = list((getattr(pool, "_processes", None) or {}).values())
        for process in processes:           # first, so that the pool's own thread ends
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(5)
        pool.shutdown(wait=True, cancel_futures=True)

    def _pool_for(self, index: Any, parts: int) -> ProcessPoolExecutor:
        """The workers holding ``index``: started now unless they hold it already."""
        if self._pool is not None and self._index is not index:
            self.close()
        if self._pool is None:
            context: Any
            if "forkserver" in multiprocessing.get_all_start_methods():
                context = multiprocessing.get_context("forkserver")
                # the engine imported once, in the server: each worker forked from it
                # starts at once and shares the libraries' pages
                context.set_forkserver_preload(list(WORKER_MODULES))
            else:
                context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(min(self.jobs, parts), mp_context=context,
                                             initializer=_hold, initargs=(index,))
            self._index = index
        return self._pool


@contextmanager
def local_processes(jobs: int | None) -> Iterator[OnProcesses | None]:
    """``OnProcesses(jobs)`` for the length of a ``with`` (None for one process), its
    workers stopped at the end however it ends. ``jobs`` None: one per usable core,
    as many as the memory free holds (:func:`affordable_workers`), for B of
    :data:`PROCESSES_FROM_BYTES` or more."""
    if jobs is None:
        jobs, from_bytes = usable_cores(), PROCESSES_FROM_BYTES
    else:
        from_bytes = 0
    if jobs < 2:
        yield None
        return
    executor = OnProcesses(jobs, from_bytes)
    try:
        yield executor
    finally:
        executor.close()


@contextmanager
def _main_unseen() -> Iterator[None]:
    """While workers (and their server) start, the script this process runs is not
    named to them, so it is not run again in each: a script calling
    ``ngram_overlap.check`` without an ``if __name__ == "__main__":`` guard would
    be. They run :data:`WORKER_MODULES`' work alone, and need none of it."""
    main = sys.modules.get("__main__")
    if main is None:
        yield
        return
    saved: dict[str, Any] = {name: main.__dict__[name]
                             for name in ("__file__", "__spec__") if name in main.__dict__}
    main.__dict__.pop("__file__", None)
    main.__spec__ = None
    try:
        yield
    finally:
        main.__dict__.pop("__spec__", None)
        main.__dict__.update(saved)


def _result_of(future: Future) -> Any:
    try:
        return future.result()
    except BrokenProcessPool:
        raise _lost() from None


def _lost() -> InputError:
    """The one line for a worker that died (killed, out of memory) before its result."""
    return InputError("worker processes", "one ended without its result (killed, or out "
                                          "of memory?): --jobs 1 walks B in this process")


def _hold(index: Any) -> None:
    """A worker's start: A's index kept; Ctrl-C left to the process that started it."""
    global _index
    _index = index
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _walk(work: Callable[..., Any], part: Any, choice: tuple[Any, ...], more: tuple) -> Any:
    return work(part, *choice, _index, *more)
