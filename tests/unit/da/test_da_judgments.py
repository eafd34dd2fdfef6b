"""Judgments read in each shape and held to the HITs: every bad row is one error naming the file and the row."""
import csv

import numpy as np
import pytest

from pipelines.evaluation.da.score.judgment_files import check_judgment_file, read_hits, read_judgments
from transforms.da.judgments import JudgmentError, check_judgments, hits_from_columns

GOOD = [{"worker": "w1", "hit_id": "hit-0001", "slot": 1, "score": 80, "seconds": 12.5},
        {"worker": "w1", "hit_id": "hit-0001", "slot": 4, "score": 30.5, "seconds": ""},
        {"worker": "w2", "hit_id": "hit-0001", "slot": 1, "score": 0, "seconds": 3}]


def judged(path, hits):
    return check_judgments([read_judgments(path)], hits)


@pytest.mark.parametrize("suffix", [".csv", ".parquet", ".jsonl"])
def test_a_plain_table_in_each_format(tmp_path, tiny_hits, write_judgments, suffix):
    rows = [{**row, "seconds": row["seconds"] or None} for row in GOOD] if suffix != ".csv" else GOOD
    judgments = judged(write_judgments(tmp_path / f"j{suffix}", rows), tiny_hits)
    assert list(judgments.worker) == ["w1", "w1", "w2"]
    assert list(judgments.hit_row) == [0, 3, 0]  # slot 1 is row 0 of the HITs table, slot 4 row 3
    assert list(judgments.score) == [80.0, 30.5, 0.0]
    assert judgments.seconds[0] == 12.5 and np.isnan(judgments.seconds[1]) and judgments.seconds[2] == 3


def test_the_judgments_come_out_by_worker_then_hits_row_whatever_the_files_order(tmp_path, tiny_hits,
                                                                                 write_judgments):
    """GOOD backwards and split over two files: the same arrays as GOOD in one file (w1 slot 1, w1 slot 4,
    w2 slot 1), so the sums and the tables do not depend on the order the judgments came in."""
    first = write_judgments(tmp_path / "first.csv", [GOOD[2]])
    second = write_judgments(tmp_path / "second.csv", [GOOD[1], GOOD[0]])
    judgments = check_judgments([read_judgments(first), read_judgments(second)], tiny_hits)
    assert list(judgments.worker) == ["w1", "w1", "w2"]
    assert list(judgments.hit_row) == [0, 3, 0]
    assert list(judgments.score) == [80.0, 30.5, 0.0]
    assert list(judgments.seconds[[0, 2]]) == [12.5, 3.0]


@pytest.mark.parametrize("bad, message", [
    ({"hit_id": "hit-0099"}, "line 3: unknown HIT 'hit-0099' in the HITs table"),
    ({"slot": 7}, "line 3: HIT hit-0001 has no slot 7 in the HITs table"),
    ({"score": 101}, "line 3: score '101' is outside 0-100"),
    ({"score": -0.5}, "line 3: score '-0.5' is outside 0-100"),
    ({"score": "nan"}, "line 3: score 'nan' is not a number"),
    ({"score": "good"}, "line 3: score 'good' is not a number"),
    ({"slot": "2.5"}, "line 3: slot '2.5' is not a whole number"),
    ({"worker": "w1", "slot": 1}, "line 3: worker w1 rated HIT hit-0001 slot 1 twice (first at"),
])
def test_each_bad_row_is_one_error_naming_the_file_and_the_row(tmp_path, tiny_hits, write_judgments, bad, message):
    path = write_judgments(tmp_path / "judgments.csv", [GOOD[0], {**GOOD[2], **bad}])
    with pytest.raises(JudgmentError) as error:
        judged(path, tiny_hits)
    assert f"{path}: {message}" in str(error.value)
    assert "\n" not in str(error.value)


def test_a_parquet_file_names_the_row(tmp_path, tiny_hits, write_judgments):
    path = write_judgments(tmp_path / "judgments.parquet", [GOOD[0], {**GOOD[2], "score": float("nan")}])
    with pytest.raises(JudgmentError, match=r"judgments.parquet: row 2: score nan is not a number"):
        judged(path, tiny_hits)


def test_the_same_slot_twice_across_two_files_names_both(tmp_path, tiny_hits, write_judgments):
    first = write_judgments(tmp_path / "a.csv", GOOD[:1])
    second = write_judgments(tmp_path / "b.jsonl", GOOD[:1])
    with pytest.raises(JudgmentError) as error:
        check_judgments([read_judgments(first), read_judgments(second)], tiny_hits)
    assert f"{second}: line 1: worker w1 rated HIT hit-0001 slot 1 twice (first at {first}: line 2)" in str(error.value)


