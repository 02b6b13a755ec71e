"""Stage 4 at corpus scale: a suite of test sets (evals) against one training corpus
read once, and which training rows hold them.

Contract: for each eval, :func:`check_suite` returns exactly what
:func:`~ngram_core.run.stream.check_streamed` returns for that eval alone (the same
summary, CSV and rows CSV, byte for byte), while B is planned, read and parsed
once for all of them, each piece walked past every eval's index in turn. Each
B file's fields are chosen for each eval as its own run would (an eval's
detected text fields are read from B where B has them all); evals that choose
alike share one reading.

With ``marks``, every B row that shares a window with an eval row (past the cap
too: every occurrence matches) or holds a short eval row or field whole is
marked, with each eval row that caused it and the ``[start, end)`` characters in
the B row from the first to the last token they share: :class:`Removal`. Windows
the frequency filter ignores and an eval's template are no finding, so they
mark nothing. Removing the marked rows leaves training data in which no eval
finds anything under the same settings.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from .check import Progress
from ..errors import InputError, shown
from ..read.files import FileRead, file_identity, load_rows_by_file
from ..read.fields import fields_beside
from .stream import (DEFAULT_BLOCKSIZE, AIndex, CapFloor, Combined, Executor, Marks, Partition,
                     PartitionResult, PieceTokens, StreamedResult, WindowBits, _b_files,
                     WindowTags, _field_choice, _kept, _over_partitions, assemble,
                     count_rows_in, index_a, over_cap, part_bytes, partition_chunks,
                     piece_tokens, plan_partitions,
                     walk_partition, walk_rows)
from ..method.tokenize import TokenizedRows
from ..method.match import RowMatch
from ..method.settings import Settings
from ..report.summary import rephrase_rule
from ..table import ReadOptions, Reading, Row
from ..method.template import Template, template_for
from ..steps import StepGenerator, run_steps


class EvalSet(NamedTuple):
    """One eval as read: its name (the path as given), its rows, the text fields they
    were read from, and the fields B is read from where B has them all (None: B's
    own choice, as with ``--a-field``)."""
    name: str
    rows: list[Row]
    fields: list[str]
    like: list[str] | None


def refuse_files_named_twice(paths: Sequence[str], flag: str) -> None:
    """Refuse a file named twice among ``paths`` (a path repeated, two globs that
    overlap): its rows would be checked, counted and written twice."""
    seen: dict[Any, str] = {}
    for path in paths:
        identity = file_identity(path)
        if identity is None:
            continue
        if identity in seen:
            raise InputError(flag, f"names one file twice ({shown(seen[identity])}"
                                   f"{'' if seen[identity] == path else ' and ' + shown(path)})")
        seen[identity] = path


def refuse_evals_in_training(eval_paths: Sequence[str], train_paths: Sequence[str]) -> None:
    """Refuse an eval file that is also one of the training files (two globs that
    overlap): checked against itself, every row of that training file would be
    removed, as a leak, and the run would say nothing was wrong."""
    training = {file_identity(path): path for path in train_paths}
    training.pop(None, None)
    for path in eval_paths:
        same = training.get(file_identity(path))
        if same is not None:
            raise InputError(path, f"is also a training file ({shown(same)}): checked against "
                                   f"itself, every row of it would be removed; name it as an "
                                   f"eval or as training data, not both")


def read_eval(path: str, name: str | None = None, fields: list[str] | None = None,
              id_field: str | None = None, options: ReadOptions = ReadOptions(role="a")
              ) -> tuple[EvalSet, FileRead]:
    """One eval file read as ``ngram-overlap EVAL TRAIN…`` reads its test set (``fields``
    and ``id_field``: the ``--a-*`` choices; None: detected), named ``name`` (default:
    the path), and what the reading found. B is read like it only where its fields
    were detected."""
    rows, _, reads = load_rows_by_file([path], fields, id_field, options)
    found = reads[0].text_fields
    return EvalSet(path if name is None else name, rows, found,
                   None if fields else found), reads[0]


class Cause(NamedTuple):
    """Why a training row is removed: an eval (its index in the suite), its row
    (0-based in the eval) and the ``[start, end)`` characters of the training row
    from the first to the last token they share; or, ``rule`` ``"rephrased"``
    (``--remove-rephrased``), the eval row's similar row by the rephrase lens, at
    ``similarity`` (``b_chars`` then ``(0, 0)``)."""
    eval: int
    a_row: int
    b_chars: tuple[int, int]
    rule: str = "ngram"
    similarity: float = 0.0


class Removal(NamedTuple):
    """A training row to remove: its file (index in B's files), its row (1-based in
    that file), its id (None: B has no id field) and why."""
    file_index: int
    row: int
    b_id: str | None
    causes: list[Cause]


class ReadGroup(NamedTuple):
    """The evals that read a B file with the same text fields and id field."""
    reading: Reading
    id_field: str
    evals: tuple[int, ...]


class SuitePiece(NamedTuple):
    """A piece of B tokenized once for every eval: per eval, its candidate positions
    (from one hashing of the piece), and what all share (see
    :class:`~ngram_core.run.stream.PieceTokens`)."""
    candidates: list[list[int]]
    shared: PieceTokens

    @property
    def b(self) -> TokenizedRows:
        return self.shared.b

    def of_eval(self, e: int) -> PieceTokens:
        return self.shared._replace(candidates=self.candidates[e])


@dataclass
class SuiteIndex:
    """Every eval's index, sent once to each worker. The evals share one vocabulary,
    so a piece of B is tokenized once for all of them and its windows hashed once
    for each eight (``tags``: each eval's candidates are the positions with its
    bit); ``prefix_bits`` hashes every eval's short pieces' first tokens."""
    indexes: list[AIndex]
    tags: list[WindowTags]
    prefix_bits: WindowBits | None

    @classmethod
    def of(cls, tokenized: Sequence[TokenizedRows], indexes: list[AIndex], n: int,
           short_min: int) -> SuiteIndex:
        rows = [(a.buffer, a.offsets) for a in tokenized]
        tags = [WindowTags.of(rows[k:k + 8], n) for k in range(0, len(rows), 8)]
        prefixes = b"".join(key for index in indexes for key in index.short_rows)
        prefix_bits = WindowBits.of(prefixes, range(0, len(prefixes) // 4 + 1, short_min),
                                    short_min) if prefixes else None
        return cls(indexes, tags, prefix_bits)

    def piece(self, rows: list[Row]) -> SuitePiece:
        """A piece of B tokenized once for every eval, with each one's candidates."""
        first = self.indexes[0]
        shared = piece_tokens(rows, first.tokenizer(), first.n, None, self.prefix_bits)
        b = shared.b
        return SuitePiece([c for tags in self.tags for c in tags.candidates_each(b.buffer,
                                                                                 b.offsets)],
                          shared)


