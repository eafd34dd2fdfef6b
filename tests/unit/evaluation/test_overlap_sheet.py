"""`capclean overlap --protocol`: the candidates searched among a protocol's videos only, and written as a
labelling sheet that, once judged, `capclean fire --labels` and `capclean evaluate --fire-labels` read back:
overlap -> sheet -> labels filled -> fire and evaluate, worked by hand."""
import csv
import json

import numpy as np
import pytest

from pipelines.cli import main
from transforms.evaluation.overlap import SHEET_COLUMNS, Candidate, Caption, labelling_rows

GALLERY = ["video7010", "video7011", "video7012", "video7013"]
VIDEOS = [{"video_id": video, "split": "test", "category": 1} for video in GALLERY + ["video7100"]] + [
    {"video_id": "video1", "split": "train", "category": 1}]
CAPTIONS = [(0, "video7010", "a man is talking"), (1, "video7010", "a man talks about cars"),
            (2, "video7011", "a man is talking"), (3, "video7011", "a man sits in a studio"),
            (4, "video7012", "a man is talking to a crowd"), (5, "video7012", "a speech on stage"),
            (6, "video7013", "a cat sleeps"), (7, "video7013", "a man is talking on stage"),
            (8, "video7100", "a man is talking"), (9, "video7100", "the news"),
            (10, "video1", "a man is talking"), (11, "video1", "a dog runs")]
SENTENCES = ["a man is talking", "a man sits in a studio", "a man is talking to a crowd", "a cat sleeps"]
# Row 0 ranks video7011 first, its own video second; the other rows their own video first.
SIMILARITY = np.array([[0.5, 0.9, 0.1, 0.2], [0.1, 0.8, 0.2, 0.3], [0.1, 0.2, 0.9, 0.3], [0.1, 0.2, 0.3, 0.9]])


@pytest.fixture
def case(tmp_path, write_annotations):
    raw = write_annotations(tmp_path / "raw", VIDEOS, [{"sen_id": sen_id, "video_id": video, "caption": text}
                                                       for sen_id, video, text in CAPTIONS])
    with open(tmp_path / "1k-a.csv", "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([["key", "vid_key", "video_id", "sentence"]] + [
            [f"ret{row}", f"msr{video[5:]}", video, text] for row, (video, text) in enumerate(zip(GALLERY, SENTENCES))])
    np.save(tmp_path / "sim.npy", SIMILARITY)
    return tmp_path, raw


def read_sheet(path) -> list:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_labelling_rows_show_the_pair_and_the_videos_other_captions():
    pool = [Caption(2, "v2", "a man is talking"), Caption(3, "v2", "a man sits"), Caption(4, "v2", "a studio")]
    candidate = Candidate(0, "v1", "a man is talking", "v2", 1.0, 2, "a man is talking")
    assert labelling_rows([candidate], pool, more=1) == [
        ("a man is talking", 0, "v1", "v2", "1.0000", "a man is talking", "a man sits", "", "overlap")]
    assert len(SHEET_COLUMNS) == 9


