"""METEOR (transforms/evaluation/meteor.py) against NLTK's meteor_score on 10,000 pairs of real
MSR-VTT test captions (issue 29: agreement to 1e-6), the batch code (meteor_batch.py) against it
on a few captions x the whole split, and the MET kernel "max" against NLTK's several-reference
meteor_score on a video's twenty captions."""
import json
import random
import zipfile

import pytest
from nltk.translate.meteor_score import meteor_score, single_meteor_score

from transforms.evaluation.lexicon import default_wordnet_dir, open_wordnet
from transforms.evaluation.met_relevance import MetSettings, video_relevance
from transforms.evaluation.meteor import MeteorLexicon, single_meteor
from transforms.evaluation.meteor_batch import build_batch, scores_against

pytestmark = pytest.mark.integration

PAIRS = 10_000
TOLERANCE = 1e-6


@pytest.fixture(scope="module")
def test_captions(msrvtt_dir):
    """video_id -> its captions, MSR-VTT's test split as annotated."""
    with zipfile.ZipFile(msrvtt_dir / "test_videodatainfo.json.zip") as archive:
        sentences = json.load(archive.open("test_videodatainfo.json"))["sentences"]
    videos = {}
    for sentence in sorted(sentences, key=lambda sentence: sentence["sen_id"]):
        videos.setdefault(sentence["video_id"], []).append(sentence["caption"])
    return videos


@pytest.fixture(scope="module")
def wordnet():
    folder = default_wordnet_dir()
    if not (folder / "lexnames").is_file():
        pytest.fail(f"no WordNet in {folder}: run make install")
    return open_wordnet(folder)


def test_meteor_agrees_with_nltk_on_10000_caption_pairs(test_captions, wordnet):
    # Half the pairs from one video (much in common: long alignments, stems, synonyms), half from any two.
    rng = random.Random(29)
    video_ids = sorted(test_captions)
    pairs = []
    for number in range(PAIRS):
        first = rng.choice(video_ids)
        second = first if number % 2 == 0 else rng.choice(video_ids)
        pairs.append((rng.choice(test_captions[first]), rng.choice(test_captions[second])))
    lexicon = MeteorLexicon(wordnet)
    ours = [single_meteor(lexicon.encode(reference), lexicon.encode(hypothesis), lexicon)
            for reference, hypothesis in pairs]
    theirs = [single_meteor_score(reference.split(), hypothesis.split(), wordnet=wordnet)
              for reference, hypothesis in pairs]
    assert max(abs(a - b) for a, b in zip(ours, theirs)) <= TOLERANCE
    assert sum(score > 0 for score in theirs) > PAIRS * 0.8  # 8,275 of 10,000 match something


def test_the_max_kernel_is_nltks_score_against_the_videos_captions(test_captions, wordnet):
    rng = random.Random(30)
    video_ids = sorted(test_captions)
    lexicon = MeteorLexicon(wordnet)
    for _ in range(100):
        caption = rng.choice(test_captions[rng.choice(video_ids)])
        references = test_captions[rng.choice(video_ids)]
        ours = video_relevance(lexicon.encode(caption), [lexicon.encode(text) for text in references], lexicon,
                               MetSettings(kernel="max"))
        theirs = meteor_score([text.split() for text in references], caption.split(), wordnet=wordnet)
        assert abs(ours - theirs) <= TOLERANCE


def test_the_batch_code_equals_the_pair_at_a_time_code_on_the_whole_split(test_captions, wordnet):
    lexicon = MeteorLexicon(wordnet)
    others = [lexicon.encode(text) for video_id in sorted(test_captions) for text in test_captions[video_id]]
    batch = build_batch(others, lexicon)
    rng = random.Random(31)
    for query in rng.sample(others, 4):
        as_hypothesis = scores_against(query, batch, lexicon, query_is_reference=False)
        as_reference = scores_against(query, batch, lexicon, query_is_reference=True)
        assert max(abs(score - single_meteor(other, query, lexicon))
                   for score, other in zip(as_hypothesis, others)) <= TOLERANCE
        assert max(abs(score - single_meteor(query, other, lexicon))
                   for score, other in zip(as_reference, others)) <= TOLERANCE
