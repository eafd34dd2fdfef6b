"""What `capclean ndcg` reads: the graded relevance of `capclean relevance`, a model's retrieval scores
(or a baseline), and each caption's own video.

Reads (the method is transforms/evaluation/ndcg.py; docs/commands/ndcg.md says what each figure means):

- the relevance: a `capclean relevance` output (or its relevance/ folder), one folder
  proxy=NAME per proxy of Parquet files with video_id, sen_id, score (pairs with score > 0). The
  gallery is every video and caption the files name, videos in natural order, captions by sen_id;
- the scores: a Parquet or CSV file with columns sen_id, video_id, score, one row per pair of the
  gallery; or a NumPy .npz with `scores` (captions x videos), `sen_ids` and `video_ids`; or the
  word `random` (the exact expected value of a random ranking) or `oracle` (ranked by relevance);
- for mAP, each caption's own video: from --captions, or else from the input the relevance
  output's manifest.json records.
"""
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import scipy.sparse as sp

from transforms.errors import CapcleanError
from transforms.read import video_order

BASELINES = ("random", "oracle")
SCORE_COLUMNS = ("sen_id", "video_id", "score")
BATCH_ROWS = 1 << 20  # rows of a score or relevance file read at once


class NdcgInputError(CapcleanError):
    """A relevance folder, scores file or JSON target that cannot be used; the message says which and why."""


@dataclass(frozen=True)
class Gallery:
    """The videos and captions of the relevance: the rows and columns of every matrix, in this order."""
    video_ids: tuple
    sen_ids: tuple


# ---------------------------------------------------------------- the relevance

def proxy_folders(path: str) -> dict:
    """{proxy: folder} of a `capclean relevance` output or of its relevance/ folder."""
    root = Path(path)
    if not root.exists():
        raise NdcgInputError(f"--relevance {path}: no such folder")
    if (root / "relevance").is_dir():
        root = root / "relevance"
    folders = {folder.name.split("=", 1)[1]: folder for folder in sorted(root.glob("proxy=*")) if folder.is_dir()}
    if not folders:
        raise NdcgInputError(f"--relevance {path}: no proxy=NAME folder in it; give the output folder of "
                             "capclean relevance")
    return folders


def parquet_files(folder: Path) -> list:
    files = sorted(folder.glob("*.parquet"))
    if not files:
        raise NdcgInputError(f"{folder}: no Parquet files")
    return files


def _relevance_batches(folder: Path):
    for path in parquet_files(folder):
        try:
            handle = pq.ParquetFile(path)
            for batch in handle.iter_batches(batch_size=BATCH_ROWS, columns=list(SCORE_COLUMNS)):
                yield path, batch
        except (pa.ArrowInvalid, pa.ArrowTypeError, KeyError, ValueError) as error:
            raise NdcgInputError(f"{path}: not a relevance table with columns video_id, sen_id, score "
                                 f"({str(error).splitlines()[0]})") from None


def read_gallery(folders: dict) -> Gallery:
    """Every video and caption any proxy names (a caption's own video has relevance 1, so all appear)."""
    videos, sen_ids = set(), set()
    for folder in folders.values():
        for _, batch in _relevance_batches(folder):
            videos.update(pc.unique(batch.column("video_id")).to_pylist())
            sen_ids.update(pc.unique(batch.column("sen_id")).to_pylist())
    return Gallery(tuple(sorted(videos, key=video_order)), tuple(sorted(sen_ids)))


def read_relevance(folder: Path, gallery: Gallery) -> sp.csr_matrix:
    """One proxy's relevance as a (videos x captions) CSR matrix in the gallery's order."""
    rows, columns, scores = [], [], []
    for path, batch in _relevance_batches(folder):
        rows.append(_positions(batch.column("video_id"), gallery.video_ids, path, "video_id"))
        columns.append(_positions(batch.column("sen_id"), gallery.sen_ids, path, "sen_id"))
        scores.append(batch.column("score").to_numpy(zero_copy_only=False).astype(np.float32))
    data = np.concatenate(scores)
    if not np.isfinite(data).all() or (data < 0).any():
        raise NdcgInputError(f"{folder}: a relevance score is negative or not a number")
    matrix = sp.coo_matrix((data, (np.concatenate(rows), np.concatenate(columns))),
                           shape=(len(gallery.video_ids), len(gallery.sen_ids))).tocsr()
    if matrix.nnz != data.size:
        raise NdcgInputError(f"{folder}: a (video_id, sen_id) pair appears twice")
    return matrix


