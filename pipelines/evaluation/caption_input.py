"""The captions an evaluation command reads: a capclean output's captions/ or raw MSR-VTT, a
split of them, a list of videos, one caption per video. Every evaluation command that reads captions
(hardneg, overlap, relevance, fire's and ndcg's --captions) reads them through this module."""
import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import pyarrow.parquet as pq

from transforms.errors import CapcleanError


@dataclass(frozen=True)
class CaptionSelection:
    split: Optional[str] = "test"  # None: every split
    video_ids: Optional[frozenset] = None  # None: every video of the split
    one_per_video: bool = False  # the caption with the smallest sen_id
    videos_file: Optional[str] = None  # the file video_ids came from, named when one of them is not there


def read_caption_rows(input_path: str) -> list:
    """One (sen_id, video_id, split, caption) tuple per caption of a capclean output's captions/, or of raw
    annotations (every record the reader can use, uncleaned). (A run's captions as one Arrow table, for the
    exports: pipelines/cleaning/exports.py's read_captions_table.)"""
    captions_dir = Path(input_path) / "captions"
    if captions_dir.is_dir():
        table = pq.read_table(captions_dir, columns=["sen_id", "video_id", "split", "caption"])
        return list(zip(*(table[name].to_pylist() for name in ("sen_id", "video_id", "split", "caption"))))
    from transforms.read import read_input

    return [(caption.sen_id, batch.video_id, batch.split, caption.text)
            for batch in read_input(input_path) for caption in batch.captions]


def read_earlier_captions(input_path: str, video_ids: set, kept: set) -> dict:
    """video_id -> [(sen_id, earlier text)] of the captions of `video_ids` whose sen_id is in `kept` (the
    captions the output holds), from a capclean output's edits/ (every `before`: a caption's texts ahead of
    each step that changed it); {} for raw annotations, which have no edits/. A caption the cleaning edited is
    found by a text it had before (1k-A's sentences are raw captions: pipelines/evaluation/protocol_files.py)."""
    edits = Path(input_path) / "edits"
    if not edits.is_dir():
        return {}
    table = pq.read_table(edits, columns=["sen_id", "video_id", "before"])
    earlier = {}
    for sen_id, video_id, before in zip(*(table[name].to_pylist() for name in ("sen_id", "video_id", "before"))):
        if video_id in video_ids and sen_id in kept:
            earlier.setdefault(video_id, []).append((sen_id, before))
    return earlier


def read_list_rows(path: str, flag: str = "--videos", column: str = "video_id") -> list:
    """The rows of a video list: dicts of a CSV with a `video_id` column (as the retrieval splits
    come, perhaps with a `sentence` column), or {"video_id": id} for a file of one id a line (another
    `column`, e.g. sen_id, for a list of other ids)."""
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            text = handle.read()
    except OSError as error:
        raise CapcleanError(f"cannot read {flag} {path}: {error.strerror}") from None
    first_line = text.splitlines()[0] if text.strip() else ""
    if column in first_line.split(","):
        rows = [row for row in csv.DictReader(text.splitlines()) if row.get(column)]
    else:
        rows = [{column: line.strip()} for line in text.splitlines() if line.strip()]
    if not rows:
        raise CapcleanError(f"{flag} {path} names no {'video' if column == 'video_id' else column}")
    return rows


def read_video_ids(path: str, flag: str = "--videos") -> frozenset:
    """The video ids of a file: a CSV with a `video_id` column (as the retrieval splits come), or one id a line.
    An id listed twice is refused, naming it: the list was put together wrongly (the retrieval splits list
    each video once)."""
    first_at = {}
    for number, row in enumerate(read_list_rows(path, flag), start=1):
        video_id = row["video_id"]
        if video_id in first_at:
            raise CapcleanError(f"{flag} {path}: video_id {video_id} is listed twice (the "
                                f"{ordinal(first_at[video_id])} and the {ordinal(number)} id of the list)")
        first_at[video_id] = number
    return frozenset(first_at)


def ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def select_captions(captions, selection: CaptionSelection) -> dict:
    """video_id -> its selected (sen_id, video_id, split, caption), by sen_id."""
    videos = {}
    for caption in sorted(captions):
        sen_id, video_id, split, _ = caption
        if selection.split is not None and split != selection.split:
            continue
        if selection.video_ids is not None and video_id not in selection.video_ids:
            continue
        videos.setdefault(video_id, []).append(caption)
    if selection.video_ids is not None:
        refuse_unknown_videos(selection, videos)
    if selection.one_per_video:
        videos = {video_id: captions[:1] for video_id, captions in videos.items()}
    return videos


def refuse_unknown_videos(selection: CaptionSelection, videos: dict) -> None:
    """A listed video with no caption selected (not in the input, or of another split) is refused, naming it,
    rather than dropped without a word."""
    unknown = sorted(selection.video_ids - set(videos))
    if unknown:
        split = "any split" if selection.split is None else f"the {selection.split} split"
        listed = f"--videos {selection.videos_file}" if selection.videos_file else "the video list"
        raise CapcleanError(f"{listed}: video {unknown[0]} has no caption of {split} in the input "
                            f"({len(unknown):,} of the {len(selection.video_ids):,} listed videos have none)")
