"""Boundary precision, recall and F1 of step IV's boundary model on its two dev sets.

- `real`: devsets/data/runon_dev.tsv (devsets/runon.py says what it holds),
  per sample and in all. The model learnt from every one of these samples, so
  its figures there are training figures, a regression check;
  docs/steps/runon.md gives its figures on a held-out sample it never saw.
- `over12`: devsets/data/runon_dev_over12.tsv, samples 50-56 (captions of more
  than 12 words of every split). The shipped model learnt from 50-53; its
  settings were chosen on 54 and 55 and tested once on 56 (the model card,
  transforms/runon/model/model.json, names the samples it learnt from).
- `synthetic`: two one-sentence captions of the same train video joined into
  one, where the boundary is known. Half of them have the second caption's
  subject turned into a pronoun ("a man is ..." -> "he is ..."), as real
  run-ons mostly do.

Captions the pre-filter turns away count as unsplit.

Usage:
    .venv/bin/python benchmarks/runon_devset.py [--input DIR] [--show-errors] [--devset FILE [--only]]
        [--config FILE]
"""
import argparse
import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from devsets.runon import (OVER12, OVER12_SAMPLE_NAMES, SAMPLE_NAMES, labeller_agreement, load_devset,  # noqa: E402
                           predict, score)
from pipelines.config import load_config  # noqa: E402
from training.boundary_model import PRONOUN_FOR, train_split_captions  # noqa: E402
from transforms.runon.boundary_model import MODEL_DIR, read_model_card  # noqa: E402
from transforms.runon.step import load_sentence_finder  # noqa: E402

MSRVTT = REPO.parent / "shared" / "data" / "msrvtt"
SYNTHETIC_SEED = 2022
SYNTHETIC_PAIRS = 600


def one_sentence(text: str) -> bool:
    """Short captions without a second subject: safe to treat as one sentence."""
    words = text.split()
    return 4 <= len(words) <= 12 and not any(word in ("he", "she", "they", "then", "there") for word in words[1:])


def pronominal(text: str) -> str:
    for opening, pronoun in PRONOUN_FOR.items():
        if text.startswith(opening + " "):
            return pronoun + text[len(opening):]
    return text


def synthetic_devset(videos: dict, size=SYNTHETIC_PAIRS, seed=SYNTHETIC_SEED) -> list:
    """(caption, [boundary]) pairs joined from two one-sentence captions of one video, and the
    same number of one-sentence captions alone (boundaries [])."""
    rng = random.Random(seed)
    names = sorted(videos)
    joined, alone = [], []
    while len(joined) < size:
        usable = [text for text in videos[rng.choice(names)] if one_sentence(text)]
        if len(usable) < 3:
            continue
        first, second, single = rng.sample(usable, 3)
        if rng.random() < 0.5:
            second = pronominal(second)
        joined.append((f"{first} {second}", [len(first.split())]))
        alone.append((single, []))
    return joined + alone


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", default=str(MSRVTT))
    parser.add_argument("--show-errors", action="store_true")
    parser.add_argument("--devset", help="another labelled TSV (columns as devsets/data/runon_dev.tsv) to score too")
    parser.add_argument("--only", action="store_true", help="with --devset: score that file alone")
    parser.add_argument("--config", help="a configuration file laid over the default profile (its runon section)")
    args = parser.parse_args()
    settings = load_config("default", args.config).runon
    print(f"  detector: model, {read_model_card(settings.model_dir or MODEL_DIR).trained_on}")
    print("  its figures on the samples it learnt from are training figures (docs/steps/runon.md gives its figures "
          "on samples it never saw)")
    print(f"  pre-filter: min_words {settings.min_words}, always_parse_words {settings.always_parse_words}; "
          f"threshold {settings.model_threshold} (word cue), {settings.length_only_threshold} (length only)")
    find_sentences = load_sentence_finder(settings)
    sets = {}
    if not args.only:
        sets = {name: load_devset(sample=sample) for sample, name in SAMPLE_NAMES.items()}
        sets = {name: rows for name, rows in sets.items() if rows}
        sets["real"] = load_devset()
        # Never learnt from: captions of more than 12 words of every split (devsets/runon.py).
        sets.update({name: load_devset(OVER12, sample) for sample, name in OVER12_SAMPLE_NAMES.items()})
        sets["over12"] = load_devset(OVER12)
    if args.devset:
        sets[Path(args.devset).stem] = load_devset(args.devset)
    if not args.only:
        sets["synthetic"] = synthetic_devset(train_split_captions(args.input)[0])
    print("  set            captions  boundaries  precision  recall     f1  one-sentence  false-split")
    for name, rows in sets.items():
        found = predict(find_sentences, [text for text, _ in rows])
        figures = score(rows, found)
        print(f"  {name:13} {figures['captions']:9} {figures['boundaries']:11} {figures['precision']:10.3f} "
              f"{figures['recall']:7.3f} {figures['f1']:6.3f} {figures['one_sentence']:13} "
              f"{figures['false_split_rate']:12.3f}")
        if args.show_errors:
            for (text, gold), predicted in zip(rows, found):
                if set(gold) != set(predicted):
                    words = text.split()
                    show = lambda cuts: " | ".join(" ".join(words[a:b]) for a, b in  # noqa: E731
                                                   zip([0] + cuts, cuts + [len(words)]))
                    print(f"    gold: {show(sorted(gold))}\n    got:  {show(sorted(predicted))}")
    agreement = labeller_agreement()
    print(f"  a second labeller of samples 8 and 9 ({agreement['captions']} captions), scored the same way: precision "
          f"{agreement['precision']:.3f}, recall {agreement['recall']:.3f}, F1 {agreement['f1']:.3f}, "
          f"false-split {agreement['false_split_rate']:.3f}")


if __name__ == "__main__":
    main()
