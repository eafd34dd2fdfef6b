"""Fixtures of the Direct Assessment tests: HITs tables worked by hand or simulated, written as `capclean da
prepare` writes hits/ (schemas' DA_HITS); judgments files in each shape `capclean da score` reads; simulated
studies.

The tiny HIT (hit-0001), worked by hand in the tests:
    slot 1  system     A          A/v1            "a man sings a song"
    slot 2  system     B          B/v2            "a dog runs in a park"
    slot 3  reference  reference  reference/v3    "a cat sleeps on a sofa"
    slot 4  degraded   A          A/v1#degraded   "a man zebra purple song"   copies slot 1
    slot 5  repeat     B          B/v2            "a dog runs in a park"      copies slot 2
    slot 6  system     A          A/v4            "a woman cooks pasta"
"""
import csv
import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from schemas.evaluation_tables import DA_HITS
from transforms.da.judgments import HITS_COLUMNS, hits_from_columns

TINY_HIT = [
    ("hit-0001", 1, "system", "A", "v1", None, "a man sings a song", "A/v1", None),
    ("hit-0001", 2, "system", "B", "v2", None, "a dog runs in a park", "B/v2", None),
    ("hit-0001", 3, "reference", "reference", "v3", 30, "a cat sleeps on a sofa", "reference/v3", None),
    ("hit-0001", 4, "degraded", "A", "v1", None, "a man zebra purple song", "A/v1#degraded", 1),
    ("hit-0001", 5, "repeat", "B", "v2", None, "a dog runs in a park", "B/v2", 2),
    ("hit-0001", 6, "system", "A", "v4", None, "a woman cooks pasta", "A/v4", None),
]


def rows_of(tuples) -> list:
    return [dict(zip(HITS_COLUMNS, values)) for values in tuples]


def columns_of(rows: list) -> dict:
    return {name: [row[name] for row in rows] for name in HITS_COLUMNS}


@pytest.fixture
def tiny_hit_rows():
    return rows_of(TINY_HIT)


@pytest.fixture
def tiny_hits(tiny_hit_rows):
    """The tiny HIT as transforms.da.judgments.Hits."""
    return hits_from_columns(columns_of(tiny_hit_rows), "tiny/hits")


@pytest.fixture
def hits_of():
    """rows -> Hits."""
    return lambda rows: hits_from_columns(columns_of(rows), "hits")


def _write_hits_folder(folder, rows):
    (folder / "hits").mkdir(parents=True, exist_ok=True)
    table = pa.Table.from_pylist([{name: row[name] for name in HITS_COLUMNS} for row in rows], schema=DA_HITS)
    pq.write_table(table, folder / "hits" / "part-00000.parquet")
    return folder


@pytest.fixture
def write_hits_folder():
    """(folder, rows) -> folder holding hits/ as capclean da prepare writes it."""
    return _write_hits_folder


