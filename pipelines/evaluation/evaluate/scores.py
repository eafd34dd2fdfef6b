"""The similarity matrix a retrieval model writes, read in a protocol's order.

A `.npy` file, or a `.npz` holding one array (or one named `scores`), of the protocol's texts x videos
(CLIP4Clip's `sim_matrix`) or videos x texts (`V.dot(T.T)`). --orientation names which; without it a
non-square matrix's shape says it, and a square one (1k-A's 1,000 x 1,000) is refused, since either
reading would give figures, one of them wrong. Every score must be a finite number.
"""
from pathlib import Path

import numpy as np

from pipelines.evaluation.evaluate.protocol_files import EvaluateInputError
from transforms.evaluation.protocols import TEXTS_X_VIDEOS, VIDEOS_X_TEXTS, Protocol


def read_scores_matrix(path: str, orientation: str | None, protocol: Protocol) -> tuple:
    """(the scores as texts x videos, the orientation the file had)."""
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
    if not file.is_file():
        raise EvaluateInputError(f"--scores {file}: no such file")
    try:
        loaded = np.load(file, allow_pickle=False)
    except (OSError, ValueError) as error:
        raise EvaluateInputError(f"--scores {file}: not a NumPy .npy or .npz file ({str(error).splitlines()[0]})") \
            from None
    if isinstance(loaded, np.lib.npyio.NpzFile):
        with loaded:
            loaded = npz_scores(loaded, file)
    if loaded.ndim != 2 or not np.issubdtype(loaded.dtype, np.number):
        raise EvaluateInputError(f"--scores {file}: a {loaded.ndim}-dimensional {loaded.dtype} array, not a matrix "
                                 "of numbers")
    return loaded


def npz_scores(arrays, file: Path) -> np.ndarray:
    """The array named `scores`, or the only one."""
    if "scores" in arrays.files:
        return arrays["scores"]
    if len(arrays.files) == 1:
        return arrays[arrays.files[0]]
    raise EvaluateInputError(f"--scores {file}: holds {', '.join(arrays.files)}; name the matrix `scores`")


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
