"""The streamed check (:mod:`~ngram_core.run.stream`) on a Dask cluster: B's partitions
walked by the workers in parallel, A's index a task's result each fetches once.

Everything the workers run lives in :mod:`~ngram_core.run.stream`, the same functions
the command runs in one process, so both give the same bytes (tested). Dask is
imported only inside the functions that need it::

    ngram-overlap test.jsonl 'shards/*.jsonl.zst' --engine dask
"""

from __future__ import annotations

import atexit
import logging
import multiprocessing
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from contextlib import contextmanager
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from .check import Progress
from ..errors import InputError
from ..read.files import expand_paths
from ..method.settings import Settings
from .stream import (DEFAULT_BLOCKSIZE, Extra, Partition, StreamedResult, check_streamed, extra_of,
                     part_bytes)
from ..table import ReadOptions, Row

T = TypeVar("T")

#: Seconds with no partition finishing, before any has, after which a run is taken as
#: stuck (a worker frozen past what the scheduler noticed, a cluster wedged under load):
#: the run is tried again, then ends in one line. A partition of more bytes is given
#: longer: these seconds plus its bytes at :data:`SLOWEST_RATE`. The cluster's start is
#: given as long.
STALL_SECONDS = 120.0
#: Bytes a second: the slowest a worker reads, tokenizes and walks a partition.
SLOWEST_RATE = 1e6
#: Once something was measured (the cluster's start, partitions finishing), a wait may
#: last this many times the longest measured step, and never less than
#: :data:`MIN_STALL_SECONDS`: a loaded machine, slow for every step, is given longer,
#: and a wait that has stopped is not waited on for a fixed heartbeat.
STALL_FACTOR = 10.0
MIN_STALL_SECONDS = 30.0


class Stalled(Exception):
    """No partition finished (or A's index was not sent, or the cluster did not start
    or close) in longer than any should take."""


class Patience:
    """How long one wait of the client may last: ``first`` seconds before anything was
    measured, then :data:`STALL_FACTOR` times the longest step measured (the cluster's
    start; the gap before each partition finished), at least :data:`MIN_STALL_SECONDS`.

    >>> p = Patience(120.0)
    >>> p.allowed()
    120.0
    >>> p.measured(1.5); p.allowed()
    30.0
    >>> p.measured(4.0); p.allowed()
    40.0
    """

    def __init__(self, first: float, longest: float | None = None):
        self.first = first
        self.longest = longest

    def measured(self, seconds: float) -> None:
        """One step's seconds, as measured in this run."""
        self.longest = max(self.longest or 0.0, seconds)

    def allowed(self) -> float:
        if self.longest is None:
            return self.first
        return max(MIN_STALL_SECONDS, STALL_FACTOR * self.longest)


