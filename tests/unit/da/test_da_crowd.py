"""The simulated crowd: each behaviour as specified, deterministic by seed, on any HITs table."""
import numpy as np
import pytest

from transforms.da.crowd import (CONSTANT, Worker, crowd, damage, degrade, simulate_judgments, study_hits,
                                 true_quality)
from transforms.da.judgments import HITS_COLUMNS


def test_degrade_keeps_the_first_and_last_word_and_replaces_a_span():
    caption = "a person shows thing 7 to the camera in a room"  # 11 words: a span of 4
    degraded = degrade(caption)
    assert degraded == "a person shows zebra purple quietly under camera in a room"
    assert degraded.split()[0] == "a" and degraded.split()[-1] == "room"


def test_damage_is_the_share_of_words_not_the_originals():
    assert damage("a b c d", "a b c d") == 0.0
    # 2 of 4 words kept in each: SequenceMatcher's ratio 2*2/8 = 0.5.
    assert damage("a b c d", "a x y d") == pytest.approx(0.5)


def test_a_degraded_item_is_worth_less_in_proportion_to_the_damage(tiny_hit_rows):
    caption_of = {row["slot"]: row["caption"] for row in tiny_hit_rows}
    # "a man sings a song" -> "a man zebra purple song": 3 of 5 words kept, ratio 6/10, damage 0.4.
    assert true_quality(tiny_hit_rows[3], {"A/v1": 80.0}, caption_of) == pytest.approx(48.0)
    assert true_quality(tiny_hit_rows[4], {"B/v2": 60.0}, caption_of) == 60.0  # a repeat is its original


def test_study_hits_has_the_default_recipe_shape():
    rows = study_hits(("s1", "s2"), 2, seed=0)
    assert len(rows) == 200 and set(HITS_COLUMNS) <= set(rows[0])
    first = [row for row in rows if row["hit_id"] == "hit-0001"]
    kinds = [row["kind"] for row in first]
    assert [kinds.count(kind) for kind in ("system", "reference", "degraded", "repeat")] == [70, 10, 10, 10]
    slot_of = {row["slot"]: row for row in first}
    for row in first:
        if row["kind"] in ("degraded", "repeat"):
            original = slot_of[row["original_slot"]]
            assert original["kind"] == "system" and original["system"] == row["system"]
            # its original sits five blocks of ten away
            assert abs((row["slot"] - 1) // 10 - (original["slot"] - 1) // 10) == 5
    assert [row["system"] for row in first if row["kind"] == "system"].count("s1") == 35


def test_each_behaviour(tiny_hit_rows):
    quality = {"A": 70.0, "B": 40.0, "reference": 90.0}
    workers = [Worker("careful", noise=0.0), Worker("harsh", bias=-20.0, noise=0.0), Worker("random", "random"),
               Worker("same", CONSTANT, value=42.0)]
    rows = simulate_judgments(tiny_hit_rows, quality, workers, seed=1, item_spread=0.0)
    scores = {(row["worker"], row["slot"]): row["score"] for row in rows}
    assert [scores["careful", slot] for slot in range(1, 7)] == [70, 40, 90, 42, 40, 70]  # slot 4: 70 * (1 - 0.4)
    assert [scores["harsh", slot] for slot in range(1, 7)] == [50, 20, 70, 22, 20, 50]
    assert {scores["same", slot] for slot in range(1, 7)} == {42.0}
    assert all(0 <= scores["random", slot] <= 100 for slot in range(1, 7))
    assert all(set(row) == {"worker", "hit_id", "slot", "score", "seconds"} for row in rows)


def test_scores_are_clipped_to_the_scale(tiny_hit_rows):
    rows = simulate_judgments(tiny_hit_rows, {"A": 95.0, "B": 5.0, "reference": 99.0},
                              [Worker("lenient", bias=30.0, noise=0.0), Worker("harsh", bias=-30.0, noise=0.0)],
                              item_spread=0.0)
    assert min(row["score"] for row in rows) == 0 and max(row["score"] for row in rows) == 100


def test_the_same_seed_gives_the_same_judgments_and_another_seed_others(simulated_study):
    hits, quality = simulated_study
    workers = crowd(4, 2)
    first = simulate_judgments(hits, quality, workers, seed=5)
    assert first == simulate_judgments(hits, quality, workers, seed=5)
    assert first != simulate_judgments(hits, quality, workers, seed=6)


def test_crowd_names_the_harsh_and_lenient_first():
    workers = crowd(4, 2)
    assert [(w.name, w.behaviour, w.bias) for w in workers] == [
        ("w001", "diligent", -20.0), ("w002", "diligent", 20.0), ("w003", "diligent", 0.0),
        ("w004", "diligent", 0.0), ("w005", "random", 0.0), ("w006", "random", 0.0)]


def test_worker_i_rates_hits_i_times_k_onwards(simulated_study):
    hits, quality = simulated_study
    rows = simulate_judgments(hits, quality, crowd(3, 0), hits_per_worker=2)
    rated = {(row["worker"], row["hit_id"]) for row in rows}
    assert sorted(rated) == [("w001", "hit-0001"), ("w001", "hit-0002"), ("w002", "hit-0003"), ("w002", "hit-0004"),
                             ("w003", "hit-0005"), ("w003", "hit-0006")]
    assert np.all([row["score"] == round(row["score"]) for row in rows])


def test_mturk_results_are_one_row_per_assignment_with_the_batch_as_input():
    from transforms.da.crowd import mturk_results

    batch = [{"hit_id": "hit-0001", "hit_data": "QUJD"}, {"hit_id": "hit-0002", "hit_data": "REVG"}]
    judgments = [{"worker": "w2", "hit_id": "hit-0002", "slot": 1, "score": 40.0},
                 {"worker": "w1", "hit_id": "hit-0001", "slot": 2, "score": 75.5},
                 {"worker": "w1", "hit_id": "hit-0001", "slot": 1, "score": 100.0},
                 {"worker": "w2", "hit_id": "hit-0001", "slot": 3, "score": 0.0}]
    rows = mturk_results(batch, judgments, seconds_per_item=10)
    assert [(row["WorkerId"], row["Input.hit_id"], row["Input.hit_data"], row["HITId"]) for row in rows] == [
        ("w1", "hit-0001", "QUJD", "3SIMHIT000001"), ("w2", "hit-0001", "QUJD", "3SIMHIT000001"),
        ("w2", "hit-0002", "REVG", "3SIMHIT000002")]
    assert [[row[f"Answer.score_{slot}"] for slot in (1, 2, 3)] for row in rows] == [
        ["100", "75.5", ""], ["", "", "0"], ["40", "", ""]]
    assert [row["WorkTimeInSeconds"] for row in rows] == [20, 10, 10]
    assert len({row["AssignmentId"] for row in rows}) == 3
