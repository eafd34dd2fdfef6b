"""The text-only baseline on the real MSR-VTT annotations, through one `capclean evaluate` each: the 1,000 x 1,000
matrix of 1k-A with every figure (R@K, MdR, MnR both ways, nDCG of the three proxies, FIRE's C@K and mAP with
extra labels, PoSRank of the baseline's scores of the hard negatives, each beside its random baseline), and the
59,800 x 2,990 matrix of the full test split (nDCG by bow only; docs/commands/evaluate.md gives the cost of all
three proxies). The figures are those docs/commands/evaluate.md prints in "What captions alone know".

Cost on the two shared cores (measured while others ran): the 1k-A test takes 4 min 6 s, 64 s before the
negatives and the labels. Most of it is its setup, 171 s: the hard negatives of 1k-A's 1,000 videos (all their
20,000 captions, as the paper's Table 1 counts them: 61,814 rows of up to 21 texts; 2 min of CPU) and the FIRE
labels (10 s, made once and shared with test_fire_labels_msrvtt.py). Then 75 s: the baseline with the negatives
(40 s, 1.4 GB) and the one evaluate (45 s). The negatives of one caption per video would cost less, but PoSRank
would then be that of 1,000 captions, not the 1k-A figure the docs print."""
import json

import numpy as np
import pytest

from pipelines.cli import main

pytestmark = pytest.mark.integration

# The raw full test split (docs/commands/evaluate.md): queries within rank K, of 59,800 texts (t2v) and 2,990
# videos (v2t), and MdR; nDCG by bow, the mean of both directions, linear gain, the model's and random's.
FULL_TEST_T2V = {"R@1": 19401 / 59800, "R@5": 32482 / 59800, "R@10": 37715 / 59800, "MdR": 4.0}
FULL_TEST_V2T = {"R@1": 1309 / 2990, "R@5": 1984 / 2990, "R@10": 2275 / 2990, "MdR": 2.0}
FULL_TEST_BOW = (0.7614, 0.2770)
# The pairs with bow relevance > 0: those of `capclean relevance --split test` on the same data
# (docs/commands/relevance.md), which the protocol's relevance is when its texts are all the test captions.
FULL_TEST_BOW_PAIRS = 57_460_800


def run(*args) -> None:
    assert main([*map(str, args)]) == 0


@pytest.fixture(scope="module")
def negatives_1k_a(msrvtt_dir, jsfusion, tmp_path_factory):
    """The hard negatives of the 1k-A videos' raw captions, default settings (k 20, word level)."""
    output = tmp_path_factory.mktemp("hardneg-1k-a") / "negatives"
    run("hardneg", "--input", msrvtt_dir, "--videos", jsfusion, "--output", output)
    return output


# PoSRank of the baseline's scores on the raw 1k-A negatives, word level, and the captions each part has.
POSRANK_1K_A = {"noun": (0.711, 19938), "verb": (0.751, 17851), "adjective": (0.589, 7058), "adverb": (0.383, 1872),
                "preposition": (0.594, 15095), "mean": (0.606, None)}


def test_1k_a_every_figure_of_the_baseline_in_one_evaluate(msrvtt_dir, jsfusion, negatives_1k_a, jsfusion_fire_labels,
                                                           tmp_path, capsys):
    matrix, negatives_scores, figures = tmp_path / "1k-a.npy", tmp_path / "1k-a-negatives.npy", tmp_path / "1k-a.json"
    run("baseline", "--protocol", "1k-A", "--videos", jsfusion, "--input", msrvtt_dir, "--output", matrix,
        "--negatives", negatives_1k_a, "--negatives-output", negatives_scores)
    assert np.load(matrix).shape == (1000, 1000) and np.load(negatives_scores).shape == (61814, 21)
    capsys.readouterr()
    run("evaluate", "--protocol", "1k-A", "--videos", jsfusion, "--input", msrvtt_dir, "--scores", matrix,
        "--orientation", "texts-x-videos", "--fire-labels", jsfusion_fire_labels.path, "--negatives", negatives_1k_a,
        "--negatives-scores", negatives_scores, "--json", figures)
    printed = capsys.readouterr().out
    found = json.loads(figures.read_text())
    check_every_section_is_printed(printed)
    check_r_at_k_and_ndcg(found)
    check_fire(found["fire"], found["model"]["t2v"], jsfusion_fire_labels.count)
    check_posrank(found["posrank"])


