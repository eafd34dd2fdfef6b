from dataclasses import replace

import pytest

from transforms.batch import Caption, VideoBatch
from transforms.dedup import (
    caption_similarity,
    caption_to_keep,
    common_words,
    group_near_duplicates,
    name_final_keepers,
    remove_near_duplicates,
)


def test_the_worked_example_of_the_method():
    similarity = caption_similarity("a woman is singing on a music video", "a young woman is singing in a music video")
    assert common_words("a woman is singing on a music video".split(),
                        "a young woman is singing in a music video".split(), 0) == 7
    assert similarity == pytest.approx(0.5 * (7 / 8 + 7 / 9))
    assert round(similarity, 3) == 0.826


def test_edit_threshold_lets_close_words_match():
    a, b = "a man is cooking pasta".split(), "a men is cookin pasta".split()
    assert common_words(a, b, 0) == 3
    assert common_words(a, b, 1) == 5
    # e = 1 must agree with the exact LCS when no word is close to another.
    a, b = "apple banana cherry".split(), "cherry banana apple".split()
    assert common_words(a, b, 1) == common_words(a, b, 0) == 1


def test_similarity_of_identical_and_disjoint_captions():
    assert caption_similarity("a b c", "a b c") == 1.0
    assert caption_similarity("a b c", "d e f") == 0.0


def test_grouping_is_greedy_by_opener_and_not_transitive():
    texts = [
        "a man is playing a red guitar",        # 0 opens a group
        "a man is playing a guitar",            # 1 similar to 0
        "a man is playing a guitar on stage",   # 2 similar to 1 but not to 0 enough? check below
        "a dog runs in the park",               # 3 opens its own group
    ]
    assert caption_similarity(texts[0], texts[2]) < 0.85 <= caption_similarity(texts[1], texts[2])
    groups = group_near_duplicates(texts, 0, 0.85)
    assert [[index for index, _ in group] for group in groups] == [[0, 1], [2], [3]]


def test_the_longest_caption_is_kept_and_the_first_on_ties():
    texts = ["a b c d", "a b c dd", "a b c ee", "x"]
    assert caption_to_keep(texts, [(0, 1.0), (1, 0.9), (2, 0.9)]) == 1
    assert caption_to_keep(texts, [(3, 1.0)]) == 3


def test_remove_near_duplicates_records_each_removal_with_the_kept_caption():
    batch = VideoBatch("video1", "train", 3, [
        Caption(10, "a woman is singing on a music video"),
        Caption(11, "a woman is singing on a music video clip"),
        Caption(12, "a cat sleeps"),
    ])
    result = remove_near_duplicates(batch, 0, 0.85)
    assert [c.sen_id for c in result.captions] == [11, 12]
    assert len(result.removed) == 1
    row = result.removed[0]
    assert (row.sen_id, row.kept_sen_id, row.step) == (10, 11, "dedup")
    assert row.reason == ("opened the near-duplicate group of sen_id 11, which stands for it; e=0, s=0.85; "
                          "the group keeps its longest caption")
    assert [c.sen_id for c in batch.captions] == [10, 11, 12]  # the input is not mutated


def lcs_by_dynamic_programming(a, b, edit_threshold):
    """The paper's dynamic programme, cell by cell: the reference the fast paths must agree with."""
    from rapidfuzz.distance import Levenshtein
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            match = 1 if Levenshtein.distance(x, y) <= edit_threshold else 0
            table[i + 1][j + 1] = max(table[i][j] + match, table[i][j + 1], table[i + 1][j])
    return table[len(a)][len(b)]


@pytest.mark.parametrize("edit_threshold", [0, 1, 2])
def test_fast_lcs_agrees_with_the_dynamic_programme(edit_threshold):
    import random
    rng = random.Random(edit_threshold)
    words = ["a", "man", "men", "is", "cooking", "cookin", "pasta", "past", "in", "on", "the", "kitchen", "a"]
    for _ in range(300):
        a = [rng.choice(words) for _ in range(rng.randint(1, 25))]
        b = [rng.choice(words) for _ in range(rng.randint(1, 70))]  # past 64 positions too
        assert common_words(a, b, edit_threshold) == lcs_by_dynamic_programming(a, b, edit_threshold)


