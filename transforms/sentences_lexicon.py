"""Build the word lists of the run-on splitter (`make runon-lexicon`).

The pre-filter must decide without spaCy which captions could hold two finite
clauses, so it counts finite verbs by a word list: the words spaCy's tagger
tags as a finite verb (VBZ, VBD, VBP, MD) in at least MIN_SHARE of their
occurrences in the MSR-VTT train captions (after step I), written at least
MIN_COUNT times.

The boundary rule must tell a reduced relative clause ("the game he is
playing": a transitive verb without its object) from a new sentence ("the car
he is talking next to a suv": an intransitive verb). So the second list holds
the verb forms the parser gives a direct object in at least MIN_OBJECT_SHARE
of their occurrences, over every PARSE_EVERY-th train caption (a parse costs
more than a tag).

Both lists are built once, offline, and versioned with the code
(transforms/sentences_finite_verbs.txt, sentences_transitive_verbs.txt); a run
only reads them.

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
TRANSITIVE = Path(__file__).resolve().parent / "sentences_transitive_verbs.txt"
MIN_SHARE = 0.5
MIN_COUNT = 2
MIN_OBJECT_SHARE = 0.3
PARSE_EVERY = 4


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


def transitive_verbs(nlp, captions: list) -> list:
    """Verb forms with a direct object in at least MIN_OBJECT_SHARE of at least MIN_COUNT occurrences, sorted."""
    seen, with_object = Counter(), Counter()
    for doc in nlp.pipe(captions[::PARSE_EVERY], batch_size=256):
        for token in doc:
            if token.tag_.startswith("VB"):
                seen[token.lower_] += 1
                with_object[token.lower_] += any(child.dep_ == "dobj" for child in token.children)
    return sorted(word for word, count in seen.items()
                  if count >= MIN_COUNT and with_object[word] / count >= MIN_OBJECT_SHARE)


def write_list(path, words: list, what: str) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(f"# {what} (make runon-lexicon)\n")
        handle.write("".join(word + "\n" for word in words))
    print(f"wrote {len(words)} words to {path}")


def load_lexicon(path=LEXICON) -> frozenset:
    with open(path, encoding="utf-8") as handle:
        return frozenset(line.strip() for line in handle if line.strip() and not line.startswith("#"))


def main():
    from transforms.runon import load_spacy

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", default=str(Path(__file__).resolve().parents[2] / "shared" / "data" / "msrvtt"))
    parser.add_argument("--only", choices=["finite", "transitive"], help="build one list only")
    args = parser.parse_args()
    nlp, captions = load_spacy(), train_captions(args.input)
    if args.only != "transitive":
        write_list(LEXICON, finite_verbs(nlp, captions), "Finite verb forms of MSR-VTT train captions, "
                   f"tagged finite in >= {MIN_SHARE} of >= {MIN_COUNT} occurrences")
    if args.only != "finite":
        write_list(TRANSITIVE, transitive_verbs(nlp, captions), "Verb forms of MSR-VTT train captions with a "
                   f"direct object in >= {MIN_OBJECT_SHARE} of >= {MIN_COUNT} occurrences (every {PARSE_EVERY}th caption)")


if __name__ == "__main__":
    main()
