"""syn with video-context senses: a video's words that pass the threshold, each given its Lesk sense
with all of the video's captions as context (RelevanceReading.syn_video_senses)."""
import pytest

from transforms.evaluation.pos import TaggedCaption
from transforms.evaluation.relevance import (RelevanceReading, SynsetFinder, caption_sets, relevance_matrix,
                                             video_context_senses)
from transforms.evaluation.relevance_reading import DEFAULT_PARTS, PAPER_TEXT

VIDEO_CONTEXT = RelevanceReading(video_threshold=0.5, own_captions_one=False, syn_video_senses="video-context")


def caption(sen_id, video_id, noun, verb):
    text = f"{noun} {verb}"
    return TaggedCaption(sen_id, video_id, "test", text, (noun, verb), ("NOUN", "VERB"), ("NN", "VBZ"),
                         (noun, verb), (True, False))


CAPTIONS = [caption(0, "video1", "dog", "runs"), caption(1, "video1", "dog", "sleeps"),
            caption(2, "video1", "cat", "runs"), caption(3, "video1", "dog", "eats"),
            caption(4, "video2", "cat", "sleeps")]


class NoSenses:
    """A WordNet without synsets: every word stands for itself, so the sets can be worked out by hand."""
    def _morphy(self, word, pos):
        return [word]

    def synsets(self, lemma, pos):
        return []


def test_a_videos_words_pass_the_threshold_before_they_get_a_sense():
    # video1 has 4 captions, so a word needs 2: nouns dog (3) yes, cat (1) no; verbs runs (2) yes, sleeps
    # and eats (1) no. video2 has 1 caption: cat and sleeps.
    verbs, nouns = DEFAULT_PARTS
    finder = SynsetFinder(NoSenses())
    assert video_context_senses(CAPTIONS, nouns, VIDEO_CONTEXT, finder) == (frozenset({"dog"}), frozenset({"cat"}))
    assert video_context_senses(CAPTIONS, verbs, VIDEO_CONTEXT, finder) == (frozenset({"runs"}), frozenset({"sleeps"}))


def test_syn_relevance_with_video_context_senses_by_hand():
    # Caption 2 "cat runs" and video1 {dog} / {runs}: 0.5 x IoU(verbs) 1 + 0.5 x IoU(nouns) 0 = 0.5;
    # with video2 {cat} / {sleeps}: 0.5 x 0 + 0.5 x 1 = 0.5. Caption 4 "cat sleeps" and video1: 0.
    # Caption 1 "dog sleeps": video1 0.5 (noun), video2 0.5 (verb).
    scores = relevance_matrix(CAPTIONS, "syn", VIDEO_CONTEXT, NoSenses()).matrix.toarray()
    assert scores[:, 2].tolist() == [0.5, 0.5]
    assert scores[:, 4].tolist() == [0.0, 1.0]
    assert scores[:, 1].tolist() == [0.5, 0.5]


def test_the_paper_text_reading_keeps_no_video_sets_and_the_default_does():
    assert caption_sets(CAPTIONS, "syn", PAPER_TEXT, NoSenses()).video_sets is None
    assert caption_sets(CAPTIONS, "syn", RelevanceReading(), NoSenses()).video_sets is not None


def test_the_sense_comes_from_all_of_the_videos_captions(wordnet):
    captions = [caption(0, "video1", "bank", "flows"), caption(1, "video1", "bank", "lends")]
    _, nouns = DEFAULT_PARTS
    finder = SynsetFinder(wordnet)
    reading = RelevanceReading(video_threshold=0.5, syn_video_senses="video-context")
    expected = finder.sense("bank flows bank lends".split(), "bank", "n")
    assert video_context_senses(captions, nouns, reading, finder) == (frozenset({expected}),)


def test_mean_set_sizes_count_the_videos_own_sets_when_there_are_some():
    from transforms.evaluation.relevance import CaptionSets, mean_set_sizes

    # Two captions of one video; the captions' verb sets {a} and {a} would give the video {a} (size 1),
    # but its own video-context verb set has two senses; its noun set none.
    sets = CaptionSets("syn", (0, 1), ("video1", "video1"), (0.5, 0.5),
                       ((frozenset({"a"}), frozenset({"a"})), (frozenset({"n"}), frozenset())),
                       ((frozenset({"a.v.01", "a.v.02"}),), (frozenset(),)))
    sizes = mean_set_sizes(sets, VIDEO_CONTEXT)
    assert sizes["verb"] == {"caption": 1.0, "video": 2.0}
    assert sizes["noun"] == {"caption": 0.5, "video": 0.0}
