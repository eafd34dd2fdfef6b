"""`capclean da prepare` and `capclean da score` together, through the files they write and read: MTurk's batch
made into a results CSV as MTurk makes it, a simulated crowd on a prepared study (the issue's 72 diligent and 18
random workers, a harsh, a lenient and a constant one), and bad judgments refused in one line by the command.
(The rating page's round trip, in a real browser, is in test_da_rating_page.py.)"""
import base64
import csv
import json

import pyarrow.parquet as pq
import pytest

from pipelines.cli import main
from transforms.da.crowd import CONSTANT, Worker, crowd, mturk_results, simulate_judgments

QUALITY = {"model-a": 70.0, "model-b": 45.0, "reference": 85.0}


def score(capsys, *args) -> tuple:
    code = main(["da", "score", *map(str, args)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write_plain(path, judgments: list):
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, ["worker", "hit_id", "slot", "score", "seconds"])
        writer.writeheader()
        writer.writerows(judgments)
    return path


def write_mturk_results(prepared, judgments: list, path):
    """The judgments as MTurk's batch results CSV for the batch da prepare exported (transforms/da/crowd.py's
    mturk_results: one row per assignment, Input.<batch column>, Answer.score_<slot>)."""
    with open(prepared / "mturk" / "batch.csv", newline="", encoding="utf-8") as handle:
        batch = list(csv.DictReader(handle))
    rows = mturk_results(batch, judgments)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


def test_the_mturk_batch_carries_every_caption_as_it_is(small_study, small_study_hits, hostile_caption):
    """What the template decodes from a batch row (base64 of the HIT's JSON) is the HIT's captions, slot by slot,
    the hostile one included."""
    with open(small_study / "mturk" / "batch.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    shown = {}
    for row in rows:
        hit = json.loads(base64.b64decode(row["hit_data"]).decode("utf-8"))
        assert hit["hit_id"] == row["hit_id"]
        shown.update(((row["hit_id"], item["slot"]), item["caption"]) for item in hit["slots"])
    assert shown == {(row["hit_id"], row["slot"]): row["caption"] for row in small_study_hits}
    assert hostile_caption in shown.values()


def test_mturk_results_made_from_the_batch_score_as_the_plain_table(small_study, small_study_hits, hostile_caption,
                                                                     tmp_path, capsys):
    """Six diligent workers rate all three HITs (12 good/degraded pairs each); their judgments as MTurk's
    results CSV (one row per assignment, by worker and HIT) and as a plain table, last line first, give the
    same tables, seconds aside."""
    judgments = simulate_judgments(small_study_hits, QUALITY, crowd(6, 0), hits_per_worker=3, seed=5)[::-1]
    plain = write_plain(tmp_path / "plain.csv", judgments)
    mturk = write_mturk_results(small_study, judgments, tmp_path / "Batch_123_batch_results.csv")
    for judged, out in ((plain, tmp_path / "from-plain"), (mturk, tmp_path / "from-mturk")):
        code, printed, err = score(capsys, "--hits", small_study, "--judgments", judged, "--output", out,
                                   "--bootstrap", "100")
        assert code == 0, err
        assert "360 judgments by 6 workers; kept 6" in printed
    for name in ("da_systems", "da_captions", "da_pairs", "da_checks"):
        plain_bytes, mturk_bytes = ((tmp_path / run / name / "part-00000.parquet").read_bytes()
                                    for run in ("from-plain", "from-mturk"))
        assert plain_bytes == mturk_bytes, name
    captions = pq.read_table(tmp_path / "from-mturk" / "da_captions").to_pylist()
    assert hostile_caption in [row["caption"] for row in captions]
    systems = [row["system"] for row in pq.read_table(tmp_path / "from-mturk" / "da_systems").to_pylist()]
    assert systems == ["reference", "model-a", "model-b"]
    workers = pq.read_table(tmp_path / "from-mturk" / "da_workers").to_pylist()
    assert {row["seconds_per_item"] for row in workers} == {20.0}  # WorkTimeInSeconds shared over 20 answers


# ---------------------------------------------------------------- a simulated crowd on a prepared study

SYSTEM_QUALITY = {"s1": 75.0, "s2": 65.0, "s3": 55.0, "s4": 45.0, "s5": 35.0, "reference": 85.0}
DILIGENT, RANDOM = 72, 18  # the paper's 90 workers, of whom 72 passed
VIDEOS = 420  # 5 systems x 420 videos = 2,100 items: 30 HITs of the default recipe (70 system slots)


@pytest.fixture(scope="module")
def large_study(tmp_path_factory, prepare_study):
    """`capclean da prepare` (default recipe) of five systems' captions of 420 test videos: 30 HITs of 100 slots."""
    systems = tuple(sorted(set(SYSTEM_QUALITY) - {"reference"}))
    return prepare_study(tmp_path_factory.mktemp("da-large-study"), systems, VIDEOS, "--seed", "1")


def test_a_simulated_crowd_on_a_prepared_study(large_study, tmp_path, capsys):
    """Two separate crowds (seeds 1 and 3) of 72 diligent workers (the first harsh, -20, the second lenient,
    +20), 18 random clickers and one who always answers 70, each rating two HITs (20 good/degraded pairs):
    the filter keeps at least 70 of the diligent, the harsh and the lenient among them, at most 2 random
    clickers and never the constant worker; the ranking by z is the truth's; the replication r is printed."""
    hits = pq.read_table(large_study / "hits").to_pylist()
    assert len({row["hit_id"] for row in hits}) == 30
    workers = crowd(DILIGENT, RANDOM) + [Worker("w091", CONSTANT, value=70.0)]
    runs = [write_plain(tmp_path / f"run{seed}.csv",
                        simulate_judgments(hits, SYSTEM_QUALITY, workers, hits_per_worker=2, seed=seed))
            for seed in (1, 3)]
    out = tmp_path / "scored"
    code, printed, err = score(capsys, "--hits", large_study, "--judgments", runs[0], "--replicate", runs[1],
                               "--output", out, "--bootstrap", "200")
    assert code == 0, err
    print(printed)
    status = {row["worker"]: row["status"] for row in pq.read_table(out / "da_workers").to_pylist()}
    diligent = {f"w{at:03d}" for at in range(1, DILIGENT + 1)}
    kept = {worker for worker, said in status.items() if said == "kept"}
    assert len(kept & diligent) >= 70 and {"w001", "w002"} <= kept
    assert len(kept - diligent) <= 2 and status["w091"] == "constant scores"
    systems = pq.read_table(out / "da_systems").to_pylist()
    assert [row["system"] for row in systems] == sorted(SYSTEM_QUALITY, key=SYSTEM_QUALITY.get, reverse=True)
    assert [row["cluster"] for row in systems] == [1, 2, 3, 4, 5, 6]
    stats = json.loads((out / "stats.json").read_text())
    assert stats["replication"]["systems"] == 6 and stats["replication"]["pearson_z"] > 0.99
    assert f"replication over 6 systems: Pearson r {stats['replication']['pearson_raw']:.3f} (raw), " \
           f"{stats['replication']['pearson_z']:.3f} (z)" in printed


# ---------------------------------------------------------------- bad judgments, through the command

def judged_by(small_study_hits, worker="w1") -> list:
    return [{"worker": worker, "hit_id": row["hit_id"], "slot": row["slot"], "score": 50, "seconds": 4}
            for row in small_study_hits if row["hit_id"] == "hit-0001"]


@pytest.mark.parametrize("change, message", [
    ({"hit_id": "hit-0099"}, "unknown HIT 'hit-0099' in the HITs table"),
    ({"slot": 21}, "HIT hit-0001 has no slot 21 in the HITs table"),
    ({"score": 101}, "score '101' is outside 0-100"),
    ({"score": -1}, "score '-1' is outside 0-100"),
])
def test_a_bad_judgment_is_one_line_naming_the_file_and_line(small_study, small_study_hits, tmp_path, capsys, change,
                                                             message):
    rows = judged_by(small_study_hits)
    rows[6] = {**rows[6], **change}  # line 8 of the CSV: line 1 is its header
    bad = write_plain(tmp_path / "bad.csv", rows)
    code, _, err = score(capsys, "--hits", small_study, "--judgments", bad, "--output", tmp_path / "out")
    assert (code, err.strip()) == (2, f"capclean: error: {bad}: line 8: {message}")
    assert not (tmp_path / "out").exists()


def test_a_slot_rated_twice_is_one_line_naming_both_places(small_study, small_study_hits, tmp_path, capsys):
    rows = judged_by(small_study_hits)
    first = write_plain(tmp_path / "first.csv", rows)
    again = write_plain(tmp_path / "again.csv", rows[:3] + [rows[1]])
    code, _, err = score(capsys, "--hits", small_study, "--judgments", again, "--output", tmp_path / "out")
    assert (code, err.strip()) == (2, f"capclean: error: {again}: line 5: worker w1 rated HIT hit-0001 slot "
                                      f"{rows[1]['slot']} twice (first at {again}: line 3)")
    later = write_plain(tmp_path / "later.csv", judged_by(small_study_hits, "w2") + rows[4:5])
    code, _, err = score(capsys, "--hits", small_study, "--judgments", first, later, "--output", tmp_path / "out")
    assert (code, err.strip()) == (2, f"capclean: error: {later}: line 22: worker w1 rated HIT "
                                      f"hit-0001 slot {rows[4]['slot']} twice (first at {first}: line 6)")
    assert not (tmp_path / "out").exists()


def test_a_bad_mturk_answer_is_one_line_naming_the_row_and_the_column(small_study, small_study_hits, tmp_path,
                                                                      capsys):
    results = write_mturk_results(small_study, judged_by(small_study_hits) + judged_by(small_study_hits, "w2"),
                            tmp_path / "results.csv")
    with open(results, newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    rows[2][rows[0].index("Answer.score_7")] = "150"  # line 3: the second assignment
    with open(results, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    code, _, err = score(capsys, "--hits", small_study, "--judgments", results, "--output", tmp_path / "out")
    assert (code, err.strip()) == (2, f"capclean: error: {results}: line 3, Answer.score_7: score '150' is "
                                      "outside 0-100")
