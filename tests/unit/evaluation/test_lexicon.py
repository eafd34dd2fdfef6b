"""The lexicon of the hard negatives, on the real WordNet `make install` builds, and the build itself."""
import filecmp
import os
import tempfile
from pathlib import Path

import pytest

from pipelines.install.wordnet import (
    DEBIAN_LEXNAMES_MAN_PAGE,
    DEBIAN_WORDNET,
    WordNetInstallError,
    check_against_data_files,
    install_wordnet,
    lexnames_lines,
)
from transforms.errors import CapcleanError, find_error_line
from transforms.evaluation.lexicon import (
    Lexicon,
    WordNetMissingError,
    check_wordnet,
    default_wordnet_dir,
    inflect_like,
    open_wordnet,
    read_preposition_antonyms,
)

needs_debian_wordnet = pytest.mark.skipif(
    not (DEBIAN_WORDNET / "data.noun").is_file() or not DEBIAN_LEXNAMES_MAN_PAGE.is_file(),
    reason=f"Debian's wordnet-base is not installed ({DEBIAN_WORDNET}): make install installs it")



@pytest.fixture(scope="module")
def lexicon(wordnet):
    return Lexicon(wordnet, read_preposition_antonyms())


@pytest.fixture(scope="module")
def built_wordnet(tmp_path_factory):
    """WordNet built by the install script into a temporary folder, as `make install` builds it."""
    if not (DEBIAN_WORDNET / "data.noun").is_file() or not DEBIAN_LEXNAMES_MAN_PAGE.is_file():
        pytest.skip(f"Debian's wordnet-base is not installed ({DEBIAN_WORDNET}): make install installs it")
    target = tmp_path_factory.mktemp("nltk_data") / "corpora" / "wordnet"
    install_wordnet(DEBIAN_WORDNET, DEBIAN_LEXNAMES_MAN_PAGE, target)
    return target


def snapshot(folder: Path) -> dict:
    return {path.name: (path.stat().st_size, path.stat().st_mtime_ns, path.read_bytes()[:4096])
            for path in sorted(folder.iterdir())}


# --- Antonyms -----------------------------------------------------------------------------------------

def test_wordnet_antonyms_of_a_verb_a_noun_an_adjective_and_an_adverb(lexicon):
    assert "close" in lexicon.antonyms("open", "VERB")
    assert "woman" in lexicon.antonyms("man", "NOUN")
    assert lexicon.antonyms("old", "ADJ") == ["new", "young"]
    assert lexicon.antonyms("quickly", "ADV") == ["slowly"]


def test_antonyms_are_sorted_and_follow_the_part_of_speech(lexicon):
    assert lexicon.antonyms("sit", "VERB") == ["lie", "stand"]
    assert lexicon.antonyms("open", "ADJ") == ["closed", "shut"]
    assert lexicon.antonyms("dog", "NOUN") == []
    assert lexicon.antonyms("man", "PROPN") == []


def test_related_antonyms_come_from_hypernyms_and_hyponyms(lexicon):
    # Hypernyms: male.n.02 of male_child.n.01 (antonym female), man.n.01 of boy.n.02 (antonym woman);
    # son.n.01's gives female_offspring, two words, left out.
    assert lexicon.related_antonyms("boy", "NOUN") == ["female", "woman"]
    # Hyponyms of "open": unlock (antonym lock), unseal (antonym seal).
    assert {"lock", "seal"} <= set(lexicon.related_antonyms("open", "VERB"))


def test_related_antonyms_are_single_words_other_than_the_word(lexicon):
    # run's related antonyms include "stay_in_place" and "stand_still" in WordNet.
    related = lexicon.related_antonyms("run", "VERB")
    assert related == sorted(related) and "stay" in related
    assert all("_" not in word for word in related) and "run" not in related
    assert lexicon.related_antonyms("big", "ADJ") == []  # adjectives have no hypernyms


