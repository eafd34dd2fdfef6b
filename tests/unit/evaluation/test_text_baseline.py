"""The text-only baseline (transforms/evaluation/text_baseline.py), worked by hand: tf-idf cosines, the text's
own captions left out of its own video only, and the R@K evaluate gives its matrix."""
import math

import numpy as np
import pytest

from transforms.evaluation.retrieval import retrieval_figures
from transforms.evaluation.text_baseline import BaselineText, baseline_scores, fit_words, idf_weights

# Two videos of two captions each (sen_id, caption); the texts are the four captions (full-test's rows).
VIDEO_CAPTIONS = [[(0, "dog runs"), (1, "dog jumps")], [(2, "cat runs"), (3, "dog runs")]]
TEXTS = [BaselineText(caption, column, (sen_id,)) for column, captions in enumerate(VIDEO_CAPTIONS)
         for sen_id, caption in captions]
ROOT_12 = math.sqrt(12)


def test_the_cosines_by_hand_with_each_text_left_out_of_its_own_video():
    # No outside document: every idf is 1. Vocabulary cat, dog, jumps, runs. Video 0's document is
    # dog 2, runs 1, jumps 1 (length root 6), video 1's cat 1, runs 2, dog 1 (root 6); "dog runs" is
    # (dog + runs) / root 2.
    scores = baseline_scores(TEXTS, VIDEO_CAPTIONS, [])
    expected = np.array([
        [1 / 2, 3 / ROOT_12],  # own video without itself is "dog jumps": 1 / 2; video 1: (1 + 2) / root 12
        [1 / 2, 1 / ROOT_12],  # own video without itself is "dog runs": 1 / 2; video 1 shares dog only
        [1 / ROOT_12, 1 / 2],  # video 0 shares runs only; own video without itself is "dog runs": 1 / 2
        [3 / ROOT_12, 1 / 2],  # video 0: dog 2 + runs 1; own video without itself is "cat runs"
    ])
    assert scores.dtype == np.float32
    np.testing.assert_allclose(scores, expected, rtol=1e-6)


def test_r_at_k_of_the_baseline_by_hand():
    # t2v: texts 0 and 3 rank their own video second (3 / root 12 = 0.87 > 1 / 2), texts 1 and 2 first.
    # v2t: video 0's best own text scores 1 / 2 and text 3 scores 0.87 above it, so rank 2; the same for video 1.
    figures = retrieval_figures(baseline_scores(TEXTS, VIDEO_CAPTIONS, []), [0, 0, 1, 1])
    assert (figures["t2v"]["R@1"], figures["t2v"]["R@5"], figures["t2v"]["MdR"], figures["t2v"]["MnR"]) == \
        (0.5, 1.0, 1.5, 1.5)
    assert (figures["v2t"]["R@1"], figures["v2t"]["MdR"], figures["v2t"]["MnR"]) == (0.0, 2.0, 2.0)


def test_a_sentence_matching_two_identical_captions_leaves_both_out():
    # 1k-A: "dog runs" is captions 0 and 5 of its video; what is left of it is "dog jumps": 1 / 2.
    videos = [[(0, "dog runs"), (1, "dog jumps"), (5, "dog runs")], [(2, "cat sleeps")]]
    scores = baseline_scores([BaselineText("dog runs", 0, (0, 5))], videos, [])
    np.testing.assert_allclose(scores, [[0.5, 0.0]], rtol=1e-6)


def test_an_unmatched_sentence_leaves_nothing_out():
    scores = baseline_scores([BaselineText("dog runs", 0, ())], [[(0, "dog runs")], [(2, "cat sleeps")]], [])
    np.testing.assert_allclose(scores, [[1.0, 0.0]], rtol=1e-6)


def test_idf_comes_from_the_outside_documents_only():
    words = fit_words(["dog runs"], ["cat jumps"])
    assert sorted(words.vocabulary_, key=words.vocabulary_.get) == ["cat", "dog", "jumps", "runs"]
    # Two outside documents; dog is in both: ln(3 / 3) + 1 = 1; the others in none: ln(3 / 1) + 1.
    idf = idf_weights(words, ["dog plays", "a dog sleeps"], 4)
    np.testing.assert_allclose(idf, [1 + math.log(3), 1.0, 1 + math.log(3), 1 + math.log(3)])
    np.testing.assert_array_equal(idf_weights(words, [], 4), np.ones(4))


