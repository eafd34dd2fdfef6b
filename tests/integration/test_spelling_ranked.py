"""The default profile's ranked spelling rule, on the corpus statistics of the real MSR-VTT data."""
import pytest

from devsets.spelling import corpus_statistics, load_devset, rows_in, score, speller_for
from pipelines.config import load_config
from transforms.spelling import Speller, WordLists

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def statistics(msrvtt_dir):
    return corpus_statistics(str(msrvtt_dir))


@pytest.fixture(scope="module")
def default_step(statistics):
    config = load_config("default").spelling
    stats, phrases, _ = statistics
    return Speller(config, WordLists.read(config), stats, phrases).correct


@pytest.mark.parametrize("word", ["chris", "paris", "korea", "latin", "kong", "conan", "hitler", "youtube",
                                  "minecraft", "spongebob"])
def test_default_never_changes_names_and_domain_words(default_step, word):
    caption = f"a man talks about {word} in a video"
    text, corrections, _ = default_step(caption)
    assert text == caption and corrections == []


@pytest.mark.parametrize("caption, expected", [
    ("a man is showing a vedio", "a man is showing a video"),
    ("a woan is cooking in a kitchen", "a woman is cooking in a kitchen"),
    ("a man explaning a game", "a man explaining a game"),
    ("two diffrent cars", "two different cars"),
    ("a coversation between two men", "a conversation between two men"),
    ("a woman shows a receipe", "a woman shows a recipe"),
])
def test_default_corrects_clear_misspellings(default_step, caption, expected):
    assert default_step(caption)[0] == expected


@pytest.mark.parametrize("caption, expected", [
    ("two mens are talking", "two men are talking"),
    ("a video for childrens", "a video for children"),
    ("a womens soccer game", "a women s soccer game"),
    ("a childrens cartoon is shown", "a children s cartoon is shown"),
])
def test_default_reads_a_run_together_possessive_as_a_plural_only_in_a_plural_context(default_step, caption, expected):
    assert default_step(caption)[0] == expected


@pytest.mark.parametrize("caption, expected", [
    ("a girl eats icecream", "a girl eats ice cream"),  # the reviewed split list (dictionaries/msrvtt/splits.txt)
    ("spiderman swings on a web", "spider man swings on a web"),
    ("a stovetop meal", "a stovetop meal"),  # a dictionary word, unlike the published list says
    ("a man is lookin at a car", "a man is looking at a car"),  # a dropped g
    ("a man sits ina car", "a man sits in a car"),
    ("solving a rubicks cube", "solving a rubik s cube"),  # Rubik's, as "rubix" and "rubics" map
    ("dancing to the rythm", "dancing to the rhythm"),  # the list of common misspellings (codespell's)
    ("a family eats at a restuarant", "a family eats at a restaurant"),
])
def test_default_splits_run_together_words_and_restores_a_dropped_g(default_step, caption, expected):
    assert default_step(caption)[0] == expected


def test_a_token_with_no_clear_correction_is_flagged_not_changed(default_step):
    text, corrections, flagged = default_step("a man plays the qwzxv game")
    assert text == "a man plays the qwzxv game" and corrections == []
    assert flagged == [{"position": 4, "token": "qwzxv", "reason": "no close word in the corpus", "candidate": None,
                        "flagged_by": "corpus", "distance": None, "score": None, "token_count": 0, "token_videos": 0,
                        "candidate_count": None, "candidate_videos": None}]


def test_floors_on_the_labelled_dev_set(statistics):
    """Figures on devsets/data/spelling_dev.tsv (10,078 train-split tokens labelled by hand, forty samples;
    measured 0.923 / 0.980 / 0.794 on all, the gate having been trained on 9,078 of them). A regression fails here."""
    rows = load_devset()
    assert len(rows) >= 10070
    default = score(rows, speller_for("default", *statistics))
    paper = score(rows, speller_for("paper", *statistics))
    assert default["precision"] >= 0.97 and default["accuracy"] >= 0.915 and default["recall"] >= 0.78
    assert default["precision"] > paper["precision"] + 0.3 and default["accuracy"] > paper["accuracy"]


def test_the_held_out_samples_meet_the_issues_bar(statistics):
    """The thirty-seventh to fortieth samples, which neither the rules nor the gate saw
    (measured 0.913 / 0.971): accuracy >= 0.90 and change precision >= 0.95."""
    held_out = rows_in(load_devset(), "held-out")
    assert len(held_out) == 1000
    default = score(held_out, speller_for("default", *statistics))
    assert default["accuracy"] >= 0.90 and default["precision"] >= 0.95
