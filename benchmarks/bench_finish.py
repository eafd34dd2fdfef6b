"""`make bench-scale`, the launcher's finishing phase: what `capclean clean` does after its pipeline (the
tables read back and validated, the Data Docs, the report, the manifest) at N times MSR-VTT, its peak memory
beside the floor of reading its largest table alone.

A 10x clean takes half an hour; this phase alone takes a minute. So its input is made, not cleaned: the
tables of a finished 1x output (`--output-of`, a `capclean clean` of MSR-VTT) copied N times with distinct
ids, as benchmarks/make_scaled_corpus.py numbers them (copy k of video number i is video number i * N + k,
copy k of sen_id s is s * N + k), in a scratch folder, never the repository. stats.json's counts are
multiplied by N, so the copies pass the validation as the original does.

Each measurement runs in its own process (benchmarks/measure.py's run_measured), so that neither inherits
the other's memory:

  finish  validate_written and write_report_and_exports of pipelines/cleaning/run.py on the copy
  floor   the copy's captions table (its largest) read into pandas as the validation reads a table

and the ratio finish / floor is printed; at 10x it is what the FnApiRunner's driver adds to the run's peak.

    python benchmarks/bench_finish.py --output-of out/full --factor 10
    python benchmarks/bench_finish.py --input ../shared/data/msrvtt --factor 10   # cleans MSR-VTT first
"""
import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.make_scaled_corpus import scaled_ranges  # noqa: E402
from benchmarks.measure import run_measured  # noqa: E402
from schemas.tables import TABLES  # noqa: E402

# The columns that hold a sen_id (a list of them: new_sen_ids) and a video id.
SEN_ID_COLUMNS = ("sen_id", "kept_sen_id", "opener_sen_id", "compared_sen_id")
SEN_ID_LISTS = ("new_sen_ids",)
# stats.json's sections whose whole-number figures are counts that grow with the copies.
COUNTED_SECTIONS = ("input", "output", "steps")


def copied_ids(table: pa.Table, factor: int, copy: int) -> pa.Table:
    """`table` with its sen_ids and video ids as copy `copy` of `factor` has them."""
    for name in table.column_names:
        column = table[name]
        if name in SEN_ID_COLUMNS:
            column = pc.add(pc.multiply(column, factor), copy)
        elif name in SEN_ID_LISTS:
            whole = column.combine_chunks()
            column = pa.ListArray.from_arrays(whole.offsets, pc.add(pc.multiply(whole.flatten(), factor), copy))
        elif name == "video_id":
            number = pc.cast(pc.utf8_slice_codeunits(column, 5), pa.int64())
            column = pc.binary_join_element_wise("video", pc.cast(pc.add(pc.multiply(number, factor), copy),
                                                                  pa.string()), "")
        else:
            continue
        table = table.set_column(table.column_names.index(name), name, column.cast(table.schema.field(name).type))
    return table


def scaled_counts(value, factor: int):
    """stats.json's figures with every whole number multiplied by `factor` (flags and fractions left)."""
    if isinstance(value, dict):
        return {key: scaled_counts(item, factor) for key, item in value.items()}
    if isinstance(value, list):
        return [scaled_counts(item, factor) for item in value]
    if isinstance(value, int) and not isinstance(value, bool):
        return value * factor
    return value


