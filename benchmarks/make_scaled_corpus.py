"""A synthetic corpus N times the size of MSR-VTT, for the scale benchmark (`make bench-scale`).

Each original video becomes N new videos. Their captions are the original
video's captions in a new order, with the noise crowd captions have: typos (a letter
dropped, doubled, swapped with the next or struck on a neighbouring key), exact
duplicates, special characters (brackets, `#`, `&`, curly quotes, dashes) and
run-ons (two captions of the video written as one). So every step has work of
the kind it has on MSR-VTT, in proportion to the size.

A scale below 1 (0.2, for a trial while developing) keeps only the first
that fraction of each split's videos, unchanged in number and captions except for the noise.

Ids: copy k of video number i is video number i * N + k, so each split keeps a
contiguous range of video numbers (written to `ranges.yaml`, a capclean
--config overlay); copy k of caption sen_id s is s * N + k. The output is MSR-VTT-format
JSON shards of `--videos-per-file` videos, deterministic given the seed, and
meant for a scratch folder: it is never part of the repository.

    python benchmarks/make_scaled_corpus.py --input ../shared/data/msrvtt --factor 5 --output /tmp/msrvtt-5x
"""
import argparse
import json
import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from transforms.read import find_annotation_files, load_annotations  # noqa: E402

# How often each kind of noise is applied to a drawn caption (MSR-VTT's own rates are of this order).
TYPO_RATE = 0.04
DUPLICATE_RATE = 0.05
SPECIAL_RATE = 0.04
RUNON_RATE = 0.03

KEYBOARD_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
NEIGHBOURS = {
    key: "".join(row[j] for j in (i - 1, i + 1) if 0 <= j < len(row))
    for row in KEYBOARD_ROWS for i, key in enumerate(row)
}
SPECIAL_NOISE = ("brackets", "hash", "ampersand", "quote", "dash", "trailing_dot")


def misspell(word: str, rng: random.Random) -> str:
    """The word with one typing slip; words of fewer than four letters are left alone."""
    if len(word) < 4 or not word.isalpha():
        return word
    at = rng.randrange(1, len(word) - 1)
    slip = rng.choice(("drop", "double", "swap", "neighbour"))
    if slip == "drop":
        return word[:at] + word[at + 1:]
    if slip == "double":
        return word[:at] + word[at] + word[at:]
    if slip == "swap":
        return word[:at] + word[at + 1] + word[at] + word[at + 2:]
    near = NEIGHBOURS.get(word[at])
    return word[:at] + rng.choice(near) + word[at + 1:] if near else word


def add_typo(caption: str, rng: random.Random) -> str:
    words = caption.split()
    candidates = [i for i, word in enumerate(words) if len(word) >= 4]
    if not candidates:
        return caption
    at = rng.choice(candidates)
    words[at] = misspell(words[at], rng)
    return " ".join(words)


def add_special_characters(caption: str, rng: random.Random) -> str:
    words = caption.split()
    kind = rng.choice(SPECIAL_NOISE)
    at = rng.randrange(len(words))
    if kind == "brackets":
        words.insert(at, "(offscreen)")
    elif kind == "hash":
        words[at] = "#" + words[at]
    elif kind == "ampersand":
        words.insert(at, "&")
    elif kind == "quote":
        words[at] = words[at] + "\u2019s"
    elif kind == "dash":
        words.insert(at, "-")
    else:
        words[-1] = words[-1] + "."
    return " ".join(words)


def synthetic_captions(originals: list, rng: random.Random) -> list:
    """As many captions as the original video has: its captions shuffled, with noise."""
    captions = []
    for caption in rng.sample(originals, len(originals)):
        if captions and rng.random() < DUPLICATE_RATE:
            captions.append(rng.choice(captions))
            continue
        if rng.random() < RUNON_RATE:
            caption = f"{caption} {rng.choice(originals)}"
        if rng.random() < TYPO_RATE:
            caption = add_typo(caption, rng)
        if rng.random() < SPECIAL_RATE:
            caption = add_special_characters(caption, rng)
        captions.append(caption)
    return captions


def video_number(video_id: str) -> int:
    return int(video_id.removeprefix("video"))


def load_msrvtt(input_path: str) -> tuple:
    """(videos sorted by number, video_id -> [(sen_id, caption)] in sen_id order) of the original annotations."""
    videos, captions = {}, {}
    for source in find_annotation_files(input_path):
        document = load_annotations(source)
        for video in document["videos"]:
            videos[video["video_id"]] = video
        for sentence in document["sentences"]:
            captions.setdefault(sentence["video_id"], []).append((sentence["sen_id"], sentence["caption"]))
    for rows in captions.values():
        rows.sort()
    return sorted(videos.values(), key=lambda v: video_number(v["video_id"])), captions


