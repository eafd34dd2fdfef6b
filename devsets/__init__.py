"""The hand-labelled dev sets of steps II and IV (data/, labelled by data/LABELLING.md's conventions),
their readers and the samplers that drew them: research code, not shipped to workers."""
import csv
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"


def read_tsv(path) -> list:
    """The rows of a dev-set TSV; quotes are plain characters (a caption may hold one)."""
    with open(path, encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))
