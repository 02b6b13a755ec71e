"""What each user action does: files picked, how they are read, fields or settings
changed, a row selected, a CSV saved.

:class:`Page` holds the two slots, the last valid result and the engine's
cache, and runs a check from the slots' rows to a drawn result, writing the
shared link and the body's markers (``data-busy``, ``data-runs``,
``data-loads``, ``data-selected``, ``data-timing``) the tests and the
benchmark wait on. After the result is drawn (``data-runs``), its report is
computed (:mod:`ngram_page.reporting`). ``data-busy`` is 1 from the moment a
run is asked for until the latest run asked for ends (its report done, or
cancelled), so a wait on it never takes an earlier run's end for this one's.

The worked example is checked only against itself: once the person loads a
file into one slot, the example leaves the other, which asks for a file, so
no result ever mixes the person's file with the example.
"""

from __future__ import annotations

import time

from ngram_core import CheckCache, InputError, check_steps

from ngram_core.argv import command_line
from ngram_core.method.match import CHECKABLE, contained_a_chars
from ngram_core.method.similar import telling_terms, term_ranges
from ngram_core.report.export import rows_csv_text
from ngram_core.report.summary import rephrase_rule

from . import controls, counts, panes
from .dom import bring_into_view, el, js, mark, set_text, wasm_bytes
from .download import save_csv
from .explorer import Explorer
from .reporting import Reporting, Shown
from .rephrased_view import RephrasedView
from .review_view import ReviewView
from .runner import Runner, collection_paused, spawn
from .slots import MAX_BYTES, Slot, picked_files, read_file
from .suite_view import SuiteView
from .text import change_line, linked_files_sentence, other_files, rows_moved
from .urlstate import (ViewLink, asked_choice, build_query, files_fragment, link_controls,
                       linked_files, linked_view, parse_query)
from .verdict import Verdict, copy_text, show_progress

OTHER = {"a": "b", "b": "a"}


def plain_rows_csv(result) -> str:
    """A result's rows CSV without the published definitions' columns (the report
    adds them later), the rephrase lens's with them: what a change of the controls
    is compared by."""
    settings = result.settings
    return rows_csv_text(result.matches, result.a_rows, result.b_id, settings.threshold,
                         result.b_files, None,
                         rephrase_rule(settings) if settings.rephrase else None)


def refused(key: str, names: list[str], message: str = "") -> str:
    """Why the result is out of date when a slot's files were refused: the slot's
    message itself, so it is read beside the figure too.

    >>> refused("b", ["huge.jsonl"], "huge.jsonl is 2,000,001 bytes, 1 byte over the bound.")
    'file B, huge.jsonl, was refused: huge.jsonl is 2,000,001 bytes, 1 byte over the bound'
    """
    why = f": {message.strip().rstrip('.')}" if message.strip() else " (its message is below)"
    return f"file {key.upper()}, {', '.join(names)}, was refused{why}"