def test_idf_changes_the_cosines():
    # Outside, dog is everywhere (idf 1) and runs nowhere (idf w = 1 + ln 2): "dog runs" against video 1's
    # document "cat runs" (cat also nowhere outside) is w^2 / (root(1 + w^2) root(2 w^2)) = w / root(2 (1 + w^2)).
    w = 1 + math.log(2)
    scores = baseline_scores([BaselineText("dog runs", 0, ())], [[(0, "dog jumps")], [(1, "cat runs")]],
                             ["dog"])
    assert scores[0, 1] == pytest.approx(w / math.sqrt(2 * (1 + w * w)), rel=1e-6)


def test_the_matrix_fills_a_given_array_a_block_at_a_time(monkeypatch):
    import transforms.evaluation.text_baseline as text_baseline

    monkeypatch.setattr(text_baseline, "BLOCK_CELLS", 2)  # one row a block
    seen = []
    out = np.full((4, 2), -1.0, dtype=np.float32)
    text_baseline.baseline_scores(TEXTS, VIDEO_CAPTIONS, [], out=out,
                                  progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]
    np.testing.assert_allclose(out, baseline_scores(TEXTS, VIDEO_CAPTIONS, []))


def test_a_caption_to_leave_out_must_be_one_of_the_texts_own_video():
    with pytest.raises(ValueError, match="text 0: sen_id 2 is not a caption of its own video"):
        baseline_scores([BaselineText("dog runs", 0, (2,))], VIDEO_CAPTIONS, [])


# ---------------------------------------------------------------- the hard negatives' scores

def test_the_negatives_scores_by_hand_with_the_caption_left_out_of_its_video():
    # Caption 0 "dog runs" of video 0: its video without it is "dog jumps", (dog + jumps) / root 2. The caption
    # scores 1 / 2, the negative "dog jumps" 1 (it reads as the caption left in), "cat runs" 0. Caption 2 "cat
    # runs" of video 1: its video without it is "dog runs"; the caption 1 / 2, "cat sleeps" 0, then NaN: the
    # row has one negative fewer than the widest. (With caption 0 left in, video 0 would be dog 2, runs 1,
    # jumps 1, and the caption would score 3 / root 12, as high as "dog jumps".)
    from transforms.evaluation.text_baseline import negatives_scores

    rows = [(("dog runs", "dog jumps", "cat runs"), 0, (0,)), (("cat runs", "cat sleeps"), 1, (2,))]
    matrix = negatives_scores(rows, VIDEO_CAPTIONS, [])
    assert matrix.dtype == np.float32 and matrix.shape == (2, 3)
    np.testing.assert_allclose(matrix[:, :2], [[1 / 2, 1.0], [1 / 2, 0.0]], rtol=1e-6)
    assert matrix[0, 2] == 0.0 and np.isnan(matrix[1, 2])


def test_a_negatives_row_s_caption_scores_as_in_the_matrix():
    # The caption column is the matrix's own-video cell of the same text with the same caption left out.
    from transforms.evaluation.text_baseline import negatives_scores

    matrix = baseline_scores(TEXTS, VIDEO_CAPTIONS, [])
    rows = [((text.text, "bird sings"), text.own_column, text.exclude) for text in TEXTS]
    caption_column = negatives_scores(rows, VIDEO_CAPTIONS, [])[:, 0]
    np.testing.assert_allclose(caption_column, [matrix[row, text.own_column] for row, text in enumerate(TEXTS)],
                               rtol=1e-6)


def test_a_row_leaving_nothing_out_scores_against_the_whole_video():
    # "dog runs" against video 0's whole document (dog 2, runs 1, jumps 1): 3 / root 12.
    from transforms.evaluation.text_baseline import negatives_scores

    matrix = negatives_scores([(("dog runs",), 0, ())], VIDEO_CAPTIONS, [])
    np.testing.assert_allclose(matrix, [[3 / ROOT_12]], rtol=1e-6)
