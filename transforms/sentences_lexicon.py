"""Build the finite-verb word list of the run-on pre-filter (`make runon-lexicon`).

The pre-filter must decide without spaCy which captions could hold two finite
clauses, so it counts finite verbs by a word list: the words spaCy's tagger
tags as a finite verb (VBZ, VBD, VBP, MD) in at least MIN_SHARE of their
occurrences in the MSR-VTT train captions (after step I), written at least
MIN_COUNT times. The list is built once, offline, and versioned with the code
(transforms/sentences_finite_verbs.txt); a run only reads it.

Usage:
    .venv/bin/python -m transforms.sentences_lexicon [--input DIR] [--out FILE]
"""
import argparse
import json
import zipfile
from collections import Counter
from pathlib import Path

from transforms.normalize import normalize_caption
from transforms.sentences import FINITE_TAGS

LEXICON = Path(__file__).resolve().parent / "sentences_finite_verbs.txt"
MIN_SHARE = 0.3
MIN_COUNT = 2


def train_captions(input_dir: str) -> list:
    with zipfile.ZipFile(Path(input_dir) / "train_val_annotation.zip") as archive:
        data = json.loads(archive.read("train_val_videodatainfo.json"))
    train = {video["video_id"] for video in data["videos"] if video["split"] == "train"}
    return [normalize_caption(s["caption"])[0] for s in sorted(data["sentences"], key=lambda s: s["sen_id"])
            if s["video_id"] in train]


def finite_verbs(nlp, captions: list) -> list:
    """Words tagged as a finite verb in at least MIN_SHARE of at least MIN_COUNT occurrences, sorted."""
    seen, finite = Counter(), Counter()
    with nlp.select_pipes(enable=["tok2vec", "tagger"]):
        for doc in nlp.pipe(captions, batch_size=256):
            for token in doc:
                seen[token.lower_] += 1
                finite[token.lower_] += token.tag_ in FINITE_TAGS
    return sorted(word for word, count in finite.items()
                  if count >= MIN_COUNT and count / seen[word] >= MIN_SHARE)


def load_lexicon(path=LEXICON) -> frozenset:
    with open(path, encoding="utf-8") as handle:
        return frozenset(line.strip() for line in handle if line.strip() and not line.startswith("#"))


def main():
    from transforms.runon import load_spacy

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", default=str(Path(__file__).resolve().parents[2] / "shared" / "data" / "msrvtt"))
    parser.add_argument("--out", default=str(LEXICON))
    args = parser.parse_args()
    words = finite_verbs(load_spacy(), train_captions(args.input))
    with open(args.out, "w", encoding="utf-8") as handle:
        handle.write(f"# Finite verb forms of MSR-VTT train captions (make runon-lexicon; share >= {MIN_SHARE}, "
                     f"count >= {MIN_COUNT})\n")
        handle.write("".join(word + "\n" for word in words))
    print(f"wrote {len(words)} words to {args.out}")


if __name__ == "__main__":
    main()
