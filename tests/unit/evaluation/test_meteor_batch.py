"""METEOR of one caption against a batch (transforms/evaluation/meteor_batch.py) equals the
pair-at-a-time METEOR (meteor.py, itself checked against NLTK) on captions built to need every path:
repeated words, stems standing for two words, synonyms competing for one token, empty captions."""
import random

import numpy as np
import pytest

from transforms.evaluation.meteor import MeteorLexicon, single_meteor
from transforms.evaluation.meteor_batch import (_stem_stage_matches, _synonym_candidates, _Tables, _tangled_captions,
                                                build_batch, ranks_from_end, scores_against)

WORD_POOL = ("a a the is are man men guy talking talks speaks speak sing sings car cars auto driving road dog dogs "
             "run runs running play plays playing game woman women big large show shows scene video people").split()


@pytest.fixture(scope="module")
def lexicon(wordnet):
    return MeteorLexicon(wordnet)


def random_caption(rng: random.Random) -> str:
    return " ".join(rng.choice(WORD_POOL) for _ in range(rng.randint(0, 10)))


def test_ranks_count_from_the_end_per_stem():
    assert ranks_from_end((5, 7, 5, 5, 7)) == [2, 1, 1, 0, 0]


def test_equals_the_pair_at_a_time_scores_both_ways(lexicon):
    rng = random.Random(7)
    others = [lexicon.encode(random_caption(rng)) for _ in range(300)] + [lexicon.encode("")]
    batch = build_batch(others, lexicon)
    for _ in range(30):
        query = lexicon.encode(random_caption(rng))
        as_hypothesis = scores_against(query, batch, lexicon, query_is_reference=False)
        as_reference = scores_against(query, batch, lexicon, query_is_reference=True)
        assert as_hypothesis.tolist() == pytest.approx([single_meteor(other, query, lexicon) for other in others],
                                                       abs=1e-12)
        assert as_reference.tolist() == pytest.approx([single_meteor(query, other, lexicon) for other in others],
                                                      abs=1e-12)


def test_an_empty_query_scores_zero(lexicon):
    batch = build_batch([lexicon.encode("a man sings")], lexicon)
    assert scores_against(lexicon.encode(""), batch, lexicon, query_is_reference=False).tolist() == [0.0]


def test_a_stem_standing_for_two_words_goes_to_the_pair_at_a_time_code(lexicon):
    # By (stem, rank) alone "play plays" / "plays play" is one chunk; the exact stage makes it two.
    query = lexicon.encode("play plays")
    batch = build_batch([lexicon.encode("plays play")], lexicon)
    expected = single_meteor(batch.captions[0], query, lexicon)
    assert expected == 1 - 0.5 * (2 / 2) ** 3
    assert scores_against(query, batch, lexicon, query_is_reference=False).tolist() == [expected]


def test_synonym_candidates_sharing_a_token_go_to_the_greedy_code(lexicon):
    # "talk" has the synonym "speak". Caption 0 (tokens 0-2) offers one free "speak" to the query's
    # "talks" (position 2): taken by the arrays. Caption 1 (tokens 3-6) offers two, "speaks" and
    # "speak": tangled, left to the greedy pair-at-a-time code.
    query = lexicon.encode("a man talks")
    batch = build_batch([lexicon.encode("a man speaks"), lexicon.encode("a guy speaks speak")], lexicon)
    position = _stem_stage_matches(query, batch)
    tokens, positions = _synonym_candidates(query, batch, lexicon, position, False, _Tables(query, batch))
    assert sorted(zip(tokens.tolist(), positions.tolist())) == [(2, 2), (5, 2), (6, 2)]
    assert _tangled_captions(batch, tokens, positions, 3).tolist() == [False, True]
    scores = scores_against(query, batch, lexicon, query_is_reference=False)
    assert scores[0] == single_meteor(batch.captions[0], query, lexicon) == 1 - 0.5 / 27
    assert scores[1] == single_meteor(batch.captions[1], query, lexicon)
    assert np.all(scores > 0)