def scaled_video(video: dict, originals: list, factor: int, copy: int, seed: int) -> tuple:
    """(video record, sentence records) of copy `copy` of one original video."""
    number = video_number(video["video_id"])
    rng = random.Random(f"{seed}:{number}:{copy}")  # independent of the order videos are generated in
    new_id = f"video{number * factor + copy}"
    texts = synthetic_captions([text for _, text in originals], rng)
    sentences = [{"sen_id": sen_id * factor + copy, "video_id": new_id, "caption": text}
                 for (sen_id, _), text in zip(originals, texts)]
    record = {"id": number * factor + copy, "video_id": new_id, "category": video["category"],
              "split": video["split"]}
    return record, sentences


def split_ranges(videos: list, factor: int) -> dict:
    ranges = {}
    for video in videos:
        number = video_number(video["video_id"])
        first, last = ranges.get(video["split"], (number, number))
        ranges[video["split"]] = (min(first, number), max(last, number))
    return scaled_ranges(ranges, factor)


def scaled_ranges(ranges: dict, factor: int) -> dict:
    """Each split's (first, last) video numbers, as the copies of its videos number them."""
    return {split: (first * factor, last * factor + factor - 1) for split, (first, last) in ranges.items()}


def first_of_each_split(videos: list, fraction: float) -> list:
    """The first `fraction` of each split's videos (at least one), in the order given: each split's video
    numbers stay a contiguous range, as ranges.yaml needs."""
    by_split = {}
    for video in videos:
        by_split.setdefault(video["split"], []).append(video)
    kept = {id(video) for members in by_split.values()
            for video in members[:max(1, round(fraction * len(members)))]}
    return [video for video in videos if id(video) in kept]


def copies_and_videos(videos: list, scale: float) -> tuple:
    """(copies of each video, the videos copied) for a scale: N copies of all for a whole N, one copy of
    the first part of each split below 1."""
    if scale >= 1:
        if scale != int(scale):
            raise ValueError(f"scale {scale}: a scale of 1 or more must be a whole number")
        return int(scale), videos
    if scale <= 0:
        raise ValueError(f"scale {scale}: must be above 0")
    return 1, first_of_each_split(videos, scale)


def write_scaled_corpus(input_path: str, output: Path, scale: float, seed: int, videos_per_file: int) -> dict:
    """Write the shards and ranges.yaml; return the counts written."""
    videos, captions = load_msrvtt(input_path)
    factor, videos = copies_and_videos(videos, scale)
    scale = factor if scale >= 1 else scale  # 1, not 1.0, in the shards' info
    output.mkdir(parents=True, exist_ok=True)
    shard, shard_number, totals = {"videos": [], "sentences": []}, 0, {"videos": 0, "captions": 0, "files": 0}

    def flush():
        nonlocal shard, shard_number
        if shard["videos"]:
            path = output / f"scaled_{shard_number:05d}_videodatainfo.json"
            path.write_text(json.dumps({"info": {"scale_factor": scale, "seed": seed}, **shard}))
            totals["files"] += 1
            shard_number += 1
        shard = {"videos": [], "sentences": []}

    for copy in range(factor):
        for video in videos:
            record, sentences = scaled_video(video, captions.get(video["video_id"], []), factor, copy, seed)
            shard["videos"].append(record)
            shard["sentences"].extend(sentences)
            totals["videos"] += 1
            totals["captions"] += len(sentences)
            if len(shard["videos"]) >= videos_per_file:
                flush()
    flush()
    ranges = split_ranges(videos, factor)
    lines = ["# capclean --config overlay: the split video ranges of this scaled corpus", "validation:",
             "  split_video_ranges:"] + [f"    {split}: [{first}, {last}]" for split, (first, last) in ranges.items()]
    (output / "ranges.yaml").write_text("\n".join(lines) + "\n")
    return totals


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--input", required=True, help="the MSR-VTT annotations (folder of the two zips)")
    parser.add_argument("--factor", type=float, required=True,
                        help="N: the corpus is N times MSR-VTT (a whole number, or below 1 for a part of it)")
    parser.add_argument("--output", required=True, help="folder for the shards (outside the repository)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--videos-per-file", type=int, default=2500)
    args = parser.parse_args()
    output = Path(args.output).resolve()
    if output == REPO or REPO in output.parents:
        parser.error("write the corpus outside the repository (it is derived from MSR-VTT)")
    totals = write_scaled_corpus(args.input, output, args.factor, args.seed, args.videos_per_file)
    print(f"{totals['videos']} videos, {totals['captions']} captions in {totals['files']} files under {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
