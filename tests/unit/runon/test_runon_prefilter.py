"""Step IV's pre-filter: which captions the boundary model scores, and the cut that gives back the caption."""
from dataclasses import replace

from transforms.runon.prefilter import LENGTH_ONLY, WORD_CUE, Prefilter, is_candidate, load_lexicon, split_at, why_scored

PREFILTER = Prefilter(load_lexicon())


def test_prefilter_lets_through_captions_with_a_second_unjoined_clause():
    assert is_candidate("a cat is afraid of an stuffed animal he is trying to figure it out", PREFILTER)
    assert is_candidate("a woman with blonde hair is standing near a car a man is opening its door", PREFILTER)


def test_prefilter_turns_away_short_joined_or_single_clause_captions():
    assert not is_candidate("a man talks he sings", PREFILTER)  # fewer than 7 words
    assert not is_candidate("a man is playing a guitar on a stage in a park", PREFILTER)
    assert not is_candidate("a man is cooking in a kitchen and he is talking", PREFILTER)
    assert not is_candidate("a woman is talking while she is cooking some food", PREFILTER)


def test_rule_pronoun_verb_lets_through_a_verb_the_word_list_lacks():
    caption = "the two players win the game then they show their country flag"
    assert "show" not in PREFILTER.finite_verbs  # only the rule can let it through
    assert is_candidate(caption, PREFILTER)
    # The word after the pronoun must be its verb: not a conjunction, "too", or a participle.
    assert not is_candidate("the old man and the boy and he and she walk", PREFILTER)
    assert not is_candidate("a woman sits in the park with her dog they playing", PREFILTER)


def test_rule_determiner_clause_lets_through_a_subject_after_a_fragment():
    assert is_candidate("a clip of a woman preparing food a person pours some oil", PREFILTER)
    assert is_candidate("we see four tomatoes on a vine a narrator talks", PREFILTER)
    # A determiner after a verb or a preposition opens an object, not a subject.
    assert not is_candidate("a man is holding a cup of tea in a kitchen with a smile", PREFILTER)
    assert not is_candidate("a boy with a hat walks down the road to the shop", PREFILTER)


def test_split_at_gives_back_the_caption_when_joined():
    text = "a cat is afraid he is trying to figure it out"
    assert split_at(text, [4]) == ["a cat is afraid", "he is trying to figure it out"]
    assert split_at(text, []) == [text]
    assert split_at(text, [0, 4, 4, 99]) == ["a cat is afraid", "he is trying to figure it out"]
    for cuts in ([1], [2, 5], [3, 6, 9]):
        assert " ".join(split_at(text, cuts)) == text


def test_rule_with_subject_lets_through_a_subject_with_a_with_phrase():
    assert is_candidate("a man sits on a bench near a lake a girl with long red hair and a hat is singing", PREFILTER)
    # The verb must follow the phrase, not be an -ing form inside it.
    assert not is_candidate("a man sits on a bench near a lake a girl with a dog running around", PREFILTER)


def test_prefilter_lets_through_then_before_a_subject():
    assert is_candidate("a street with traffic shown first then a setting of custom cars", Prefilter(frozenset()))
    assert not is_candidate("a man picks up a ball and then a bat from the grass", Prefilter(frozenset()))


def test_a_caption_of_always_parse_words_is_scored_whatever_its_words():
    # 23 words with no finite verb the word list knows and no clause-opening word.
    caption = "a view of the big city lights from the top of a tall tower at night with music and a slow camera pan"
    assert len(caption.split()) == 23 and not is_candidate(caption, PREFILTER)
    assert is_candidate(caption, replace(PREFILTER, always_parse_words=20))
    assert not is_candidate(caption, replace(PREFILTER, always_parse_words=24))
    assert not is_candidate("a red car", replace(PREFILTER, always_parse_words=2))  # min_words still holds
    one_clause = "a man is playing a guitar on a stage in a park with his friends"  # 15 words, no second clause
    run_on = "a cat is afraid of an stuffed animal he is trying to figure it out"
    assert not is_candidate(one_clause, PREFILTER) and is_candidate(run_on, PREFILTER)
    assert is_candidate(one_clause, replace(PREFILTER, always_parse_words=15))
    assert not is_candidate(one_clause, replace(PREFILTER, always_parse_words=16))


def test_a_caption_is_scored_for_its_word_cue_first_and_its_length_only_when_it_has_none():
    long_prefilter = replace(PREFILTER, always_parse_words=15)
    one_clause = "a man is playing a guitar on a stage in a park with his friends"  # 15 words
    run_on = "a cat is afraid of an stuffed animal he is trying to figure it out"  # 15 words, a cue
    assert why_scored(one_clause, long_prefilter) == LENGTH_ONLY
    assert why_scored(run_on, long_prefilter) == WORD_CUE  # long enough too, but the cue is the reason
    assert why_scored(one_clause, PREFILTER) is None
    assert why_scored("a dog runs", long_prefilter) is None