def test_grouping_with_an_edit_threshold():
    texts = ["a man is cooking pasta", "a men is cookin pasta", "a dog sleeps"]
    assert [[i for i, _ in group] for group in group_near_duplicates(texts, 1, 0.9)] == [[0, 1], [2]]
    assert [[i for i, _ in group] for group in group_near_duplicates(texts, 0, 0.9)] == [[0], [1], [2]]


def make_batch(texts):
    from transforms.batch import Caption, VideoBatch
    return VideoBatch("video1", "train", 1, [Caption(number, text) for number, text in enumerate(texts)])


def test_until_stable_removes_the_near_duplicates_a_single_greedy_pass_leaves():
    # The opener takes the second caption (0.9) but not the third (0.833); the group keeps the
    # longer second, which is a near-duplicate of the third (0.917): one pass leaves that pair.
    texts = ["a man plays guitar", "a man plays a guitar", "a man plays a guitar now"]
    once = remove_near_duplicates(make_batch(texts), 0, 0.85)
    stable = remove_near_duplicates(make_batch(texts), 0, 0.85, until_stable=True)
    left = [c.text for c in once.captions]
    assert any(caption_similarity(a, b) >= 0.85 for i, a in enumerate(left) for b in left[i + 1:])
    kept = [c.text for c in stable.captions]
    assert not any(caption_similarity(a, b) >= 0.85 for i, a in enumerate(kept) for b in kept[i + 1:])
    assert len(stable.captions) + len(stable.removed) == len(texts) and [c.sen_id for c in stable.captions] == [2]
    kept_ids = {c.sen_id for c in stable.captions}
    assert all(row.kept_sen_id in kept_ids for row in name_final_keepers(stable).removed)
    assert remove_near_duplicates(stable, 0, 0.85, until_stable=True).removed == stable.removed


def test_step_four_runs_step_three_again_only_on_the_videos_it_cut():
    from pipelines.config import load_config, override
    from transforms.lineage import EditRow
    from transforms.runon.step import Runon

    config = override(load_config("default"), "dedup", until_stable=True)
    runon = Runon(config)
    runon._find = lambda texts: [[text] for text in texts]  # a finder that splits nothing
    batch = make_batch(["a girl is singing", "a girl is singing"])
    assert runon.process(batch) == batch
    cut = replace(batch, edits=[EditRow(1, batch.video_id, "runon", "model:first", "a girl is singing too",
                                        "a girl is singing")])
    after = runon.process(cut)
    assert [c.sen_id for c in after.captions] == [0] and after.removed[0].kept_sen_id == 0


def test_a_member_is_named_for_the_caption_kept_not_the_opener_it_was_compared_with():
    # 0 opens the group and takes 1 and 2; the group keeps 2, the longest: 1's reason names 2 first.
    texts = ["a man plays a guitar", "a man plays a guitar", "a man plays a red guitar"]
    result = remove_near_duplicates(make_batch(texts), 0, 0.85)
    reasons = {row.sen_id: (row.kept_sen_id, row.reason) for row in result.removed}
    assert reasons[1] == (2, "near-duplicate of sen_id 2, which stands for its group; similarity 1.000 to the "
                             "group's opener, sen_id 0; e=0, s=0.85; the group keeps its longest caption")
    assert reasons[0][1].startswith("opened the near-duplicate group of sen_id 2, which stands for it;")


def test_a_removed_row_holds_what_step_three_decided_as_columns():
    # 0 opens the group and takes 1 and 2; the group keeps 2, the longest.
    texts = ["a man plays a guitar", "a man plays guitar", "a man plays a red guitar"]
    rows = {row.sen_id: row for row in remove_near_duplicates(make_batch(texts), 0, 0.85).removed}
    member, opener = rows[1], rows[0]
    # A member: compared with the opener, by the similarity that let it in (not rounded as its reason writes it).
    assert (member.kept_sen_id, member.opener_sen_id, member.compared_sen_id) == (2, 0, 0)
    assert member.similarity == caption_similarity(texts[1], texts[0]) == 0.5 * (4 / 4 + 4 / 5)
    assert "similarity 0.900 to the group's opener, sen_id 0" in member.reason
    # The opener: compared with the caption kept, their similarity being what made the group.
    assert (opener.kept_sen_id, opener.opener_sen_id, opener.compared_sen_id) == (2, 0, 2)
    assert opener.similarity == caption_similarity(texts[0], texts[2])
    for row in (member, opener):
        assert (row.edit_threshold, row.similarity_threshold, row.dedup_pass) == (0, 0.85, 1)


