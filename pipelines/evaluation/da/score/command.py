"""`capclean da score`: Direct Assessment judgments of a prepared study to trusted workers, caption and system
scores, the win matrix, significance clusters and rank ranges (docs/commands/da-score.md). What it reads is
judgment_files.py, the run run.py, the page page.py; the method transforms/da/judgments.py and scoring.py."""
import time
from dataclasses import dataclass

from pipelines.commands.arguments import at_least
from pipelines.commands.command import Command
from transforms.da.worker_tests import WORKER_TESTS
from transforms.errors import ConfigError


@dataclass(frozen=True)
class DaScoreArgs:
    hits: str
    judgments: list
    replicate: list | None
    output: str
    overwrite: bool
    worker_test: str
    worker_alpha: float
    min_pairs: int
    drop_inconsistent_repeats: bool
    win_alpha: float
    bootstrap: int
    seed: int


class DaScore(Command):
    name = "da score"
    help = "Direct Assessment: judgments to trusted workers (degraded-pair test), z scores, captions' and " \
           "systems' scores with intervals, the win matrix and clusters"
    Args = DaScoreArgs
    example = ("--hits", "{da_hits}", "--judgments", "{da_judgments}", "--output", "{out}", "--bootstrap", "200")

    def add_arguments(self, parser):
        io = parser.add_argument_group("input and output")
        io.add_argument("--hits", required=True, metavar="DIR", help="the prepared study: capclean da prepare's "
                        "output, or any folder holding a hits/ table")
        io.add_argument("--judgments", required=True, nargs="+", metavar="FILE", help="the judgments, one file or "
                        "more (.csv, .parquet, .jsonl): worker, hit_id, slot, score (0-100) and optionally seconds, "
                        "as the rating page saves them; or MTurk's batch results CSV")
        io.add_argument("--replicate", nargs="+", metavar="FILE", help="the judgments of a second, separate run "
                        "of the same HITs: scored alike, then Pearson's r of the two runs' system means")
        io.add_argument("--output", required=True, metavar="DIR", help="folder for da_workers/, da_checks/, "
                        "da_captions/, da_systems/, da_pairs/, stats.json, report.html and manifest.json: a new or "
                        "empty one, or (with --overwrite) an earlier capclean output")
        io.add_argument("--overwrite", action="store_true", help="replace the earlier capclean output at --output")
        workers = parser.add_argument_group("which workers are kept")
        workers.add_argument("--worker-test", default="wilcoxon", choices=WORKER_TESTS,
                             help="the one-sided test of a worker's scores of originals against their degraded "
                             "copies: wilcoxon (signed-rank, paired), t-test (paired, as Graham's scripts) or "
                             "mann-whitney (not paired, as Appraise) (default: %(default)s)")
        workers.add_argument("--worker-alpha", type=float, default=0.05, help="a worker is kept when the test's p "
                             "is below this (default: %(default)s)")
        workers.add_argument("--min-pairs", type=int, default=10, help="the fewest good/degraded pairs a worker "
                             "needs to be tested at all (default: %(default)s)")
        workers.add_argument("--drop-inconsistent-repeats", action="store_true", help="also drop a worker whose "
                             "repeats differ significantly from their originals (two-sided, the same test); by "
                             "default that is only reported")
        systems = parser.add_argument_group("systems")
        systems.add_argument("--win-alpha", type=float, default=0.05, help="a system beats another when the "
                             "one-sided Wilcoxon rank-sum test of their captions' z gives p below this (default: "
                             "%(default)s)")
        systems.add_argument("--bootstrap", type=int, default=1000, help="resamples of the captions for each "
                             "system's 95%% interval (default: %(default)s)")
        systems.add_argument("--seed", type=int, default=0, help="seed of the bootstrap (default: %(default)s)")

    def run(self, args: DaScoreArgs) -> int:
        from pathlib import Path

        from pipelines.evaluation.da.score.judgment_files import check_judgment_file, read_hits, read_judgments
        from pipelines.evaluation.da.score.page import write_da_score_report
        from pipelines.evaluation.da.score.run import (format_figures, score_study, study_figures, write_figures,
                                                       write_tables)
        from pipelines.output.folder import check_target, put_in_place, staging_for, write_marker
        from pipelines.output.manifest import Clock, build_manifest, file_sha256, write_manifest

        clock = Clock()
        settings = scoring_settings(args)
        files = [check_judgment_file(path, "--judgments") for path in args.judgments]
        replicate_files = [check_judgment_file(path, "--replicate") for path in args.replicate or ()]
        inputs = [Path(args.hits), *files, *replicate_files]
        output = Path(args.output)
        check_target(output, inputs, args.overwrite)
        output = output.resolve()
        started = time.monotonic()
        hits = read_hits(args.hits)
        study = score_study(hits, [read_judgments(path) for path in files], settings)
        replicate = score_study(hits, [read_judgments(path) for path in replicate_files], settings) \
            if replicate_files else None
        clock.phase("score")
        sources = {"hits": str(Path(args.hits).resolve()), "slots": len(hits),
                   "judgments": [file_record(path, file_sha256) for path in files],
                   "replicate": [file_record(path, file_sha256) for path in replicate_files]}
        figures = study_figures(study, settings, sources, replicate)
        with staging_for(output) as staging:
            write_tables(staging, study, hits)
            write_figures(staging, figures)
            write_da_score_report(staging)
            clock.phase("write")
            write_marker(staging, {"command": self.name})
            write_manifest(staging, build_manifest(self.name, input_info=sources, stats=figures, clock=clock,
                                                   settings=figures["settings"]))
            put_in_place(staging, output, inputs)
        print(f"capclean da score: done in {time.monotonic() - started:.1f} s; output in {output}")
        print(format_figures(figures))
        print(f"  report: {output / 'report.html'}")
        return 0


def scoring_settings(args: DaScoreArgs):
    from transforms.da.scoring import ScoringSettings

    for flag, value in (("worker-alpha", args.worker_alpha), ("win-alpha", args.win_alpha)):
        if not 0.0 < value <= 1.0:
            raise ConfigError(f"--{flag} must be in (0, 1], not {value}")
    at_least("min-pairs", args.min_pairs, 2)
    at_least("bootstrap", args.bootstrap, 1)
    return ScoringSettings(worker_test=args.worker_test, worker_alpha=args.worker_alpha, min_pairs=args.min_pairs,
                           drop_inconsistent_repeats=args.drop_inconsistent_repeats, win_alpha=args.win_alpha,
                           bootstrap=args.bootstrap, seed=args.seed)


def file_record(path, sha256) -> dict:
    return {"path": str(path.resolve()), "bytes": path.stat().st_size, "sha256": sha256(path)}
