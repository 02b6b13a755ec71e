"""The streamed check (:mod:`~ngram_core.run.stream`) on a Dask cluster: B's partitions
walked by the workers in parallel, A's index sent to each once.

Everything the workers run lives in :mod:`~ngram_core.run.stream`, the same functions
the command runs in one process, so both give the same bytes (tested). Dask is
imported only inside the functions that need it::

    ngram-overlap test.jsonl 'shards/*.jsonl.zst' --engine dask
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from .check import Progress
from ..errors import InputError
from ..read.files import expand_paths
from ..method.settings import Settings
from .stream import DEFAULT_BLOCKSIZE, Partition, StreamedResult, check_streamed, part_bytes
from ..table import ReadOptions, Row


#: Seconds with no partition finishing after which a run is taken as stuck (a worker
#: frozen past what the scheduler noticed, a cluster wedged under load): the run is
#: tried again, then ends in one line. A partition of more bytes is given longer:
#: these seconds plus its bytes at :data:`SLOWEST_RATE`.
STALL_SECONDS = 120.0
#: Bytes a second: the slowest a worker reads, tokenizes and walks a partition.
SLOWEST_RATE = 1e6


class Stalled(Exception):
    """No partition finished for longer than any partition should take."""


class OnDask:
    """Runs partition work on a Dask client's workers (an
    :class:`~ngram_core.run.stream.Executor`); a run in which no partition finishes
    for :data:`STALL_SECONDS` (and the largest partition's bytes at
    :data:`SLOWEST_RATE`) raises :class:`Stalled`."""

    def __init__(self, client: Any, stall_seconds: float | None = None):
        self.client = client
        self.stall_seconds = STALL_SECONDS if stall_seconds is None else stall_seconds

    def map(self, work: Callable[..., Any], parts: Sequence[Partition],
            choices: dict[int, tuple[Any, ...]], index: Any,
            extra: dict[int, Any] | None = None) -> Iterator[Any]:
        """``index`` sent to every worker once; each result yielded as it finishes;
        the first carrying an error cancels the rest and is raised."""
        from dask.distributed import wait
        client = self.client
        shared = client.scatter(index, broadcast=True, hash=False)
        more = (lambda part: (extra[part.index],)) if extra is not None else (lambda part: ())
        futures = [client.submit(work, part, *choices[part.file_index], shared, *more(part),
                                 key=f"ngram-{work.__name__}-{shared.key}-{part.index}"
                                     f"{'-ranked' if extra is not None else ''}", retries=2)
                   for part in parts]
        limit = self.stall_seconds + max((part_bytes(p) for p in parts), default=0) / SLOWEST_RATE
        pending = list(futures)
        while pending:
            try:
                done, not_done = wait(pending, timeout=limit, return_when="FIRST_COMPLETED")
            except TimeoutError:
                for other in futures:
                    other.cancel()
                raise Stalled(f"no partition finished in {limit:.0f} s") from None
            for future in done:
                result = future.result()
                if result.error is not None:
                    for other in futures:
                        other.cancel()
                    raise result.error
                future.release()
                yield result
            pending = list(not_done)

    def each(self, work: Callable[[Any], Any], items: Sequence[Any]) -> list[Any]:
        """``work(item)`` of every item on the workers (writing the cleaned files'
        pieces), the results in order. A result that is an
        :class:`~ngram_core.errors.InputError` cancels the rest and is raised; so does
        :class:`Stalled` when none finishes for ten times :data:`STALL_SECONDS`."""
        from dask.distributed import wait
        futures = self.client.map(work, items, pure=False, retries=2)
        try:
            pending = list(futures)
            while pending:
                try:
                    done, not_done = wait(pending, timeout=10 * self.stall_seconds,
                                          return_when="FIRST_COMPLETED")
                except TimeoutError:
                    raise Stalled(f"no piece written in {10 * self.stall_seconds:.0f} s") \
                        from None
                for future in done:
                    if isinstance(future.result(), InputError):
                        raise future.result()
                pending = list(not_done)
            return [future.result() for future in futures]
        finally:
            for future in futures:
                future.cancel()


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


def run_dask(a_rows: list[Row], b_patterns: Sequence[str], settings: Settings, *,
             scheduler: str | None = None, workers: int | None = None,
             blocksize: int = DEFAULT_BLOCKSIZE,
             on_progress: Callable[[Progress], object] | None = None,
             b_options: ReadOptions = ReadOptions(role="b"),
             connect_timeout: float = CONNECT_TIMEOUT, **options: Any) -> StreamedResult:
    """Start (or join) a cluster and run :func:`check_distributed` of A's rows there
    (see :func:`on_cluster`). ``options``: the other keywords of
    :func:`~ngram_core.run.stream.check_streamed`."""
    b_paths = expand_paths(b_patterns)
    return on_cluster(lambda executor: check_distributed(
        executor.client, a_rows, b_paths, settings, blocksize=blocksize,
        on_progress=on_progress, b_options=b_options, **options),
        scheduler=scheduler, workers=workers, connect_timeout=connect_timeout)


T = TypeVar("T")


def on_cluster(run: Callable[[OnDask], T], *, scheduler: str | None = None,
               workers: int | None = None, connect_timeout: float = CONNECT_TIMEOUT) -> T:
    """``run(executor)`` with an executor on a Dask cluster, in one line if it fails.

    ``scheduler``: the address of a running scheduler, reached within
    ``connect_timeout`` seconds; without one a local cluster of ``workers``
    processes (default: one per core) is started, its scratch folder removed
    when the run ends however it ends. A worker silent for :data:`WORKER_TTL` is
    dropped and its partitions walked again elsewhere; a cluster that fails to
    start or fails the run is tried :data:`TRIES` times in all; then the failure
    is one :class:`~ngram_core.errors.InputError`, never a Dask traceback.
    """
    import dask
    import dask.distributed  # noqa: F401  (its defaults are in dask.config before set)

    scratch = tempfile.mkdtemp(prefix="ngram-overlap-dask-")
    config = {"distributed.scheduler.worker-ttl": WORKER_TTL,
              "distributed.comm.timeouts.connect": f"{connect_timeout}s",
              "temporary-directory": scratch}
    try:
        with dask.config.set(config):
            for attempt in range(1, TRIES + 1):
                # a scheduler that does not answer is said at once: no second wait
                client, cluster = _connect(scheduler, workers, scratch, connect_timeout,
                                           last=attempt == TRIES or bool(scheduler))
                if client is None:
                    continue
                try:
                    return run(OnDask(client))
                except InputError:
                    raise
                except Exception as e:            # a worker lost, a scheduler gone
                    if attempt == TRIES:
                        raise InputError("Dask", f"the run failed {TRIES} times; last: "
                                                 f"{_reason(e)}") from None
                finally:
                    _close(client, cluster)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    raise AssertionError("unreachable")           # every try returns or raises


def _reason(e: BaseException) -> str:
    """An exception in a few words: its class and its first line."""
    first = str(e).strip().splitlines()[0] if str(e).strip() else ""
    return f"{type(e).__name__}: {first[:200]}" if first else type(e).__name__


def _connect(scheduler: str | None, workers: int | None, scratch: str, timeout: float,
             last: bool) -> tuple[Any, Any]:
    """A client of the scheduler at ``scheduler``, or of a new local cluster (and that
    cluster); ``(None, None)`` when it failed and another try remains."""
    from dask.distributed import Client, LocalCluster

    cluster = None
    try:
        if scheduler:
            return _client_within(scheduler, timeout), None
        cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1,
                               processes=True, dashboard_address=None,
                               local_directory=scratch)
        return Client(cluster, timeout=timeout), cluster
    except Exception as e:
        _close(None, cluster)
        if not last:
            return None, None
        if scheduler:
            raise InputError("--scheduler", f"{scheduler}: no Dask scheduler answered within "
                                            f"{timeout:g} s ({_reason(e)}); a slower one: "
                                            f"--connect-timeout SECONDS") from None
        raise InputError("--engine dask", f"the local cluster did not start: "
                                          f"{_reason(e)}") from None


def _client_within(address: str, timeout: float) -> Any:
    """A client of the scheduler at ``address``, or TimeoutError after ``timeout``
    seconds: Dask's own timeout bounds the connection, not a peer that accepts it and
    then says nothing (or speaks HTTP), which would wait without end."""
    from dask.distributed import Client

    made: dict[str, Any] = {}

    def connect() -> None:
        try:
            made["client"] = Client(address, timeout=timeout)
        except BaseException as e:          # handed to the caller's thread
            made["error"] = e

    thread = threading.Thread(target=connect, name="ngram-overlap-connect", daemon=True)
    thread.start()
    thread.join(timeout + 1)
    if thread.is_alive():
        raise TimeoutError(f"no answer within {timeout:g} s")
    if "error" in made:
        raise made["error"]
    return made["client"]


def _close(client: Any, cluster: Any) -> None:
    """Close a client and a cluster, whatever state they are in."""
    for thing in (client, cluster):
        if thing is not None:
            try:
                thing.close()
            except Exception:
                pass