def write_copies(source: Path, target: Path, factor: int) -> dict:
    """The tables of the output `source` copied `factor` times into `target`, sorted by sen_id and in as many
    files as the source's; returns the rows written by table."""
    rows = {}
    for name in TABLES:
        files = sorted((source / name).glob("*.parquet"))
        table = pq.read_table(source / name)
        metadata = table.schema.metadata
        table = pa.concat_tables([copied_ids(table, factor, copy) for copy in range(factor)]).sort_by("sen_id")
        (target / name).mkdir(parents=True)
        per_file = -(-table.num_rows // max(1, len(files)))
        for index, _ in enumerate(files):
            part = table.slice(index * per_file, per_file).replace_schema_metadata(metadata)
            pq.write_table(part, target / name / f"part-{index:019d}.parquet")
        rows[name] = table.num_rows
    stats = json.loads((source / "stats.json").read_text())
    stats.update({section: scaled_counts(stats[section], factor) for section in COUNTED_SECTIONS
                  if section in stats})
    (target / "stats.json").write_text(json.dumps(stats, indent=2))
    (target / "validation").mkdir()
    shutil.copy(source / "validation" / "result.json", target / "validation" / "result.json")
    shutil.copy(source / "manifest.json", target / "manifest.json")
    return rows


def finish(folder: str, profile: str, factor: int) -> None:
    """What run_clean does after its pipeline, on `folder` (its staging folder), printed as one JSON line."""
    from pipelines.cleaning.run import write_report_and_exports
    from pipelines.cleaning.steps import STEP_NAMES
    from pipelines.cleaning.verdict import validate_written
    from pipelines.config import load_config, override

    config = load_config(profile)
    config = override(config, "validation",
                      split_video_ranges=scaled_ranges(config.validation.split_video_ranges, factor))
    staging = Path(folder)
    result, tables = validate_written(staging, config, STEP_NAMES)
    if not result["success"]:
        raise SystemExit("the copies failed validation: " + "; ".join(result["failures"][:3]))
    write_report_and_exports(staging, staging, "input", (), None, tables)
    print(json.dumps({"expectations": len(result["expectations"])}))


def floor(folder: str) -> None:
    """The floor: the largest table (captions) read into pandas, as the validation reads a table."""
    from schemas.validation.validate import read_table_folder

    frame = read_table_folder(Path(folder) / "captions", TABLES["captions"])
    print(json.dumps({"rows": len(frame)}))


def clean(input_path: str, output: Path, profile: str) -> Path:
    """The 1x output the copies are made of: `capclean clean` of `input_path` on two worker processes."""
    command = [sys.executable, "-m", "pipelines.cli", "clean", "--input", input_path, "--output", str(output),
               "--profile", profile, "--direct_num_workers=2", "--direct_running_mode=multi_processing"]
    done = subprocess.run(command, cwd=str(REPO), capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"bench_finish: the clean of {input_path} failed:\n{done.stdout}{done.stderr}")
    return output


def measured(step: str, folder: Path, profile: str, factor: int) -> dict:
    result = run_measured([sys.executable, __file__, "--step", step, "--folder", str(folder),
                           "--profile", profile, "--factor", str(factor)], cwd=str(REPO))
    if result["returncode"] != 0:
        raise SystemExit(f"bench_finish {step} failed:\n{result['output']}")
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--output-of", help="a finished `capclean clean` output of MSR-VTT, the tables copied")
    parser.add_argument("--input", help="without --output-of: MSR-VTT's annotations, cleaned first (not measured)")
    parser.add_argument("--factor", type=int, default=10, help="copies of its tables (default 10)")
    parser.add_argument("--profile", default="default", help="the profile it was cleaned with (default default)")
    parser.add_argument("--scratch", default=None, help="folder for the copies (default: a temporary one)")
    parser.add_argument("--step", choices=("finish", "floor"), help=argparse.SUPPRESS)
    parser.add_argument("--folder", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.step == "finish":
        return finish(args.folder, args.profile, args.factor)
    if args.step == "floor":
        return floor(args.folder)
    if not (args.output_of or args.input):
        parser.error("--output-of or --input is required")
    with tempfile.TemporaryDirectory(prefix="capclean-finish-", dir=args.scratch) as scratch:
        source = Path(args.output_of) if args.output_of else clean(args.input, Path(scratch) / "clean", args.profile)
        folder = Path(scratch) / "copies"
        rows = write_copies(source, folder, args.factor)
        floor_run = measured("floor", folder, args.profile, args.factor)
        finish_run = measured("finish", folder, args.profile, args.factor)
    print(f"capclean bench-finish ({args.factor} copies of {args.output_of or 'a clean of ' + args.input}: "
          f"{rows['captions']:,} captions, {sum(rows.values()):,} rows in all)")
    print(f"  {'':<8} {'wall s':>8} {'CPU s':>8} {'peak MiB':>9}")
    for name, run in (("floor", floor_run), ("finish", finish_run)):
        print(f"  {name:<8} {run['seconds']:>8.1f} {run['cpu_seconds']:>8.1f} {run['peak_mib']:>9.0f}")
    print(f"  finishing phase's peak / reading the captions table alone: "
          f"{finish_run['peak_mib'] / floor_run['peak_mib']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
