"""The relevance of a protocol's texts to its videos (transforms/evaluation/relevance.py, query_relevance): the
same matrix as relevance_from_sets when the texts are the captions, every reading; and a sentence that is no
caption scored against the videos' sets, worked by hand."""
from dataclasses import replace

import numpy as np
import pytest

from transforms.evaluation.pos import TaggedCaption
from transforms.evaluation.relevance import RelevanceReading, caption_sets, query_relevance, relevance_from_sets

# spaCy's universal tags of the words below (what en_core_web_sm gives them); lemmas are the words.
TAGS = {"a": "DET", "the": "DET", "is": "AUX", "on": "ADP", "in": "ADP", "man": "NOUN", "woman": "NOUN",
        "car": "NOUN", "road": "NOUN", "pasta": "NOUN", "food": "NOUN", "kitchen": "NOUN", "dog": "NOUN",
        "dogs": "NOUN", "beach": "NOUN", "red": "ADJ", "driving": "VERB", "drives": "VERB", "cooking": "VERB",
        "cooks": "VERB", "runs": "VERB", "run": "VERB"}


def tagged(sen_id, video_id, text):
    """A TaggedCaption of space-separated tokens, tagged from TAGS."""
    tokens = tuple(text.split())
    return TaggedCaption(sen_id, video_id, "test", text, tokens, tuple(TAGS[token] for token in tokens),
                         tuple("X" for _ in tokens), tokens, tuple(True for _ in tokens))


# test_relevance.py's two videos: video1's bow set (10%) is man, driving, car, drives, red, road; video2's
# woman, cooking, pasta, cooks, food, kitchen, man.
CAPTIONS = [
    tagged(0, "video1", "a man is driving a car"), tagged(1, "video1", "a man drives a red car"),
    tagged(2, "video1", "the car is on the road"), tagged(3, "video1", "a man is driving"),
    tagged(4, "video2", "a woman is cooking pasta"), tagged(5, "video2", "a woman cooks food in a kitchen"),
    tagged(6, "video2", "a man is cooking"), tagged(7, "video2", "the woman is cooking in the kitchen"),
]
READINGS = [RelevanceReading(), RelevanceReading(video_sets="caption-mean"), RelevanceReading(video_sets="caption-max"),
            RelevanceReading(own_captions_one=False, video_threshold=0.5)]


@pytest.mark.parametrize("reading", READINGS)
@pytest.mark.parametrize("proxy", ["bow", "pos"])
@pytest.mark.parametrize("chunk", [None, 3])
def test_the_captions_as_queries_give_relevance_from_sets(proxy, reading, chunk):
    sets = caption_sets(CAPTIONS, proxy, reading)
    whole = relevance_from_sets(sets, reading)
    queried = query_relevance(sets, sets, reading, chunk_queries=chunk)
    assert queried.video_ids == whole.video_ids and queried.sen_ids == whole.sen_ids
    np.testing.assert_array_equal(queried.matrix.toarray(), whole.matrix.toarray())


def test_syn_with_the_videos_own_senses_too(wordnet):
    captions = [tagged(0, "video1", "a dog runs on the beach"), tagged(1, "video1", "a dog runs"),
                tagged(2, "video2", "the dogs run on the beach")]
    sets = caption_sets(captions, "syn", RelevanceReading(), wordnet)
    assert sets.video_sets is not None
    np.testing.assert_array_equal(query_relevance(sets, sets, RelevanceReading()).matrix.toarray(),
                                  relevance_from_sets(sets, RelevanceReading()).matrix.toarray())


def test_a_sentence_that_is_no_caption_against_the_videos_sets():
    # bow, default reading: the query "a man cooks food", of video2: {man, cooks, food} shares man with video1's
    # six words (1 / (6 + 3 - 1)); its own video is 1.
    reading = RelevanceReading()
    sets = caption_sets(CAPTIONS, "bow", reading)
    query = caption_sets([tagged(100, "video2", "a man cooks food")], "bow", reading)
    relevance = query_relevance(sets, query, reading)
    assert relevance.video_ids == ("video1", "video2") and relevance.sen_ids == (100,)
    np.testing.assert_allclose(relevance.matrix.toarray(), [[1 / 8], [1.0]])
    # Its own video's IoU without the rule: {man, cooks, food} in video2's seven words: 3 / 7.
    iou_only = query_relevance(sets, query, replace(reading, own_captions_one=False))
    np.testing.assert_allclose(iou_only.matrix.toarray(), [[1 / 8], [3 / 7]], rtol=1e-6)
