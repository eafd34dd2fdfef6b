"""`capclean ndcg --report` (pipelines/evaluation/ndcg/page.py) on the two-video relevance of conftest.py.

Its figures, worked out by hand in test_ndcg_command.py (bow, linear gain, cut-off relevant): the model's
scores give t2v 66.7, v2t 75.5, mean 71.1, the random ranking 77.0, 76.6, 76.8; mAP 83.3, 66.7, 75.0
against random 75.0, 70.8, 72.9.
The agreement of bow and pos, per video (ranks over the 3 captions, ties averaged):
    video1: bow 1, 1, 0.5 -> 2.5, 2.5, 1; pos 1, 1, 0 -> 2.5, 2.5, 1: rho 1.
    video2: bow 0.25, 0, 1 -> 2, 1, 3; pos 0, 0, 1 -> 1.5, 1.5, 3: centred 0, -1, 1 and -0.5, -0.5, 1,
            rho = 1.5 / sqrt(2 x 1.5) = 0.866.
so mean and median 0.933, min 0.866, both videos at 0.5 or above.
"""
import json
import re

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipelines.cli import main
from pipelines.evaluation.ndcg.page import write_ndcg_report

HOSTILE = "<script>alert(1)</script>"


@pytest.fixture
def output(relevance):
    """The relevance output with the settings `capclean relevance` records: manifest.json and stats.json."""
    manifest = json.loads((relevance / "manifest.json").read_text())
    manifest["settings"] = {"split": "test", "proxies": ["bow", "pos"],
                            "reading": {"video_threshold": 0.25, "stop_list": "spacy"}}
    (relevance / "manifest.json").write_text(json.dumps(manifest))
    (relevance / "stats.json").write_text(json.dumps({"proxies": {"bow": {"pairs": 5}, "pos": {"pairs": 3}}}))
    return relevance


@pytest.fixture
def scores(tmp_path, score_rows):
    path = tmp_path / "scores.parquet"
    pq.write_table(pa.Table.from_pylist(score_rows), path)
    return path


def section_of(page: str, heading: str) -> str:
    match = re.search(rf"<section><h2>{re.escape(heading)}</h2>(.*?)</section>", page, re.S)
    assert match, f"no section {heading!r}"
    return match.group(1)


def report(capsys, *args) -> str:
    assert main(["ndcg", *args]) == 0
    path = args[args.index("--report") + 1]
    assert f"capclean: report written to {path}" in capsys.readouterr().out
    return open(path, encoding="utf-8").read()


def test_the_page_holds_the_settings_the_figures_and_the_baselines(output, scores, tmp_path, capsys):
    page = report(capsys, "--relevance", str(output), "--scores", str(scores), "--report", str(tmp_path / "n.html"))
    header = page.split("<section>")[0]
    assert "<tr><th>split</th><td>test</td></tr>" in header
    assert "stop_list: <code>spacy</code><br>video_threshold: <code>0.25</code>" in header
    assert "<tr><th>pairs with relevance &gt; 0</th><td>bow 5, pos 3</td></tr>" in header
    assert "<tr><th>gallery</th><td>2 videos x 3 captions</td></tr>" in header
    assert f"a model's: <code>{scores}</code>" in header
    ndcg = section_of(page, "nDCG per proxy and direction")
    # Each direction: the model's figure, then the exact random baseline; the oracle last.
    assert ("<tr><th>bow</th><td class='num'>66.7</td><td class='num note'>77.0</td><td class='num'>75.5</td>"
            "<td class='num note'>76.6</td><td class='num'>71.1</td><td class='num note'>76.8</td>"
            "<td class='num note'>100.0</td></tr>") in ndcg
    # Bars: the model's and the random ranking's, per proxy x direction x gain, on the 520-wide scale.
    assert ndcg.count("<rect ") == 2 * 3 * 2 * 2
    assert re.search(r"width='369.7' [^>]*><title>bow mean, model: 71.1</title>", ndcg)
    mean_ap = section_of(page, "mAP with the own captions")
    cells = "<td class='num'>{}</td><td class='num'>{}</td><td class='num'>{}</td></tr>"
    assert "<tr><th>scores</th>" + cells.format("83.3", "66.7", "75.0") in mean_ap
    assert "<tr><th>random</th>" + cells.format("75.0", "70.8", "72.9") in mean_ap
    agreement = section_of(page, "Proxy agreement: Spearman&#x27;s rho per video")
    assert ("<tr><th>bow-pos</th><td class='num'>2</td><td class='num'>0.933</td><td class='num'>0.933</td>"
            "<td class='num'>0.866</td><td class='num'>100.0%</td></tr>") in agreement


def test_random_scores_are_their_own_baseline_and_the_agreement_can_be_left_out(output, tmp_path, capsys):
    page = report(capsys, "--relevance", str(output), "--scores", "random", "--no-agreement",
                  "--report", str(tmp_path / "n.html"))
    ndcg = section_of(page, "nDCG per proxy and direction")
    assert "<td class='num'>77.0</td><td class='num note'>77.0</td>" in ndcg
    assert ndcg.count("<rect ") == 2 * 3 * 2  # one bar a row: no second random bar
    agreement = section_of(page, "Proxy agreement: Spearman&#x27;s rho per video")
    assert "Not computed (<code>--no-agreement</code>)" in agreement and "<tr>" not in agreement


def test_hostile_text_is_escaped_the_page_loads_nothing_and_is_the_same_twice(output, write_relevance, tmp_path,
                                                                               capsys, network_loads, start_tags):
    write_relevance(output, "<img src=x>", [("video1", 0, 1.0), ("video2", 2, 0.5)])
    manifest = json.loads((output / "manifest.json").read_text())
    manifest["settings"]["split"] = HOSTILE
    (output / "manifest.json").write_text(json.dumps(manifest))
    target, figures = tmp_path / "n.html", tmp_path / "n.json"
    page = report(capsys, "--relevance", str(output), "--scores", "oracle", "--report", str(target),
                  "--json", str(figures))
    assert "<script" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<img" not in page and "&lt;img src=x&gt;-bow" in page  # the proxies in order: <img src=x>, bow, pos
    # The oracle has no mAP of its own: only the random ranking's row.
    assert re.findall(r"<tr><th>(\w+)</th>", section_of(page, "mAP with the own captions")) == ["random"]
    assert network_loads(page) == [] and {tag for tag, _ in start_tags(page)} & {"script", "img"} == set()
    # The same run again replaces its own page with the same bytes; the JSON file gives them too.
    assert report(capsys, "--relevance", str(output), "--scores", "oracle", "--report", str(target)) == page
    assert write_ndcg_report(figures, tmp_path / "again.html").read_text(encoding="utf-8") == page


def test_a_folder_or_a_users_file_as_report_is_one_line_with_exit_code_2(output, tmp_path, capsys):
    assert main(["ndcg", "--relevance", str(output), "--scores", "random", "--report", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "is a folder" in err and err.count("\n") == 1 and "Traceback" not in err
    mine = tmp_path / "notes.html"
    mine.write_text("<p>my notes</p>")
    assert main(["ndcg", "--relevance", str(output), "--scores", "random", "--report", str(mine)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "was not written by capclean" in err and err.count("\n") == 1
    assert mine.read_text() == "<p>my notes</p>"
