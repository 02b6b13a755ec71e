"""No training row left unread (#43): every path, glob, shape and field is read, or
the run refuses and says why. Each case here was a clean the tool never checked."""

from __future__ import annotations

import json
import os
import pathlib

import pytest

import ngram_overlap
from ngram_core.cli import main
from ngram_core.decontaminate import main as decontaminate_main
from ngram_core.errors import InputError

QUESTION = ("Janet has sixteen ducks that lay eggs every single morning and she eats three "
            "of them for breakfast with her friends each day")
UNSEEN = "Which planet in our solar system has the longest day when measured against its own year"
OTHER = "A farmer sells apples at the market on Sundays and keeps the rest for the winter"


def write_jsonl(path: pathlib.Path, records: list[dict]) -> pathlib.Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """A training mix in nested folders, and evals, with the question planted deep."""
    monkeypatch.chdir(tmp_path)
    write_jsonl(tmp_path / "mix" / "a.jsonl", [{"text": OTHER}])
    write_jsonl(tmp_path / "mix" / "web" / "en" / "part-0.jsonl",
                [{"text": "intro " + QUESTION + " outro"}, {"text": OTHER}])
    write_jsonl(tmp_path / "evals" / "gsm.jsonl", [{"question": QUESTION}])
    write_jsonl(tmp_path / "evals" / "mmlu.jsonl", [{"question": UNSEEN}])
    return tmp_path


def test_a_list_of_path_strings_is_read_as_the_files(tree):
    as_list = ngram_overlap.check([QUESTION, UNSEEN], ["mix/web/en/part-0.jsonl"])
    alone = ngram_overlap.check([QUESTION, UNSEEN], "mix/web/en/part-0.jsonl")
    assert as_list.summary["flagged"] == alone.summary["flagged"] == 1
    assert as_list.summary == alone.summary


def test_a_list_mixing_paths_and_text_is_refused(tree):
    with pytest.raises(InputError, match="mixes paths"):
        ngram_overlap.check([QUESTION], ["mix/a.jsonl", "mix/missing.jsonl"])


def test_a_list_of_text_is_text(tree):
    result = ngram_overlap.check([QUESTION], ["intro " + QUESTION, "What is 2*3?"])
    assert result.summary["flagged"] == 1


def test_recursive_globs_descend_from_python(tree):
    result = ngram_overlap.check([QUESTION], "mix/**/*.jsonl")
    assert result.summary["flagged"] == 1


