"""The text-only baseline on the real MSR-VTT annotations, through one `capclean evaluate` each: the 1,000 x 1,000
matrix of 1k-A with every figure (R@K, MdR, MnR both ways, nDCG of the three proxies, each beside its random
baseline), and the 59,800 x 2,990 matrix of the full test split (nDCG by bow only: 64 s and 316 s on the two
shared cores, 2.9 GB peak; docs/commands/evaluate.md gives the cost of all three proxies). The figures are those docs/commands/evaluate.md prints
in "What captions alone know"."""
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


def test_1k_a_every_figure_of_the_baseline_in_one_evaluate(msrvtt_dir, tmp_path):
    jsfusion = msrvtt_dir / "retrieval_splits" / "MSRVTT_JSFUSION_test.csv"
    matrix, figures = tmp_path / "1k-a.npy", tmp_path / "1k-a.json"
    run("baseline", "--protocol", "1k-A", "--videos", jsfusion, "--input", msrvtt_dir, "--output", matrix)
    assert np.load(matrix).shape == (1000, 1000)
    run("evaluate", "--protocol", "1k-A", "--videos", jsfusion, "--input", msrvtt_dir, "--scores", matrix,
        "--orientation", "texts-x-videos", "--json", figures)
    found = json.loads(figures.read_text())
    assert {key: found["model"]["t2v"][key] for key in ("R@1", "R@5", "R@10", "MdR")} == \
        {"R@1": 0.422, "R@5": 0.642, "R@10": 0.745, "MdR": 2.0}
    assert {key: found["model"]["v2t"][key] for key in ("R@1", "R@5", "R@10", "MdR")} == \
        {"R@1": 0.328, "R@5": 0.558, "R@10": 0.674, "MdR": 4.0}
    expected_means = {"bow": (0.7519, 0.2450), "pos": (0.7277, 0.2315), "syn": (0.5317, 0.1136)}  # linear gain
    for proxy, (model, random) in expected_means.items():
        tables = found["ndcg"]["proxies"][proxy]
        assert tables["model"]["mean"]["linear"] == pytest.approx(model, abs=5e-5)
        assert tables["random"]["mean"]["linear"] == pytest.approx(random, abs=5e-5)


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
