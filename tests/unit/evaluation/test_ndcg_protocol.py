"""`capclean ndcg --protocol`: a model's matrix in a protocol's order against a `capclean relevance` output
(pipelines/evaluation/ndcg/protocol.py). Worked by hand on a small relevance, equal to `capclean evaluate
--relevance` on the same inputs, and its refusals: one line, exit code 2, nothing written.

The relevance (bow; captions 0 and 1 are video1's, 2 video2's, 3 video3's):
    video1: 1.0  1.0  0.5  0.5
    video2: 0.25 0    1.0  0.75
    video3: 0.5  0    0    1.0
Column 3 and row video3 are outside the protocols below: their pairs must be left aside.
"""
import csv
import json
import math

import numpy as np
import pytest

from pipelines.cli import main

VIDEOS = [{"video_id": video, "split": "test", "category": 1} for video in ("video1", "video2", "video3")]
CAPTIONS = [{"sen_id": 0, "video_id": "video1", "caption": "a man sings"},
            {"sen_id": 1, "video_id": "video1", "caption": "a man is singing"},
            {"sen_id": 2, "video_id": "video2", "caption": "a man sings on stage"},
            {"sen_id": 3, "video_id": "video3", "caption": "a crowd cheers"}]
PAIRS = [("video1", 0, 1.0), ("video1", 1, 1.0), ("video1", 2, 0.5), ("video1", 3, 0.5),
         ("video2", 0, 0.25), ("video2", 2, 1.0), ("video2", 3, 0.75),
         ("video3", 0, 0.5), ("video3", 3, 1.0)]
LOG3 = math.log2(3)


@pytest.fixture
def three_videos(tmp_path, write_annotations, write_relevance):
    """The relevance above, with a manifest recording the annotations it was built from (ndcg's captions)."""
    raw = write_annotations(tmp_path / "raw", VIDEOS, CAPTIONS)
    folder = tmp_path / "rel"
    write_relevance(folder, "bow", PAIRS)
    (folder / "manifest.json").write_text(json.dumps({"command": "relevance", "input": {"path": str(raw)}}))
    return folder


def write_lines(path, lines):
    path.write_text("".join(f"{line}\n" for line in lines))
    return str(path)


def write_jsfusion(path, rows):
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["key", "vid_key", "video_id", "sentence"])
        writer.writerows((f"ret{n}", f"msr{n}", video, sentence) for n, (video, sentence) in enumerate(rows))
    return str(path)


