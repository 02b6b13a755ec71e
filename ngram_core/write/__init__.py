"""Stage 5, writing: the files a run leaves behind.

Contract: :mod:`.outputs` checks every output before any work (never an input,
never two on one path) and places them all together or none; :mod:`.cleaned`
writes a training file without given rows, in its own format and compression,
every other row byte for byte.
"""