def check_every_section_is_printed(printed: str) -> None:
    """Each figure beside its random baseline, and the tie policy of each named."""
    lines = printed.splitlines()
    assert lines[0] == "capclean evaluate: 1k-A, 1,000 texts x 1,000 videos; ties count against the model"
    for row in ("t2v model", "t2v random", "v2t model", "v2t random", "original model", "original random",
                "original+extra model", "original+extra random"):
        assert any(line.lstrip().startswith(row) for line in lines), row
    assert "sentences matched to captions: 965 exactly, 35 once normalised, 0 through an earlier text" in printed
    assert "every one matched" in printed and "AP over the relevant retrieved; ties count against the model" in printed
    assert "nDCG (%), cut-off relevant, ties averaged over their orders" in printed
    for proxy in ("bow", "pos", "syn"):
        for source in ("model", "random"):
            assert any(line.split()[:1] == [proxy] and line.split()[2:3] == [source] for line in lines), \
                (proxy, source)
    assert "PoSRank: the caption among its hard negatives, beside chance (a random scorer); ties count against " \
           "the model" in printed
    assert "  word level" in lines


def check_r_at_k_and_ndcg(found: dict) -> None:
    assert found["matching"] == {"exact": 965, "normalised": 35, "edited": 0, "unmatched": 0, "several_sen_ids": 118}
    assert {key: found["model"]["t2v"][key] for key in ("R@1", "R@5", "R@10", "MdR")} == \
        {"R@1": 0.422, "R@5": 0.642, "R@10": 0.745, "MdR": 2.0}
    assert {key: found["model"]["v2t"][key] for key in ("R@1", "R@5", "R@10", "MdR")} == \
        {"R@1": 0.328, "R@5": 0.558, "R@10": 0.674, "MdR": 4.0}
    for direction in ("t2v", "v2t"):
        assert found["random"][direction]["R@1"] == pytest.approx(0.001) and found["random"][direction]["MdR"] == 500.5
    expected_means = {"bow": (0.7519, 0.2450), "pos": (0.7277, 0.2315), "syn": (0.5317, 0.1136)}  # linear gain
    for proxy, (model, random) in expected_means.items():
        tables = found["ndcg"]["proxies"][proxy]
        assert tables["model"]["mean"]["linear"] == pytest.approx(model, abs=5e-5)
        assert tables["random"]["mean"]["linear"] == pytest.approx(random, abs=5e-5)


def check_fire(fire: dict, t2v: dict, labels: int) -> None:
    """No label lost; with the original labels (the sentence's own video only) C@K is t2v's R@K; the extra labels
    can only add positives, so C@K does not fall; the model far above random."""
    assert fire["labels_read"] == labels and fire["labels_skipped"] == 0 and fire["extra_positives"] == 418
    original, extra = fire["label_sets"]["original"], fire["label_sets"]["original+extra"]
    for k in (1, 5, 10):
        assert original["model"][f"C@{k}"] == pytest.approx(t2v[f"R@{k}"])
        assert extra["model"][f"C@{k}"] >= original["model"][f"C@{k}"]
        assert extra["model"][f"C@{k}"] > 20 * extra["random"][f"C@{k}"]
    assert (round(100 * original["model"]["mAP"], 1), round(100 * extra["model"]["mAP"], 1)) == (52.5, 54.5)
    assert (round(100 * extra["model"]["C@1"], 1), round(100 * extra["model"]["C@5"], 1)) == (44.6, 67.5)


def check_posrank(posrank: dict) -> None:
    """Every part's PoSRank beside chance (20 negatives for every caption of every part: 0.174)."""
    word = posrank["figures"]["word"]
    assert sorted(word) == sorted(POSRANK_1K_A)
    for part, (value, captions) in POSRANK_1K_A.items():
        assert word[part]["posrank"] == pytest.approx(value, abs=5e-4), part
        assert word[part]["chance"] == pytest.approx(0.1736, abs=1e-4), part
        if captions is not None:
            assert word[part]["captions"] == captions, part
    assert "tie counts against the model" in posrank["ties"]


def test_the_full_test_split_in_one_evaluate(msrvtt_dir, tmp_path):
    matrix, figures = tmp_path / "full-test.npy", tmp_path / "full-test.json"
    run("baseline", "--protocol", "full-test", "--input", msrvtt_dir, "--output", matrix)
    assert np.load(matrix, mmap_mode="r").shape == (59800, 2990)
    run("evaluate", "--protocol", "full-test", "--input", msrvtt_dir, "--scores", matrix, "--proxies", "bow",
        "--json", figures)
    found = json.loads(figures.read_text())
    assert (found["texts"], found["videos"]) == (59800, 2990)
    for direction, expected in (("t2v", FULL_TEST_T2V), ("v2t", FULL_TEST_V2T)):
        for key, value in expected.items():
            assert found["model"][direction][key] == pytest.approx(value, abs=1e-12), (direction, key)
    bow = found["ndcg"]["proxies"]["bow"]
    assert bow["pairs"] == FULL_TEST_BOW_PAIRS
    assert bow["model"]["mean"]["linear"] == pytest.approx(FULL_TEST_BOW[0], abs=5e-5)
    assert bow["random"]["mean"]["linear"] == pytest.approx(FULL_TEST_BOW[1], abs=5e-5)
