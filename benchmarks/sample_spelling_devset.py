"""Sample the spelling development set: tokens plain Hunspell rejects in MSR-VTT train captions.

Reads the train split of the raw MSR-VTT annotations, normalises each caption
with step I, and samples token occurrences that Hunspell en_US rejects
(tokens containing a digit are skipped). The sample is uniform over candidate
occurrences (seed 2022), with at most 3 occurrences of the same token, sorted
by sen_id. The TSV it writes has empty label/intended/note columns, to be
filled in by hand (see tests/data/spelling_dev.tsv).

tests/data/spelling_dev.tsv holds three samples: 420 rows drawn with the
defaults, then 200 more (`--seed 777 --size 200 --exclude-labelled`, note
"second sample (seed 777)") and 250 more (`--seed 2026 --size 250
--exclude-labelled`, note "third sample (seed 2026)"). Each later sample is
drawn from sentences no earlier sample used, and was labelled before the rule
was scored on it, so the second and third together are the held-out estimate
(benchmarks/spelling_devset.py prints each sample's figures).
`--exclude-labelled` skips every sentence the file labels when it runs, so a
later sample is drawn again only from the file as it was before that sample.

Usage (as a module, so that `--exclude-labelled` can import benchmarks.spelling_devset):
    .venv/bin/python -m benchmarks.sample_spelling_devset [--seed N] [--size N] [--exclude-labelled] [--out PATH]
"""
import argparse
import collections
import json
import random
import zipfile

import hunspell

from transforms.normalize import normalize_caption

ANNOTATIONS = "/work/shared/data/msrvtt/train_val_annotation.zip"
MEMBER = "train_val_videodatainfo.json"
DIC = "/usr/share/hunspell/en_US.dic"
AFF = "/usr/share/hunspell/en_US.aff"
SEED = 2022
SAMPLE_SIZE = 420
MAX_PER_TOKEN = 3
COLUMNS = ("sen_id", "position", "token", "caption", "label", "intended", "note")


def train_sentences(path: str = ANNOTATIONS) -> list:
    with zipfile.ZipFile(path) as archive:
        data = json.loads(archive.read(MEMBER))
    train_videos = {video["video_id"] for video in data["videos"] if video["split"] == "train"}
    return [sentence for sentence in data["sentences"] if sentence["video_id"] in train_videos]


def candidate_occurrences(sentences: list) -> list:
    """(sen_id, position, token, normalised caption) for every token Hunspell rejects."""
    speller = hunspell.HunSpell(DIC, AFF)
    verdict = {}
    found = []
    for sentence in sorted(sentences, key=lambda s: s["sen_id"]):
        text, _ = normalize_caption(sentence["caption"])
        for position, token in enumerate(text.split()):
            if any(char.isdigit() for char in token):
                continue
            if token not in verdict:
                verdict[token] = bool(speller.spell(token))
            if not verdict[token]:
                found.append((sentence["sen_id"], position, token, text))
    return found


def sample(candidates: list, size: int = SAMPLE_SIZE, seed: int = SEED, max_per_token: int = MAX_PER_TOKEN) -> list:
    order = list(candidates)
    random.Random(seed).shuffle(order)
    taken, per_token = [], collections.Counter()
    for occurrence in order:
        token = occurrence[2]
        if per_token[token] >= max_per_token:
            continue
        per_token[token] += 1
        taken.append(occurrence)
        if len(taken) == size:
            break
    return sorted(taken, key=lambda occurrence: (occurrence[0], occurrence[1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="/tmp/spelling_dev_unlabelled.tsv",
                        help="where to write the unlabelled sample (label it into tests/data/spelling_dev.tsv)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--size", type=int, default=SAMPLE_SIZE)
    parser.add_argument("--exclude-labelled", action="store_true",
                        help="skip the sentences tests/data/spelling_dev.tsv already labels")
    args = parser.parse_args()

    sentences = train_sentences()
    candidates = candidate_occurrences(sentences)
    if args.exclude_labelled:
        from benchmarks.spelling_devset import load_devset
        labelled = {int(row["sen_id"]) for row in load_devset()}
        candidates = [occurrence for occurrence in candidates if occurrence[0] not in labelled]
    distinct = len({occurrence[2] for occurrence in candidates})
    print(f"train sentences: {len(sentences)}")
    print(f"candidate occurrences: {len(candidates)}")
    print(f"distinct candidate tokens: {distinct}")

    rows = sample(candidates, args.size, args.seed)
    # Plain tab-separated lines, no quoting: normalised captions hold no tab or newline.
    with open(args.out, "w") as handle:
        handle.write("\t".join(COLUMNS) + "\n")
        for sen_id, position, token, caption in rows:
            handle.write("\t".join((str(sen_id), str(position), token, caption, "", "", "")) + "\n")
    print(f"wrote {len(rows)} rows to {args.out}")


if __name__ == "__main__":
    main()
