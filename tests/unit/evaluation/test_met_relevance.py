"""The MET proxy: its video kernels by hand (transforms/evaluation/met_relevance.py) and the Parquet
it writes (pipelines/evaluation/relevance/met.py), on captions whose METEOR scores are known."""
import json

import pyarrow.parquet as pq
import pytest

from pipelines.evaluation.relevance import met as met_pipeline
from pipelines.evaluation.relevance.met import MetPairs, write_met_relevance
from transforms.errors import CapcleanError, ConfigError
from transforms.evaluation.met_relevance import (MetSettings, Query, pair_rows, query_relevance, video_relevance,
                                                 video_side)
from transforms.evaluation.meteor import MeteorLexicon, single_meteor

# METEOR of a 3-word caption against itself: one chunk of 3 matches, penalty 0.5 / 27.
SELF = 1 - 0.5 / 27


@pytest.fixture(scope="module")
def lexicon(wordnet):
    return MeteorLexicon(wordnet)


def test_nothing_shared_scores_zero(lexicon):
    assert single_meteor(lexicon.encode("the cat sleeps"), lexicon.encode("a dog runs"), lexicon) == 0.0
    assert single_meteor(lexicon.encode("a dog runs"), lexicon.encode("the cat sleeps"), lexicon) == 0.0


def test_each_kernel_by_hand(lexicon):
    caption = lexicon.encode("a dog runs")
    video = [lexicon.encode("a dog runs"), lexicon.encode("the cat sleeps")]
    assert video_relevance(caption, video, lexicon, MetSettings(kernel="max")) == SELF
    assert video_relevance(caption, video, lexicon, MetSettings(kernel="mean")) == SELF / 2
    # 1/2 [max as hypothesis (SELF) + mean as reference ((SELF + 0) / 2)].
    assert video_relevance(caption, video, lexicon, MetSettings(kernel="match")) == pytest.approx(0.75 * SELF)


def test_an_unknown_kernel_is_refused():
    with pytest.raises(ConfigError, match="MET kernel 'median': choose from max, mean, match"):
        MetSettings(kernel="median")


def test_the_match_kernel_takes_the_caption_as_reference_in_its_second_half(lexicon):
    # "a dog" against "a dog runs": as hypothesis P = 1, R = 2/3; as reference P = 2/3, R = 1.
    caption, video = lexicon.encode("a dog"), [lexicon.encode("a dog runs")]
    as_hypothesis = single_meteor(video[0], caption, lexicon)
    as_reference = single_meteor(caption, video[0], lexicon)
    assert as_hypothesis != as_reference
    assert video_relevance(caption, video, lexicon, MetSettings(kernel="match")) == pytest.approx(
        0.5 * (as_hypothesis + as_reference))


def test_own_video_is_one_and_every_kernel_agrees_pair_by_pair(lexicon):
    videos = {"video1": [lexicon.encode("a dog runs"), lexicon.encode("a man sings")],
              "video2": [lexicon.encode("the cat sleeps")], "video3": [lexicon.encode("a dog sleeps")]}
    side = video_side(videos, lexicon)
    query = Query(7, "video2", lexicon.encode("the dog runs"))
    for kernel in ("max", "mean", "match"):
        settings = MetSettings(kernel=kernel)
        scores = query_relevance(query, side, lexicon, settings)
        assert scores[1] == 1.0  # its own video, though METEOR with "the cat sleeps" is lower
        for index in (0, 2):
            video_id = side.video_ids[index]
            assert scores[index] == pytest.approx(video_relevance(query.caption, videos[video_id], lexicon, settings))
    assert 0 < query_relevance(query, side, lexicon)[0] < 1


def test_listed_pairs_skip_zero_scores_and_keep_their_order(lexicon):
    videos = {"video1": [lexicon.encode("a dog runs")], "video2": [lexicon.encode("the cat sleeps")]}
    queries = {7: Query(7, "video2", lexicon.encode("the cat sleeps")), 8: Query(8, "video3", lexicon.encode("a dog"))}
    listed = list(pair_rows([("video2", 8), ("video1", 7), ("video1", 8), ("video2", 7)], queries, videos, lexicon))
    assert [(video, sen_id) for video, sen_id, _ in listed] == [("video1", 8), ("video2", 7)]
    assert listed[1][2] == 1.0 and 0 < listed[0][2] < 1


CAPTIONS = [(1, "video1", "test", "a dog runs"), (2, "video1", "test", "a dog is running"),
            (3, "video2", "test", "the cat sleeps"), (4, "video2", "test", "a cat is sleeping"),
            (5, "video3", "test", "a man sings")]


def read_met(folder):
    return pq.read_table(folder / "relevance" / "proxy=met")


