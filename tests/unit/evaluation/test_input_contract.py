"""One input contract (issue 40, item 6): the cells every command reads alike, refused in one line naming the
file, the row and the column: a label word, an empty or non-finite score, in a table keyed by sen_id too."""
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipelines.evaluation.label_files import LabelInputError, label_value
from pipelines.evaluation.score_tables import Gallery, ScoresInputError, read_score_table
from pipelines.evaluation.table_cells import cell_label, cell_number
from transforms.errors import CapcleanError


@pytest.mark.parametrize("word, relevant", [("1", True), ("yes", True), ("Relevant", True), (" TRUE ", True),
                                            ("0", False), ("no", False), ("irrelevant", False), ("False", False)])
def test_label_words_are_read_alike_in_every_command(word, relevant):
    assert cell_label("labels.csv", "line 2", "label", word, CapcleanError) is relevant
    assert label_value("labels.csv", "line 2", word) is relevant  # fire reads them through it


@pytest.mark.parametrize("word", ["maybe", "2", "", None])
def test_any_other_label_word_is_refused_naming_the_words_it_may_be(word):
    with pytest.raises(LabelInputError) as raised:
        label_value("labels.csv", "line 7", word)
    message = str(raised.value)
    assert "labels.csv: line 7, column label" in message and "yes" in message and "irrelevant" in message


@pytest.mark.parametrize("value, message", [(None, "row 3, column score is empty"), ("", "is empty"),
                                            (float("inf"), "inf is not a finite number"),
                                            (float("nan"), "nan is not a finite number"),
                                            ("high", "'high' is not a number"), (True, "True is not a number")])
def test_a_score_cell_that_is_not_a_finite_number_is_named(value, message):
    with pytest.raises(CapcleanError, match=message):
        cell_number("scores.parquet", "row 3", "score", value, CapcleanError)
    assert cell_number("scores.parquet", "row 3", "score", "0.25", CapcleanError) == 0.25


def test_a_null_score_in_a_parquet_table_keyed_by_sen_id_is_named_by_its_row(tmp_path):
    """ndcg and evaluate read sen_id, video_id, score tables: a null was 'a score is empty or not a finite
    number' without a row; now its row and ids."""
    path = tmp_path / "scores.parquet"
    pq.write_table(pa.table({"sen_id": [1, 2, 1, 2], "video_id": ["v1", "v1", "v2", "v2"],
                             "score": [0.5, 0.1, None, 0.3]}), path)
    with pytest.raises(ScoresInputError) as raised:
        read_score_table(path, Gallery(("v1", "v2"), (1, 2)))
    assert str(raised.value).endswith("scores.parquet: row 3 (sen_id 1, video_id v2): the score is empty")


def test_an_infinite_score_in_a_csv_keyed_by_sen_id_is_named_by_its_row(tmp_path):
    path = tmp_path / "scores.csv"
    path.write_text("sen_id,video_id,score\n1,v1,0.5\n2,v1,inf\n", encoding="utf-8")
    with pytest.raises(ScoresInputError, match=r"row 2 \(sen_id 2, video_id v1\): the score is inf, not a finite"):
        read_score_table(path, Gallery(("v1",), (1, 2)))


def test_fire_refuses_a_users_file_at_output_before_reading_anything(tmp_path, capsys):
    """fire --out onto an existing file computed everything and then failed; --output is checked first now:
    the inputs here do not even exist, and the error is the output's."""
    from pipelines.cli import main

    users = tmp_path / "notes.txt"
    users.write_text("mine\n", encoding="utf-8")
    code = main(["fire", "--predictions", str(tmp_path / "none.csv"), "--labels", str(tmp_path / "none.csv"),
                 "--output", str(users)])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "notes.txt" in err and "none.csv" not in err and "\n" not in err, err
    assert users.read_text(encoding="utf-8") == "mine\n"


def test_a_video_listed_twice_is_refused_naming_it(tmp_path):
    from pipelines.evaluation.caption_input import read_video_ids

    listed = tmp_path / "videos.csv"
    listed.write_text("key,video_id\nret0,video1\nret1,video2\nret2,video1\n", encoding="utf-8")
    with pytest.raises(CapcleanError, match=r"--videos .*videos.csv: video_id video1 is listed twice \(the 1st and "
                                            r"the 3rd id of the list\)"):
        read_video_ids(str(listed))
    listed.write_text("video1\nvideo2\n", encoding="utf-8")
    assert read_video_ids(str(listed)) == {"video1", "video2"}
