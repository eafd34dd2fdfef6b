"""PoSRank from a (captions, 1 + K) matrix: the order `capclean evaluate --write-texts --negatives` writes, the
same figures as `capclean posrank` on the same scores as a long table, in `posrank` and inside `evaluate`; and
the refusals every scores file of the negatives gets (one line naming the file and the row)."""
import csv
import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipelines.cli import main
from schemas.evaluation_tables import HARDNEG
from transforms.errors import CapcleanError
from transforms.evaluation.posrank import matrix_rows, posrank_of_matrix

VIDEOS = [{"video_id": "video7010", "split": "test", "category": 1},
          {"video_id": "video7011", "split": "test", "category": 1}]
SENTENCES = [{"sen_id": 0, "video_id": "video7010", "caption": "a man talks about cars"},
             {"sen_id": 1, "video_id": "video7010", "caption": "a man drives"},
             {"sen_id": 2, "video_id": "video7011", "caption": "a dog runs"},
             {"sen_id": 3, "video_id": "video7011", "caption": "a dog runs fast"}]
VIDEO_OF = {sentence["sen_id"]: sentence["video_id"] for sentence in SENTENCES}
CAPTION_OF = {sentence["sen_id"]: sentence["caption"] for sentence in SENTENCES}


def negative(sen_id: int, part: str, k: int, level: str = "word") -> dict:
    return {"negative_id": f"{sen_id}-{part}-{level}-{k}", "sen_id": sen_id, "video_id": VIDEO_OF[sen_id],
            "part": part, "level": level, "k": k, "text": f"{CAPTION_OF[sen_id]} ({part} {k})",
            "caption": CAPTION_OF[sen_id], "positions": [1], "originals": ["man"], "replacements": ["woman"],
            "source": "vocabulary"}


def write_hardneg(folder, rows: list):
    """A hardneg/ table of `rows`, in two files, the second first in sen_id, as files may come."""
    (folder / "hardneg").mkdir(parents=True)
    half = len(rows) // 2
    pq.write_table(pa.Table.from_pylist(rows[half:], schema=HARDNEG), folder / "hardneg" / "part-0.parquet")
    pq.write_table(pa.Table.from_pylist(rows[:half], schema=HARDNEG), folder / "hardneg" / "part-1.parquet")
    return folder


@pytest.fixture
def raw(tmp_path, write_annotations):
    return str(write_annotations(tmp_path / "raw", VIDEOS, SENTENCES))


@pytest.fixture
def twenty(tmp_path):
    """Every caption with 20 noun and 20 verb negatives; caption 3 has 20 nouns and only 2 verbs."""
    rows = [negative(sen_id, part, k) for sen_id in VIDEO_OF for part in ("noun", "verb") for k in range(20)
            if not (sen_id == 3 and part == "verb" and k >= 2)]
    return write_hardneg(tmp_path / "negatives", rows), rows


def run(capsys, *args):
    code = main([*map(str, args)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write_long_table(path, scores: dict):
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["video_id", "text_id", "score"])
        writer.writerows((video, text, repr(score)) for (video, text), score in scores.items())
    return path


def matrix_of(texts: dict, scores: dict) -> np.ndarray:
    """The (rows, 1 + K) matrix of `scores` in the order --write-texts wrote, NaN after a row's negatives."""
    rows = texts["negatives"]["rows"]
    matrix = np.full(texts["negatives"]["shape"], np.nan)
    for index, row in enumerate(rows):
        for column, text_id in enumerate(row["text_ids"]):
            matrix[index, column] = scores[(row["video_id"], text_id)]
    return matrix


def random_scores(rows: list, seed: int = 3) -> dict:
    """A score per (own video, caption) and (own video, negative), quantised so that ties happen."""
    random = np.random.default_rng(seed)
    pairs = [(row["video_id"], row["negative_id"]) for row in rows]
    pairs += [(VIDEO_OF[sen_id], str(sen_id)) for sen_id in VIDEO_OF]
    return {pair: float(score) for pair, score in zip(pairs, np.round(random.random(len(pairs)), 1))}


# ---------------------------------------------------------------- the order

def test_write_texts_lists_each_caption_part_and_level_with_its_negatives_in_order(raw, twenty, tmp_path, capsys):
    negatives, _ = twenty
    target = tmp_path / "texts.json"
    code, _, err = run(capsys, "evaluate", "--protocol", "full-test", "--input", raw, "--write-texts", target,
                       "--negatives", negatives)
    assert code == 0, err
    written = json.loads(target.read_text(encoding="utf-8"))["negatives"]
    # 4 captions x 2 parts = 8 rows; the widest has the caption and 20 negatives.
    assert written["shape"] == [8, 21]
    assert [(row["sen_id"], row["part"]) for row in written["rows"]] == [
        (0, "noun"), (0, "verb"), (1, "noun"), (1, "verb"), (2, "noun"), (2, "verb"), (3, "noun"), (3, "verb")]
    first = written["rows"][0]
    assert first["texts"][:3] == ["a man talks about cars", "a man talks about cars (noun 0)",
                                  "a man talks about cars (noun 1)"]
    assert first["text_ids"][:2] == ["0", "0-noun-word-0"] and first["video_id"] == "video7010"
    assert written["rows"][7]["texts"] == ["a dog runs fast", "a dog runs fast (verb 0)", "a dog runs fast (verb 1)"]


def test_negatives_of_a_video_outside_the_protocol_are_refused(raw, tmp_path, capsys, write_annotations):
    negatives = write_hardneg(tmp_path / "negatives", [negative(0, "noun", 0), negative(2, "noun", 0)])
    videos = tmp_path / "videos.txt"
    videos.write_text("video7011\n", encoding="utf-8")
    sen_ids = tmp_path / "sen_ids.txt"
    sen_ids.write_text("2\n", encoding="utf-8")
    code, _, err = run(capsys, "evaluate", "--protocol", "custom", "--input", raw, "--videos", videos,
                       "--sen-ids", sen_ids, "--write-texts", tmp_path / "texts.json", "--negatives", negatives)
    assert code == 2 and "video video7010 is not a video of custom" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "texts.json").exists()