def _positions(column, ids: tuple, path, name: str) -> np.ndarray:
    """Each value's position in `ids`; an id not among them is an error naming it."""
    positions = pc.index_in(column, value_set=pa.array(ids, type=column.type))
    if positions.null_count:
        missing = column.filter(pc.is_null(positions))[0].as_py()
        raise NdcgInputError(f"{path}: {name} {missing!r} is not in the relevance (its videos and captions)")
    return positions.to_numpy(zero_copy_only=False).astype(np.int64)


# ---------------------------------------------------------------- the scores

def read_scores(path: str, gallery: Gallery) -> np.ndarray:
    """The model's (videos x captions) scores in the gallery's order, float32; every pair must be there."""
    file = Path(path)
    if not file.is_file():
        raise NdcgInputError(f"--scores {path}: no such file (or give random or oracle)")
    suffix = file.suffix.lower()
    if suffix == ".npz":
        return read_npz_scores(file, gallery)
    if suffix not in (".parquet", ".csv"):
        raise NdcgInputError(f"--scores {path}: expected a .parquet, .csv or .npz file, or random or oracle")
    scores = np.full((len(gallery.video_ids), len(gallery.sen_ids)), np.nan, dtype=np.float32)
    for batch in _score_batches(file):
        rows = _positions(batch.column("video_id"), gallery.video_ids, file, "video_id")
        columns = _positions(batch.column("sen_id"), gallery.sen_ids, file, "sen_id")
        values = batch.column("score").to_numpy(zero_copy_only=False).astype(np.float32)
        if np.isnan(values).any():
            raise NdcgInputError(f"{file}: a score is empty or not a number")
        if not np.isnan(scores[rows, columns]).all() or _has_repeats(rows, columns, scores.shape[1]):
            raise NdcgInputError(f"{file}: a (sen_id, video_id) pair has more than one score")
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
                raise NdcgInputError(f"{file}: no column {', '.join(missing)} (needs sen_id, video_id, score)")
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
        raise NdcgInputError(f"{file}: not a table of sen_id, video_id, score "
                             f"({str(error).splitlines()[0]})") from None


def _has_repeats(rows: np.ndarray, columns: np.ndarray, width: int) -> bool:
    cells = rows * width + columns
    return np.unique(cells).size != cells.size


def _check_complete(scores: np.ndarray, gallery: Gallery, file: Path) -> None:
    missing = np.argwhere(np.isnan(scores))
    if missing.size:
        video, caption = missing[0]
        raise NdcgInputError(f"{file}: {len(missing):,} of the {scores.size:,} (caption, video) pairs have no "
                             f"score, e.g. sen_id {gallery.sen_ids[caption]}, video_id {gallery.video_ids[video]}")


def read_npz_scores(file: Path, gallery: Gallery) -> np.ndarray:
    """`scores` (captions x videos) of a .npz, with `sen_ids` (rows) and `video_ids` (columns)."""
    try:
        with np.load(file, allow_pickle=False) as arrays:
            missing = [key for key in ("scores", "sen_ids", "video_ids") if key not in arrays]
            if missing:
                raise NdcgInputError(f"{file}: no array {', '.join(missing)} (needs scores, sen_ids, video_ids)")
            matrix, sen_ids, video_ids = arrays["scores"], arrays["sen_ids"], arrays["video_ids"]
    except (OSError, ValueError) as error:
        raise NdcgInputError(f"{file}: not a NumPy .npz file ({str(error).splitlines()[0]})") from None
    if matrix.shape != (len(sen_ids), len(video_ids)):
        raise NdcgInputError(f"{file}: scores is {matrix.shape}, not ({len(sen_ids)} sen_ids x "
                             f"{len(video_ids)} video_ids)")
    rows = _npz_order(file, "sen_ids", [int(value) for value in sen_ids], gallery.sen_ids)
    columns = _npz_order(file, "video_ids", [str(value) for value in video_ids], gallery.video_ids)
    scores = np.asarray(matrix, dtype=np.float32)[np.ix_(rows, columns)].T
    if np.isnan(scores).any():
        raise NdcgInputError(f"{file}: a score is not a number")
    return np.ascontiguousarray(scores)


