"""A model's scores of (caption, video) pairs, read into a (videos x captions) matrix in a gallery's order:
a long table (Parquet or CSV with columns sen_id, video_id, score, one row per pair) or a NumPy .npz with
`scores` (captions x videos), `sen_ids` (its rows) and `video_ids` (its columns), in any order. `capclean ndcg`
(its gallery: the relevance's) and `capclean evaluate` (a protocol's) read them through this module; an id
not in the gallery, a pair scored twice or not at all, a score that is not a number is one line naming it."""
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

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
    for batch in _score_batches(file):
        rows = positions(batch.column("video_id"), gallery.video_ids, file, "video_id", gallery.name)
        columns = positions(batch.column("sen_id"), gallery.sen_ids, file, "sen_id", gallery.name)
        values = batch.column("score").to_numpy(zero_copy_only=False).astype(np.float32)
        if not np.isfinite(values).all():  # a NaN would rank first, an infinity always first or last
            raise ScoresInputError(f"{file}: a score is empty or not a finite number")
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