def test_the_columns_record_the_edit_threshold_and_the_pass():
    texts = ["a man is cooking pasta", "a men is cookin pasta", "a dog sleeps"]
    [row] = remove_near_duplicates(make_batch(texts), 1, 0.9).removed
    assert (row.sen_id, row.compared_sen_id, row.edit_threshold, row.similarity_threshold) == (1, 0, 1, 0.9)
    assert row.similarity == caption_similarity(texts[1], texts[0], 1) == 1.0  # 0.6 with e = 0
    # Pass 2 of until_stable removes 1 (see below); its row says so, and handing on changes no fact but the keeper.
    chain = ["a man plays guitar", "a man plays a guitar", "a man plays a guitar now"]
    named = name_final_keepers(remove_near_duplicates(make_batch(chain), 0, 0.85, until_stable=True))
    facts = {row.sen_id: (row.kept_sen_id, row.compared_sen_id, row.dedup_pass) for row in named.removed}
    assert facts == {0: (2, 1, 1), 1: (2, 2, 2)}


def test_a_chain_of_keepers_names_the_caption_that_stays():
    # Pass 1: 0 opens and takes 1 (0.9), not 2 (0.833); the group keeps 1, the longer.
    # Pass 2: 1 and 2 are near-duplicates (0.917); the group keeps 2. So 0 was removed for 1,
    # then 1 for 2: 0 must name 2.
    texts = ["a man plays guitar", "a man plays a guitar", "a man plays a guitar now"]
    stable = remove_near_duplicates(make_batch(texts), 0, 0.85, until_stable=True)
    assert [c.sen_id for c in stable.captions] == [2]
    assert {row.sen_id: row.kept_sen_id for row in stable.removed} == {0: 1, 1: 2}  # as each pass kept

    named = name_final_keepers(stable)
    rows = {row.sen_id: row for row in named.removed}
    assert {sen_id: row.kept_sen_id for sen_id, row in rows.items()} == {0: 2, 1: 2}
    assert rows[0].reason == ("opened the near-duplicate group of sen_id 2, which stands for it; e=0, s=0.85; "
                              "the group keeps its longest caption (sen_id 1, kept at first, was removed later "
                              "as a near-duplicate)")
    assert rows[1].reason == stable.removed[1].reason  # named 2 already
    assert name_final_keepers(named) == named  # once is enough


def test_a_chain_across_stages_names_the_caption_that_stays():
    # Step III removes A (0) for B (1); step IV then cuts B, which a later run of step III
    # removes for C (2): A's row, written by the first run, must name C.
    from transforms.lineage import RemovedRow
    batch = make_batch(["a dog runs", "a dog runs fast", "a dog runs on the grass"])
    first = remove_near_duplicates(batch, 0, 0.85)
    assert [row.kept_sen_id for row in first.removed] == [1]
    assert [c.sen_id for c in first.captions] == [1, 2]
    # Step IV cuts B to a caption that is a near-duplicate of C, which is longer.
    cut = replace(first, captions=[replace(first.captions[0], text="a dog runs on the"), first.captions[1]])
    second = remove_near_duplicates(cut, 0, 0.85)
    assert [(row.sen_id, row.kept_sen_id) for row in second.removed] == [(0, 1), (1, 2)]
    other = RemovedRow(5, "video1", "train", "x", "normalize", "empty after normalize")
    named = name_final_keepers(replace(second, removed=second.removed + [other]))
    assert [(row.sen_id, row.kept_sen_id) for row in named.removed] == [(0, 2), (1, 2), (5, None)]
    assert named.removed[0].reason == ("opened the near-duplicate group of sen_id 2, which stands for it; e=0, s=0.85; "
                                       "the group keeps its longest caption (sen_id 1, kept at first, was removed "
                                       "later as a near-duplicate)")
    assert named.removed[2] == other  # other steps' rows as they were


