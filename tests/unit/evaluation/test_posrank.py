"""PoSRank per part of speech on small hard-negative tables built here; the arithmetic is in the comments."""
import csv
import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import pipelines.commands  # noqa: F401  the registry first: a command module imported alone cycles through it
from pipelines.evaluation.posrank.command import PosrankArgs, Posrank
from pipelines.evaluation.posrank.inputs import read_negatives, read_scores
from schemas.evaluation_tables import HARDNEG
from transforms.errors import CapcleanError
from transforms.evaluation.posrank import MissingScoresError, format_posrank, posrank_by_part

HAND = 1e-4
# Three captions of three videos; each has three negatives of the noun and three of the verb.
CAPTIONS = {1: "video1", 2: "video2", 3: "video3"}


def negative_row(sen_id: int, video_id: str, part: str, k: int, level: str = "word") -> dict:
    return {"negative_id": f"{sen_id}-{part}-{level}-{k}", "sen_id": sen_id, "video_id": video_id, "part": part,
            "level": level, "k": k, "text": f"negative {k} of caption {sen_id}", "caption": f"caption {sen_id}",
            "positions": [1], "originals": ["man"], "replacements": ["woman"], "source": "vocabulary"}


def small_rows(parts=("noun", "verb"), negatives_per_part=3) -> list:
    return [negative_row(sen_id, video_id, part, k) for sen_id, video_id in CAPTIONS.items()
            for part in parts for k in range(negatives_per_part)]


def as_columns(rows: list) -> dict:
    """The rows as the hardneg table's columns, through the real schema."""
    return pa.Table.from_pylist(rows, schema=HARDNEG).to_pydict()


def perfect_scores(rows: list) -> dict:
    """The true caption 1.0 with its own video, every negative 0.0."""
    scores = {(row["video_id"], row["negative_id"]): 0.0 for row in rows}
    scores.update({(row["video_id"], str(row["sen_id"])): 1.0 for row in rows})
    return scores


# ---------------------------------------------------------------- PoSRank

def test_perfect_scores_give_one_for_every_part():
    rows = small_rows()
    result = posrank_by_part(as_columns(rows), perfect_scores(rows))
    for part in ("noun", "verb"):
        score = result.score(part)
        assert score.posrank == 1.0
        assert score.captions == 3
        assert score.negatives_per_caption == 3.0
        # Chance with 3 negatives, 4 candidates: H_4 / 4 = (1 + 1/2 + 1/3 + 1/4) / 4 = 0.5208.
        assert score.chance == pytest.approx(0.5208, abs=HAND)
    assert result.means["word"].posrank == 1.0
    assert result.means["word"].parts == ("noun", "verb")


def test_ranks_one_two_and_four_give_their_mean_reciprocal():
    rows = small_rows()
    scores = perfect_scores(rows)
    # Nouns: caption 1 above its three negatives (rank 1); caption 2 below one (rank 2);
    # caption 3 below all three (rank 4). Verbs stay perfect.
    noun_scores = {1: (0.9, [0.1, 0.2, 0.3]), 2: (0.5, [0.9, 0.1, 0.2]), 3: (0.1, [0.5, 0.3, 0.2])}
    for sen_id, (true_score, negative_scores) in noun_scores.items():
        video_id = CAPTIONS[sen_id]
        scores[(video_id, str(sen_id))] = true_score
        for k, score in enumerate(negative_scores):
            scores[(video_id, f"{sen_id}-noun-word-{k}")] = score
    # The true captions' scores serve the verbs too: verbs' negatives at 0.0 stay below them.
    result = posrank_by_part(as_columns(rows), scores)
    # (1 + 1/2 + 1/4) / 3 = 1.75 / 3 = 0.5833; mean of parts = (0.5833 + 1) / 2 = 0.7917.
    assert result.score("noun").posrank == pytest.approx(0.5833, abs=HAND)
    assert result.score("verb").posrank == 1.0
    assert result.means["word"].posrank == pytest.approx(0.7917, abs=HAND)


def test_each_caption_is_scored_with_its_own_video():
    rows = small_rows(parts=("noun",))
    scores = perfect_scores(rows)
    # Caption 1's text matches video2 better than its negatives do: that must not count.
    scores[("video2", "1")] = -1.0
    scores[("video2", "1-noun-word-0")] = 5.0
    assert posrank_by_part(as_columns(rows), scores).score("noun").posrank == 1.0


