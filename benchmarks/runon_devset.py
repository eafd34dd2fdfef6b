"""Boundary precision, recall and F1 of the run-on splitter on its two dev sets.

- `real`: tests/data/runon_dev.tsv, MSR-VTT train captions labelled by hand by
  sentence (benchmarks/sample_runon_devset.py drew them; ` | ` marks a boundary).
  It holds the samples SAMPLE_NAMES lists (column `sample`), labelled by
  tests/data/LABELLING.md's conventions: the rule was developed on the first
  seven, and the eighth to eleventh were scored blind once and their misses read
  since; `twelfth` and `thirteenth` were labelled blind and scored once with the
  rule settled, before they joined, and together they are the rule's honest
  estimate (`held-out`). The eighteenth to twenty-third joined as training data
  for the boundary model, and so did the twenty-fourth to forty-fifth (the
  twenty-fourth to twenty-seventh and thirty-fourth to thirty-seventh after they
  had served as held-out sets; the gap stratum ran out after the twenty-eighth,
  so the twenty-ninth and later hold 150 long and 110 pronoun captions each).
  Samples 14-17 and 46-49 are held-out sets, kept outside the repo. `real` is
  all of them.
- `synthetic`: two one-sentence captions of the same train video joined into
  one, where the boundary is known. Half of them have the second caption's
  subject turned into a pronoun ("a man is ..." -> "he is ..."), as real
  run-ons mostly do.

A boundary is a word index; a predicted boundary is right when the label has
it. The false-split rate is the share of one-sentence captions (by the label)
that the splitter cuts. Captions the pre-filter turns away count as unsplit.

Usage:
    .venv/bin/python benchmarks/runon_devset.py [--input DIR] [--show-errors] [--devset FILE] [--rule parse|model]
"""
import argparse
import random
import sys
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.ordinals import ORDINALS  # noqa: E402
from pipelines.config import load_config  # noqa: E402
from transforms.runon import SENTENCE_RULES  # noqa: E402
from transforms.boundary_model_training import PRONOUN_FOR, train_split_captions  # noqa: E402
from transforms.boundary_model_training import read_labelled as read_rows  # noqa: E402
from transforms.boundary_model_training import marked_boundaries as labelled  # noqa: E402,F401 (tests use it)
from transforms.runon import load_sentence_finder  # noqa: E402

DEVSET = REPO / "tests" / "data" / "runon_dev.tsv"
MSRVTT = REPO.parent / "shared" / "data" / "msrvtt"
SYNTHETIC_SEED = 2022
SYNTHETIC_PAIRS = 600


# Samples 8 and 9 labelled again, blind, by another person under the same conventions.
SECOND_LABELLER = REPO / "tests" / "data" / "runon_dev_second_labeller.tsv"


# The `sample` column's values, and the names the figures are printed under.
# Samples 14-17 and 46-49 are the boundary model's held-out sets, kept outside the repo (34-37 were).
SAMPLE_NAMES = {str(number): ORDINALS[number - 1] for number in (*range(1, 14), *range(18, 46))}
# Samples labelled blind and scored once with the rule settled, before they joined: the honest estimate.
HELD_OUT = ("12", "13")


def load_devset(path=DEVSET, sample=None) -> list:
    """(caption, boundary word indices) of each labelled caption, of one sample ("1"), of several
    (("3", "4")) or of all."""
    samples = (sample,) if isinstance(sample, str) else sample
    return [labelled(row["sentences"]) for row in read_rows(path) if samples is None or row["sample"] in samples]


def labeller_agreement(second=SECOND_LABELLER, devset=DEVSET) -> dict:
    """A second labeller's boundaries scored as a detector's would be, against the dev set's labels of the
    same captions: how closely two careful readers agree, the most a detector can be measured to reach."""
    first = {row["sen_id"]: labelled(row["sentences"]) for row in read_rows(devset)}
    second_rows = read_rows(second)
    return score([first[row["sen_id"]] for row in second_rows],
                 [labelled(row["sentences"])[1] for row in second_rows])


def train_videos_captions(input_dir=MSRVTT) -> dict:
    """video_id -> normalised captions of the train split, by sen_id."""
    return train_split_captions(input_dir)[0]


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


def score(labelled_rows: list, predicted: list) -> dict:
    true_positive = predicted_count = gold_count = 0
    one_sentence_rows = false_splits = 0
    for (_, gold), found in zip(labelled_rows, predicted):
        true_positive += len(set(gold) & set(found))
        predicted_count += len(found)
        gold_count += len(gold)
        if not gold:
            one_sentence_rows += 1
            false_splits += bool(found)
    precision = true_positive / predicted_count if predicted_count else 1.0
    recall = true_positive / gold_count if gold_count else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"captions": len(labelled_rows), "boundaries": gold_count, "precision": precision, "recall": recall,
            "f1": f1, "one_sentence": one_sentence_rows,
            "false_split_rate": false_splits / one_sentence_rows if one_sentence_rows else 0.0}


def predict(find_sentences, captions: list) -> list:
    """Boundary word indices the splitter finds in each caption."""
    return [boundaries_of(pieces) for pieces in find_sentences(captions)]


def boundaries_of(pieces: list) -> list:
    boundaries, position = [], 0
    for piece in pieces[:-1]:
        position += len(piece.split())
        boundaries.append(position)
    return boundaries


# The model learnt from every sample of the dev set: its figures there are no estimate.
MODEL_CAVEAT = (" (trained on every sample of tests/data/runon_dev.tsv, so its figures on them are training figures;"
                " the README gives its figures on samples it never saw)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", default=str(MSRVTT))
    parser.add_argument("--show-errors", action="store_true")
    parser.add_argument("--devset", help="another labelled TSV (columns as tests/data/runon_dev.tsv) to score too")
    parser.add_argument("--rule", choices=SENTENCE_RULES, help="the detector scored (default: the default profile's)")
    args = parser.parse_args()
    config = load_config("default").runon
    config = replace(config, rule=args.rule or config.rule)
    print(f"  detector: {config.rule}" + (MODEL_CAVEAT if config.rule == "model" else ""))
    find_sentences = load_sentence_finder(config)
    sets = {name: load_devset(sample=sample) for sample, name in SAMPLE_NAMES.items()}
    sets = {name: rows for name, rows in sets.items() if rows}
    if config.rule != "model":  # the model learnt from the held-out samples too
        sets["held-out"] = load_devset(sample=HELD_OUT)
    sets["real"] = load_devset()
    if args.devset:
        sets[Path(args.devset).stem] = load_devset(args.devset)
    sets["synthetic"] = synthetic_devset(train_videos_captions(args.input))
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
