"""`capclean overlap` end to end on a small input, and its errors: one line, exit code 2."""
import json

import pyarrow.parquet as pq
import pytest

from pipelines.cli import main

VIDEOS = [{"video_id": f"video{n}", "split": split, "category": 1}
          for n, split in ((1, "test"), (2, "test"), (3, "test"), (4, "train"), (5, "validate"), (6, "train"))]
CAPTIONS = [(0, 1, "a man is talking"), (1, 1, "a man speaks to the camera"),
            (2, 2, "a woman is cooking pasta in a kitchen"), (3, 2, "a man is talking to a crowd"),
            (4, 3, "a man is talking on stage"), (5, 3, "two dogs run on the beach"),
            (6, 4, "A man  is talking"), (7, 4, "a chef cooks pasta"), (8, 5, "a dog runs on the beach"),
            (9, 6, "a car drives down the road")]


@pytest.fixture(scope="module")
def source(tmp_path_factory, write_captions):
    folder = tmp_path_factory.mktemp("overlap") / "in"
    return write_captions(folder, VIDEOS, CAPTIONS)


def test_first_of_each_test_video_against_train_and_validate(source, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["overlap", "--input", str(source), "--output", str(out), "--fn-threshold", "0.8"]) == 0
    rows = {row["sen_id"]: row for row in pq.read_table(out / "overlap").to_pylist()}
    assert sorted(rows) == [0, 2, 4]
    assert rows[0]["exact_match"] and rows[0]["nearest_sen_id"] == 6  # "A man  is talking": case and spacing aside
    assert not rows[2]["exact_match"] and not rows[4]["exact_match"]
    stats = json.loads((out / "stats.json").read_text())
    assert stats["overlap"]["exact_leaks"] == 1 and stats["training_captions"] == 4
    assert stats["settings"]["tfidf"] == {"analyzer": "char", "ngram_range": [5, 5], "fitted_on": "queries"}
    # "a man is talking" (4 words) and "a man is talking on stage" (6): 0.5 * (4/4 + 4/6) = 0.833, both ways;
    # "a man is talking to a crowd" (7): 0.786, below 0.8; "a woman is cooking pasta in a kitchen": none.
    candidates = pq.read_table(out / "fn_candidates").to_pylist()
    assert [(c["query_sen_id"], c["candidate_video_id"], c["matching_sen_id"]) for c in candidates] == [
        (0, "video3", 4), (4, "video1", 0)]
    assert candidates[0]["similarity"] == pytest.approx(0.5 * (1 + 4 / 6))
    assert json.loads((out / "manifest.json").read_text())["command"] == "overlap"
    printed = capsys.readouterr().out
    assert "exact leaks: 1 (33.3%)" in printed and "2 of 3 queries" in printed


def test_a_list_names_its_caption_without_punctuation_and_a_list_trains(source, tmp_path):
    queries = tmp_path / "queries.csv"
    queries.write_text("key,vid_key,video_id,sentence\nret0,msr2,video2,a man is talking to a crowd\n"
                       "ret1,msr3,video3,two dogs run on the beach\n")
    train = tmp_path / "train.csv"
    train.write_text("video_id\nvideo5\n")
    out = tmp_path / "out"
    assert main(["overlap", "--input", str(source), "--output", str(out), "--queries", f"list:{queries}",
                 "--train", f"list:{train}", "--no-fn-candidates"]) == 0
    rows = pq.read_table(out / "overlap").to_pylist()
    assert [row["sen_id"] for row in rows] == [3, 5]
    assert [row["nearest_sen_id"] for row in rows] == [8, 8]
    assert not (out / "fn_candidates").exists()


@pytest.mark.parametrize("flags, message", [
    (["--queries", "list:/nonexistent/1ka.csv"], "--queries list:/nonexistent/1ka.csv: no such file"),
    (["--train", "list:/nonexistent/9k.csv"], "--train list:/nonexistent/9k.csv: no such file"),
    (["--queries", "split:tset"], "no query caption of"),
    (["--train", "splits:trian"], "no training caption of"),
    (["--queries", "test"], "--queries test: expected one of split:..., first-of-split:..., list:..."),
    (["--fn-threshold", "1.5"], "--fn-threshold must be in (0, 1]"),
])
def test_errors_are_one_line_with_exit_code_2(source, tmp_path, capsys, flags, message):
    assert main(["overlap", "--input", str(source), "--output", str(tmp_path / "out"), *flags]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def write_run(folder, captions, removed, edits):
    """A capclean output's captions/, removed/ and edits/, written by hand."""
    import pyarrow as pa

    from schemas.tables import CAPTIONS, EDITS, REMOVED

    for name, schema, rows in (("captions", CAPTIONS, captions), ("removed", REMOVED, removed),
                               ("edits", EDITS, edits)):
        (folder / name).mkdir(parents=True)
        columns = {field: [row.get(field) for row in rows] for field in schema.names}
        pq.write_table(pa.Table.from_pydict(columns, schema=schema), folder / name / "part-0.parquet")
    return folder


def test_on_a_cleaned_run_a_listed_caption_is_found_as_annotated(tmp_path):
    caption = lambda sen_id, video, split, text: {"sen_id": sen_id, "video_id": video, "split": split,  # noqa: E731
                                                  "category": 1, "caption": text}
    run = write_run(tmp_path / "run", [
        caption(0, "video1", "test", "a man is talking on the phone"),  # was "a man is talkng on the phone"
        caption(2, "video2", "test", "a woman sings a song on stage"),  # kept for sen_id 3
        caption(4, "video3", "test", "a dog runs"),
        caption(5, "video4", "train", "a man is talking on the phone"),
    ], removed=[
        {"sen_id": 3, "video_id": "video2", "split": "test", "caption": "a woman sings a song on a stage",
         "step": "dedup", "reason": "near-duplicate", "kept_sen_id": 2},
        {"sen_id": 6, "video_id": "video3", "split": "test", "caption": "asdf", "step": "screen", "reason": "junk",
         "kept_sen_id": None},
    ], edits=[
        {"sen_id": 0, "video_id": "video1", "step": "spelling", "rule": "ranked",
         "before": "a man is talkng on the phone", "after": "a man is talking on the phone"},
    ])
    queries = tmp_path / "queries.csv"
    queries.write_text("video_id,sentence\nvideo1,a man is talkng on the phone\n"
                       "video2,a woman sings a song on a stage\nvideo3,asdf\nvideo3,a cat sleeps\n")
    out = tmp_path / "out"
    assert main(["overlap", "--input", str(run), "--output", str(out), "--queries", f"list:{queries}",
                 "--train", "splits:train"]) == 0
    rows = pq.read_table(out / "overlap").to_pylist()
    assert [(row["sen_id"], row["caption"]) for row in rows] == [
        (0, "a man is talking on the phone"), (2, "a woman sings a song on stage")]
    assert rows[0]["exact_match"] and not rows[1]["exact_match"]
    selection = json.loads((out / "stats.json").read_text())["selection"]
    assert (selection["replaced_by_kept"], selection["removed"], selection["not_found"]) == (1, 1, 1)
