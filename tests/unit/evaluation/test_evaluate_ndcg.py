"""nDCG inside `capclean evaluate` (pipelines/evaluation/evaluate/ndcg_figures.py): equal to `capclean ndcg` on the
same pairs and scores, and to the relevance `capclean relevance` writes for them; 1k-A's sentences scored as the
captions they are; left out, or refused, in one line."""
import csv
import json

import numpy as np
import pytest

from pipelines.cli import main

VIDEOS = [{"video_id": video, "split": "test", "category": 1} for video in ("video7010", "video7011", "video7012")]
TEXTS = {"video7010": ["a man is driving a red car", "a man drives a car on the road", "a car is on the road"],
         "video7011": ["a woman is cooking pasta", "a woman cooks food in a kitchen", "a man is cooking"],
         "video7012": ["a dog runs on the beach", "two dogs play with a ball", "a man walks a dog"]}
SENTENCES = [{"sen_id": sen_id, "video_id": video, "caption": text}
             for sen_id, (video, text) in enumerate((video, text) for video, texts in TEXTS.items() for text in texts)]
# A custom protocol: the videos in another order than natural, the captions in another than sen_id's.
VIDEO_ORDER = ["video7012", "video7010", "video7011"]
SEN_ID_ORDER = [8, 0, 3, 6, 1, 4, 7, 2, 5]


@pytest.fixture
def raw(tmp_path, write_annotations):
    return str(write_annotations(tmp_path / "raw", VIDEOS, SENTENCES))


def scores_matrix() -> np.ndarray:
    """A model's (texts x videos) scores in the custom protocol's order, with ties and misses."""
    generator = np.random.default_rng(7)
    matrix = generator.integers(0, 4, size=(len(SEN_ID_ORDER), len(VIDEO_ORDER))).astype(np.float32)
    return matrix


