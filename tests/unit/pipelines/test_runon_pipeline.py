"""Step IV's `model` rule (the default) through the whole pipeline, on a handmade input."""
import json

import pyarrow.parquet as pq
import pytest

from pipelines.cli import main

RUN_ON = "a cat is afraid of an stuffed animal he is trying to figure it out"
ONE_SENTENCE = "a man is showing how you can hold a phone in a vest he is wearing"


def runon_dataset(folder, write_annotations):
    videos = [{"video_id": "video1", "split": "train", "category": 3},
              {"video_id": "video7500", "split": "test", "category": 9}]
    captions = [
        (0, "video1", RUN_ON),
        (1, "video1", ONE_SENTENCE),
        (5, "video7500", "a woman s hands place uncooked shrimp into a glass bowl she pours juice on top of the shrimp"),
        (9, "video7500", "a woman is cooking shrimp #"),  # step I edits it (the report needs one edit)
    ]
    return write_annotations(folder, videos, [{"sen_id": s, "video_id": v, "caption": c} for s, v, c in captions])


def clean(input_dir, output, policy, extra=()):
    args = ["clean", "--input", str(input_dir), "--output", str(output), "--profile", "default",
            "--steps", "normalize,runon", "--runon-policy", policy, *extra]
    assert main(args) == 0  # 0: validation passed, conservation included
    return output


def rows(output, table):
    return pq.read_table(output / table).to_pylist()


def test_separate_makes_new_captions_with_ids_above_the_input_and_same_bytes_on_two_workers(
        tmp_path, write_annotations, files_digest, multi_process):
    source = runon_dataset(tmp_path / "in", write_annotations)
    one = clean(source, tmp_path / "one", "separate")
    two = clean(source, tmp_path / "two", "separate", multi_process)
    assert files_digest(one) == files_digest(two)

    captions = {row["sen_id"]: row["caption"] for row in rows(one, "captions")}
    assert captions == {0: "a cat is afraid of an stuffed animal", 1: ONE_SENTENCE,
                        5: "a woman s hands place uncooked shrimp into a glass bowl", 9: "a woman is cooking shrimp",
                        10: "he is trying to figure it out", 15: "she pours juice on top of the shrimp"}
    runon = {row["sen_id"]: row for row in rows(one, "runon")}
    assert runon[0]["new_sen_ids"] == [10] and runon[5]["new_sen_ids"] == [15]
    assert " ".join(runon[0]["sentences"]) == RUN_ON
    figures = json.loads((one / "stats.json").read_text())["steps"]["runon"]
    assert figures["captions_split_by_split"] == {"test": 1, "train": 1}
    assert figures["captions_added_by_split"] == {"test": 1, "train": 1}


@pytest.mark.parametrize("policy, kept", [("first", "a cat is afraid of an stuffed animal"), ("whole", RUN_ON)])
def test_first_and_whole_keep_one_caption_per_input(tmp_path, write_annotations, policy, kept):
    output = clean(runon_dataset(tmp_path / "in", write_annotations), tmp_path / "out", policy)
    captions = {row["sen_id"]: row["caption"] for row in rows(output, "captions")}
    assert sorted(captions) == [0, 1, 5, 9] and captions[0] == kept
    assert [row["policy"] for row in rows(output, "runon")] == [policy, policy]
    edits = [row["sen_id"] for row in rows(output, "edits") if row["step"] == "runon"]
    assert edits == ([0, 5] if policy == "first" else [])


def test_separate_refuses_in_one_line_the_ids_it_cannot_make(tmp_path, write_annotations, capsys):
    largest = 2**63 - 1  # a valid id: the largest a Parquet int64 holds
    videos = [{"video_id": "video1", "split": "train", "category": 3}]
    sentences = [{"sen_id": 7, "video_id": "video1", "caption": RUN_ON},
                 {"sen_id": largest, "video_id": "video1", "caption": ONE_SENTENCE}]
    source = write_annotations(tmp_path / "in", videos, sentences)
    args = ["clean", "--input", str(source), "--output", str(tmp_path / "out"), "--profile", "default",
            "--steps", "normalize,runon", "--runon-policy", "separate"]
    assert main(args) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if line.startswith("capclean")]
    assert len(err) == 1 and err[0].startswith("capclean: error: sen_id 7: the id of its sentence 2")
    assert not (tmp_path / "out").exists()
    assert main(args[:-1] + ["first"]) == 0  # the same input under `first`: no new ids, no refusal
