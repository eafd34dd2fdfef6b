"""`capclean da score` end to end on a simulated study: its tables, what it prints, its page, --replicate, MTurk
results, and its errors: one line, exit code 2, nothing written."""
import csv
import json

import pyarrow.parquet as pq
import pytest

from pipelines.cli import main
from schemas.evaluation_tables import EVALUATION_TABLES
from transforms.da.crowd import crowd, simulate_judgments

TABLES = ("da_workers", "da_checks", "da_captions", "da_systems", "da_pairs")


def run(capsys, *args):
    code = main(["da", "score", *map(str, args)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def study(tmp_path, simulated_study, write_hits_folder, write_judgments):
    hits, quality = simulated_study
    prepared = write_hits_folder(tmp_path / "prepared", hits)
    runs = [write_judgments(tmp_path / f"run{seed}.csv",
                            simulate_judgments(hits, quality, crowd(10, 2), hits_per_worker=2, seed=seed))
            for seed in (1, 2)]
    return prepared, runs


def test_it_writes_the_tables_the_figures_and_the_page(tmp_path, study, capsys):
    prepared, (first, second) = study
    out = tmp_path / "scored"
    code, printed, err = run(capsys, "--hits", prepared, "--judgments", first, "--replicate", second, "--output", out,
                             "--bootstrap", "100")
    assert code == 0, err
    for name in TABLES:
        assert pq.read_schema(out / name / "part-00000.parquet").remove_metadata().equals(
            EVALUATION_TABLES[name].remove_metadata())
    systems = pq.read_table(out / "da_systems").to_pylist()
    assert [row["system"] for row in systems] == ["reference", "s1", "s2", "s3", "s4", "s5"]
    assert [row["rank"] for row in systems] == [1, 2, 3, 4, 5, 6]
    stats = json.loads((out / "stats.json").read_text())
    assert stats["workers"]["judged"] == 12 and stats["judgments"] == 12 * 2 * 100
    assert stats["replication"]["systems"] == 6 and stats["replication"]["pearson_z"] > 0.95
    assert "2,400 judgments by 12 workers" in printed
    assert "replication over 6 systems: Pearson r" in printed
    assert printed.splitlines()[3].split()[:3] == ["1", "1", "reference"]
    page = (out / "report.html").read_text()
    assert "Win matrix" in page and page.count("<svg class='scatter'") == 12
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["command"] == "da score" and manifest["input"]["judgments"][0]["path"] == str(first)


def test_an_mturk_results_csv_scores_as_the_plain_table_does(tmp_path, study, capsys):
    """The same judgments as MTurk's batch results (one row per assignment, Answer.score_<slot>) give the same
    tables, seconds aside (MTurk times the assignment, not the item)."""
    prepared, (first, _) = study
    with open(first, newline="") as handle:
        rows = list(csv.DictReader(handle))
    assignments = {}
    for row in rows:
        assignments.setdefault((row["worker"], row["hit_id"]), {})[int(row["slot"])] = row["score"]
    mturk = tmp_path / "Batch_1_batch_results.csv"
    with open(mturk, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["HITId", "AssignmentId", "WorkerId", "WorkTimeInSeconds", "Input.hit_id"] +
                        [f"Answer.score_{slot}" for slot in range(1, 101)])
        for number, ((worker, hit_id), scores) in enumerate(sorted(assignments.items())):
            writer.writerow([f"MT{number}", f"A{number}", worker, 600, hit_id] +
                            [scores[slot] for slot in range(1, 101)])
    plain, from_mturk = tmp_path / "plain", tmp_path / "mturk"
    assert run(capsys, "--hits", prepared, "--judgments", first, "--output", plain, "--bootstrap", "50")[0] == 0
    assert run(capsys, "--hits", prepared, "--judgments", mturk, "--output", from_mturk, "--bootstrap", "50")[0] == 0
    for name in ("da_systems", "da_captions", "da_pairs", "da_checks"):
        assert pq.read_table(plain / name).equals(pq.read_table(from_mturk / name)), name
    workers = pq.read_table(from_mturk / "da_workers").to_pylist()
    assert {row["seconds_per_item"] for row in workers} == {6.0}  # 600 s over 100 items


@pytest.mark.parametrize("score, message", [("101", "score '101' is outside 0-100"),
                                            ("nan", "score 'nan' is not a number")])
def test_a_bad_judgment_is_one_line_exit_2_and_nothing_written(tmp_path, study, capsys, score, message):
    prepared, (first, _) = study
    lines = first.read_text().splitlines()
    worker, hit_id, slot, _, seconds = lines[5].split(",")
    lines[5] = ",".join([worker, hit_id, slot, score, seconds])
    bad = tmp_path / "bad.csv"
    bad.write_text("\n".join(lines) + "\n")
    code, _, err = run(capsys, "--hits", prepared, "--judgments", bad, "--output", tmp_path / "out")
    assert code == 2 and err.strip() == f"capclean: error: {bad}: line 6: {message}"
    assert not (tmp_path / "out").exists()


def test_a_csv_line_the_csv_module_cannot_read_is_one_line(tmp_path, study, capsys):
    """A cell over the csv module's size limit (131,072 characters) was a traceback, exit 1."""
    prepared, _ = study
    bad = tmp_path / "huge.csv"
    bad.write_text("worker,hit_id,slot,score,note\nw1,hit-0001,1,50,short\nw1,hit-0001,2,50," + "x" * 200_000 + "\n")
    code, _, err = run(capsys, "--hits", prepared, "--judgments", bad, "--output", tmp_path / "out")
    assert (code, err.strip()) == (2, f"capclean: error: {bad}: line 3 is not a CSV row: field larger than field "
                                      "limit (131072)")
    assert not (tmp_path / "out").exists()


def test_a_system_name_from_the_data_is_escaped_in_the_page(tmp_path, tiny_hit_rows, write_hits_folder,
                                                            write_judgments, capsys):
    rows = [{**row, "system": "<script>x</script>" if row["system"] == "A" else row["system"]} for row in tiny_hit_rows]
    prepared = write_hits_folder(tmp_path / "prepared", rows)
    judgments = write_judgments(tmp_path / "j.csv", [{"worker": "w1", "hit_id": "hit-0001", "slot": slot,
                                                      "score": score, "seconds": 5}
                                                     for slot, score in zip(range(1, 7), (90, 40, 95, 10, 45, 70))])
    code, _, err = run(capsys, "--hits", prepared, "--judgments", judgments, "--output", tmp_path / "out",
                       "--min-pairs", "2")
    assert code == 0, err
    page = (tmp_path / "out" / "report.html").read_text()
    assert "<script>" not in page and "w1" in page and "too few pairs" in page


def test_bad_settings_are_one_line(tmp_path, study, capsys):
    prepared, (first, _) = study
    for flag, value, message in (("--worker-alpha", "0", "--worker-alpha must be in (0, 1], not 0.0"),
                                 ("--min-pairs", "1", "--min-pairs must be at least 2, not 1")):
        code, _, err = run(capsys, "--hits", prepared, "--judgments", first, "--output", tmp_path / "o", flag, value)
        assert code == 2 and message in err and len(err.strip().splitlines()) == 1