def test_prepositions_take_their_antonyms_from_the_pairs_file(lexicon):
    assert lexicon.antonyms("on", "ADP") == ["off"]
    assert lexicon.antonyms("off", "ADP") == ["on"]
    assert lexicon.antonyms("above", "ADP") == ["below"]
    assert lexicon.antonyms("of", "ADP") == []
    assert lexicon.related_antonyms("on", "ADP") == []


def test_the_preposition_pairs_are_read_both_ways():
    pairs = read_preposition_antonyms()
    assert pairs["with"] == ("without",) and pairs["without"] == ("with",)
    assert pairs["up"] == ("down",) and pairs["in"] == ("out",)
    assert all(" " not in word for word in pairs)


def test_a_bad_preposition_line_is_named(tmp_path):
    pairs = tmp_path / "pairs.txt"
    pairs.write_text("# a comment\non off\nin front of behind\n", encoding="utf-8")
    with pytest.raises(CapcleanError, match="line 3: expected two prepositions"):
        read_preposition_antonyms(pairs)


# --- Inflection ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("lemma, tag, form", [
    ("close", "VBG", "closing"),
    ("woman", "NNS", "women"),
    ("run", "VBD", "ran"),
    ("run", "VBZ", "runs"),
    ("ride", "VBN", "ridden"),
    ("small", "JJR", "smaller"),
    ("good", "JJS", "best"),
    ("fast", "RBR", "faster"),
    ("woman", "NN", "woman"),
])
def test_inflect_like_gives_the_form_of_the_original_tag(lemma, tag, form):
    assert inflect_like(lemma, tag) == form


def test_inflect_like_takes_the_first_spelling_and_keeps_uninflected_words():
    assert inflect_like("be", "VBD") == "was"  # lemminflect gives ("was", "were")
    assert inflect_like("off", "IN") == "off"
    assert inflect_like("off", "RP") == "off"


# --- Remembered answers -------------------------------------------------------------------------------

class CountingWordNet:
    """The real WordNet, counting the look-ups that reach it."""

    def __init__(self, wordnet):
        self._wordnet, self.calls = wordnet, 0

    def lemmas(self, *args):
        self.calls += 1
        return self._wordnet.lemmas(*args)

    def synsets(self, *args):
        self.calls += 1
        return self._wordnet.synsets(*args)


HAND_CASES = [("open", "VERB"), ("man", "NOUN"), ("large", "ADJ"), ("quickly", "ADV"), ("on", "ADP"),
              ("the", "DET"), ("xyzzy", "NOUN")]


@pytest.mark.parametrize("lemma, pos", HAND_CASES)
def test_a_remembered_answer_is_the_one_looked_up(wordnet, lemma, pos):
    lexicon = Lexicon(wordnet, read_preposition_antonyms())
    looked_up = (lexicon._look_up_antonyms(lemma, pos), lexicon._look_up_related_antonyms(lemma, pos))
    first = (lexicon.antonyms(lemma, pos), lexicon.related_antonyms(lemma, pos))
    again = (lexicon.antonyms(lemma, pos), lexicon.related_antonyms(lemma, pos))
    assert first == again == looked_up


def test_hand_cases_give_the_antonyms_worked_out_by_hand(wordnet):
    lexicon = Lexicon(wordnet, read_preposition_antonyms())
    for _ in range(2):  # looked up, then remembered
        assert lexicon.antonyms("open", "VERB") == ["close"]
        assert lexicon.antonyms("man", "NOUN") == ["woman"]
        assert lexicon.related_antonyms("man", "NOUN") == ["black", "draftee", "female", "juvenile", "volunteer",
                                                           "white"]
        assert lexicon.antonyms("on", "ADP") == ["off"]
        assert lexicon.antonyms("the", "DET") == []
        assert lexicon.inflect("close", "VBG") == "closing"
        assert lexicon.inflect("be", "VBD") == "was"
        assert lexicon.inflect("off", "IN") == "off"


