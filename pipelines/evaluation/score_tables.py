"""Every scores file a command reads, read by this module, refused alike (one line naming the file and the
row: an unknown id, a pair scored twice, a score that is empty, NaN or infinite):

- a model's scores of (caption, video) pairs, read into a (videos x captions) matrix in a gallery's order:
  a long table (Parquet or CSV with columns sen_id, video_id, score, one row per pair) or a NumPy .npz with
  `scores` (captions x videos), `sen_ids` (its rows) and `video_ids` (its columns), in any order. `capclean
  ndcg` (its gallery: the relevance's) and `capclean evaluate` (a protocol's) read them so;
- a similarity matrix in an order the caller knows (`load_score_matrix`: a .npy, or a .npz of one array);
- the scores of the hard negatives (`capclean posrank`, `capclean evaluate --negatives-scores`): the long
  table of video_id, text_id, score (`read_text_scores`), or a (captions, 1 + K) matrix in the order
  `capclean evaluate --write-texts --negatives` writes (`read_negatives_matrix`).
"""
import csv
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipelines.evaluation.table_cells import cell_id, cell_number
from transforms.errors import CapcleanError

SCORE_COLUMNS = ("sen_id", "video_id", "score")
BATCH_ROWS = 1 << 20  # rows of a score (or relevance) file read at once


class ScoresInputError(CapcleanError):
    """A scores file that cannot be used; the message says which and why."""


@dataclass(frozen=True)
class Gallery:
    """The videos and captions scored: the rows and columns of the matrix, in this order."""
    video_ids: tuple
    sen_ids: tuple
    name: str = "the relevance"  # what an error calls it: "an id is not in the relevance"


def positions(column, ids: tuple, path, name: str, gallery_name: str = "the relevance") -> np.ndarray:
    """Each value's position in `ids`; an id not among them is an error naming it."""
    found = pc.index_in(column, value_set=pa.array(ids, type=column.type))
    if found.null_count:
        missing = column.filter(pc.is_null(found))[0].as_py()
        raise ScoresInputError(f"{path}: {name} {missing!r} is not in {gallery_name}")
    return found.to_numpy(zero_copy_only=False).astype(np.int64)


def read_score_table(file: Path, gallery: Gallery) -> np.ndarray:
    """The model's (videos x captions) scores in the gallery's order, float32, from a .parquet, .csv or .npz
    file (the caller has checked that it is one); every pair must be there."""
    if file.suffix.lower() == ".npz":
        return read_npz_scores(file, gallery)
    scores = np.full((len(gallery.video_ids), len(gallery.sen_ids)), np.nan, dtype=np.float32)
    first_row = 1  # the number of the batch's first row in the file, counted from 1
    for batch in _score_batches(file):
        rows = positions(batch.column("video_id"), gallery.video_ids, file, "video_id", gallery.name)
        columns = positions(batch.column("sen_id"), gallery.sen_ids, file, "sen_id", gallery.name)
        values = batch.column("score").to_numpy(zero_copy_only=False).astype(np.float32)
        if not np.isfinite(values).all():  # a NaN would rank first, an infinity always first or last
            _refuse_score(file, batch, values, first_row)
        first_row += batch.num_rows
        if not np.isnan(scores[rows, columns]).all() or _has_repeats(rows, columns, scores.shape[1]):
            raise ScoresInputError(f"{file}: a (sen_id, video_id) pair has more than one score")
        scores[rows, columns] = values
    _check_complete(scores, gallery, file)
    return scores


def _score_batches(file: Path):
    """Record batches of sen_id (int64), video_id (string), score (float64) of a Parquet or CSV file."""
    types = {"sen_id": pa.int64(), "video_id": pa.string(), "score": pa.float64()}
    try:
        if file.suffix.lower() == ".parquet":
            handle = pq.ParquetFile(file)
            missing = [name for name in SCORE_COLUMNS if name not in handle.schema_arrow.names]
            if missing:
                raise ScoresInputError(f"{file}: no column {', '.join(missing)} (needs sen_id, video_id, score)")
            for batch in handle.iter_batches(batch_size=BATCH_ROWS, columns=list(SCORE_COLUMNS)):
                yield pa.record_batch([batch.column(name).cast(types[name]) for name in SCORE_COLUMNS],
                                      names=list(SCORE_COLUMNS))
        else:
            import pyarrow.csv as csv

            reader = csv.open_csv(file, convert_options=csv.ConvertOptions(column_types=types,
                                                                           include_columns=list(SCORE_COLUMNS)))
            for batch in reader:
                yield batch
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError, pa.ArrowKeyError) as error:
        raise ScoresInputError(f"{file}: not a table of sen_id, video_id, score "
                               f"({str(error).splitlines()[0]})") from None


