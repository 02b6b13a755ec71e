"""A file slot (A or B): the files read, how they were read, which fields are chosen, its rows.

The only page module that calls the engine's readers and field choosers
(reading a table, describing and detecting fields, turning records into
rows), so a move of those functions is a change here only. Slot A holds one
file; slot B one or several, read in the order given as one training set,
rows numbered across them (as the command reads several B files).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ngram_core import InputError
from ngram_core.argv import CommandChoice
from ngram_core.read.delimited import DELIMITERS
from ngram_core.report.export import RowFiles
from ngram_core.read.fields import (FieldStats, ShortCount, count_files_steps, detect_text_fields_steps,
                               field_stats_steps, fixed_notes, id_field_choice, item_order,
                               fields_like, longer_fields, order_notes, other_text_fields, reads_like,
                               select_rows_steps, shape_notes, short_rows_warning,
                               unread_counts, unread_note)
from ngram_core.read.readers import read_table_steps, text_rows_read
from ngram_core.table import TEXT_ROWS, Reading, Row, Table

from .dom import create, el, fill_options, set_text
from .runner import collection_paused
from .text import (array_label, field_label, fields_summary, file_line, format_label,
                   human_size, id_label, linked_file, needs_file, too_big)
from .urlstate import FieldChoice, applicable

MAX_BYTES = 2_000_000          # 2 MB per file, stated on the page
FOLD_FIELDS = 500              # more fields than this: the heading counts them
LIST_FIELDS = 1000             # at most this many fields (and the chosen ones) are listed
DELIMITED = ("csv", "tsv")
#: The controls of how a slot's files are read (ids ``a-records``, ``b-header``...).
READ_CONTROLS = ("records", "delimiter", "header", "text-rows")
TEXT_ROWS_LABELS = {"line": "one row per line", "paragraph": "one row per paragraph "
                    "(blocks between blank lines)", "conll": "one row per sentence of a "
                    "token-per-line (CoNLL) file", "file": "the whole file as one row"}
assert set(TEXT_ROWS_LABELS) == set(TEXT_ROWS)


class ReadChoice(NamedTuple):
    """How the person asked a slot's files to be read; None everywhere: detected."""
    records: str | None = None       # the JSON array whose items are the rows
    delimiter: str | None = None     # one of DELIMITERS
    header: bool | None = None
    text_rows: str | None = None     # one of TEXT_ROWS


@dataclass
class LoadedFile:
    """One file read into a slot: its bytes (kept to read it again another way),
    its table, what each field holds, and the fields detected."""
    name: str
    data: bytes
    table: Table
    stats: list[FieldStats]
    detected_text: list[str]         # [] when no field holds text
    undetected: InputError | None    # why, then
    detected_id: str                 # "": row numbers
    notes: list[str]                 # the reader's, then the field choice's (engine words)
    shaped_text: list[str]           # the detected fields of every row's shape (shown)
    shape_notes: list[str]           # rows read by their own shape: said while detected

    def text_fields(self, chosen, like) -> list[str]:
        """The text fields this file is read from: the person's, else the other
        file's detected ones when this file has them all, then its own detected
        ones they lack (:func:`fields_like`), else its own detected."""
        if chosen:
            return chosen
        if reads_like(self.table, like):
            return fields_like(like, self.detected_text)
        return self.detected_text


def fitting(table: Table, read: ReadChoice) -> dict:
    """The read options that apply to a file read as ``table`` with detection, and
    differ from what detection chose (none: the table stands)."""
    options: dict = {}
    if table.format == "json" and read.records is not None \
            and read.records != table.records_path \
            and read.records in {array.path for array in table.arrays}:
        options["records"] = read.records
    if table.format in DELIMITED:
        if read.delimiter is not None and read.delimiter != table.delimiter:
            options["delimiter"] = read.delimiter
        if read.header is not None and read.header != table.header:
            options["header"] = read.header
    if table.format == "text" and read.text_rows not in (None, text_rows_read(table)):
        options["text_rows"] = read.text_rows
    return options