def test_wordnet_is_asked_once_per_lemma_and_part(wordnet):
    counting = CountingWordNet(wordnet)
    lexicon = Lexicon(counting, read_preposition_antonyms())
    lexicon.antonyms("open", "VERB")
    lexicon.related_antonyms("open", "VERB")
    asked = counting.calls
    for _ in range(3):
        lexicon.antonyms("open", "VERB")
        lexicon.related_antonyms("open", "VERB")
    assert counting.calls == asked > 0
    lexicon.antonyms("open", "ADJ")  # another part of speech is another question
    assert counting.calls == asked + 1


def test_the_memory_is_the_lexicons_own_and_a_caller_cannot_change_it(wordnet):
    counting = CountingWordNet(wordnet)
    first = Lexicon(counting, read_preposition_antonyms())
    first.antonyms("open", "VERB").append("ajar")  # the caller's copy
    assert first.antonyms("open", "VERB") == ["close"]
    asked = counting.calls
    Lexicon(counting, read_preposition_antonyms()).antonyms("open", "VERB")  # a new lexicon looks up again
    assert counting.calls == asked + 1


def test_a_lexicon_without_wordnet_answers_the_words_it_learnt_and_refuses_others(lexicon):
    answers = lexicon.answers({("open", "VERB"), ("on", "ADP"), ("man", "NOUN")})
    assert answers[("open", "VERB")][0] == ("close",) and answers[("on", "ADP")][0] == ("off",)
    learnt = Lexicon(None, {})
    learnt.learn(answers)
    for lemma, pos in answers:
        assert learnt.antonyms(lemma, pos) == lexicon.antonyms(lemma, pos)
        assert learnt.related_antonyms(lemma, pos) == lexicon.related_antonyms(lemma, pos)
    assert learnt.inflect("close", "VBG") == "closing"  # lemminflect needs no WordNet
    with pytest.raises(KeyError):
        learnt.antonyms("woman", "NOUN")  # never learnt: an error, not an empty answer
    with pytest.raises(KeyError):
        learnt.antonyms("off", "ADP")


# --- Opening WordNet ----------------------------------------------------------------------------------

def test_a_missing_wordnet_is_one_line_naming_the_folder(tmp_path):
    folder = tmp_path / "nltk_data" / "corpora" / "wordnet"
    with pytest.raises(WordNetMissingError) as raised:
        open_wordnet(folder)
    assert isinstance(raised.value, CapcleanError)
    assert find_error_line(raised.value) == f"WordNet not found in {folder}: run make install"


def test_checking_refuses_a_missing_wordnet_as_opening_does(tmp_path):
    folder = tmp_path / "nltk_data" / "corpora" / "wordnet"
    with pytest.raises(WordNetMissingError) as raised:
        check_wordnet(folder)
    assert find_error_line(raised.value) == f"WordNet not found in {folder}: run make install"


def test_checking_passes_the_wordnet_that_opens(wordnet):
    check_wordnet(default_wordnet_dir())  # the `wordnet` fixture opened this folder


def test_the_lexicographer_file_names_reach_the_synsets(wordnet):
    assert wordnet.synset("dog.n.01").lexname() == "noun.animal"
    assert wordnet.synset("open.v.01").lexname() == "verb.contact"
    assert wordnet.synset("happy.a.01").lexname() == "adj.all"


def test_default_wordnet_dir_is_in_the_virtual_environment():
    import sys

    assert default_wordnet_dir() == Path(sys.prefix) / "nltk_data" / "corpora" / "wordnet"


# --- The install script -------------------------------------------------------------------------------

@needs_debian_wordnet
def test_lexnames_is_made_from_the_man_page_table():
    lines = lexnames_lines(DEBIAN_LEXNAMES_MAN_PAGE)
    assert len(lines) == 45
    assert lines[0] == "00\tadj.all\t3"
    assert lines[5] == "05\tnoun.animal\t1"
    assert lines[18] == "18\tnoun.person\t1"  # the man page has spaces after this name
    assert lines[29] == "29\tverb.body\t2"
    assert lines[44] == "44\tadj.ppl\t3"


