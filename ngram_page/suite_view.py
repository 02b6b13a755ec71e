"""Several test sets in slot A: a table of each one against file B, and which one the
rest of the page shows.

The table is what ``ngram-overlap decontaminate --evals A1 A2 … --train B…`` finds:
the page runs the same function (:func:`ngram_core.run.suite.check_suite_steps`,
B read once for every test set) on copies of the files in the tab's own
in-memory file system (nothing leaves the tab), each test set read as the command
reads it with no ``--a-*`` flag, file B with the slot's choices. Each test set's
figures are its own check's (the suite's contract), so picking one in the table
shows the same figure above its rows.
"""

from __future__ import annotations

from collections import Counter

import os
import shutil
import tempfile
from typing import NamedTuple

from ngram_core import InputError
from ngram_core.errors import visible
from ngram_core.method.settings import Settings
from ngram_core.read.readers import refuse_binary
from ngram_core.report.summary import percent
from ngram_core.table import ReadOptions

from .dom import append_breakable, create, el, found, mark, set_text
from .text import too_big
from .verdict import show_progress


#: The table's columns after the test set's name (index.html's headings).
COLUMNS = ("Rows", "Checkable", "Flagged", "Share", "Contained", "Rephrased",
           "Rows of B holding them")


class SuiteRow(NamedTuple):
    """One test set's line of the table."""
    name: str
    rows: int
    checkable: int
    flagged: int
    share: float
    contained: int
    #: rows the rephrase lens marks (:attr:`~ngram_core.report.summary.Summary.rephrased`)
    rephrased: int
    #: per file of B, the training rows holding this test set's rows found there
    holding: tuple[int, ...]


def safe_name(name: str) -> str:
    """A picked file's name as a file name in the tab's file system (the name shown
    stays the file's own).

    >>> safe_name("test.jsonl"), safe_name(".."), safe_name("a/b")
    ('test.jsonl', 'file', 'a_b')
    """
    name = name.replace("/", "_").replace("\0", "_")
    return "file" if name in ("", ".", "..") else name


def own_name(message: str, path: str, name: str) -> str:
    """An engine message about a file placed at ``path`` in the tab's file system, in
    the file's own name (the temporary path means nothing to the person)::

        >>> own_name("/tmp/ngram-suite-x/a1/bad.json, line 1: not JSON", "/tmp/ngram-suite-x/a1/bad.json", "bad.json")
        'bad.json, line 1: not JSON'
    """
    return message.replace(path, name)


def own_names(message: str, folder: str, b_files) -> str:
    """Every placed file's path in ``message`` replaced by its own name (the files of
    B are placed as ``folder/b<i>/<name>``)."""
    for i, (name, _) in enumerate(b_files):
        message = message.replace(os.path.join(folder, f"b{i}", safe_name(name)), name)
    return message.replace(folder + os.sep, "")


def holding_text(holding: tuple[int, ...], b_names: tuple[str, ...]) -> str:
    """The last column: training rows holding a test set's rows, per file of B when
    there are several.

    >>> holding_text((3,), ("train.jsonl",))
    '3'
    >>> holding_text((1200, 0), ("a.jsonl", "b.jsonl"))
    '1,200 (a.jsonl 1,200, b.jsonl 0)'
    """
    total = f"{sum(holding):,}"
    if len(holding) < 2:
        return total
    return total + " (" + ", ".join(f"{name} {count:,}"
                                    for name, count in zip(b_names, holding)) + ")"


def told_apart(names: list[str]) -> list[str]:
    """The test sets' names as the table lists them: a name picked more than once is
    followed by its place among them, in the order picked::

        >>> told_apart(["test.jsonl", "dev.jsonl", "test.jsonl"])
        ['test.jsonl (1 of 2)', 'dev.jsonl', 'test.jsonl (2 of 2)']
    """
    total, seen = Counter(names), Counter()
    out = []
    for name in names:
        seen[name] += 1
        out.append(f"{name} ({seen[name]} of {total[name]})" if total[name] > 1 else name)
    return out