@dataclass
class SuitePartition:
    """One partition's partial results, one per eval, and its marked rows
    (0-based in the partition) or the error the partition hit."""
    partition: int
    file_index: int
    results: list[PartitionResult] = field(default_factory=list)
    marks: dict[int, tuple[str | None, list[Cause]]] = field(default_factory=dict)
    error: InputError | None = None


def walk_suite_partition_steps(part: Partition, groups: tuple[ReadGroup, ...],
                               suite: SuiteIndex, befores: list[dict[bytes, int]] | None = None,
                               marks: bool = True,
                               past_caps: Sequence[frozenset[bytes]] | None = None
                               ) -> StepGenerator[None, SuitePartition]:
    """One partition walked past every eval's index, read once per group of evals
    reading it alike (see :func:`~ngram_core.run.stream.walk_partition`: ``befores``,
    each eval's occurrences of its windows before this partition, ranks the cap;
    without them, ``past_caps``, each eval's windows known past the cap before it);
    a step after each eval's walk of each piece."""
    out = SuitePartition(part.index, part.file_index)
    evals = [e for group in groups for e in group.evals]
    if befores is not None:
        known, past = befores, [frozenset[bytes]() for _ in suite.indexes]
    else:
        past = list(past_caps or [frozenset() for _ in suite.indexes])
        known = [dict.fromkeys(past[e], suite.indexes[e].cap) for e in range(len(past))]
    results = {e: PartitionResult(part.index, part.file_index, ranked=befores is not None,
                                  past_cap=past[e])
               for e in evals}
    try:
        for group in groups:
            first_row = 0
            fields_read: dict[tuple[str, ...], None] = {}
            for rows in partition_chunks(part, group.reading, group.id_field, fields_read):
                piece = suite.piece(rows)
                yield None
                for e in group.evals:
                    marked: Marks | None = {} if marks else None
                    walk_rows(rows, results[e], suite.indexes[e], bool(group.id_field),
                              known[e], marked, piece.of_eval(e))
                    results[e].rows += len(rows)
                    for r, (b_id, by_a) in (marked or {}).items():
                        entry = out.marks.setdefault(first_row + r, (b_id, []))
                        entry[1].extend(Cause(e, a_row, chars) for a_row, chars in by_a.items())
                    yield None
                first_row += len(rows)
            for e in group.evals:
                results[e].fields_read = tuple(fields_read)
    except InputError as e:
        return SuitePartition(part.index, part.file_index, error=e)
    out.results = [results[e] for e in sorted(results)]
    return out