class Slot:
    """One file slot: its files, their chosen (or detected) fields, its rows, its error."""

    def __init__(self, key: str):
        self.key = key
        self.failed: str | None = None    # the file a pick was refused for (see load)
        self.files: list[LoadedFile] = []
        self.version = 0                 # counts the reads: rows are made once per read
        self.example = False
        self.asked = FieldChoice()       # what the link or the person asked for
        self.choice = FieldChoice()      # the part of it these files can take
        self.read = ReadChoice()
        self.read_for: tuple = ()        # the file names `read` was chosen for
        self.rows: list[Row] | None = None
        self.row_files: RowFiles | None = None
        self.rows_key = None
        self.counted: list[ShortCount] | None = None
        self.error = ""
        self.needed = False              # the other slot holds the person's own file
        self.like: list | None = None    # slot B: A's detected text fields, read alike
        #: slot A holding several test sets: its list of every one, given the shown
        #: file's line (None: the slot lists its own files)
        self.listing = None

    # --- state -------------------------------------------------------------------

    @property
    def ready(self) -> bool:
        return bool(self.files) and not self.error and not self.needed

    @property
    def names(self) -> tuple:
        return tuple(f.name for f in self.files)

    def fields(self) -> list[str]:
        """Every field of the slot's files in a test item's order (context, question,
        options, answer: :func:`~ngram_core.read.fields.item_order`, the order the text is
        joined in), first seen first over the files; so fields picked in the list
        are joined as the detected ones are."""
        ordered = [item_order(file.table, file.table.fields) for file in self.files]
        if len(ordered) == 1:
            return ordered[0]
        return list(dict.fromkeys(f for fields in ordered for f in fields))

    def show_error(self, message: str) -> None:
        self.error = message
        set_text(f"{self.key}-error", message)

    def chosen_text_fields(self) -> list:
        """The text fields shown as chosen: the person's, else each file's detected ones
        (for B, A's detected ones where a file has them all: the same schema)."""
        if self.choice.text_fields:
            return self.choice.text_fields
        return list(dict.fromkeys(f for file in self.files
                                  for f in (file.text_fields(None, self.like)
                                            if reads_like(file.table, self.like)
                                            else file.shaped_text)))

    def detected_choice(self) -> list | None:
        """This slot's text fields for the other slot to read alike: its detected
        ones, or None when the person chose them."""
        return None if self.choice.text_fields else self.chosen_text_fields()

    def other_text(self) -> list[FieldStats]:
        """The files' text fields the chosen ones leave out (see ``other_text_fields``),
        each once, most tokens first."""
        chosen = self.chosen_text_fields()
        found: dict = {}
        for f in self.files:
            for stats in other_text_fields(f.stats, chosen):
                found.setdefault(stats.name, stats)
        return sorted(found.values(), key=lambda stats: -stats.tokens)

    def chosen_id_field(self) -> str:
        """The id field shown as chosen, or "" for row numbers."""
        if self.choice.id_chosen:
            return self.choice.id_field or ""
        return self.files[0].detected_id if self.files else ""

    def command_choice(self) -> CommandChoice:
        """What the person chose for this slot, as the command line writes it (what
        was detected is left to the command, which detects the same)."""
        choice, read = self.choice, self.read
        return CommandChoice(tuple(choice.text_fields) if choice.text_fields else None,
                             (choice.id_field or "") if choice.id_chosen else None,
                             read.records, read.delimiter, read.header, read.text_rows)

    def link_choice(self) -> FieldChoice:
        """What a shared link records of this slot's fields: while the worked example
        is shown, what the link asked for (the example lacks those fields)."""
        return self.asked

    def choose(self, choice: FieldChoice) -> None:
        """The person picked fields in the lists."""
        self.asked = self.choice = choice
        self.rows, self.rows_key = None, None

    # --- reading -------------------------------------------------------------------

    async def read_one(self, runner, name: str, data: bytes, read: ReadChoice) -> LoadedFile:
        with collection_paused():
            table = await runner.drive(read_table_steps(data, name, role=self.key))
            options = fitting(table, read)
            if options:
                table = await runner.drive(read_table_steps(data, name, role=self.key,
                                                            **options))
        stats = await runner.drive(field_stats_steps(table))
        try:
            detected, undetected = await runner.drive(detect_text_fields_steps(table, stats)), None
        except InputError as e:          # no field holds text: the person picks one
            detected, undetected = [], e
        ident = id_field_choice(table)
        training = self.key == "b"       # a training file's label fields' sentences too
        shaped, shape_note = shape_notes(table, Reading(tuple(detected), True, training)) \
            if detected else ([], [])
        notes = [*table.notes, *fixed_notes(stats, detected), *order_notes(table, detected),
                 *([ident.note] if ident.note else [])]
        return LoadedFile(name, data, table, stats, detected, undetected, ident.field or "",
                          notes, shaped, shape_note)

    async def load(self, runner, named: list, example=False) -> bool:
        """Read files into the slot (False after showing why they could not be read:
        the slot keeps what it had).

        A file whose text field cannot be detected is kept, with the reason
        shown, so its field lists let the person choose one. The fields asked
        for (by the link or the person) are kept where the new files have them;
        how the files were read is kept when the same files are read again.
        """
        names = tuple(name for name, _ in named)
        read = self.read if names == self.read_for else ReadChoice()
        version = self.version
        files = []
        for name, data in named:
            try:
                files.append(await self.read_one(runner, name, data, read))
            except InputError as e:
                self.failed = name           # the file refused, not the others picked
                others = len(named) - 1
                self.show_error(f"{e}. Choose another file." + (
                    f" The {others:,} other {'file' if others == 1 else 'files'} picked with "
                    f"it {'was' if others == 1 else 'were'} not read: file "
                    f"{self.key.upper()} is read as one." if others else ""))
                return False
        if example and self.version != version:
            return False                 # the person's own files arrived meanwhile
        self.files, self.example, self.needed = files, example, False
        self.version += 1
        self.read, self.read_for = read, names
        self.settle()
        await self.show(runner)
        return True

    async def reread(self, runner) -> bool:
        """Read the same files again the way the read controls now say."""
        named = [(f.name, f.data) for f in self.files]
        try:
            files = [await self.read_one(runner, name, data, self.read) for name, data in named]
        except InputError as e:
            self.show_error(f"{e}. Change how the file is read, or choose another file.")
            return False
        self.files, self.read_for = files, tuple(name for name, _ in named)
        self.version += 1
        self.settle()
        await self.show(runner)
        return True

    def settle(self) -> None:
        """After a read: the fields asked for that the files have, and the error if no
        text field is chosen or detected."""
        self.choice = applicable(self.asked, self.fields())
        if not self.example:
            self.asked = self.choice     # the person's own files say what exists
        self.rows, self.rows_key, self.counted = None, None, None
        undetected = [f"{f.undetected}." for f in self.files if f.undetected]
        self.show_error("" if self.choice.text_fields or not undetected else " ".join(undetected))

    def clear(self, needed: bool, linked: list[str] | None = None) -> None:
        """Empty the slot (the worked example leaves once the other slot holds a file;
        ``linked``: the files a link names, asked for by name)."""
        self.files, self.example, self.needed = [], False, needed
        self.version += 1
        self.rows, self.rows_key, self.row_files, self.counted = None, None, None, None
        self.show_error("")
        key = self.key
        for part in ("name", "size", "format", "rows", "tokens", "short"):
            set_text(f"{key}-{part}", "\u2013")
        for part in ("files", "notes"):
            el(f"{key}-{part}").replaceChildren()
            el(f"{key}-{part}").hidden = True
        set_text(f"{key}-warning", "")
        for part in ("records-box", "dialect-box", "text-rows-box"):
            el(f"{key}-{part}").hidden = True
        for part in ("text-field", "id-field"):
            el(f"{key}-{part}").replaceChildren()
            el(f"{key}-{part}").disabled = True
        set_text(f"{key}-needed", (linked_file(key, linked) if linked else needs_file(key))
                 if needed else "")
        el(f"{key}-needed").hidden = not needed

    def show_name(self) -> None:
        """The slot's files by name (one) or number (several)."""
        files = self.files
        if files:
            set_text(f"{self.key}-name",
                     files[0].name if len(files) == 1 else f"{len(files)} files")

    def show_refused(self, refused: list[tuple[str, int]], others: int = 0) -> None:
        """Files over the bound: each named with its size; ``others``: files picked
        with them, not read since the slot reads its files as one."""
        message = " ".join(too_big(name, size, MAX_BYTES) for name, size in refused)
        if others:
            message += (f" The {others:,} other {'file' if others == 1 else 'files'} picked "
                        f"with {'it' if len(refused) == 1 else 'them'} "
                        f"{'was' if others == 1 else 'were'} not read: file B is read as one.")
        self.show_error(message)

    def clear_details(self) -> None:
        """A pick refused: the slot no longer shows the details of the files it held
        (its last valid result is kept, out of date, above)."""
        key = self.key
        for part in ("size", "format", "rows", "tokens", "short"):
            set_text(f"{key}-{part}", "\u2013")
        for part in ("files", "notes"):
            el(f"{key}-{part}").replaceChildren()
            el(f"{key}-{part}").hidden = True
        set_text(f"{key}-warning", "")
        for part in ("records-box", "dialect-box", "text-rows-box", "fields-box"):
            el(f"{key}-{part}").hidden = True

    # --- showing what was read ----------------------------------------------------------

    async def show(self, runner) -> None:
        """What the slot read: names, sizes, formats, rows, the reader's notes, how it
        was read (with the controls to change it) and the field lists."""
        key, files = self.key, self.files
        el(f"{key}-needed").hidden = True
        el(f"{key}-fields-box").hidden = False
        self.show_name()
        set_text(f"{key}-size", human_size(sum(len(f.data) for f in files)))
        set_text(f"{key}-format", ", ".join(dict.fromkeys(format_label(f.table.format)
                                                          for f in files)))
        set_text(f"{key}-rows", f"{sum(len(f.table) for f in files):,}")
        self.show_counted()
        self.show_read_controls()
        await self.fill_field_lists(runner)

    def show_notes(self) -> None:
        """What reading each file found; how rows of several shapes were read only while
        the fields are detected (fields a person chose are read as chosen)."""
        notes = el(f"{self.key}-notes")
        notes.replaceChildren()
        several = len(self.files) > 1
        for f in self.files:
            for note in [*f.notes, *([] if self.choice.text_fields else f.shape_notes)]:
                notes.append(create("li", f"{f.name}: {note}" if several else note,
                                    file_text=True))
        notes.hidden = not notes.children.length

    def show_counted(self) -> None:
        """Rows, tokens and rows shorter than n, per file, once a check counted them."""
        self.show_notes()
        key, files, counted = self.key, self.files, self.counted
        listing = el(f"{key}-files")
        listing.replaceChildren()
        lines = [file_line(f.name, len(f.data), f.table.format, len(f.table),
                           (c.tokens, c.short, c.n) if c else None)
                 for f, c in zip(files, counted or [None] * len(files))]
        if self.listing is not None and files:
            lines = self.listing(lines[0])
        for line in lines:
            listing.append(create("li", line, file_text=True))
        listing.hidden = len(lines) < 2
        if counted:
            set_text(f"{key}-tokens", f"{sum(c.tokens for c in counted):,}")
            set_text(f"{key}-short", f"{sum(c.short for c in counted):,}")
            set_text(f"{key}-short-label", f"Shorter than {counted[0].n} tokens")
        else:
            set_text(f"{key}-tokens", "\u2013")
            set_text(f"{key}-short", "\u2013")
        warnings = []
        for i, f in enumerate(files if counted else []):
            c = counted[i]
            fields = f.text_fields(self.choice.text_fields, self.like)
            longer = longer_fields(f.stats, c.n, fields)
            warning = short_rows_warning(c, fields, longer)
            if warning and longer:
                warning += f" Choose {longer[0].name} in the text field list to read it."
            if warning and f.table.format == "text" and \
                    (self.read.text_rows or text_rows_read(f.table)) == "line":
                warning += (" A plain-text file wrapped at a fixed width, or of documents "
                            "separated by blank lines, may read better one row per paragraph "
                            "(Rows of the plain-text file: one row per paragraph).")
            if warning:
                warnings.append(f"{f.name}: {warning}" if len(files) > 1 else warning)
        for name, unread, fields in self.unread() if counted else []:
            note = unread_note(unread, fields) + "."
            warnings.append(f"{name}: {note}" if len(files) > 1 else note[0].upper() + note[1:])
        set_text(f"{key}-warning", " ".join(warnings))

    def unread(self) -> list[tuple[str, int, tuple[str, ...]]]:
        """Each file's unread rows (their text only in fields not read) and those
        fields, for the files that have any."""
        if self.rows is None or self.row_files is None:
            return []
        starts = self.row_files.starts
        out = []
        for f, start, end in zip(self.files, starts, [*starts[1:], len(self.rows)]):
            unread, fields = unread_counts(self.rows[start:end])
            if unread:
                out.append((f.name, unread, fields))
        return out

    def show_read_controls(self) -> None:
        """The controls for how the files are read, beside the formats they apply to."""
        key, files = self.key, self.files
        json_file = next((f.table for f in files if f.table.format == "json"), None)
        arrays: dict = {}
        for f in files:
            for array in f.table.arrays:
                arrays.setdefault(array.path, array)
        show_arrays = json_file is not None and len(arrays) > 1
        el(f"{key}-records-box").hidden = not show_arrays
        if show_arrays:
            paths = list(arrays)
            fill_options(el(f"{key}-records"), paths,
                         [array_label(a.path, a.items, a.objects) for a in arrays.values()],
                         [json_file.records_path or ""])
        delimited = next((f.table for f in files if f.table.format in DELIMITED), None)
        el(f"{key}-dialect-box").hidden = delimited is None
        if delimited is not None:
            found = DELIMITERS.get(delimited.delimiter or ",", repr(delimited.delimiter))
            chosen = self.read.delimiter if self.read.delimiter is not None else ""
            fill_options(el(f"{key}-delimiter"), ["", *DELIMITERS],
                         [f"detect (found: {found})", *DELIMITERS.values()], [chosen])
            el(f"{key}-header").checked = bool(delimited.header)
        text = any(f.table.format == "text" for f in files)
        el(f"{key}-text-rows-box").hidden = not text
        if text:
            fill_options(el(f"{key}-text-rows"), list(TEXT_ROWS),
                         [TEXT_ROWS_LABELS[t] for t in TEXT_ROWS],
                         [self.read.text_rows or text_rows_read(next(f.table for f in files
                                                                   if f.table.format == "text"))])

    async def fill_field_lists(self, runner) -> None:
        """Offer every field in the two lists, with what it holds (a file may have
        10,000 columns: at most LIST_FIELDS are listed, plus any chosen)."""
        key = self.key
        text_select, id_select = el(f"{key}-text-field"), el(f"{key}-id-field")
        chosen_text, chosen_id = self.chosen_text_fields(), self.chosen_id_field()
        fields = self.fields()
        listed = fields[:LIST_FIELDS]
        shown = set(listed)
        listed += [f for f in dict.fromkeys([*chosen_text, chosen_id]) if f and f not in shown]
        stats: dict[str, FieldStats] = {}
        for file in self.files:
            for s in file.stats:
                stats.setdefault(s.name, s)
        text_labels, id_labels = [], []
        for name in listed:
            s = stats.get(name)
            text_labels.append(field_label(name, s.tokens, s.sample, s.kind, s.listed)
                               if s else name)
            id_labels.append(id_label(name, s.sample) if s else name)
        fill_options(text_select, listed, text_labels, chosen_text)
        fill_options(id_select, listed, id_labels, [chosen_id], "(row number)")
        await runner.breathe("field lists")
        for select in (text_select, id_select):
            select.disabled = False
        count = len(fields)
        set_text(f"{key}-fields-summary", fields_summary(count, len(listed), FOLD_FIELDS,
                                                         LIST_FIELDS))

    def read_field_lists(self, which: str) -> bool:
        """Take what was picked in one list, ``text`` or ``id`` (False after saying no
        text field is chosen); the other list's choice stays as it was (detected or not)."""
        if which == "id":
            value = str(el(f"{self.key}-id-field").value)
            self.choose(FieldChoice(self.choice.text_fields, True, value or None))
            return True
        options = el(f"{self.key}-text-field").options
        chosen = [options.item(i).value for i in range(options.length)
                  if options.item(i).selected]
        if not chosen:
            self.show_error("Choose at least one text field.")
            return False
        self.choose(FieldChoice(chosen, self.choice.id_chosen, self.choice.id_field))
        self.show_error("")
        return True

    # --- rows ------------------------------------------------------------------------

    async def selected_rows(self, runner) -> tuple[list[Row], RowFiles]:
        """The rows for the chosen fields, numbered across the files, and which file
        each came from; made once per choice."""
        choice = self.choice
        key = (self.version, tuple(choice.text_fields or ()), choice.id_chosen, choice.id_field,
               tuple(self.like or ()))
        if self.rows is None or self.rows_key != key:
            rows: list[Row] = []
            starts = []
            for f in self.files:
                # the person's id field, else the one detected on reading (no second scan)
                id_field = (choice.id_field or "") if choice.id_chosen else f.detected_id
                fields = f.text_fields(choice.text_fields, self.like)
                if not fields and f.undetected is not None:
                    raise f.undetected
                reading = Reading(tuple(fields), not choice.text_fields,   # detected: by shape
                                  self.key == "b")
                selected = await runner.drive(select_rows_steps(f.table, reading, id_field))
                starts.append(len(rows))
                if not rows:
                    rows = selected
                else:
                    offset = len(rows)
                    rows.extend(row._replace(number=offset + i)
                                for i, row in enumerate(selected, 1))
            self.rows, self.row_files, self.rows_key = rows, RowFiles(tuple(starts),
                                                                      self.names), key
        return self.rows, self.row_files

    async def count(self, tokenized, n: int, runner) -> None:
        """Count each file's rows, tokens and short rows from a check's tokens of
        this slot's rows (200,000 rows take a few steps), as the command counts them."""
        self.counted = await runner.drive(count_files_steps(
            tokenized.rows, tokenized.offsets, self.row_files.starts, n))
        self.show_counted()


def picked_files(key: str) -> list:
    """The files picked in a slot's input (JS Files), in the order given."""
    files = el(f"file-{key}").files
    return [files.item(i) for i in range(files.length)]


async def read_file(file) -> bytes:
    buffer = await file.arrayBuffer()
    return buffer.to_py().tobytes()