class SuiteView:
    """The test sets picked together, the one shown, and their table."""

    def __init__(self, on_pick):
        self.evals: list[tuple[str, bytes]] = []
        #: each test set read as the command reads it (None: refused, why in ``refused``)
        self.sets: list = []
        #: the refused test sets' positions and why, in the file's own name
        self.refused: dict[int, str] = {}
        self.current = 0
        self.on_pick = on_pick           # called with a test set's position, when picked
        self.key: tuple | None = None    # what the table shows was computed from
        self.rows: list[SuiteRow] = []
        self.positions: list[int] = []   # each row's test set (its position as picked)
        self.b_names: tuple[str, ...] = ()

    @property
    def active(self) -> bool:
        return len(self.evals) > 1

    def names_shown_first(self) -> list[str]:
        """The test sets' names for a link: the one shown first, so the link's view
        (its rows, their order, the open row) is that one's when the link's files are
        picked again (the first test set picked is the one shown)."""
        names = [name for name, _ in self.evals]
        return [names[self.current]] + names[:self.current] + names[self.current + 1:]

    def set(self, named: list[tuple[str, bytes]], over: dict[int, int] | None = None,
            limit: int = 0) -> None:
        """Several test sets picked (``over``: the positions of those over the bound
        ``limit``, with their sizes; their bytes were not read): the first readable
        one is shown, once :meth:`vet` has read them."""
        self.evals, self.current, self.key, self.rows = list(named), 0, None, []
        self.sets = [None] * len(named)
        self.refused = {i: too_big(named[i][0], size, limit) for i, size in (over or {}).items()}
        set_text("suite-status", f"{len(named):,} test sets in file A: each is checked against "
                                 f"file B once both files are read.")
        el("suite-table").tBodies.item(0).replaceChildren()
        el("suite").hidden = False

    #: What the table shows: kept while new test sets are read, put back if all are refused.
    STATE = ("evals", "sets", "refused", "current", "key", "rows", "positions", "b_names")

    def kept(self) -> tuple:
        """The table's state and status line, to put back (:meth:`put_back`) when every
        test set picked next is refused: the last good result keeps its table."""
        return ({name: getattr(self, name) for name in self.STATE},
                str(el("suite-status").textContent), bool(el("suite").hidden))

    def put_back(self, kept: tuple) -> None:
        state, status, hidden = kept
        for name, value in state.items():
            setattr(self, name, value)
        set_text("suite-status", status)
        el("suite").hidden = hidden
        self.draw()
        mark("suite", str(len(self.evals)) if self.evals and not hidden else "")

    def clear(self) -> None:
        """One test set picked (or none): no table."""
        self.evals, self.sets, self.refused, self.key, self.rows = [], [], {}, None, []
        el("suite").hidden = True
        mark("suite", "")

    async def vet(self, runner) -> int | None:
        """Read every test set as the command reads it; those that cannot be read are
        refused, each with its message in its own name (never the tab's temporary
        path). The first readable one is shown: its position (None: every one refused)."""
        from ngram_core.run.suite import read_eval

        folder = tempfile.mkdtemp(prefix="ngram-suite-")
        try:
            for i, (name, data) in enumerate(self.evals):
                if i in self.refused:
                    continue
                place = os.path.join(folder, f"a{i}")
                os.mkdir(place)
                path = os.path.join(place, safe_name(name))
                with open(path, "wb") as f:
                    f.write(data)
                try:
                    refuse_binary(data, path)     # as one test set picked alone is refused
                    self.sets[i] = read_eval(path, name)[0]
                except InputError as e:
                    self.refused[i] = own_name(str(e), path, name)
                await runner.turn("suite: test sets")
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        readable = [i for i in range(len(self.evals)) if i not in self.refused]
        self.current = readable[0] if readable else 0
        return readable[0] if readable else None

    def refusals(self) -> list[tuple[str, str]]:
        """The refused test sets: (name, why), in the order picked."""
        return [(self.evals[i][0], why) for i, why in sorted(self.refused.items())]

    def refused_sentence(self) -> str:
        """Why the result is out of date while a test set is refused (empty: none is)::

            >>> view = SuiteView(None)
            >>> view.evals = [("a.jsonl", b""), ("b.json", b"")]
            >>> view.refused = {1: "b.json, line 1: not JSON"}
            >>> view.refused_sentence()
            'test set b.json of file A was refused (b.json, line 1: not JSON): the table checks 1 of 2 test sets'
        """
        refusals = self.refusals()
        if not refusals:
            return ""
        names = ", ".join(name for name, _ in refusals)
        whys = "; ".join(why.strip().rstrip(".") for _, why in refusals)
        sets = "test set" if len(refusals) == 1 else "test sets"
        verb = "was" if len(refusals) == 1 else "were"
        checked = len(self.evals) - len(refusals)
        return (f"{sets} {names} of file A {verb} refused ({whys}): the table checks "
                f"{checked:,} of {len(self.evals):,} test sets")

    def slot_lines(self, shown_line: str) -> list[str]:
        """Slot A's list of every test set: the one shown (``shown_line``), the
        others checked in the table, the refused ones with why."""
        lines = []
        for i, (name, data) in enumerate(self.evals):
            if i == self.current:
                lines.append(f"{shown_line} (shown below)")
            elif i in self.refused:
                lines.append(f"{name}: refused: {self.refused[i]}")
            else:
                lines.append(f"{name}: in the table of test sets above")
        return lines

    def clicked(self, event) -> None:
        button = event.target.closest("button[data-eval]")
        if not found(button):
            return
        position = int(button.dataset.eval)
        if position != self.current:
            self.current = position
            self.draw()
            self.on_pick(position)

    async def compute(self, runner, b_slot, settings: Settings) -> None:
        """The table for these test sets against the files of ``b_slot`` (once per
        change of either or of the settings)."""
        b_files = tuple((f.name, f.data) for f in b_slot.files)
        key = (tuple(self.evals), b_files, b_slot.command_choice(), settings)
        if key == self.key:
            self.draw()
            return
        set_text("suite-status", f"Checking {len(self.evals):,} test sets against file B\u2026")
        from ngram_core.run.suite import check_suite_steps, found_in_files

        checked = [i for i in range(len(self.evals)) if i not in self.refused]
        folder = tempfile.mkdtemp(prefix="ngram-suite-")
        try:
            def placed(kind: str, i: int, name: str, data: bytes) -> str:
                os.mkdir(os.path.join(folder, f"{kind}{i}"))
                path = os.path.join(folder, f"{kind}{i}", safe_name(name))
                with open(path, "wb") as f:
                    f.write(data)
                return path

            evals = [self.sets[i] for i in checked]
            b_paths = [placed("b", i, name, data) for i, (name, data) in enumerate(b_files)]
            choice = b_slot.command_choice()
            options = ReadOptions(role="b", records=choice.records, delimiter=choice.delimiter,
                                  header=choice.header, text_rows=choice.text_rows)
            suite = await runner.drive(check_suite_steps(
                evals, b_paths, settings, b_fields=list(choice.text_fields or ()) or None,
                b_id_field=choice.id_field, b_options=options), show_progress)
        except InputError as e:
            message = own_names(str(e), folder, b_files)
            set_text("suite-status", f"The test sets could not be checked together: {message}.")
            self.key, self.rows = None, []
            el("suite-table").tBodies.item(0).replaceChildren()
            mark("suite", "error")
            return
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        holding: dict[int, list[int]] = {e: [0] * len(b_paths) for e in range(len(evals))}
        for found in found_in_files(suite):
            holding[found.eval][found.file_index] = found.training_rows
        self.rows = [SuiteRow(name, s.rows, s.checkable, s.flagged, s.flagged_share, s.contained,
                              s.rephrased, tuple(holding[e]))
                     for e, (name, s) in enumerate(zip(suite.eval_names,
                                                       (r.summary for r in suite.results)))]
        self.positions = checked
        self.key, self.b_names = key, tuple(name for name, _ in b_files)
        leaked = sum(1 for row in self.rows if row.flagged or row.contained)
        status = (f"{leaked:,} of {len(self.rows):,} test sets have rows found in "
                  f"file B. Pick one to see its rows below.")
        for name, why in self.refusals():       # one line each
            status += f"\nRefused, not checked: {why}"
        set_text("suite-status", status)
        self.draw()
        mark("suite", str(len(self.evals)))

    def draw(self) -> None:
        """The table, the test set shown marked as pressed."""
        body = el("suite-table").tBodies.item(0)
        body.replaceChildren()
        checked = dict(zip(self.positions, self.rows))
        labels = told_apart([name for name, _ in self.evals])
        for position in range(len(self.evals) if self.rows else 0):
            line = body.insertRow()
            if position in self.refused:     # named, with why, in place of its figures
                name = create("span", file_text=True)
                append_breakable(name, labels[position])
                line.insertCell().append(name)
                why = line.insertCell()
                why.colSpan = len(COLUMNS)
                why.className = "refused"       # its own words, no "Checked" label on a phone
                why.textContent = visible(f"Refused, not checked: {self.refused[position]}")
                continue
            row = checked[position]
            cell = line.insertCell()
            button = create("button", file_text=True)
            append_breakable(button, labels[position])
            button.type = "button"
            button.dataset.eval = str(position)
            button.setAttribute("aria-pressed", "true" if position == self.current else "false")
            cell.append(button)
            for label, value in zip(COLUMNS, (f"{row.rows:,}", f"{row.checkable:,}",
                                              f"{row.flagged:,}", percent(row.share),
                                              f"{row.contained:,}", f"{row.rephrased:,}",
                                              holding_text(row.holding, self.b_names))):
                number = line.insertCell()
                number.textContent = visible(value)
                number.className = "num"
                number.dataset.label = label     # the cards a phone shows name each value
