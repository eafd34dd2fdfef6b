"""The spelling dev set (step II): tokens plain Hunspell rejects, in their train-split captions,
labelled `keep` or `fix` (with the intended form). benchmarks/spelling_devset.py scores the
profiles on it; devsets/sample_spelling.py drew its samples."""
from devsets import DATA, read_tsv

DEVSET = DATA / "spelling_dev.tsv"
# The sixteenth sample labelled again, blind, by another person under the same conventions.
SECOND_LABELLER = DATA / "spelling_dev_second_labeller.tsv"


def load_devset(path=DEVSET) -> list:
    """The labelled rows (a row with no label is a token still to be labelled)."""
    return [row for row in read_tsv(path) if row["label"]]
