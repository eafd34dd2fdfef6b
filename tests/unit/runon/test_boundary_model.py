"""Step IV's `model` rule: the decoding of its probabilities, and the shipped model itself."""
import itertools
import json

import numpy as np
import pytest

from devsets.runon import load_devset, predict, score
from pipelines.config import load_config
from transforms.runon.boundary_model import (MODEL_DIR, BoundaryModel, batches_by_length, boundaries_from_probabilities,
                                             first_piece_of_each_word, read_model_card, scored_once,
                                             shared_boundary_model, word_probabilities_of)
from transforms.runon.step import load_sentence_finder, model_sentence_finder


def test_boundaries_are_the_words_at_or_over_the_threshold():
    probabilities = [0.0, 0.1, 0.2, 0.9, 0.1, 0.2, 0.7, 0.1, 0.3, 0.0]
    assert boundaries_from_probabilities(probabilities, 0.6, 3, 3) == [3, 6]
    assert boundaries_from_probabilities(probabilities, 0.8, 3, 3) == [3]
    assert boundaries_from_probabilities(probabilities, 0.95, 3, 3) == []


def test_every_piece_keeps_its_minimum_words_and_the_likelier_boundary_wins():
    # Word 2 is too near the start; word 5 is likelier than word 4, and the two are too close together.
    probabilities = [0.0, 0.1, 0.99, 0.1, 0.8, 0.9, 0.1, 0.1]
    assert boundaries_from_probabilities(probabilities, 0.5, 3, 3) == [5]
    # Word 6 would leave fewer than three words after it.
    assert boundaries_from_probabilities([0.0, 0.1, 0.1, 0.1, 0.1, 0.1, 0.9, 0.1], 0.5, 3, 3) == []
    assert boundaries_from_probabilities([0.0, 0.1, 0.1, 0.1, 0.1, 0.1, 0.9, 0.1], 0.5, 3, 2) == [6]


def test_each_word_is_labelled_at_its_first_word_piece():
    # [CLS] a sauce ##pan [SEP]: word 1 ("saucepan") starts at piece 2.
    assert first_piece_of_each_word([None, 0, 1, 1, None]) == {0: 1, 1: 2}


def test_the_model_card_says_how_the_model_was_made(tmp_path):
    (tmp_path / "model.json").write_text(json.dumps({"max_tokens": 64, "trained_on": "samples 1-13"}))
    card = read_model_card(tmp_path)
    assert card.max_tokens == 64 and card.trained_on == "samples 1-13"


def test_a_missing_model_file_is_named(tmp_path):
    with pytest.raises(FileNotFoundError, match="model.onnx"):
        BoundaryModel(tmp_path)


def test_a_process_loads_a_model_folder_once_for_every_stage_that_asks(monkeypatch):
    # Step IV and each recheck round's step IV ask for the model in the same worker process.
    loaded = []

    class Counted:
        def __init__(self, model_dir):
            loaded.append(model_dir)

    monkeypatch.setattr("transforms.runon.boundary_model.BoundaryModel", Counted)
    monkeypatch.setattr("transforms.runon.boundary_model._LOADED", {})
    first = shared_boundary_model(MODEL_DIR)
    assert shared_boundary_model(MODEL_DIR) is first
    assert shared_boundary_model(str(MODEL_DIR / ".." / MODEL_DIR.name)) is first  # the same folder, spelt otherwise
    settings = load_config("default").runon
    load_sentence_finder(settings)
    load_sentence_finder(settings)
    assert loaded == [MODEL_DIR]


def test_batches_hold_texts_of_one_length_at_most_rows_each_shortest_first():
    assert batches_by_length([5, 3, 5, 5, 3, 7], rows=2) == [[1, 4], [0, 2], [3], [5]]
    assert batches_by_length([], rows=64) == []



def counting_length_scorer(calls):
    """A stand-in for the model: each text's result is its length; every call's texts are recorded."""
    def score(texts):
        calls.append(list(texts))
        return [len(text) for text in texts]
    return score


def test_each_distinct_text_is_scored_once_in_one_call_in_the_order_first_met():
    calls, known = [], {}
    assert scored_once(["ab", "c", "ab", "def", "c"], known, counting_length_scorer(calls), kept=10) == [2, 1, 2, 3, 1]
    assert calls == [["ab", "c", "def"]]
    assert known == {"ab": 2, "c": 1, "def": 3}


def test_a_text_scored_before_is_not_scored_again():
    calls, known = [], {"ab": 2}
    assert scored_once(["xyz", "ab"], known, counting_length_scorer(calls), kept=10) == [3, 2]
    assert calls == [["xyz"]]
    assert scored_once(["ab", "xyz"], known, counting_length_scorer(calls), kept=10) == [2, 3]
    assert calls == [["xyz"], []]  # nothing new: the model gets no text


def test_the_texts_kept_start_again_when_they_would_pass_the_bound():
    calls, known = [], {"a": 1, "bb": 2}
    assert scored_once(["bb", "ccc", "dddd"], known, counting_length_scorer(calls), kept=3) == [2, 3, 4]
    assert known == {"ccc": 3, "dddd": 4}  # 2 kept + 2 new > 3: emptied, then the new ones
    assert scored_once(["e", "ff", "ggg", "hhhh"], {}, counting_length_scorer(calls), kept=3) == [1, 2, 3, 4]
    assert calls[-1] == ["e", "ff", "ggg", "hhhh"]  # more new texts than the bound: scored, none kept


@pytest.fixture(scope="module")
def model():
    return BoundaryModel(MODEL_DIR)