def within(seconds: float, what: str, call: Callable[[], T]) -> T:
    """``call()``, or :class:`Stalled` naming ``what`` when it has not returned within
    ``seconds`` (it is left to end in a thread of its own: a Dask call waiting on a
    lost worker may never return)."""
    made: dict[str, Any] = {}

    def go() -> None:
        try:
            made["value"] = call()
        except BaseException as e:          # handed to the caller's thread
            made["error"] = e

    thread = threading.Thread(target=go, name=f"ngram-overlap-{what}", daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        raise Stalled(f"{what} did not end in {seconds:.0f} s")
    if "error" in made:
        raise made["error"]
    return made["value"]


def held(value: T) -> T:
    """``value`` itself: A's index made a task's result, so that the scheduler holds
    how to make it again. Sent as a task, not scattered: a worker lost while scattered
    data is copied to every worker leaves Dask's copying waiting without end (seen
    with a worker killed or frozen while A's index was sent), and the only copy of
    scattered data lost with its worker cannot be made again. A task's result lost
    with its worker is computed again elsewhere; workers fetch it as their partitions
    need it."""
    return value


class OnDask:
    """Runs partition work on a Dask client's workers (an
    :class:`~ngram_core.run.stream.Executor`). Every wait is bounded (see
    :class:`Patience`): each partition's result (the first waits on A's index), the
    gap between partitions finishing; one that lasts longer raises :class:`Stalled`."""

    def __init__(self, client: Any, stall_seconds: float | None = None):
        self.client = client
        self.stall_seconds = STALL_SECONDS if stall_seconds is None else stall_seconds

    def map(self, work: Callable[..., Any], parts: Sequence[Partition],
            choices: dict[int, tuple[Any, ...]], index: Any,
            extra: Extra = None) -> Iterator[Any]:
        """``index`` made a task (:func:`held`) every partition depends on; each
        result yielded as it finishes; the first carrying an error cancels the rest
        and is raised. No partition finishing for :data:`STALL_SECONDS` plus the
        largest one's bytes at :data:`SLOWEST_RATE` (before the first finishes),
        then for :data:`STALL_FACTOR` times the longest gap measured between them
        (and never less than the largest one's bytes at :data:`SLOWEST_RATE`):
        :class:`Stalled`."""
        client = self.client
        shared = client.submit(held, index, key=f"ngram-a-index-{uuid.uuid4().hex}",
                               pure=False, retries=2)
        more = extra_of(extra)
        futures = [client.submit(work, part, *choices[part.file_index], shared, *more(part),
                                 key=f"ngram-{work.__name__}-{shared.key}-{part.index}"
                                     f"{'-ranked' if isinstance(extra, dict) else ''}",
                                 retries=2)
                   for part in parts]
        floor = max((part_bytes(p) for p in parts), default=0) / SLOWEST_RATE
        try:
            for future, result in self._as_finished(futures, floor, "partition"):
                if result.error is not None:
                    raise result.error
                future.release()
                yield result
        except BaseException:
            for other in futures:
                other.cancel()
            raise

    def each(self, work: Callable[[Any], Any], items: Sequence[Any]) -> list[Any]:
        """``work(item)`` of every item on the workers (writing the cleaned files'
        pieces), the results in order. A result that is an
        :class:`~ngram_core.errors.InputError` cancels the rest and is raised; so does
        :class:`Stalled`, under the same bounds as :meth:`map`'s (a piece's bytes
        not known: none beyond :data:`STALL_SECONDS` before the first ends)."""
        futures = self.client.map(work, items, pure=False, retries=2)
        try:
            for _, result in self._as_finished(futures, 0.0, "piece"):
                if isinstance(result, InputError):
                    raise result
            return [future.result() for future in futures]
        finally:
            for future in futures:
                future.cancel()

    def _as_finished(self, futures: list[Any], floor: float, what: str
                     ) -> Iterator[tuple[Any, Any]]:
        """Each future with its result as it finishes. None finishing for
        ``stall_seconds`` plus ``floor`` (before the first), then for
        :data:`STALL_FACTOR` times the longest gap measured between them (at least
        :data:`MIN_STALL_SECONDS` and ``floor``): :class:`Stalled` naming ``what``."""
        from dask.distributed import wait
        patience = Patience(self.stall_seconds + floor)
        pending = list(futures)
        last = time.monotonic()
        while pending:
            limit = max(patience.allowed(), floor)
            try:
                done, not_done = wait(pending, timeout=limit, return_when="FIRST_COMPLETED")
            except TimeoutError:
                raise Stalled(f"no {what} finished in {limit:.0f} s") from None
            now = time.monotonic()
            patience.measured(now - last)
            last = now
            for future in done:
                try:
                    result = future.result(timeout=limit)
                except TimeoutError:
                    raise Stalled(f"a {what}'s result did not come in {limit:.0f} s") from None
                yield future, result
            pending = list(not_done)


def check_distributed(client: Any, a_rows: list[Row], b_paths: Sequence[str],
                      settings: Settings, **options: Any) -> StreamedResult:
    """:func:`~ngram_core.run.stream.check_streamed` on a Dask ``client``'s workers (None:
    in this process); ``options`` are its keywords."""
    return check_streamed(a_rows, b_paths, settings, **options,
                          executor=None if client is None else OnDask(client))


#: Seconds to reach a scheduler before saying no scheduler answered (``--connect-timeout``).
CONNECT_TIMEOUT = 10.0
#: A worker not heard from for this long (frozen, cut off) is dropped and its work redone.
WORKER_TTL = "30s"
#: Tries of a whole run: a cluster that fails to start, or loses the workers holding A's
#: index, is started (or joined) again once, and A's index sent again.
TRIES = 2


#: Seconds a cluster is given to close before its worker processes are ended.
CLOSE_SECONDS = 20.0


def run_dask(a_rows: list[Row], b_patterns: Sequence[str], settings: Settings, *,
             scheduler: str | None = None, workers: int | None = None,
             blocksize: int = DEFAULT_BLOCKSIZE,
             on_progress: Callable[[Progress], object] | None = None,
             b_options: ReadOptions = ReadOptions(role="b"),
             connect_timeout: float = CONNECT_TIMEOUT, logs: str | None = None,
             **options: Any) -> StreamedResult:
    """Start (or join) a cluster and run :func:`check_distributed` of A's rows there
    (see :func:`on_cluster`). ``options``: the other keywords of
    :func:`~ngram_core.run.stream.check_streamed`."""
    b_paths = expand_paths(b_patterns)
    return on_cluster(lambda executor: check_distributed(
        executor.client, a_rows, b_paths, settings, blocksize=blocksize,
        on_progress=on_progress, b_options=b_options, **options),
        scheduler=scheduler, workers=workers, connect_timeout=connect_timeout, logs=logs)


def on_cluster(run: Callable[[OnDask], T], *, scheduler: str | None = None,
               workers: int | None = None, connect_timeout: float = CONNECT_TIMEOUT,
               logs: str | None = None) -> T:
    """``run(executor)`` with an executor on a Dask cluster, in one line if it fails.

    ``scheduler``: the address of a running scheduler, reached within
    ``connect_timeout`` seconds; without one a local cluster of ``workers``
    processes (default: one per core) is started within :data:`STALL_SECONDS`, its
    scratch folder removed when the run ends however it ends. A worker silent for
    :data:`WORKER_TTL` is dropped and its partitions walked again elsewhere; every
    wait of the run is bounded (:class:`OnDask`); a cluster that fails to start or
    fails the run is tried :data:`TRIES` times in all; then the failure is one
    :class:`~ngram_core.errors.InputError`, never a Dask traceback. A local cluster
    is closed within :data:`CLOSE_SECONDS`, or its worker processes are killed.

    Dask's own log lines (this process's and the workers' it starts) go to the file
    ``logs``, appended, or nowhere (:func:`dask_logs`).
    """
    import dask
    import dask.distributed  # noqa: F401  (its defaults are in dask.config before set)

    # the processes this run starts (workers, and one still starting when its cluster
    # was given up on) are those it ends, by their ids, however it ends
    before = set(multiprocessing.active_children())
    scratch = tempfile.mkdtemp(prefix="ngram-overlap-dask-")
    config = {"distributed.scheduler.worker-ttl": WORKER_TTL,
              "distributed.comm.timeouts.connect": f"{connect_timeout}s",
              "temporary-directory": scratch}
    try:
        with dask.config.set(config), dask_logs(logs):
            for attempt in range(1, TRIES + 1):
                # a scheduler that does not answer is said at once: no second wait
                client, cluster = _connect(scheduler, workers, scratch, connect_timeout,
                                           last=attempt == TRIES or bool(scheduler))
                if client is None:
                    continue
                failed = False
                try:
                    return run(OnDask(client))
                except InputError:
                    raise
                except Exception as e:            # a worker lost, a scheduler gone
                    failed = True
                    if attempt == TRIES:
                        raise InputError("Dask", f"the run failed {TRIES} times; last: "
                                                 f"{_reason(e)}") from None
                finally:
                    _close(client, cluster, failed)
                    _kill(set(multiprocessing.active_children()) - before)
    finally:
        _kill(set(multiprocessing.active_children()) - before)
        shutil.rmtree(scratch, ignore_errors=True)
    raise AssertionError("unreachable")           # every try returns or raises


#: The loggers of a Dask run in this process: Dask's, those of the libraries it runs on
#: (an event loop's unretrieved task, a closed stream), and Python's warnings.
DASK_LOGGERS = ("distributed", "tornado", "asyncio", "bokeh", "py.warnings")
LOG_FORMAT = "%(asctime)s %(process)d %(name)s %(levelname)s: %(message)s"


@contextmanager
def dask_logs(path: str | None) -> Iterator[None]:
    """From a Dask run on, Dask's log lines go to the file ``path`` (appended, from
    this process and every worker process it starts, a worker started again too) or
    nowhere: the run's own lines are all that reach stderr. This stays so after the
    run, in this process and the environment it gives the processes it starts: a
    cluster given up on may still log, or start a worker, as it is torn down. The
    workers' processes read their logging from the environment
    (``DASK_DISTRIBUTED__LOGGING``) as they start, and ignore Python's warnings
    (``PYTHONWARNINGS``: a port in use); this process's warnings are logged with
    Dask's lines while the run lasts."""
    handler: dict[str, Any] = ({"class": "logging.FileHandler", "filename": path,
                                "mode": "a", "formatter": "line", "delay": True}
                               if path else {"class": "logging.NullHandler"})
    spec = {"version": 1, "disable_existing_loggers": False,
            "formatters": {"line": {"format": LOG_FORMAT}},
            "handlers": {"run": handler},
            "loggers": {name: {"level": "INFO" if name == "distributed" else "WARNING",
                               "handlers": ["run"], "propagate": False}
                        for name in DASK_LOGGERS}}
    os.environ.update({"DASK_DISTRIBUTED__LOGGING": repr(spec), "PYTHONWARNINGS": "ignore"})
    _send_dask_logs(path)
    _children_stderr(path)
    logging.captureWarnings(True)
    try:
        yield
    finally:
        logging.captureWarnings(False)


#: The file each child's stderr goes to now -> the script that starts them so.
_STARTERS: dict[str, str] = {}


def _children_stderr(path: str | None) -> None:
    """The processes this one starts through :mod:`multiprocessing` (Dask's workers,
    its resource tracker) write their stderr to the file ``path`` (appended) or
    nowhere: a worker started as a cluster is torn down can print a traceback of its
    own start before any logging of it is set. Python is started through a small
    shell script that sends its stderr there (:func:`multiprocessing.set_executable`);
    where that script cannot run (no ``/bin/sh``, a temporary folder that runs
    nothing), children write to stderr as before."""
    target = os.path.abspath(path) if path else os.devnull
    if os.name != "posix" or not os.path.exists("/bin/sh"):
        return
    script = _STARTERS.get(target)
    if script is None:
        fd, script = tempfile.mkstemp(prefix="ngram-overlap-python-", suffix=".sh")
        with os.fdopen(fd, "w") as f:
            f.write(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} "$@" '
                    f'2>>{shlex.quote(target)}\n')
        os.chmod(script, 0o700)
        atexit.register(os.unlink, script)
        try:
            works = subprocess.run([script, "-c", "pass"], timeout=60).returncode == 0
        except (OSError, subprocess.SubprocessError):
            works = False
        if not works:
            return
        _STARTERS[target] = script
    multiprocessing.set_executable(script)


