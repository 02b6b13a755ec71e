"""Stage 1, reading: bytes or paths -> a :class:`~ngram_core.table.Table` -> Rows.

Contract: every file is read as one reading of it, whole or a piece at a time
(:mod:`.record_stream`, the command's streamed path), with the same records,
fields, line numbers and notes; what was detected is said in the table's
notes; a file that cannot be read raises one :class:`~ngram_core.errors.InputError`
naming it and the line. :mod:`.readers` (bytes -> Table, with :mod:`.json_rows`,
:mod:`.delimited`, :mod:`.conll`), :mod:`.fields` (which fields are the text and
the id -> Rows), :mod:`.files` (paths, compression, Parquet, Arrow: the command's).
"""
