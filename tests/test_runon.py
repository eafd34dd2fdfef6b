import statistics

from transforms.lineage import EditRow
from transforms.batch import Caption, VideoBatch
from transforms.runon import add_moments, length_moments, truncate_caption, truncate_long_captions, word_limit


def batch(split, *texts):
    return VideoBatch("video1", split, 0, [Caption(i, text) for i, text in enumerate(texts)])


def test_word_limit_is_floor_of_mean_plus_k_population_std():
    lengths = [3, 5, 8, 13, 2, 40]
    texts = [" ".join(["w"] * n) for n in lengths]
    moments = add_moments([length_moments(batch("train", *texts[:3])), length_moments(batch("test", *texts[3:]))])
    expected = statistics.mean(lengths) + 2 * statistics.pstdev(lengths)
    assert word_limit(moments, 2.0) == int(expected)
    assert word_limit((0, 0, 0), 2.0) == 0


def test_truncate_cuts_to_the_first_words():
    assert truncate_caption("a b c d e", 3) == "a b c"
    assert truncate_caption("a b c", 3) == "a b c"


def test_only_the_named_splits_are_truncated_and_edits_say_so():
    train = truncate_long_captions(batch("train", "a b c d e", "a b"), 3, ("train", "validate"))
    assert [c.text for c in train.captions] == ["a b c", "a b"]
    assert train.edits == [EditRow(0, "video1", "runon", "truncate>3", "a b c d e", "a b c")]
    test = truncate_long_captions(batch("test", "a b c d e"), 3, ("train", "validate"))
    assert [c.text for c in test.captions] == ["a b c d e"] and test.edits == []
