"""transforms/da/degrade.py: the span table (Graham's scripts' by default, configurable), and the degraded copy:
first and last word kept, a span as long as the table says, words from a caption of another video, less like
the video's other captions than its original (capclean relevance's bow proxy), the same record from the same
seed, and no copy when no draw does damage."""
import random

import pytest

from transforms.da.degrade import (BOW_SIMILARITY, GRAHAM_SPANS, DonorPool, SpanRule, SpanTable, degradable, degrade,
                                   item_seed, parse_span_table)
from transforms.errors import CapcleanError, ConfigError
from transforms.evaluation.relevance import RelevanceReading, relevance_matrix, set_iou, words_in_share

# Graham's bad-refs.py: 3 -> 1, 4 -> 2, 5 -> 2, 6-7 -> 3, 8-14 -> 4, 15-19 -> 5, 20+ -> int(n / 4).
EXPECTED_SPANS = {3: 1, 4: 2, 5: 2, 6: 3, 7: 3, 8: 4, 14: 4, 15: 5, 19: 5, 20: 5, 23: 5, 24: 6, 27: 6, 40: 10}

DONORS = [("video20", 20, "a red car drives along the wet road at night"), ("video21", 21, "two cats sleep"),
          ("video22", 22, "children play football in a big green park near a school"), ("video23", 23, "music"),
          ("video24", 24, "someone is slicing onions with a sharp knife")]
# The other human captions of video1, whose captions are degraded below: its words (spaCy's stop words out,
# in at least 10% of them, so in either) are {man, dog, playing, park, singing, stage}.
VIDEO1 = [("video1", 1, "a man and his dog playing in the park"), ("video1", 2, "a man is singing on stage")]


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
    # video1's words: {man, dog, playing, park, singing, stage}; "a dog barks": {dog, barks}, 1/7. "a kitten
    # barks": {kitten, barks}, 0: the one draw there is, and it falls.
    record = degrade("a dog barks", "video1", 7, DonorPool(VIDEO1 + [("video2", 9, "kitten")]), seed=5)
    assert record.degraded == "a kitten barks"
    assert (record.span_start, record.span_length) == (1, 1)
    assert (record.donor_caption, record.donor_video_id) == ("kitten", "video2")
    assert (record.sen_id, record.original, record.seed) == (7, "a dog barks", 5)


def test_a_four_word_caption_loses_its_middle_two():
    pool = DonorPool(VIDEO1 + [("video2", 9, "red ball")])
    record = degrade("a man plays guitar", "video1", None, pool, seed=1)
    assert record.degraded == "a red ball guitar" and record.span_start == 1 and record.sen_id is None


def test_the_donor_is_never_of_the_captions_own_video():
    pool = DonorPool(VIDEO1 + [("video1", 3, "the very same video says this"),
                               ("video2", 9, "another video says that")])
    donors = {degrade("a man is singing a song", "video1", 3, pool, seed).donor_video_id for seed in range(50)}
    assert donors == {"video2"}


def test_a_span_of_stop_words_replaced_by_stop_words_is_never_chosen():
    """"a dog is in the park" (6 words: 3 replaced, from word 1 or 2) against video1's words: {dog, park}
    shared, 2/6. The only donor is stop words: "is in the" -> stop words changes no word of the set (a tie),
    so every copy takes its span from word 1 and loses "dog" (1/6)."""
    pool = DonorPool(VIDEO1 + [("video2", 9, "it is on the")])
    records = [degrade("a dog is in the park", "video1", 3, pool, seed) for seed in range(40)]
    assert {record.span_start for record in records} == {1}
    assert {record.degraded for record in records} == {"a it is on the park", "a is on the the park"}


def test_the_donor_brings_a_word_the_video_does_not_have():
    """"dog is in the park" (5 words: 2 replaced, "is in" or "in the": stop words) shares {dog, park} with
    video1 (2/6). Stop words in their place change nothing; "playing singing" brings two of the video's words
    (4/6, higher); "red ball" brings two it lacks (2/8): the only donor that does damage."""
    pool = DonorPool(VIDEO1 + [("video2", 9, "it is"), ("video3", 10, "playing singing"),
                               ("video4", 11, "red ball")])
    records = [degrade("dog is in the park", "video1", 3, pool, seed) for seed in range(40)]
    assert {record.donor_video_id for record in records} == {"video4"}
    assert {record.degraded for record in records} == {"dog red ball the park", "dog is red ball park"}


def test_every_copy_is_less_like_its_video_than_its_original():
    pool = DonorPool(VIDEO1 + DONORS)
    video_words = BOW_SIMILARITY.video_words([text for _, _, text in VIDEO1])
    assert video_words == {"man", "dog", "playing", "park", "singing", "stage"}
    for seed in range(100):
        record = degrade("a man is playing a guitar on a big stage tonight", "video1", 3, pool, seed)
        before = BOW_SIMILARITY.similarity(record.original, video_words)
        # {man, playing, stage} shared, of 9 words in all
        assert BOW_SIMILARITY.similarity(record.degraded, video_words) < before == 3 / 9


