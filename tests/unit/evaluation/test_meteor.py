"""METEOR (transforms/evaluation/meteor.py) by hand and against NLTK's meteor_score, on captions
built to exercise each stage: repeated words, stems, WordNet synonyms, no overlap, empty captions."""
import random

import pytest
from nltk.translate.meteor_score import meteor_score, single_meteor_score

from transforms.evaluation.meteor import (MeteorLexicon, MeteorParameters, align, count_chunks, meteor,
                                          meteor_from_counts, single_meteor)

# Words chosen so that random captions hit every stage: several forms of one stem (play, plays,
# playing), WordNet synonyms (talk / speak, car / auto, big / large), a synonym NLTK misses because
# it compares the reference's stem ("automobile" stems to "automobil"), upper case, and filler.
WORD_POOL = ("a a a the is are man men guy person Man A talking talks speaks speak car cars auto "
             "automobile automobiles driving drives road on dog dogs running runs run play plays playing "
             "game games woman women cooking cook food kitchen big large small little song sings singing "
             "vocal video clip shows showing people group children kids kid").split()



@pytest.fixture(scope="module")
def lexicon(wordnet):
    return MeteorLexicon(wordnet)


def nltk_single(wordnet, reference: str, hypothesis: str) -> float:
    return single_meteor_score(reference.split(), hypothesis.split(), wordnet=wordnet)


def test_an_identical_caption_is_one_chunk_of_six_matches(lexicon):
    caption = lexicon.encode("a man is playing a guitar")
    assert align(caption, caption, lexicon) == [(i, i) for i in range(6)]
    # P = R = F = 1, penalty 0.5 * (1 / 6) ** 3.
    assert single_meteor(caption, caption, lexicon) == 1 - 0.5 / 216


def test_case_does_not_count(lexicon):
    assert single_meteor(lexicon.encode("A MAN sings"), lexicon.encode("a man SINGS"), lexicon) == 1 - 0.5 / 27


def test_no_shared_word_and_empty_captions_score_zero(lexicon):
    assert single_meteor(lexicon.encode("a dog runs"), lexicon.encode("the cat sleeps"), lexicon) == 0.0
    assert single_meteor(lexicon.encode(""), lexicon.encode("a dog runs"), lexicon) == 0.0
    assert single_meteor(lexicon.encode("a dog runs"), lexicon.encode("   "), lexicon) == 0.0


def test_repeated_words_pair_last_with_last(lexicon):
    # "a": hypothesis 0, 1 and reference 0, 2 -> (1, 2) then (0, 0); "b": (2, 1). No two matches are
    # consecutive on both sides: 3 chunks for 3 matches, penalty 0.5, score 0.5.
    hypothesis, reference = lexicon.encode("a a b"), lexicon.encode("a b a")
    assert align(hypothesis, reference, lexicon) == [(0, 0), (1, 2), (2, 1)]
    assert single_meteor(reference, hypothesis, lexicon) == 0.5


def test_equal_words_are_matched_before_equal_stems(lexicon):
    # By stems alone "play plays" / "plays play" would be one chunk (0, 0), (1, 1); the exact stage
    # pairs play-play and plays-plays first, crossing: two chunks.
    hypothesis, reference = lexicon.encode("play plays"), lexicon.encode("plays play")
    assert align(hypothesis, reference, lexicon) == [(0, 1), (1, 0)]


def test_stems_match_when_words_differ(lexicon):
    assert align(lexicon.encode("dogs running"), lexicon.encode("dog runs"), lexicon) == [(0, 0), (1, 1)]


def test_synonyms_match_on_the_reference_stem(lexicon, wordnet):
    # talk.v.01 has the lemma "speak", and "speaks" stems to "speak": a match.
    assert align(lexicon.encode("a man talks"), lexicon.encode("a man speaks"), lexicon) == [(0, 0), (1, 1), (2, 2)]
    # "automobile" is a lemma of car.n.01, but the reference's stem "automobil" is compared: no match,
    # as in NLTK.
    assert align(lexicon.encode("car"), lexicon.encode("automobile"), lexicon) == []
    assert nltk_single(wordnet, "automobile", "car") == 0.0


def test_chunks_count_runs_consecutive_on_both_sides():
    assert count_chunks([(0, 0), (1, 1), (2, 5), (3, 6), (5, 7)]) == 3
    assert count_chunks([(0, 1), (1, 0)]) == 2


def test_the_formula_by_hand():
    # 2 matches, 2 chunks, hypothesis 4 words, reference 5: P 0.5, R 0.4, F = 0.2 / (0.45 + 0.04).
    expected = (0.2 / 0.49) * (1 - 0.5 * 1.0 ** 3)
    assert meteor_from_counts(2, 2, 4, 5) == pytest.approx(expected, abs=1e-15)
    assert meteor_from_counts(0, 1, 4, 5) == 0.0
    assert meteor_from_counts(2, 1, 2, 2, MeteorParameters(alpha=0.5, beta=1.0, gamma=1.0)) == 0.5


def random_caption(rng: random.Random) -> str:
    return " ".join(rng.choice(WORD_POOL) for _ in range(rng.randint(0, 12)))


def test_agrees_with_nltk_on_constructed_pairs(lexicon, wordnet):
    rng = random.Random(29)
    pairs = [(random_caption(rng), random_caption(rng)) for _ in range(400)]
    differences = [abs(single_meteor(lexicon.encode(reference), lexicon.encode(hypothesis), lexicon)
                       - nltk_single(wordnet, reference, hypothesis)) for reference, hypothesis in pairs]
    assert max(differences) <= 1e-12
    # The pairs exercise the stem and synonym stages: without stems, or without synonyms, many scores change.
    assert changed_scores(pairs, lexicon, MeteorLexicon(wordnet, stemmer=NoStemmer())) > 50
    assert changed_scores(pairs, lexicon, MeteorLexicon(NoWordNet())) > 20


class NoStemmer:
    def stem(self, word):
        return word


class NoWordNet:
    def synsets(self, word):
        return []


def changed_scores(pairs, lexicon, other_lexicon) -> int:
    def score(with_lexicon, reference, hypothesis):
        return single_meteor(with_lexicon.encode(reference), with_lexicon.encode(hypothesis), with_lexicon)
    return sum(score(lexicon, *pair) != score(other_lexicon, *pair) for pair in pairs)


def test_several_references_take_the_best_as_nltk(lexicon, wordnet):
    rng = random.Random(30)
    for _ in range(40):
        references = [random_caption(rng) + " man" for _ in range(5)]
        hypothesis = random_caption(rng) + " man"
        ours = meteor([lexicon.encode(text) for text in references], lexicon.encode(hypothesis), lexicon)
        theirs = meteor_score([text.split() for text in references], hypothesis.split(), wordnet=wordnet)
        assert ours == pytest.approx(theirs, abs=1e-12)
