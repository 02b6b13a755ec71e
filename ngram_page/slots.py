"""A file slot (A or B): what was read, which fields are chosen, what went wrong, its rows.

The only page module that calls the engine's readers and field choosers
(reading a table, detecting fields, turning records into rows), so a move of
those functions is a one-line change here.
"""

from __future__ import annotations

from ngram_core import InputError
from ngram_core.fields import detect_id_field, detect_text_fields_steps, select_rows_steps
from ngram_core.readers import read_table_steps

from .dom import el, js, set_text, to_js
from .runner import collection_paused
from .text import fields_summary, format_label, human_size, too_big
from .urlstate import FieldChoice, field_choice

MAX_BYTES = 2_000_000          # 2 MB per file, stated on the page
FOLD_FIELDS = 500              # more fields than this: the field lists start folded
LIST_FIELDS = 1000             # at most this many fields (and the chosen ones) are listed


class Slot:
    """One file slot: its table, its chosen (or detected) fields, its rows, its error."""

    def __init__(self, key: str):
        self.key = key
        self.name = None
        self.table = None
        self.example = False
        self.text_fields = None      # None: detected
        self.id_field = None
        self.id_chosen = False       # the user picked the id field (maybe "row number")
        self.rows = None
        self.rows_key = None
        self.detected_text = []      # detected once per file: a file may have 10,000 columns
        self.detected_id = ""
        self.error = ""

    def show_error(self, message: str) -> None:
        self.error = message
        set_text(f"{self.key}-error", message)

    def chosen_text_fields(self) -> list:
        return self.text_fields or self.detected_text

    def chosen_id_field(self) -> str:
        """The id field, or "" for row numbers (None would mean "detect")."""
        if self.id_chosen:
            return self.id_field or ""
        return self.detected_id

    def choice(self) -> FieldChoice:
        """What a shared link records of this slot's fields."""
        return FieldChoice(self.text_fields, self.id_chosen, self.id_field)

    def choose(self, choice: FieldChoice) -> None:
        self.text_fields, self.id_chosen, self.id_field = (choice.text_fields, choice.id_chosen,
                                                           choice.id_field)
        self.rows, self.rows_key = None, None

    async def load(self, runner, name: str, data: bytes, query: dict, example=False) -> bool:
        """Read a file into the slot (False after showing why it could not be read).

        A file read whose text field cannot be detected is kept, with the
        reason shown, so its field lists let the person choose one.
        """
        try:
            with collection_paused():
                table = await runner.drive(read_table_steps(data, name))
        except InputError as e:
            self.show_error(f"{e}. Choose another file.")
            return False
        self.show_error("")
        self.name, self.table, self.example = name, table, example
        self.rows, self.rows_key = None, None
        try:
            self.detected_text, undetected = await runner.drive(detect_text_fields_steps(table)), ""
        except InputError as e:          # no field holds text: the person picks one
            self.detected_text, undetected = [], f"{e}."
        self.detected_id = detect_id_field(table) or ""
        self.choose(field_choice(query, self.key, table.fields))
        if undetected and not self.text_fields:
            self.show_error(undetected)  # the check waits until a text field is chosen
        set_text(f"{self.key}-name", name)
        set_text(f"{self.key}-size", human_size(len(data)))
        set_text(f"{self.key}-format", format_label(table.format))
        set_text(f"{self.key}-rows", f"{len(table):,}")
        await self.fill_field_lists(runner)
        return True

    async def fill_field_lists(self, runner) -> None:
        """Offer every field in the two lists (a file may have 10,000 columns)."""
        key = self.key
        text_select, id_select = el(f"{key}-text-field"), el(f"{key}-id-field")
        el(f"{key}-fields-box").open = False           # no layout while it fills
        # A <select> of thousands of options blocks the tab for a second (the
        # browser's work, not Python's): list the first LIST_FIELDS, plus any chosen.
        chosen_text, chosen_id = self.chosen_text_fields(), self.chosen_id_field()
        listed = self.table.fields[:LIST_FIELDS]
        shown = set(listed)
        listed += [f for f in dict.fromkeys([*chosen_text, chosen_id]) if f and f not in shown]
        names = to_js(listed)
        js.ngramFillOptions(text_select, names, to_js(chosen_text), None)
        js.ngramFillOptions(id_select, names, to_js([chosen_id]), "(row number)")
        await runner.breathe("field lists")
        for select in (text_select, id_select):
            select.disabled = False
        count = len(self.table.fields)
        el(f"{key}-fields-box").open = count <= FOLD_FIELDS
        set_text(f"{key}-fields-summary", fields_summary(count, len(listed), FOLD_FIELDS,
                                                         LIST_FIELDS))

    def read_field_lists(self) -> bool:
        """Take the fields picked in the lists (False after saying none is chosen)."""
        text_select = el(f"{self.key}-text-field")
        options = text_select.options
        chosen = [options.item(i).value for i in range(options.length)
                  if options.item(i).selected]
        if not chosen:
            self.show_error("Choose at least one text field.")
            return False
        self.choose(FieldChoice(chosen, True, str(el(f"{self.key}-id-field").value) or None))
        self.show_error("")
        return True

    async def selected_rows(self, runner) -> list:
        """The rows for the chosen fields, made once per choice."""
        key = (tuple(self.chosen_text_fields()), self.chosen_id_field())
        if self.rows is None or self.rows_key != key:
            self.rows = await runner.drive(select_rows_steps(self.table, *key))
            self.rows_key = key
        return self.rows


def picked_file(slot: Slot):
    """The file picked in the slot's input (a JS File), or None."""
    files = el(f"file-{slot.key}").files
    return files.item(0) if files.length else None


async def read_file(slot: Slot, file):
    """A picked file's bytes; None after the slot said it is over MAX_BYTES (nothing of
    it is read then)."""
    name, size = str(file.name), int(file.size)
    if size > MAX_BYTES:
        slot.show_error(too_big(name, size, MAX_BYTES))
        return None
    buffer = await file.arrayBuffer()
    return buffer.to_py().tobytes()