# ---------------------------------------------------------------- the same figures both ways

def test_posrank_from_a_captions_x_21_npy_equals_posrank_on_the_same_scores_as_a_long_table(raw, twenty, tmp_path,
                                                                                               capsys):
    negatives, rows = twenty
    scores = random_scores(rows)
    texts = tmp_path / "texts.json"
    assert run(capsys, "evaluate", "--protocol", "full-test", "--input", raw, "--write-texts", texts,
               "--negatives", negatives)[0] == 0
    matrix = matrix_of(json.loads(texts.read_text(encoding="utf-8")), scores)
    assert matrix.shape == (8, 21)
    np.save(tmp_path / "negatives.npy", matrix)
    write_long_table(tmp_path / "long.csv", scores)
    figures = {}
    for name in ("negatives.npy", "long.csv"):
        code, _, err = run(capsys, "posrank", "--negatives", negatives, "--scores", tmp_path / name,
                           "--json", tmp_path / f"{name}.json")
        assert code == 0, err
        figures[name] = json.loads((tmp_path / f"{name}.json").read_text(encoding="utf-8"))
    assert figures["negatives.npy"] == figures["long.csv"]
    # And by hand for caption 3's two verbs: its rank among itself and them, ties against it.
    own, verbs = scores[("video7011", "3")], [scores[("video7011", f"3-verb-word-{k}")] for k in range(2)]
    row = next(row for row in matrix_rows(pq.read_table(negatives / "hardneg").to_pydict())
               if row.sen_id == 3 and row.part == "verb")
    one_row = posrank_of_matrix([row], np.array([[own, *verbs, *[np.nan] * 18]]))
    assert one_row.score("verb").posrank == 1 / (1 + sum(score >= own for score in verbs))


def test_evaluate_prints_and_writes_posrank_beside_chance_equal_to_posrank(raw, twenty, tmp_path, capsys):
    negatives, rows = twenty
    scores = random_scores(rows, seed=5)
    texts = tmp_path / "texts.json"
    run(capsys, "evaluate", "--protocol", "full-test", "--input", raw, "--write-texts", texts, "--negatives",
        negatives)
    np.save(tmp_path / "negatives.npy", matrix_of(json.loads(texts.read_text(encoding="utf-8")), scores))
    np.save(tmp_path / "sim.npy", np.eye(4, 2))
    code, out, err = run(capsys, "evaluate", "--protocol", "full-test", "--input", raw, "--scores",
                         tmp_path / "sim.npy", "--negatives", negatives, "--negatives-scores",
                         tmp_path / "negatives.npy", "--json", tmp_path / "evaluate.json", "--report",
                         tmp_path / "evaluate.html")
    assert code == 0, err
    assert "PoSRank: the caption among its hard negatives, beside chance" in out and "ties count against" in out
    evaluated = json.loads((tmp_path / "evaluate.json").read_text(encoding="utf-8"))["posrank"]
    write_long_table(tmp_path / "long.csv", scores)
    assert run(capsys, "posrank", "--negatives", negatives, "--scores", tmp_path / "long.csv", "--json",
               tmp_path / "posrank.json")[0] == 0
    alone = json.loads((tmp_path / "posrank.json").read_text(encoding="utf-8"))
    assert evaluated["figures"] == {level: figures for level, figures in alone.items() if level != "written_by"}
    assert evaluated["figures"]["word"]["noun"]["chance"] == pytest.approx(0.1736, abs=1e-4)  # H_21 / 21
    assert "PoSRank on the hard negatives" in (tmp_path / "evaluate.html").read_text(encoding="utf-8")