def _send_dask_logs(path: str | None) -> None:
    """This process's Dask loggers (:data:`DASK_LOGGERS` and every logger under them,
    such as ``tornado.application``, to which Dask gives a handler of its own) sent
    to the file ``path`` or nowhere, never to stderr."""
    sink: logging.Handler = (logging.FileHandler(path, mode="a", delay=True) if path
                             else logging.NullHandler())
    sink.setFormatter(logging.Formatter(LOG_FORMAT))
    names = [name for name in list(logging.root.manager.loggerDict)
             if name.split(".")[0] in DASK_LOGGERS or name.startswith("py.warnings")]
    for name in set(names) | set(DASK_LOGGERS):
        logger = logging.getLogger(name)
        for old in logger.handlers:
            if getattr(old, "ngram_overlap_sink", False):
                old.close()
        if name in DASK_LOGGERS:
            logger.handlers = [sink]
            logger.propagate = False
        else:                                   # its lines go up to its root's sink
            logger.handlers = []
            logger.propagate = True
    setattr(sink, "ngram_overlap_sink", True)
    if path:
        logging.getLogger("distributed").setLevel(logging.INFO)


def _reason(e: BaseException) -> str:
    """An exception in a few words: its class and its first line."""
    first = str(e).strip().splitlines()[0] if str(e).strip() else ""
    return f"{type(e).__name__}: {first[:200]}" if first else type(e).__name__


