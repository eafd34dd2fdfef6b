from dataclasses import replace

import pytest

from transforms.batch import Caption, VideoBatch
from transforms.dedup import (
    caption_similarity,
    caption_to_keep,
    common_words,
    group_near_duplicates,
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
    assert "opened a near-duplicate group" in row.reason
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
    assert all(row.kept_sen_id in kept_ids for row in stable.removed)
    assert remove_near_duplicates(stable, 0, 0.85, until_stable=True).removed == stable.removed


def test_step_four_runs_step_three_again_only_on_the_videos_it_cut():
    from pipelines.config import load_config, override
    from transforms.lineage import EditRow
    from transforms.runon import Runon

    config = override(load_config("default"), "dedup", until_stable=True)
    runon = Runon(config)
    runon._find = lambda texts: [[text] for text in texts]  # a finder that splits nothing
    batch = make_batch(["a girl is singing", "a girl is singing"])
    assert runon.process(batch) == batch
    cut = replace(batch, edits=[EditRow(1, batch.video_id, "runon", "model:first", "a girl is singing too",
                                        "a girl is singing")])
    after = runon.process(cut)
    assert [c.sen_id for c in after.captions] == [0] and after.removed[0].kept_sen_id == 0