# ---------------------------------------------------------------- what is refused, in one line

@pytest.mark.parametrize("change, message", [
    (lambda matrix: matrix[:, :20], r"a 8 x 20 matrix, but the negatives have 8 rows"),
    (lambda matrix: matrix.__setitem__((2, 5), np.inf) or matrix, r"row 2, column 5 .*sen_id 1, noun, word.* is inf"),
    (lambda matrix: matrix.__setitem__((7, 4), 0.5) or matrix, r"row 7, column 4 .*only 3 texts: it must be NaN"),
])
def test_a_matrix_that_cannot_be_the_negatives_is_refused_naming_the_cell(twenty, tmp_path, capsys, change,
                                                                          message):
    negatives, rows = twenty
    scores = random_scores(rows)
    table = pq.read_table(negatives / "hardneg").to_pydict()
    ordered = matrix_rows(table)
    matrix = np.full((8, 21), np.nan)
    for index, row in enumerate(ordered):
        matrix[index, :1 + len(row.negative_ids)] = [scores[(row.video_id, text)]
                                                     for text in (str(row.sen_id), *row.negative_ids)]
    np.save(tmp_path / "bad.npy", change(matrix))
    code, _, err = run(capsys, "posrank", "--negatives", negatives, "--scores", tmp_path / "bad.npy")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert __import__("re").search(message, err), err


@pytest.mark.parametrize("extra_line, message", [
    ("video9999,0,0.5", r"line 4 scores \(video9999, 0\), a pair the negatives do not have"),
    ("video7010,0,0.9", r"line 4 scores \(video7010, 0\) again \(line 2 scored it\)"),
    ("video7010,2,0.9", r"line 4 scores \(video7010, 2\), a pair the negatives do not have"),
])
def test_a_long_table_row_the_negatives_do_not_need_or_repeat_is_refused(tmp_path, capsys, extra_line, message):
    """posrank used to ignore the scores of a video not in the negatives and accept an exact duplicate row."""
    negatives = write_hardneg(tmp_path / "negatives", [negative(0, "noun", 0), negative(0, "noun", 1)])
    path = tmp_path / "scores.csv"
    path.write_text("video_id,text_id,score\nvideo7010,0,0.9\nvideo7010,0-noun-word-0,0.1\n"
                    f"{extra_line}\nvideo7010,0-noun-word-1,0.2\n", encoding="utf-8")
    code, _, err = run(capsys, "posrank", "--negatives", negatives, "--scores", path)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert __import__("re").search(message, err), err


@pytest.mark.parametrize("value, message", [("inf", "'inf' is not a finite number"),
                                            ("nan", "'nan' is not a finite number"),
                                            ("", "column score is empty")])
def test_a_score_that_is_not_finite_is_refused_naming_its_line(tmp_path, capsys, value, message):
    negatives = write_hardneg(tmp_path / "negatives", [negative(0, "noun", 0), negative(0, "noun", 1)])
    path = tmp_path / "scores.csv"
    path.write_text(f"video_id,text_id,score\nvideo7010,0,0.9\nvideo7010,0-noun-word-0,{value}\n"
                    "video7010,0-noun-word-1,0.2\n", encoding="utf-8")
    code, _, err = run(capsys, "posrank", "--negatives", negatives, "--scores", path)
    assert code == 2 and f"line 3, column score" in err and message in err, err


def test_a_null_score_in_parquet_is_named_by_its_row_not_as_none(tmp_path, capsys):
    negatives = write_hardneg(tmp_path / "negatives", [negative(0, "noun", 0)])
    path = tmp_path / "scores.parquet"
    pq.write_table(pa.table({"video_id": ["video7010", "video7010"], "text_id": ["0", "0-noun-word-0"],
                             "score": [0.9, None]}), path)
    code, _, err = run(capsys, "posrank", "--negatives", negatives, "--scores", path)
    assert code == 2 and "row 2, column score is empty" in err and "None" not in err, err


def test_a_missing_negatives_folder_is_said_not_to_exist(tmp_path, capsys):
    path = write_long_table(tmp_path / "scores.csv", {("video7010", "0"): 0.5})
    code, _, err = run(capsys, "posrank", "--negatives", tmp_path / "nowhere", "--scores", path)
    assert code == 2 and f"--negatives {tmp_path / 'nowhere'} does not exist" in err, err


def test_negatives_scores_without_negatives_is_refused_before_any_work(raw, tmp_path, capsys):
    np.save(tmp_path / "sim.npy", np.eye(4, 2))
    code, _, err = run(capsys, "evaluate", "--protocol", "full-test", "--input", raw, "--scores",
                       tmp_path / "sim.npy", "--negatives-scores", tmp_path / "sim.npy")
    assert code == 2 and "--negatives-scores needs --negatives" in err
