"""What `capclean posrank` (and `capclean evaluate --negatives`) reads: the hard negatives of `capclean
hardneg` and a model's scores of them.

- the `hardneg/` folder: Parquet files with the HARDNEG schema, one row per hard negative;
- the model's scores, read by pipelines/evaluation/score_tables.py as every scores file: a Parquet or CSV
  file with columns `video_id`, `text_id`, `score`, one row per (video, text) pair, `text_id` being the true
  caption's sen_id or a negative's negative_id; or a (captions, 1 + K) .npy matrix in the order of
  transforms/evaluation/posrank.py's `matrix_rows`.
"""
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipelines.evaluation.score_tables import MATRIX_SUFFIXES, ScoresInputError, read_negatives_matrix, \
    read_text_scores
from transforms.errors import CapcleanError
from transforms.evaluation.posrank import NEGATIVE_COLUMNS

ScoresError = ScoresInputError  # the name this module's callers knew


class NegativesFolderError(CapcleanError):
    """A folder that is not a `hardneg/` table."""


def hardneg_output_folder(folder: str) -> Path:
    """The output folder of `capclean hardneg` (with stats.json) that `--negatives` names, or whose hardneg/
    it names."""
    folder = Path(folder)
    for candidate in (folder, folder.parent):
        if (candidate / "stats.json").is_file() and (candidate / "hardneg").is_dir():
            return candidate
    raise NegativesFolderError(f"{folder} is not in an output folder of capclean hardneg (no stats.json beside "
                               "hardneg/): the report needs one")


# ---------------------------------------------------------------- the negatives

def read_negatives(folder: str, extra_columns: tuple = ()) -> dict:
    """The columns PoSRank needs (and `extra_columns`) of every Parquet file in a `hardneg/` folder, as lists
    (`to_pydict`).

    The folder itself, or an output folder holding `hardneg/`.
    """
    folder = Path(folder)
    if not folder.exists():
        raise NegativesFolderError(f"--negatives {folder} does not exist")
    if (folder / "hardneg").is_dir():
        folder = folder / "hardneg"
    files = sorted(folder.glob("*.parquet")) if folder.is_dir() else []
    if not files:
        raise NegativesFolderError(f"{folder} holds no Parquet files: it is not the hardneg/ folder "
                                   "`capclean hardneg` writes")
    wanted = list(NEGATIVE_COLUMNS) + [column for column in extra_columns if column not in NEGATIVE_COLUMNS]
    columns = {column: [] for column in wanted}
    for file in files:
        check_negative_columns(file, wanted)
        for column, values in pq.read_table(file, columns=wanted).to_pydict().items():
            columns[column].extend(values)
    return columns


def check_negative_columns(file: Path, wanted=NEGATIVE_COLUMNS) -> None:
    names = parquet_column_names(file, NegativesFolderError)
    missing = [column for column in wanted if column not in names]
    if missing:
        raise NegativesFolderError(f"{file} has no column(s) {', '.join(missing)}: it is not a hardneg/ table")


def parquet_column_names(path: Path, error_class) -> list:
    try:
        return pq.read_schema(path).names
    except pa.ArrowException as error:
        # pyarrow's message may run over several lines; its first says what is wrong.
        raise error_class(f"{path} is not a readable Parquet file: {str(error).splitlines()[0]}") from error


# ---------------------------------------------------------------- the scores

def read_scores(path: str, needed: set | None = None) -> dict:
    """{(video_id, text_id): score} of a Parquet or CSV table, read as every scores file is
    (pipelines/evaluation/score_tables.py); with `needed`, a pair the negatives do not have is refused."""
    return read_text_scores(path, needed)


def posrank_of_scores(negatives: dict, path: str):
    """PoSRank of the scores in `path`: a (captions, 1 + K) .npy/.npz matrix in `matrix_rows`' order, or the long
    table, whose every row must be a pair the negatives have."""
    from transforms.evaluation.posrank import (group_negatives, matrix_rows, matrix_width, needed_pairs,
                                               posrank_by_part, posrank_of_matrix)

    if Path(path).suffix.lower() in MATRIX_SUFFIXES:
        rows = matrix_rows(negatives)
        return posrank_of_matrix(rows, read_negatives_matrix(path, rows, matrix_width(rows)))
    needed = set(needed_pairs(group_negatives(negatives)))
    return posrank_by_part(negatives, read_text_scores(path, needed))
