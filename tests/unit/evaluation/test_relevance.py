"""Relevance of hand-tagged captions, checked against IoUs computed by hand: word sets and stop
words, the 25% rule, IoU as sparse algebra, the part-of-speech weights, own captions = 1, the
caption-wise readings, chunking, and Lesk's synsets on the installed WordNet."""
from dataclasses import replace

import numpy as np
import pytest

from transforms.errors import ConfigError
from transforms.evaluation.pos import TaggedCaption
from transforms.evaluation.relevance import (DEFAULT_PARTS, Part, RelevanceReading, SynsetFinder, bow_words,
                                             caption_sets, incidence, iou, mean_set_sizes, relevance_matrix,
                                             stop_words, video_sets_by_threshold)

# spaCy's universal tags for the words of the fixtures (what en_core_web_sm gives them).
TAGS = {"a": "DET", "the": "DET", "is": "AUX", "are": "AUX", "in": "ADP", "on": "ADP", "and": "CCONJ",
        "man": "NOUN", "woman": "NOUN", "car": "NOUN", "road": "NOUN", "dog": "NOUN", "dogs": "NOUN",
        "ball": "NOUN", "kitchen": "NOUN", "food": "NOUN", "pasta": "NOUN", "beach": "NOUN",
        "driving": "VERB", "drives": "VERB", "cooking": "VERB", "cooks": "VERB", "playing": "VERB",
        "runs": "VERB", "run": "VERB", "red": "ADJ", ".": "PUNCT", "A": "DET", "The": "DET"}
LEMMAS = {"driving": "drive", "drives": "drive", "cooking": "cook", "cooks": "cook", "dogs": "dog",
          "runs": "run", "is": "be", "are": "be", "playing": "play"}


def tagged(sen_id, video_id, text):
    """A TaggedCaption of space-separated tokens ("." its own token), tagged from TAGS."""
    tokens = tuple(text.replace(".", " .").split())
    return TaggedCaption(sen_id, video_id, "test", text, tokens, tuple(TAGS[token] for token in tokens),
                         tuple("X" for _ in tokens), tuple(LEMMAS.get(token, token.lower()) for token in tokens),
                         tuple(True for _ in tokens))


def dense(relevance):
    return relevance.matrix.toarray()


def test_a_captions_words_are_lower_cased_without_stop_words_or_punctuation():
    caption = tagged(0, "video1", "A man is driving the red car.")
    assert bow_words(caption, RelevanceReading(), stop_words("spacy")) == {"man", "driving", "red", "car"}
    # The authors' reading: split at spaces, as written; "car." keeps its full stop, "A" is no stop word.
    as_written = RelevanceReading(tokens="split", lowercase=False)
    assert bow_words(caption, as_written, stop_words("spacy")) == {"A", "man", "driving", "red", "car."}
    assert bow_words(caption, RelevanceReading(stop_list="none"), stop_words("none")) == {
        "a", "man", "is", "driving", "the", "red", "car"}
    assert bow_words(caption, RelevanceReading(lemmas=True), stop_words("spacy")) == {"man", "drive", "red", "car"}


def test_spacy_stop_list_holds_function_words_and_some_caption_words():
    stops = stop_words("spacy")
    assert {"a", "the", "is", "in", "and"} <= stops and not {"man", "car", "dog"} & stops
    assert {"two", "show", "front"} <= stops  # content words in captions: documented in relevance.md


def test_iou_is_intersection_over_union_and_disjoint_pairs_are_not_stored():
    left = incidence((frozenset("abc"), frozenset("x")))
    right = incidence((frozenset("abc"), frozenset("x")))
    assert np.allclose(iou(left, right).toarray(), [[1, 0], [0, 1]])
    both = incidence((frozenset("abc"), frozenset("bcd"), frozenset("z")))
    scores = iou(both[:1], both)
    assert np.allclose(scores.toarray(), [[1.0, 2 / 4, 0.0]])
    assert scores.nnz == 2