def test_chance_and_negatives_per_caption_follow_each_captions_own_count():
    rows = [negative_row(1, "video1", "adverb", 0)] + [negative_row(2, "video2", "adverb", k) for k in range(3)]
    result = posrank_by_part(as_columns(rows), perfect_scores(rows))
    score = result.score("adverb")
    # Caption 1: 1 negative, H_2 / 2 = 0.75; caption 2: 3 negatives, 0.5208. Mean = 0.6354,
    # not H_3 / 3 = 0.6111 at the mean of 2 negatives.
    assert score.chance == pytest.approx(0.6354, abs=HAND)
    assert score.negatives_per_caption == 2.0
    assert score.captions == 2


def test_word_and_phrase_levels_are_scored_apart():
    rows = small_rows(parts=("noun",))
    rows += [negative_row(sen_id, video_id, "noun", 0, level="phrase") for sen_id, video_id in CAPTIONS.items()]
    scores = perfect_scores(rows)
    scores[("video1", "1-noun-phrase-0")] = 2.0  # above caption 1: rank 2 at the phrase level only
    result = posrank_by_part(as_columns(rows), scores)
    assert result.score("noun", "word").posrank == 1.0
    # (1/2 + 1 + 1) / 3 = 0.8333
    assert result.score("noun", "phrase").posrank == pytest.approx(0.8333, abs=HAND)
    assert list(result.means) == ["word", "phrase"]


def test_random_scores_over_many_captions_come_near_chance():
    captions, negatives = 20_000, 20
    sen_ids = np.repeat(np.arange(captions), negatives)
    ks = np.tile(np.arange(negatives), captions)
    columns = {"negative_id": [f"{sen_id}-noun-word-{k}" for sen_id, k in zip(sen_ids, ks)],
               "sen_id": sen_ids.tolist(), "video_id": [f"video{sen_id}" for sen_id in sen_ids],
               "part": ["noun"] * sen_ids.size, "level": ["word"] * sen_ids.size}
    random = np.random.default_rng(7)
    scores = dict(zip(zip(columns["video_id"], columns["negative_id"]), random.random(sen_ids.size)))
    scores.update(zip(((f"video{sen_id}", str(sen_id)) for sen_id in range(captions)), random.random(captions)))
    result = posrank_by_part(columns, scores)
    # H_21 / 21 = 3.6454 / 21 = 0.1736; the standard error over 20,000 captions is about 0.0015.
    assert abs(result.score("noun").posrank - 0.1736) < 0.005
    noun_row = next(line.split() for line in format_posrank(result).splitlines() if line.split()[0] == "noun")
    assert noun_row[2:] == ["0.174", "20,000", "20.0"]


def test_missing_scores_are_refused_with_their_count_in_one_line():
    rows = small_rows()
    scores = perfect_scores(rows)
    del scores[("video2", "2")]
    del scores[("video3", "3-verb-word-2")]
    with pytest.raises(MissingScoresError) as error:
        posrank_by_part(as_columns(rows), scores)
    message = str(error.value)
    # Needed: 3 true captions + 3 x 2 x 3 negatives = 21 pairs.
    assert "scores miss 2 of 21 (video, text) pairs" in message
    assert "(video2, 2), (video3, 3-verb-word-2)" in message
    assert "\n" not in message


def test_the_table_has_every_part_in_order_and_the_mean():
    rows = small_rows(parts=("verb", "noun"))
    lines = format_posrank(posrank_by_part(as_columns(rows), perfect_scores(rows))).splitlines()
    assert lines[0] == "PoSRank, word level (one word changed)"
    assert [line.split()[0] for line in lines[2:]] == ["noun", "verb", "adjective", "adverb", "preposition", "mean"]
    assert lines[4].split()[:3] == ["adjective", "-", "-"]  # no adjective negatives
    assert lines[7].split() == ["mean", "of", "2", "1.000", "0.521"]


# ---------------------------------------------------------------- the command's files

def write_scores_csv(scores: dict, path):
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["video_id", "text_id", "score"])
        writer.writerows([video_id, text_id, score] for (video_id, text_id), score in scores.items())
    return path


def write_scores_parquet(scores: dict, path):
    pq.write_table(pa.table({"video_id": [video_id for video_id, _ in scores],
                             "text_id": [text_id for _, text_id in scores], "score": list(scores.values())}), path)
    return path


