import pytest

from transforms.normalize import (
    ampersand_to_and,
    normalize_caption,
    remove_backquotes,
    remove_bracketed_asides,
    remove_symbols,
    remove_unpaired_brackets,
    separators_to_spaces,
    to_english_letters,
)


def test_symbols_are_removed_wherever_they_occur():
    assert remove_symbols("a #1 man: *waves* + smiles = fun > 2 \\o.") == "a 1 man waves  smiles  fun  2 o"


@pytest.mark.parametrize("text, expected", [
    ("a girl on the voice (kids)", "a girl on the voice "),
    ("a car [an slo] drives", "a car drives"),
    ("watch me (whip/nae nae) now", "watch me now"),
    ("slow micro-soccer (micro-football) plays", "slow micro-soccer plays"),
    # Not plain words inside: the pair stays for the later rules.
    ("the bottle (implying i am guessing climax", "the bottle (implying i am guessing climax"),
    ("a (b's) c", "a (b's) c"),
])
def test_bracket_pairs_with_plain_content_go_with_their_content(text, expected):
    assert remove_bracketed_asides(text) == expected


def test_square_brackets_are_removed_before_round_ones():
    # "[(x)]" is not plain inside the square pair, so only the round pair goes, leaving "[]"...
    assert remove_bracketed_asides("a [(x)] b") == "a [] b"
    # ...and a round pair around a square one goes once the square pair has gone.
    assert remove_bracketed_asides("a ([x]) b") == "a b"


def test_unpaired_brackets_are_removed_but_a_closing_round_one_is_not_listed():
    assert remove_unpaired_brackets("a man p[laying golf]") == "a man playing golf"
    assert remove_unpaired_brackets("asc (academy award") == "asc academy award"
    assert remove_unpaired_brackets("a) b") == "a) b"


def test_separators_become_spaces_and_whitespace_collapses():
    assert separators_to_spaces("a low-budget|game\u2018show\u2019 @x_y/z") == "a low budget game show x y z"
    assert separators_to_spaces("  two  spaces ") == "two spaces"


def test_non_english_letters_map_to_the_closest_english_letter():
    assert to_english_letters("beyoncé в") == "beyonce b"
    assert to_english_letters("plain") == "plain"


def test_only_a_free_standing_ampersand_becomes_and():
    assert ampersand_to_and("tom & jerry at&t") == "tom and jerry at&t"
    assert ampersand_to_and("rock&roll") == "rock&roll"


def test_backquote_s_becomes_space_s_and_other_backquotes_go():
    assert remove_backquotes("the man`s hat") == "the man s hat"
    assert remove_backquotes("a `quoted` word") == "a quoted word"


def test_normalize_caption_runs_the_rules_in_order_and_names_those_that_fired():
    text, rules = normalize_caption("solol (s/r = 67) growing")
    # "=" goes first, so the bracket content is plain and the pair goes with it.
    assert text == "solol growing"
    assert rules == "remove_symbols,remove_bracketed_asides"


def test_an_unchanged_caption_fires_no_rule():
    assert normalize_caption("a man is cooking") == ("a man is cooking", "")


def test_trailing_space_alone_is_a_change():
    assert normalize_caption("a man is cooking ") == ("a man is cooking", "separators_to_spaces")