def test_a_videos_words_are_those_in_a_quarter_of_its_captions_or_more():
    # One video, five captions: "man" in all five, "car" in two (40%), "road" in one (20%).
    sets = tuple(frozenset(words) for words in (["man", "car"], ["man", "car"], ["man", "road"], ["man"], ["man"]))
    captions = incidence(sets)  # vocabulary sorted: car, man, road
    rows = np.zeros(5, dtype=np.int64)
    assert video_sets_by_threshold(captions, rows, 1, 0.25).toarray().tolist() == [[1, 1, 0]]
    assert video_sets_by_threshold(captions, rows, 1, 0.2).toarray().tolist() == [[1, 1, 1]]  # 1 of 5 is 20%
    assert video_sets_by_threshold(captions, rows, 1, 0.5).toarray().tolist() == [[0, 1, 0]]
    assert video_sets_by_threshold(captions, rows, 1, 0.0).toarray().tolist() == [[1, 1, 1]]  # the union


# Two videos of four captions; with four captions, 25% is one caption, so a video's set is the union.
CAPTIONS = [
    tagged(0, "video1", "a man is driving a car"), tagged(1, "video1", "a man drives a red car"),
    tagged(2, "video1", "the car is on the road"), tagged(3, "video1", "a man is driving"),
    tagged(4, "video2", "a woman is cooking pasta"), tagged(5, "video2", "a woman cooks food in a kitchen"),
    tagged(6, "video2", "a man is cooking"), tagged(7, "video2", "the woman is cooking in the kitchen"),
]


def test_bow_relevance_is_the_iou_of_the_video_set_and_the_caption_set_own_captions_one():
    relevance = relevance_matrix(CAPTIONS, "bow")
    assert relevance.video_ids == ("video1", "video2") and relevance.sen_ids == tuple(range(8))
    # video1's set: man, driving, car, drives, red, road (6). video2's: woman, cooking, pasta, cooks, food,
    # kitchen, man (7).
    # Each other pair shares "man" at most: 1 / (|video set| + |caption set| - 1).
    expected = np.array([
        [1, 1, 1, 1, 0, 0, 1 / 7, 0],  # "a man is cooking" {man, cooking}: 1 / (6 + 2 - 1)
        [1 / 9, 1 / 10, 0, 1 / 8, 1, 1, 1, 1],  # {man, driving, car}: 1 / (7 + 3 - 1); "the car is on the road": 0
    ])
    assert np.allclose(dense(relevance), expected)
    assert relevance.matrix.dtype == np.float32
    sizes = mean_set_sizes(caption_sets(CAPTIONS, "bow", RelevanceReading()), RelevanceReading())
    assert sizes == {"words": {"caption": 23 / 8, "video": 6.5}}
    without_own = relevance_matrix(CAPTIONS, "bow", RelevanceReading(own_captions_one=False))
    assert dense(without_own)[0, 3] == pytest.approx(2 / 6)  # {man, driving} of video1's six words


def test_pos_relevance_sums_the_iou_of_verbs_and_of_nouns_with_their_weights():
    # Threshold 0.5: video1's verbs {driving} (in 2 of 4), nouns {man, car} (3 and 3 of 4).
    reading = RelevanceReading(video_threshold=0.5, own_captions_one=False)
    scores = dense(relevance_matrix(CAPTIONS, "pos", reading))
    # "a man drives a red car": verbs {drives} vs {driving}: 0; nouns {man, car}: 1. -> 0.5 * 0 + 0.5 * 1
    assert scores[0, 1] == pytest.approx(0.5)
    # "a man is cooking" with video1: verbs {cooking} vs {driving} 0; nouns {man} vs {man, car} 1/2.
    assert scores[0, 6] == pytest.approx(0.25)
    # With lemmas, "drives" is "drive" as "driving" is: the verbs match too.
    lemmas = dense(relevance_matrix(CAPTIONS, "pos", replace(reading, lemmas=True)))
    assert lemmas[0, 1] == pytest.approx(1.0)
    # Nouns alone, weight 1: the noun IoU unhalved; a caption with no noun shares nothing.
    nouns_only = replace(reading, parts=(Part("noun", ("NOUN",), 1.0, "n"),))
    assert dense(relevance_matrix(CAPTIONS, "pos", nouns_only))[0, 6] == pytest.approx(0.5)


def test_auxiliaries_count_as_verbs_when_the_reading_says_so():
    reading = RelevanceReading(own_captions_one=False,
                               parts=(Part("verb", ("VERB", "AUX"), 0.5, "v"), DEFAULT_PARTS[1]))
    scores = dense(relevance_matrix(CAPTIONS, "pos", reading))
    # "a man is cooking" with video1 (verbs: is, driving, drives): verbs {is, cooking}: 1/4; nouns {man} of
    # {man, car, road}: 1/3.
    assert scores[0, 6] == pytest.approx(0.5 * 1 / 4 + 0.5 * 1 / 3)