class Page:
    """The page's state (two slots, the last valid result, the engine's cache) and its actions."""

    def __init__(self):
        self.slots = {"a": Slot("a"), "b": Slot("b")}
        self.runner = Runner()
        self.report = Reporting(self.runner)   # definitions, scores, the clean split
        self.result = None           # the last valid CheckResult
        self.checked_files: tuple = ()   # the files it was checked from (names, data)
        self.link_files: tuple = ()      # the files the link's first result was checked from
        self.shown: Shown | None = None
        self.cache = CheckCache()    # tokens and index kept between checks
        self.selected = None         # the explorer's position of the row shown, or None
        self.verdict = Verdict()
        self.explorer = Explorer(self.row_focused)
        self.suite = SuiteView(self.eval_picked)   # several test sets in slot A
        self.review = ReviewView(self.explorer_holding, self.left_out, self.put_back)
        self.rephrased = RephrasedView(self.explorer_rephrased)
        self.runs = 0
        self.loads = 0
        query = parse_query(str(js.window.location.search))
        self.link = link_controls(query)
        self.linked = linked_files(str(js.window.location.hash))   # the link's files' names
        # the explorer's view the link names, for the first result of the person's files
        self.pending_view = linked_view(str(js.window.location.hash)) if self.linked else None
        for key, slot in self.slots.items():
            slot.asked = asked_choice(query, key)

    def open_link(self) -> None:
        """Set the controls from the engine's bounds, then from the page's own link."""
        controls.show_engine_bounds()
        controls.apply_link(self.link)

    def ask_for_linked_files(self) -> None:
        """Opened from a link that names its files, without them: no result (the worked
        example's figure would read as the link's), the files asked for by name."""
        for key, slot in self.slots.items():
            slot.clear(needed=True, linked=self.linked.get(key))
        self.verdict.ask(linked_files_sentence(self.linked))
        mark("asked", "files")

    def stale(self, on: bool, why: str = "", table: bool = True) -> None:
        """Mark the result shown as out of date, or no longer; ``table``: the table of
        several test sets too (not when it was just made from the test sets picked,
        one of them refused: it says so itself)."""
        self.verdict.stale(on, why)
        el("suite").dataset.stale = "1" if on and table and self.verdict.drawn else "0"

    def refuse(self, key: str, names: list[str]) -> None:
        """Files picked in a slot were refused: the slot names them (only those: its
        message says the others picked with them were not read) and says why, the
        result shown is marked out of date with the same words, and the slot's message
        is brought into view where the person picked them."""
        slot = self.slots[key]
        set_text(f"{key}-name", "Refused: " + ", ".join(names))
        slot.clear_details()
        self.stale(True, refused(key, names, slot.error or ""))
        bring_into_view(f"slot-{key}-title", "start")   # its name, under no bar, to its message

    def loaded(self) -> None:
        """A slot finished reading (or refusing) files: the tests wait on this."""
        self.loads += 1
        mark("loads", str(self.loads))

    # --- files -------------------------------------------------------------------

    async def load_bytes(self, key: str, named: list, example=False) -> bool:
        """Read ``[(name, bytes), ...]`` into a slot; a person's file sends the worked
        example away from the other slot."""
        slot = self.slots[key]
        if example and any(s.files and not s.example for s in self.slots.values()):
            return False                 # the person's own file came first: no example
        if not example:
            self.runner.cancel()         # a run in progress is about the old files
        slot.failed = None
        loaded = await slot.load(self.runner, named, example)
        if not loaded:
            self.refuse(key, [slot.failed] if slot.failed else [name for name, _ in named])
            return False
        other = self.slots[OTHER[key]]
        if not example and (other.example or not other.files):
            other.clear(needed=True)
        return True

    async def results_chosen(self) -> None:
        """A results file was picked for the scores."""
        await self.report.results_chosen()
        self.loaded()

    async def file_chosen(self, key: str) -> None:
        self.runner.restart()
        slot = self.slots[key]
        files = picked_files(key)
        if not files:
            return
        if key == "a":
            el("a-refused").hidden = True    # a new pick: what was refused before is gone
        named = None
        over = {i: int(file.size) for i, file in enumerate(files) if int(file.size) > MAX_BYTES}
        several_a = key == "a" and len(files) > 1
        try:
            if over and not several_a:   # nothing is read of any of them
                slot.show_refused([(str(files[i].name), size) for i, size in over.items()],
                                  len(files) - len(over))
                self.refuse(key, [str(files[i].name) for i in over])
                return
            named = [(str(file.name), b"" if i in over else await read_file(file))
                     for i, file in enumerate(files)]
        finally:
            el(f"file-{key}").value = ""     # the same file picked again is read again
            if named is None:
                self.loaded()
        if key == "a":                   # several test sets: a table of them, the first shown
            if several_a:
                if not await self.pick_test_sets(named, over):
                    self.loaded()
                    return
                named = [named[self.suite.current]]
            else:
                self.suite.clear()
                self.slots["a"].listing = None
        if await self.load_bytes(key, named):
            self.recompute()             # a new file: no need to wait for more typing
        self.loaded()

    async def pick_test_sets(self, named: list, over: dict[int, int]) -> bool:
        """Several test sets picked in slot A: each is read as the command reads it,
        those that cannot be are named as refused in the slot (and beside the verdict,
        once a result is shown); False when every one is refused."""
        suite, slot = self.suite, self.slots["a"]
        self.runner.cancel()
        kept, listing = suite.kept(), slot.listing
        suite.set(named, over, MAX_BYTES)
        shown = await suite.vet(self.runner)
        refusals = suite.refusals()
        set_text("a-refused", "\n".join(f"Refused, not checked: {why}" for _, why in refusals))
        el("a-refused").hidden = not refusals
        if shown is None:                # the last good result keeps its table
            suite.put_back(kept)
            slot.listing = listing
            slot.show_error("No test set picked could be read. Choose other files.")
            self.refuse("a", [name for name, _ in named])
            return False
        wanted = (self.linked.get("a") or [""])[0] if self.pending_view is not None else ""
        names = [name for name, _ in named]
        if wanted in names and names.index(wanted) not in suite.refused:
            suite.current = names.index(wanted)   # the link's test set, whatever the order
        slot.listing = suite.slot_lines
        if refusals:
            self.stale(True, suite.refused_sentence(), table=False)
            bring_into_view("slot-a-title", "start")
        return True

    def eval_picked(self, position: int) -> None:
        """A test set was picked in the table of several: the page shows its check."""
        spawn(self.show_eval(position))

    async def show_eval(self, position: int) -> None:
        self.runner.restart()
        if await self.load_bytes("a", [self.suite.evals[position]]):
            self.recompute()
        self.loaded()

    # --- the review of shared passages -----------------------------------------------

    def explorer_holding(self, rows: set[int], text: str) -> None:
        """Show the rows holding a passage picked in the review."""
        self.explorer.show_holding(rows, text)
        bring_into_view("explorer")

    def explorer_rephrased(self, row: int) -> None:
        """Open a row picked in the list of rows that look rephrased, among them."""
        self.explorer.open_row_among("rephrased", row)

    def left_out(self, text: str) -> None:
        """Leave a passage out of the check: checked again without it."""
        controls.leave_out(text)
        self.recompute()

    def put_back(self, text: str) -> None:
        controls.leave_out(text, out=False)
        self.recompute()

    def fields_changed(self, key: str, which: str) -> None:
        """The person picked in the text list or the id list (``which``)."""
        slot = self.slots[key]
        if not slot.files:
            return
        if not slot.read_field_lists(which):
            self.stale(True, f"the fields chosen in file {key.upper()} cannot be read")
            return
        self.schedule()

    def read_changed(self, key: str, what: str) -> None:
        """A read control changed: read the slot's files again that way."""
        slot = self.slots[key]
        if not slot.files:
            return
        control = el(f"{key}-{what}")
        value = str(control.value)
        if what == "records":
            slot.read = slot.read._replace(records=value)
        elif what == "delimiter":
            slot.read = slot.read._replace(delimiter=value or None)
        elif what == "header":
            slot.read = slot.read._replace(header=bool(control.checked))
        else:
            slot.read = slot.read._replace(text_rows=value)
        spawn(self.reread(key))

    async def reread(self, key: str) -> None:
        self.runner.restart()
        self.runner.cancel()
        if await self.slots[key].reread(self.runner):
            self.recompute()
        else:
            self.stale(True, f"file {key.upper()} cannot be read that way")
        self.loaded()

    # --- the check -----------------------------------------------------------------

    def schedule(self) -> None:
        """Recompute soon: the latest change wins, a run in progress is cancelled."""
        self.runner.debounce(self.recompute)

    def checkable(self) -> bool:
        """Both slots hold files that can be read, both the example or neither."""
        a, b = self.slots["a"], self.slots["b"]
        return a.ready and b.ready and a.example == b.example

    def recompute(self) -> None:
        read = controls.read_settings()
        if read is None:
            self.say_change("")          # no change was made: the value is refused
        if read is None or not self.checkable():
            self.stale(True, "a setting is out of range (it says so below)" if read is None
                       else "both files are needed")
            return
        mark("busy", "1")      # at once: a wait for this run's end cannot take an earlier one's
        self.runner.start(self.run(read)).add_done_callback(self.run_ended)

    def run_ended(self, task) -> None:
        """A run ended, done or cancelled (even before it began): ``data-busy`` goes
        to 0 unless a newer run has replaced it."""
        if task is not self.runner.task:
            return
        if task.cancelled():
            set_text("stage", "Cancelled.")
        mark("busy", "0")

    def cancel(self) -> None:
        if self.runner.cancel():
            self.stale(True, "the check was cancelled")

    async def run(self, read) -> None:
        runner, settings = self.runner, read.settings
        started = runner.restart()
        self.verdict.working(True)
        a, b = self.slots["a"], self.slots["b"]
        try:
            with collection_paused():
                rows = {}
                like = a.detected_choice()         # the same schema: B reads A's fields
                relist = like != b.like
                b.like = like
                for key, slot in self.slots.items():
                    try:
                        rows[key] = await slot.selected_rows(runner)
                        await runner.turn(f"rows {key}")
                    except InputError as e:
                        slot.show_error(str(e))
                        self.stale(True, refused(key, list(slot.names), str(e)))
                        return
                if not self.checkable():         # a slot changed meanwhile
                    return
                (a_rows, _), (b_rows, b_files) = rows["a"], rows["b"]
                fields = (a.chosen_text_fields(), b.chosen_text_fields())
                result = await runner.drive(
                    check_steps(a_rows, b_rows, settings, self.cache, b_files=b_files,
                                fields=fields),
                    show_progress)
        finally:
            self.verdict.working(False)
        await runner.turn("checked")
        files = tuple((f.name, id(f.data)) for slot in (a, b) for f in slot.files)
        before = self.result if files == self.checked_files else None
        self.checked_files = files
        self.result = result
        if before is not None:
            change = change_line((before.settings, before.summary),
                                 (result.settings, result.summary),
                                 rows_moved(plain_rows_csv(before), plain_rows_csv(result)))
            if change:                   # else the same settings ran again: the line stays
                self.say_change(change)
        else:
            self.say_change("")          # new files: nothing to compare
        choice = a.choice
        self.shown = Shown(a.names[0], b.names, read.threshold_text, a.example and b.example,
                           a.files[0], (choice.id_field or "") if choice.id_chosen else None)
        self.stale(False)
        for slot in self.slots.values():      # checked from these files: named again
            slot.show_name()
        self.write_link(read)
        self.verdict.command(command_line(a.names[0], b.names, settings, read.threshold_text,
                                          a.command_choice(), b.command_choice()))
        await runner.turn("url")
        for slot, tokenized, slot_rows in ((a, result.a, a_rows), (b, result.b, b_rows)):
            if slot.rows is slot_rows:
                await slot.count(tokenized, settings.n, runner)
        if relist:
            await b.fill_field_lists(runner)     # B's chosen fields follow A's
        computed = time.perf_counter()
        await self.draw_result()
        suite_refused = self.suite.refused_sentence() if self.suite.active else ""
        if suite_refused:                # a test set refused: the result is not all of them
            self.stale(True, suite_refused, table=False)
        done = time.perf_counter()
        await runner.breathe("drawing")
        runner.report(started, computed, done)
        await self.review.draw(result, runner)
        await self.rephrased.draw(result, runner)
        await self.report.compute(result, self.shown, self.runs, self.explorer.definitions_ready)
        if self.suite.active:
            await self.suite.compute(runner, b, settings)

    def say_change(self, change: str) -> None:
        """What the last change of the controls moved, beside the figure and in the bar
        (in view wherever the control is), held until the next change."""
        for element_id in ("change-line", "bar-change"):
            set_text(element_id, change)
            el(element_id).hidden = not change

    def write_link(self, read) -> None:
        """Put the settings and chosen fields in the page's URL, for sharing."""
        s = read.settings
        search = build_query(s.n, read.threshold_text, s.mode, s.layers,
                             {key: slot.link_choice() for key, slot in self.slots.items()},
                             short_min=s.short_min, max_b_rows=s.max_b_rows,
                             keep_template=s.keep_template, leave_out=s.leave_out,
                             rephrase=s.rephrase_threshold)
        self.replace_link(search, self.fragment())

    def fragment(self) -> str:
        """The link's fragment: the files' names and the explorer's view (the worked
        example's link names neither)."""
        if all(slot.example for slot in self.slots.values()):
            return ""
        show, sort, search = self.explorer.link_view()
        selected = self.selected
        row = self.explorer.rows[selected] + 1 if selected and selected < len(
            self.explorer.rows) else None           # the first row is the one shown anyway
        names = {key: list(slot.names) for key, slot in self.slots.items()}
        if self.suite.active:          # every test set, the one shown first (its view)
            names["a"] = self.suite.names_shown_first()
        return files_fragment(names, ViewLink(show, sort, search, row))

    def replace_link(self, search: str, fragment: str) -> None:
        location = js.window.location
        if search + fragment != str(location.search) + str(location.hash):  # the browser
            js.window.history.replaceState(None, "", search + fragment)  # saves form state
            # on each change: skip a no-op

    # --- drawing -------------------------------------------------------------------

    async def draw_result(self) -> None:
        result, runner = self.result, self.runner
        mark("selected", "none")
        self.verdict.show(result, self.shown.names, self.shown.example)
        self.verdict.unchecked_text(result, [(key.upper(), slot.chosen_text_fields(),
                                              slot.other_text())
                                             for key, slot in self.slots.items()])
        await runner.turn("figures")
        counts.show(result)
        await runner.breathe("summary")
        view = self.pending_view if not self.shown.example else None
        if view is not None:                     # a link's view, once its files are here
            self.pending_view = None
            other = other_files(self.linked, {key: list(slot.names) for key, slot
                                              in self.slots.items()},
                                self.suite.names_shown_first() if self.suite.active else None)
            self.link_files = self.checked_files
            set_text("link-notice", other)
            el("link-notice").hidden = not other
            if other:
                self.say_change(other)           # in the bar too, wherever the files were picked
                view = None                      # its view is about the link's own files
            else:
                self.explorer.apply_link(view.show, view.sort, view.search)
        elif not el("link-notice").hidden and self.checked_files != self.link_files:
            el("link-notice").hidden = True      # other files picked since: said no more
        self.explorer.show(result)
        for button in ("download-csv", "download-rows-csv"):
            el(button).disabled = False
        await runner.breathe("explorer")
        rows = self.explorer.rows
        position = 0 if rows else None
        if view is not None and view.row is not None and view.row - 1 in rows:
            position = rows.index(view.row - 1)
            self.explorer.move_to(position, focus=False)
        await self.select(position)
        self.replace_link(str(js.window.location.search), self.fragment())   # this view
        await runner.breathe("panes")
        self.runs += 1
        if self.runs == 1:                       # for the benchmark: the first result drawn
            setattr(js.window, "__firstResultAt", js.performance.now())  # (no name mangling)
        mark("runs", str(self.runs))
        mark("wasmBytes", str(wasm_bytes()))

    def row_focused(self, position: int, by_person: bool) -> None:
        """The explorer's focus moved to a row: show it (and open the panes when asked),
        and keep the view and the row in the link."""
        if self.result is not None:
            self.selected = position
            self.replace_link(str(js.window.location.search), self.fragment())
            spawn(self.select(position, by_person))

    async def select(self, position, by_person: bool = False) -> None:
        """Show the explorer's row ``position`` in the two panes, marked; when the
        person opened it, bring the panes into view (over the page on a phone)."""
        self.selected = position
        result, names = self.result, self.shown.names
        if position is None:
            panes.panes(result, names, None, None)
            mark("selected", "")
            return
        match = result.matches[self.explorer.rows[position]]
        if match.status == CHECKABLE and match.b_row is None and match.contained_in is None \
                and rephrase_rule(result.settings)(match):
            df, rows = await self.rephrased.term_rows(result, self.runner)
            if self.selected != position or self.result is not result:
                return
            a_text = result.a_rows[match.row].text
            b_text = result.b_rows[match.similar_b_row].text
            telling = telling_terms(a_text, b_text, df, rows)
            panes.similar_panes(result, names, match, term_ranges(a_text, telling),
                                term_ranges(b_text, telling))
        elif match.status == CHECKABLE and (match.b_row is not None or match.contained_in is None):
            ranges = await self.runner.drive(result.highlight_steps(match))
            if self.selected != position or self.result is not result:
                return                   # another row or run came meanwhile
            panes.panes(result, names, match, ranges)
        elif match.duplicate_of is not None or match.contained_in is not None:
            tokenizer = result.tokenizer
            a_spans = await self.runner.drive(tokenizer.spans_steps(result.a_rows[match.row].text))
            a_range = (a_spans[0][0], a_spans[-1][1])
            if match.duplicate_of is None:
                a_range = contained_a_chars(match, a_spans)
            if match.duplicate_of is not None:
                b_row = match.duplicate_of
                b_spans = await self.runner.drive(tokenizer.spans_steps(result.b_rows[b_row].text))
                b_range = (b_spans[0][0], b_spans[-1][1])
            else:
                b_row, b_range = match.contained_in, match.contained_chars
            if self.selected != position or self.result is not result:
                return
            panes.short_panes(result, names, match, b_row, a_range, b_range)
        else:
            panes.panes(result, names, match, ([], []))
        if by_person:
            if panes.narrow():
                panes.open_over_page()
            else:
                bring_into_view("panes")
        mark("selected", str(position))

    def panes_closed(self) -> None:
        """Back from the panes opened over the page: to the row they show."""
        if panes.close():
            self.explorer.focus_selected()

    def download(self, kind: str) -> None:
        if self.result is not None:
            shown = self.shown
            save_csv(self.result, kind, shown.a_name, shown.b_names, shown.threshold_text)

    def copy_link(self) -> None:
        spawn(copy_text(str(js.window.location.href), "Link"))

    def copy_command(self) -> None:
        spawn(copy_text(str(el("command-line").textContent), "Command line"))