def _write_judgments(path, rows: list, columns=("worker", "hit_id", "slot", "score", "seconds")):
    """Judgment row dicts to `path`, by its extension: .csv, .parquet or .jsonl."""
    if path.suffix == ".parquet":
        pq.write_table(pa.Table.from_pylist(rows), path)
    elif path.suffix == ".jsonl":
        path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    else:
        with open(path, "w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, list(columns), extrasaction="ignore")
            writer.writeheader()
            writer.writerows(rows)
    return path


@pytest.fixture
def write_judgments():
    """(path, [row dict], columns=...) -> path: judgments as CSV, Parquet or JSON lines (by the extension)."""
    return _write_judgments


SIMULATED_SYSTEMS = ("s1", "s2", "s3", "s4", "s5")
# The simulated truth: each system's quality on the 0-100 scale, the reference the best.
SIMULATED_QUALITY = {"s1": 75.0, "s2": 65.0, "s3": 55.0, "s4": 45.0, "s5": 35.0, "reference": 85.0}


@pytest.fixture(scope="session")
def simulated_study():
    """(hits rows, quality): 30 HITs of the default recipe's shape over five systems of known quality."""
    from transforms.da.crowd import study_hits

    return study_hits(SIMULATED_SYSTEMS, 30, seed=1), SIMULATED_QUALITY


# A prepared study, as `capclean da prepare` writes it, for the round trips through the real files (the rating
# page, MTurk's batch and results, `capclean da score`): two models' captions of 12 test videos, one of them the
# hostile caption, in 3 HITs of 20 slots (4 blocks of 5: 2 system items, a degraded copy, a repeat and a
# reference), so 4 good/degraded pairs a HIT and 12 for a worker who rates all three.
HOSTILE = 'a man says <script>window.pwned = 1</script> "hi" & \'bye\', then\nleaves ${hit_data} ${x}'
SMALL_RECIPE = ("--items-per-hit", "20", "--blocks-per-hit", "4", "--degraded-per-hit", "4", "--repeats-per-hit", "4",
                "--references-per-hit", "4")
SMALL_SYSTEMS = ("model-a", "model-b")
PEOPLE = ("a man", "a woman", "two children", "a chef", "a dog", "a singer")
ACTIONS = ("is cooking pasta", "plays a red guitar", "runs across a field", "talks to the camera",
           "dances on a stage", "reads a long book")
PLACES = ("in a small kitchen", "at night outside", "near the old river", "with some friends")


def small_human_captions(videos: int) -> list:
    """Three human captions of each of `videos` test videos (video7010 ...), 8 to 10 words, all different."""
    return [{"sen_id": 3 * n + k, "video_id": f"video{7010 + n}",
             "caption": f"{PEOPLE[(n + k) % 6]} {ACTIONS[(n * 5 + k) % 6]} {PLACES[(n + 2 * k) % 4]} {n}"}
            for n in range(videos) for k in range(3)]


@pytest.fixture(scope="session")
def hostile_caption():
    return HOSTILE


def _prepare_study(folder, write_annotations, systems: tuple, videos: int, *flags, hostile: bool = False):
    """`capclean da prepare --systems` of `systems`' captions of `videos` test videos (video7010 ...), beside
    three human captions of each (the references and the donors); the first caption is HOSTILE if `hostile`.
    Returns the prepared folder."""
    from pipelines.cli import main

    human = write_annotations(folder / "raw", [{"video_id": f"video{7010 + n}", "split": "test", "category": 1}
                                               for n in range(videos)], small_human_captions(videos))
    rows = [(f"video{7010 + n}", system, f"{system} shows {PEOPLE[(n + at) % 6]} who {ACTIONS[(n + 2 * at) % 6]} {n}")
            for n in range(videos) for at, system in enumerate(systems)]
    if hostile:
        rows[0] = (rows[0][0], rows[0][1], HOSTILE)
    with open(folder / "systems.csv", "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([("video_id", "system", "caption"), *rows])
    prepared = folder / "prepared"
    assert main(["da", "prepare", "--input", str(human), "--systems", str(folder / "systems.csv"),
                 "--output", str(prepared), *flags]) == 0
    return prepared


@pytest.fixture(scope="session")
def prepare_study(write_annotations):
    """(folder, systems, videos, *flags, hostile=False) -> the folder `capclean da prepare` wrote."""
    return lambda folder, systems, videos, *flags, hostile=False: _prepare_study(
        folder, write_annotations, systems, videos, *flags, hostile=hostile)


@pytest.fixture(scope="session")
def small_study(tmp_path_factory, prepare_study):
    """The folder `capclean da prepare` wrote for the small study (hits/, rating.html, mturk/, ...)."""
    return prepare_study(tmp_path_factory.mktemp("da-small-study"), SMALL_SYSTEMS, 12, *SMALL_RECIPE, "--seed", "3",
                         hostile=True)


@pytest.fixture(scope="session")
def small_study_hits(small_study):
    """The small study's hits/ as row dicts."""
    return pq.read_table(small_study / "hits").to_pylist()