def ndcg(capsys, *args):
    code = main(["ndcg", *map(str, args)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.out


def refused(capsys, *args):
    code = main(["ndcg", *map(str, args)])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    return err


def table_row(out, gain):
    return [line.split()[2:] for line in out.splitlines() if line.startswith(f"  bow   {gain}")][0]


def test_a_custom_protocol_by_hand(three_videos, tmp_path, capsys):
    # Videos video2, video1 (columns), texts captions 2, 0, 1 (rows). The relevance inside it (videos x texts):
    #   video2: 1.0 0.25 0
    #   video1: 0.5 1.0  1.0
    # The matrix is given videos x texts (2 x 3: its shape says so):
    #   video2: 0.7 0.2 0.8
    #   video1: 0.3 0.9 0.1
    # t2v: caption 2 ranks video2 (1.0), video1 (0.5): ideal, 1; caption 0 ranks video1 (1.0), video2 (0.25):
    # ideal, 1; caption 1 ranks video2 (0) first with k = 1: 0. t2v = 2/3 in both gains.
    # v2t, linear: video2 ranks 1 (0), 2 (1.0), 0 (0.25), k = 2: (1 / log2 3) / (1 + 0.25 / log2 3) = 0.54497;
    # video1 ranks 0 (1.0), 2 (0.5), 1 (1.0), k = 3: (1 + 0.5 / log2 3 + 0.5) / (1 + 1 / log2 3 + 0.25) = 0.96519.
    # Exponential (gain 2^S - 1: 1, 0.41421, 0.18921): video2 0.63093 / 1.11938 = 0.56364; video1
    # (1 + 0.41421 / log2 3 + 0.5) / (1 + 1 / log2 3 + 0.20711) = 0.95828.
    # mAP with the own videos: t2v 1, 1, 1/2; v2t video2 has caption 2 at rank 2 (1/2), video1 captions 0 and 1 at
    # ranks 1 and 3 ((1 + 2/3) / 2).
    videos = write_lines(tmp_path / "videos.txt", ["video2", "video1"])
    sen_ids = write_lines(tmp_path / "sen_ids.txt", [2, 0, 1])
    np.save(tmp_path / "sim.npy", np.array([[0.7, 0.2, 0.8], [0.3, 0.9, 0.1]], dtype=np.float32))
    out = ndcg(capsys, "--relevance", three_videos, "--scores", tmp_path / "sim.npy", "--protocol", "custom",
               "--videos", videos, "--sen-ids", sen_ids, "--json", tmp_path / "ndcg.json")
    assert "on custom, 3 texts x 2 videos (videos-x-texts)" in out
    assert table_row(out, "linear") == ["66.7", "75.5", "71.1"]
    assert table_row(out, "exponential") == ["66.7", "76.1", "71.4"]
    assert "mAP (own captions): t2v 83.3  v2t 66.7  mean 75.0" in out
    figures = json.loads((tmp_path / "ndcg.json").read_text())
    v2t_linear = ((1 / LOG3) / (1 + 0.25 / LOG3) + (1.5 + 0.5 / LOG3) / (1.25 + 1 / LOG3)) / 2
    exp = {1.0: 1.0, 0.5: 2 ** 0.5 - 1, 0.25: 2 ** 0.25 - 1}
    v2t_exponential = ((1 / LOG3) / (1 + exp[0.25] / LOG3)
                       + (1.5 + exp[0.5] / LOG3) / (1 + 1 / LOG3 + exp[0.5] / 2)) / 2
    bow = figures["proxies"]["bow"]
    assert bow["t2v"]["linear"] == pytest.approx(2 / 3) and bow["t2v"]["exponential"] == pytest.approx(2 / 3)
    assert bow["v2t"]["linear"] == pytest.approx(v2t_linear, abs=1e-6)
    assert bow["v2t"]["exponential"] == pytest.approx(v2t_exponential, abs=1e-6)
    assert figures["map"]["v2t"] == pytest.approx((0.5 + 5 / 6) / 2)
    assert (figures["videos"], figures["captions"]) == (2, 3)
    assert figures["protocol"] == {"name": "custom", "scores": "videos-x-texts", "matching": None}
    # The same matrix written texts x videos gives the same figures; the oracle ranks every query ideally.
    np.save(tmp_path / "sim-t.npy", np.load(tmp_path / "sim.npy").T)
    out = ndcg(capsys, "--relevance", three_videos, "--scores", tmp_path / "sim-t.npy", "--protocol", "custom",
               "--videos", videos, "--sen-ids", sen_ids)
    assert table_row(out, "linear") == ["66.7", "75.5", "71.1"] and "(texts-x-videos)" in out
    out = ndcg(capsys, "--relevance", three_videos, "--scores", "oracle", "--protocol", "custom", "--videos", videos,
               "--sen-ids", sen_ids)
    assert table_row(out, "linear") == ["100.0", "100.0", "100.0"]


def test_1k_a_sentences_take_the_rows_of_the_captions_they_matched(three_videos, tmp_path, capsys):
    # Sentence 0 is caption 0 exactly; sentence 1 is caption 2 once normalised ('-' a space). Inside the
    # protocol (videos video1, video2 x sentences 0, 1) the relevance is
    #   video1: 1.0  0.5
    #   video2: 0.25 1.0
    # Texts x videos [[0.9, 0.8], [0.1, 0.7]]: t2v ideal for both (100); v2t: video1 ideal, video2 ranks
    # sentence 0 (0.25) before 1 (1.0): (0.25 + 1 / log2 3) / (1 + 0.25 / log2 3) = 0.76091, so v2t 88.0.
    # Read the other way (videos x texts), sentence 1 ranks video1 (0.5) first: t2v
    # (1 + (0.5 + 1 / log2 3) / (1 + 0.5 / log2 3)) / 2 = 93.0 and v2t 100.
    jsfusion = write_jsfusion(tmp_path / "jsfusion.csv", [("video1", "a man sings"), ("video2", "a man sings on-stage")])
    np.save(tmp_path / "sim.npy", np.array([[0.9, 0.8], [0.1, 0.7]], dtype=np.float32))
    common = ["--relevance", three_videos, "--scores", tmp_path / "sim.npy", "--protocol", "1k-A", "--videos",
              jsfusion]
    err = refused(capsys, *common)
    assert "1k-A has as many texts as videos (2), so the matrix's shape does not say which way it is" in err
    out = ndcg(capsys, *common, "--orientation", "texts-x-videos", "--json", tmp_path / "1k-a.json")
    assert table_row(out, "linear") == ["100.0", "88.0", "94.0"]
    figures = json.loads((tmp_path / "1k-a.json").read_text())
    assert figures["proxies"]["bow"]["v2t"]["linear"] == pytest.approx((1 + (0.25 + 1 / LOG3) / (1 + 0.25 / LOG3))
                                                                       / 2, abs=1e-6)
    assert figures["protocol"]["matching"] == {"exact": 1, "normalised": 1, "edited": 0, "unmatched": 0,
                                                   "several_sen_ids": 0}
    out = ndcg(capsys, *common, "--orientation", "videos-x-texts")
    assert table_row(out, "linear") == ["93.0", "100.0", "96.5"]


def test_the_figures_equal_capclean_evaluate_on_the_same_inputs(three_videos, tmp_path, capsys):
    """A custom protocol inside the relevance (video3 and caption 3 left aside) and 1k-A, with ties: every
    figure of ndcg --protocol is evaluate --relevance's, the model's and the random baseline's."""
    raw = tmp_path / "raw"
    videos = write_lines(tmp_path / "videos.txt", ["video1", "video2"])
    sen_ids = write_lines(tmp_path / "sen_ids.txt", [1, 2, 0])
    jsfusion = write_jsfusion(tmp_path / "jsfusion.csv", [("video2", "a man sings on stage"), ("video1", "a man sings")])
    matrices = {"custom": np.array([[0.5, 0.5], [0.2, 0.9], [0.4, 0.4]], dtype=np.float32),
                "1k-A": np.array([[0.3, 0.3], [0.6, 0.1]], dtype=np.float32)}
    flags = {"custom": ["--videos", videos, "--sen-ids", sen_ids], "1k-A": ["--videos", jsfusion]}
    for name, matrix in matrices.items():
        np.save(tmp_path / f"{name}.npy", matrix)
        common = ["--scores", tmp_path / f"{name}.npy", "--protocol", name, *flags[name], "--orientation",
                  "texts-x-videos", "--relevance", three_videos]
        assert main(["evaluate", *map(str, common), "--input", str(raw),
                     "--json", str(tmp_path / f"evaluate-{name}.json")]) == 0
        ndcg(capsys, *common, "--json", tmp_path / f"ndcg-{name}.json", "--report", tmp_path / f"ndcg-{name}.html")
        evaluated = json.loads((tmp_path / f"evaluate-{name}.json").read_text())["ndcg"]["proxies"]["bow"]
        figures = json.loads((tmp_path / f"ndcg-{name}.json").read_text())
        assert figures["proxies"]["bow"] == evaluated["model"], name
        assert figures["random"]["bow"] == evaluated["random"], name
        assert f"<td>{name}: the protocol's texts x its videos" in (tmp_path / f"ndcg-{name}.html").read_text()
    capsys.readouterr()


def test_a_matrix_without_protocol_is_one_line_naming_the_flags(three_videos, tmp_path, capsys):
    np.save(tmp_path / "sim.npy", np.ones((3, 2), dtype=np.float32))
    np.savez(tmp_path / "one.npz", np.ones((3, 2), dtype=np.float32))
    for matrix in ("sim.npy", "one.npz"):
        err = refused(capsys, "--relevance", three_videos, "--scores", tmp_path / matrix, "--json",
                      tmp_path / "ndcg.json")
        assert "is a matrix without ids, its rows and columns in a protocol's order: give --protocol 1k-A" in err
        assert "--videos" in err and "--sen-ids" in err and "--orientation" in err
    err = refused(capsys, "--relevance", three_videos, "--scores", "random", "--orientation", "texts-x-videos")
    assert "--orientation goes with --protocol" in err
    assert not (tmp_path / "ndcg.json").exists()


@pytest.mark.parametrize("matrix, message", [
    (np.ones((4, 2)), "a 4 x 2 matrix, but custom is 3 texts x 2 videos (or videos x texts)"),
    (np.array([[0.1, 0.2], [np.nan, 0.3], [0.4, 0.5]]), "the score at row 1, column 0 (texts x videos, counted "
                                                        "from 0) is nan; 1 are not finite numbers"),
])
def test_a_matrix_of_the_wrong_shape_or_with_a_nan_is_one_line(three_videos, tmp_path, capsys, matrix, message):
    np.save(tmp_path / "sim.npy", matrix.astype(np.float32))
    err = refused(capsys, "--relevance", three_videos, "--scores", tmp_path / "sim.npy", "--protocol", "custom",
                  "--videos", write_lines(tmp_path / "videos.txt", ["video1", "video2"]),
                  "--sen-ids", write_lines(tmp_path / "sen_ids.txt", [0, 1, 2]), "--json", tmp_path / "ndcg.json")
    assert message in err and str(tmp_path / "sim.npy") in err
    assert not (tmp_path / "ndcg.json").exists()


def test_without_the_captions_or_with_a_sentence_no_caption_is_one_line(three_videos, tmp_path, capsys):
    np.save(tmp_path / "sim.npy", np.ones((2, 2), dtype=np.float32))
    (three_videos / "manifest.json").unlink()
    common = ["--relevance", three_videos, "--scores", tmp_path / "sim.npy", "--protocol", "1k-A",
              "--orientation", "texts-x-videos"]
    unknown = write_jsfusion(tmp_path / "unknown.csv", [("video1", "a man sings"), ("video2", "a dog barks")])
    err = refused(capsys, *common, "--videos", unknown)
    assert "--protocol 1k-A needs --captions RUN_OR_RAW" in err
    err = refused(capsys, *common, "--videos", unknown, "--captions", tmp_path / "raw")
    assert "sentence 1 of 1k-A ('a dog barks', video2) is none of its video's captions there" in err
