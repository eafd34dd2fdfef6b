"""The pure parts of the boundary model's training (transforms/boundary_model_training.py); no PyTorch needed."""
import random

from transforms.boundary_model_training import joined_pair, marked_boundaries, passes_in_words, sample_ranges


def test_a_marked_caption_gives_its_words_and_boundaries():
    assert marked_boundaries("a man cooks | he adds salt | then he eats") == ("a man cooks he adds salt then he eats", [3, 6])
    assert marked_boundaries("one sentence only") == ("one sentence only", [])


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