def test_removed_written_names_the_final_keepers(tmp_path, write_annotations):
    """The whole pipeline (steps I and III, until_stable): removed/ names the caption that stays."""
    import pyarrow.parquet as pq
    from pipelines.cli import main

    videos = [{"video_id": "video1", "split": "train", "category": 3}]
    texts = ["a man plays guitar", "a man plays a guitar", "a man plays a guitar now", "a cat sleeps"]
    sentences = [{"sen_id": number, "video_id": "video1", "caption": text} for number, text in enumerate(texts)]
    folder = write_annotations(tmp_path / "in", videos, sentences)
    output = tmp_path / "out"
    assert main(["clean", "--input", str(folder), "--output", str(output), "--steps", "normalize,dedup"]) == 0
    kept = set(pq.read_table(output / "captions")["sen_id"].to_pylist())
    removed = pq.read_table(output / "removed").to_pylist()
    assert kept == {2, 3}
    assert [(row["sen_id"], row["kept_sen_id"]) for row in removed] == [(0, 2), (1, 2)]
    assert all(row["reason"].split(", which stands for")[0].endswith("sen_id 2") for row in removed)
    # The facts, typed: 0 opened its pass-1 group and was compared with 1, kept then; 1 went in pass 2.
    facts = ["opener_sen_id", "compared_sen_id", "similarity", "edit_threshold", "similarity_threshold", "dedup_pass"]
    assert [[row[name] for name in facts] for row in removed] == [
        [0, 1, caption_similarity(texts[0], texts[1]), 0, 0.85, 1],
        [1, 2, caption_similarity(texts[1], texts[2]), 0, 0.85, 2]]
    types = pq.read_schema(next((output / "removed").glob("*.parquet"))).field
    assert [str(types(name).type) for name in facts] == ["int64", "int64", "double", "int32", "double", "int32"]


def test_grouping_takes_the_similarity_of_each_pair_as_the_pairwise_rule_gives_it():
    # The groups and the floats their rows record are s(a, b) of each pair, an empty caption similar to
    # nothing. 0 and 1: 5 common words of 6 and 5,
    # s = 0.5 * (5/6 + 5/5) = 0.9166...; 0 and 2: 6 of 6 and 7, s = 0.5 * (1 + 6/7) = 0.9285...
    texts = ["a man is playing a guitar", "a man playing a guitar", "a man is playing a red guitar", "",
             "a dog runs", "a dog runs", ""]
    groups = group_near_duplicates(texts, 0, 0.85)
    assert [[index for index, _ in group] for group in groups] == [[0, 1, 2], [3], [4, 5], [6]]
    assert groups[0][1:] == [(1, caption_similarity(texts[0], texts[1])), (2, caption_similarity(texts[0], texts[2]))]
    assert groups[0][1][1] == 0.5 * (5 / 6 + 5 / 5) and groups[0][2][1] == 0.5 * (6 / 6 + 6 / 7)
    assert groups[2] == [(4, 1.0), (5, 1.0)]


def test_until_stable_stops_after_a_pass_that_removes_nothing(monkeypatch):
    # A pass that removes nothing leaves its captions as they were: the next would decide the same.
    import transforms.dedup as dedup

    passes = []
    real_pass = dedup._remove_once
    monkeypatch.setattr(dedup, "_remove_once", lambda batch, *rest: passes.append(rest[2]) or real_pass(batch, *rest))
    unlike = VideoBatch("video1", "train", 1, [Caption(1, "a dog runs"), Caption(2, "a man cooks food")])
    assert remove_near_duplicates(unlike, 0, 0.85, until_stable=True).captions == unlike.captions
    assert passes == [1]
    passes.clear()
    alike = VideoBatch("video1", "train", 1, [Caption(1, "a dog runs"), Caption(2, "a dog runs")])
    assert [c.sen_id for c in remove_near_duplicates(alike, 0, 0.85, until_stable=True).captions] == [1]
    assert passes == [1, 2]  # the second pass, on one caption, removes nothing
