"""What `capclean da prepare` shows workers: the items to judge, the human references of their videos and the
human captions degraded copies borrow words from, read from a capclean run and its raw input, or from a table
of systems' captions beside human captions (pipelines/evaluation/caption_input.py reads the captions)."""
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from pipelines.evaluation.caption_input import CaptionSelection, read_caption_rows, select_captions
from pipelines.evaluation.table_files import read_table_rows
from transforms.da.degrade import DonorPool, item_seed
from transforms.da.hits import REFERENCE_SYSTEM, Item
from transforms.errors import CapcleanError

SYSTEM_COLUMNS = ("video_id", "system", "caption")
RAW, CLEANED = "raw", "cleaned"


@dataclass(frozen=True)
class Judged:
    items: tuple  # Item: what the systems wrote, to be judged
    references: dict  # video_id -> tuple of reference Items (human captions not judged)
    donors: DonorPool  # the human captions degraded copies take words from and are measured against
    figures: dict  # what was read and chosen, for stats.json


def split_captions(input_path: str, split: str) -> list:
    """(sen_id, video_id, split, caption) of the split ('all': every split) of a run or raw annotations."""
    selection = CaptionSelection(split=None if split == "all" else split)
    captions = [caption for video in select_captions(read_caption_rows(input_path), selection).values()
                for caption in video]
    if not captions:
        raise CapcleanError(f"{input_path} has no caption in split {split}")
    return captions


def references_of(captions: list, judged_sen_ids: set) -> dict:
    """video_id -> Items of its human captions that are not judged, by sen_id."""
    references = {}
    for sen_id, video, _, text in sorted(captions):
        if sen_id not in judged_sen_ids:
            references.setdefault(video, []).append(Item(f"{REFERENCE_SYSTEM}:{sen_id}", REFERENCE_SYSTEM, video,
                                                         sen_id, text))
    return {video: tuple(items) for video, items in references.items()}


def raw_against_cleaned(run: str, raw: str, split: str, all_captions: bool, seed: int) -> Judged:
    """Systems `raw` and `cleaned`: the raw and the cleaned text of each sen_id the run kept, only those the
    cleaning changed unless `all_captions`. The references are the run's other captions of the video; with
    `all_captions`, one caption of each video (drawn by the seed) is kept out of the judged ones to be it."""
    cleaned = split_captions(run, split)
    raw_text = {sen_id: (video, text) for sen_id, video, _, text in read_caption_rows(raw)}
    pairs = [(sen_id, video, raw_text[sen_id][1], text) for sen_id, video, _, text in cleaned
             if sen_id in raw_text and raw_text[sen_id][0] == video]
    if all_captions:
        held_out = held_out_references(cleaned, seed)
        pairs = [pair for pair in pairs if pair[0] not in held_out]
    else:
        pairs = [pair for pair in pairs if pair[2] != pair[3]]
    if not pairs:
        raise CapcleanError(f"{run}: no caption of split {split} to judge (the cleaning changed none; "
                            "--all-captions judges them all)")
    items = [Item(f"{system}:{sen_id}", system, video, sen_id, text)
             for sen_id, video, raw_caption, cleaned_caption in pairs
             for system, text in ((RAW, raw_caption), (CLEANED, cleaned_caption))]
    judged = {sen_id for sen_id, *_ in pairs}
    figures = {"source": "run", "split": split, "run_captions": len(cleaned), "judged_sen_ids": len(judged),
               "changed_by_cleaning": sum(raw_caption != text for _, _, raw_caption, text in pairs),
               "items_per_system": {RAW: len(pairs), CLEANED: len(pairs)}}
    return Judged(tuple(items), references_of(cleaned, judged),
                  DonorPool((video, sen_id, text) for sen_id, video, _, text in cleaned), figures)


def held_out_references(captions: list, seed: int) -> set:
    """One sen_id of each video of two captions or more, drawn by the seed: kept out of the judged captions
    to be the video's reference."""
    by_video = {}
    for sen_id, video, _, _ in sorted(captions):
        by_video.setdefault(video, []).append(sen_id)
    return {random.Random(item_seed(seed, video)).choice(sen_ids) for video, sen_ids in by_video.items()
            if len(sen_ids) > 1}


def systems_table(path: str, human: str, split: str) -> Judged:
    """The captions of a table of video_id, system, caption (a model's output, say), judged beside the human
    captions of `human` (a run or raw annotations), which are the references and the donors."""
    rows = read_table_rows(path, "--systems", SYSTEM_COLUMNS)
    captions = split_captions(human, split)
    for where, row in rows:
        for name in SYSTEM_COLUMNS:
            if not isinstance(row[name], str) or not row[name].strip():
                raise CapcleanError(f"--systems {path}: {where}: {name} is empty or not text")
        if row["system"] == REFERENCE_SYSTEM:
            raise CapcleanError(f"--systems {path}: {where}: the system name {REFERENCE_SYSTEM!r} is the "
                                "references'; rename it")
    seen, items = Counter(), []
    for _, row in rows:
        key = (row["system"], row["video_id"])
        seen[key] += 1
        suffix = "" if seen[key] == 1 else f":{seen[key]}"  # a system's second caption of a video
        items.append(Item(f"{row['system']}:{row['video_id']}{suffix}", row["system"], row["video_id"], None,
                          row["caption"]))
    references = references_of(captions, set())
    if not any(item.video_id in references for item in items):
        raise CapcleanError(f"--systems {path}: none of its videos has a human caption in {human} (split {split})")
    figures = {"source": "systems", "split": split, "human_captions": len(captions),
               "items_per_system": dict(sorted(Counter(item.system for item in items).items())),
               "videos_without_reference": len({item.video_id for item in items} - set(references))}
    donors = DonorPool((video, sen_id, text) for sen_id, video, _, text in captions)
    return Judged(tuple(items), references, donors, figures)


def recorded_raw_input(run: str) -> str:
    """The raw annotations a run was cleaned from, as its manifest records them (checked unchanged)."""
    from pipelines.output.manifest import read_manifest, recorded_input

    if not (Path(run) / "captions").is_dir():
        raise CapcleanError(f"--input {run} is not a capclean output (no captions/): raw against cleaned needs "
                            "one; give --systems FILE to judge other captions")
    if read_manifest(run, required=False) is None:
        raise CapcleanError(f"--input {run} has no manifest.json naming its raw input; give it with --raw")
    return recorded_input(run, flag="--raw")