def test_a_file_without_the_columns_names_them(tmp_path, write_judgments):
    path = write_judgments(tmp_path / "j.csv", [{"worker": "w1", "slot": 1}], columns=("worker", "slot"))
    with pytest.raises(JudgmentError, match="no column.s. hit_id, score"):
        read_judgments(path)


def test_an_unreadable_kind_of_file_is_refused_before_reading(tmp_path):
    (tmp_path / "j.xlsx").write_text("x")
    with pytest.raises(JudgmentError, match="j.xlsx: a judgments file is"):
        check_judgment_file(str(tmp_path / "j.xlsx"), "--judgments")
    with pytest.raises(JudgmentError, match="no such file"):
        check_judgment_file(str(tmp_path / "none.csv"), "--judgments")


def test_a_hits_table_is_checked(tiny_hit_rows, hits_of):
    with pytest.raises(JudgmentError, match="row 2: kind 'odd' is not one of"):
        hits_of([tiny_hit_rows[0], {**tiny_hit_rows[1], "kind": "odd"}])
    with pytest.raises(JudgmentError, match="row 2: HIT hit-0001 slot 1 is also row 1"):
        hits_of([tiny_hit_rows[0], {**tiny_hit_rows[1], "slot": 1}])
    with pytest.raises(JudgmentError, match="the degraded item of HIT hit-0001 copies slot 9"):
        hits_of([tiny_hit_rows[0], {**tiny_hit_rows[3], "original_slot": 9}])
    with pytest.raises(JudgmentError, match="no column.s. original_slot"):
        hits_from_columns({name: [] for name in ("hit_id", "slot", "kind", "system", "video_id", "sen_id", "caption",
                                                 "item_id")}, "hits")


def test_a_folder_without_hits_is_refused(tmp_path):
    with pytest.raises(JudgmentError, match="no hits/ table in it"):
        read_hits(str(tmp_path))
    with pytest.raises(JudgmentError, match="no such folder"):
        read_hits(str(tmp_path / "nowhere"))


def test_a_file_without_a_judgment_is_refused(tmp_path, write_judgments):
    path = write_judgments(tmp_path / "j.csv", [])
    with pytest.raises(JudgmentError, match=r"j.csv holds no judgment"):
        read_judgments(path)


# ---------------------------------------------------------------- MTurk

def write_mturk_results(path, assignments: list, slots: int):
    """MTurk's batch results as MTurk writes them: its own columns, the inputs, then Answer.score_1..N."""
    header = ["HITId", "HITTypeId", "Title", "AssignmentId", "WorkerId", "AssignmentStatus", "WorkTimeInSeconds",
              "Input.hit_id"] + [f"Answer.score_{slot}" for slot in range(1, slots + 1)]
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        for number, (worker, hit_id, seconds, scores) in enumerate(assignments):
            writer.writerow([f"3MTURK{number}", "TYPE", "Rate captions", f"A{number}", worker, "Submitted", seconds,
                             hit_id] + [scores.get(slot, "") for slot in range(1, slots + 1)])
    return path


def test_an_mturk_results_csv_round_trip(tmp_path, tiny_hits):
    """Every slot's answer of every assignment is one judgment; the assignment's time is shared evenly; an empty
    answer beyond the HIT's slots is no judgment."""
    scores = {1: 90, 2: 70, 3: 95, 4: 20, 5: 72, 6: 60}
    path = write_mturk_results(tmp_path / "Batch_1_batch_results.csv",
                               [("AW1", "hit-0001", 120, scores), ("AW2", "hit-0001", 60, {1: 50, 4: 40})], slots=8)
    judgments = judged(path, tiny_hits)
    assert list(judgments.worker) == ["AW1"] * 6 + ["AW2"] * 2
    assert [tiny_hits.slot[row] for row in judgments.hit_row] == [1, 2, 3, 4, 5, 6, 1, 4]
    assert list(judgments.score) == [90, 70, 95, 20, 72, 60, 50, 40]
    assert list(judgments.seconds) == [20.0] * 6 + [30.0] * 2


def test_an_mturk_answer_outside_the_scale_names_the_row_and_the_column(tmp_path, tiny_hits):
    path = write_mturk_results(tmp_path / "results.csv", [("AW1", "hit-0001", 10, {1: 50, 2: 101})], slots=2)
    with pytest.raises(JudgmentError, match=r"results.csv: line 2, Answer.score_2: score '101' is outside 0-100"):
        judged(path, tiny_hits)