def test_recursive_globs_descend_in_the_command(tree, capsys):
    assert main(["evals/gsm.jsonl", "mix/**/*.jsonl", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["flagged"] == 1


def test_recursive_globs_descend_in_decontaminate(tree, capsys):
    from ngram_core.decontaminate import main as decontaminate
    code = decontaminate(["--evals", "evals/*.jsonl", "--train", "mix/**/*.jsonl", "--out", "clean"])
    assert code == 0
    assert (tree / "clean" / "web" / "en" / "part-0.jsonl").read_text().count("\n") == 1


def test_a_dict_of_splits_is_refused_naming_them(tree):
    with pytest.raises(InputError, match=r"train, test.*data\['test'\]"):
        ngram_overlap.check({"train": [OTHER], "test": [QUESTION]}, "mix/a.jsonl")


def test_a_glob_of_several_test_sets_is_refused_alike(tree, capsys):
    with pytest.raises(InputError, match="matches 2 files.*decontaminate") as raised:
        ngram_overlap.check("evals/*.jsonl", "mix/a.jsonl")
    assert main(["evals/*.jsonl", "mix/a.jsonl"]) == 2
    assert str(raised.value) in capsys.readouterr().err


def test_a_glob_of_evals_in_decontaminate_is_every_file(tree):
    suite = ngram_overlap.decontaminate(["evals/*.jsonl"], "mix/**/*.jsonl")
    assert list(suite.results) == ["evals/gsm.jsonl", "evals/mmlu.jsonl"]
    assert suite.results["evals/gsm.jsonl"].summary["flagged"] == 1


def test_data_of_another_type_is_refused_naming_what_is_read(tree):
    with pytest.raises(TypeError, match="an int is no data: give a path"):
        ngram_overlap.check(42, "mix/a.jsonl")


# --- every row read by its own shape ---------------------------------------------------

Q_USER = ("Weng earns twelve dollars an hour for babysitting and yesterday she did just fifty "
          "minutes of babysitting for a family")
Q_SHAREGPT = ("Betty is saving money for a new wallet which costs one hundred dollars and she "
              "has only half of the money she needs")
Q_SYSTEM = ("James decides to run three sprints three times a week and he runs sixty meters "
            "each sprint so how many meters does he run")
EVALS = [Q_USER, Q_SHAREGPT, Q_SYSTEM, UNSEEN]
PROMPT = "You are a helpful assistant. Answer carefully and show your reasoning step by step."


def chat(system: str, user: str) -> dict:
    return {"messages": [{"role": "system", "content": system},
                         {"role": "user", "content": user},
                         {"role": "assistant", "content": "Here is a careful answer for you."}]}


def sharegpt(human: str) -> dict:
    return {"conversations": [{"from": "human", "value": human},
                              {"from": "gpt", "value": "A reply that says very little."}]}


def sft_mix(per_shape: int = 300) -> list[dict]:
    """tulu-style ``messages`` rows then ShareGPT ``conversations`` rows, more of each
    than the rows detection samples, with an eval item planted in each shape and one
    in a system message that differs from every other row's."""
    rows = [chat(PROMPT, f"Write a short note about the topic numbered {i} for a newsletter "
                         f"in the style of a letter {'x' * (i % 50)}") for i in range(per_shape)]
    rows.insert(150, chat(PROMPT, "Please solve: " + Q_USER))
    rows.append(chat("Context for the task: " + Q_SYSTEM, "What is the answer to it?"))
    rows += [sharegpt(f"How do I cook recipe number {i} from the old family book on a "
                      f"rainy day {'y' * (i % 50)}") for i in range(per_shape)]
    rows.insert(len(rows) - 40, sharegpt("Solve this one: " + Q_SHAREGPT))
    return rows


def flagged_ids(result) -> list[str]:
    return sorted(row["a_id"] if "a_id" in row else row["id"]
                  for row in result.rows if row["status"] == "flagged")


@pytest.fixture
def mix_files(tmp_path):
    import gzip
    rows = sft_mix()
    plain = write_jsonl(tmp_path / "sft.jsonl", rows)
    with gzip.open(tmp_path / "sft.jsonl.gz", "wt", encoding="utf-8") as f:
        f.writelines(json.dumps(r) + "\n" for r in rows)
    evals = write_jsonl(tmp_path / "gsm.jsonl", [{"question": q} for q in EVALS])
    by_shape = [write_jsonl(tmp_path / "shape-messages.jsonl", [r for r in rows if "messages" in r]),
                write_jsonl(tmp_path / "shape-sharegpt.jsonl",
                            [r for r in rows if "conversations" in r])]
    return {"rows": rows, "plain": plain, "gz": tmp_path / "sft.jsonl.gz", "evals": evals,
            "by_shape": by_shape}


def command_flagged(*args) -> int:
    import io
    out, err = io.StringIO(), io.StringIO()
    assert main([*map(str, args), "--json"], stdout=out, stderr=err) == 0, err.getvalue()
    return json.loads(out.getvalue())["flagged"]


def test_two_chat_schemas_in_one_file_read_every_row_everywhere(mix_files):
    """The mixed file finds what the rows split into one file per shape find: plain
    (indexed), gzipped (streamed), and from Python as a generator and a DataFrame."""
    import pandas as pd
    evals, rows = mix_files["evals"], mix_files["rows"]
    as_two_files = command_flagged(evals, *mix_files["by_shape"])
    assert as_two_files == 3
    assert command_flagged(evals, mix_files["plain"]) == as_two_files
    assert command_flagged(evals, mix_files["gz"]) == as_two_files
    assert ngram_overlap.check(EVALS, (r for r in rows)).summary["flagged"] == as_two_files
    assert ngram_overlap.check(EVALS, pd.DataFrame(rows)).summary["flagged"] == as_two_files
    reversed_order = ngram_overlap.check(EVALS, list(reversed(rows)))
    assert reversed_order.summary["flagged"] == as_two_files


def test_two_chat_schemas_streamed_in_pieces_on_dask(mix_files):
    """Cut into 64 KiB partitions, each piece of the file reads its rows by their shape."""
    assert mix_files["plain"].stat().st_size > 2 * 65536      # the last holds no messages
    assert command_flagged(mix_files["evals"], mix_files["plain"], "--engine", "dask",
                           "--workers", "1", "--blocksize", "64KiB") == 3


@pytest.mark.parametrize("order", [1, -1])
def test_the_reading_line_names_both_schemas_and_the_differing_prompt(mix_files, capsys,
                                                                       tmp_path, order):
    """The ShareGPT rows come after 300 messages rows (or before them): their field is
    judged on the rows that hold it, not left out as empty in the first rows; the
    shared prompt is judged on the messages rows, wherever they are, and the one
    system message that differs is read."""
    train = write_jsonl(tmp_path / "ordered.jsonl", mix_files["rows"][::order])
    assert main([str(mix_files["evals"]), str(train), "--json"]) == 0
    captured = capsys.readouterr()
    fields = ["messages.content", "conversations.value"][::order]
    assert f"text from {' + '.join(fields)}" in captured.err
    assert "1 row's messages.system differs from the fixed text and is read" in captured.err
    assert json.loads(captured.out)["flagged"] == 3


def test_a_system_message_that_differs_is_read_and_its_row_removed(mix_files, tmp_path):
    out = tmp_path / "clean"
    suite = ngram_overlap.decontaminate({"gsm": [Q_SYSTEM]}, mix_files["plain"], out=out)
    assert suite.results["gsm"].summary["flagged"] == 1
    cleaned = [json.loads(line) for line in (out / "sft.jsonl").read_text().splitlines()]
    assert len(cleaned) == len(mix_files["rows"]) - 1
    assert not any(Q_SYSTEM in json.dumps(r) for r in cleaned)
    again = ngram_overlap.check([Q_SYSTEM], out / "sft.jsonl")
    assert again.summary["flagged"] == 0 and again.summary["rows"] == 1


@pytest.mark.parametrize("prompt", ["You are a helpful assistant.", "Be brief."])
@pytest.mark.parametrize("order", [1, -1])
def test_a_system_message_that_differs_from_a_short_shared_one_is_read(tmp_path, prompt, order):
    """A shared system prompt short enough to look like a label is left out as a
    prompt; a row whose own system message differs from it is read, wherever it is."""
    rows = [chat(prompt, f"Tell me about the topic numbered {i} please") for i in range(300)]
    rows[150 + 100 * order] = chat("Background for the task: " + Q_SYSTEM, "What is the answer?")
    train = write_jsonl(tmp_path / "sft.jsonl", rows)
    evals = write_jsonl(tmp_path / "eval.jsonl", [{"question": q} for q in (Q_SYSTEM, UNSEEN)])
    assert command_flagged(evals, train) == 1
    assert ngram_overlap.check([Q_SYSTEM, UNSEEN], train).summary["flagged"] == 1


def test_a_few_chats_sharing_the_training_prompt_match_only_their_items(tmp_path):
    """Five test chats under the system prompt every training chat has: the prompt is
    no item however few rows share it, so only the chat whose question is in the
    training data is flagged (all five matched the prompt before)."""
    train_rows = [chat(PROMPT, f"Tell me about the topic number {i} please") for i in range(40)]
    train_rows[7] = chat(PROMPT, QUESTION)
    train = write_jsonl(tmp_path / "sft.jsonl", train_rows)
    tests = [QUESTION, UNSEEN, OTHER, "Name three rivers that flow north and the seas they reach "
             "before the end of their long journey", Q_SYSTEM]
    evals = write_jsonl(tmp_path / "eval.jsonl", [chat(PROMPT, q) for q in tests])
    assert command_flagged(evals, train) == 1
    assert ngram_overlap.check(evals, train).summary["flagged"] == 1
    # a few chats whose system messages differ are read whole: one holds the item
    own = write_jsonl(tmp_path / "own.jsonl", [chat("Context: " + QUESTION, "Answer it."),
                                              chat("Context: " + UNSEEN, "Answer it.")])
    assert command_flagged(own, train) == 1


def test_a_conversation_chosen_by_name_leaves_the_shared_prompt_out_as_detection_does(tmp_path):
    """``--a-field messages`` (``--b-field messages``) reads the conversation: the
    system prompt every row shares is left out as the default reading leaves it,
    not read into every row (every test row matched the training file's prompt,
    and decontaminate removed every training row); a row's own system message, and
    ``messages.system`` named, are still read."""
    train_rows = [chat(PROMPT, f"Tell me about the topic number {i} please") for i in range(40)]
    train_rows[7] = chat("Background for the task: " + QUESTION, "What is the answer here?")
    train = write_jsonl(tmp_path / "sft.jsonl", train_rows)
    tests = [chat(PROMPT, q) for q in (UNSEEN, OTHER, "Name three rivers that flow north and "
                                       "the seas they reach before the end of their journey")]
    evals = write_jsonl(tmp_path / "eval.jsonl", tests)
    assert command_flagged(evals, train, "--a-field", "messages") == 0
    assert command_flagged(evals, train) == 0
    item = write_jsonl(tmp_path / "item.jsonl", [{"question": QUESTION}, {"question": UNSEEN}])
    assert command_flagged(item, train, "--b-field", "messages") == 1    # its own prompt
    assert command_flagged(evals, train, "--a-field", "messages.system",
                           "--b-field", "messages.system") == 3         # named: read
    out = tmp_path / "clean"
    import io
    assert decontaminate_main(["--evals", str(evals), "--train", str(train), "--a-field",
                               "messages", "--b-field", "messages", "--out", str(out)],
                              io.StringIO(), io.StringIO()) == 0
    assert (out / "sft.jsonl").read_bytes() == train.read_bytes()      # nothing removed


def test_the_shared_prompt_is_read_once(tmp_path):
    """A prompt every row of a training file shares is read in its first row only:
    a test set holding it finds that one row, not all 50 of them."""
    rows = [chat(PROMPT, f"Tell me about the topic number {i} please") for i in range(50)]
    train = write_jsonl(tmp_path / "sft.jsonl", rows)
    evals = write_jsonl(tmp_path / "eval.jsonl", [{"question": PROMPT + " " + PROMPT}])
    import io
    out, err = io.StringIO(), io.StringIO()
    assert main([str(evals), str(train), "--n", "8", "--rows-csv", str(tmp_path / "rows.csv"),
                 "--json"], stdout=out, stderr=err) == 0
    assert json.loads(out.getvalue())["flagged"] == 1
    import csv
    (row,) = csv.DictReader(open(tmp_path / "rows.csv"))
    assert row["b_row"] == "1"


@pytest.mark.parametrize("form", ["jsonl", "gz", "after other rows"])
def test_a_test_item_repeated_as_every_rows_prompt_is_found(tmp_path, form):
    """Best-of-n samples: 60 sampled answers to one test question, the question in
    every row (a fixed field by every rule): it is read once, and found, whole,
    streamed, and as a shape of its own after other rows."""
    import gzip
    rows = [{"instruction": Q_SYSTEM, "output": f"Sample {i}: he runs {i} meters more."}
            for i in range(60)]
    if form == "after other rows":
        rows = [{"instruction": "Classify the sentiment of the review.", "input": f"Film {j}.",
                 "output": "positive"} for j in range(300)] + rows
    train = write_jsonl(tmp_path / "train.jsonl", rows)
    if form == "gz":
        train = tmp_path / "train.jsonl.gz"
        train.write_bytes(gzip.compress((tmp_path / "train.jsonl").read_bytes()))
    evals = write_jsonl(tmp_path / "eval.jsonl", [{"question": q} for q in [Q_SYSTEM, UNSEEN]])
    assert command_flagged(evals, train) == 1


def test_fields_a_person_chose_are_read_as_chosen(mix_files):
    """--b-field messages.content reads that field in every row, as asked: the
    ShareGPT rows hold none of it."""
    assert command_flagged(mix_files["evals"], mix_files["plain"],
                           "--b-field", "messages.content") == 1


# --- a training file's own text beside the test set's fields ---------------------------

PERSONAS = ["a pirate", "a patient tutor", "a poet", "a chef", "a tour guide", "a judge"]


@pytest.fixture
def own_text(tmp_path):
    """A chat test set with one shared system prompt (left out of its text) against
    chat training rows each with a system message of its own, one holding a test
    item; and question/answer records against training records with an explanation
    too, one holding a test item there."""
    evals = write_jsonl(tmp_path / "eval.jsonl",
                        [chat(PROMPT, q) for q in [Q_USER, Q_SHAREGPT, Q_SYSTEM, UNSEEN] * 3])
    train = [chat(f"You are {PERSONAS[i % 6]} who answers in character, topic {i}.",
                  f"Tell me something about the topic numbered {i} today") for i in range(40)]
    train[17] = chat("Background for the task: " + Q_SYSTEM, "What is the answer?")
    records = [{"question": f"What is the topic numbered {i} about in the old book",
                "answer": f"It is about chapter {i}",
                "explanation": f"The book's chapter {i} says so in its first lines"}
               for i in range(40)]
    records[9]["explanation"] = "As the worked example puts it: " + Q_USER
    qa = [{"question": q, "answer": "forty two"} for q in [Q_USER, Q_SHAREGPT, UNSEEN] * 4]
    import gzip
    paths = {"evals": evals, "train": write_jsonl(tmp_path / "sft.jsonl", train),
             "qa": write_jsonl(tmp_path / "qa.jsonl", qa),
             "records": write_jsonl(tmp_path / "records.jsonl", records)}
    for name in ("train", "records"):
        gz = tmp_path / f"{name}.jsonl.gz"
        gz.write_bytes(gzip.compress(paths[name].read_bytes()))
        paths[name + "_gz"] = gz
    return paths


@pytest.mark.parametrize("train", ["train", "train_gz"])
def test_a_training_rows_own_system_message_is_searched(own_text, train):
    """The test set's shared prompt is left out of its text; the training rows' own
    system messages are not the test set's prompt, and are read (indexed whole and
    streamed), so the one holding a test item is found."""
    assert command_flagged(own_text["evals"], own_text[train]) == 3     # its 3 copies


@pytest.mark.parametrize("train", ["records", "records_gz"])
def test_a_training_field_the_test_set_lacks_is_searched(own_text, train):
    """B holds A's fields (question, answer) and one more (explanation): all three
    are read, A's first, indexed whole, streamed and from Python."""
    import io
    out, err = io.StringIO(), io.StringIO()
    assert main([str(own_text["qa"]), str(own_text[train]), "--json"], stdout=out,
                stderr=err) == 0
    summary = json.loads(out.getvalue())
    assert summary["flagged"] == 4
    assert summary["b_fields"] == ["question", "answer", "explanation"], err.getvalue()
    assert ngram_overlap.check(own_text["qa"], own_text[train]).summary["flagged"] == 4


def _plain_chat(i: int) -> dict:
    return {"messages": [{"role": "user", "content": f"Tell me about the topic numbered {i}"},
                         {"role": "assistant", "content": f"Topic {i} is about old books."}]}


#: Where a chat row of a training file holds a test item, beside 300 rows without one.
HIDDEN_IN = {
    "a system message in few rows": (5, {"messages": [
        {"role": "system", "content": "Background for the task: " + Q_SYSTEM},
        {"role": "user", "content": "What is the answer?"}]}),
    "a system message past the first rows": (250, {"messages": [
        {"role": "system", "content": "Background for the task: " + Q_SYSTEM},
        {"role": "user", "content": "What is the answer?"}]}),
    "a tool call's arguments": (40, {"messages": [
        {"role": "user", "content": "Look it up."},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function",
         "function": {"name": "search", "arguments": json.dumps({"query": Q_SYSTEM})}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "Nothing found."}]}),
    "a text part of a message": (60, {"messages": [
        {"role": "user", "content": [{"type": "text", "text": Q_SYSTEM},
                                     {"type": "image_url", "image_url": {"url": "x.png"}}]},
        {"role": "assistant", "content": "Here it is."}]}),
}


@pytest.mark.parametrize("where", sorted(HIDDEN_IN))
@pytest.mark.parametrize("test_set", ["questions", "chats"])
def test_a_test_item_anywhere_in_a_training_chat_is_found(tmp_path, where, test_set):
    """A chat's words are its turns' texts, a text part's, a tool call's arguments and
    a system message that is not the prompt every row shares, however few rows hold
    one and wherever they are in the file, whatever the test set's shape."""
    at, row = HIDDEN_IN[where]
    rows = [_plain_chat(i) for i in range(300)]
    rows.insert(at, row)
    train = write_jsonl(tmp_path / "sft.jsonl", rows)
    items = [Q_SYSTEM, UNSEEN]
    evals = write_jsonl(tmp_path / "eval.jsonl",
                        [{"question": q} for q in items] if test_set == "questions" else
                        [chat(PROMPT, q) for q in items * 6])
    assert command_flagged(evals, train) == (1 if test_set == "questions" else 6)


@pytest.mark.parametrize("where", sorted(HIDDEN_IN))
def test_a_test_item_in_a_training_chat_past_the_rows_sampled_is_found_streamed(tmp_path,
                                                                                 where):
    """Streamed, B's fields are chosen on its first MiB: a row 2 MB further on holding
    the item in a field no row of that MiB has (its own system message) is read."""
    import gzip
    rows = [_plain_chat(i) for i in range(30000)]
    rows.insert(25000, HIDDEN_IN[where][1])
    train = tmp_path / "sft.jsonl.gz"
    train.write_bytes(gzip.compress("".join(json.dumps(r) + "\n" for r in rows).encode()))
    evals = write_jsonl(tmp_path / "eval.jsonl", [{"question": q} for q in [Q_SYSTEM, UNSEEN]])
    assert command_flagged(evals, train) == 1


def test_a_system_message_that_differs_from_a_short_shared_one_is_found_streamed(tmp_path):
    """Streamed, as indexed whole: every row of B's first MiB has the system prompt
    "Be brief.", one row 2 MB further on has a system message of its own: read."""
    import gzip
    rows = [chat("Be brief.", f"Tell me about the topic numbered {i} please") for i in range(30000)]
    rows[25000] = chat("Background for the task: " + Q_SYSTEM, "What is the answer?")
    train = tmp_path / "sft.jsonl.gz"
    train.write_bytes(gzip.compress("".join(json.dumps(r) + "\n" for r in rows).encode()))
    evals = write_jsonl(tmp_path / "eval.jsonl", [{"question": q} for q in [Q_SYSTEM, UNSEEN]])
    assert command_flagged(evals, train) == 1


@pytest.mark.parametrize("how", [(), ("--engine", "dask", "--workers", "1",
                                       "--blocksize", "256KiB")])
def test_fields_first_read_past_the_first_mib_are_named(tmp_path, how):
    """ShareGPT rows only past B's first MiB: streamed (gzip) and on Dask, the summary's
    b_fields, the reading line and a suite's summary name them, as B indexed whole
    does."""
    import gzip
    import io
    rows = [_plain_chat(i) for i in range(30000)] + [sharegpt(Q_SHAREGPT)]
    plain = write_jsonl(tmp_path / "sft.jsonl", rows)
    gz = tmp_path / "sft.jsonl.gz"
    gz.write_bytes(gzip.compress(plain.read_bytes()))
    evals = write_jsonl(tmp_path / "eval.jsonl", [{"question": q} for q in [Q_SHAREGPT, UNSEEN]])
    said = {}
    for train in (plain, gz):
        out, err = io.StringIO(), io.StringIO()
        args = [str(evals), str(train), "--json", *(how if train == gz else ())]
        assert main(args, stdout=out, stderr=err) == 0, err.getvalue()
        summary = json.loads(out.getvalue())
        assert summary["flagged"] == 1
        said[train] = summary["b_fields"], [line.split(":", 1)[1] for line in
                                            err.getvalue().splitlines() if line.startswith("B ")]
    assert said[plain] == said[gz]
    assert said[gz][0] == ["messages.content", "conversations.value"]
    assert "text from messages.content + conversations.value" in said[gz][1][0]
    suite = ngram_overlap.decontaminate({"gsm": evals}, gz)
    assert suite.results["gsm"].summary["b_fields"] == said[gz][0]


def _dolly_mix(open_rows: int) -> list[dict]:
    """Open questions first (their context an empty string), then questions on a passage,
    one holding the test item in its context."""
    rows = [{"instruction": f"Question number {j}: who painted picture {j} in gallery {j % 17}?",
             "context": "", "response": f"It was painted by artist {j} around the year {1500 + j}.",
             "category": "open_qa"} for j in range(open_rows)]
    rows += [{"instruction": f"Using the passage, when was bridge {j} built?",
              "context": f"Bridge {j} crosses river {j % 9}; it was finished in {1800 + j}.",
              "response": f"In {1800 + j}.", "category": "closed_qa"} for j in range(300)]
    rows[open_rows + 150]["context"] = "Annual report. " + Q_SYSTEM + " The vote passed."
    return rows


@pytest.mark.parametrize("form", ["jsonl", "parquet", "gz past the first MiB"])
def test_a_field_that_is_an_empty_string_in_the_first_rows_is_read_where_it_holds_text(
        tmp_path, form):
    """A field holding "" in every row sampled is judged on the rows that hold text in
    it, as a null or missing one is: read whole, as Parquet and streamed (where the
    first MiB holds only empty strings there, the later rows are read by their own
    shape)."""
    import gzip
    import pandas as pd
    rows = _dolly_mix(30000 if form.startswith("gz") else 300)
    evals = write_jsonl(tmp_path / "eval.jsonl", [{"question": q} for q in [Q_SYSTEM, UNSEEN]])
    train = write_jsonl(tmp_path / "train.jsonl", rows)
    if form == "parquet":
        train = tmp_path / "train.parquet"
        pd.DataFrame(rows).to_parquet(train)
    elif form.startswith("gz"):
        train = tmp_path / "train.jsonl.gz"
        train.write_bytes(gzip.compress((tmp_path / "train.jsonl").read_bytes()))
    assert command_flagged(evals, train) == 1


def test_a_test_sets_field_empty_in_its_first_rows_is_read_where_it_holds_text(tmp_path):
    rows = _dolly_mix(300)
    evals = write_jsonl(tmp_path / "eval.jsonl", rows)
    train = write_jsonl(tmp_path / "train.jsonl", [{"text": "intro " + Q_SYSTEM + " outro"}])
    assert command_flagged(evals, train) == 1


def _sft_mix(label_rows: int) -> list[dict]:
    """Sentiment rows first (their output a label, their instruction the same), then
    worked math rows, one holding the test item in its output."""
    rows = [{"instruction": "Classify the sentiment of the review.",
             "input": f"Review {j}: the hotel room {j} was clean, staff member {j} helped us.",
             "output": "positive" if j % 2 else "negative"} for j in range(label_rows)]
    rows += [{"instruction": "Solve the math word problem and explain each step.",
              "input": f"Problem {j}: a shop sells {j} apples on Monday and {j + 3} later.",
              "output": f"Step 1: add {j} and {j + 3}. Step 2: that makes {2 * j + 3} apples."}
             for j in range(300)]
    rows[label_rows + 120]["output"] = "Worked example. " + Q_SYSTEM + " Sixty times nine."
    return rows


@pytest.mark.parametrize("form", ["jsonl", "gz past the first MiB"])
def test_a_training_field_of_labels_in_the_first_rows_is_read_where_it_holds_a_sentence(
        tmp_path, form):
    """A training file's output is a label in every row sampled (left out), a worked
    answer in later rows: those are read (said in the reading's notes, as an
    instruction read where it differs from the fixed one is)."""
    import gzip
    import io
    rows = _sft_mix(30000 if form.startswith("gz") else 300)
    evals = write_jsonl(tmp_path / "eval.jsonl", [{"question": q} for q in [Q_SYSTEM, UNSEEN]])
    train = write_jsonl(tmp_path / "train.jsonl", rows)
    if form.startswith("gz"):
        train = tmp_path / "train.jsonl.gz"
        train.write_bytes(gzip.compress((tmp_path / "train.jsonl").read_bytes()))
    out, err = io.StringIO(), io.StringIO()
    assert main([str(evals), str(train), "--json"], stdout=out, stderr=err) == 0
    summary = json.loads(out.getvalue())
    assert summary["flagged"] == 1, err.getvalue()
    if form == "jsonl":
        assert "300 rows' output hold a sentence, not a label, and are read" in err.getvalue()


def test_a_test_sets_label_field_stays_out_where_it_holds_a_sentence(tmp_path):
    """The test side reads what a person would choose: a label field's occasional
    sentence is not the item."""
    rows = _sft_mix(300)
    evals = write_jsonl(tmp_path / "eval.jsonl", rows)
    train = write_jsonl(tmp_path / "train.jsonl", [{"text": "intro " + Q_SYSTEM + " outro"}])
    assert command_flagged(evals, train) == 0


@pytest.mark.parametrize("name", ["c4-train.00000-of-01024.json.gz", "big.json"])
def test_json_lines_named_json_is_read_streamed_as_whole(tmp_path, name, monkeypatch):
    """C4's shards and Dataset.to_json's files are JSON Lines named .json: read as
    such when streamed (compressed, or larger than B read whole: 1 MiB here), as
    they are when read whole; decontaminate writes the cleaned shard line for line."""
    import gzip
    from ngram_core.read import files
    monkeypatch.setattr(files, "INDEX_B_BYTES", 1 << 20)
    rows = [{"text": f"Document {j} about harbor {j % 13} and the market of town {j}."}
            for j in range(30000 if name == "big.json" else 50)]
    rows[-7] = {"text": "Biology quiz: " + Q_SYSTEM}
    data = "".join(json.dumps(r) + "\n" for r in rows).encode()
    (tmp_path / "c4").mkdir()
    train = tmp_path / "c4" / name
    train.write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    evals = write_jsonl(tmp_path / "eval.jsonl", [{"question": q} for q in [Q_SYSTEM, UNSEEN]])
    assert command_flagged(evals, train) == 1
    code, said = decontaminate_cli("--evals", str(evals), "--train", str(train),
                                   "--out", str(tmp_path / "out"))
    assert code == 0, said
    cleaned = (tmp_path / "out" / name).read_bytes()
    kept = b"".join(line for line in data.splitlines(True) if b"Biology quiz" not in line)
    assert (gzip.decompress(cleaned) if name.endswith(".gz") else cleaned) == kept


def test_a_glob_of_a_saved_dataset_reads_its_rows_not_its_description(tmp_path):
    """``'train_disk/*'`` of ``Dataset.save_to_disk``'s folder reads its .arrow files:
    its dataset_info.json and state.json are no training rows."""
    import datasets
    import io
    datasets.Dataset.from_list([{"text": "intro " + Q_SYSTEM}, {"text": UNSEEN}]).save_to_disk(
        str(tmp_path / "train_disk"))
    evals = write_jsonl(tmp_path / "eval.jsonl", [{"question": Q_SYSTEM}])
    out, err = io.StringIO(), io.StringIO()
    assert main([str(evals), str(tmp_path / "train_disk" / "*"), "--json"], stdout=out,
                stderr=err) == 0
    summary = json.loads(out.getvalue())
    assert summary["flagged"] == 1 and summary["b_rows"] == 2
    assert [f["file"].rsplit("/", 1)[-1] for f in summary["training_files"]] == [
        "data-00000-of-00001.arrow"]


def test_a_json_array_named_jsonl_is_read_as_json(tmp_path):
    """A pretty-printed array saved under a .jsonl name is read as the JSON it is,
    as a compact one is; a .jsonl that is neither is refused at its line."""
    rows = [{"id": i, "text": f"row {i}: intro " + (Q_SYSTEM if i == 2 else UNSEEN)}
            for i in range(5)]
    train = tmp_path / "train.jsonl"
    train.write_text(json.dumps(rows, indent=2))
    evals = write_jsonl(tmp_path / "eval.jsonl", [{"question": Q_SYSTEM}])
    assert command_flagged(evals, train) == 1
    train.write_text("[1,\n")
    with pytest.raises(InputError, match="line 1"):
        ngram_overlap.check(evals, train)


def test_a_training_jsons_other_arrays_beside_its_train_split_are_said(tmp_path):
    """IMDB's layout: B reads `train`; the rows of `unsupervised` are not searched, and
    the run's last line says so, naming the flag that searches them (which does)."""
    import io
    doc = {"train": [{"text": f"Review {j}: the film {j} had a slow start."} for j in range(50)],
           "unsupervised": [{"text": f"Unlabelled review {j}: fine."} for j in range(50)]}
    doc["unsupervised"][10]["text"] += " " + Q_SYSTEM
    train = tmp_path / "imdb.json"
    train.write_text(json.dumps(doc))
    evals = write_jsonl(tmp_path / "eval.jsonl", [{"question": Q_SYSTEM}])
    out, err = io.StringIO(), io.StringIO()
    assert main([str(evals), str(train), "--json"], stdout=out, stderr=err) == 0
    assert json.loads(out.getvalue())["flagged"] == 0
    assert err.getvalue().splitlines()[-1].endswith(
        "50 rows in other arrays than the one read (`unsupervised`: 50) are not searched: "
        "search them with --b-records unsupervised")
    assert command_flagged(evals, train, "--b-records", "unsupervised") == 1
    assert ngram_overlap.check(evals, train).notes[-1] == err.getvalue().splitlines()[-1]
    _, said = decontaminate_cli("--evals", str(evals), "--train", str(train),
                                "--out", str(tmp_path / "out"))
    assert "50 rows in other arrays than the one read" in said   # (no cleaned copy of
    # a JSON document is written: it says so too)


# --- the recipe's re-check, and outputs that are the run's -----------------------------

def decontaminate_cli(*args: str) -> tuple[int, str]:
    import io
    from ngram_core.decontaminate import main as decontaminate
    out, err = io.StringIO(), io.StringIO()
    code = decontaminate([*args], stdout=out, stderr=err)
    return code, out.getvalue() + err.getvalue()


def test_a_training_file_emptied_by_cleaning_is_read_as_no_rows(tree):
    """Step 3 of the recipe: an eval checked against the cleaned files, one of which
    had every row removed, reads that file as 0 rows and names it."""
    code, said = decontaminate_cli("--evals", "evals/gsm.jsonl", "--train", "mix/**/*.jsonl",
                                   "--out", "clean")
    write_jsonl(tree / "mix" / "web" / "en" / "part-0.jsonl", [{"text": "intro " + QUESTION}])
    code, said = decontaminate_cli("--evals", "evals/gsm.jsonl", "--train", "mix/**/*.jsonl",
                                   "--out", "clean2")
    assert code == 0, said
    assert (tree / "clean2" / "web" / "en" / "part-0.jsonl").read_bytes() == b""
    import io
    err = io.StringIO()
    out = io.StringIO()
    assert main(["evals/gsm.jsonl", "clean2/a.jsonl", "clean2/web/en/part-0.jsonl", "--json"],
                stdout=out, stderr=err) == 0, err.getvalue()
    assert "clean2/web/en/part-0.jsonl: 0 rows" in err.getvalue()
    assert "is empty" in err.getvalue()
    assert json.loads(out.getvalue())["flagged"] == 0
    streamed = ngram_overlap.check("evals/gsm.jsonl", ["clean2/a.jsonl", "clean2/web/**/*.jsonl"])
    assert streamed.summary["flagged"] == 0
    import gzip
    with gzip.open(tree / "clean2" / "a.jsonl.gz", "wb") as f:
        f.write((tree / "clean2" / "a.jsonl").read_bytes())
    with gzip.open(tree / "clean2" / "web" / "empty.jsonl.gz", "wb"):
        pass
    assert main(["evals/gsm.jsonl", "clean2/a.jsonl.gz", "clean2/web/empty.jsonl.gz"],
                stdout=io.StringIO(), stderr=io.StringIO()) == 0


def test_every_training_file_empty_is_refused(tree):
    (tree / "e1.jsonl").write_text("")
    (tree / "e2.jsonl").write_text("\n")
    with pytest.raises(InputError, match="is empty: it has no rows, nor has any other"):
        ngram_overlap.check([QUESTION], ["e1.jsonl", "e2.jsonl"])


def test_a_second_run_into_one_folder_replaces_the_first_runs_outputs(tree):
    code, said = decontaminate_cli("--evals", "evals/gsm.jsonl", "--train", "mix/**/*.jsonl",
                                   "--out", "clean")
    assert code == 0, said
    assert (tree / "clean" / "web" / "en" / "part-0.jsonl").exists()
    code, said = decontaminate_cli("--evals", "evals/gsm.jsonl", "--train", "mix/a.jsonl",
                                   "--out", "clean")
    assert code == 0, said
    held = sorted(str(p.relative_to(tree / "clean")) for p in (tree / "clean").rglob("*"))
    report = json.loads((tree / "clean" / "report.json").read_text())
    assert held == sorted(report["outputs"]) == ["a.jsonl", "removed.jsonl", "report.json"]


def test_a_folder_holding_other_files_is_refused_before_any_work(tree):
    (tree / "clean").mkdir()
    (tree / "clean" / "notes.txt").write_text("mine")
    code, said = decontaminate_cli("--evals", "evals/gsm.jsonl", "--train", "mix/a.jsonl",
                                   "--out", "clean")
    assert code == 2
    assert "holds a file no run wrote there (notes.txt)" in said
    assert sorted(p.name for p in (tree / "clean").iterdir()) == ["notes.txt"]


def test_a_refused_run_leaves_no_folder_behind(tree):
    (tree / "mix" / "bad.jsonl").write_text('{"text": "fine"}\n{broken\n')
    code, said = decontaminate_cli("--evals", "evals/gsm.jsonl", "--train", "mix/**/*.jsonl",
                                   "--out", "fresh/clean")
    assert code == 2 and "bad.jsonl" in said
    assert not (tree / "fresh").exists()


# --- accounting that adds up -----------------------------------------------------------

def test_rows_asked_for_by_a_person_and_missing_are_counted_unread(mix_files, capsys):
    """Fields a person chose that a row lacks leave it unread: said in the reading,
    counted in --json per training file, and on the run's last line."""
    assert main([str(mix_files["evals"]), str(mix_files["plain"]), "--b-field",
                 "messages.content", "--json"]) == 0
    captured = capsys.readouterr()
    account = json.loads(captured.out)["training_files"][0]
    assert account["unread"] == 301
    assert account["rows"] == account["searched"] + account["no_text"] + account["unread"]
    assert "conversations.value" in account["unread_in"]
    last = captured.err.strip().splitlines()[-1]
    assert last.startswith("Warning: 301 training rows unread (")
    assert "301 rows unread: their text is only in fields not read" in captured.err


def test_rows_with_no_text_are_not_unread(tmp_path, capsys):
    train = write_jsonl(tmp_path / "t.jsonl", [{"text": QUESTION}, {"text": "", "label": "pos"},
                                               {"text": None}])
    assert main([str(write_jsonl(tmp_path / "a.jsonl", [{"text": QUESTION}])), str(train),
                 "--json"]) == 0
    captured = capsys.readouterr()
    account = json.loads(captured.out)["training_files"][0]
    assert (account["rows"], account["searched"], account["no_text"], account["unread"]) == \
        (3, 1, 2, 0)
    assert "unread" not in captured.err


def test_the_suite_report_accounts_for_every_training_row(mix_files, tmp_path):
    suite = ngram_overlap.decontaminate({"gsm": EVALS}, mix_files["plain"], out=tmp_path / "o",
                                        train_text_field="messages.content")
    entry = suite.report["training"][0]
    assert entry["rows"] == entry["searched"] + entry["no_text"] + entry["unread"]
    assert entry["unread"] == 301
    written = json.loads((tmp_path / "o" / "report.json").read_text())["training"][0]
    assert written["unread"] == 301


def test_streamed_reading_counts_unread_rows_alike(mix_files, capsys):
    for b in (mix_files["plain"], mix_files["gz"]):
        assert main([str(mix_files["evals"]), str(b), "--b-field", "messages.content",
                     "--json"]) == 0
        account = json.loads(capsys.readouterr().out)["training_files"][0]
        assert (account["unread"], account["rows"]) == (301, 603)


def test_the_recipe_runs_as_written_on_a_nested_folder(tmp_path):
    """docs/decontaminating.md's recipe, its three steps run by a shell as written, on a
    mix in nested folders of compressed shards: step 3 finds nothing."""
    import re
    import shutil
    import subprocess
    import sys
    import zstandard
    doc = (pathlib.Path(__file__).parent.parent / "docs" / "decontaminating.md").read_text()
    recipe = doc.split("## A recipe")[1]
    script = re.search(r"```sh\n(.*?)```", recipe, re.S).group(1)
    write_jsonl(tmp_path / "evals" / "gsm8k.jsonl", [{"question": QUESTION}])
    write_jsonl(tmp_path / "evals" / "mmlu.jsonl", [{"question": UNSEEN}])
    for name, rows in {"web/en/part-0.jsonl.zst": [{"text": "x " + QUESTION}, {"text": OTHER}],
                       "code/part-0.jsonl.zst": [{"text": OTHER + " code"}]}.items():
        path = tmp_path / "mix" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        data = "".join(json.dumps(r) + "\n" for r in rows).encode()
        path.write_bytes(zstandard.ZstdCompressor().compress(data))
    command = shutil.which("ngram-overlap", path=os.path.dirname(sys.executable))
    assert command, "the ngram-overlap command is installed beside this Python"
    env = {**os.environ, "PATH": os.path.dirname(command) + os.pathsep + os.environ["PATH"]}
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "report.json").read_text())
    assert sorted(t["file"] for t in report["training"]) == [
        "mix/code/part-0.jsonl.zst", "mix/web/en/part-0.jsonl.zst"]
    assert sum(t["removed"] for t in report["training"]) == 1
    assert (tmp_path / "cleaned" / "web" / "en" / "part-0.jsonl.zst").exists()
    assert "Rows flagged: 0.0%" in done.stdout


