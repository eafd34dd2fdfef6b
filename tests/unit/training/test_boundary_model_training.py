"""The pure parts of the boundary model's training (training/boundary_model.py); no PyTorch needed."""
import json
import random

from devsets import read_tsv
from devsets.runon import DEVSET
from training.boundary_model import PASSES, SEED, card_text, joined_pair, model_card, passes_in_words, sample_ranges
from transforms.boundary_model import MODEL_DIR


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
    held_out = json.loads(shipped)["kept_out"]  # files outside the repository: only their names are known
    assert card_text(model_card(read_tsv(DEVSET), PASSES, SEED, held_out, MODEL_DIR)) == shipped
