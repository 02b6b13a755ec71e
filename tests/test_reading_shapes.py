"""Every row read by its own shape (#43), as a property: for random files whose rows
have mixed shapes (two chat schemas, records with and without a field, rows with no
text), cut into random pieces as a stream cuts them:

* rows searched + rows with no text + rows unread = rows in the file, in every piece;
* each row's text is what the same row gives when its shape's rows are a file of
  their own, whole or in pieces.

Texts are distinct sentences, as real rows are: detection judges a field by its
content, and a value repeated over rows is a label or a fixed prompt, not text."""

from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from ngram_core.read.fields import detect_text_fields, select_rows
from ngram_core.read.readers import read_table
from ngram_core.table import Reading

WORDS = ["apple", "river", "stone", "seven", "market", "window", "garden", "silver",
         "number", "winter", "yellow", "planet", "doctor", "bridge", "castle", "forest",
         "orange", "valley", "copper", "engine", "harbor", "island", "jacket", "kettle",
         "ladder", "meadow", "needle", "oyster", "pepper", "rabbit", "saddle", "tunnel"]
text = st.lists(st.sampled_from(WORDS), min_size=4, max_size=12).map(" ".join)


def messages(t: str) -> dict:
    return {"messages": [{"role": "user", "content": t}, {"role": "assistant", "content": "ok"}]}


def sharegpt(t: str) -> dict:
    return {"conversations": [{"from": "human", "value": t}, {"from": "gpt", "value": "fine"}]}


def question(t: str) -> dict:
    return {"id": "x", "question": t}


def question_with_context(t: str) -> dict:
    return {"id": "y", "question": t, "context": " ".join(reversed(t.split())) + " in a story"}


SHAPES = [messages, sharegpt, question, question_with_context]
row = st.tuples(st.sampled_from(range(len(SHAPES))), text)
blank_row = st.just((-1, ""))


def jsonl(records: list[dict]) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in records).encode()


def read(records: list[dict], fields=None) -> list:
    table = read_table(jsonl(records), "b.jsonl")
    found = fields or detect_text_fields(table)
    return select_rows(table, Reading(tuple(found), True), "")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(row, row, row, blank_row), min_size=1, max_size=60,
                unique_by=lambda r: r[1] or None),
       st.lists(st.integers(1, 59), max_size=4))
def test_mixed_shapes_read_each_row_by_its_shape(rows, cuts):
    records = [({"id": "z", "question": ""} if shape < 0 else SHAPES[shape](t))
               for shape, t in rows]
    if all(shape < 0 for shape, _ in rows):
        return                       # no text anywhere: refused, as today
    head = read_table(jsonl(records), "b.jsonl")
    fields = detect_text_fields(head)            # chosen from the file's head, as streamed
    whole = read(records, fields)
    assert len(whole) == len(records)
    # in pieces: the same texts, row for row
    bounds = sorted({0, len(records), *(c for c in cuts if c < len(records))})
    for start, end in zip(bounds, bounds[1:]):
        if all(shape < 0 for shape, _ in rows[start:end]):
            continue                 # a piece of rows with no text reads no text
        piece = read(records[start:end], fields)
        assert [r.text for r in piece] == [r.text for r in whole[start:end]]
    # accounting: every row searched, textless or unread
    searched = sum(not r.blank for r in whole)
    no_text = sum(r.blank and not r.unread for r in whole)
    unread = sum(bool(r.unread) for r in whole)
    assert searched + no_text + unread == len(records)
    assert unread == 0                # detected: every shape's text is read
    # each row's text as in a file of its shape's rows alone
    for s in {shape for shape, _ in rows if shape >= 0}:
        own = read([SHAPES[s](t) for shape, t in rows if shape == s])
        mixed = [r for r, (shape, _) in zip(whole, rows) if shape == s]
        assert [r.text for r in mixed] == [r.text for r in own]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.one_of(row, blank_row), min_size=1, max_size=40,
                unique_by=lambda r: r[1] or None))
def test_fields_a_person_chose_leave_other_shapes_unread_and_counted(rows):
    records = [({"id": "z", "question": ""} if shape < 0 else SHAPES[shape](t))
               for shape, t in rows]
    if not any(shape in (2, 3) for shape, _ in rows):
        return                       # the chosen field is in no row: refused, as today
    table = read_table(jsonl(records), "b.jsonl")
    chosen = select_rows(table, ["question"], "")
    for r, (shape, _) in zip(chosen, rows):
        assert bool(r.unread) == (shape in (0, 1))       # a chat row: its text unread
        assert r.blank == (shape < 0 or shape in (0, 1))
