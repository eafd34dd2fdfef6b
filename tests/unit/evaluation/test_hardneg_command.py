"""`capclean hardneg` end to end on a small input, then `capclean posrank` on its negatives."""
import csv
import json

import pyarrow.parquet as pq
import pytest

from pipelines.cli import main

VIDEOS = [{"video_id": f"video{n}", "split": split, "category": 1}
          for n, split in ((1, "test"), (2, "test"), (3, "train"))]
CAPTIONS = [(0, 1, "a man is opening a door"), (1, 1, "a man is closing a door"),
            (2, 1, "a young woman quickly runs in the big park"), (3, 2, "a girl is singing on a stage"),
            (4, 2, "two dogs play with a red ball on the grass"), (5, 3, "a boy rides a bike down a hill")]


@pytest.fixture(scope="module")
def source(tmp_path_factory, write_captions):
    folder = tmp_path_factory.mktemp("hardneg") / "in"
    return write_captions(folder, VIDEOS, CAPTIONS)


@pytest.fixture(scope="module")
def output(source, tmp_path_factory):
    out = tmp_path_factory.mktemp("hardneg-out") / "out"
    assert main(["hardneg", "--input", str(source), "--output", str(out), "--levels", "word,phrase", "--k", "5"]) == 0
    return out


def rows(output, table):
    return pq.read_table(output / table).to_pylist()


def test_the_test_split_is_tagged_once_and_every_negative_is_a_real_one(output):
    pos = rows(output, "pos")
    assert [row["sen_id"] for row in pos] == [0, 1, 2, 3, 4]  # video3 is train
    captions = {sen_id: caption for sen_id, _, caption in CAPTIONS}
    video_texts = {1: {captions[0], captions[1], captions[2]}, 2: {captions[3], captions[4]}}
    negatives = rows(output, "hardneg")
    assert negatives and {row["level"] for row in negatives} == {"word", "phrase"}
    for row in negatives:
        assert row["text"] not in video_texts[int(row["video_id"][5:])]
        tokens, original = row["text"].split(" "), captions[row["sen_id"]].split(" ")
        assert [i for i, (a, b) in enumerate(zip(tokens, original)) if a != b] == row["positions"]
        assert row["k"] < 5
    stats = json.loads((output / "stats.json").read_text())
    assert stats["captions"] == 5 and stats["part_of_speech_shares"]["noun"] == 1.0


def test_the_same_seed_gives_the_same_bytes_and_output_safety_holds(source, output, tmp_path, capsys):
    again = tmp_path / "again"
    assert main(["hardneg", "--input", str(source), "--output", str(again), "--levels", "word,phrase", "--k", "5",
                 "--direct_num_workers=2", "--direct_running_mode=multi_processing"]) == 0
    for table in ("pos", "hardneg"):
        assert sorted(p.read_bytes() for p in (again / table).glob("*.parquet")) == \
            sorted(p.read_bytes() for p in (output / table).glob("*.parquet"))
    assert main(["hardneg", "--input", str(source), "--output", str(again)]) == 2
    assert "pass --overwrite" in capsys.readouterr().err


def test_a_list_of_videos_and_one_caption_per_video(source, tmp_path, caplog):
    videos = tmp_path / "split.csv"
    with open(videos, "w", newline="") as handle:
        csv.writer(handle).writerows([["key", "video_id"], ["ret0", "video2"]])
    out = tmp_path / "out"
    with caplog.at_level("INFO", logger="capclean.progress"):
        assert main(["hardneg", "--input", str(source), "--output", str(out), "--videos", str(videos),
                     "--per-video", "one", "--parts", "noun", "--write-authors"]) == 0
    # Progress with its totals (it ran 7 minutes on the test split after its first line without one).
    progress = [record.getMessage() for record in caplog.records if record.name == "capclean.progress"]
    assert any(line.startswith("tag: 1 of 1 videos, 1 captions") for line in progress), progress
    assert [row["sen_id"] for row in rows(out, "pos")] == [3]
    assert {row["part"] for row in rows(out, "hardneg")} == {"noun"}
    # --write-authors: the same negatives in the authors' format, caption 3 being video2's first (#0).
    theirs = json.loads((out / "authors" / "ChangeNoun.json").read_text(encoding="utf-8"))
    assert list(theirs) == ["video2#0"]
    assert list(theirs["video2#0"].values()) == [row["text"] for row in rows(out, "hardneg")]