def _connect(scheduler: str | None, workers: int | None, scratch: str, timeout: float,
             last: bool) -> tuple[Any, Any]:
    """A client of the scheduler at ``scheduler``, or of a new local cluster (and that
    cluster); ``(None, None)`` when it failed and another try remains."""
    from dask.distributed import Client, LocalCluster

    client = cluster = None
    try:
        if scheduler:
            return _client_within(scheduler, timeout), None
        cluster = within(STALL_SECONDS, "the local cluster's start", lambda: LocalCluster(
            n_workers=0, threads_per_worker=1, processes=True, dashboard_address=None,
            local_directory=scratch, silence_logs=False))
        client = Client(cluster, timeout=timeout)
        _workers_up(client, cluster, workers or os.cpu_count() or 1)
        return client, cluster
    except Exception as e:
        _close(client, cluster, failed=True)
        if not last:
            return None, None
        if scheduler:
            raise InputError("--scheduler", f"{scheduler}: no Dask scheduler answered within "
                                            f"{timeout:g} s ({_reason(e)}); a slower one: "
                                            f"--connect-timeout SECONDS") from None
        raise InputError("--engine dask", f"the local cluster did not start: "
                                          f"{_reason(e)}") from None


def _workers_up(client: Any, cluster: Any, count: int) -> None:
    """``count`` workers started and registered: the first within :data:`STALL_SECONDS`,
    the rest within :data:`STALL_FACTOR` times the first's time (at least
    :data:`MIN_STALL_SECONDS`), measured; else :class:`Stalled` (a worker frozen while
    it starts never registers), at once for a worker that ended while it started."""
    began = time.monotonic()
    cluster.scale(count)
    _wait_for_workers(client, cluster, 1, STALL_SECONDS)
    allowed = Patience(STALL_SECONDS, time.monotonic() - began).allowed()
    _wait_for_workers(client, cluster, count, allowed)


