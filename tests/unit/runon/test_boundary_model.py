"""Step IV's `model` rule: the decoding of its probabilities, and the shipped model itself."""
import json

import pytest

from devsets.runon import load_devset, predict, score
from pipelines.config import load_config
from transforms.runon.boundary_model import (MODEL_DIR, BoundaryModel, boundaries_from_probabilities,
                                       first_piece_of_each_word, read_model_card)
from transforms.runon.step import model_sentence_finder


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


@pytest.fixture(scope="module")
def model():
    return BoundaryModel(MODEL_DIR)


def test_the_shipped_model_gives_one_probability_per_word(model):
    texts = ["a man is cooking in a saucepan he adds salt", "a dog runs"]
    first, second = model.word_probabilities(texts)
    assert len(first) == 10 and len(second) == 3
    assert first[0] == 0.0 and all(0.0 <= p <= 1.0 for p in first)
    assert first[7] == max(first)  # "he" opens the second sentence


def test_a_captions_probabilities_do_not_depend_on_the_captions_beside_it(model):
    caption = "a man is cooking in a saucepan he adds salt"
    others = ["a dog runs", "people are dancing at a party while a band plays loud music on a big stage at night"]
    assert model.word_probabilities([caption]) == model.word_probabilities(others + [caption])[-1:]


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
