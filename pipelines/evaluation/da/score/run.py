"""The run of `capclean da score`: judgments checked against the HITs, scored (transforms/da/scoring.py), and
written as da_workers/, da_checks/, da_captions/, da_systems/, da_pairs/ and stats.json; and the system table
it prints."""
from dataclasses import asdict, dataclass
from pathlib import Path

from pipelines.evaluation.evaluation_io import write_parquet_table, write_stats
from schemas.evaluation_tables import DA_CAPTIONS, DA_CHECKS, DA_PAIRS, DA_SYSTEMS, DA_WORKERS
from transforms.da.judgments import Hits, check_judgments
from transforms.da.scoring import (CONSTANT, INCONSISTENT, KEPT, NOT_SIGNIFICANT, TOO_FEW_PAIRS, ScoringSettings,
                                   caption_scores, check_pairs, clusters, pairwise_wins, rank_ranges, replication,
                                   system_scores, worker_quality, z_scores)


@dataclass(frozen=True)
class Study:
    """One scored set of judgments."""
    judgments: int
    qualities: list  # WorkerQuality, by worker
    pairs: object  # CheckPairs
    captions: list  # CaptionScore
    systems: list  # SystemScore, best first
    comparisons: list  # SystemPair, in rank order
    cluster: dict  # system -> cluster
    ranks: dict  # system -> (best, worst)


def score_study(hits: Hits, raw_files: list, settings: ScoringSettings) -> Study:
    judgments = check_judgments(raw_files, hits)
    pairs = check_pairs(judgments, hits)
    qualities = worker_quality(judgments, hits, pairs, settings)
    captions = caption_scores(judgments, hits, z_scores(judgments, qualities))
    systems = system_scores(captions, settings)
    ranked = [score.system for score in systems]
    comparisons = pairwise_wins(captions, ranked, settings.win_alpha)
    wins = {(pair.system, pair.other) for pair in comparisons if pair.wins}
    return Study(len(judgments), qualities, pairs, captions, systems, comparisons, clusters(ranked, wins),
                 rank_ranges(ranked, wins))


def write_tables(output_dir: Path, study: Study, hits: Hits) -> None:
    pairs = study.pairs
    write_parquet_table(output_dir / "da_workers", DA_WORKERS, [{**asdict(quality), "kept": quality.kept}
                                                                for quality in study.qualities])
    write_parquet_table(output_dir / "da_checks", DA_CHECKS, [
        {"worker": pairs.worker[at], "hit_id": hits.hit_id[pairs.copy_row[at]], "kind": pairs.kind[at],
         "item_id": hits.item_id[pairs.copy_row[at]], "original_slot": hits.slot[pairs.original_row[at]],
         "slot": hits.slot[pairs.copy_row[at]], "original_score": pairs.original_score[at],
         "check_score": pairs.copy_score[at]} for at in range(len(pairs.worker))])
    write_parquet_table(output_dir / "da_captions", DA_CAPTIONS, [asdict(caption) for caption in study.captions])
    write_parquet_table(output_dir / "da_systems", DA_SYSTEMS, system_rows(study))
    write_parquet_table(output_dir / "da_pairs", DA_PAIRS, [asdict(pair) for pair in study.comparisons])


def system_rows(study: Study) -> list:
    return [{"rank": rank, **asdict(score), "cluster": study.cluster[score.system],
             "best_rank": study.ranks[score.system][0], "worst_rank": study.ranks[score.system][1]}
            for rank, score in enumerate(study.systems, 1)]


def study_figures(study: Study, settings: ScoringSettings, sources: dict, replicate: Study | None) -> dict:
    """What stats.json holds (and the manifest, and the page): the settings, the workers, the systems."""
    statuses = [quality.status for quality in study.qualities]
    figures = {
        "settings": {**asdict(settings), "z_over": "system, reference and repeat items of the worker",
                     "system_score": "mean of its captions' means (system and reference slots only)",
                     "interval": "bootstrap percentile 95%, captions resampled",
                     "wins": "one-sided Wilcoxon rank-sum (Mann-Whitney U) of the captions' z",
                     "clusters": "a new cluster starts when every system ranked above beats it"},
        "inputs": sources,
        "judgments": study.judgments,
        "workers": {"judged": len(statuses), **{status: statuses.count(status) for status in
                                               (KEPT, TOO_FEW_PAIRS, CONSTANT, NOT_SIGNIFICANT, INCONSISTENT)}},
        "systems": system_rows(study),
    }
    if replicate is not None:
        figures["replication"] = {
            **replication(study.systems, replicate.systems), "judgments": replicate.judgments,
            "workers_kept": sum(quality.kept for quality in replicate.qualities),
            "systems_replicate": [{"system": score.system, "raw_mean": score.raw_mean, "z_mean": score.z_mean}
                                  for score in replicate.systems]}
    return figures


def write_figures(output_dir: Path, figures: dict) -> None:
    write_stats(output_dir, figures)


def format_figures(figures: dict) -> str:
    """The printed summary: the workers kept and why not, and the system table, best first."""
    workers = figures["workers"]
    settings = figures["settings"]
    lines = [f"  {figures['judgments']:,} judgments by {workers['judged']:,} workers; kept {workers[KEPT]:,} "
             f"({settings['worker_test']}, p < {settings['worker_alpha']}, at least {settings['min_pairs']} pairs); "
             f"not kept: {workers[TOO_FEW_PAIRS]} too few pairs, {workers[NOT_SIGNIFICANT]} not significant, "
             f"{workers[CONSTANT]} constant, {workers[INCONSISTENT]} inconsistent repeats",
             f"  {'rank':>4} {'cluster':>7}  {'system':<20} {'captions':>8} {'n':>7} {'raw':>6} {'z':>7}  "
             f"{'z 95% interval':<17} {'ranks':>6}"]
    for row in figures["systems"]:
        ranks = f"{row['best_rank']}-{row['worst_rank']}" if row["best_rank"] != row["worst_rank"] else \
            str(row["best_rank"])
        lines.append(f"  {row['rank']:>4} {row['cluster']:>7}  {row['system'][:20]:<20} {row['captions']:>8,} "
                     f"{row['n']:>7,} {row['raw_mean']:>6.1f} {row['z_mean']:>7.3f}  "
                     f"[{row['z_low']:>6.3f}, {row['z_high']:>6.3f}] {ranks:>6}")
    if not figures["systems"]:
        lines.append("  no system scored: no worker was kept")
    if "replication" in figures:
        replicated = figures["replication"]
        if replicated["pearson_raw"] is None:
            lines.append(f"  replication: {replicated['systems']} systems in both runs; Pearson r needs three")
        else:
            lines.append(f"  replication over {replicated['systems']} systems: Pearson r "
                         f"{replicated['pearson_raw']:.3f} (raw), {replicated['pearson_z']:.3f} (z)")
    return "\n".join(lines)
