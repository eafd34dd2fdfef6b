"""The FIRE report (pipelines/evaluation/fire/page.py): the page of hand-made figures, and `capclean fire --report`."""
import json
import re
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipelines.cli import main
from pipelines.evaluation.fire.inputs import FireInputError
from pipelines.evaluation.fire.page import FireReportError, write_fire_report
from pipelines.pages.html import section

HOSTILE = "<script>alert(1)</script>"
FIXTURE = Path(__file__).parent / "fixtures" / "fire_msrvtt_sample.json"


def scores(c1, c5, c10, ap, queries=4) -> dict:
    return {"C@1": c1, "C@5": c5, "C@10": c10, "mAP": ap, "queries": queries}


# As fire_command builds them: model A named, so with the third label set; B unnamed; both compared.
FIGURES = {
    "depth": 20, "ap_normaliser": "retrieved", "unmatched_labels": 1,
    "a": {"predictions": f"runs/{HOSTILE}.csv", "model": "CLIP4CLIP",
          "label_sets": {"original": scores(0.25, 0.5, 0.75, 0.4),
                         "original+extra": scores(0.5, 0.75, 1.0, 0.6),
                         "original+others": scores(0.25, 0.75, 0.75, 0.45)},
          "by_length": {"1-5": {"C@1": 1.0, "C@5": 1.0, "C@10": 1.0, "queries": 1},
                        "12+": {"C@1": 0.0, "C@5": 0.5, "C@10": 1.0, "queries": 2}}},
    "b": {"predictions": "runs/b.parquet", "model": None,
          "label_sets": {"original": scores(0.0, 0.25, 0.5, 0.2), "original+extra": scores(0.25, 0.5, 0.5, 0.3)}},
    "overlap": {"top10_overlap": 0.35, "rbo": 0.5, "rbo_p": 0.9, "queries": 4},
    "bootstrap": {"difference": 0.25, "level": 0.95, "resamples": 1000, "seed": 0, "figure": "C@1, original+extra",
                  "intervals": {"2": [-0.5, 1.0], "4": [0.05, 0.5]}, "queries_needed": 4},
}


def section_of(page: str, heading: str) -> str:
    match = re.search(rf"<section><h2>{re.escape(heading)}</h2>(.*?)</section>", page, re.S)
    assert match, f"no section {heading!r}"
    return match.group(1)


@pytest.fixture
def page(tmp_path) -> str:
    return write_fire_report(FIGURES, tmp_path / "fire.html").read_text(encoding="utf-8")


def test_each_model_has_its_label_sets_in_a_table_and_as_bars(page):
    header = page.split("<section>")[0]
    assert "<th>ranks scored per query (depth)</th><td>20</td>" in header
    assert "<td>1</td>" in header  # the label naming no predicted query
    a = section_of(page, "Model A")
    assert re.findall(r"<tr><th>([\w+]+)</th>", a)[:3] == ["original", "original+extra", "original+others"]
    assert ("<td class='num'>4</td><td class='num'>50.0</td><td class='num'>75.0</td><td class='num'>100.0</td>"
            "<td class='num'>60.0</td></tr>") in a  # original+extra, in percent
    # One bar per figure and label set, on the 520-wide scale: C@10 with every extra label is full width.
    assert a.count("<rect ") == 4 * 3 + 2 * 3  # the label sets, then C@1/5/10 of the two length bins
    assert re.search(r"<rect x='110.0' y='[\d.]+' width='520.0' [^>]*><title>C@10, original\+extra: 100.0", a)
    assert re.findall(r"<text class='tick' [^>]*>([^<]+)</text>", a)[:5] == ["0%", "25%", "50%", "75%", "100%"]
    b = section_of(page, "Model B")
    assert "original+others" not in b and "<td><code>runs/b.parquet</code></td>" in header


def test_c_at_k_per_caption_length(page):
    a = section_of(page, "Model A")
    assert "<h3>C@K by caption length</h3>" in a
    assert ("<tr><th>12+</th><td class='num'>2</td><td class='num'>0.0</td><td class='num'>50.0</td>"
            "<td class='num'>100.0</td></tr>") in a
    assert re.search(r"<rect x='110.0' y='[\d.]+' width='260.0' [^>]*><title>12\+ words, C@5: 50.0", a)
    assert "by caption length" not in section_of(page, "Model B")


def test_the_overlap_and_the_bootstrap(page):
    overlap = section_of(page, "Models A and B: how alike they rank")
    assert re.search(r"width='182.0' [^>]*><title>top-10 overlap: 35.0", overlap)
    assert "RBO (p = 0.9): 0.500" in overlap and "Over the 4 queries" in overlap
    boot = section_of(page, "Bootstrap: how many annotated queries detect the difference")
    assert "A − B = +25.0 points; 4 annotated queries detect it at 95%" in boot
    assert ("<tr><td class='num'>2</td><td class='num'>-50.0</td><td class='num'>+100.0</td><td>no</td></tr>"
            in boot)
    assert "<tr><td class='num'>4</td><td class='num'>+5.0</td><td class='num'>+50.0</td><td>yes</td></tr>" in boot


