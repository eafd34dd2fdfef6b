import statistics

import pytest

from pipelines.config import ConfigError, config_from_dict, load_config
from transforms.lineage import EditRow, RemovedRow, RunonRow
from transforms.batch import Caption, VideoBatch
from transforms.runon.prefilter import Scoring, caption_scoring, split_at
from transforms.runon.step import (NewIdError, RunonSettings, SplitPolicies, add_moments, apply_policy, cut_by_runon,
                                   length_moments, max_sen_id, merge_sentences, merge_until_stable, new_sen_id,
                                   split_sentences, split_sentences_of_videos, truncate_caption, truncate_long_captions,
                                   word_limit)


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
    assert train.edits == [EditRow(0, "video1", "runon", "truncate>3", "a b c d e", "a b c", word_limit=3)]
    test = truncate_long_captions(batch("test", "a b c d e"), 3, ("train", "validate"))
    assert [c.text for c in test.captions] == ["a b c d e"] and test.edits == []


def split_batch(split="train"):
    return VideoBatch("video1", split, 0, [Caption(3, "a b c d e f"), Caption(7, "g h i")])


SPLIT = [["a b c", "d e", "f"], ["g h i"]]


def test_policy_first_keeps_the_first_sentence_and_records_the_rest():
    result = apply_policy(split_batch(), SPLIT, "first", detector="model")
    assert [(c.sen_id, c.text) for c in result.captions] == [(3, "a b c"), (7, "g h i")]
    assert result.edits == [EditRow(3, "video1", "runon", "model:first", "a b c d e f", "a b c")]
    # No scoring given (sentences found by hand): why and at what threshold are unknown.
    assert result.runon == [RunonRow(3, "video1", "train", ("a b c", "d e", "f"), "first",
                                     "kept the first of 3 sentences", (), rule="model")]


def test_policy_separate_makes_one_caption_per_sentence_with_new_ids():
    result = apply_policy(split_batch(), SPLIT, "separate", id_stride=100, detector="model")
    assert [(c.sen_id, c.text) for c in result.captions] == [(3, "a b c"), (7, "g h i"), (103, "d e"), (203, "f")]
    assert result.runon[0].new_sen_ids == (103, 203)
    assert result.runon[0].action == "made 3 captions"


def test_policy_whole_changes_no_caption():
    result = apply_policy(split_batch(), SPLIT, "whole", detector="model")
    assert result.captions == split_batch().captions and result.edits == []
    assert result.runon[0].sentences == ("a b c", "d e", "f") and result.runon[0].new_sen_ids == ()


def test_new_ids_are_above_every_input_id_and_never_collide():
    inputs = range(0, 50)
    stride = max(inputs) + 1
    made = [new_sen_id(sen_id, piece, stride) for sen_id in inputs for piece in (1, 2, 3)]
    assert len(set(made)) == len(made)
    assert min(made) > max(inputs)


def test_max_sen_id_counts_removed_captions_too():
    video = VideoBatch("video1", "train", 0, [Caption(3, "a b")],
                       removed=[RemovedRow(9, "video1", "train", "a", "dedup", "near-duplicate", 3),
                                RemovedRow(None, "video1", "train", None, "read", "sen_id is not an integer")])
    assert max_sen_id(video) == 9


def test_config_rejects_an_unknown_policy_or_rule():
    with pytest.raises(ConfigError, match="runon.policy"):
        config_from_dict({"runon": {"rule": "model", "policy": "both"}})
    with pytest.raises(ConfigError, match="runon.rule"):
        config_from_dict({"runon": {"rule": "split"}})


def test_profiles_keep_truncate_for_paper_and_the_model_for_default():
    assert load_config("paper").runon.rule == "truncate"
    default = load_config("default").runon
    assert default.rule == "model"
    assert [default.policy.for_split(split) for split in ("train", "validate", "test")] == ["merge"] * 3


def test_merge_joins_the_sentences_with_and_and_keeps_every_word_in_order():
    assert merge_sentences(["a person reads a note in a room", "then a child walks by"]) == \
        "a person reads a note in a room and then a child walks by"
    assert merge_sentences(["a man cooks", "he adds salt", "a dog barks"]) == "a man cooks and he adds salt and a dog barks"
    # a sentence that already opens (or a piece that already ends) with "and" gets no second one
    assert merge_sentences(["a man cooks", "and he adds salt"]) == "a man cooks and he adds salt"
    assert merge_sentences(["a man cooks and", "he adds salt"]) == "a man cooks and he adds salt"


