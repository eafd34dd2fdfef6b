"""The overlap report (pipelines/evaluation/overlap/page.py) on a tiny `capclean overlap` output, and the command writing it."""
import json
import re

import pyarrow.parquet as pq
import pytest

from pipelines.cli import main
from pipelines.evaluation.overlap.run import Spec, run_overlap
from pipelines.evaluation.overlap.page import OverlapReportError, write_overlap_report

HOSTILE = "<script>alert(1)</script>"
VIDEOS = [{"video_id": f"video{n}", "split": split, "category": 1}
          for n, split in ((1, "test"), (2, "test"), (3, "test"), (4, "train"), (5, "train"))]
# Three test videos' first captions are the queries: 0 (4 words, a leak of 6), 2 (10 words) and 4 (6 words).
# Video3 is 0's candidate by caption 5 (0.5 * (4/4 + 4/5) = 0.9, above caption 4's 0.5 * (4/4 + 4/6) = 0.833),
# video1 is 4's by caption 0 (0.833).
CAPTIONS = [(0, 1, "a man is talking"), (1, 1, "a man speaks to the camera"),
            (2, 2, "a woman cooks pasta in a kitchen with her son"), (3, 2, "a man is talking to a crowd"),
            (4, 3, "a man is talking on stage"), (5, 3, f"a man is talking {HOSTILE}"),
            (6, 4, "A man  is talking"), (7, 4, "a chef cooks pasta"), (8, 5, "a dog runs on the beach")]


@pytest.fixture(scope="module")
def source(tmp_path_factory, write_captions):
    folder = tmp_path_factory.mktemp("overlap_report") / "in"
    return write_captions(folder, VIDEOS, CAPTIONS)


@pytest.fixture(scope="module")
def output(source, tmp_path_factory):
    folder = tmp_path_factory.mktemp("overlap_out")
    run_overlap(str(source), Spec("first-of-split", "test"), Spec("splits", "train"), folder, 0.8)
    return folder


def section_of(page: str, heading: str) -> str:
    match = re.search(rf"<section><h2>{re.escape(heading)}</h2>(.*?)</section>", page, re.S)
    assert match, f"no section {heading!r}"
    return match.group(1)


def test_the_page_holds_the_settings_and_the_overlap_figures(output):
    stats = json.loads((output / "stats.json").read_text())
    page = write_overlap_report(output).read_text(encoding="utf-8")
    header = page.split("<section>")[0]
    assert "<th>queries</th><td><code>first-of-split:test</code></td>" in header
    assert "<th>training side</th><td><code>splits:train</code></td>" in header
    assert "<th>training captions</th><td>3</td>" in header
    assert "analyzer char, 5-grams, fitted on the queries" in header
    overlap = section_of(page, "Train/test overlap")
    assert "<td class='num'>1 (33.3%)</td>" in overlap  # sen_id 0 is "A man  is talking"
    mean = stats["overlap"]["mean_top10_similarity"]
    assert f"<td class='num'>{mean:.3f}</td>" in overlap
    for kind in ("spearman", "kendall"):
        for length in ("words", "characters"):
            assert f"<td class='num'>{stats['overlap']['correlations'][f'{kind}_{length}']['coefficient']:.3f}</td>" \
                   in overlap
    assert "Appendix D" in overlap and "short, general captions" in overlap


def test_similarity_and_candidates_per_length_bin_as_bars(output):
    stats = json.loads((output / "stats.json").read_text())
    page = write_overlap_report(output).read_text(encoding="utf-8")
    lengths = section_of(page, "Similarity by caption length")
    # Queries of 4 (1-5), 6 (6-7) and 10 words (10-12): one bar each, labelled by its bin, shortest first.
    assert re.findall(r"<text x='102' [^>]*>([\d+-]+)</text>", lengths) == ["1-5", "6-7", "10-12"]
    six_seven = stats["overlap"]["by_length"]["6-7"]["mean_top10_similarity"]
    assert f"{six_seven:.3f} (1 query)" in lengths
    candidates = section_of(page, "False-negative candidates")
    assert "2 of 3 queries (66.7%)" in candidates
    # 1-5: sen_id 0 has one; 6-7: sen_id 4 has one; 10-12: sen_id 2 has none. Bars on the 520-wide 0-1 scale.
    assert re.search(r"<rect x='110.0' y='[\d.]+' width='520.0' [^>]*><title>1-5: 1 of 1 \(100.0%\)", candidates)
    assert re.search(r"<rect x='110.0' y='[\d.]+' width='0.0' [^>]*><title>10-12: 0 of 1 \(0.0%\)", candidates)
    assert "similarity to the query (step III word LCS, e=0) is at least 0.8;" in candidates


def test_examples_are_the_best_candidates_and_are_escaped(output):
    page = write_overlap_report(output).read_text(encoding="utf-8")
    assert "<script" not in page
    candidates = section_of(page, "False-negative candidates")
    assert "<td>a man is talking &lt;script&gt;alert(1)&lt;/script&gt; <span class='id'>5</span></td>" in candidates
    examples = re.findall(r"<tr><td>([^<]+) <span class='id'>(\d+), (video\d)</span></td><td>(video\d)</td>",
                          candidates)
    assert examples == [("a man is talking", "0", "video1", "video3"),
                        ("a man is talking on stage", "4", "video3", "video1")]
    assert re.findall(r"<td class='sim'>([\d.]+)</td>", candidates) == ["0.900", "0.833"]


def test_the_page_loads_nothing_and_is_the_same_twice(output, network_loads, start_tags, tmp_path):
    first = write_overlap_report(output).read_bytes()
    again = write_overlap_report(output, tmp_path / "again.html").read_bytes()
    assert first == again
    page = first.decode("utf-8")
    assert network_loads(page) == []
    assert "script" not in {tag for tag, _ in start_tags(page)}
    assert str(output) not in page  # no folder named but what stats.json names


def test_without_candidates_the_section_says_so(source, tmp_path):
    run_overlap(str(source), Spec("first-of-split", "test"), Spec("splits", "train"), tmp_path, None)
    candidates = section_of(write_overlap_report(tmp_path).read_text(encoding="utf-8"), "False-negative candidates")
    assert "--no-fn-candidates" in candidates and "<svg" not in candidates


def test_a_folder_without_stats_is_one_error(tmp_path):
    with pytest.raises(OverlapReportError, match="not the output of capclean overlap"):
        write_overlap_report(tmp_path)


def test_the_command_writes_the_report(source, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["overlap", "--input", str(source), "--output", str(out), "--train", "splits:train",
                 "--fn-threshold", "0.8"]) == 0
    assert f"report: {out / 'report.html'}" in capsys.readouterr().out
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "<td class='num'>1 (33.3%)</td>" in section_of(page, "Train/test overlap")
    assert pq.read_table(out / "fn_candidates").num_rows == 2
    assert "report" in json.loads((out / "manifest.json").read_text())["times"]["phases_seconds"]