def _wait_for_workers(client: Any, cluster: Any, count: int, seconds: float) -> None:
    """Wait for ``count`` workers, a second at a time, for at most ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            left = deadline - time.monotonic()
            client.wait_for_workers(count, timeout=max(0.1, min(1.0, left)))
            return
        except TimeoutError:
            pass
        if any(process.exitcode is not None for process in _worker_processes(cluster)) or \
                any(str(getattr(nanny, "status", "")).endswith(("failed", "closed", "closing"))
                    for nanny in _nannies(cluster)):
            raise Stalled("a worker ended while it started")
        if time.monotonic() >= deadline:
            raise Stalled(f"{count} workers did not start in {seconds:.0f} s")


def _client_within(address: str, timeout: float) -> Any:
    """A client of the scheduler at ``address``, or TimeoutError after ``timeout``
    seconds: Dask's own timeout bounds the connection, not a peer that accepts it and
    then says nothing (or speaks HTTP), which would wait without end."""
    from dask.distributed import Client

    try:
        return within(timeout + 1, "connecting", lambda: Client(address, timeout=timeout))
    except Stalled:
        raise TimeoutError(f"no answer within {timeout:g} s") from None


def _close(client: Any, cluster: Any, failed: bool = False) -> None:
    """Close a client and a cluster, whatever state they are in, within
    :data:`CLOSE_SECONDS` each. A local cluster's worker processes still running after
    (frozen, their nanny waiting on them) are killed: this process started them; after
    a failed run (``failed``) they are killed first, a broken cluster not being worth
    a graceful close."""
    processes = _worker_processes(cluster)
    for nanny in _nannies(cluster):           # a worker ended here is not started again
        nanny.auto_restart = False
    if failed:
        _kill(processes)
    for thing in (client, cluster):
        if thing is not None:
            try:
                within(CLOSE_SECONDS, "closing the cluster", thing.close)
            except Exception:           # given up on: not closed again at exit either
                if thing is cluster:
                    cluster.shutdown_on_close = False
    _kill(processes)


def _kill(processes: Iterable[Any]) -> None:
    """Kill each :class:`multiprocessing.Process` still running (one that has ended is
    reaped, never signalled: its id cannot have been reused)."""
    for process in processes:
        try:
            if process.exitcode is None:
                process.kill()
                process.join(CLOSE_SECONDS)
        except Exception:
            pass


def _nannies(cluster: Any) -> list[Any]:
    """A local cluster's nannies (none for a scheduler joined)."""
    return list(getattr(cluster, "workers", {}).values()) if cluster is not None else []


def _worker_processes(cluster: Any) -> list[Any]:
    """The :class:`multiprocessing.Process` of each of a local cluster's workers (none
    for a scheduler joined)."""
    found = []
    for nanny in _nannies(cluster):
        process = getattr(getattr(getattr(nanny, "process", None), "process", None),
                          "_process", None)
        if process is not None and hasattr(process, "kill"):
            found.append(process)
    return found
