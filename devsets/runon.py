"""The run-on dev set (step IV): MSR-VTT train captions labelled by hand by sentence.

data/runon_dev.tsv holds the samples SAMPLE_NAMES lists (column `sample`; drawn
by devsets/sample_runon.py), labelled by data/LABELLING.md's conventions: ` | `
between two words marks a sentence boundary. The spaCy parse rule (removed,
docs/experiments.md) was developed on the first seven; the eighth to thirteenth
were each scored blind once with it before they joined. The eighteenth to twenty-third joined as
training data for the boundary model, and so did the twenty-fourth to
forty-fifth (the twenty-fourth to twenty-seventh and thirty-fourth to
thirty-seventh after they had served as held-out sets; the gap stratum ran out
after the twenty-eighth, so the twenty-ninth and later hold 150 long and 110
pronoun captions each). Samples 14-17 and 46-49 are the boundary model's
held-out sets, kept outside the repository so that no training sees them.
The fiftieth to fifty-sixth (data/runon_dev_over12.tsv) are drawn otherwise:
uniformly from every caption of more than 12 words, of every split (stratum
`over12`), so that they show what the pre-filter's strata hide. The fiftieth was looked at to choose a change to the
pre-filter; the fifty-first and fifty-second were its held-out set, and the
fifty-third that of the decision after it, the fifty-fourth that of a threshold per reason for
scoring, the fifty-fifth and fifty-sixth those of the model retrained with the fiftieth to
fifty-third (docs/steps/runon.md), each scored once.

A boundary is a word index; a predicted boundary is right when the label has
it. The false-split rate is the share of one-sentence captions (by the label)
that a detector cuts.
"""
from devsets import DATA, read_tsv
from devsets.ordinals import ORDINALS
from transforms.runon.step import piece_starts

DEVSET = DATA / "runon_dev.tsv"
# Samples 8 and 9 labelled again, blind, by another person under the same conventions.
SECOND_LABELLER = DATA / "runon_dev_second_labeller.tsv"
# The `sample` column's values, and the names the figures are printed under.
SAMPLE_NAMES = {str(number): ORDINALS[number - 1] for number in (*range(1, 14), *range(18, 46))}
# Samples 50-56: captions of more than 12 words of every split, drawn uniformly. The shipped
# boundary model learnt from 50-53 (`make runon-train` learns from them with --over12).
OVER12 = DATA / "runon_dev_over12.tsv"
OVER12_SAMPLE_NAMES = {str(number): ORDINALS[number - 1] for number in range(50, 57)}


def boundaries_of(pieces: list) -> list:
    """The word indices where the second and later pieces start."""
    return piece_starts(pieces)


def marked_boundaries(marked: str) -> tuple:
    """'a man cooks | he adds salt' -> ('a man cooks he adds salt', [3])."""
    pieces = [piece.strip() for piece in marked.split("|")]
    return " ".join(pieces), boundaries_of(pieces)


def load_devset(path=DEVSET, sample=None) -> list:
    """(caption, boundary word indices) of each labelled caption, of one sample ("1"), of several
    (("3", "4")) or of all."""
    samples = (sample,) if isinstance(sample, str) else sample
    return [marked_boundaries(row["sentences"]) for row in read_tsv(path)
            if samples is None or row["sample"] in samples]


def predict(find_sentences, captions: list) -> list:
    """Boundary word indices a detector (texts -> the sentences of each) finds in each caption."""
    return [boundaries_of(pieces) for pieces in find_sentences(captions)]


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


def labeller_agreement(second=SECOND_LABELLER, devset=DEVSET) -> dict:
    """A second labeller's boundaries scored as a detector's would be, against the dev set's labels of the
    same captions: how closely two careful readers agree, the most a detector can be measured to reach."""
    first = {row["sen_id"]: marked_boundaries(row["sentences"]) for row in read_tsv(devset)}
    second_rows = read_tsv(second)
    return score([first[row["sen_id"]] for row in second_rows],
                 [marked_boundaries(row["sentences"])[1] for row in second_rows])
