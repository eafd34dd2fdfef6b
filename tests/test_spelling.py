import pytest

from transforms.spelling import (
    DictionaryFileError,
    open_hunspell,
    Decision,
    FirstSuggestion,
    choose_suggestion,
    correct_caption,
    is_plain,
    read_mapping,
    read_word_list,
)

BRITISH = {"colour": "color", "vedio": "video"}
SPLITS = {"videogame": "video game", "doesn t": "does not", "eachother": "each other"}


def fake_hunspell(replacements):
    return lambda piece, previous: Decision(replacements.get(piece), "suggestion")


def test_mappings_apply_per_token_then_hunspell_on_every_piece():
    text, rows, flagged = correct_caption("a colour videogame vedio", BRITISH, SPLITS,
                                          fake_hunspell({"game": "gamer"}))
    assert text == "a color video gamer video" and flagged == []
    assert rows == [
        {"position": 1, "original": "colour", "replacement": "color", "rule": "british", "score": None},
        {"position": 2, "original": "videogame", "replacement": "video game", "rule": "split", "score": None},
        {"position": 2, "original": "game", "replacement": "gamer", "rule": "suggestion", "score": None},
        {"position": 3, "original": "vedio", "replacement": "video", "rule": "british", "score": None},
    ]


def test_a_key_with_a_space_never_applies_because_lookup_is_per_token():
    text, rows, _ = correct_caption("he doesn t know", BRITISH, SPLITS, fake_hunspell({}))
    assert text == "he doesn t know" and rows == []


def test_a_suggestion_equal_to_the_token_is_no_change_and_the_caption_is_lowercased():
    # Hunspell suggests "John" for "john"; lowercased back, it is not a change.
    text, rows, _ = correct_caption("john runs", {}, {}, fake_hunspell({"john": "john"}))
    assert text == "john runs" and rows == []


def test_choose_suggestion_rules():
    suggestions = ["outdoors's", "disc-using", "café", "outdoors", "out doors"]
    assert choose_suggestion(suggestions, "first") == "outdoors's"
    assert choose_suggestion(suggestions, "first_plain") == "outdoors"
    assert choose_suggestion([], "first") is None
    assert choose_suggestion(["it's"], "first_plain") is None
    assert is_plain("mine craft") and not is_plain("café") and not is_plain("o'clock")


def test_word_lists_strip_crlf_and_blank_lines(tmp_path):
    words = tmp_path / "words.txt"
    words.write_bytes(b"minecraft\r\n\r\nspongebob\r\ngogh")
    assert read_word_list(str(words)) == ("minecraft", "spongebob", "gogh")
    mapping = tmp_path / "map.txt"
    mapping.write_text("seat/stroller -> seat \nisn t -> is not\n")
    assert read_mapping(str(mapping)) == {"seat/stroller": "seat", "isn t": "is not"}


def test_a_malformed_mapping_line_is_named(tmp_path):
    mapping = tmp_path / "map.txt"
    mapping.write_text("colour -> color\ncolour color\n")
    with pytest.raises(DictionaryFileError, match=r"map.txt, line 2"):
        read_mapping(str(mapping))


def test_a_missing_word_list_is_named(tmp_path):
    with pytest.raises(DictionaryFileError, match="nowhere.txt"):
        read_word_list(str(tmp_path / "nowhere.txt"))


def test_a_missing_hunspell_dictionary_is_named(tmp_path):
    with pytest.raises(DictionaryFileError, match=r"nothing.dic not found"):
        open_hunspell(str(tmp_path / "nothing"))


@pytest.fixture(scope="module")
def paper_speller():
    checker = open_hunspell("/usr/share/hunspell/en_US", read_word_list("paper/custom_words.txt"))
    return FirstSuggestion(checker, "first")


def test_paper_speller_takes_hunspells_first_suggestion(paper_speller):
    # The published rule's known weakness, reproduced: lego -> loge, discusing -> disusing.
    assert paper_speller.decide("lego").replacement == "loge"
    assert paper_speller.decide("discusing").replacement == "disusing"
    assert paper_speller.decide("woman").replacement is None


def test_custom_vocabulary_is_accepted_by_hunspell_itself(paper_speller):
    for word in ("minecraft", "spongebob", "gameplay", "legos"):
        assert paper_speller.decide(word).replacement is None


def test_decisions_are_cached_per_distinct_token(paper_speller):
    paper_speller._decide_cached.cache_clear()
    for _ in range(3):
        paper_speller.decide("vidio")
    info = paper_speller._decide_cached.cache_info()
    assert (info.misses, info.hits) == (1, 2)
