"""`capclean ndcg` end to end on a two-video relevance, and its errors: one line, exit code 2.

The relevance and the model's scores (fixtures `relevance`, `score_rows`, `model_scores` of conftest.py):
    relevance                   scores
    video1: 1.0  1.0  0.5       video1: 0.9  0.1  0.3
    video2: 0.25 0    1.0       video2: 0.2  0.8  0.7
(captions 0 and 1 are video1's, caption 2 is video2's). The figures below are worked out by hand in the
comments (cut-off: each query's relevant items).
"""
import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipelines.cli import main


def run(capsys, *args):
    code = main(["ndcg", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_oracle_is_100_for_every_proxy_direction_and_gain(relevance, capsys):
    code, out, _ = run(capsys, "--relevance", str(relevance), "--scores", "oracle")
    assert code == 0
    rows = [line.split() for line in out.splitlines() if line.startswith("  bow") or line.startswith("  pos")]
    assert len(rows) == 4 and all(row[2:] == ["100.0", "100.0", "100.0"] for row in rows)


def test_the_oracle_says_how_far_it_is_proxy_by_proxy_with_the_totals(relevance, capsys, caplog):
    """It ran 4 minutes on the full test split without a line: now one per proxy, with how many there are."""
    with caplog.at_level("INFO", logger="capclean.progress"):
        assert run(capsys, "--relevance", str(relevance), "--scores", "oracle")[0] == 0
    lines = [record.getMessage() for record in caplog.records if record.name == "capclean.progress"]
    assert [line.split(" (")[0] for line in lines] == ["ndcg: proxy bow done, 1 of 2 proxies",
                                                       "ndcg: proxy pos done, 2 of 2 proxies"]
    assert "(2 videos x 3 captions each)" in lines[0]


def test_the_random_ranking_by_hand(relevance, capsys, tmp_path):
    # bow, linear. v2t: video1 gains 1, 1, 0.5 over 3 captions, k = 3: E[DCG] = 2.5 x 2.13093 / 3 = 1.77578,
    # IDCG = 1 + 0.63093 + 0.25 = 1.88093 -> 0.94410; video2 gains 0.25, 1, k = 2: 1.25 x 1.63093 / 3 = 0.67955,
    # IDCG = 1 + 0.25 x 0.63093 = 1.15773 -> 0.58697; v2t 76.6. t2v: caption 0 (1, 0.25 over 2 videos, k = 2)
    # 1.25 x 0.81546 / 1.15773 = 0.88046; caption 1 (k = 1) 0.5; caption 2 (0.5, 1) 1.5 x 0.81546 / 1.31546
    # = 0.92987; t2v 77.0; mean 76.8.
    # mAP by its exact expectation: t2v each caption 1 of 2 videos: H_2 / 2 = 0.75; v2t video1 2 of 3
    # captions: 0.80556, video2 1 of 3: H_3 / 3 = 0.61111, so 70.8; mean 72.9.
    target = tmp_path / "random.json"
    code, out, _ = run(capsys, "--relevance", str(relevance), "--scores", "random", "--json", str(target))
    assert code == 0
    assert "  bow   linear          77.0   76.6   76.8" in out
    assert "mAP (own captions): t2v 75.0  v2t 70.8  mean 72.9" in out
    figures = json.loads(target.read_text())
    assert figures["proxies"]["bow"]["mean"]["linear"] == pytest.approx(0.76782, abs=1e-4)
    assert figures["written_by"] == "capclean ndcg" and figures["videos"] == 2 and figures["captions"] == 3
    # The tie rule is said where the figures are: nDCG averages over tie orders, mAP counts ties against the model.
    assert "mean over the tie's orders" in figures["ties"] and "against the model" in figures["ties"]
    assert f"  ties: {figures['ties']}" in out


@pytest.mark.parametrize("kind", ["csv", "parquet", "npz"])
def test_a_models_scores_in_each_format(relevance, score_rows, model_scores, capsys, tmp_path, kind):
    # v2t: video1 ranks captions 0 (1), 2 (0.5), 1 (1): DCG = 1 + 0.31546 + 0.5 = 1.81546 / 1.88093 = 0.96519;
    # video2 ranks 1 (0), 2 (1) within k = 2: 0.63093 / 1.15773 = 0.54497; v2t 75.5. t2v: captions 0 and 2
    # rank ideally (1), caption 1 ranks video2 first with k = 1 (0): 66.7. Mean 71.1.
    # mAP: t2v 1, 1/2, 1 -> 83.3; v2t video1 (1 + 2/3) / 2, video2 1/2 -> 66.7; mean 75.0.
    path = tmp_path / f"scores.{kind}"
    rows = score_rows
    if kind == "csv":
        path.write_text("sen_id,video_id,score\n" + "".join(f"{r['sen_id']},{r['video_id']},{r['score']}\n"
                                                           for r in rows))
    elif kind == "parquet":
        pq.write_table(pa.Table.from_pylist(rows), path)
    else:
        # Rows (captions) and columns (videos) in another order than the relevance's.
        sen_ids, video_ids = [2, 0, 1], ["video2", "video1"]
        matrix = np.array([[model_scores[(video, sen_id)] for video in video_ids] for sen_id in sen_ids])
        np.savez(path, scores=matrix, sen_ids=np.array(sen_ids), video_ids=np.array(video_ids))
    code, out, _ = run(capsys, "--relevance", str(relevance), "--scores", str(path))
    assert code == 0
    assert "  bow   linear          66.7   75.5   71.1" in out
    assert "mAP (own captions): t2v 83.3  v2t 66.7  mean 75.0" in out


def test_the_whole_gallery_cutoff_changes_the_figure(relevance, score_rows, capsys):
    # Without a cut-off caption 1 gets its video at rank 2: 0.63093 instead of 0; t2v (1 + 0.63093 + 1) / 3 = 87.7.
    path = relevance / "scores.parquet"
    pq.write_table(pa.Table.from_pylist(score_rows), path)
    code, out, _ = run(capsys, "--relevance", str(relevance), "--scores", str(path), "--cutoff", "all")
    assert code == 0
    assert "  bow   linear          87.7" in out


def error_of(capsys, *args):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    return err


def test_errors_are_one_line(relevance, capsys, tmp_path):
    assert "no such folder" in error_of(capsys, "--relevance", str(tmp_path / "nothing"), "--scores", "random")
    assert "no proxy=NAME folder" in error_of(capsys, "--relevance", str(tmp_path), "--scores", "random")
    assert "no such file" in error_of(capsys, "--relevance", str(relevance), "--scores", str(tmp_path / "s.csv"))
    unknown = tmp_path / "unknown.csv"
    unknown.write_text("sen_id,video_id,score\n0,video9,0.5\n")
    assert "video_id 'video9' is not in the relevance" in error_of(capsys, "--relevance", str(relevance),
                                                                   "--scores", str(unknown))
    partial = tmp_path / "partial.csv"
    partial.write_text("sen_id,video_id,score\n0,video1,0.5\n")
    assert "5 of the 6 (caption, video) pairs have no score" in error_of(capsys, "--relevance", str(relevance),
                                                                         "--scores", str(partial))
    twice = tmp_path / "twice.csv"
    twice.write_text("sen_id,video_id,score\n0,video1,0.5\n0,video1,0.6\n")
    assert "more than one score" in error_of(capsys, "--relevance", str(relevance), "--scores", str(twice))
    columns = tmp_path / "columns.csv"
    columns.write_text("text_id,video_id,score\n0,video1,0.5\n")
    assert "not a table of sen_id, video_id, score" in error_of(capsys, "--relevance", str(relevance),
                                                                "--scores", str(columns))
    npz = tmp_path / "ids.npz"
    np.savez(npz, scores=np.zeros((3, 2)), sen_ids=np.array([0, 1, 7]), video_ids=np.array(["video1", "video2"]))
    assert "sen_ids do not match the relevance (7 is not in the relevance)" in error_of(
        capsys, "--relevance", str(relevance), "--scores", str(npz))


def test_json_never_replaces_a_file_it_did_not_write(relevance, capsys, tmp_path):
    mine = tmp_path / "notes.json"
    mine.write_text('{"my": "notes"}')
    assert "was not written by capclean ndcg" in error_of(capsys, "--relevance", str(relevance), "--scores",
                                                           "random", "--json", str(mine))
    assert mine.read_text() == '{"my": "notes"}'
    earlier = tmp_path / "earlier.json"
    assert main(["ndcg", "--relevance", str(relevance), "--scores", "random", "--json", str(earlier)]) == 0
    assert main(["ndcg", "--relevance", str(relevance), "--scores", "oracle", "--json", str(earlier)]) == 0
    assert json.loads(earlier.read_text())["scores"] == "oracle"
