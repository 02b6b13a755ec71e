"""The streamed check (:mod:`~ngram_core.stream`) on a Dask cluster: B's partitions
walked by the workers in parallel, A's index sent to each once.

Everything the workers run lives in :mod:`~ngram_core.stream`, the same functions
the command runs in one process, so both give the same bytes (tested). Dask is
imported only inside the functions that need it::

    ngram-overlap test.jsonl 'shards/*.jsonl.zst' --engine dask
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .check import Progress
from .files import expand_paths
from .settings import Settings
from .stream import DEFAULT_BLOCKSIZE, Partition, StreamedResult, check_streamed
from .table import ReadOptions, Row


class OnDask:
    """Runs partition work on a Dask client's workers (an
    :class:`~ngram_core.stream.Executor`)."""

    def __init__(self, client: Any):
        self.client = client

    def map(self, work: Callable[..., Any], parts: Sequence[Partition],
            choices: dict[int, tuple[list[str], str]], index: Any,
            extra: dict[int, Any] | None = None) -> Iterator[Any]:
        """``index`` sent to every worker once; each result yielded as it finishes;
        the first carrying an error cancels the rest and is raised."""
        from dask.distributed import as_completed
        client = self.client
        shared = client.scatter(index, broadcast=True, hash=False)
        more = (lambda part: (extra[part.index],)) if extra is not None else (lambda part: ())
        futures = [client.submit(work, part, *choices[part.file_index], shared, *more(part),
                                 key=f"ngram-{work.__name__}-{shared.key}-{part.index}"
                                     f"{'-ranked' if extra is not None else ''}", retries=2)
                   for part in parts]
        for future in as_completed(futures):
            result = future.result()
            if result.error is not None:
                for other in futures:
                    other.cancel()
                raise result.error
            future.release()
            yield result


def check_distributed(client: Any, a_rows: list[Row], b_paths: Sequence[str],
                      settings: Settings, **options: Any) -> StreamedResult:
    """:func:`~ngram_core.stream.check_streamed` on a Dask ``client``'s workers (None:
    in this process); ``options`` are its keywords."""
    return check_streamed(a_rows, b_paths, settings, **options,
                          executor=None if client is None else OnDask(client))


def run_dask(a_rows: list[Row], b_patterns: Sequence[str], settings: Settings, *,
             scheduler: str | None = None, workers: int | None = None,
             blocksize: int = DEFAULT_BLOCKSIZE,
             on_progress: Callable[[Progress], object] | None = None,
             b_options: ReadOptions = ReadOptions(role="b"), **options: Any) -> StreamedResult:
    """Start (or join) a cluster and run :func:`check_distributed` of A's rows.

    ``scheduler``: the address of a running scheduler; without one a local
    cluster of ``workers`` processes (default: one per core) is started and
    closed again. ``options``: the other keywords of
    :func:`~ngram_core.stream.check_streamed`.
    """
    from dask.distributed import Client, LocalCluster

    b_paths = expand_paths(b_patterns)
    cluster = None
    if scheduler:
        client = Client(scheduler)
    else:
        cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1,
                               processes=True, dashboard_address=None)
        client = Client(cluster)
    try:
        return check_distributed(client, a_rows, b_paths, settings, blocksize=blocksize,
                                 on_progress=on_progress, b_options=b_options, **options)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
