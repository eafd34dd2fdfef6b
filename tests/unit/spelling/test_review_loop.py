"""The review loop's pure parts: a reviewed table read back (and each refusal), the reviewed list step II reads,
its corrections applied with rule `reviewed`, and the evidence a flagged token carries into flagged/."""
import pytest

from pipelines.cleaning.review_table import read_review_table
from transforms.errors import CapcleanError
from transforms.spelling import Decision, SpellingSettings, WordLists, correct_caption
from transforms.spelling.decisions import FlagEvidence, flagged, with_counts
from transforms.spelling.step import flagged_row
from transforms.spelling.wordlists import (REVIEWED_LIST_HEADER, DictionaryFileError, ReviewedList,
                                           read_reviewed_list, read_reviewed_lists)

HEADER = "token\tcount\tverdict\tcorrect_to"


def table(tmp_path, *rows, header=HEADER):
    path = tmp_path / "reviewed.tsv"
    path.write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    return str(path)


def test_a_reviewed_table_gives_the_fixes_and_the_kept_words(tmp_path):
    reviewed = read_review_table(table(
        tmp_path, "restraunt\t3\tfix\trestaurant", "settwo\t1\tFix \tset two", "saraswati\t2\tkeep\t",
        "gril\t9\t\t", "mandapam\t2\tkeep"))  # a short last row: its missing cells are empty
    assert reviewed == ReviewedList({"restraunt": "restaurant", "settwo": "set two"}, ("mandapam", "saraswati"))


def test_a_token_on_several_rows_as_flagged_has_them_is_one_verdict_and_an_unreviewed_row_does_not_count(tmp_path):
    reviewed = read_review_table(table(tmp_path, "probley\t1\tfix\tprobably", "probley\t1\t\t",
                                       "probley\t1\tfix\tprobably"))
    assert reviewed.fixes == {"probley": "probably"} and reviewed.keeps == ()


@pytest.mark.parametrize("row, line, says", [
    ("gril\t1\tmaybe\tgirl", 3, "verdict 'maybe' is not one of fix, keep"),
    ("gril\t1\tfix\t", 3, "fix without a replacement"),
    ("gril\t1\tkeep\tgirl", 3, "keep with correct_to 'girl'"),
    ("gril\t1\t\tgirl", 3, "correct_to 'girl' without a verdict"),
    ("gril\t1\tfix\tgirl ", 3, "is not lowercase words"),
    ("gril\t1\tfix\tthe  girl", 3, "is not lowercase words"),
    ("gril\t1\tfix\tGirl", 3, "is not lowercase words"),
    ("gril\t1\tfix\tgirl -> boy", 3, "is not lowercase words"),
    ("gril\t1\tfix\tgril", 3, "to itself; write keep"),
    ("two words\t1\tkeep\t", 3, "is not one token"),
    ("gril\t1\tfix\tgirl\textra", 3, "more cells than the header"),
    ("gril\t1\tkeep\t", 3, "token 'gril' has two verdicts: fix to 'girl' on line 2, keep here"),
])
def test_each_bad_row_is_refused_naming_the_file_and_its_line(tmp_path, row, line, says):
    path = table(tmp_path, "gril\t1\tfix\tgirl" if "two verdicts" in says else "fine\t1\t\t", row)
    with pytest.raises(CapcleanError) as refused:
        read_review_table(path)
    assert f"{path}, line {line}: " in str(refused.value) and says in str(refused.value)


def test_a_table_without_the_review_columns_is_refused_naming_them(tmp_path):
    path = table(tmp_path, "gril\t1", header="token\tcount")
    with pytest.raises(CapcleanError, match=f"{path}, line 1: the header has no verdict, correct_to column"):
        read_review_table(path)
    with pytest.raises(CapcleanError, match="cannot read the reviewed table"):
        read_review_table(str(tmp_path / "missing.tsv"))


def test_the_reviewed_list_is_written_and_read_back_and_a_later_list_overrules_an_earlier_one(tmp_path):
    first = ReviewedList({"restraunt": "restaurant", "gril": "girl"}, ("saraswati",))
    assert first.lines() == [REVIEWED_LIST_HEADER, "gril -> girl", "restraunt -> restaurant",
                             "saraswati -> saraswati"]
    (tmp_path / "first.txt").write_text("\n".join(first.lines()) + "\n")
    assert read_reviewed_list(str(tmp_path / "first.txt")) == first
    (tmp_path / "second.txt").write_text("gril -> gril\nsaraswati -> sarasvati\n")
    both = read_reviewed_lists((str(tmp_path / "first.txt"), str(tmp_path / "second.txt")))
    assert both == ReviewedList({"restraunt": "restaurant", "saraswati": "sarasvati"}, ("gril",))
    (tmp_path / "bad.txt").write_text("gril girl\n")
    with pytest.raises(DictionaryFileError, match="bad.txt, line 1: expected 'token -> replacement'"):
        read_reviewed_list(str(tmp_path / "bad.txt"))


def test_a_profile_applies_its_reviewed_lists_corrections_first_and_accepts_their_kept_words(tmp_path):
    (tmp_path / "reviewed.txt").write_text("colour -> hue\nsaraswati -> saraswati\nsettwo -> set two\n")
    settings = SpellingSettings(british_to_american="paper/british_to_american.txt", splits="paper/splits.txt",
                                custom_words="paper/custom_words.txt", reviewed=(str(tmp_path / "reviewed.txt"),))
    lists = WordLists.read(settings)
    assert "saraswati" in lists.custom_words and lists.custom_words[-1] == "saraswati"
    assert lists.mappings[0] == ("reviewed", {"colour": "hue", "settwo": "set two"})
    assert {"colour", "settwo"} <= lists.mapped  # never a correction's result
    text, rows, _ = correct_caption("a colour tv settwo", lists.mappings, lambda piece, previous, following: Decision())
    # The person's verdict on "colour" comes before the British mapping's "color".
    assert text == "a hue tv set two"
    assert rows == [{"position": 1, "original": "colour", "replacement": "hue", "rule": "reviewed", "score": None},
                    {"position": 3, "original": "settwo", "replacement": "set two", "rule": "reviewed",
                     "score": None}]
    assert WordLists.read(SpellingSettings()).mappings[0] == ("reviewed", {})  # none: nothing changes


def test_a_flagged_decision_carries_its_candidates_distance_and_the_counts_the_rule_read():
    decision = flagged("no clear best candidate (girl, grill)", "girl", (("girl", 1, 900.0), ("grill", 1, 300.0)),
                       "corpus")
    assert decision.evidence == FlagEvidence("corpus", 1)
    counted = with_counts(decision, "gril", {"gril": (4, 3), "girl": (180, 90)}, {})
    assert counted.evidence == FlagEvidence("corpus", 1, None, 4, 3, 180, 90)
    split = with_counts(flagged("two known words run together", "set two", (), "corpus"), "settwo", {},
                        {"set two": 7})
    assert split.evidence == FlagEvidence("corpus", None, None, 0, 0, 7, None)
    none = with_counts(flagged("no close word in the corpus", None, (), "corpus"), "qwzxv", {"qwzxv": (1, 1)}, {})
    assert none.evidence == FlagEvidence("corpus", None, None, 1, 1, None, None)
    assert flagged_row(2, "gril", counted) == {
        "position": 2, "token": "gril", "reason": "no clear best candidate (girl, grill)", "candidate": "girl",
        "flagged_by": "corpus", "distance": 1, "score": None, "token_count": 4, "token_videos": 3,
        "candidate_count": 180, "candidate_videos": 90}