def test_one_model_has_no_comparison_sections(tmp_path):
    alone = {key: value for key, value in FIGURES.items() if key not in ("b", "overlap", "bootstrap")}
    page = write_fire_report(alone, tmp_path / "one.html").read_text(encoding="utf-8")
    assert "<h2>Model A</h2>" in page and "<h2>Model B</h2>" not in page and "Bootstrap" not in page


def test_escaped_loads_nothing_same_bytes_and_more_sections(tmp_path, page, network_loads, start_tags):
    assert "<script" not in page and "runs/&lt;script&gt;alert(1)&lt;/script&gt;.csv" in page
    assert network_loads(page) == [] and "script" not in {tag for tag, _ in start_tags(page)}
    fire_json = tmp_path / "fire.json"
    fire_json.write_text(json.dumps(FIGURES))
    assert write_fire_report(fire_json, tmp_path / "again.html").read_text(encoding="utf-8") == page
    # A later evaluation adds its section the same way, after FIRE's.
    more = write_fire_report(FIGURES, tmp_path / "more.html", [section("nDCG", "<p>0.5</p>")]).read_text()
    assert more.endswith("<section><h2>nDCG</h2><p>0.5</p></section>\n</body>\n</html>\n")


def test_unreadable_figures_are_one_error(tmp_path):
    with pytest.raises(FireReportError, match="cannot read FIRE figures"):
        write_fire_report(tmp_path / "missing.json", tmp_path / "fire.html")


def write_predictions(path: Path, rankings: dict) -> Path:
    """A predictions Parquet file: each sen_id's videos, best first, scored 1/rank."""
    rows = [{"sen_id": sen_id, "video_id": video, "rank": rank, "score": 1 / rank}
            for sen_id, videos in rankings.items() for rank, video in enumerate(videos, start=1)]
    pq.write_table(pa.Table.from_pylist(rows), path)
    return path


def test_the_command_writes_the_report_from_the_fire_label_fixture(tmp_path, capsys, write_annotations):
    raw = write_annotations(tmp_path / "raw", [{"video_id": "video1", "split": "test", "category": 1},
                                               {"video_id": "video2", "split": "test", "category": 1}],
                            [{"sen_id": 0, "video_id": "video1", "caption": "a man is talking"},
                             {"sen_id": 1, "video_id": "video2", "caption": "a dog runs on the beach with a red ball"}])
    # The rankings of test_fire.py's test of this fixture.
    predictions = write_predictions(tmp_path / "a.parquet", {0: ["video20", "video1", "video30", "video40"],
                                                             1: ["video40", "video10", "video2"]})
    report = tmp_path / "pages" / "fire.html"
    assert main(["fire", "--predictions", str(predictions), "--labels", str(FIXTURE), "--captions", str(raw),
                 "--model", "CLIP4CLIP", "--report", str(report)]) == 0
    assert f"capclean: report written to {report}" in capsys.readouterr().out
    a = section_of(report.read_text(encoding="utf-8"), "Model A")
    # As test_fire.py computes them: original+extra C@1 50.0 and mAP (1 + .5833) / 2 = 79.2; original C@1 0.
    assert ("<tr><th>original+extra</th><td class='note'>and every video labelled relevant, from any model&#x27;s pool"
            "</td><td class='num'>2</td><td class='num'>50.0</td>") in a
    assert "<td class='num'>79.2</td></tr>" in a
    assert "<tr><th>1-5</th><td class='num'>1</td>" in a  # "a man is talking"


def test_a_folder_or_a_users_file_as_report_is_one_line_with_exit_code_2_and_a_page_is_replaced(tmp_path, capsys):
    predictions = write_predictions(tmp_path / "a.parquet", {1: ["v1"]})
    assert main(["fire", "--predictions", str(predictions), "--labels", str(FIXTURE), "--report", str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert "is a folder" in error and error.count("\n") == 1 and "Traceback" not in error
    mine = tmp_path / "notes.html"
    mine.write_text("<p>my notes</p>")
    assert main(["fire", "--predictions", str(predictions), "--labels", str(FIXTURE), "--report", str(mine)]) == 2
    error = capsys.readouterr().err
    assert "was not written by capclean" in error and error.count("\n") == 1 and mine.read_text() == "<p>my notes</p>"


def test_a_page_capclean_wrote_may_be_replaced_and_nothing_else(tmp_path):
    from pipelines.output.page_files import check_page_target, write_page
    from pipelines.pages.charts import page_html

    page = write_page(page_html("a page", ["<p>figures</p>"]), tmp_path / "page.html")
    assert check_page_target(str(page), "--report", FireInputError, "fire.html") == page
    assert check_page_target(str(tmp_path / "new.html"), "--report", FireInputError, "fire.html") == tmp_path / "new.html"
    (tmp_path / "mine.html").write_text("<html><body>" + "x" * 70000 + "<!-- written by capclean --></body></html>")
    with pytest.raises(FireInputError, match="was not written by capclean"):  # the mark must be near the top
        check_page_target(str(tmp_path / "mine.html"), "--report", FireInputError, "fire.html")