def capclean(capsys, *args):
    code = main([*map(str, args)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.out


def write_lines(path, lines):
    path.write_text("".join(f"{line}\n" for line in lines))
    return path


def test_evaluate_gives_the_ndcg_of_capclean_ndcg_on_the_same_pairs(raw, tmp_path, capsys):
    videos = write_lines(tmp_path / "videos.txt", VIDEO_ORDER)
    sen_ids = write_lines(tmp_path / "sen_ids.txt", SEN_ID_ORDER)
    matrix = scores_matrix()
    np.save(tmp_path / "sim.npy", matrix)
    capclean(capsys, "evaluate", "--protocol", "custom", "--videos", videos, "--sen-ids", sen_ids, "--input", raw,
             "--scores", tmp_path / "sim.npy", "--proxies", "bow,pos", "--json", tmp_path / "evaluate.json")
    evaluated = json.loads((tmp_path / "evaluate.json").read_text())["ndcg"]
    # capclean ndcg: the relevance of the same videos (all their captions), the same scores as a long table.
    capclean(capsys, "relevance", "--input", raw, "--videos", videos, "--proxies", "bow,pos",
             "--output", tmp_path / "relevance")
    with open(tmp_path / "scores.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["sen_id", "video_id", "score"])
        writer.writerows((sen_id, video, float(matrix[row, column])) for row, sen_id in enumerate(SEN_ID_ORDER)
                         for column, video in enumerate(VIDEO_ORDER))
    # The same relevance read back by evaluate (--relevance) rather than computed: the same figures.
    capclean(capsys, "evaluate", "--protocol", "custom", "--videos", videos, "--sen-ids", sen_ids, "--input", raw,
             "--scores", tmp_path / "sim.npy", "--relevance", tmp_path / "relevance", "--json", tmp_path / "read.json")
    read = json.loads((tmp_path / "read.json").read_text())["ndcg"]
    assert list(read["proxies"]) == ["bow", "pos"] and read["relevance"].startswith("read from")
    for proxy in ("bow", "pos"):
        for source in ("model", "random"):
            for direction in ("t2v", "v2t", "mean"):
                assert read["proxies"][proxy][source][direction] == pytest.approx(
                    evaluated["proxies"][proxy][source][direction], abs=1e-6)
    for scores, source in ((tmp_path / "scores.csv", "model"), ("random", "random")):
        capclean(capsys, "ndcg", "--relevance", tmp_path / "relevance", "--scores", scores,
                 "--json", tmp_path / f"ndcg-{source}.json")
        ndcg = json.loads((tmp_path / f"ndcg-{source}.json").read_text())["proxies"]
        for proxy in ("bow", "pos"):
            for direction in ("t2v", "v2t", "mean"):
                for gain in ("linear", "exponential"):
                    assert evaluated["proxies"][proxy][source][direction][gain] == pytest.approx(
                        ndcg[proxy][direction][gain], abs=1e-12), (proxy, source, direction, gain)


def test_1k_a_sentences_that_are_captions_score_as_those_captions(raw, tmp_path, capsys):
    # One sentence a video, each a caption of it character for character (1k-A's rows), against the custom
    # protocol of those captions: the same relevance, so the same nDCG.
    chosen = [0, 4, 8]
    with open(tmp_path / "jsfusion.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["key", "vid_key", "video_id", "sentence"])
        writer.writerows((f"ret{n}", f"msr{n}", SENTENCES[s]["video_id"], SENTENCES[s]["caption"])
                         for n, s in enumerate(chosen))
    videos = write_lines(tmp_path / "videos.txt", [SENTENCES[s]["video_id"] for s in chosen])
    sen_ids = write_lines(tmp_path / "sen_ids.txt", chosen)
    matrix = np.array([[0.9, 0.2, 0.5], [0.3, 0.3, 0.8], [0.1, 0.7, 0.7]], dtype=np.float32)
    np.save(tmp_path / "sim.npy", matrix)
    common = ["--input", raw, "--scores", tmp_path / "sim.npy", "--proxies", "bow,pos,syn"]
    out = capclean(capsys, "evaluate", "--protocol", "1k-A", "--videos", tmp_path / "jsfusion.csv", *common,
                   "--orientation", "texts-x-videos", "--json", tmp_path / "1k-a.json",
                   "--report", tmp_path / "1k-a.html")
    capclean(capsys, "evaluate", "--protocol", "custom", "--videos", videos, "--sen-ids", sen_ids, *common,
             "--orientation", "texts-x-videos", "--json", tmp_path / "custom.json")
    one_k_a = json.loads((tmp_path / "1k-a.json").read_text())["ndcg"]
    custom = json.loads((tmp_path / "custom.json").read_text())["ndcg"]
    assert one_k_a["proxies"] == custom["proxies"]
    # Read from a capclean relevance output of the same videos: each sentence's row is its caption's.
    capclean(capsys, "relevance", "--input", raw, "--videos", videos, "--proxies", "bow,pos",
             "--output", tmp_path / "rel")
    capclean(capsys, "evaluate", "--protocol", "1k-A", "--videos", tmp_path / "jsfusion.csv", *common[:4],
             "--relevance", tmp_path / "rel", "--orientation", "texts-x-videos", "--json", tmp_path / "read.json")
    read = json.loads((tmp_path / "read.json").read_text())["ndcg"]["proxies"]
    for proxy in ("bow", "pos"):
        for direction in ("t2v", "v2t", "mean"):
            assert read[proxy]["model"][direction] == pytest.approx(one_k_a["proxies"][proxy]["model"][direction])
    assert "nDCG (%), cut-off relevant, ties averaged over their orders" in out
    assert "  bow   linear       random" in out
    assert "nDCG per proxy and direction" in (tmp_path / "1k-a.html").read_text()


def test_without_captions_or_proxies_there_is_no_ndcg(raw, tmp_path, capsys):
    with open(tmp_path / "jsfusion.csv", "w", newline="") as handle:
        csv.writer(handle).writerows([["video_id", "sentence"], ["video7010", "a car"], ["video7011", "a cook"]])
    np.save(tmp_path / "sim.npy", np.eye(2, dtype=np.float32))
    out = capclean(capsys, "evaluate", "--protocol", "1k-A", "--videos", tmp_path / "jsfusion.csv", "--scores",
                   tmp_path / "sim.npy", "--orientation", "texts-x-videos")
    assert "nDCG: left out, 1k-A without --input has no captions to build the relevance from" in out
    np.save(tmp_path / "full.npy", np.ones((9, 3), dtype=np.float32))
    out = capclean(capsys, "evaluate", "--protocol", "full-test", "--input", raw, "--scores", tmp_path / "full.npy",
                   "--proxies", "none")
    assert "nDCG" not in out and "R@1" in out


def test_an_unknown_proxy_is_one_line_before_any_work(raw, tmp_path, capsys):
    code = main(["evaluate", "--protocol", "full-test", "--input", raw, "--scores", str(tmp_path / "missing.npy"),
                 "--proxies", "bow,met", "--json", str(tmp_path / "f.json")])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "--proxies: unknown met" in err
    assert not (tmp_path / "f.json").exists()


def test_a_relevance_that_does_not_cover_the_protocol_is_one_line(raw, tmp_path, capsys, write_annotations):
    # A relevance of the first two videos only, read for the protocol of all three; and a proxy it lacks.
    two = write_lines(tmp_path / "two.txt", ["video7010", "video7011"])
    capclean(capsys, "relevance", "--input", raw, "--videos", two, "--proxies", "bow", "--output", tmp_path / "rel")
    np.save(tmp_path / "full.npy", np.ones((9, 3), dtype=np.float32))
    for extra, message in ((["--proxies", "bow"], "proxy bow has no pair of caption 6 with its own video video7012"),
                           (["--proxies", "pos"], "has no proxy pos (it holds bow)")):
        code = main(["evaluate", "--protocol", "full-test", "--input", raw, "--scores", str(tmp_path / "full.npy"),
                     "--relevance", str(tmp_path / "rel"), *extra])
        err = capsys.readouterr().err
        assert code == 2 and len(err.strip().splitlines()) == 1 and message in err, err
