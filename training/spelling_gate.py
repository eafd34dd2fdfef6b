"""Train step II's correction gate offline: `make spelling-train` (about a minute).

The examples are the labelled tokens of devsets/data/spelling_dev.tsv whose
decision the gate checks (transforms/spelling/gate.py: a correction on the
corpus's evidence, or a flagged token), one per candidate: its features, and
whether it is the word the labeller wrote. The `held-out` samples that
devsets/spelling.py names are left out, so that they measure the
gate. The classifier is scikit-learn's HistGradientBoostingClassifier,
exported to ONNX (skl2onnx) so that the pipeline runs it on onnxruntime, as it
runs step IV's model: transforms/spelling/gate_model/.

`--cross-validate` prints what the gate would score on samples it never saw:
each sample is decided by a gate trained on the others, and the accuracy and
change precision over all of them are printed beside the rule's own, at
several thresholds. That is how the threshold and the features were chosen.
Needs requirements-spelling-train.txt (scikit-learn, skl2onnx).
"""
import argparse
import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from transforms.spelling.gate import FEATURES, GATE_DIR, likeliest

# The classifier's settings: small trees, learning slowly (the dev set has about 9,000 candidates).
TREES = 200
LEARNING_RATE = 0.05
LEAVES = 15
MIN_LEAF = 20
SEED = 0
CROSS_VALIDATED_THRESHOLDS = (0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9)


@dataclass
class Example:
    """A labelled token of the dev set, with what the rule made of it and the gate's candidates."""
    sample: str
    token: str
    expected: str
    rule_output: str
    checked: bool  # the gate decides this token
    candidates: dict  # word -> source
    rows: list  # one feature row per candidate


def collect_examples(rows, speller, clips) -> list:
    """One Example per dev-set row, the rule's decisions recorded as the pipeline makes them.

    `speller`: a Speller built with `use_gate=False`, so that its decisions are the rule's own.
    """
    from devsets.spelling import sample_of, token_output
    from transforms.spelling import OtherCaptions, Token, is_checked

    rule = speller.rule
    decide = rule.decide  # the rule's decisions: the speller was built without its gate
    recorded = []

    def recording_decide(piece, previous="", following="", clip=None):
        decision = decide(piece, previous, following, clip)
        if is_checked(decision):
            token = Token(piece, previous, following, clip)
            recorded.append((piece, decision, rule.gate_candidates(token, decision)))
        return decision

    rule.decide = recording_decide  # this speller only: the rule's decisions, each one seen
    examples = []
    for row in rows:
        recorded.clear()
        clip = OtherCaptions(clips[int(row["sen_id"])], row["caption"])
        _, corrections, _ = speller.correct(row["caption"], clip)
        position, token = int(row["position"]), row["token"]
        expected = row["intended"] if row["label"] == "fix" else token
        output = token_output(token, [c for c in corrections if c["position"] == position])
        # The token's own decision: its occurrence among equal pieces of the caption.
        occurrence = row["caption"].split()[:position].count(token)
        mine = [entry for entry in recorded if entry[0] == token]
        if occurrence < len(mine) and output in (token, mine[occurrence][1].replacement):
            _, _, (candidates, features) = mine[occurrence]
            examples.append(Example(sample_of(row), token, expected, output, True, candidates, features))
        else:
            examples.append(Example(sample_of(row), token, expected, output, False, {}, []))
    return examples


def training_arrays(examples) -> tuple:
    import numpy as np

    features = [row for example in examples for row in example.rows]
    labels = [word == example.expected for example in examples for word in example.candidates]
    return np.asarray(features, dtype=np.float32), np.asarray(labels)


def fit(examples):
    from sklearn.ensemble import HistGradientBoostingClassifier

    features, labels = training_arrays(examples)
    return HistGradientBoostingClassifier(max_iter=TREES, learning_rate=LEARNING_RATE, max_leaf_nodes=LEAVES,
                                          min_samples_leaf=MIN_LEAF, random_state=SEED).fit(features, labels)


def gated_output(example, probabilities, threshold: float) -> str:
    """What the token becomes with the gate (as transforms/spelling/decisions.py's check_with_gate decides)."""
    if not example.checked or not example.candidates:
        return example.rule_output
    word, probability = likeliest(example.candidates, probabilities)
    if probability >= threshold:
        return word
    return example.token


