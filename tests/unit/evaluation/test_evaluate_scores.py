"""The similarity matrix `capclean evaluate` reads (pipelines/evaluation/evaluate/scores.py): either orientation,
.npy or .npz, and every refusal one line that names the file (and, for a bad score, its row and column)."""
import numpy as np
import pytest

from pipelines.evaluation.evaluate.protocol_files import EvaluateInputError
from pipelines.evaluation.evaluate.scores import read_scores_matrix
from transforms.evaluation.protocols import Protocol, Query

TALL = Protocol("custom", ("video1", "video2"),
                tuple(Query(f"text {i}", "video1" if i < 2 else "video2", (i,), "caption") for i in range(3)))
SQUARE = Protocol("1k-A", ("video1", "video2"), tuple(Query(f"text {i}", f"video{i + 1}", (), "unmatched")
                                                     for i in range(2)))
TEXTS_X_VIDEOS = np.arange(6, dtype=float).reshape(3, 2)


def saved(tmp_path, matrix, name="scores.npy", **arrays) -> str:
    path = tmp_path / name
    if name.endswith(".npz"):
        np.savez(path, **arrays)
    else:
        np.save(path, matrix)
    return str(path)


def test_a_shape_that_says_its_orientation_needs_no_flag(tmp_path):
    scores, orientation = read_scores_matrix(saved(tmp_path, TEXTS_X_VIDEOS.T), None, TALL)
    assert orientation == "videos-x-texts" and np.array_equal(scores, TEXTS_X_VIDEOS)
    scores, orientation = read_scores_matrix(saved(tmp_path, TEXTS_X_VIDEOS), None, TALL)
    assert orientation == "texts-x-videos" and np.array_equal(scores, TEXTS_X_VIDEOS)


def test_a_square_matrix_is_read_the_way_the_flag_says(tmp_path):
    matrix = np.array([[1.0, 2.0], [3.0, 4.0]])
    path = saved(tmp_path, matrix)
    assert np.array_equal(read_scores_matrix(path, "texts-x-videos", SQUARE)[0], matrix)
    assert np.array_equal(read_scores_matrix(path, "videos-x-texts", SQUARE)[0], matrix.T)


def test_a_square_matrix_without_the_flag_is_refused_asking_for_it(tmp_path):
    path = saved(tmp_path, np.eye(2))
    with pytest.raises(EvaluateInputError, match="give --orientation texts-x-videos or videos-x-texts") as raised:
        read_scores_matrix(path, None, SQUARE)
    assert path in str(raised.value) and "\n" not in str(raised.value)


@pytest.mark.parametrize("orientation", [None, "texts-x-videos"])
def test_a_wrong_shape_is_refused_naming_both_shapes(tmp_path, orientation):
    path = saved(tmp_path, np.zeros((4, 2)))
    with pytest.raises(EvaluateInputError, match=r"a 4 x 2 matrix, but custom .*3( texts)? x 2") as raised:
        read_scores_matrix(path, orientation, TALL)
    assert path in str(raised.value)


def test_the_flag_against_the_shape_is_refused(tmp_path):
    with pytest.raises(EvaluateInputError, match="videos-x-texts is 2 x 3"):
        read_scores_matrix(saved(tmp_path, TEXTS_X_VIDEOS), "videos-x-texts", TALL)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_a_score_that_is_not_a_finite_number_is_refused_naming_its_row_and_column(tmp_path, bad):
    matrix = TEXTS_X_VIDEOS.T.copy()  # videos x texts
    matrix[1, 2] = bad
    path = saved(tmp_path, matrix)
    with pytest.raises(EvaluateInputError, match=r"row 1, column 2 \(videos x texts, counted from 0\)") as raised:
        read_scores_matrix(path, None, TALL)
    assert path in str(raised.value) and str(bad) in str(raised.value)


def test_an_npz_with_one_array_or_one_named_scores(tmp_path):
    one = saved(tmp_path, None, "one.npz", sim=TEXTS_X_VIDEOS)
    named = saved(tmp_path, None, "named.npz", scores=TEXTS_X_VIDEOS, video_ids=np.array(["video1", "video2"]))
    for path in (one, named):
        assert np.array_equal(read_scores_matrix(path, None, TALL)[0], TEXTS_X_VIDEOS)
    with pytest.raises(EvaluateInputError, match="holds a, b; name the matrix `scores`"):
        read_scores_matrix(saved(tmp_path, None, "two.npz", a=TEXTS_X_VIDEOS, b=TEXTS_X_VIDEOS), None, TALL)


@pytest.mark.parametrize("content, message", [(None, "no such file"), (b"not numpy", "not a NumPy .npy or .npz"),
                                              (np.zeros(6), "1-dimensional")])
def test_what_is_not_a_matrix_is_refused(tmp_path, content, message):
    path = tmp_path / "scores.npy"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        np.save(path, content)
    with pytest.raises(EvaluateInputError, match=message):
        read_scores_matrix(str(path), None, TALL)