def _refuse_score(file: Path, batch, values: np.ndarray, first_row: int) -> None:
    """The first score of the batch that is not a finite number, named by its row (1 = the first row)."""
    index = int(np.argmax(~np.isfinite(values)))
    value = batch.column("score")[index].as_py()
    what = "is empty" if value is None else f"is {value}, not a finite number"
    raise ScoresInputError(f"{file}: row {first_row + index} (sen_id {batch.column('sen_id')[index].as_py()}, "
                           f"video_id {batch.column('video_id')[index].as_py()}): the score {what}")


def _has_repeats(rows: np.ndarray, columns: np.ndarray, width: int) -> bool:
    cells = rows * width + columns
    return np.unique(cells).size != cells.size


def _check_complete(scores: np.ndarray, gallery: Gallery, file: Path) -> None:
    missing = np.argwhere(np.isnan(scores))
    if missing.size:
        video, caption = missing[0]
        raise ScoresInputError(f"{file}: {len(missing):,} of the {scores.size:,} (caption, video) pairs have no "
                               f"score, e.g. sen_id {gallery.sen_ids[caption]}, video_id {gallery.video_ids[video]}")


def read_npz_scores(file: Path, gallery: Gallery) -> np.ndarray:
    """`scores` (captions x videos) of a .npz, with `sen_ids` (rows) and `video_ids` (columns)."""
    try:
        with np.load(file, allow_pickle=False) as arrays:
            missing = [key for key in ("scores", "sen_ids", "video_ids") if key not in arrays]
            if missing:
                raise ScoresInputError(f"{file}: no array {', '.join(missing)} (needs scores, sen_ids, video_ids)")
            matrix, sen_ids, video_ids = arrays["scores"], arrays["sen_ids"], arrays["video_ids"]
    except (OSError, ValueError) as error:
        raise ScoresInputError(f"{file}: not a NumPy .npz file ({str(error).splitlines()[0]})") from None
    if matrix.shape != (len(sen_ids), len(video_ids)):
        raise ScoresInputError(f"{file}: scores is {matrix.shape}, not ({len(sen_ids)} sen_ids x "
                               f"{len(video_ids)} video_ids)")
    rows = _npz_order(file, "sen_ids", [int(value) for value in sen_ids], gallery.sen_ids, gallery.name)
    columns = _npz_order(file, "video_ids", [str(value) for value in video_ids], gallery.video_ids, gallery.name)
    scores = np.asarray(matrix, dtype=np.float32)[np.ix_(rows, columns)].T
    if not np.isfinite(scores).all():
        raise ScoresInputError(f"{file}: a score is not a finite number")
    return np.ascontiguousarray(scores)


def _npz_order(file: Path, name: str, given: list, wanted: tuple, gallery_name: str) -> np.ndarray:
    """The index in `given` of each id of `wanted`; the two must hold the same ids, once each."""
    where = {value: index for index, value in enumerate(given)}
    if len(where) != len(given):
        raise ScoresInputError(f"{file}: {name} names an id twice")
    wanted_set = set(wanted)  # once: 59,800 sen_ids on the test split
    extra = [value for value in given if value not in wanted_set]
    missing = [value for value in wanted if value not in where]
    if extra or missing:
        example = (f"{extra[0]!r} is not in {gallery_name}" if extra else
                   f"{missing[0]!r} of {gallery_name} is missing")
        raise ScoresInputError(f"{file}: {name} do not match {gallery_name} ({example})")
    return np.array([where[value] for value in wanted], dtype=np.int64)


# ---------------------------------------------------------------- a matrix in an order the caller knows

def load_score_matrix(file: Path, error: type = ScoresInputError, flag: str = "--scores") -> np.ndarray:
    """A 2-dimensional array of numbers from a .npy file, or a .npz holding one array (or one named `scores`)."""
    try:
        loaded = np.load(file, allow_pickle=False)
    except (OSError, ValueError) as problem:
        raise error(f"{flag} {file}: not a NumPy .npy or .npz file ({str(problem).splitlines()[0]})") from None
    if isinstance(loaded, np.lib.npyio.NpzFile):
        with loaded:
            if "scores" in loaded.files:
                loaded = loaded["scores"]
            elif len(loaded.files) == 1:
                loaded = loaded[loaded.files[0]]
            else:
                raise error(f"{flag} {file}: holds {', '.join(loaded.files)}; name the matrix `scores`")
    if loaded.ndim != 2 or not np.issubdtype(loaded.dtype, np.number):
        raise error(f"{flag} {file}: a {loaded.ndim}-dimensional {loaded.dtype} array, not a matrix of numbers")
    return loaded


# ---------------------------------------------------------------- the scores of the hard negatives

TEXT_SCORE_COLUMNS = ("video_id", "text_id", "score")
MATRIX_SUFFIXES = (".npy", ".npz")
TABLE_SUFFIXES = (".parquet", ".csv")