@pytest.mark.parametrize("how", [(), ("--jobs", "2", "--blocksize", "256KiB"),
                                 ("--engine", "dask", "--workers", "1", "--blocksize", "256KiB")])
def test_a_field_that_first_appears_far_past_the_first_mib_is_read_in_every_piece(tmp_path,
                                                                                   how):
    """An SFT mix: Alpaca rows without ``input`` for 3 MB, then rows with one, two of
    them holding test items, the second in a piece where every row has ``input``
    (no row of the shape the fields were chosen on): streamed (gzip), in worker
    processes and on Dask, both are found, as B read whole finds them."""
    import gzip
    rows = [{"instruction": f"Write a short note number {j} about the weather in town {j % 31}.",
             "output": f"Note {j}: the weather in town {j % 31} was mild with a light breeze."}
            for j in range(30000)]
    rows += [{"instruction": f"Summarize passage {j}.", "input": f"Passage {j} tells of a "
              f"harbour town and its {j % 13} boats.", "output": f"Boats, {j}."}
             for j in range(12000)]
    rows[30050]["input"], rows[41000]["input"] = Q_SYSTEM, UNSEEN
    evals = write_jsonl(tmp_path / "eval.jsonl", [{"question": q} for q in [Q_SYSTEM, UNSEEN]])
    plain = write_jsonl(tmp_path / "train.jsonl", rows)
    gz = tmp_path / "train.jsonl.gz"
    gz.write_bytes(gzip.compress(plain.read_bytes()))
    assert command_flagged(evals, plain) == 2
    assert command_flagged(evals, gz, *how) == 2


