"""What `capclean ndcg` reads: the graded relevance of `capclean relevance`, a model's retrieval scores
(or a baseline), and each caption's own video.

Reads (the method is transforms/evaluation/ndcg.py; docs/commands/ndcg.md says what each figure means):

- the relevance: a `capclean relevance` output (or its relevance/ folder), one folder
  proxy=NAME per proxy of Parquet files with video_id, sen_id, score (pairs with score > 0). The
  gallery is every video and caption the files name, videos in natural order, captions by sen_id;
- the scores: a Parquet or CSV file with columns sen_id, video_id, score, one row per pair of the
  gallery; or a NumPy .npz with `scores` (captions x videos), `sen_ids` and `video_ids` (both read by
  pipelines/evaluation/score_tables.py); or the word `random` (the exact expected value of a random
  ranking) or `oracle` (ranked by relevance);
- or, with --protocol, a retrieval protocol and a matrix in its order (protocol.py);
- for mAP, each caption's own video: from --captions, or else from the input the relevance
  output's manifest.json records.
"""
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import scipy.sparse as sp

from pipelines.evaluation.score_tables import BATCH_ROWS, SCORE_COLUMNS, Gallery, positions, read_score_table
from transforms.errors import CapcleanError
from transforms.read import video_order

BASELINES = ("random", "oracle")


class NdcgInputError(CapcleanError):
    """A relevance folder, scores file or JSON target that cannot be used; the message says which and why."""


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


def read_relevance(folder: Path, gallery: Gallery, within: bool = False) -> sp.csr_matrix:
    """One proxy's relevance as a (videos x captions) CSR matrix in the gallery's order. `within`: only the
    pairs of the gallery's videos and captions are read (`capclean evaluate`'s protocol, inside a relevance of
    a whole split); otherwise a pair outside it is an error."""
    rows, columns, scores = [], [], []
    for path, batch in _relevance_batches(folder):
        if within:
            batch = batch.filter(pc.and_(
                pc.is_in(batch.column("video_id"), value_set=pa.array(gallery.video_ids, pa.string())),
                pc.is_in(batch.column("sen_id"), value_set=pa.array(gallery.sen_ids, batch.column("sen_id").type))))
        rows.append(positions(batch.column("video_id"), gallery.video_ids, path, "video_id"))
        columns.append(positions(batch.column("sen_id"), gallery.sen_ids, path, "sen_id"))
        scores.append(batch.column("score").to_numpy(zero_copy_only=False).astype(np.float32))
    data = np.concatenate(scores)
    if not np.isfinite(data).all() or (data < 0).any():
        raise NdcgInputError(f"{folder}: a relevance score is negative or not a number")
    matrix = sp.coo_matrix((data, (np.concatenate(rows), np.concatenate(columns))),
                           shape=(len(gallery.video_ids), len(gallery.sen_ids))).tocsr()
    if matrix.nnz != data.size:
        raise NdcgInputError(f"{folder}: a (video_id, sen_id) pair appears twice")
    return matrix


# ---------------------------------------------------------------- what is scored

@dataclass(frozen=True)
class ScoredGallery:
    """What nDCG is computed over: the gallery's size, each proxy's (videos x captions) relevance in its order,
    the ranking (ScoreBlocks, or 'random' or 'oracle') and each caption's own video's row (None: unknown)."""
    videos: int
    captions: int
    proxies: int
    relevances: Iterator  # (proxy, CSR relevance), read one proxy at a time as it is consumed, so held one at a time
    ranking: object
    own_rows: np.ndarray | None
    protocol: dict | None = None  # with --protocol: its name, how the scores were laid out, how 1k-A matched


def relevance_gallery(relevance_dir: str, scores: str, captions: str | None) -> ScoredGallery:
    """The gallery of the relevance itself: every video and caption it names, scored by an id-keyed table."""
    from transforms.evaluation.ndcg import dense_score_blocks

    folders = proxy_folders(relevance_dir)
    gallery = read_gallery(folders)
    ranking = scores if scores in BASELINES else dense_score_blocks(read_scores(scores, gallery))
    relevances = ((proxy, read_relevance(folder, gallery)) for proxy, folder in folders.items())
    return ScoredGallery(len(gallery.video_ids), len(gallery.sen_ids), len(folders), relevances, ranking,
                         own_video_rows(relevance_dir, captions, gallery))


# ---------------------------------------------------------------- the scores

def read_scores(path: str, gallery: Gallery) -> np.ndarray:
    """The model's (videos x captions) scores in the gallery's order, float32 (pipelines/evaluation/score_tables.py)."""
    file = Path(path)
    if not file.is_file():
        raise NdcgInputError(f"--scores {path}: no such file (or give random or oracle)")
    if file.suffix.lower() not in (".npz", ".parquet", ".csv"):
        raise NdcgInputError(f"--scores {path}: expected a .parquet, .csv or .npz file, random or oracle, or with "
                             "--protocol a .npy matrix")
    return read_score_table(file, gallery)


# ---------------------------------------------------------------- own videos (mAP)

def own_video_rows(relevance_dir: str, captions: str | None, gallery: Gallery):
    """The row of each caption's own video, from --captions or the relevance's recorded input; None if neither."""
    source = captions_source(relevance_dir, captions)
    if source is None:
        return None
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


def captions_source(relevance_dir: str, captions: str | None) -> str | None:
    """--captions, or else the input the relevance output records (if it still exists); None if neither."""
    if captions is not None and not Path(captions).exists():
        raise NdcgInputError(f"--captions {captions}: no such file or folder")
    return captions or _recorded_input(relevance_dir)


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
