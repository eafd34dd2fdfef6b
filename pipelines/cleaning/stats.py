"""The run's figures (stats.json), computed from the lineage each video carries.

Every video contributes a flat dict of counts, which a combine adds to its running total
as it reads the video. Nothing here uses Beam metrics, which some runners do not report.
"""
from collections import Counter

import apache_beam as beam

from transforms.batch import tokens_changed
from transforms.recheck import respelled_ids

# The steps that judge captions against each other: they may drop a caption but
# never a video's last one (the others judge each caption alone).
COMPARING_STEPS = ("dedup", "runon")


def video_counts(batch, step_names: tuple, recheck_rounds: int = 0) -> Counter:
    """What one video contributes to the figures, as 'path/to/figure' -> count; `step_names` in pipeline order."""
    counts = Counter()
    usable = batch.input_records - sum(1 for row in batch.removed if row.step == "read")
    counts["input/captions"] += batch.input_records
    if batch.split is not None:
        counts["input/videos"] += 1
        counts[f"input/captions_by_split/{batch.split}"] += usable
        if usable:
            counts["input/videos_with_captions"] += 1
            counts[f"input/videos_by_split/{batch.split}"] += 1
    if batch.captions or any(row.step in COMPARING_STEPS for row in batch.removed):
        counts["steps/screen/videos_passed"] += 1  # videos that must keep a caption
    for step in step_names:
        _count_step(counts, batch, step)
    for row in batch.corrections:
        counts[f"steps/spelling/tokens_changed_by_rule/{row.rule}"] += 1
    counts["steps/spelling/tokens_flagged"] += len(batch.flagged)
    for round_number in range(1, recheck_rounds + 1):
        counts[f"steps/spelling/recheck_captions_changed/round_{round_number}"] += len(
            respelled_ids(batch, round_number))
    for row in batch.runon:
        counts[f"steps/runon/captions_split_by_split/{batch.split}"] += 1
        counts[f"steps/runon/sentences_by_split/{batch.split}"] += len(row.sentences)
        counts[f"steps/runon/captions_added_by_split/{batch.split}"] += len(row.new_sen_ids)
    counts["steps/runon/captions_split"] += len(batch.runon)
    # Counted even when 0, so that stats.json has the output's figures when no caption is left.
    counts["output/captions"] += len(batch.captions)
    counts["output/videos"] += 1 if batch.captions else 0
    if batch.captions:
        counts[f"output/captions_by_split/{batch.split}"] += len(batch.captions)
        counts[f"output/videos_by_split/{batch.split}"] += 1
    return counts


def _count_step(counts, batch, step):
    edits = [row for row in batch.edits if row.step == step]
    removed = [row for row in batch.removed if row.step == step]
    prefix = f"steps/{step}"
    counts[f"{prefix}/captions_changed"] += len({row.sen_id for row in edits})
    counts[f"{prefix}/captions_removed"] += len(removed)
    counts[f"{prefix}/videos_touched"] += 1 if edits or removed else 0
    if step == "spelling":
        counts[f"{prefix}/tokens_changed"] += len(batch.corrections)
    else:
        counts[f"{prefix}/tokens_changed"] += sum(tokens_changed(row.before, row.after) for row in edits)
    counts[f"{prefix}/tokens_removed"] += sum(len((row.caption or "").split()) for row in removed)


def add_counts(all_counts) -> Counter:
    total = Counter()
    for counts in all_counts:
        total.update(counts)
    return total


def nest(counts: dict) -> dict:
    """{'a/b': 1} -> {'a': {'b': 1}}, keys sorted, so stats.json reads (and diffs) well."""
    nested = {}
    for path in sorted(counts):
        node = nested
        *parents, leaf = path.split("/")
        for key in parents:
            node = node.setdefault(key, {})
        node[leaf] = counts[path]
    return nested


class AddVideoCounts(beam.CombineFn):
    """VideoBatch -> the Counter of every video's video_counts, added up.

    Each video's counts go into the total as the video is read. As a Map before the combine, they were a
    Counter per video between two tasks on the DaskRunner, which runs a combine's fold as a task of its own:
    140 MiB in each worker at 10x MSR-VTT, the largest stage of its run (docs/benchmarks.md)."""

    def __init__(self, step_names: tuple, recheck_rounds: int = 0):
        super().__init__()
        self._step_names = tuple(step_names)
        self._recheck_rounds = recheck_rounds

    def create_accumulator(self):
        return Counter()

    def add_input(self, total, batch):
        total.update(video_counts(batch, self._step_names, self._recheck_rounds))
        return total

    def merge_accumulators(self, totals):
        return add_counts(totals)

    def extract_output(self, total):
        return total


class CountFigures(beam.PTransform):
    """VideoBatch -> one Counter with the whole run's figures."""

    def __init__(self, step_names: tuple, recheck_rounds: int = 0):
        super().__init__()
        self._add_video_counts = AddVideoCounts(step_names, recheck_rounds)

    def expand(self, batches):
        return batches | "AddCounts" >> beam.CombineGlobally(self._add_video_counts)