@pytest.mark.parametrize("name", ["key", "prompt_id"])
def test_a_field_named_like_an_id_that_holds_sentences_is_text(tmp_path, name):
    """A prompt cache exported as ``{"key": prompt, "value": response}``: the key is
    the prompt, never the id, and a test item there is found."""
    rows = [{name: f"Tell me about the old mill number {j} by the river and who built it.",
             "value": f"Mill {j} was built by a family of millers around {1700 + j}."}
            for j in range(60)]
    rows[40][name] = Q_SYSTEM
    evals = write_jsonl(tmp_path / "eval.jsonl", [{"question": q} for q in [Q_SYSTEM, UNSEEN]])
    train = write_jsonl(tmp_path / "train.jsonl", rows)
    import io
    out, err = io.StringIO(), io.StringIO()
    assert main([str(evals), str(train), "--json"], stdout=out, stderr=err) == 0
    assert json.loads(out.getvalue())["flagged"] == 1
    said = [line for line in err.getvalue().splitlines() if line.startswith("B ")]
    assert said == [f"B {train}: 60 rows, text from {name} + value, id from (row numbers)."]


@pytest.mark.parametrize("rows_with_sentences", [(50,), (50, 280), (0, 1, 2)])
def test_a_label_field_with_a_few_sentences_among_the_rows_sampled_is_still_read(
        tmp_path, rows_with_sentences):
    """Sentiment labels in nearly every row, a worked answer holding a test item in a
    row the fields are chosen on: the field is still a label field, read where it
    holds a sentence (it was passed over whole)."""
    rows = [{"text": f"Review {j}: the film about harbour {j % 7} was long but kind.",
             "output": "positive" if j % 3 else "negative"} for j in range(300)]
    for j in rows_with_sentences:
        rows[j]["output"] = f"Worked answer {j}: " + UNSEEN
    rows[rows_with_sentences[0]]["output"] = "Worked answer: " + Q_SYSTEM
    evals = write_jsonl(tmp_path / "eval.jsonl", [{"question": q} for q in [Q_SYSTEM, UNSEEN]])
    train = write_jsonl(tmp_path / "train.jsonl", rows)
    assert command_flagged(evals, train) == (1 if len(rows_with_sentences) == 1 else 2)