@needs_debian_wordnet
def test_a_shifted_lexnames_table_is_caught_by_the_data_files():
    lines = lexnames_lines(DEBIAN_LEXNAMES_MAN_PAGE)
    shifted = [f"{number:02d}\t{line.split(chr(9), 1)[1]}" for number, line in enumerate(lines[1:] + lines[:1])]
    check_against_data_files(lines, DEBIAN_WORDNET)
    with pytest.raises(WordNetInstallError, match="data.noun uses lexicographer files"):
        check_against_data_files(shifted, DEBIAN_WORDNET)


def test_a_missing_man_page_is_named(tmp_path):
    with pytest.raises(WordNetInstallError, match=str(tmp_path / "lexnames.5WN.gz")):
        lexnames_lines(tmp_path / "lexnames.5WN.gz")


def test_the_install_copies_the_database_and_adds_lexnames(built_wordnet):
    assert filecmp.cmp(DEBIAN_WORDNET / "data.noun", built_wordnet / "data.noun", shallow=False)
    assert not (built_wordnet / "data.noun").is_symlink()
    assert (built_wordnet / "lexnames").read_text(encoding="utf-8").count("\n") == 45
    assert not any(path.is_dir() for path in built_wordnet.iterdir())


def test_installing_twice_gives_the_same_files(built_wordnet):
    before = snapshot(built_wordnet)
    install_wordnet(DEBIAN_WORDNET, DEBIAN_LEXNAMES_MAN_PAGE, built_wordnet)
    assert snapshot(built_wordnet) == before


def test_nltk_refuses_a_wordnet_outside_its_data_folders_in_one_line(built_wordnet):
    # NLTK trusts the system temporary folder only when it is private to the user.
    if not os.stat(tempfile.gettempdir()).st_mode & 0o002:
        pytest.skip(f"{tempfile.gettempdir()} is private, and NLTK reads from it")
    for refuse in (check_wordnet, open_wordnet):  # the check, without opening, says what opening would
        with pytest.raises(WordNetMissingError) as raised:
            refuse(built_wordnet)
        assert find_error_line(raised.value) == (
            f"NLTK will not read WordNet from {built_wordnet}, outside its data folders: run make install")


def test_the_index_is_read_into_the_map_nltk_builds(wordnet):
    # capclean reads index.noun/.verb/.adj/.adv with Python's file object (issue 41: seconds per worker); the
    # map must be NLTK's own, key for key and in the same order, or a synset list could change.
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    from transforms.evaluation.lexicon import _wordnet30_reader

    class NltkIndex(_wordnet30_reader()):
        _load_lemma_pos_offset_map = WordNetCorpusReader._load_lemma_pos_offset_map

    ours = open_wordnet(default_wordnet_dir())._lemma_pos_offset_map
    theirs = NltkIndex(str(default_wordnet_dir()), omw_reader=None)._lemma_pos_offset_map
    assert len(ours) > 140_000
    assert [(lemma, list(parts.items())) for lemma, parts in ours.items()] == [
        (lemma, list(parts.items())) for lemma, parts in theirs.items()]
    assert ours["dog"]["n"][:1] == [2084071]  # dog.n.01, worked out from index.noun's line for "dog"


def test_a_bad_index_line_names_its_file_and_line(tmp_path):
    from collections import defaultdict
    from types import SimpleNamespace

    from nltk.corpus.reader.wordnet import WordNetError

    from transforms.evaluation.lexicon import _wordnet30_reader

    for suffix in ("adj", "adv", "noun", "verb"):
        (tmp_path / f"index.{suffix}").write_text("  licence line\n", encoding="utf-8")
    # "dog": 2 synsets announced, 1 sense counted: not an index line.
    (tmp_path / "index.noun").write_text("  licence line\ndog n 2 1 @ 1 0 02084071\n", encoding="utf-8")
    reader_class = _wordnet30_reader()
    reader = reader_class.__new__(reader_class)
    reader._lemma_pos_offset_map, reader.satellite_offsets = defaultdict(dict), set()
    # NLTK opens only files under its data folders: the files here are found by path instead.
    reader.abspath = lambda name: SimpleNamespace(path=str(tmp_path / name))
    with pytest.raises(WordNetError, match="index.noun, line 2"):
        reader._load_lemma_pos_offset_map()
