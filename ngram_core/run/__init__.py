"""Stage 4, running a whole check: in memory (the page's), streamed (the command's),
on Dask, or for a suite of test sets at once.

Contract: :mod:`.check` (B indexed, A walked: resumable steps), :mod:`.stream`
(A indexed, B streamed past it a piece at a time), :mod:`.distributed` (the
same work on a cluster) and :mod:`.suite` (several test sets, B read once) give
the same summary and CSV bytes for the same inputs and settings;
:mod:`.warm` runs every stage once for the page's build-time snapshot.
"""