def _npz_order(file: Path, name: str, given: list, wanted: tuple) -> np.ndarray:
    """The index in `given` of each id of `wanted`; the two must hold the same ids, once each."""
    where = {value: index for index, value in enumerate(given)}
    if len(where) != len(given):
        raise NdcgInputError(f"{file}: {name} names an id twice")
    wanted_set = set(wanted)  # once: 59,800 sen_ids on the test split
    extra = [value for value in given if value not in wanted_set]
    missing = [value for value in wanted if value not in where]
    if extra or missing:
        example = f"{extra[0]!r} is not in the relevance" if extra else f"{missing[0]!r} of the relevance is missing"
        raise NdcgInputError(f"{file}: {name} do not match the relevance ({example})")
    return np.array([where[value] for value in wanted], dtype=np.int64)


# ---------------------------------------------------------------- own videos (mAP)

def own_video_rows(relevance_dir: str, captions: str | None, gallery: Gallery):
    """The row of each caption's own video, from --captions or the relevance's recorded input; None if neither."""
    source = captions or _recorded_input(relevance_dir)
    if source is None:
        return None
    if not Path(source).exists():
        raise NdcgInputError(f"--captions {source}: no such file or folder")
    from pipelines.evaluation.caption_input import read_caption_rows

    video_of = {sen_id: video for sen_id, video, _, _ in read_caption_rows(source)}
    row_of = {video: row for row, video in enumerate(gallery.video_ids)}
    rows = []
    for sen_id in gallery.sen_ids:
        if video_of.get(sen_id) not in row_of:
            raise NdcgInputError(f"{source}: caption {sen_id} of the relevance is not there, or its video is not "
                                 "in the relevance")
        rows.append(row_of[video_of[sen_id]])
    return np.array(rows, dtype=np.int64)


def _recorded_input(relevance_dir: str):
    try:
        path = _relevance_manifest(relevance_dir)["input"]["path"]
    except (KeyError, TypeError):
        return None
    return path if Path(path).exists() else None


def _relevance_manifest(relevance_dir: str) -> dict:
    """The manifest.json of the relevance output (DIR, or its parent when DIR is its relevance/ folder); {} if none."""
    root = Path(relevance_dir)
    for folder in (root, root.parent):
        manifest = folder / "manifest.json"
        if manifest.is_file():
            try:
                found = json.loads(manifest.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                return {}
            return found if isinstance(found, dict) else {}
    return {}


def relevance_settings(relevance_dir: str) -> dict:
    """How the relevance was built, as its manifest records it (split, reading, input) and the pairs
    per proxy its stats.json counts; what is not recorded is left out (the page says "not recorded")."""
    manifest = _relevance_manifest(relevance_dir)
    settings = manifest.get("settings") if isinstance(manifest.get("settings"), dict) else {}
    found = {key: settings[key] for key in ("split", "reading") if key in settings}
    if isinstance(manifest.get("input"), dict) and "path" in manifest["input"]:
        found["input"] = manifest["input"]["path"]
    root = Path(relevance_dir)
    for folder in (root, root.parent):
        try:
            stats = json.loads((folder / "stats.json").read_text(encoding="utf-8"))
            found["pairs"] = {proxy: figures["pairs"] for proxy, figures in stats["proxies"].items()}
            break
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue
    return found