def score(examples, outputs) -> dict:
    right = changes = right_changes = 0
    for example, output in zip(examples, outputs):
        is_right = output == example.expected
        right += is_right
        if output != example.token:
            changes += 1
            right_changes += is_right
    return {"tokens": len(examples), "accuracy": right / len(examples), "changes": changes,
            "precision": right_changes / changes if changes else 1.0}


def cross_validated_probabilities(examples) -> list:
    """Each example's candidate probabilities from a gate trained on the other samples."""
    probabilities = [[] for _ in examples]
    by_sample = defaultdict(list)
    for index, example in enumerate(examples):
        if example.rows:
            by_sample[example.sample].append(index)
    for sample, indexes in by_sample.items():
        model = fit([example for example in examples if example.sample != sample])
        for index in indexes:
            probabilities[index] = [float(p) for p in model.predict_proba(examples[index].rows)[:, 1]]
    return probabilities


def print_cross_validation(examples, profile_threshold: float) -> None:
    """The rule alone, and the rule with a gate that never saw the sample, at several thresholds."""
    probabilities = cross_validated_probabilities(examples)
    rows = [("rule alone", [example.rule_output for example in examples])]
    for threshold in sorted({*CROSS_VALIDATED_THRESHOLDS, profile_threshold}):
        mark = " (default)" if threshold == profile_threshold else ""
        rows.append((f"rule + gate >= {threshold:.2f}{mark}",
                     [gated_output(example, p, threshold) for example, p in zip(examples, probabilities)]))
    for name, outputs in rows:
        figures = score(examples, outputs)
        print(f"  {name:<32} accuracy {figures['accuracy']:.4f}  precision {figures['precision']:.4f}  "
              f"changes {figures['changes']}")


def export(model, examples, out_dir: Path, trained_on: str) -> None:
    import sklearn
    from skl2onnx import to_onnx

    features, _ = training_arrays(examples)
    onnx_model = to_onnx(model, features[:1], options={id(model): {"zipmap": False}},
                         target_opset={"": 17, "ai.onnx.ml": 3})
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "model.onnx").write_bytes(onnx_model.SerializeToString())
    card = {"features": list(FEATURES), "trained_on": trained_on,
            "classifier": f"scikit-learn {sklearn.__version__} HistGradientBoostingClassifier(max_iter={TREES}, "
                          f"learning_rate={LEARNING_RATE}, max_leaf_nodes={LEAVES}, min_samples_leaf={MIN_LEAF}, "
                          f"random_state={SEED})"}
    (out_dir / "model.json").write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")


def main() -> None:
    from devsets.sample_runon import MSRVTT
    from devsets.spelling import DEVSET, corpus_statistics, load_devset, rows_in
    from pipelines.config import load_config
    from transforms.spelling import Speller, WordLists

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", default=str(MSRVTT), help="the folder of the raw MSR-VTT annotation zips")
    parser.add_argument("--devset", default=str(DEVSET))
    parser.add_argument("--out", default=str(GATE_DIR))
    parser.add_argument("--cross-validate", action="store_true", help="print leave-one-sample-out figures, write nothing")
    args = parser.parse_args()

    config = load_config("default").spelling
    # The held-out samples (devsets/spelling.py's GROUPS) stay unseen, so that they measure the gate.
    rows = rows_in(load_devset(args.devset), "tuned")
    stats, phrases, clips = corpus_statistics(args.input)
    # The gate learns from the rule's decisions, not from its own.
    speller = Speller(config, WordLists.read(config), stats, phrases, use_gate=False)
    examples = collect_examples(rows, speller, clips)
    candidates = sum(len(example.candidates) for example in examples)
    print(f"{len(rows)} labelled tokens, {sum(e.checked for e in examples)} checked by the gate, {candidates} candidates")
    if args.cross_validate:
        print_cross_validation(examples, config.gate_threshold)
        return
    samples = len({example.sample for example in examples})
    export(fit(examples), examples, Path(args.out),
           f"{Path(args.devset).name}: {len(rows)} tokens of {samples} samples, {candidates} candidates")
    print(f"wrote {args.out}/model.onnx and model.json")


if __name__ == "__main__":
    main()