def test_policy_merge_makes_one_caption_records_the_sentences_and_the_edit():
    result = apply_policy(split_batch("test"), SPLIT, "merge", detector="model")
    assert [(c.sen_id, c.text) for c in result.captions] == [(3, "a b c and d e and f"), (7, "g h i")]
    assert result.edits == [EditRow(3, "video1", "runon", "model:merge", "a b c d e f", "a b c and d e and f")]
    assert result.runon == [RunonRow(3, "video1", "test", ("a b c", "d e", "f"), "merge",
                                     "merged 3 sentences into one", (), rule="model")]
    assert not cut_by_runon(result)  # no word left the caption, so step III need not look again
    assert cut_by_runon(apply_policy(split_batch("test"), SPLIT, "first", detector="model"))


def test_the_policy_is_chosen_per_split():
    settings = RunonSettings(rule="model", policy={"train": "first", "validate": "first", "test": "merge"},
                             splits=("train", "validate", "test"))
    find = lambda texts: [SPLIT[0] if text == "a b c d e f" else [text] for text in texts]  # noqa: E731
    assert split_sentences(split_batch("train"), find, settings).captions[0].text == "a b c"
    assert split_sentences(split_batch("test"), find, settings).captions[0].text == "a b c and d e and f"


def test_merge_searches_the_merged_caption_again_until_it_shows_no_new_boundary():
    # A stand-in model: a boundary before "b", and before "he" only once an "and" stands somewhere
    # before it, so the first merge shows a boundary the caption hid.
    def find(texts):
        found = []
        for text in texts:
            words = text.split()
            starts = [i for i, word in enumerate(words) if word == "b" or (word == "he" and "and" in words[:i])]
            found.append(split_at(text, starts))
        return found

    text = "a x b c he d"
    [sentences] = merge_until_stable([text], find([text]), find)
    assert sentences == ["a x", "b c", "he d"]  # the words of the caption, cut at both boundaries
    assert merge_sentences(sentences) == "a x and b c and he d"
    # the merged caption, found and merged again, is itself: cleaning it again changes nothing
    merged = merge_sentences(sentences)
    assert merge_sentences(merge_until_stable([merged], find([merged]), find)[0]) == merged


def test_a_merge_that_adds_no_word_records_nothing():
    video = VideoBatch("video1", "test", 0, [Caption(3, "a b c and d e f")])
    result = apply_policy(video, [["a b c and", "d e f"]], "merge", detector="model")
    assert result.captions == video.captions and result.edits == [] and result.runon == []


def test_split_policies_read_a_name_a_mapping_or_the_flag_form():
    assert SplitPolicies.from_config("p", "merge").for_split("train") == "merge"
    flag = SplitPolicies.from_config("p", "train=first,test=merge")
    assert (flag.for_split("train"), flag.for_split("test"), flag.for_split("validate")) == ("first", "merge", "")
    assert str(flag) == "train=first,test=merge" and flag.uses("merge") and not flag.uses("separate")
    with pytest.raises(ConfigError, match="runon.policy must be one of first, separate, whole, merge, not 'join'"):
        config_from_dict({"runon": {"rule": "model", "policy": {"test": "join"}}})
    with pytest.raises(ConfigError, match="runon.policy names no policy for the split 'validate'"):
        config_from_dict({"runon": {"rule": "model", "policy": {"train": "first", "test": "merge"},
                                    "splits": ["train", "validate", "test"]}})


def test_separate_refuses_ids_that_could_collide_or_overflow_and_names_the_caption():
    with pytest.raises(NewIdError, match="sen_id -5: the runon policy `separate` needs sen_ids of 0 or more"):
        new_sen_id(-5, 1, 11)
    largest = 2**63 - 1
    assert new_sen_id(0, 1, largest) == largest
    with pytest.raises(NewIdError, match="sen_id 3: the id of its sentence 2 .* would not fit in 64 bits"):
        new_sen_id(3, 1, largest)


