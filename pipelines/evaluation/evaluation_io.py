"""What the evaluation commands that write an output folder (hardneg, overlap, relevance) share: the
folder claimed before any work, the record of their input, stats.json, and the marker, manifest and swap
into place at the end. Their --input, --output and --overwrite flags are pipelines/commands/arguments.py's.
And what those that write files (ndcg, evaluate) share: their --json and --report files, checked before
any work and written at the end."""
import json
import logging
from pathlib import Path

from pipelines.output.json_files import write_json
from transforms.read import find_annotation_files

log = logging.getLogger("capclean")


def read_source_run(input_path):
    """What an evaluation command records of its input: a capclean output's manifest (warning when the run
    is partial), or the annotation files. Returns (input record, source run record or None)."""
    from pipelines.output.manifest import input_record, source_run_record

    if (Path(input_path) / "captions").is_dir():
        source_run = source_run_record(input_path)
        if source_run and source_run.get("partial"):
            log.warning("warning: %s is a partial run (--limit %s): its figures are of those videos only",
                        input_path, source_run.get("limit"))
        return {"path": str(Path(input_path).resolve()), "kind": "capclean output"}, source_run
    return {**input_record(input_path, find_annotation_files(input_path)), "kind": "annotations"}, None


def read_output_stats(folder: Path, command: str, entries: tuple, error: type) -> dict:
    """stats.json of a `capclean COMMAND` output, once the folder is known to hold `entries` too (what its
    page reads); otherwise `error`, one line naming the folder."""
    missing = [name for name in ("stats.json", *entries) if not (folder / name).exists()]
    if missing:
        raise error(f"{folder} has no {', '.join(missing)}: it is not the output of capclean {command}")
    return json.loads((folder / "stats.json").read_text(encoding="utf-8"))


def write_parquet_table(folder: Path, schema, rows: list) -> None:
    """One table of an evaluation output: `rows` (dicts with the schema's columns) as folder/part-00000.parquet,
    with the schema schemas/ declares for it, so two runs give the same bytes."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    columns = {name: [row[name] for row in rows] for name in schema.names}
    folder.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pydict(columns, schema=schema), folder / "part-00000.parquet", compression="zstd")


def write_stats(output_dir, figures: dict) -> None:
    """stats.json of an evaluation command: its figures, keys sorted, so two runs give the same bytes."""
    write_json(Path(output_dir) / "stats.json", figures)


def claim_output(input_path, output: str, overwrite: bool) -> tuple:
    """Before any work: --output must be new or empty, or (with --overwrite) an earlier capclean output;
    and the input is recorded. Returns (the output's absolute path, what read_source_run returns)."""
    from pipelines.output.folder import check_target

    target = Path(output)
    check_target(target, [input_path], overwrite)
    return target.resolve(), read_source_run(input_path)


def seal_output(staging: Path, output: Path, command: str, input_path, input_and_run: tuple, figures: dict, clock,
                settings=None, **manifest_fields) -> None:
    """The last steps of every evaluation command, in its staging folder: capclean's marker (so that
    --overwrite may replace it later), the manifest (`settings`: the figures' own when not given),
    and the swap into `output`. `input_and_run` is what read_source_run returned."""
    from pipelines.output.manifest import build_manifest, write_manifest
    from pipelines.output.folder import put_in_place, write_marker

    input_info, source_run = input_and_run
    write_marker(staging, {"command": command})
    write_manifest(staging, build_manifest(command, input_info=input_info, source_run=source_run, stats=figures,
                                           clock=clock, settings=figures["settings"] if settings is None else settings,
                                           **manifest_fields))
    put_in_place(staging, output, [input_path])


# ---------------------------------------------------------------- --json and --report

def check_figure_files(json: str | None, report: str | None, written_by: str, error: type, page_name: str) -> tuple:
    """(the --json path, the --report path), each None when not given: a new file, or one capclean wrote (the
    JSON file with `written_by`); checked before any work, so a refused one costs nothing."""
    from pipelines.output.json_files import check_json_target
    from pipelines.output.page_files import check_page_target

    return (check_json_target(json, written_by, error) if json else None,
            check_page_target(report, "--report", error, page_name) if report else None)


def write_figure_files(figures: dict, json_path, report_path, write_report) -> None:
    """The figures to the --json file and, by `write_report(figures, path)`, to the --report page; each
    path printed."""
    if json_path:
        write_json(json_path, figures, sort_keys=False)
        print(f"capclean: figures written to {json_path}")
    if report_path is not None:
        print(f"capclean: report written to {write_report(figures, report_path)}")
