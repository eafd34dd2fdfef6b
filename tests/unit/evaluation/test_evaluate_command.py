"""`capclean evaluate` end to end: the texts it writes, the figures of a matrix in either orientation (worked by hand
in test_retrieval.py), and its errors: one line, exit code 2, nothing written."""
import json

import numpy as np
import pytest

from pipelines.cli import main

VIDEOS = [{"video_id": "video7010", "split": "test", "category": 1},
          {"video_id": "video7011", "split": "test", "category": 1}]
SENTENCES = [{"sen_id": 0, "video_id": "video7010", "caption": "a man talks about cars"},
             {"sen_id": 1, "video_id": "video7010", "caption": "a man drives"},
             {"sen_id": 2, "video_id": "video7011", "caption": "a dog runs"},
             {"sen_id": 3, "video_id": "video7011", "caption": "a dog runs: fast"}]
# test_retrieval.py's TALL matrix: texts 0, 1 of video7010 and 2, 3 of video7011, worked by hand there.
TALL = np.array([[0.6, 0.6], [0.9, 0.1], [0.3, 0.2], [0.5, 0.5]])


@pytest.fixture
def raw(tmp_path, write_annotations):
    return str(write_annotations(tmp_path / "raw", VIDEOS, SENTENCES))


def run(capsys, *args):
    code = main(["evaluate", *map(str, args)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_write_texts_gives_the_rows_and_columns_in_order(raw, tmp_path, capsys):
    target = tmp_path / "texts.json"
    code, out, _ = run(capsys, "--protocol", "full-test", "--input", raw, "--write-texts", target)
    assert code == 0 and "4 texts and 2 videos of full-test" in out
    written = json.loads(target.read_text())
    assert written["videos"] == ["video7010", "video7011"]
    assert [(text["text"], text["video_id"], text["sen_ids"]) for text in written["texts"]] == [
        ("a man talks about cars", "video7010", [0]), ("a man drives", "video7010", [1]),
        ("a dog runs", "video7011", [2]), ("a dog runs: fast", "video7011", [3])]
    # The same file again: capclean wrote it, so it may be replaced.
    assert run(capsys, "--protocol", "full-test", "--input", raw, "--write-texts", target)[0] == 0


@pytest.mark.parametrize("matrix", [TALL, TALL.T], ids=["texts-x-videos", "videos-x-texts"])
def test_the_figures_of_a_matrix_either_way(raw, tmp_path, capsys, matrix):
    # By hand (test_retrieval.py): t2v ranks 2, 1, 2, 2; v2t ranks 1, 2.
    scores, target = tmp_path / "sim.npy", tmp_path / "figures.json"
    np.save(scores, matrix)
    code, out, _ = run(capsys, "--protocol", "full-test", "--input", raw, "--scores", scores, "--json", target)
    assert code == 0
    assert "  t2v model        25.0    100.0    100.0      2.0      1.8" in out
    assert "  v2t model        50.0    100.0    100.0      1.5      1.5" in out
    figures = json.loads(target.read_text())
    assert figures["model"]["t2v"]["MnR"] == 1.75 and figures["written_by"] == "capclean evaluate"
    # Random, 4 texts with one positive among 2 videos: R@1 1/2, MnR 3/2; 2 videos with 2 positives among 4
    # texts: R@1 1 - C(3, 2) / C(4, 2) = 1/2, MnR 5/3.
    assert figures["random"]["t2v"]["R@1"] == 0.5 and figures["random"]["v2t"]["MnR"] == pytest.approx(5 / 3)


def test_the_report_page(raw, tmp_path, capsys):
    scores, page = tmp_path / "sim.npy", tmp_path / "evaluate.html"
    np.save(scores, TALL)
    assert run(capsys, "--protocol", "full-test", "--input", raw, "--scores", scores, "--report", page)[0] == 0
    html = page.read_text()
    assert "<!-- written by capclean -->" in html and "text-to-video, random" in html and "1.8" in html


@pytest.mark.parametrize("extra, message", [
    (["--write-texts", "{tmp}/t.json", "--json", "{tmp}/f.json"], "--json and --report go with --scores"),
    (["--scores", "{tmp}/missing.npy"], "missing.npy: no such file"),
    (["--scores", "{tmp}/mine.json"], "not a NumPy"),
    (["--write-texts", "{tmp}/mine.json"], "--write-texts {tmp}/mine.json exists and was not written by"),
    (["--scores", "{tmp}/sim.npy", "--json", "{tmp}/mine.json"], "--json {tmp}/mine.json exists"),
])
def test_an_error_is_one_line_and_nothing_is_written(raw, tmp_path, capsys, extra, message):
    np.save(tmp_path / "sim.npy", TALL)
    (tmp_path / "mine.json").write_text('{"mine": true}\n')
    before = sorted(tmp_path.iterdir())
    code, _, err = run(capsys, "--protocol", "full-test", "--input", raw,
                       *[arg.format(tmp=tmp_path) for arg in extra])
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and message.format(tmp=tmp_path) in err
    assert sorted(tmp_path.iterdir()) == before and (tmp_path / "mine.json").read_text() == '{"mine": true}\n'
