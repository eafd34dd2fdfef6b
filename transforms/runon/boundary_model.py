"""Sentence boundaries inside run-on captions, from a trained token classifier.

The `model` rule of step IV. A small transformer encoder (all-MiniLM-L6-v2,
fine-tuned by training/boundary_model.py on the hand-labelled dev set and on
synthetic run-ons of the train split) gives every word of a caption the
probability that a new sentence starts there. Where the spaCy parse rule it
replaced needed a finite verb and a subject (docs/experiments.md), the model
also finds a heading before a sentence ("a fashion show on a stage | a woman
is walking down the runway") and a scene after a scene.

The model is an ONNX file with int8 weights, versioned with the code
(transforms/runon/model/), and runs on onnxruntime: no PyTorch at run time.
Captions are scored in batches of captions of the same length in word pieces,
through the graph rewritten at load time so that each caption's activations are
quantized on their own (transforms/runon/per_row_quantization.py): a caption
gets the same figures, bit for bit, in any batch as alone.
Boundaries fall only between whitespace words, so the pieces joined by one
space always give back the caption. Everything here but `BoundaryModel`
itself is a pure function.
"""
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from transforms.runon.per_row_quantization import per_row_session

MODEL_DIR = Path(__file__).resolve().parent / "model"


@dataclass(frozen=True)
class ModelCard:
    """What transforms/runon/model/model.json says about the model it sits beside."""
    max_tokens: int  # longer captions are cut to this many word pieces (words past it get probability 0)
    trained_on: str  # how the model was made (training/boundary_model.py writes it)


def read_model_card(model_dir) -> ModelCard:
    card = json.loads((Path(model_dir) / "model.json").read_text(encoding="utf-8"))
    return ModelCard(int(card["max_tokens"]), str(card["trained_on"]))


def first_piece_of_each_word(word_ids: list) -> dict:
    """word index -> the position of its first word piece (the one the model labels)."""
    first = {}
    for position, word in enumerate(word_ids):
        if word is not None and word not in first:
            first[word] = position
    return first


def batches_by_length(lengths: list, rows: int) -> list:
    """The indices of `lengths`, in batches of at most `rows` whose lengths are all the same (no padding),
    shortest length first, each batch in the order given."""
    by_length = {}
    for index, length in enumerate(lengths):
        by_length.setdefault(length, []).append(index)
    return [indices[start:start + rows] for _, indices in sorted(by_length.items())
            for start in range(0, len(indices), rows)]


def boundaries_from_probabilities(probabilities: list, threshold: float, min_left: int, min_right: int) -> list:
    """Word indices where a sentence starts: the likeliest first, each at least `min_left` words after the
    caption's start or the boundary before it, and `min_right` before its end or the next boundary."""
    words = len(probabilities)
    chosen = []
    likeliest_first = sorted(range(words), key=lambda word: (-probabilities[word], word))
    for word in likeliest_first:
        if probabilities[word] < threshold:
            break
        if word < min_left or words - word < min_right:
            continue
        if all(word - before >= min_left if word > before else before - word >= min_right for before in chosen):
            chosen.append(word)
    return sorted(chosen)


