"""transforms/da/degrade.py: the span table (Graham's scripts' by default, configurable), and the degraded copy:
first and last word kept, a span as long as the table says, words from a caption of another video, the same
record from the same seed."""
import random

import pytest

from transforms.da.degrade import (GRAHAM_SPANS, DonorPool, SpanRule, SpanTable, degradable, degrade, item_seed,
                                   parse_span_table)
from transforms.errors import CapcleanError, ConfigError

# Graham's bad-refs.py: 3 -> 1, 4 -> 2, 5 -> 2, 6-7 -> 3, 8-14 -> 4, 15-19 -> 5, 20+ -> int(n / 4).
EXPECTED_SPANS = {3: 1, 4: 2, 5: 2, 6: 3, 7: 3, 8: 4, 14: 4, 15: 5, 19: 5, 20: 5, 23: 5, 24: 6, 27: 6, 40: 10}

DONORS = [("video20", "a red car drives along the wet road at night"), ("video21", "two cats sleep"),
          ("video22", "children play football in a big green park near a school"), ("video23", "music"),
          ("video24", "someone is slicing onions with a sharp knife")]


def test_the_default_table_is_grahams():
    assert {words: GRAHAM_SPANS.span_length(words) for words in EXPECTED_SPANS} == EXPECTED_SPANS
    assert GRAHAM_SPANS.describe() == "3:1,4:2,5:2,6-7:3,8-14:4,15-19:5,20+:25%"
    assert parse_span_table(GRAHAM_SPANS.describe()) == GRAHAM_SPANS


def test_one_and_two_word_captions_are_not_degradable():
    assert not degradable("music") and not degradable("a dog")
    assert degradable("a dog barks")
    with pytest.raises(CapcleanError, match="too short"):
        GRAHAM_SPANS.span_length(2)


@pytest.mark.parametrize("text, problem", [
    ("3:1,5:2,6+:3", "without gap"),  # 4 is missing
    ("3:1,4-6:2", "open-ended"),
    ("3:2,4+:1", "leaves no first and last word"),  # 2 of 3 words
    ("3:1,4+:100%", "between 0 and 1"),
    ("2:1,3+:1", "fewer than 3 words"),
    ("3:1,4+:0", "replaces no word"),
    ("3 words:1", "is not WORDS:SPAN"),
])
def test_a_bad_table_is_refused_naming_the_problem(text, problem):
    with pytest.raises(ConfigError, match=problem):
        parse_span_table(text)


def test_a_table_of_ones_own():
    table = parse_span_table("3-9:1,10+:50%")
    assert [table.span_length(words) for words in (3, 9, 10, 11, 30)] == [1, 1, 5, 5, 15]
    assert table == SpanTable((SpanRule(3, 9, 1), SpanRule(10, None, None, 0.5)))


def test_a_three_word_caption_loses_its_middle_word():
    record = degrade("a dog barks", "video1", 7, DonorPool([("video2", "kitten")]), seed=5)
    assert record.degraded == "a kitten barks"
    assert (record.span_start, record.span_length) == (1, 1)
    assert (record.donor_caption, record.donor_video_id) == ("kitten", "video2")
    assert (record.sen_id, record.original, record.seed) == (7, "a dog barks", 5)


def test_a_four_word_caption_loses_its_middle_two():
    record = degrade("a man plays guitar", "video1", None, DonorPool([("video2", "red ball")]), seed=1)
    assert record.degraded == "a red ball guitar" and record.span_start == 1 and record.sen_id is None


def test_the_donor_is_never_of_the_captions_own_video():
    pool = DonorPool([("video1", "the very same video says this"), ("video2", "another video says that")])
    donors = {degrade("a man is singing a song", "video1", 1, pool, seed).donor_video_id for seed in range(50)}
    assert donors == {"video2"}


def test_words_equal_to_the_span_are_drawn_again():
    pool = DonorPool([("video2", "man"), ("video3", "dog")])
    assert {degrade("a man sings", "video1", 1, pool, seed).degraded for seed in range(30)} == {"a dog sings"}
    with pytest.raises(CapcleanError, match="same words"):
        degrade("a man sings", "video1", 1, DonorPool([("video2", "MAN")]), 3)


def test_no_donor_long_enough_is_one_line():
    with pytest.raises(CapcleanError, match="has 4 words or more"):
        degrade("a man is playing a guitar on a stage", "video1", 1, DonorPool([("video2", "a cat")]), 0)


def test_every_degraded_caption_keeps_its_ends_follows_the_table_and_borrows_a_run_of_donor_words():
    pool = DonorPool(DONORS)
    rng = random.Random(3)
    vocabulary = "a man woman is playing with the dog in park on stage while singing loudly".split()
    for case in range(400):
        words = [rng.choice(vocabulary) for _ in range(rng.randint(3, 12))]
        original = " ".join(words)
        record = degrade(original, "video1", case, pool, item_seed(9, str(case)))
        out = record.degraded.split()
        start, length = record.span_start, record.span_length
        assert length == GRAHAM_SPANS.span_length(len(words))
        assert 1 <= start and start + length <= len(words) - 1  # the first and the last word kept
        assert len(out) == len(words) and out[0] == words[0] and out[-1] == words[-1]
        assert out[:start] == words[:start] and out[start + length:] == words[start + length:]
        put_in, donor = out[start:start + length], record.donor_caption.split()
        assert any(donor[at:at + length] == put_in for at in range(len(donor) - length + 1))
        assert record.donor_video_id != "video1" and (record.donor_video_id, record.donor_caption) in DONORS
        assert [word.lower() for word in put_in] != [word.lower() for word in words[start:start + length]]


def test_the_same_seed_gives_the_same_record_and_another_seed_another():
    pool = DonorPool(DONORS)
    caption = "a man is playing a guitar on a big stage tonight"
    assert degrade(caption, "video1", 1, pool, 42) == degrade(caption, "video1", 1, DonorPool(reversed(DONORS)), 42)
    assert len({degrade(caption, "video1", 1, pool, seed).degraded for seed in range(20)}) > 5


def test_item_seeds_depend_on_the_seed_and_the_key_only():
    assert item_seed(0, "raw:1") == item_seed(0, "raw:1")
    assert len({item_seed(0, "raw:1"), item_seed(1, "raw:1"), item_seed(0, "raw:2")}) == 3
    assert 0 <= item_seed(123, "x") < 2 ** 63