def test_overlap_on_a_protocol_searches_its_gallery_and_the_sheet_goes_back_to_fire(case, capsys):
    folder, raw = case
    out = folder / "overlap"
    assert main(["overlap", "--input", str(raw), "--output", str(out), "--protocol", "1k-A",
                 "--videos", str(folder / "1k-a.csv"), "--fn-threshold", "0.8"]) == 0
    printed = capsys.readouterr().out
    assert "protocol 1k-A: 4 texts, 0 matched no caption" in printed and "among 4 videos" in printed
    # "a man is talking" (query 0): video7011's "a man is talking" (1.0), video7013's "a man is talking on
    # stage" (0.5 * (4/4 + 4/6) = 0.833); video7100 says it too, but is not in the gallery.
    # "a man is talking to a crowd" and "a man is talking": 0.5 * (4/7 + 4/4) = 0.786, below 0.8.
    sheet = read_sheet(out / "labelling_sheet.csv")
    assert [(row["query"], row["query_sen_id"], row["video"], row["similarity"], row["label"], row["source"])
            for row in sheet] == [("a man is talking", "0", "video7011", "1.0000", "", "overlap"),
                                  ("a man is talking", "0", "video7013", "0.8333", "", "overlap")]
    assert sheet[0]["more_captions"] == "a man sits in a studio"
    assert json.loads((out / "stats.json").read_text())["settings"]["queries"] == "protocol:1k-A"

    # Not judged yet: fire says so, naming the row.
    fire = ["fire", "--scores", str(folder / "sim.npy"), "--orientation", "texts-x-videos", "--protocol", "1k-A",
            "--videos", str(folder / "1k-a.csv")]
    assert main(fire + ["--labels", str(out / "labelling_sheet.csv")]) == 2
    assert "labelling_sheet.csv: line 2, column label: empty (not judged yet)" in capsys.readouterr().err

    # Judged by a rule (the same words: relevant), then read back by fire and evaluate.
    judged = folder / "judged.csv"
    with open(judged, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(sheet[0]))
        writer.writeheader()
        writer.writerows([{**row, "label": int(float(row["similarity"]) >= 0.9)} for row in sheet])
    assert main(fire + ["--labels", str(judged), "--output", str(folder / "fire")]) == 0
    figures = json.loads((folder / "fire" / "fire.json").read_text())
    assert figures["unmatched_labels"] == 0
    # original: row 0's own video at 2 (AP 1/2), the others at 1: C@1 3/4, mAP 7/8; with video7011 relevant
    # for row 0 (ranked 1), every row is right at 1.
    sets = figures["a"]["label_sets"]
    assert (sets["original"]["C@1"], sets["original"]["mAP"]) == (0.75, 0.875)
    assert (sets["original+extra"]["C@1"], sets["original+extra"]["mAP"]) == (1.0, 1.0)
    assert main(["evaluate", "--protocol", "1k-A", "--videos", str(folder / "1k-a.csv"), "--scores",
                 str(folder / "sim.npy"), "--orientation", "texts-x-videos", "--fire-labels", str(judged),
                 "--json", str(folder / "e.json")]) == 0
    fire_figures = json.loads((folder / "e.json").read_text())["fire"]
    assert (fire_figures["labels_read"], fire_figures["labels_skipped"], fire_figures["extra_positives"]) == (2, 0, 1)
    assert fire_figures["label_sets"]["original+extra"]["model"]["C@1"] == 1.0


def test_without_a_protocol_the_candidates_come_from_the_whole_split(case, capsys):
    folder, raw = case
    queries = folder / "queries.csv"
    queries.write_text("video_id,sentence\nvideo7010,a man is talking\n")
    assert main(["overlap", "--input", str(raw), "--output", str(folder / "out"), "--queries", f"list:{queries}",
                 "--fn-threshold", "0.8"]) == 0
    assert [row["video"] for row in read_sheet(folder / "out" / "labelling_sheet.csv")] == [
        "video7011", "video7100", "video7013"]


@pytest.mark.parametrize("flags, message", [
    (["--protocol", "1k-A", "--videos", "{csv}", "--queries", "split:test"], "--queries and --protocol both"),
    (["--videos", "{csv}"], "give --protocol too"),
    (["--protocol", "1k-A"], "--protocol 1k-A needs --videos"),
    # the training side is the gallery itself: nothing is left once the query videos are taken out of it
    (["--protocol", "1k-A", "--videos", "{csv}", "--train", "list:{csv}"], "no training caption is left"),
])
def test_protocol_errors_are_one_line(case, capsys, flags, message):
    folder, raw = case
    flags = [flag.format(csv=folder / "1k-a.csv") for flag in flags]
    assert main(["overlap", "--input", str(raw), "--output", str(folder / "out"), *flags]) == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1
    assert not (folder / "out").exists()