@pytest.mark.parametrize("twice", ["--evals", "--train"])
def test_a_file_named_twice_in_a_suite_is_refused_as_such(tmp_path, twice):
    """The same training file twice (or two globs that overlap) is refused naming the
    flag, before any work, not as an output written twice."""
    import io
    from ngram_core.decontaminate import main as decontaminate
    evals = write_jsonl(tmp_path / "eval.jsonl", [{"question": q} for q in [Q_SYSTEM, UNSEEN]])
    train = write_jsonl(tmp_path / "t.jsonl", [{"text": UNSEEN}])
    evals_args = [str(evals), str(evals)] if twice == "--evals" else [str(evals)]
    train_args = [str(train), str(tmp_path / "*.jsonl")] if twice == "--train" else [str(train)]
    err = io.StringIO()
    assert decontaminate(["--evals", *evals_args, "--train", *train_args,
                          "--out", str(tmp_path / "out")], io.StringIO(), err) == 2
    assert err.getvalue().startswith(f"ngram-overlap: {twice}: names one file twice")
    assert not (tmp_path / "out").exists()
    if twice == "--train":
        with pytest.raises(InputError, match="train: names one file twice"):
            ngram_overlap.decontaminate([str(evals)], [str(train), str(train)])


@pytest.mark.parametrize("holds_item", [False, True])
def test_a_one_row_json_shard_is_cleaned_with_the_others(tmp_path, holds_item):
    """``Dataset.to_json`` shards named ``.json``, the last holding one row (one
    object): it is read as one row, and cleaned too, its bytes as they are when the
    row stays, an empty array when it goes; it used to stop the whole run."""
    import io
    from ngram_core.decontaminate import main as decontaminate
    shards = tmp_path / "shards"
    shards.mkdir()
    write_jsonl(shards / "train-00000-of-00002.json",
                [{"text": f"Row {j} of the first shard tells of boats."} for j in range(20)])
    last = write_jsonl(shards / "train-00001-of-00002.json",
                       [{"text": Q_SYSTEM if holds_item else "A row of the last shard."}])
    evals = write_jsonl(tmp_path / "eval.jsonl", [{"question": q} for q in [Q_SYSTEM, UNSEEN]])
    err = io.StringIO()
    assert decontaminate(["--evals", str(evals), "--train", str(shards / "*.json"),
                          "--out", str(tmp_path / "out")], io.StringIO(), err) == 0, \
        err.getvalue()
    cleaned = (tmp_path / "out" / last.name).read_bytes()
    assert cleaned == (b"[]\n" if holds_item else last.read_bytes())
    assert (tmp_path / "out" / "train-00000-of-00002.json").read_bytes() == \
        (shards / "train-00000-of-00002.json").read_bytes()