def walk_suite_partition(part: Partition, groups: tuple[ReadGroup, ...], suite: SuiteIndex,
                         befores: list[dict[bytes, int]] | None = None,
                         marks: bool = True,
                         past_caps: Sequence[frozenset[bytes]] | None = None) -> SuitePartition:
    """:func:`walk_suite_partition_steps` run to its end (a worker's task)."""
    return run_steps(walk_suite_partition_steps(part, groups, suite, befores, marks,
                                                past_caps))


class SuiteCounts(NamedTuple):
    """Per eval, the B rows of one partition holding each of its windows."""
    partition: int
    counts: list[dict[bytes, int]]
    error: InputError | None = None


def count_suite_partition(part: Partition, groups: tuple[ReadGroup, ...],
                          suite: SuiteIndex) -> SuiteCounts:
    """The frequency filter's first pass over one partition, for every eval."""
    counts: dict[int, dict[bytes, int]] = {e: {} for group in groups for e in group.evals}
    try:
        for group in groups:
            for rows in partition_chunks(part, group.reading, group.id_field):
                b = suite.piece(rows).b
                for e in group.evals:
                    for key, rows_in in count_rows_in(rows, suite.indexes[e], b).items():
                        counts[e][key] = counts[e].get(key, 0) + rows_in
    except InputError as e:
        return SuiteCounts(part.index, [], e)
    return SuiteCounts(part.index, [counts[e] for e in sorted(counts)])


@dataclass
class SuiteResult:
    """Each eval's result, in the order given, and the training rows to remove, in
    file order."""
    results: list[StreamedResult]
    removals: list[Removal]
    eval_names: list[str]
    b_paths: list[str]
    #: per B file, its rows (as read: the cleaned file keeps the others)
    b_rows: list[int]
    #: per B file, how it was read: its first partition's options and CSV layout
    b_plans: list[Partition]
    #: per B file, its partitions in order: ``(start, end, rows before it)`` (the
    #: cleaned file's pieces a worker writes; ``end`` -1: to the end of the file)
    b_parts: list[list[tuple[int, int, int]]] = field(default_factory=list)
    #: whether the rephrase lens's similar rows were asked to be removed too
    remove_rephrased: bool = False


class Found(NamedTuple):
    """One eval in one training file: its rows found there and the training rows
    holding them (the rows removed for it)."""
    eval: int
    file_index: int
    eval_rows: int
    training_rows: int


def found_in_files(suite: SuiteResult) -> list[Found]:
    """For every eval and training file (eval by eval, files in order), the eval rows
    found there and the training rows holding them.

    >>> suite = SuiteResult([], [Removal(0, 4, None, [Cause(0, 2, (0, 9)), Cause(1, 0, (3, 9))]),
    ...                          Removal(0, 7, None, [Cause(0, 2, (5, 30))])],
    ...                     ["ev0", "ev1"], ["tr.jsonl"], [10], [])
    >>> [tuple(f) for f in found_in_files(suite)]
    [(0, 0, 1, 2), (1, 0, 1, 1)]
    """
    rows: dict[tuple[int, int], tuple[set[int], set[int]]] = {}
    for removal in suite.removals:
        for cause in removal.causes:
            eval_rows, train_rows = rows.setdefault((cause.eval, removal.file_index),
                                                    (set(), set()))
            eval_rows.add(cause.a_row)
            train_rows.add(removal.row)
    empty: tuple[set[int], set[int]] = (set(), set())
    return [Found(e, f, len(rows.get((e, f), empty)[0]), len(rows.get((e, f), empty)[1]))
            for e in range(len(suite.eval_names)) for f in range(len(suite.b_paths))]