class BoundaryModel:
    """The ONNX boundary model and its tokenizer, loaded once per worker (DoFn.setup)."""

    # Captions run through the model at once. Per caption, a batch of 16-32 costs 0.6-0.8 times one alone;
    # larger ones lose again (the cache), and one row alone costs 1.2 times the shipped graph's, whose
    # extra nodes the batch pays only once: a lone caption runs through the shipped graph, which gives
    # it the same figures (benchmarks/bench_runon_batches.py).
    BATCH_ROWS = 32
    # Texts whose probabilities a process keeps (some 20 floats each: about 35 MiB when full, as Python
    # lists and keys); past it, it starts again.
    SCORED_TEXTS_KEPT = 50_000

    def __init__(self, model_dir=MODEL_DIR, threads: int = 1):  # threads: Beam runs one DoFn per core already
        import onnxruntime
        from tokenizers import Tokenizer

        model_dir = Path(model_dir)
        for name in ("model.onnx", "tokenizer.json", "model.json"):
            if not (model_dir / name).is_file():
                raise FileNotFoundError(f"run-on boundary model file {model_dir / name} not found "
                                        "(make runon-train writes it)")
        self.card = read_model_card(model_dir)
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        self._alone = onnxruntime.InferenceSession(str(model_dir / "model.onnx"), options,
                                                   providers=["CPUExecutionProvider"])
        self._batched = per_row_session(model_dir / "model.onnx", onnxruntime, threads)
        self._tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self._tokenizer.enable_truncation(self.card.max_tokens)
        self._known = {}  # text -> its probabilities, for the texts scored in this process (SCORED_TEXTS_KEPT)

    def word_probabilities(self, texts: list) -> list:
        """For each text, the probability that a sentence starts at each of its words (0 for the first).

        A text's figures depend on it alone, so a text already scored in this process is not run again
        (scored_once): step IV meets some texts twice (a caption repeated in other videos, a merged
        caption equal to the one it was merged from, the pieces of a merged caption).
        """
        return scored_once(texts, self._known, self.run_model, self.SCORED_TEXTS_KEPT)

    def run_model(self, texts: list) -> list:
        """word_probabilities, every text through the model.

        Texts of the same length in word pieces run together, up to BATCH_ROWS at a time, with no
        padding. Each is quantized on its own (per_row_quantization.py), so its figures are those
        it gets alone through the shipped graph, whatever texts are scored beside it.
        """
        encodings = [self._tokenizer.encode(text.split(), is_pretokenized=True) for text in texts]
        scores = [None] * len(texts)
        for batch in batches_by_length([len(encoding.ids) for encoding in encodings], self.BATCH_ROWS):
            ids = np.array([encodings[index].ids for index in batch], dtype=np.int64)
            session = self._batched if len(batch) > 1 else self._alone
            found = session.run(None, {"input_ids": ids, "attention_mask": np.ones_like(ids)})[0]
            for index, row in zip(batch, found):
                scores[index] = row
        return [word_probabilities_of(len(text.split()), encoding.word_ids, row)
                for text, encoding, row in zip(texts, encodings, scores)]


def scored_once(texts: list, known: dict, score, kept: int) -> list:
    """score(texts), for a `score` whose result for a text depends on that text alone: each distinct text
    not in `known` (text -> its result) is scored once, all in one call in the order first met, and added
    to `known`, which is emptied first when it would pass `kept` texts."""
    new = [text for text in dict.fromkeys(texts) if text not in known]
    found = dict(zip(new, score(new)))
    results = [found[text] if text in found else known[text] for text in texts]
    if len(known) + len(found) > kept:
        known.clear()
    if len(found) <= kept:
        known.update(found)
    return results


# The models this process has loaded, by folder: step IV and each recheck round's step IV load the same
# model, and a worker process runs all of them; loaded once, it costs half a second and ~140 MB once.
_LOADED = {}


def shared_boundary_model(model_dir=MODEL_DIR) -> "BoundaryModel":
    """The BoundaryModel of `model_dir`, loaded once per process. A text's figures depend on it alone,
    so the stages of a worker can share it (and the texts it has scored)."""
    key = str(Path(model_dir).resolve())
    if key not in _LOADED:
        _LOADED[key] = BoundaryModel(model_dir)
    return _LOADED[key]


def word_probabilities_of(words: int, word_ids: list, scores) -> list:
    """The probability of each word from the model's scores of its word pieces (0 for the first word)."""
    probabilities = [0.0] * words
    for word, position in first_piece_of_each_word(word_ids).items():
        if word > 0:
            probabilities[word] = float(scores[position])
    return probabilities