@pytest.mark.parametrize("form", ["jsonl", "gz"])
def test_a_copy_field_that_differs_in_a_few_rows_is_read_there(tmp_path, form):
    """``question_with_context`` is ``question`` again in most rows (a copy, left out),
    and carries a test item in one: that row's copy is read (said on stderr), and
    no other row's is counted twice."""
    import gzip
    import io
    rows = [{"question": f"Where did traveller {j} leave the blue suitcase on day {j % 9}?",
             "answer": f"At the station, {j}."} for j in range(300)]
    for row in rows:
        row["question_with_context"] = row["question"]
    rows[120]["question_with_context"] = "Context: " + Q_SYSTEM + " " + rows[120]["question"]
    evals = write_jsonl(tmp_path / "eval.jsonl", [{"question": q} for q in [Q_SYSTEM, UNSEEN]])
    train = write_jsonl(tmp_path / "train.jsonl", rows)
    if form == "gz":
        train = tmp_path / "train.jsonl.gz"
        train.write_bytes(gzip.compress((tmp_path / "train.jsonl").read_bytes()))
    out, err = io.StringIO(), io.StringIO()
    assert main([str(evals), str(train), "--json"], stdout=out, stderr=err) == 0
    summary = json.loads(out.getvalue())
    assert summary["flagged"] == 1
    said = [line for line in err.getvalue().splitlines() if line.startswith("B ")]
    if form == "jsonl":            # streamed, the reading line is judged on the first MiB
        assert said[0].endswith("text from question + answer, id from (row numbers); 1 row's "
                                "question_with_context holds words the rest of the row "
                                "lacks, and is read."), said