def check_suite(evals: Sequence[EvalSet], b_paths: Sequence[str], settings: Settings, *,
                b_fields: list[str] | None = None, b_id_field: str | None = None,
                b_options: ReadOptions = ReadOptions(role="b"),
                blocksize: int = DEFAULT_BLOCKSIZE,
                on_progress: Callable[[Progress], object] | None = None,
                executor: Executor | None = None, marks: bool = True,
                remove_rephrased: bool = False) -> SuiteResult:
    """Every eval checked against B, B streamed once (see the module's contract); with
    ``remove_rephrased``, the similar row of every eval row the rephrase lens marks
    is removed too (:func:`with_rephrased`)."""
    steps = check_suite_steps(evals, b_paths, settings, b_fields=b_fields,
                              b_id_field=b_id_field, b_options=b_options, blocksize=blocksize,
                              executor=executor, marks=marks)
    suite = run_steps(steps, on_progress)
    return with_rephrased(replace(suite, remove_rephrased=True)) if remove_rephrased else suite


def with_rephrased(suite: SuiteResult) -> SuiteResult:
    """The suite with the training rows the rephrase lens names removed too: for each
    eval row marked rephrased, its similar row (a cause more where the row is removed
    already), in file order::

        >>> from ngram_core.method.match import RowMatch
        >>> r = RowMatch(0, "checkable", 20, similar_b_row=4, similarity=0.75)
        >>> _rephrased_removals([[r]], (0, 3), lambda m: True)
        {(1, 2): [Cause(eval=0, a_row=0, b_chars=(0, 0), rule='rephrased', similarity=0.75)]}
    """
    b_files = suite.results[0].b_files if suite.results else None
    if b_files is None:
        return suite
    found = _rephrased_removals([result.matches for result in suite.results],
                                b_files.starts, rephrase_rule(suite.results[0].settings))
    if not found:
        return suite
    removals = {(r.file_index, r.row): r for r in suite.removals}
    ids = {m.similar_b_row: m.similar_b_id for result in suite.results for m in result.matches
           if m.similar_b_row is not None}
    for key, causes in found.items():
        held = removals.get(key)
        b_id = ids.get(b_files.starts[key[0]] + key[1] - 1)
        removals[key] = (Removal(*key, b_id, causes) if held is None else
                         held._replace(causes=sorted(held.causes + causes)))
    return replace(suite, removals=[removals[key] for key in sorted(removals)])


def _rephrased_removals(matches: Sequence[Sequence[RowMatch]], starts: Sequence[int],
                        rephrased: Callable[[RowMatch], bool]
                        ) -> dict[tuple[int, int], list[Cause]]:
    """(file index, row 1-based in it) -> the rephrase causes, from each eval's matches
    and the first global row of each B file."""
    out: dict[tuple[int, int], list[Cause]] = {}
    for e, eval_matches in enumerate(matches):
        for m in eval_matches:
            if m.similar_b_row is None or m.similarity is None or not rephrased(m):
                continue
            file_index = bisect_right(starts, m.similar_b_row) - 1
            key = (file_index, m.similar_b_row - starts[file_index] + 1)
            out.setdefault(key, []).append(Cause(e, m.row, (0, 0), "rephrased", m.similarity))
    return out