def read_text_scores(path, needed: set | None = None) -> dict:
    """{(video_id, text_id): score} of a Parquet or CSV table of video_id, text_id, score (text_id as a string:
    "123", "123-noun-word-0"). With `needed`, the pairs the negatives need: a row of any other pair (a video or
    a text the negatives do not have) is refused, as is a pair listed twice or a score that is not finite."""
    path = Path(path)
    if path.suffix.lower() not in TABLE_SUFFIXES:
        raise ScoresInputError(f"{path}: scores must be a .parquet or .csv table (or a .npy matrix), not "
                               f"{path.suffix or 'no extension'!r}")
    if not path.is_file():
        raise ScoresInputError(f"{path} not found")
    rows = _text_parquet_rows(path) if path.suffix.lower() == ".parquet" else _text_csv_rows(path)
    try:
        return _text_scores_from_rows(path, rows, needed)
    except UnicodeDecodeError as problem:
        raise ScoresInputError(f"{path} is not UTF-8 text: byte {problem.start} cannot be decoded") from None


def _text_parquet_rows(path: Path):
    """(where, video_id, text_id, score) per row, `where` = "row N" (1 = the first row)."""
    try:
        names = pq.read_schema(path).names
    except pa.ArrowException as problem:
        raise ScoresInputError(f"{path} is not a readable Parquet file: {str(problem).splitlines()[0]}") from None
    _check_text_score_columns(path, names)
    columns = pq.read_table(path, columns=list(TEXT_SCORE_COLUMNS)).to_pydict()
    for number, values in enumerate(zip(*(columns[column] for column in TEXT_SCORE_COLUMNS)), start=1):
        yield (f"row {number}", *values)


def _text_csv_rows(path: Path):
    """(where, video_id, text_id, score) per row, `where` = "line N" of the file (1 = the header)."""
    # utf-8-sig: a CSV saved by Excel starts with a byte-order mark that would stick to "video_id".
    with open(path, newline="", encoding="utf-8-sig") as handle:
        reader = csv.DictReader(handle)
        _check_text_score_columns(path, reader.fieldnames or [])
        for row in reader:
            yield (f"line {reader.line_num}", *(row[column] for column in TEXT_SCORE_COLUMNS))


def _check_text_score_columns(path: Path, names) -> None:
    missing = [column for column in TEXT_SCORE_COLUMNS if column not in names]
    if missing:
        raise ScoresInputError(f"{path}: no column(s) {', '.join(missing)} (columns found: "
                               f"{', '.join(names) or 'none'}); scores need {', '.join(TEXT_SCORE_COLUMNS)}")


def _text_scores_from_rows(path: Path, rows, needed: set | None) -> dict:
    scores, first_seen = {}, {}
    for where, video_id, text_id, score in rows:
        pair = (cell_id(path, where, "video_id", video_id, ScoresInputError),
                cell_id(path, where, "text_id", text_id, ScoresInputError))
        score = cell_number(path, where, "score", score, ScoresInputError)
        if pair in scores:  # even with the same score: a repeated row is a file put together wrongly
            raise ScoresInputError(f"{path}: {where} scores ({pair[0]}, {pair[1]}) again ({first_seen[pair]} "
                                   "scored it)")
        if needed is not None and pair not in needed:
            raise ScoresInputError(f"{path}: {where} scores ({pair[0]}, {pair[1]}), a pair the negatives do not "
                                   "have (each row is a caption or a negative with the caption's own video)")
        first_seen[pair] = where
        scores[pair] = score
    return scores


def read_negatives_matrix(path, rows: list, width: int) -> np.ndarray:
    """The (len(rows), width) matrix of a .npy (or one-array .npz): row i is rows[i] (transforms/evaluation/
    posrank.py's MatrixRow), column 0 its caption, column 1 + k its negative k. A cell a row uses must be a
    finite number; a cell past a row's negatives must be NaN (a number there means the rows are not in
    the order written)."""
    path = Path(path)
    if not path.is_file():
        raise ScoresInputError(f"--negatives-scores {path}: no such file")
    matrix = load_score_matrix(path, ScoresInputError, "--negatives-scores")
    if matrix.shape != (len(rows), width):
        raise ScoresInputError(f"--negatives-scores {path}: a {matrix.shape[0]:,} x {matrix.shape[1]:,} matrix, but "
                               f"the negatives have {len(rows):,} rows (caption, part, level) of 1 + "
                               f"{width - 1} texts")
    counts = np.array([1 + len(row.negative_ids) for row in rows])
    used = np.arange(width)[None, :] < counts[:, None]
    matrix = matrix.astype(np.float64)
    for bad, what in ((used & ~np.isfinite(matrix), "is {value}, not a finite number"),
                      (~used & ~np.isnan(matrix), "is {value}, but the row has only {count} texts: it must be NaN")):
        found = np.argwhere(bad)
        if found.size:
            row, column = found[0]
            raise ScoresInputError(f"--negatives-scores {path}: row {row}, column {column} (counted from 0; sen_id "
                                   f"{rows[row].sen_id}, {rows[row].part}, {rows[row].level}) "
                                   + what.format(value=matrix[row, column], count=counts[row])
                                   + f"; {len(found):,} such cells")
    return matrix