def test_an_id_field_held_by_the_first_rows_only_numbers_the_rest_when_streamed(tmp_path):
    """``uid`` in the first 200 rows only: read whole, later rows are numbered; streamed
    (gzip, pieces past the first rows hold no ``uid`` at all) the same, where it was
    refused as a field the file lacks."""
    import gzip
    import io
    rows = [{"text": f"Row {j} speaks of the harbour and its {j % 13} boats at dawn today."}
            for j in range(30000)]
    for j in range(200):
        rows[j]["uid"] = f"u-{j}"
    rows[25000]["text"] = Q_SYSTEM
    evals = write_jsonl(tmp_path / "eval.jsonl", [{"question": q} for q in [Q_SYSTEM, UNSEEN]])
    plain = write_jsonl(tmp_path / "train.jsonl", rows)
    gz = tmp_path / "train.jsonl.gz"
    gz.write_bytes(gzip.compress(plain.read_bytes()))
    csvs = []
    for train in (plain, gz):
        err = io.StringIO()
        out_csv = tmp_path / f"{train.name}.rows.csv"
        assert main([str(evals), str(train), "--rows-csv", str(out_csv)], io.StringIO(),
                    err) == 0, err.getvalue()
        csvs.append(out_csv.read_text().replace(str(train), "B"))
    assert csvs[0] == csvs[1] and ",25001,25001," in csvs[0]