def check_suite_steps(evals: Sequence[EvalSet], b_paths: Sequence[str], settings: Settings, *,
                      b_fields: list[str] | None = None, b_id_field: str | None = None,
                      b_options: ReadOptions = ReadOptions(role="b"),
                      blocksize: int = DEFAULT_BLOCKSIZE, executor: Executor | None = None,
                      marks: bool = True) -> StepGenerator[Progress, SuiteResult]:
    """:func:`check_suite` as steps: a :class:`~ngram_core.run.check.Progress` of B's
    bytes walked after each eval's walk of each piece of B (in this process) or each
    partition (on an executor), so a caller can pause between them (the page)."""
    if not evals:
        raise InputError("--evals", "names no test file")
    parts = plan_partitions(b_paths, b_options, blocksize)
    prepared: list[tuple[Any, Any, AIndex, Template]] = []
    shared = settings.tokenizer()         # one vocabulary: B tokenized once for all
    for ev in evals:
        tokenizer, a, index = index_a(ev.rows, settings, shared)
        template = template_for(a, settings, tokenizer)
        if template.masked:
            index = index.unmasked(template.masked)
        prepared.append((tokenizer, a, index, template))
    groups, reads = _read_groups(parts, evals, b_fields, b_id_field)
    choices = {f: (g,) for f, g in groups.items()}      # each suite work's arguments
    vocabulary = dict(shared.vocabulary)
    indexes = [replace(index, vocabulary=vocabulary) for _, _, index, _ in prepared]
    first_pass = SuiteIndex.of([a for _, a, _, _ in prepared], indexes, settings.n,
                               settings.short_min)
    passes = 1 if settings.max_b_rows is None else 2
    sizes = {part.index: part_bytes(part) for part in parts}
    whole = passes * sum(sizes.values())
    done_bytes = 0

    def report(partition: int) -> Progress:
        nonlocal done_bytes
        done_bytes += sizes[partition]
        return Progress("stream B", done_bytes, whole)

    ignored: list[set[bytes]] = [set() for _ in evals]
    if settings.max_b_rows is not None:
        rows_of: list[dict[bytes, int]] = [{} for _ in evals]
        for counted in _over_partitions(executor, count_suite_partition, parts, choices,
                                        first_pass):
            for e, counts in enumerate(counted.counts):
                for key, rows in counts.items():
                    rows_of[e][key] = rows_of[e].get(key, 0) + rows
            yield report(counted.partition)
        for e in range(len(evals)):
            ignored[e] = {k for k, rows in rows_of[e].items() if rows > settings.max_b_rows}
            indexes[e] = indexes[e].without(ignored[e])       # the first pass stays a superset
    totals = [Combined() for _ in evals]
    walked: list[dict[int, PartitionResult]] = [{} for _ in evals]
    marked: dict[int, dict[int, tuple[str | None, list[Cause]]]] = {}
    suite = replace(first_pass, indexes=indexes)
    for partial in _suite_walks(executor, parts, choices, suite, marks):
        if partial is None:         # a piece walked: the bytes so far
            yield Progress("stream B", done_bytes, whole)
            continue
        for e, result in enumerate(partial.results):
            totals[e].add(result, best=False)
            walked[e][partial.partition] = _kept(result)
        marked[partial.partition] = partial.marks
        yield report(partial.partition)
    out: list[StreamedResult] = []
    for e, ev in enumerate(evals):
        tokenizer, a, _, template = prepared[e]
        in_order = [walked[e][part.index] for part in parts]
        again, capped = over_cap(in_order, settings.cap)
        if again:       # walked in parallel: the partitions past the cap, walked ranked
            own = {f: (g.reading, g.id_field) for f, gs in groups.items()
                   for g in gs if e in g.evals}
            for partial in _over_partitions(executor, walk_partition, [parts[p] for p in again],
                                            own, indexes[e], extra=again):
                walked[e][partial.partition] = _kept(partial)
        for part in parts:
            totals[e].add_best(walked[e][part.index])
        b_reads, b_counts = _b_files({f: reads[f, e] for f in groups}, walked[e].values(),
                                     settings.n)
        b_fields_read = fields_beside([f for gs in groups.values() for g in gs
                                       if e in g.evals for f in g.reading.fields],
                                      (r.text_fields for r in b_reads))
        checked = assemble(ev.rows, a, tokenizer, settings, totals[e], parts, len(ignored[e]),
                           (ev.fields, b_fields_read), capped, template, indexes[e].pieces)
        checked.b_reads, checked.b_counts = b_reads, b_counts
        out.append(checked)
    first_walk = walked[0] if walked else {}
    plans = {part.file_index: part for part in reversed(parts)}     # each file's first
    firsts = _file_firsts(parts, first_walk)
    b_parts: dict[int, list[tuple[int, int, int]]] = {}
    for part in parts:
        b_parts.setdefault(part.file_index, []).append((part.start, part.end,
                                                        firsts[part.index]))
    return SuiteResult(out, _removals(parts, first_walk, marked), [ev.name for ev in evals],
                       list(b_paths), _rows_per_file(parts, first_walk),
                       [plans[f] for f in sorted(plans)], [b_parts[f] for f in sorted(b_parts)])


def _read_groups(parts: Sequence[Partition], evals: Sequence[EvalSet],
                 b_fields: list[str] | None, b_id_field: str | None
                 ) -> tuple[dict[int, tuple[ReadGroup, ...]], dict[tuple[int, int], FileRead]]:
    """For each B file, the evals grouped by the fields they read it by; and what
    each eval's reading of each file found."""
    groups: dict[int, tuple[ReadGroup, ...]] = {}
    reads: dict[tuple[int, int], FileRead] = {}
    for part in parts:
        if part.file_index in groups:
            continue
        chosen: dict[tuple[Reading, str], list[int]] = {}
        by_like: dict[tuple[str, ...] | None, Any] = {}
        for e, ev in enumerate(evals):
            like = tuple(ev.like) if ev.like else None
            if like not in by_like:
                by_like[like] = _field_choice(part, b_fields, b_id_field, ev.like)
            (reading, id_field), read = by_like[like]
            chosen.setdefault((reading, id_field), []).append(e)
            reads[part.file_index, e] = read
        groups[part.file_index] = tuple(ReadGroup(f, i, tuple(es))
                                        for (f, i), es in chosen.items())
    return groups, reads