def test_csv_and_parquet_scores_read_alike(tmp_path):
    scores = perfect_scores(small_rows())
    from_csv = read_scores(write_scores_csv(scores, tmp_path / "scores.csv"))
    from_parquet = read_scores(write_scores_parquet(scores, tmp_path / "scores.parquet"))
    assert from_csv == from_parquet == scores


def test_integer_text_ids_read_as_the_sen_id_string(tmp_path):
    path = tmp_path / "scores.parquet"
    pq.write_table(pa.table({"video_id": ["video1"], "text_id": pa.array([123], pa.int64()), "score": [0.5]}), path)
    assert read_scores(path) == {("video1", "123"): 0.5}


@pytest.mark.parametrize("name", ["scores.csv", "scores.parquet"])
def test_a_scores_file_without_a_column_is_named_in_one_line(tmp_path, name):
    path = tmp_path / name
    if name.endswith(".csv"):
        path.write_text("video_id,text_id\nvideo1,1\n", encoding="utf-8")
    else:
        pq.write_table(pa.table({"video_id": ["video1"], "text_id": ["1"]}), path)
    with pytest.raises(CapcleanError) as error:
        read_scores(path)
    message = str(error.value)
    assert str(path) in message and "no column(s) score" in message
    assert "\n" not in message


def test_a_score_that_is_not_a_number_names_its_line(tmp_path):
    path = tmp_path / "scores.csv"
    path.write_text("video_id,text_id,score\nvideo1,1,0.5\nvideo1,1-noun-word-0,high\n", encoding="utf-8")
    with pytest.raises(CapcleanError, match=r"scores\.csv: line 3, column score: 'high' is not a number"):
        read_scores(path)


def test_one_pair_scored_twice_is_refused_even_with_the_same_score(tmp_path):
    path = tmp_path / "scores.csv"
    path.write_text("video_id,text_id,score\nvideo1,1,0.5\nvideo1,1,0.5\nvideo1,1,0.7\n", encoding="utf-8")
    with pytest.raises(CapcleanError, match=r"line 3 scores \(video1, 1\) again \(line 2 scored it\)"):
        read_scores(path)


def test_a_scores_file_of_another_format_is_refused(tmp_path):
    with pytest.raises(CapcleanError, match="must be a .parquet or .csv table"):
        read_scores(tmp_path / "scores.json")


def test_a_folder_without_parquet_files_is_not_a_hardneg_folder(tmp_path):
    with pytest.raises(CapcleanError, match="holds no Parquet files"):
        read_negatives(tmp_path)


def test_the_command_reads_hardneg_parquet_and_scores_then_prints_and_writes_json(tmp_path, capsys):
    rows = small_rows()
    hardneg = tmp_path / "hardneg"
    hardneg.mkdir()
    # Two files, as a Beam write leaves them.
    pq.write_table(pa.Table.from_pylist(rows[:9], schema=HARDNEG), hardneg / "part-00000.parquet")
    pq.write_table(pa.Table.from_pylist(rows[9:], schema=HARDNEG), hardneg / "part-00001.parquet")
    scores = write_scores_csv(perfect_scores(rows), tmp_path / "scores.csv")
    assert Posrank().run(PosrankArgs(str(hardneg), str(scores), json=str(tmp_path / "posrank.json"))) == 0
    printed = capsys.readouterr().out
    assert "PoSRank, word level" in printed
    figures = json.loads((tmp_path / "posrank.json").read_text(encoding="utf-8"))
    assert figures["word"]["noun"] == {"posrank": 1.0, "chance": pytest.approx(0.5208, abs=HAND),
                                       "captions": 3, "negatives_per_caption": 3.0}
    assert figures["word"]["mean"]["parts"] == ["noun", "verb"]


def test_a_parquet_scores_file_that_is_not_parquet_is_named_in_one_line(tmp_path):
    path = tmp_path / "scores.parquet"
    path.write_text("video_id,text_id,score\n", encoding="utf-8")
    with pytest.raises(CapcleanError) as error:
        read_scores(path)
    assert f"{path} is not a readable Parquet file" in str(error.value)
    assert "\n" not in str(error.value)


def test_a_scores_csv_that_is_not_utf8_is_one_line(tmp_path):
    from pipelines.evaluation.posrank.inputs import ScoresError, read_scores

    path = tmp_path / "scores.csv"
    path.write_bytes(b"video_id,text_id,score\nvid\xe9o1,1,0.5\n")
    with pytest.raises(ScoresError, match=r"scores.csv is not UTF-8 text: byte \d+ cannot be decoded"):
        read_scores(str(path))
