"""Issue 42's second round of words the dictionary accepts: compounds written apart, number agreement and
confusions decided by a bigram model (transforms/spelling/compounds.py, agreement.py, confusions.py)."""
import math

import pytest

from transforms.spelling import Decision, DictionaryFileError, correct_caption
from transforms.spelling.agreement import PluralWrittenApart, SingularAfterDeterminer
from transforms.spelling.compounds import Compounds, phrase_log_probability
from transforms.spelling.confusions import Confusions
from transforms.spelling.wordlists import read_confusions

# A small corpus: "makeup" is a noun written after "her" and "apply", "make up" a verb before "a story".
STATS = {"make": (200, 150), "up": (300, 200), "makeup": (60, 40), "her": (400, 300), "to": (900, 600),
         "a": (2000, 900), "story": (30, 20), "apply": (40, 30), "some": (300, 200), "one": (200, 150),
         "someone": (500, 300), "is": (3000, 900), "video": (500, 300), "game": (200, 150), "videogame": (12, 9)}
PHRASES = {"make up": 30, "up a": 25, "to make": 60, "her makeup": 20, "apply makeup": 10, "makeup on": 8,
           "her make": 1, "a story": 10, "some one": 10, "someone is": 200, "one is": 20, "is some": 5,
           "video game": 150}


def compounds(**settings):
    return Compounds(STATS, PHRASES, accepts=lambda word: word in STATS, written_apart={"videogame"}, **settings)


def test_the_bigram_probability_is_smoothed_towards_the_word_s_share():
    total = 10_000
    # "her makeup": (20 + 20 * 60 / 10000) / (400 + 20)
    assert phrase_log_probability(STATS, PHRASES, total, "her", "makeup") == pytest.approx(
        math.log((20 + 20 * 60 / total) / 420))
    assert phrase_log_probability(STATS, PHRASES, total, "", "makeup") == pytest.approx(math.log(60 / total))
    assert phrase_log_probability(STATS, PHRASES, total, "her", "") == 0.0  # the caption's end


def test_a_compound_written_apart_is_joined_where_the_context_means_it():
    fix = compounds().find("doing her make up on".split(), 2, "her")
    assert (fix.original, fix.replacement, fix.length, fix.rule) == ("make up", "makeup", 2, "compound")
    assert fix.score > math.log(3)
    # The counts the change read are its evidence columns.
    assert (fix.evidence.original_count, fix.evidence.replacement_count) == (30, 60)
    assert (fix.evidence.replacement_with_previous, fix.evidence.replacement_with_following) == (20, 8)


def test_the_verb_stays_two_words():
    # "to make up a story": "to make" and "up a" are written, "to makeup" never.
    assert compounds().find("to make up a story".split(), 1, "to") is None


def test_a_compound_the_corpus_writes_apart_as_often_or_never_beside_the_neighbours_stays():
    assert not compounds(min_ratio=3.0).is_candidate("make", "up")  # 60 < 3 * 30
    assert compounds().find("the make up".split(), 1, "the") is None  # "the makeup" is never written: no support


def test_articles_apostrophe_pieces_and_the_split_list_are_never_joined():
    rule = compounds()
    assert not rule.is_candidate("video", "game")  # the split list writes "videogame" apart
    assert not rule.is_candidate("it", "s") and not rule.is_candidate("a", "long")
    assert not rule.is_candidate("on", "to")
    assert not Compounds(STATS, PHRASES, accepts=lambda word: word in STATS and word != "make").is_candidate(
        "make", "up")  # a piece the dictionary rejects is the ranked rule's
    assert not Compounds(STATS, PHRASES, accepts=lambda word: word in STATS,
                         accepts_piece=lambda word: word != "make").is_candidate("make", "up")  # the vocabulary's


def test_a_join_never_writes_the_word_twice():
    assert compounds().find("someone some one is".split(), 1, "someone") is None


def test_a_women_is_the_singular_but_not_before_a_possessive_or_an_attributive_noun():
    stats = {"women": (100, 80), "woman": (900, 600), "man": (900, 600), "men": (300, 200)}
    phrases = {"woman is": 300, "women is": 10, "women soccer": 5, "woman soccer": 1, "men are": 50, "man are": 2,
               "woman in": 40, "women in": 30}
    rule = SingularAfterDeterminer(stats, phrases)
    fix = rule.find("a women is cooking".split(), 1, "a")
    assert (fix.replacement, fix.rule) == ("woman", "singular_after_determiner")
    assert fix.evidence.replacement_with_following == 300
    assert rule.find("a women s magazine".split(), 1, "a") is None
    assert rule.find("a women soccer team".split(), 1, "a") is None  # "women soccer" 5 > "woman soccer" 1
    assert rule.find("a women jackpot".split(), 1, "a") is None  # never written after either: not told
    assert rule.find("the women is".split(), 1, "the") is None  # no singular determiner
    assert rule.find("a men are running".split(), 1, "a") is None  # which word is wrong is not clear
    fix = rule.find("two man are".split(), 1, "two")
    assert (fix.replacement, fix.rule) == ("men", "plural_after_number")
    assert rule.find("some man is".split(), 1, "some") is None  # "some" goes with a singular too


