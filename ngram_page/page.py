"""What each user action does: a file picked, fields or settings changed, a row selected.

:class:`Page` holds the two slots, the last valid result and the engine's
cache, and runs a check from the slots' rows to a drawn result, writing the
shared link and the body's markers (``data-busy``, ``data-runs``,
``data-selected``, ``data-timing``) the tests and the benchmark wait on.
"""

from __future__ import annotations

import asyncio
import time

from ngram_core import CheckCache, InputError, check_steps

from . import controls, draw
from .dom import el, js, mark, set_text, wasm_bytes
from .download import download_csv
from .runner import Runner, collection_paused, spawn
from .slots import Slot, picked_file, read_file
from .urlstate import build_query, link_controls, parse_query


class Page:
    """The page's state (two slots, the last valid result, the engine's cache) and its actions."""

    def __init__(self):
        self.slots = {"a": Slot("a"), "b": Slot("b")}
        self.runner = Runner()
        self.result = None           # the last valid CheckResult
        self.result_names = ("", "")
        self.cache = CheckCache()    # tokens and index kept between checks
        self.selected = None         # index into result.ordered
        self.runs = 0
        self.query = parse_query(str(js.window.location.search))

    def open_link(self) -> None:
        """Set the controls from the engine's bounds, then from the page's own link."""
        controls.show_engine_bounds()
        controls.apply_link(link_controls(self.query))

    def stale(self, on: bool) -> None:
        el("stale").hidden = not (on and self.result is not None)

    # --- files -------------------------------------------------------------------

    async def load_bytes(self, key: str, name: str, data: bytes, example=False) -> bool:
        loaded = await self.slots[key].load(self.runner, name, data, self.query, example)
        if not loaded:
            self.stale(True)
        return loaded

    async def file_chosen(self, key: str) -> None:
        self.runner.restart()
        slot = self.slots[key]
        file = picked_file(slot)
        if file is None:
            return
        data = await read_file(slot, file)
        if data is None:
            self.stale(True)
            return
        if await self.load_bytes(key, str(file.name), data):
            self.recompute()             # a new file: no need to wait for more typing

    def fields_changed(self, key: str) -> None:
        slot = self.slots[key]
        if slot.table is None:
            return
        if not slot.read_field_lists():
            self.stale(True)
            return
        self.schedule()

    # --- the check -----------------------------------------------------------------

    def schedule(self) -> None:
        """Recompute soon: the latest change wins, a run in progress is cancelled."""
        self.runner.debounce(self.recompute)

    def recompute(self) -> None:
        settings = controls.read_settings()
        if settings is None or any(s.table is None or s.error for s in self.slots.values()):
            self.stale(True)
            return
        self.runner.start(self.run(settings))

    def cancel(self) -> None:
        if self.runner.cancel():
            self.stale(True)

    async def run(self, settings) -> None:
        runner = self.runner
        started = runner.restart()
        work = el("work")
        work.hidden = False
        mark("busy", "1")
        try:
            with collection_paused():
                rows = {}
                for key, slot in self.slots.items():
                    try:
                        rows[key] = await slot.selected_rows(runner)
                        await runner.turn(f"rows {key}")
                    except InputError as e:
                        slot.show_error(str(e))
                        self.stale(True)
                        mark("busy", "0")
                        return
                result = await runner.drive(
                    check_steps(rows["a"], rows["b"], settings, self.cache), show_progress)
        except asyncio.CancelledError:
            set_text("stage", "Cancelled.")
            mark("busy", "0")
            raise
        finally:
            work.hidden = True
        await runner.turn("checked")
        self.result = result
        self.result_names = (self.slots["a"].name, self.slots["b"].name)
        self.stale(False)
        self.write_link(settings)
        await runner.turn("url")
        computed = time.perf_counter()
        try:
            await self.draw_result()
        finally:
            mark("busy", "0")
        done = time.perf_counter()
        await runner.breathe("drawing")
        runner.report(started, computed, done)

    def write_link(self, settings) -> None:
        """Put the settings and chosen fields in the page's URL, for sharing."""
        search = build_query(settings.n, settings.threshold, settings.mode, settings.layers,
                             {key: slot.choice() for key, slot in self.slots.items()})
        if search != str(js.window.location.search):  # the browser saves form state on
            js.window.history.replaceState(None, "", search)  # each change: skip a no-op

    # --- drawing -------------------------------------------------------------------

    async def draw_result(self) -> None:
        result, runner = self.result, self.runner
        mark("selected", "none")
        await draw.summary(result, self.result_names,
                           all(slot.example for slot in self.slots.values()), runner)
        await runner.breathe("summary")
        await draw.rows(result, runner)
        await draw.short_duplicates(result, runner)
        el("download-csv").disabled = False
        await self.select(0 if result.ordered else None)
        await runner.breathe("panes")
        self.runs += 1
        mark("runs", str(self.runs))
        mark("wasmBytes", str(wasm_bytes()))

    async def select(self, index) -> None:
        """Show row ``index`` of the ordered table and its best B row, highlighted."""
        self.selected = index
        draw.selected_row(index)
        if index is None:
            draw.panes(self.result, self.result_names, None, None)
        else:
            result = self.result
            match = result.ordered[index]
            ranges = await self.runner.drive(result.highlight_steps(match))
            if self.selected != index or self.result is not result:
                return                   # another row or run came meanwhile
            draw.panes(result, self.result_names, match, ranges)
        mark("selected", "" if index is None else str(index))

    def row_clicked(self, event) -> None:
        target = event.target
        index = getattr(target.dataset, "index", None) if target.dataset else None
        if index is not None:
            spawn(self.select(int(index)))

    def download(self, event) -> None:
        if self.result is not None:
            download_csv(self.result)


def show_progress(progress) -> None:
    el("progress").value = progress.fraction
    set_text("stage", f"Working: {progress.stage} ({progress.fraction:.0%})")
