"""What `capclean posrank` reads: the hard negatives of `capclean hardneg` and a model's scores.

The command reads two things and prints PoSRank per part of speech (transforms/evaluation/posrank.py):

- the `hardneg/` folder: Parquet files with the HARDNEG schema, one row per hard negative;
- the model's scores: a Parquet or CSV file with columns `video_id`, `text_id`, `score`, one row
  per (video, text) pair, `text_id` being the true caption's sen_id or a negative's negative_id.
"""
import csv
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipelines.evaluation.table_cells import cell_id, cell_number
from transforms.errors import CapcleanError
from transforms.evaluation.posrank import NEGATIVE_COLUMNS

SCORE_COLUMNS = ("video_id", "text_id", "score")
SCORE_FORMATS = (".parquet", ".csv")


class ScoresError(CapcleanError):
    """A scores file that cannot be read; the message names the file and the row or column."""


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

def read_negatives(folder: str) -> dict:
    """The columns PoSRank needs of every Parquet file in a `hardneg/` folder, as lists (`to_pydict`).

    The folder itself, or an output folder holding `hardneg/`.
    """
    folder = Path(folder)
    if (folder / "hardneg").is_dir():
        folder = folder / "hardneg"
    files = sorted(folder.glob("*.parquet")) if folder.is_dir() else []
    if not files:
        raise NegativesFolderError(f"{folder} holds no Parquet files: it is not the hardneg/ folder "
                                   "`capclean hardneg` writes")
    columns = {column: [] for column in NEGATIVE_COLUMNS}
    for file in files:
        check_negative_columns(file)
        for column, values in pq.read_table(file, columns=list(NEGATIVE_COLUMNS)).to_pydict().items():
            columns[column].extend(values)
    return columns


def check_negative_columns(file: Path) -> None:
    names = parquet_column_names(file, NegativesFolderError)
    missing = [column for column in NEGATIVE_COLUMNS if column not in names]
    if missing:
        raise NegativesFolderError(f"{file} has no column(s) {', '.join(missing)}: it is not a hardneg/ table")


def parquet_column_names(path: Path, error_class) -> list:
    try:
        return pq.read_schema(path).names
    except pa.ArrowException as error:
        # pyarrow's message may run over several lines; its first says what is wrong.
        raise error_class(f"{path} is not a readable Parquet file: {str(error).splitlines()[0]}") from error


# ---------------------------------------------------------------- the scores

def read_scores(path: str) -> dict:
    """{(video_id, text_id): score} from a Parquet or CSV file, text_id as a string ("123", "123-noun-word-0")."""
    path = Path(path)
    if path.suffix.lower() not in SCORE_FORMATS:
        raise ScoresError(f"{path}: scores must be a .parquet or .csv file, not {path.suffix or 'no extension'!r}")
    if not path.is_file():
        raise ScoresError(f"{path} not found")
    rows = parquet_rows(path) if path.suffix.lower() == ".parquet" else csv_rows(path)
    try:
        return scores_from_rows(path, rows)
    except UnicodeDecodeError as error:
        raise ScoresError(f"{path} is not UTF-8 text: byte {error.start} cannot be decoded") from None


def parquet_rows(path: Path):
    """(where, video_id, text_id, score) per row, `where` = "row N" (1 = the first row)."""
    check_score_columns(path, parquet_column_names(path, ScoresError))
    columns = pq.read_table(path, columns=list(SCORE_COLUMNS)).to_pydict()
    for number, values in enumerate(zip(*(columns[column] for column in SCORE_COLUMNS)), start=1):
        yield (f"row {number}", *values)


def csv_rows(path: Path):
    """(where, video_id, text_id, score) per row, `where` = "line N" of the file (1 = the header)."""
    # utf-8-sig: a CSV saved by Excel starts with a byte-order mark that would stick to "video_id".
    with open(path, newline="", encoding="utf-8-sig") as handle:
        reader = csv.DictReader(handle)
        check_score_columns(path, reader.fieldnames or [])
        for row in reader:
            yield (f"line {reader.line_num}", *(row[column] for column in SCORE_COLUMNS))


def check_score_columns(path: Path, names) -> None:
    missing = [column for column in SCORE_COLUMNS if column not in names]
    if missing:
        raise ScoresError(f"{path}: no column(s) {', '.join(missing)} (columns found: {', '.join(names) or 'none'}); "
                          f"scores need {', '.join(SCORE_COLUMNS)}")


def scores_from_rows(path: Path, rows) -> dict:
    scores, first_seen = {}, {}
    for where, video_id, text_id, score in rows:
        pair = (id_text(path, where, "video_id", video_id), id_text(path, where, "text_id", text_id))
        score = score_number(path, where, score)
        if pair in scores and scores[pair] != score:
            raise ScoresError(f"{path}: {where} scores ({pair[0]}, {pair[1]}) {score}, but {first_seen[pair]} "
                              f"scored it {scores[pair]}")
        first_seen.setdefault(pair, where)
        scores[pair] = score
    return scores


def id_text(path: Path, where: str, column: str, value) -> str:
    return cell_id(path, where, column, value, ScoresError)


def score_number(path: Path, where: str, value) -> float:
    return cell_number(path, where, "score", value, ScoresError)