# Captions written for the test, in MSR-VTT's manner: many of each length in word pieces.
SUBJECTS = ["a man", "a woman", "a little girl", "a boy", "a dog", "a chef", "a singer", "an old man"]
ACTIONS = ["is cooking food", "is singing a song", "is playing a guitar", "runs very fast", "talks to the camera"]
PLACES = ["in a kitchen", "on a stage", "in the park", "at a party", "on a busy street"]
AFTER = ["", " then a woman walks in", " he is wearing a red hat", " and people are clapping", " she smiles"]


@pytest.fixture(scope="module")
def captions_by_length(model):
    """word-piece length -> 16 captions of that length, for the five lengths with the most."""
    by_length = {}
    for parts in itertools.product(SUBJECTS, ACTIONS, PLACES, AFTER):
        caption = f"{parts[0]} {parts[1]} {parts[2]}{parts[3]}"
        pieces = len(model._tokenizer.encode(caption.split(), is_pretokenized=True).ids)
        by_length.setdefault(pieces, []).append(caption)
    most = sorted(by_length, key=lambda length: -len(by_length[length]))[:5]
    return {length: by_length[length][::3][:16] for length in most}


def alone_with_the_shipped_graph(model, captions, batched=False):
    """Each caption's probabilities from model.onnx as shipped (one scale per input tensor), run alone
    (or all in one batch)."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    session = onnxruntime.InferenceSession(str(MODEL_DIR / "model.onnx"), options, providers=["CPUExecutionProvider"])
    encodings = [model._tokenizer.encode(caption.split(), is_pretokenized=True) for caption in captions]
    batches = [encodings] if batched else [[encoding] for encoding in encodings]
    scores = []
    for batch in batches:
        ids = np.array([encoding.ids for encoding in batch], dtype=np.int64)
        scores += list(session.run(None, {"input_ids": ids, "attention_mask": np.ones_like(ids)})[0])
    return [word_probabilities_of(len(caption.split()), encoding.word_ids, row)
            for caption, encoding, row in zip(captions, encodings, scores)]


def test_a_caption_gets_the_shipped_models_figures_bit_for_bit_in_a_batch_of_its_length_mates(model, captions_by_length):
    assert len(captions_by_length) == 5 and all(len(group) == 16 for group in captions_by_length.values())
    every_caption = [caption for group in captions_by_length.values() for caption in group]
    alone = alone_with_the_shipped_graph(model, every_caption)
    assert model.run_model(every_caption) == alone  # batches of 16, of five lengths
    # In other company (reversed, half of them; in pairs), the same figures again.
    assert model.run_model(every_caption[::-2]) == alone[::-2]
    for group in captions_by_length.values():
        pairs = [model.run_model(group[start:start + 2]) for start in range(0, len(group), 2)]
        assert [found for pair in pairs for found in pair] == alone_with_the_shipped_graph(model, group)


def test_with_one_scale_per_tensor_a_batch_would_change_the_figures(model, captions_by_length):
    # What the rewrite prevents: the shipped graph run on a batch gives some caption other figures.
    group = next(iter(captions_by_length.values()))
    assert alone_with_the_shipped_graph(model, group, batched=True) != alone_with_the_shipped_graph(model, group)


def test_the_shipped_model_gives_one_probability_per_word(model):
    texts = ["a man is cooking in a saucepan he adds salt", "a dog runs"]
    first, second = model.word_probabilities(texts)
    assert len(first) == 10 and len(second) == 3
    assert first[0] == 0.0 and all(0.0 <= p <= 1.0 for p in first)
    assert first[7] == max(first)  # "he" opens the second sentence


def test_a_captions_probabilities_do_not_depend_on_the_captions_beside_it(model):
    caption = "a man is cooking in a saucepan he adds salt"
    others = ["a dog runs", "people are dancing at a party while a band plays loud music on a big stage at night"]
    assert model.run_model([caption]) == model.run_model(others + [caption])[-1:]


def test_a_text_scored_again_gets_the_figures_the_model_gave_it(model):
    texts = ["a woman slices an onion she puts it in a pan", "a boy rides a bike down a long hill in the rain"]
    first = model.word_probabilities(texts + texts[:1])
    assert first[0] == first[2] and first[:2] == model.run_model(texts)
    assert model.word_probabilities(texts[::-1]) == first[1::-1]


@pytest.fixture(scope="module")
def find_with_model(model):
    return model_sentence_finder(model, load_config("default").runon)


def test_the_model_splits_a_run_on_and_leaves_a_long_sentence_whole(find_with_model):
    run_on = "a girl is playing with a doll and baby dolls she is pretending they can talk and has to change their diapers"
    one_sentence = ("a very drunk woman asks a man if he is wearing a wizard hat then tells people to vote for her "
                    "for lobster queen")
    split, whole = find_with_model([run_on, one_sentence])
    assert split == ["a girl is playing with a doll and baby dolls",
                     "she is pretending they can talk and has to change their diapers"]
    assert whole == [one_sentence]


def test_the_model_finds_a_heading_before_a_sentence(find_with_model):
    [pieces] = find_with_model(["a fashion show on a stage a woman is walking down the runway in a red dress"])
    assert pieces == ["a fashion show on a stage", "a woman is walking down the runway in a red dress"]


def test_the_model_keeps_its_figures_on_the_dev_set_it_was_trained_on(find_with_model):
    """A regression floor, not an estimate: the model learnt from these captions (README, step IV)."""
    learnt_from = json.loads((MODEL_DIR / "model.json").read_text(encoding="utf-8"))["samples"]
    rows = load_devset(sample=tuple(map(str, learnt_from)))
    figures = score(rows, predict(find_with_model, [text for text, _ in rows]))
    assert figures["f1"] >= 0.90 and figures["false_split_rate"] <= 0.005