@pytest.mark.parametrize("listed, unknown", [("video2\nvideo9\n", "video9"), ("video3\n", "video3")],
                         ids=["not in the input", "of another split"])
def test_a_listed_video_without_a_caption_is_refused_not_dropped(source, tmp_path, capsys, listed, unknown):
    """It used to be dropped without a word (overlap reports its unmatched videos): now one line naming it."""
    videos = tmp_path / "videos.txt"
    videos.write_text(listed, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["hardneg", "--input", str(source), "--output", str(out), "--videos", str(videos)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith(f"--videos {videos}: video {unknown} has no caption of the test split in the input "
                        f"(1 of the {listed.count(chr(10))} listed videos have none)")
    assert not out.exists() or not any(out.iterdir())


def test_an_unknown_part_of_speech_is_one_line(source, tmp_path, capsys):
    assert main(["hardneg", "--input", str(source), "--output", str(tmp_path / "o"), "--parts", "nouns"]) == 2
    assert capsys.readouterr().err.strip().endswith("--parts: unknown nouns; choose from noun, verb, adjective, "
                                                    "adverb, preposition")


def test_posrank_of_perfect_and_of_missing_scores(output, tmp_path, capsys):
    negatives = rows(output, "hardneg")
    scores = [(row["video_id"], row["negative_id"], 0.0) for row in negatives]
    scores += [(f"video{v}", str(s), 1.0) for s, v, _ in CAPTIONS if v != 3]
    path = tmp_path / "scores.csv"
    with open(path, "w", newline="") as handle:
        csv.writer(handle).writerows([("video_id", "text_id", "score")] + scores)
    assert main(["posrank", "--negatives", str(output), "--scores", str(path), "--json", str(tmp_path / "p.json")]) == 0
    figures = json.loads((tmp_path / "p.json").read_text())
    assert figures["word"]["mean"]["posrank"] == 1.0
    with open(path, "w", newline="") as handle:
        csv.writer(handle).writerows([("video_id", "text_id", "score")] + scores[1:])
    assert main(["posrank", "--negatives", str(output), "--scores", str(path)]) == 2
    assert "scores miss 1 of" in capsys.readouterr().err


def test_the_writer_sorts_negatives_by_caption_then_part_in_the_papers_order_then_level_and_k(tmp_path):
    import pyarrow as pa

    from pipelines.evaluation.hardneg.graph import negative_order, write_sorted
    from schemas.evaluation_tables import HARDNEG

    keys = [(2, "noun", "word", 0), (1, "verb", "word", 1), (1, "verb", "word", 0), (1, "noun", "phrase", 0),
            (1, "noun", "word", 10), (1, "noun", "word", 2), (1, "preposition", "word", 0), (1, "adjective", "word", 0)]
    columns = {name: [] for name in HARDNEG.names}
    for sen_id, part, level, k in keys:
        for name, value in (("negative_id", f"{sen_id}-{part}-{level}-{k}"), ("sen_id", sen_id), ("video_id", "v"),
                            ("part", part), ("level", level), ("k", k), ("text", "t"), ("caption", "c"),
                            ("positions", [0]), ("originals", ["a"]), ("replacements", ["b"]), ("source", "vocabulary")):
            columns[name].append(value)
    write_sorted(0, [pa.Table.from_pydict(columns, schema=HARDNEG)], str(tmp_path), "hardneg", HARDNEG, negative_order)
    written = pq.read_table(tmp_path / "hardneg")["negative_id"].to_pylist()
    # noun before verb before adjective (PARTS_OF_SPEECH), not alphabetical; word before phrase; k as numbers.
    assert written == ["1-noun-word-2", "1-noun-word-10", "1-noun-phrase-0", "1-verb-word-0", "1-verb-word-1",
                       "1-adjective-word-0", "1-preposition-word-0", "2-noun-word-0"]
