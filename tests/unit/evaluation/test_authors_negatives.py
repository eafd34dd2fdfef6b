"""The authors' released hard negatives (Chen et al. 2024): JSON keyed video7960#7, one file per part of speech;
read by `capclean hardneg --authors`, written by `--write-authors`, scored by `capclean posrank`."""
import json

import pyarrow.parquet as pq
import pytest

from pipelines.cli import main
from transforms.evaluation.authors_negatives import (AuthorsFormatError, authors_documents, changed_words,
                                                     negative_rows, part_of_file)

VIDEOS = [{"video_id": "video7010", "split": "test", "category": 1},
          {"video_id": "video7011", "split": "test", "category": 1}]
# sen_ids out of order in the file: a video's captions are numbered #0, #1, ... by sen_id.
SENTENCES = [{"sen_id": 5, "video_id": "video7010", "caption": "a man opens a door"},
             {"sen_id": 2, "video_id": "video7010", "caption": "a man walks in"},
             {"sen_id": 3, "video_id": "video7011", "caption": "a dog runs on grass"}]
CAPTIONS_OF = {"video7010": [(2, "a man walks in"), (5, "a man opens a door")],
               "video7011": [(3, "a dog runs on grass")]}
NOUNS = {"video7010#1": {"0": "a man opens a window", "1": "a woman opens a door"},
         "video7011#0": {"0": "a cat runs on grass"}}
VERBS = {"video7010#0": {"0": "a man runs in"}}


@pytest.mark.parametrize("name, part", [("msrvtt1kA_ChangeNoun_RE20_20230920.json", ("noun", "word")),
                                        ("vatex1k5_ChangeADP_RE20_20230920.json", ("preposition", "word")),
                                        ("vatex1k5_ChangeVP_RE20_20230920.json", ("verb", "phrase")),
                                        ("filtered_vatex1k5_adverb_RE20.json", ("adverb", "word"))])
def test_the_file_name_says_the_part_of_speech(name, part):
    assert part_of_file(name) == part


def test_a_file_name_without_one_part_is_refused():
    with pytest.raises(AuthorsFormatError, match="does not say one part of speech"):
        part_of_file("negatives.json")


def test_a_key_numbers_the_videos_captions_by_sen_id_and_each_text_is_a_negative_in_order():
    rows = negative_rows("nouns.json", "noun", "word", NOUNS, CAPTIONS_OF)
    # video7010#1 is the second caption of video7010 by sen_id: sen_id 5.
    assert [(row["negative_id"], row["caption"], row["text"]) for row in rows] == [
        ("5-noun-word-0", "a man opens a door", "a man opens a window"),
        ("5-noun-word-1", "a man opens a door", "a woman opens a door"),
        ("3-noun-word-0", "a dog runs on grass", "a cat runs on grass")]
    assert (rows[0]["positions"], rows[0]["originals"], rows[0]["replacements"]) == ([4], ["door"], ["window"])


def test_words_changed_are_said_only_when_the_lengths_agree():
    assert changed_words("a man opens a door", "a woman opens a door") == ((1,), ("man",), ("woman",))
    assert changed_words("a man opens a door", "a man opens the front door") == ((), (), ())


@pytest.mark.parametrize("document, message", [
    ({"video7010#2": {"0": "x"}}, "video video7010 has 2 captions"),
    ({"video9#0": {"0": "x"}}, "video video9 is not in the captions"),
    ({"video7010-0": {"0": "x"}}, "is not a caption"),
    ({"video7010#0": {"0": 3}}, "must be an object"),
])
def test_a_key_or_value_that_cannot_be_a_caption_and_its_negatives_is_named(document, message):
    with pytest.raises(AuthorsFormatError, match=message):
        negative_rows("nouns.json", "noun", "word", document, CAPTIONS_OF)


def test_written_back_the_documents_are_theirs():
    rows = (negative_rows("n.json", "noun", "word", NOUNS, CAPTIONS_OF)
            + negative_rows("v.json", "verb", "word", VERBS, CAPTIONS_OF))
    assert authors_documents(rows, CAPTIONS_OF) == {"ChangeNoun.json": NOUNS, "ChangeVerb.json": VERBS}


# ---------------------------------------------------------------- the command

@pytest.fixture
def raw(tmp_path, write_annotations):
    return write_annotations(tmp_path / "raw", VIDEOS, SENTENCES)


@pytest.fixture
def their_files(tmp_path):
    folder = tmp_path / "theirs"
    folder.mkdir()
    (folder / "msrvtt1kA_ChangeNoun_RE20_20230920.json").write_text(json.dumps(NOUNS), encoding="utf-8")
    (folder / "msrvtt1kA_ChangeVerb_RE20_20230920.json").write_text(json.dumps(VERBS), encoding="utf-8")
    return folder


def test_hardneg_reads_their_files_writes_them_back_and_posrank_scores_them(raw, their_files, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["hardneg", "--input", str(raw), "--output", str(out), "--authors", str(their_files),
                 "--write-authors"]) == 0
    assert "4 negatives of 3 captions read" in capsys.readouterr().out
    negatives = pq.read_table(out / "hardneg").to_pylist()
    assert [row["negative_id"] for row in negatives] == ["2-verb-word-0", "3-noun-word-0", "5-noun-word-0",
                                                         "5-noun-word-1"]
    assert json.loads((out / "authors" / "ChangeNoun.json").read_text(encoding="utf-8")) == NOUNS
    assert json.loads((out / "authors" / "ChangeVerb.json").read_text(encoding="utf-8")) == VERBS
    assert (out / "manifest.json").is_file()
    # A model that prefers each caption over its negatives: PoSRank 1 for both parts.
    scores = tmp_path / "scores.csv"
    lines = ["video_id,text_id,score"] + [f"{row['video_id']},{row['negative_id']},0.1" for row in negatives]
    lines += ["video7010,2,0.9", "video7010,5,0.9", "video7011,3,0.9"]
    scores.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["posrank", "--negatives", str(out), "--scores", str(scores), "--json", str(tmp_path / "p.json")]) == 0
    figures = json.loads((tmp_path / "p.json").read_text(encoding="utf-8"))
    assert figures["word"]["noun"]["posrank"] == 1.0 and figures["word"]["verb"]["posrank"] == 1.0
    assert figures["word"]["noun"]["captions"] == 2 and figures["word"]["noun"]["negatives_per_caption"] == 1.5


def test_a_key_given_twice_in_their_file_is_refused_in_one_line(raw, tmp_path, capsys):
    file = tmp_path / "ChangeNoun.json"
    file.write_text('{"video7010#0": {"0": "a"}, "video7010#0": {"0": "b"}}', encoding="utf-8")
    assert main(["hardneg", "--input", str(raw), "--output", str(tmp_path / "out"), "--authors", str(file)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith("ChangeNoun.json: key 'video7010#0' is given twice") and "\n" not in err
