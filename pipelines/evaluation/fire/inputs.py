"""What `capclean fire` reads: a model's ranked predictions and the captions (the labels:
pipelines/evaluation/label_files.py).

Reads (the figures are transforms/evaluation/fire.py; docs/commands/fire.md says what each means):

- predictions: Parquet or CSV, columns `sen_id` (the query caption), `video_id`, `rank` (1 = best),
  `score`, and optionally `caption` (the query's text); one row per ranked video;
- labels: read by pipelines/evaluation/label_files.py, as `capclean evaluate --fire-labels` reads them;
- captions (optional): a capclean output or raw MSR-VTT, for the caption of each sen_id.
"""
from pathlib import Path

from pipelines.evaluation.table_cells import cell_id, cell_number, table_path, table_rows
from transforms.errors import CapcleanError
from transforms.evaluation.fire import FIRE_DEPTH

PREDICTION_COLUMNS = ("sen_id", "video_id", "rank", "score")


class FireInputError(CapcleanError):
    """A predictions, labels or captions file that cannot be used; the message names the file and row."""


# ---------------------------------------------------------------- the predictions

def read_predictions(path: str, depth: int = FIRE_DEPTH) -> tuple:
    """({sen_id: [video_id, ...] best first, cut to `depth`}, {sen_id: caption} when a `caption` column is there)."""
    path = table_path(path, "predictions", FireInputError)
    rows = table_rows(path, PREDICTION_COLUMNS, FireInputError, ("caption",))
    ranked, texts, first_seen = {}, {}, {}
    for where, row in rows:
        query = id_text(path, where, "sen_id", row["sen_id"])
        video = id_text(path, where, "video_id", row["video_id"])
        rank = whole_number(path, where, "rank", row["rank"])
        number(path, where, "score", row["score"])
        places = ranked.setdefault(query, {})
        if rank in places:
            raise FireInputError(f"{path}: {where} gives sen_id {query} rank {rank} again "
                                 f"(first at {first_seen[(query, rank)]})")
        if video in places.values():
            raise FireInputError(f"{path}: {where} ranks video {video} twice for sen_id {query}")
        places[rank] = video
        first_seen[(query, rank)] = where
        if row.get("caption"):
            texts[query] = str(row["caption"])
    if not ranked:
        raise FireInputError(f"{path} holds no predictions")
    return {query: [places[rank] for rank in sorted(places)][:depth] for query, places in ranked.items()}, texts


# ---------------------------------------------------------------- the captions

def caption_texts(captions: str) -> dict:
    """{sen_id: caption} of a capclean output or raw MSR-VTT folder."""
    return {str(sen_id): text for sen_id, _video, _split, text in read_caption_records(captions)}


def own_videos(captions: str, queries: set) -> dict:
    """{sen_id: {its own video}}: the original positives, from the captions."""
    return {str(sen_id): {str(video)} for sen_id, video, _split, _text in read_caption_records(captions)
            if str(sen_id) in queries}


def read_caption_records(captions: str) -> list:
    if not Path(captions).is_dir():
        raise FireInputError(f"--captions {captions}: not a folder (a capclean output or raw MSR-VTT)")
    from pipelines.evaluation.caption_input import read_caption_rows

    return read_caption_rows(captions)


# ---------------------------------------------------------------- cells

def id_text(path, where: str, column: str, value) -> str:
    return cell_id(path, where, column, value, FireInputError)


def number(path, where: str, column: str, value) -> float:
    return cell_number(path, where, column, value, FireInputError)


def whole_number(path, where: str, column: str, value) -> int:
    result = number(path, where, column, value)
    if not result.is_integer() or result < 1:
        raise FireInputError(f"{path}: {where}, column {column}: {value!r} is not a whole number of at least 1")
    return int(result)
