"""What `capclean evaluate`, `baseline`, `fire` and `overlap` read to build a protocol
(transforms/evaluation/protocols.py): the JSFusion CSV for 1k-A, the captions of a capclean output or raw
MSR-VTT for full-test, a video list and a sen_id list for custom. 1k-A's sentences are matched here, once, for
every command: to the captions of --input and, against a capclean output, to the earlier texts of the captions
it kept (edits/)."""
from collections import defaultdict
from pathlib import Path

from pipelines.evaluation.caption_input import read_caption_rows, read_earlier_captions, read_list_rows
from transforms.errors import CapcleanError
from transforms.evaluation.protocols import Protocol, caption_protocol, jsfusion_protocol
from transforms.read import video_order

JSFUSION_CSV = "retrieval_splits/MSRVTT_JSFUSION_test.csv"


class EvaluateInputError(CapcleanError):
    """A protocol file, caption source, scores file or target that cannot be used; the message says which."""


def read_protocol(name: str, input_path: str | None, videos: str | None, sen_ids: str | None,
                  input_flag: str = "--input") -> Protocol:
    """The protocol `name` from the files its flags name (`input_flag`: the command's flag for the captions,
    fire's --captions)."""
    if name == "1k-A":
        return read_1k_a(needed(videos, "--videos", name, f"the JSFusion CSV ({JSFUSION_CSV})"), input_path)
    if name == "full-test":
        return read_full_test(needed(input_path, input_flag, name, "the captions"))
    return read_custom(needed(videos, "--videos", name, "the video list"),
                       needed(sen_ids, "--sen-ids", name, "the caption list"),
                       needed(input_path, input_flag, name, "the captions"))


def needed(value: str | None, flag: str, protocol: str, what: str) -> str:
    if value is None:
        raise EvaluateInputError(f"--protocol {protocol} needs {flag}: {what}")
    return value


def read_1k_a(csv_path: str, input_path: str | None) -> Protocol:
    """The JSFusion CSV's videos and sentences in its order; with --input, each sentence matched to its
    video's captions there, or to a text one of them had before the cleaning changed it (the ground truth is
    the video; the match gives the sen_ids FIRE's labels and the baseline's left-out captions use)."""
    rows = read_list_rows(csv_path, "--videos")
    if any("sentence" not in row for row in rows):
        raise EvaluateInputError(f"--videos {csv_path}: 1k-A needs a CSV with video_id and sentence columns, as "
                                 f"{JSFUSION_CSV}")
    refuse_repeats([row["video_id"] for row in rows], csv_path, "video_id")
    captions_of, earlier_of = defaultdict(list), {}
    if input_path is not None:
        wanted = {row["video_id"] for row in rows}
        for sen_id, video_id, _, text in captions(input_path):
            if video_id in wanted:
                captions_of[video_id].append((sen_id, text))
        kept = {sen_id for texts in captions_of.values() for sen_id, _ in texts}
        earlier_of = read_earlier_captions(input_path, wanted, kept)
    return jsfusion_protocol(rows, captions_of, earlier_of)


def read_full_test(input_path: str) -> Protocol:
    """Every test caption by sen_id, against every test video in natural order."""
    test = sorted((sen_id, video_id, text) for sen_id, video_id, split, text in captions(input_path)
                  if split == "test")
    if not test:
        raise EvaluateInputError(f"--input {input_path}: no caption of the test split")
    return caption_protocol("full-test", sorted({video_id for _, video_id, _ in test}, key=video_order), test)


def read_custom(videos_path: str, sen_ids_path: str, input_path: str) -> Protocol:
    """The videos of one list and the captions of another, each in its list's order."""
    video_ids = [row["video_id"] for row in read_list_rows(videos_path, "--videos")]
    refuse_repeats(video_ids, videos_path, "video_id")
    sen_ids = [as_sen_id(row["sen_id"], sen_ids_path) for row in read_list_rows(sen_ids_path, "--sen-ids", "sen_id")]
    refuse_repeats(sen_ids, sen_ids_path, "sen_id")
    by_sen_id = {sen_id: (sen_id, video_id, text) for sen_id, video_id, _, text in captions(input_path)}
    unknown = [sen_id for sen_id in sen_ids if sen_id not in by_sen_id]
    if unknown:
        raise EvaluateInputError(f"--sen-ids {sen_ids_path}: sen_id {unknown[0]} is not a caption of --input "
                                 f"{input_path} ({len(unknown):,} unknown)")
    chosen = [by_sen_id[sen_id] for sen_id in sen_ids]
    listed = set(video_ids)
    strangers = [(sen_id, video_id) for sen_id, video_id, _ in chosen if video_id not in listed]
    if strangers:
        sen_id, video_id = strangers[0]
        raise EvaluateInputError(f"--sen-ids {sen_ids_path}: caption {sen_id}'s video {video_id} is not in --videos "
                                 f"{videos_path}")
    return caption_protocol("custom", video_ids, chosen)


def captions(input_path: str) -> list:
    if not Path(input_path).exists():
        raise EvaluateInputError(f"--input {input_path}: no such file or folder")
    return read_caption_rows(input_path)


def as_sen_id(value: str, path: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise EvaluateInputError(f"--sen-ids {path}: {value!r} is not a sen_id (a whole number)") from None


def refuse_repeats(ids: list, path: str, name: str) -> None:
    """An id listed twice would make two rows or columns of one item: refused, naming it."""
    seen = set()
    for value in ids:
        if value in seen:
            raise EvaluateInputError(f"{path}: {name} {value} is listed twice")
        seen.add(value)
