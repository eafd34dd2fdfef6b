"""`capclean relevance` end to end on a small input (spaCy tags it), and its errors: one line, exit code 2."""
import json

import pyarrow.parquet as pq
import pytest

from pipelines.cli import main
from schemas.evaluation_tables import RELEVANCE

VIDEOS = [{"video_id": f"video{n}", "split": split, "category": 1}
          for n, split in ((1, "test"), (2, "test"), (3, "test"), (4, "train"))]
CAPTIONS = [(0, 1, "a man is talking"), (1, 1, "a man speaks to the camera"),
            (2, 2, "a woman is cooking pasta in a kitchen"), (3, 2, "a chef cooks pasta"),
            (4, 3, "a man is talking on stage"), (5, 3, "two dogs run on the beach"),
            (6, 4, "a man is talking")]


@pytest.fixture(scope="module")
def source(tmp_path_factory, write_annotations):
    folder = tmp_path_factory.mktemp("relevance") / "in"
    return write_annotations(folder, VIDEOS, [{"sen_id": s, "video_id": f"video{v}", "caption": c}
                                              for s, v, c in CAPTIONS])


@pytest.fixture(scope="module")
def output(source, tmp_path_factory):
    out = tmp_path_factory.mktemp("relevance-out") / "out"
    assert main(["relevance", "--input", str(source), "--output", str(out)]) == 0
    return out


def test_writes_each_proxy_as_a_hive_partition_with_the_schema_and_only_positive_scores(output):
    for proxy in ("bow", "pos", "syn"):
        files = sorted((output / "relevance" / f"proxy={proxy}").glob("part-*.parquet"))
        assert files and pq.read_schema(files[0]).remove_metadata() == RELEVANCE
    table = pq.read_table(output / "relevance")
    assert sorted(set(table["proxy"].to_pylist())) == ["bow", "pos", "syn"]
    rows = table.to_pylist()
    assert all(row["score"] > 0 for row in rows)
    assert {row["video_id"] for row in rows} == {"video1", "video2", "video3"}  # the test split only
    assert 6 not in {row["sen_id"] for row in rows}


def test_own_captions_are_one_and_other_pairs_the_iou_of_the_word_sets(output):
    bow = {(row["video_id"], row["sen_id"]): row["score"]
           for row in pq.read_table(output / "relevance" / "proxy=bow").to_pylist()}
    for sen_id, video, _ in CAPTIONS[:6]:
        assert bow[(f"video{video}", sen_id)] == 1.0
    # video1, two captions, 25% of them is one: {man, talking, speaks, camera}; "a man is talking on stage"
    # {man, talking, stage}: 2 / 5. "two dogs run on the beach" {dogs, run, beach} ("two" is a spaCy stop
    # word) shares nothing with video1: not written.
    assert bow[("video1", 4)] == pytest.approx(2 / 5)
    assert ("video1", 5) not in bow


def test_stats_manifest_and_printed_figures_agree(source, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["relevance", "--input", str(source), "--output", str(out), "--proxies", "bow",
                 "--chunk-captions", "2"]) == 0
    stats = json.loads((out / "stats.json").read_text())
    rows = pq.read_table(out / "relevance" / "proxy=bow").num_rows
    assert stats["proxies"]["bow"]["pairs"] == rows and stats["proxies"]["bow"]["chunks"] == 3
    assert stats["proxies"]["bow"]["all_pairs"] == 3 * 6
    assert stats["settings"]["reading"]["video_threshold"] == 0.1  # the calibrated reading (docs/commands/ndcg.md)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["command"] == "relevance" and manifest["stats"]["proxies"]["bow"]["pairs"] == rows
    printed = capsys.readouterr().out
    assert f"bow    {rows:>13,}" in printed and "6 captions of 3 videos" in printed


def test_a_list_of_videos_pairs_those_videos_and_their_captions_only(source, tmp_path):
    videos = tmp_path / "videos.csv"
    videos.write_text("key,vid_key,video_id,sentence\nret0,msr1,video1,a man is talking\nret1,msr3,video3,x\n")
    out = tmp_path / "out"
    assert main(["relevance", "--input", str(source), "--output", str(out), "--videos", str(videos),
                 "--proxies", "pos"]) == 0
    rows = pq.read_table(out / "relevance" / "proxy=pos").to_pylist()
    assert {row["video_id"] for row in rows} == {"video1", "video3"}
    assert {row["sen_id"] for row in rows} == {0, 1, 4, 5}


@pytest.mark.parametrize("flags, message", [
    (["--proxies", "bow,meteor"], "--proxies bow,meteor: choose from bow, pos, syn, met"),
    (["--proxies", "met", "--met-queries", "0"], "--met-queries must be at least 1"),
    (["--video-threshold", "25"], "video threshold must be in [0, 1]"),
    (["--split", "tset"], "no caption of"),
    (["--pos-weights", "det=1"], "unknown part of speech 'det'"),
    (["--tokens", "split", "--lemmas"], "lemmas"),
    (["--chunk-captions", "0"], "--chunk-captions must be at least 1"),
])
def test_errors_are_one_line_with_exit_code_2(source, tmp_path, capsys, flags, message):
    assert main(["relevance", "--input", str(source), "--output", str(tmp_path / "out"), *flags]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_a_users_folder_is_never_replaced(source, tmp_path, capsys):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("keep me")
    assert main(["relevance", "--input", str(source), "--output", str(folder), "--overwrite"]) == 2
    assert (folder / "notes.txt").read_text() == "keep me" and not (folder / "relevance").exists()
    assert "Traceback" not in capsys.readouterr().err