def test_caption_wise_readings_average_or_take_the_best_iou_with_the_videos_captions():
    captions = [tagged(0, "video1", "a man is driving a car"), tagged(1, "video1", "a man"),
                tagged(2, "video2", "a car on the road")]
    mean = dense(relevance_matrix(captions, "bow", RelevanceReading(video_sets="caption-mean",
                                                                    own_captions_one=False)))
    # "a car on the road" {car, road} with video1's {man, driving, car} (1/4) and {man} (0).
    assert mean[0, 2] == pytest.approx((1 / 4 + 0) / 2)
    assert mean[0, 0] == pytest.approx((1 + 1 / 3) / 2)  # with itself, and {man}: 1/3
    best = dense(relevance_matrix(captions, "bow", RelevanceReading(video_sets="caption-max",
                                                                    own_captions_one=False)))
    assert best[0, 2] == pytest.approx(1 / 4) and best[1, 0] == pytest.approx(1 / 4)


@pytest.mark.parametrize("reading", [RelevanceReading(), RelevanceReading(video_sets="caption-mean"),
                                     RelevanceReading(video_sets="caption-max")])
@pytest.mark.parametrize("proxy", ["bow", "pos"])
def test_chunks_of_captions_give_the_same_matrix_as_one_chunk(proxy, reading):
    whole = relevance_matrix(CAPTIONS, proxy, reading)
    for chunk in (1, 3):
        chunked = relevance_matrix(CAPTIONS, proxy, reading, chunk_captions=chunk)
        assert np.array_equal(dense(chunked), dense(whole))
        assert chunked.matrix.nnz == whole.matrix.nnz


def test_readings_that_cannot_be_built_are_config_errors():
    with pytest.raises(ConfigError, match="video_sets"):
        RelevanceReading(video_sets="per-frame")
    with pytest.raises(ConfigError, match="lemmas"):
        RelevanceReading(tokens="split", lemmas=True)
    with pytest.raises(ConfigError, match="threshold"):
        RelevanceReading(video_threshold=25)
    with pytest.raises(ConfigError, match="unknown proxy"):
        caption_sets(CAPTIONS, "met", RelevanceReading())



def test_lesk_lemmatises_then_picks_a_synset_of_the_part_of_speech_and_unknown_words_stand_for_themselves(wordnet):
    from nltk.wsd import lesk

    finder = SynsetFinder(wordnet)
    context = "a dog runs on the beach".split()
    assert finder.lemma("dogs", "n") == "dog" and finder.lemma("runs", "v") == "run"
    assert finder.sense(context, "dogs", "n") == finder.sense(context, "dog", "n")
    assert finder.sense(context, "dog", "n").split(".")[1] == "n"
    assert finder.sense(context, "runs", "v") == lesk(context, "run", "v", synsets=wordnet.synsets("run", "v")).name()
    assert finder.sense(context, "blorptastic", "n") == "blorptastic"


def test_syn_relevance_matches_inflected_words_through_their_synset(wordnet):
    captions = [tagged(0, "video1", "a dog runs on the beach"), tagged(1, "video2", "the dogs run on the beach")]
    sets = caption_sets(captions, "syn", RelevanceReading(), wordnet)
    assert sets.sets[1][0] == sets.sets[1][1] and len(sets.sets[1][0]) == 2  # dog and beach's synsets
    scores = dense(relevance_matrix(captions, "syn", RelevanceReading(own_captions_one=False), wordnet))
    verbs_equal = sets.sets[0][0] == sets.sets[0][1]
    assert scores[0, 1] == pytest.approx(0.5 * verbs_equal + 0.5 * 1.0)


def test_parts_come_from_name_weight_pairs_and_auxiliaries_join_verbs_on_request():
    from transforms.evaluation.relevance import parts_from_weights

    assert parts_from_weights("verb=0.5,noun=0.5") == DEFAULT_PARTS
    verb, noun = parts_from_weights("verb=0.3, noun=0.7", aux_as_verbs=True)
    assert verb.tags == ("VERB", "AUX") and verb.weight == 0.3 and noun == Part("noun", ("NOUN",), 0.7, "n")
    with pytest.raises(ConfigError, match="unknown part of speech 'det'"):
        parts_from_weights("det=1")
    with pytest.raises(ConfigError, match="NAME=WEIGHT"):
        parts_from_weights("verb")