def test_writes_the_relevance_table_in_parts(tmp_path, monkeypatch, lexicon):
    monkeypatch.setattr(met_pipeline, "QUERIES_PER_PART", 2)
    figures = write_met_relevance(tmp_path, CAPTIONS, MetPairs(sample=None), lexicon=lexicon)
    parts = sorted(path.name for path in (tmp_path / "relevance" / "proxy=met").iterdir())
    assert parts == ["part-00000.parquet", "part-00001.parquet", "part-00002.parquet"]  # 5 queries, 2 a part
    table = read_met(tmp_path)
    assert [(f.name, str(f.type), f.nullable) for f in table.schema] == [
        ("video_id", "string", False), ("sen_id", "int64", False), ("score", "float", False)]
    rows = {(row["video_id"], row["sen_id"]): row["score"] for row in table.to_pylist()}
    assert all(rows[(video, sen_id)] == 1.0 for sen_id, video, _, _ in CAPTIONS)
    assert all(score > 0 for score in rows.values())
    assert ("video3", 3) not in rows  # "a man sings" / "the cat sleeps": nothing shared
    assert figures["queries"] == 5 and figures["all_pairs"] == 15 and figures["kernel"] == "max"
    assert figures["pairs"] == len(rows) and figures["mean_score"] == pytest.approx(sum(rows.values()) / 15)


def test_a_sample_of_queries_is_seeded(tmp_path, lexicon):
    write_met_relevance(tmp_path / "a", CAPTIONS, MetPairs(sample=2, seed=3), lexicon=lexicon)
    write_met_relevance(tmp_path / "b", CAPTIONS, MetPairs(sample=2, seed=3), lexicon=lexicon)
    first, second = read_met(tmp_path / "a").to_pylist(), read_met(tmp_path / "b").to_pylist()
    assert first == second and len({row["sen_id"] for row in first}) == 2


def test_listed_pairs_and_their_errors(tmp_path, lexicon):
    pairs = tmp_path / "pairs.csv"
    pairs.write_text("video_id,sen_id\nvideo2,1\nvideo1,1\nvideo3,3\n")
    figures = write_met_relevance(tmp_path / "out", CAPTIONS, MetPairs(pairs_file=str(pairs)), lexicon=lexicon)
    rows = read_met(tmp_path / "out").to_pylist()
    assert [(row["video_id"], row["sen_id"]) for row in rows] == [("video2", 1), ("video1", 1)]
    assert figures["all_pairs"] == 3 and figures["pairs"] == 2
    pairs.write_text("video_id,sen_id\nvideo9,1\n")
    with pytest.raises(CapcleanError, match="line 2: video video9 or caption 1 is not in the selection"):
        write_met_relevance(tmp_path / "bad", CAPTIONS, MetPairs(pairs_file=str(pairs)), lexicon=lexicon)
    pairs.write_text("video,caption\nvideo1,1\n")
    with pytest.raises(CapcleanError, match="expected columns video_id and sen_id"):
        write_met_relevance(tmp_path / "bad", CAPTIONS, MetPairs(pairs_file=str(pairs)), lexicon=lexicon)


# --- capclean relevance --proxies met --------------------------------------------------------------

MSRVTT_VIDEOS = [{"video_id": f"video{n}", "split": split, "category": 1}
                 for n, split in ((1, "test"), (2, "test"), (3, "train"))]
MSRVTT_CAPTIONS = [(0, 1, "a man is talking"), (1, 1, "a man speaks to the camera"), (2, 2, "a chef cooks pasta"),
                   (3, 2, "a man is cooking"), (4, 3, "a man is talking")]


@pytest.fixture(scope="module")
def source(tmp_path_factory, write_annotations):
    folder = tmp_path_factory.mktemp("met") / "in"
    return write_annotations(folder, MSRVTT_VIDEOS, [{"sen_id": s, "video_id": f"video{v}", "caption": c}
                                                     for s, v, c in MSRVTT_CAPTIONS])


def test_the_command_writes_met_beside_the_other_proxies_without_tagging(source, tmp_path, lexicon, capsys):
    from pipelines.cli import main

    out = tmp_path / "out"
    assert main(["relevance", "--input", str(source), "--output", str(out), "--proxies", "met",
                 "--met-kernel", "mean"]) == 0
    rows = {(row["video_id"], row["sen_id"]): row["score"] for row in read_met(out).to_pylist()}
    assert set(rows) == {(f"video{v}", s) for s in range(4) for v in (1, 2)}  # the test split; all share "a"
    assert rows[("video1", 0)] == rows[("video2", 2)] == 1.0
    talking, speaks = lexicon.encode("a man is talking"), lexicon.encode("a man speaks to the camera")
    cooking = lexicon.encode("a man is cooking")
    expected = (single_meteor(talking, cooking, lexicon) + single_meteor(speaks, cooking, lexicon)) / 2
    assert rows[("video1", 3)] == pytest.approx(expected, abs=1e-6)  # float32
    stats = json.loads((out / "stats.json").read_text())
    assert stats["seconds"]["tag"] < 0.5 and stats["settings"]["met"]["kernel"] == "mean"
    assert stats["proxies"]["met"]["pairs"] == 8 and stats["proxies"]["met"]["all_pairs"] == 8
    assert "met" in capsys.readouterr().out


@pytest.mark.parametrize("flags, message", [
    (["--met-queries", "0"], "--met-queries must be at least 1"),
    (["--met-pairs", "no-such-pairs.csv"], "cannot read the pairs file no-such-pairs.csv"),
])
def test_met_flag_errors_are_one_line(source, tmp_path, capsys, flags, message):
    from pipelines.cli import main

    assert main(["relevance", "--input", str(source), "--output", str(tmp_path / "out"), "--proxies", "met",
                 *flags]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_the_command_line_names_the_same_kernels():
    from pipelines.evaluation.relevance.command import MET_KERNELS
    from transforms.evaluation.met_relevance import KERNELS

    assert MET_KERNELS == KERNELS