def _suite_walks(executor: Executor | None, parts: Sequence[Partition],
                 choices: dict[int, tuple[tuple[ReadGroup, ...]]], suite: SuiteIndex,
                 marks: bool) -> Iterator[SuitePartition | None]:
    """Every partition walked past every eval: in this process in file order, each
    eval knowing its windows' occurrences before (so none is walked twice), a None
    after each piece's walk; on an executor in parallel, each told what is known of
    each eval's cap when it is sent (:class:`~ngram_core.run.stream.CapFloor`),
    ranked later where that was not enough (see
    :func:`~ngram_core.run.stream.over_cap`)."""
    if executor is not None:
        floors = [CapFloor(index.cap) for index in suite.indexes]
        for partial in executor.map(_walk_unranked if marks else _walk_unmarked, parts,
                                    choices, suite,
                                    lambda part: [f.told(part.index) for f in floors]):
            for floor, result in zip(floors, partial.results):
                floor.add(partial.partition, result.seen)
            yield partial
        return
    befores: list[dict[bytes, int]] = [{} for _ in suite.indexes]
    for part in parts:
        partial = yield from walk_suite_partition_steps(part, choices[part.file_index][0],
                                                        suite, befores, marks)
        if partial.error is not None:
            raise partial.error
        for e, result in enumerate(partial.results):
            for key, count in result.seen.items():
                befores[e][key] = befores[e].get(key, 0) + count
        yield partial


Told = Sequence[tuple["dict[bytes, int] | None", frozenset[bytes]]]


def _walk_unranked(part: Partition, groups: tuple[ReadGroup, ...], suite: SuiteIndex,
                   told: Told) -> SuitePartition:
    return _walk_told(part, groups, suite, told, True)


def _walk_unmarked(part: Partition, groups: tuple[ReadGroup, ...], suite: SuiteIndex,
                   told: Told) -> SuitePartition:
    return _walk_told(part, groups, suite, told, False)


def _walk_told(part: Partition, groups: tuple[ReadGroup, ...], suite: SuiteIndex,
               told: Told, marks: bool) -> SuitePartition:
    """A partition walked told each eval's cap as known when it was sent (see
    :meth:`~ngram_core.run.stream.CapFloor.told`): ranked where every eval's
    occurrences before it were known."""
    befores = [before for before, _ in told]
    if all(before is not None for before in befores):
        return walk_suite_partition(part, groups, suite, befores, marks)   # type: ignore[arg-type]
    return walk_suite_partition(part, groups, suite, None, marks, [past for _, past in told])


def _file_firsts(parts: Sequence[Partition], walked: dict[int, PartitionResult]
                 ) -> dict[int, int]:
    """Each partition's first row within its file (0-based)."""
    firsts: dict[int, int] = {}
    running: dict[int, int] = {}
    for part in parts:
        firsts[part.index] = running.get(part.file_index, 0)
        running[part.file_index] = firsts[part.index] + (walked[part.index].rows
                                                         if part.index in walked else 0)
    return firsts


def _rows_per_file(parts: Sequence[Partition], walked: dict[int, PartitionResult]) -> list[int]:
    rows: dict[int, int] = {}
    for part in parts:
        rows[part.file_index] = rows.get(part.file_index, 0) + (
            walked[part.index].rows if part.index in walked else 0)
    return [rows[f] for f in sorted(rows)]


def _removals(parts: Sequence[Partition], walked: dict[int, PartitionResult],
              marked: dict[int, dict[int, tuple[str | None, list[Cause]]]]) -> list[Removal]:
    """The marked rows as removals, in file order, each row's causes ordered."""
    firsts = _file_firsts(parts, walked)
    out = []
    for part in parts:
        for r, (b_id, causes) in sorted(marked.get(part.index, {}).items()):
            out.append(Removal(part.file_index, firsts[part.index] + r + 1, b_id,
                               sorted(causes)))
    return out
