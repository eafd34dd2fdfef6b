"""Integration: step IV's `model` rule (default profile) on the real MSR-VTT annotations."""
import json

import pyarrow.parquet as pq
import pytest

from transforms.runon.step import merge_sentences

pytestmark = pytest.mark.integration
# Captions the paper's rule truncates on MSR-VTT (tests/integration/test_msrvtt.py pins it).
PAPER_TRUNCATED = 5260


@pytest.fixture(scope="module")
def default_output(default_run):
    return default_run


def rows(output, table):
    return pq.read_table(output / table).to_pylist()


def test_every_split_caption_is_its_sentences_joined_by_spaces(default_output):
    runon = rows(default_output, "runon")
    before = {row["sen_id"]: row["before"] for row in rows(default_output, "edits") if row["step"] == "runon"}
    assert runon and set(before) <= {row["sen_id"] for row in runon}
    for row in runon:
        assert len(row["sentences"]) >= 2 and all(row["sentences"])
        joined = " ".join(row["sentences"])
        # no edits/ row only where merging added no word (a piece already ending with "and")
        assert before.get(row["sen_id"], merge_sentences(row["sentences"])) == joined


def test_fewer_captions_are_split_than_the_paper_truncates_and_stats_say_how_many(default_output):
    figures = json.loads((default_output / "stats.json").read_text())["steps"]["runon"]
    by_split = figures["captions_split_by_split"]
    assert sum(by_split.values()) == figures["captions_split"] == len(rows(default_output, "runon"))
    assert set(by_split) == {"train", "validate", "test"}
    assert 0 < figures["captions_split"] < PAPER_TRUNCATED


def is_words_with_joiners(original: str, merged: str) -> bool:
    """Whether `merged` is every word of `original`, in order, with only "and" added between them."""
    words = iter(original.split())
    expected = next(words, None)
    for word in merged.split():
        if word == expected:
            expected = next(words, None)
        elif word != "and":
            return False
    return expected is None


def test_every_caption_step_four_touched_keeps_every_word_and_the_test_split_all_of_them(default_output):
    captions = {row["sen_id"]: row["caption"] for row in rows(default_output, "captions")}
    respelled = {(row["sen_id"], row["before"]): row["after"] for row in rows(default_output, "edits")
                 if row["step"] == "spelling" and row["rule"].startswith("recheck")}
    runon = rows(default_output, "runon")
    assert {row["split"] for row in runon} == {"train", "validate", "test"}
    assert sum(row["split"] == "test" for row in runon) > 500  # MSR-VTT's test split has about a thousand
    for row in runon:
        assert row["policy"] == "merge"
        merged = merge_sentences(row["sentences"])
        assert is_words_with_joiners(" ".join(row["sentences"]), merged)
        # the caption is in the dataset, merged (a recheck of step II may have respelled a word since)
        assert captions[row["sen_id"]] in (merged, respelled.get((row["sen_id"], merged)))
