"""The contamination report under a drawn result: what the page computes after the check.

:class:`Reporting` keeps the result the report is about (and file A as it was
read for it), computes the published definitions in short steps, and answers
the report's controls: the score source (a field of A or the results file of
:mod:`ngram_page.results_file`), the clean split's rule and its two
downloads. Drawing is :mod:`ngram_page.report_view`'s.
"""

from __future__ import annotations

import time
from typing import NamedTuple

from ngram_core import InputError
from ngram_core.report.clean_split import kept_considered, split_names
from ngram_core.report.contamination import (clean_split_steps, definitions_steps_for, drop_rows,
                                      score_report)

from . import report_view
from .dom import el, mark, set_text
from .download import save_bytes
from .results_file import ResultsFile, score_view
from .runner import collection_paused
from .slots import MAX_BYTES, LoadedFile, picked_files, read_file
from .text import several_names


class Shown(NamedTuple):
    """What the drawn result was computed from, for its sentences and file names, and
    file A as it was read (for the scores and the clean split)."""
    a_name: str
    b_names: tuple
    threshold_text: str
    example: bool
    a_file: LoadedFile
    a_id_field: str | None           # as chosen; None: detected

    @property
    def names(self) -> tuple[str, str]:
        return self.a_name, several_names(self.b_names)


class Reporting:
    """The report of the result shown: definitions, score impact, the clean split."""

    def __init__(self, runner):
        self.runner = runner
        self.results = ResultsFile()     # the optional third slot, for scores
        self.result = None
        self.shown: Shown | None = None
        self.scored = 0

    async def compute(self, result, shown: Shown, run: int, definitions_ready=None) -> None:
        """After a result is drawn: the share histogram at once, then the published
        definitions (computed in short steps: the result is already shown; then
        ``definitions_ready(definitions)``, for the row explorer), the score impact
        and the clean split. ``data-reported`` then holds ``run``."""
        self.result, self.shown = result, shown
        started = self.runner.restart()
        report_view.histogram(result)
        report_view.clear_definitions()
        el("split-controls").disabled = True
        el("report-work").hidden = False
        try:
            with collection_paused():    # as for the check: no long collection pauses
                await self.runner.drive(definitions_steps_for(result), show_report_progress)
        finally:
            el("report-work").hidden = True
        await self.runner.breathe("definitions computed")
        report_view.definitions(result)          # each part is a pass over every row:
        await self.runner.breathe("definitions drawn")   # the browser gets a turn between
        if definitions_ready is not None:
            definitions_ready(result.definitions)
            await self.runner.breathe("explorer given the definitions")
        self.results.offer_a_fields(self.shown.a_file.table.fields)
        self.show_scores()
        await self.runner.breathe("scores drawn")
        el("split-controls").disabled = False
        self.show_split()
        await self.runner.breathe("report drawn")
        held, where = self.runner.longest
        mark("reportTiming", f"report {time.perf_counter() - started:.3f} s, longest Python "
                             f"step {held * 1000:.0f} ms ({where})")
        mark("reported", str(run))

    def show_scores(self) -> None:
        """The score impact of the result shown, from the score controls: first how the
        scores were found (rows matched), then the table, or, when no row matched or
        none has a score, why and what to choose instead. A score field that is
        missing is said beside the controls and the last table stays."""
        result, shown = self.result, self.shown
        if result is None or result.definitions is None:
            return                       # the report draws them when it is done
        source = self.results.source()
        set_text("score-error", "")
        if not source.wanted:
            report_view.impact(None, "", "")
        else:
            try:
                view = score_view(result, shown.a_file.table, shown.a_id_field, source)
            except InputError as e:
                kept = not el("impact-box").hidden      # the last table: out of date
                set_text("score-error", f"{e}." + (" The table below is of the scores read "
                                                   "before." if kept else ""))
                report_view.impact_stale(kept)
                return
            figures = score_report(result, view.column) if view.column is not None else None
            report_view.impact(figures, view.before, view.empty)
        self.scored += 1
        mark("scored", str(self.scored))

    async def results_chosen(self) -> None:
        """A results file was picked for the scores (one file, within the bound)."""
        files = picked_files("r")
        el("file-r").value = ""
        if not files:
            return
        file = files[0]
        if int(file.size) > MAX_BYTES:
            self.results.refuse(str(file.name), int(file.size), MAX_BYTES)
        elif await self.results.load(self.runner, str(file.name), await read_file(file)):
            self.show_scores()

    def results_cleared(self) -> None:
        self.results.clear()
        self.show_scores()

    def show_split(self) -> None:
        """How many rows each file of the clean split holds, by the rule chosen."""
        result = self.result
        if result is None or result.definitions is None:
            return
        clean_by = str(el("clean-by").value)
        drop = drop_rows(result, clean_by)
        dropped = len(drop)
        report_view.split_line(len(result.a_rows) - dropped, dropped, clean_by,
                               kept_considered(clean_by, result.matches, drop,
                                               result.definitions),
                               result.summary.contained_unflagged if clean_by == "main" else 0,
                               result.definitions.llama2.subset_counts["clean"]
                               if clean_by == "llama2" else None)

    async def download_split(self, which: str) -> None:
        """Save file A's clean rows (``which`` = "clean") or its contaminated ones, each
        row's bytes as they were in the file, as ``--clean-out``/``--dirty-out`` write."""
        result, shown = self.result, self.shown
        if result is None or result.definitions is None:
            return
        a = shown.a_file
        set_text("split-error", "")
        clean_by = str(el("clean-by").value)
        try:
            split = await self.runner.drive(clean_split_steps(result, clean_by, a.data,
                                                              a.table))
        except InputError as e:
            set_text("split-error", f"{e}.")
            return
        clean_name, dirty_name = split_names(shown.a_name, clean_by)
        if which == "clean":
            save_bytes(split.clean, clean_name)
        else:
            save_bytes(split.dirty, dirty_name)


def show_report_progress(progress) -> None:
    el("report-progress").value = progress.fraction
    set_text("report-stage", f"Computing the published definitions: {progress.stage} "
                             f"({progress.fraction:.0%})")