def test_a_caption_with_nothing_to_lose_gets_no_copy():
    pool = DonorPool(VIDEO1 + DONORS + [("video2", 9, "on the street")])
    # Nothing shared with video1's captions: a similarity of 0 cannot fall.
    assert degrade("two cats sleep on a sofa together", "video1", 3, pool, 0) is None
    # "man" is shared but kept as the first word, and the middle holds no stop word: two content words out,
    # at most two in, the set never grows and never loses "man", so the IoU never falls (1/10 -> 1/10 or more).
    assert degrade("man dance wearing ancient clothing", "video1", 3, pool, 0) is None
    # A video with no other human caption has no words to lose.
    assert degrade("a man is singing on stage", "video9", None, pool, 0) is None


def test_the_video_s_other_captions_leave_the_captions_own_out():
    pool = DonorPool(VIDEO1 + [("video2", 9, "red ball")])
    assert pool.others("video1", 2) == ["a man and his dog playing in the park"]
    assert pool.others("video1", None) == [text for _, _, text in VIDEO1]
    assert pool.others("video5", 1) == []


def test_the_similarity_is_the_relevance_commands_bow_proxy():
    """BowSimilarity on sets and transforms/evaluation/relevance.py's sparse bow proxy (split tokens) agree."""
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Caption:
        sen_id: int
        video_id: str
        caption: str

    others = [Caption(sen_id, video, text) for video, sen_id, text in VIDEO1]
    probes = ["a man is singing a song", "the dog runs in a park", "two cats sleep", "a man and a dog play"]
    relevance = relevance_matrix(others + [Caption(-n, f"probe{n}", text) for n, text in enumerate(probes, 1)],
                                 "bow", RelevanceReading(tokens="split"))
    video_words = BOW_SIMILARITY.video_words([text for _, _, text in VIDEO1])
    for column, text in enumerate(probes, len(others)):
        assert BOW_SIMILARITY.similarity(text, video_words) == pytest.approx(relevance.matrix[0, column])


def test_words_in_share_and_set_iou_worked_by_hand():
    sets = [{"a", "b"}, {"a"}, {"a", "c"}, {"d"}]
    assert words_in_share(sets, 0.5) == {"a"}  # in 3 of 4; b, c, d in 1
    assert words_in_share(sets, 0.25) == {"a", "b", "c", "d"}
    assert words_in_share([{"x"}] * 3 + [set()] * 27, 0.1) == {"x"}  # 3 of 30 is 10%, floating point aside
    assert set_iou(frozenset("ab"), frozenset("bc")) == 1 / 3 and set_iou(frozenset(), frozenset("a")) == 0


def test_no_donor_long_enough_is_one_line():
    with pytest.raises(CapcleanError, match="has 4 words or more"):
        degrade("a man is playing a guitar on a stage", "video1", 1, DonorPool(VIDEO1 + [("video2", 9, "a cat")]), 0)


def test_every_degraded_caption_keeps_its_ends_follows_the_table_and_borrows_a_run_of_donor_words():
    pool = DonorPool(VIDEO1 + DONORS)
    rng = random.Random(3)
    vocabulary = "a man woman is playing with the dog in park on stage while singing loudly".split()
    made = 0
    for case in range(400):
        words = [rng.choice(vocabulary) for _ in range(rng.randint(3, 12))]
        original = " ".join(words)
        record = degrade(original, "video1", 3, pool, item_seed(9, str(case)))
        if record is None:
            continue
        made += 1
        out = record.degraded.split()
        start, length = record.span_start, record.span_length
        assert length == GRAHAM_SPANS.span_length(len(words))
        assert 1 <= start and start + length <= len(words) - 1  # the first and the last word kept
        assert len(out) == len(words) and out[0] == words[0] and out[-1] == words[-1]
        assert out[:start] == words[:start] and out[start + length:] == words[start + length:]
        put_in, donor = out[start:start + length], record.donor_caption.split()
        assert any(donor[at:at + length] == put_in for at in range(len(donor) - length + 1))
        assert (record.donor_video_id, record.donor_caption) in {(video, text) for video, _, text in DONORS}
        assert [word.lower() for word in put_in] != [word.lower() for word in words[start:start + length]]
    assert made > 300


def test_the_same_seed_gives_the_same_record_and_another_seed_another():
    pool = DonorPool(VIDEO1 + DONORS)
    caption = "a man is playing a guitar on a big stage tonight"
    again = DonorPool(reversed(VIDEO1 + DONORS))
    assert degrade(caption, "video1", 3, pool, 42) == degrade(caption, "video1", 3, again, 42)
    assert len({degrade(caption, "video1", 3, pool, seed).degraded for seed in range(20)}) > 5


def test_item_seeds_depend_on_the_seed_and_the_key_only():
    assert item_seed(0, "raw:1") == item_seed(0, "raw:1")
    assert len({item_seed(0, "raw:1"), item_seed(1, "raw:1"), item_seed(0, "raw:2")}) == 3
    assert 0 <= item_seed(123, "x") < 2 ** 63
