"""`capclean sweep`: remaining captions for each (e, s) of a grid, the paper's Tables 4 and 5.

Steps I and II run once; every video's corrected captions then go through
step III once per grid point, spread over the workers like any other stage,
and a combine adds up the figures per grid point.
"""
import csv
import json
import os
import posixpath

import apache_beam as beam

from pipelines.cleaning.steps import read_and_correct
from transforms.dedup import remove_near_duplicates

# The paper's grid: e in {0, 1, 2} at s = 0.9, and s in {0.75, ..., 1.00} at e = 0.
PAPER_GRID = ((0, 0.9), (1, 0.9), (2, 0.9), (0, 0.75), (0, 0.80), (0, 0.85), (0, 0.95), (0, 1.00))


def parse_grid(text: str) -> tuple:
    """'0:0.9,1:0.9' -> ((0, 0.9), (1, 0.9))."""
    points = []
    for item in text.split(","):
        e, _, s = item.strip().partition(":")
        try:
            points.append((int(e), float(s)))
        except ValueError:
            raise ValueError(f"grid point {item!r} is not E:S (an integer and a number)") from None
    return tuple(points)


def dedup_figures(batch, grid):
    """((e, s), (captions remaining, captions removed, videos touched)) of one video, for every grid point."""
    for e, s in grid:
        remaining = len(remove_near_duplicates(batch, e, s).captions)
        removed = len(batch.captions) - remaining
        yield (e, s), (remaining, removed, 1 if removed else 0)


def add_figures(figures):
    return tuple(map(sum, zip(*figures))) if figures else (0, 0, 0)


def write_sweep_results(rows, output_dir: str) -> list:
    """sweep.csv, sweep.json and sweep.png in `output_dir`; rows sorted as the grid was given."""
    header = ["e", "s", "remaining", "removed", "videos_touched"]
    os.makedirs(output_dir, exist_ok=True)
    with open(posixpath.join(output_dir, "sweep.csv"), "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)
    with open(posixpath.join(output_dir, "sweep.json"), "w") as handle:
        json.dump([dict(zip(header, row)) for row in rows], handle, indent=2)
    plot_sweep(rows, posixpath.join(output_dir, "sweep.png"))
    return rows


def plot_sweep(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    by_e = [(e, remaining) for e, s, remaining, *_ in rows if s == 0.9]
    by_s = [(s, remaining) for e, s, remaining, *_ in rows if e == 0]
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
    for axis, points, label in ((left, sorted(by_e), "edit threshold e (s = 0.9)"),
                                (right, sorted(by_s), "similarity threshold s (e = 0)")):
        if points:
            axis.plot([x for x, _ in points], [y for _, y in points], marker="o")
        axis.set_xlabel(label)
        axis.grid(alpha=0.3)
    left.set_ylabel("captions remaining after step III")
    figure.suptitle("Near-duplicate removal over the parameter grid")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def build_sweep(pipeline, sources, output_dir, config, grid, limit=None):
    batches, _, _ = read_and_correct(pipeline, sources, config, limit=limit)
    order = {point: rank for rank, point in enumerate(grid)}
    return (
        batches
        | "DedupAtEveryPoint" >> beam.FlatMap(dedup_figures, tuple(grid))
        | "AddPerPoint" >> beam.CombinePerKey(add_figures)
        | "AllPoints" >> beam.combiners.ToList()
        | "WriteResults" >> beam.Map(
            lambda points: write_sweep_results(
                [(e, s, *figures) for (e, s), figures in sorted(points, key=lambda p: order[p[0]])], output_dir))
    )