# A caption the pre-filter scores for a word cue ("he is" after a clause), and one it scores for its length only.
CUE = "a cat is afraid of an stuffed animal he is trying to figure it out"  # 15 words
LONG_ONLY = "a man is playing a guitar on a stage in a park with his friends"  # 15 words, no cue
SCORED = RunonSettings(rule="model", always_parse_words=15, model_threshold=0.6, length_only_threshold=0.9,
                       splits=("train",))


def test_the_scoring_of_a_caption_is_why_the_model_scores_it_and_at_what_threshold():
    scoring = caption_scoring(SCORED, finite_verbs=frozenset({"is"}))
    assert scoring(CUE) == Scoring("word cue", 0.6)
    assert scoring(LONG_ONLY) == Scoring("length only", 0.9)
    assert scoring("a cat is afraid") is None  # too short to be scored


def test_a_split_captions_row_says_which_rule_split_it_why_it_was_scored_and_at_what_threshold():
    video = VideoBatch("video1", "train", 0, [Caption(1, CUE), Caption(2, LONG_ONLY), Caption(3, "a dog barks")])
    halves = lambda texts: [split_at(text, [7]) if len(text.split()) > 7 else [text] for text in texts]  # noqa: E731
    done = split_sentences(video, halves, SCORED, scoring=caption_scoring(SCORED, finite_verbs=frozenset({"is"})))
    facts = [(row.sen_id, row.rule, row.scored_for, row.threshold) for row in done.runon]
    assert facts == [(1, "model", "word cue", 0.6), (2, "model", "length only", 0.9)]


class ProbabilityOfEveryWord:
    """A stand-in boundary model: every word of a caption gets the probability its caption is given."""

    def __init__(self, probability_of):
        self.probability_of = probability_of

    def word_probabilities(self, texts):
        return [[self.probability_of[text]] * len(text.split()) for text in texts]


def test_a_caption_scored_for_its_length_only_is_cut_at_its_own_threshold():
    from dataclasses import replace

    from transforms.runon.step import model_sentence_finder
    cue = "a cat is afraid of an stuffed animal he is trying to figure it out"  # a word cue, 15 words
    long_only = "a man is playing a guitar on a stage in a park with his friends"  # no cue, 15 words
    model = ProbabilityOfEveryWord({cue: 0.7, long_only: 0.7})
    settings = replace(load_config("default").runon, always_parse_words=15, model_threshold=0.6,
                       length_only_threshold=0.9, min_left_words=7, min_right_words=7)
    found = model_sentence_finder(model, settings, finite_verbs=frozenset({"is"}))([cue, long_only])
    assert len(found[0]) == 2 and found[1] == [long_only]
    lower = replace(settings, length_only_threshold=0.65)
    assert len(model_sentence_finder(model, lower, finite_verbs=frozenset({"is"}))([long_only])[0]) == 2


def test_videos_split_together_get_what_each_gets_alone_under_each_splits_policy():
    settings = RunonSettings(rule="model", policy={"train": "first", "validate": "separate", "test": "merge"},
                             splits=("train", "validate", "test"))
    halves = lambda texts: [split_at(text, [3]) if len(text.split()) > 5 else [text] for text in texts]  # noqa: E731
    videos = [VideoBatch("video1", "train", 0, [Caption(1, "a b c d e f"), Caption(2, "g h")]),
              VideoBatch("video2", "test", 1, [Caption(5, "a b c d e f g")]),
              VideoBatch("video3", "unknown", 2, [Caption(6, "a b c d e f")]),
              VideoBatch("video4", "validate", 3, [Caption(8, "s t u v w x"), Caption(9, "y z")])]
    together = split_sentences_of_videos(videos, halves, settings, id_stride=10)
    assert together == [split_sentences(video, halves, settings, id_stride=10) for video in videos]
    assert [c.text for c in together[1].captions] == ["a b c and d e f g"]
    assert [(c.sen_id, c.text) for c in together[3].captions] == [(8, "s t u"), (9, "y z"), (18, "v w x")]
    assert together[2] is videos[2]  # a split step IV does not clean is left as it is


def test_every_text_is_found_in_one_call_for_the_videos_of_one_policy():
    calls = []

    def whole(texts):
        calls.append(list(texts))
        return [[text] for text in texts]

    videos = [batch("train", "a b", "c d"), batch("train", "e f"), batch("test", "g h")]
    split_sentences_of_videos(videos, whole, RunonSettings(rule="model", policy="first"))
    assert calls == [["a b", "c d", "e f"]]  # test is not among the default splits
