"""The scores a retrieval model writes, read in a protocol's order (texts x videos).

- A similarity matrix: a `.npy` file, or a `.npz` holding one array (or one named `scores`), of the
  protocol's texts x videos (CLIP4Clip's `sim_matrix`) or videos x texts (`V.dot(T.T)`). --orientation
  names which; without it a non-square matrix's shape says it, and a square one (1k-A's 1,000 x 1,000) is
  refused, since either reading would give figures, one of them wrong.
- Scores keyed by id, as `capclean ndcg` reads them (pipelines/evaluation/score_tables.py): a Parquet or
  CSV table of sen_id, video_id, score, or a `.npz` with `scores` (captions x videos), `sen_ids` and
  `video_ids`; for a protocol whose texts are captions (full-test, custom), in any order.

Every score must be a finite number.
"""
from pathlib import Path

import numpy as np

from pipelines.evaluation.protocol_files import EvaluateInputError
from pipelines.evaluation.score_tables import Gallery, load_score_matrix, read_score_table
from transforms.evaluation.protocols import OWN_CAPTION, TEXTS_X_VIDEOS, VIDEOS_X_TEXTS, Protocol


KEYED = "keyed by sen_id and video_id"
TABLE_SUFFIXES = (".parquet", ".csv")


def read_scores(path: str, orientation: str | None, protocol: Protocol) -> tuple:
    """(the scores as texts x videos, how the file gave them: an orientation, or KEYED)."""
    file = Path(path)
    if not file.is_file():
        raise EvaluateInputError(f"--scores {path}: no such file")
    if file.suffix.lower() in TABLE_SUFFIXES or has_id_arrays(file):
        if orientation:
            raise EvaluateInputError(f"--scores {path} names its rows and columns by id: leave out --orientation")
        return read_keyed_scores(file, protocol), KEYED
    return read_scores_matrix(path, orientation, protocol)


def has_id_arrays(file: Path) -> bool:
    """A .npz with sen_ids and video_ids, as `capclean ndcg` reads it."""
    if file.suffix.lower() != ".npz":
        return False
    try:
        with np.load(file, allow_pickle=False) as arrays:
            return {"sen_ids", "video_ids"} <= set(arrays.files)
    except (OSError, ValueError):
        return False  # load_matrix says what is wrong with it


def read_keyed_scores(file: Path, protocol: Protocol) -> np.ndarray:
    """Scores keyed by id, in the protocol's order; only a protocol whose texts are captions has a sen_id a row."""
    if any(query.match != OWN_CAPTION for query in protocol.queries):
        raise EvaluateInputError(f"--scores {file}: {protocol.name}'s texts are not captions, so scores keyed by "
                                 "sen_id cannot say which row they are: give the matrix, rows in the order "
                                 "--write-texts writes")
    gallery = Gallery(protocol.video_ids, tuple(query.sen_ids[0] for query in protocol.queries),
                      f"the {protocol.name} protocol")
    return read_score_table(file, gallery).T


def read_scores_matrix(path: str, orientation: str | None, protocol: Protocol) -> tuple:
    """(the matrix as texts x videos, the orientation the file had)."""
    matrix = load_matrix(Path(path))
    orientation = orientation or orientation_of(matrix.shape, protocol, path)
    texts, videos = protocol.shape()
    expected = (texts, videos) if orientation == TEXTS_X_VIDEOS else (videos, texts)
    if matrix.shape != expected:
        raise EvaluateInputError(f"--scores {path}: a {shape_text(matrix.shape)} matrix, but {protocol.name} "
                                 f"{orientation} is {shape_text(expected)}")
    refuse_non_finite(matrix, path, orientation)
    return (matrix if orientation == TEXTS_X_VIDEOS else matrix.T), orientation


def load_matrix(file: Path) -> np.ndarray:
    return load_score_matrix(file, EvaluateInputError, "--scores")


def orientation_of(shape: tuple, protocol: Protocol, path: str) -> str:
    """The orientation a matrix's shape shows; a square one (or a wrong shape) is refused."""
    texts, videos = protocol.shape()
    if texts == videos:
        raise EvaluateInputError(f"--scores {path}: {protocol.name} has as many texts as videos ({texts:,}), so the "
                                 f"matrix's shape does not say which way it is: give --orientation {TEXTS_X_VIDEOS} "
                                 f"or {VIDEOS_X_TEXTS}")
    if shape == (videos, texts):
        return VIDEOS_X_TEXTS
    if shape == (texts, videos):
        return TEXTS_X_VIDEOS
    raise EvaluateInputError(f"--scores {path}: a {shape_text(shape)} matrix, but {protocol.name} is "
                             f"{texts:,} texts x {videos:,} videos (or videos x texts)")


def refuse_non_finite(matrix: np.ndarray, path: str, orientation: str) -> None:
    """A NaN would rank first (it compares false with everything), an infinity always first or last."""
    bad = np.argwhere(~np.isfinite(matrix))
    if bad.size:
        row, column = bad[0]
        rows, columns = orientation.split("-x-")
        raise EvaluateInputError(f"--scores {path}: the score at row {row}, column {column} ({rows} x {columns}, "
                                 f"counted from 0) is {matrix[row, column]}; {len(bad):,} are not finite numbers")


def shape_text(shape: tuple) -> str:
    return " x ".join(f"{size:,}" for size in shape)