def test_a_plural_written_as_a_possessive_becomes_the_plural_where_it_owns_nothing():
    stats = {"guys": (1000, 700), "guy": (900, 600), "freddys": (3, 2), "lets": (40, 30)}
    phrases = {"the guy": 50, "a guy": 80, "the freddy": 4, "the let": 2, "a let": 2, "to let": 30,
               "are giving": 20, "the giving": 1, "s hair": 30, "the man": 100}
    rule = PluralWrittenApart(stats, phrases, {"mans": "men"}, accepts=lambda word: True)
    fix = rule.find("some guy s are giving".split(), 1, "some")
    assert (fix.original, fix.replacement, fix.length, fix.rule) == ("guy s", "guys", 2, "plural_written_apart")
    assert rule.find("two man s giving".split(), 1, "two").replacement == "men"  # irregular; "giving" a verb
    assert rule.find("the guy s are".split(), 1, "the").replacement == "guys"
    assert rule.find("a guy s are".split(), 1, "a") is None  # a singular determiner
    assert rule.find("two guy s hair".split(), 1, "two") is None  # a possessive: it owns the hair
    assert rule.find("at freddy s are".split(), 1, "at") is None  # "freddys" is too rare to be its plural
    assert rule.find("let s have fun".split(), 0, "") is None  # "to let" more than "the let": no noun


CONFUSION_STATS = {"taking": (1000, 800), "talking": (20000, 9000), "man": (9000, 5000), "about": (9000, 6000),
                   "his": (8000, 5000), "an": (10000, 5000), "and": (40000, 9000), "a": (90000, 9000),
                   "hockey": (300, 100), "basketball": (800, 300), "apple": (50, 40)}
CONFUSION_PHRASES = {"man taking": 50, "man talking": 2000, "talking about": 8000, "taking about": 40,
                     "taking his": 9, "talking his": 5, "hockey and": 30, "and basketball": 40, "a basketball": 30,
                     "an apple": 20, "and apple": 5, "hockey an": 1}


def confusions():
    return Confusions({"taking": ("talking",), "an": ("and", "a")}, CONFUSION_STATS, CONFUSION_PHRASES,
                      margin=150.0, min_support=3)


def test_a_confusion_is_changed_where_the_model_makes_the_other_word_far_likelier():
    fix = confusions().find("a man taking about a car".split(), 2, "man")
    assert (fix.replacement, fix.rule) == ("talking", "confusion") and fix.score >= math.log(150)
    assert fix.evidence.original_with_following == 40 and fix.evidence.replacement_with_following == 8000
    assert confusions().find("clips of hockey an basketball".split(), 3, "hockey").replacement == "and"


def test_a_confusion_stays_where_the_word_as_written_fits():
    assert confusions().find("a man taking his picture".split(), 2, "man") is None  # 9/1000 > 5/20000
    assert confusions().find("eats an apple".split(), 1, "eats") is None  # an article before a vowel


def test_read_confusions_takes_several_alternatives_and_names_a_bad_line(tmp_path):
    path = tmp_path / "confusions.txt"
    path.write_text("# reviewed\nan -> and, a\ntaking -> talking\n")
    assert read_confusions(str(path)) == {"an": ("and", "a"), "taking": ("talking",)}
    path.write_text("an and\n")
    with pytest.raises(DictionaryFileError, match="line 1"):
        read_confusions(str(path))


def test_joins_are_made_in_the_caption_with_their_counts_and_score():
    rule = compounds()
    text, rows, _ = correct_caption("some one is doing her make up", (), lambda *_: Decision(), in_context=rule.find)
    assert text == "someone is doing her makeup"
    assert [(row["position"], row["original"], row["rule"]) for row in rows] == [
        (0, "some one", "compound"), (5, "make up", "compound")]  # positions in the caption as received
    assert rows[0]["score"] is not None and rows[0]["replacement_count"] == 500
