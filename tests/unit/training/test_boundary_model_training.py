"""The pure parts of the boundary model's training (training/boundary_model.py); no PyTorch needed."""
import json
import random

from training.boundary_model import (PASSES, SEED, card_text, joined_pair, labelled_rows, model_card, passes_in_words,
                                     sample_ranges)
from transforms.runon.boundary_model import MODEL_DIR


def test_the_model_card_names_the_samples_as_ranges_with_the_held_out_gap():
    assert sample_ranges({*range(1, 14), *range(18, 24)}) == "1-13, 18-23"
    assert sample_ranges([4]) == "4"
    assert sample_ranges([3, 1]) == "1, 3"


def test_passes_are_said_in_words():
    assert passes_in_words(1) == "one pass"
    assert passes_in_words(2) == "2 passes"


def test_a_joined_pair_marks_its_boundary_where_the_second_caption_starts():
    for seed in range(20):
        text, boundaries = joined_pair("a man is cooking", "a man adds salt", random.Random(seed))
        words = text.split()
        assert boundaries == [4] and words[:4] == ["a", "man", "is", "cooking"]
        assert " ".join(words[4:]) in ("a man adds salt", "he adds salt", "then a man adds salt", "then he adds salt")


def test_the_shipped_card_is_the_one_the_training_writes_for_the_shipped_files():
    """`make runon-train` with the shipped settings writes this card beside these files, byte for byte: if
    the dev set changes, the model is trained again (or the card would name samples it never learnt from)."""
    shipped = (MODEL_DIR / "model.json").read_text(encoding="utf-8")
    card = json.loads(shipped)
    held_out = card["kept_out"]  # files outside the repository: only their names are known
    kept_out_samples = card.get("kept_out_samples", [])
    over12 = "runon_dev_over12.tsv" in card["trained_on"]
    dev = labelled_rows(over12, kept_out_samples)
    assert card_text(model_card(dev, PASSES, SEED, held_out, MODEL_DIR, kept_out_samples)) == shipped


def test_over12_training_learns_from_both_dev_sets_less_the_samples_kept_out():
    both = labelled_rows(over12=True, kept_out_samples=(53,))
    assert set(both) == {"runon_dev.tsv", "runon_dev_over12.tsv"}
    over12_samples = {int(row["sample"]) for row in both["runon_dev_over12.tsv"]}
    assert 53 not in over12_samples and {50, 54} <= over12_samples
    assert set(labelled_rows()) == {"runon_dev.tsv"}


def test_the_card_names_each_dev_set_file_and_the_samples_kept_out(tmp_path):
    for name in ("model.onnx", "tokenizer.json"):
        (tmp_path / name).write_bytes(b"x")
    dev = {"runon_dev.tsv": [{"sample": "1"}, {"sample": "2"}], "runon_dev_over12.tsv": [{"sample": "50"}]}
    card = model_card(dev, 2, 7, [], tmp_path, kept_out_samples=(53,))
    assert "runon_dev.tsv samples 1-2 (2 captions) and runon_dev_over12.tsv samples 50 (1 captions) x 4" in card["trained_on"]
    assert card["samples"] == [1, 2, 50] and card["kept_out_samples"] == [53]
    assert "kept_out_samples" not in model_card(dev, 2, 7, [], tmp_path)
