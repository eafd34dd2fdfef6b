"""The scores `capclean evaluate` reads (pipelines/evaluation/evaluate/scores.py): a matrix either way round, .npy
or .npz, or scores keyed by id as ndcg reads them; every refusal one line that names the file (and, for a bad
score in a matrix, its row and column)."""
import numpy as np
import pytest

from pipelines.evaluation.protocol_files import EvaluateInputError
from pipelines.evaluation.evaluate.scores import read_scores
from transforms.errors import CapcleanError
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
    scores, orientation = read_scores(saved(tmp_path, TEXTS_X_VIDEOS.T), None, TALL)
    assert orientation == "videos-x-texts" and np.array_equal(scores, TEXTS_X_VIDEOS)
    scores, orientation = read_scores(saved(tmp_path, TEXTS_X_VIDEOS), None, TALL)
    assert orientation == "texts-x-videos" and np.array_equal(scores, TEXTS_X_VIDEOS)


def test_a_square_matrix_is_read_the_way_the_flag_says(tmp_path):
    matrix = np.array([[1.0, 2.0], [3.0, 4.0]])
    path = saved(tmp_path, matrix)
    assert np.array_equal(read_scores(path, "texts-x-videos", SQUARE)[0], matrix)
    assert np.array_equal(read_scores(path, "videos-x-texts", SQUARE)[0], matrix.T)


def test_a_square_matrix_without_the_flag_is_refused_asking_for_it(tmp_path):
    path = saved(tmp_path, np.eye(2))
    with pytest.raises(EvaluateInputError, match="give --orientation texts-x-videos or videos-x-texts") as raised:
        read_scores(path, None, SQUARE)
    assert path in str(raised.value) and "\n" not in str(raised.value)


@pytest.mark.parametrize("orientation", [None, "texts-x-videos"])
def test_a_wrong_shape_is_refused_naming_both_shapes(tmp_path, orientation):
    path = saved(tmp_path, np.zeros((4, 2)))
    with pytest.raises(EvaluateInputError, match=r"a 4 x 2 matrix, but custom .*3( texts)? x 2") as raised:
        read_scores(path, orientation, TALL)
    assert path in str(raised.value)


def test_the_flag_against_the_shape_is_refused(tmp_path):
    with pytest.raises(EvaluateInputError, match="videos-x-texts is 2 x 3"):
        read_scores(saved(tmp_path, TEXTS_X_VIDEOS), "videos-x-texts", TALL)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_a_score_that_is_not_a_finite_number_is_refused_naming_its_row_and_column(tmp_path, bad):
    matrix = TEXTS_X_VIDEOS.T.copy()  # videos x texts
    matrix[1, 2] = bad
    path = saved(tmp_path, matrix)
    with pytest.raises(EvaluateInputError, match=r"row 1, column 2 \(videos x texts, counted from 0\)") as raised:
        read_scores(path, None, TALL)
    assert path in str(raised.value) and str(bad) in str(raised.value)


def test_an_npz_with_one_array_or_one_named_scores(tmp_path):
    one = saved(tmp_path, None, "one.npz", sim=TEXTS_X_VIDEOS)
    named = saved(tmp_path, None, "named.npz", scores=TEXTS_X_VIDEOS, video_ids=np.array(["video1", "video2"]))
    for path in (one, named):
        assert np.array_equal(read_scores(path, None, TALL)[0], TEXTS_X_VIDEOS)
    with pytest.raises(EvaluateInputError, match="holds a, b; name the matrix `scores`"):
        read_scores(saved(tmp_path, None, "two.npz", a=TEXTS_X_VIDEOS, b=TEXTS_X_VIDEOS), None, TALL)


@pytest.mark.parametrize("content, message", [(None, "no such file"), (b"not numpy", "not a NumPy .npy or .npz"),
                                              (np.zeros(6), "1-dimensional")])
def test_what_is_not_a_matrix_is_refused(tmp_path, content, message):
    path = tmp_path / "scores.npy"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        np.save(path, content)
    with pytest.raises(EvaluateInputError, match=message):
        read_scores(str(path), None, TALL)


# ---------------------------------------------------------------- scores keyed by id

def long_table(tmp_path, rows) -> str:
    path = tmp_path / "scores.csv"
    path.write_text("sen_id,video_id,score\n" + "".join(f"{sen_id},{video},{score}\n" for sen_id, video, score in rows))
    return str(path)


def table_of(matrix) -> list:
    """(sen_id, video_id, score) of a TALL texts x videos matrix, in an order of its own (by video)."""
    return [(sen_id, video, matrix[sen_id, column]) for column, video in enumerate(TALL.video_ids)
            for sen_id in (2, 0, 1)]


def test_a_long_table_or_an_npz_with_ids_gives_the_matrix_in_the_protocols_order(tmp_path):
    scores, how = read_scores(long_table(tmp_path, table_of(TEXTS_X_VIDEOS)), None, TALL)
    assert how == "keyed by sen_id and video_id" and np.array_equal(scores, TEXTS_X_VIDEOS)
    # Rows and columns in another order than the protocol's, as ndcg reads an .npz.
    npz = saved(tmp_path, None, "ids.npz", scores=TEXTS_X_VIDEOS[::-1, ::-1], sen_ids=np.array([2, 1, 0]),
                video_ids=np.array(["video2", "video1"]))
    assert np.array_equal(read_scores(npz, None, TALL)[0], TEXTS_X_VIDEOS)


@pytest.mark.parametrize("rows, message", [
    (table_of(TEXTS_X_VIDEOS)[1:], r"1 of the 6 \(caption, video\) pairs have no score"),
    (table_of(TEXTS_X_VIDEOS) + [(0, "video1", 0.5)], "more than one score"),
    (table_of(TEXTS_X_VIDEOS) + [(0, "video3", 0.5)], "video_id 'video3' is not in the custom protocol"),
    ([(0, "video1", float("inf"))] + table_of(TEXTS_X_VIDEOS)[1:], "not a finite number"),
])
def test_a_long_table_that_cannot_be_used_is_refused(tmp_path, rows, message):
    with pytest.raises(CapcleanError, match=message) as raised:
        read_scores(long_table(tmp_path, rows), None, TALL)
    assert "scores.csv" in str(raised.value)


def test_scores_keyed_by_sen_id_are_refused_for_1k_a_and_with_an_orientation(tmp_path):
    path = long_table(tmp_path, [(0, "video1", 1.0)])
    with pytest.raises(EvaluateInputError, match="1k-A's texts are not captions"):
        read_scores(path, None, SQUARE)
    with pytest.raises(EvaluateInputError, match="leave out --orientation"):
        read_scores(path, "texts-x-videos", TALL)
