"""The samplers of issue 42's blind samples: per-type spelling tokens and a run's untouched captions and
non-identical near-duplicate removals. Small run folders written here, worked by hand."""
import pyarrow as pa
import pyarrow.parquet as pq

from devsets.sample_output import (draw, earlier_sen_ids, non_identical_removals, round_and_rules, rule_changes,
                                   untouched_rows, write_tsv)
from devsets.sample_spelling import leave_out, sample_types, tokens_in


def write_table(folder, table, rows):
    (folder / table).mkdir(parents=True)
    pq.write_table(pa.Table.from_pylist(rows), folder / table / "part-0.parquet")


def small_run(folder):
    write_table(folder, "captions", [
        {"sen_id": 1, "video_id": "v1", "caption": "a man is cooking"},
        {"sen_id": 2, "video_id": "v1", "caption": "a dog runs"},
        {"sen_id": 5, "video_id": "v2", "caption": "two cows graze"},
    ])
    write_table(folder, "edits", [{"sen_id": 2}])
    write_table(folder, "removed", [
        {"sen_id": 3, "video_id": "v1", "caption": "a man is cooking", "step": "dedup", "kept_sen_id": 1, "similarity": 1.0},
        {"sen_id": 4, "video_id": "v1", "caption": "a person is cooking", "step": "dedup", "kept_sen_id": 1, "similarity": 0.9},
        {"sen_id": 6, "video_id": "v2", "caption": "", "step": "normalize", "kept_sen_id": None, "similarity": None},
    ])
    return folder


def test_untouched_captions_are_those_no_edit_names(tmp_path):
    assert untouched_rows(str(small_run(tmp_path))) == [(1, "v1", "a man is cooking"), (5, "v2", "two cows graze")]


def test_only_step_threes_removals_below_similarity_one_are_drawn_with_what_the_video_keeps(tmp_path):
    rows = non_identical_removals(str(small_run(tmp_path)))
    assert rows == [(4, "v1", "a person is cooking", 1, "a man is cooking", "a man is cooking | a dog runs")]


def test_a_draw_is_the_same_for_a_seed_and_sorted():
    pool = [(n, "v", "c") for n in range(100)]
    first = draw(pool, 10, seed=7)
    assert first == draw(pool, 10, seed=7) and first == sorted(first) and len(set(first)) == 10
    assert draw(pool, 500, seed=7) == pool


def test_the_tsv_leaves_the_label_columns_empty(tmp_path):
    path = tmp_path / "s.tsv"
    write_tsv(str(path), ("sen_id", "caption", "label", "note"), [(1, "a man")])
    assert path.read_text() == "sen_id\tcaption\tlabel\tnote\n1\ta man\t\t\n"


def test_a_per_type_sample_shows_each_token_once_whatever_its_frequency():
    frequent = [(n, 0, "teh", "teh dog") for n in range(1, 50)]
    rare = [(100, 1, "restraunt", "a restraunt"), (101, 2, "1cup", "add a 1cup")]
    drawn = sample_types(frequent + rare, size=3, seed=1)
    assert sorted(row[2] for row in drawn) == ["1cup", "restraunt", "teh"]
    assert drawn == sorted(drawn)
    assert len(sample_types(frequent + rare, size=2, seed=1)) == 2


def test_a_per_type_sample_leaves_out_the_tokens_and_sentences_of_earlier_samples(tmp_path):
    earlier = tmp_path / "types.tsv"
    earlier.write_text("sen_id\tposition\ttoken\tcaption\tlabel\tintended\tnote\n"
                       "9\t1\trestraunt\ta restraunt \"here\"\tfix\trestaurant\t\n")
    assert tokens_in(str(earlier)) == {"restraunt"}
    candidates = [(100, 1, "restraunt", "a restraunt"), (101, 2, "1cup", "add a 1cup"), (102, 0, "teh", "teh dog")]
    kept = leave_out(candidates, sen_ids=frozenset({102}), tokens=tokens_in(str(earlier)))
    assert kept == [(101, 2, "1cup", "add a 1cup")]


def test_earlier_samples_sen_ids_are_read_from_their_first_column(tmp_path):
    earlier = tmp_path / "earlier.tsv"
    earlier.write_text("sen_id\tvideo_id\tcaption\tlabel\n17\tvideo1\ta man\tok\n4\tvideo2\ta dog\terror\n")
    assert earlier_sen_ids([str(earlier)]) == {17, 4}
    assert earlier_sen_ids([]) == set()


def test_a_recheck_rounds_rule_splits_into_its_round_and_rules():
    assert round_and_rules("recheck 2: compound,ranked") == ("recheck 2: ", {"compound", "ranked"})
    assert round_and_rules("ranked") == ("", {"ranked"})


def test_a_rules_changes_come_with_the_caption_of_the_pass_that_made_them_a_recheck_round_included(tmp_path):
    write_table(tmp_path, "edits", [
        {"sen_id": 7, "step": "normalize", "rule": "lowercase", "before": "A Egg Shells", "after": "a egg shells"},
        {"sen_id": 7, "step": "spelling", "rule": "compound", "before": "a egg shells", "after": "a eggshells"},
        {"sen_id": 7, "step": "spelling", "rule": "recheck 1: confusion", "before": "a eggshells", "after": "an eggshells"},
        {"sen_id": 8, "step": "spelling", "rule": "ranked", "before": "a dgo", "after": "a dog"},
    ])
    write_table(tmp_path, "corrections", [
        {"sen_id": 7, "position": 1, "original": "egg shells", "replacement": "eggshells", "rule": "compound"},
        {"sen_id": 7, "position": 0, "original": "a", "replacement": "an", "rule": "confusion"},
        {"sen_id": 8, "position": 1, "original": "dgo", "replacement": "dog", "rule": "ranked"},
    ])
    assert rule_changes(str(tmp_path), {"compound", "confusion"}) == [
        (7, 1, "egg shells", "eggshells", "a egg shells", "a eggshells"),
        (7, 0, "a", "an", "a eggshells", "an eggshells"),
    ]
