"""Fixtures of the integration tests: one default clean of the real MSR-VTT, shared by every test module that
reads a default run (a clean takes minutes; each module cleaning its own copy made `make test` minutes longer);
the 1k-A split's JSFusion CSV and a FIRE-format label file keyed by its sentences (FIRE's test and the baseline's)."""
import csv
from dataclasses import dataclass
from pathlib import Path

import pytest

from pipelines.cli import main


@pytest.fixture(scope="session")
def default_run(msrvtt_dir, tmp_path_factory, multi_process):
    """The default clean of MSR-VTT, with the MSR-VTT-format export (which test_idempotence cleans again).
    Tests read it and never write into it."""
    output = tmp_path_factory.mktemp("default-run") / "msrvtt"
    assert main(["clean", "--input", str(msrvtt_dir), "--output", str(output), "--profile", "default",
                 "--export", "msrvtt-json"] + multi_process) == 0
    return output


@pytest.fixture(scope="session")
def jsfusion(msrvtt_dir):
    return msrvtt_dir / "retrieval_splits" / "MSRVTT_JSFUSION_test.csv"


@dataclass(frozen=True)
class FireLabels:
    folder: Path  # holds overlap/, the run that gave the candidates
    path: Path  # labels.csv: query, video, label, source
    count: int  # labels in it
    candidate_pairs: int  # of them, overlap's labelling sheet's


@pytest.fixture(scope="session")
def jsfusion_fire_labels(msrvtt_dir, jsfusion, tmp_path_factory) -> FireLabels:
    """A FIRE-format label file keyed by the JSFusion sentences, as FIRE keys its own (10 s): `capclean overlap
    --protocol 1k-A`'s candidates labelled by a rule (the same words: relevant), and one label for every sentence
    (the next row's video, not relevant), so that the 35 sentences that differ from their raw caption are in it."""
    folder = tmp_path_factory.mktemp("fire-labels-1k-a")
    train = folder / "train.csv"
    train.write_text("video_id\nvideo0\nvideo1\n")  # the overlap half is not what the labels are about
    assert main(["overlap", "--input", str(msrvtt_dir), "--protocol", "1k-A", "--videos", str(jsfusion),
                 "--train", f"list:{train}", "--output", str(folder / "overlap")]) == 0
    with open(folder / "overlap" / "labelling_sheet.csv", newline="", encoding="utf-8") as handle:
        sheet = list(csv.DictReader(handle))
    with open(jsfusion, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    labels = [(row["query"], row["video"], int(float(row["similarity"]) >= 0.9), "overlap") for row in sheet]
    labels += [(row["sentence"], rows[(number + 1) % len(rows)]["video_id"], 0, "rule")
               for number, row in enumerate(rows)]
    with open(folder / "labels.csv", "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([["query", "video", "label", "source"], *labels])
    return FireLabels(folder, folder / "labels.csv", len(labels), len(sheet))
