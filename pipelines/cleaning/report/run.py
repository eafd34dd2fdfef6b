"""A run as the report reads it: its output folder's tables, stats.json, manifest and validation result,
and the input captions rebuilt from its lineage."""
import json
import pathlib
from dataclasses import dataclass, field

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipelines.cleaning.steps import STEP_NAMES
from pipelines.output.manifest import read_manifest
from schemas.tables import TABLES


@dataclass
class Run:
    folder: pathlib.Path
    stats: dict
    captions: pd.DataFrame
    removed: pd.DataFrame
    edits: pd.DataFrame
    corrections: pd.DataFrame
    validation: dict | None  # validation/result.json, when the run has one
    label: str = ""  # what the page calls this run: its profile, unless both runs share one
    shown_as: pathlib.Path | None = None  # the folder the page names, if not `folder`
    manifest: dict | None = None  # manifest.json, when the run has one (pipelines/output/manifest.py)
    flagged: pd.DataFrame = field(default_factory=lambda: read_table(None, "flagged"))
    # input_captions of the run, rebuilt once for the sections that show it (run_input_captions)
    input_cache: pd.DataFrame | None = field(default=None, repr=False, compare=False)


def load_run(output_dir, tables: dict | None = None) -> Run:
    """The run in `output_dir`. `tables`: its tables already read (name -> frame, as the validation reads
    them from a valid output: read_table's frames), which are then not read again."""
    folder = pathlib.Path(output_dir).resolve()
    stats_file = folder / "stats.json"
    if not stats_file.is_file():
        raise FileNotFoundError(f"{folder} has no stats.json: it is not a capclean output folder")
    result_file = folder / "validation" / "result.json"

    def table(name):
        return tables[name] if tables is not None else read_table(folder, name)

    return Run(
        folder=folder,
        stats=json.loads(stats_file.read_text()),
        captions=table("captions"),
        removed=table("removed"),
        edits=table("edits"),
        corrections=table("corrections"),
        validation=json.loads(result_file.read_text()) if result_file.is_file() else None,
        manifest=read_manifest(folder, required=False),
        flagged=table("flagged"),
    )


def read_table(folder: pathlib.Path | None, name: str) -> pd.DataFrame:
    """One output table as a DataFrame; a missing folder (or no folder) reads as the empty table."""
    schema = TABLES[name]
    present = folder is not None and (folder / name).is_dir()
    table = pq.read_table(folder / name, schema=schema) if present else schema.empty_table()
    # Nullable integers: `removed.sen_id` and `kept_sen_id` hold nulls, and plain
    # pandas would turn those columns into floats.
    integer_types = {pa.int64(): pd.Int64Dtype(), pa.int32(): pd.Int32Dtype()}
    return table.to_pandas(types_mapper=integer_types.get)


def shown_folder(run: Run) -> pathlib.Path:
    """The folder a run is known by: where it ends up, not the staging folder it is written in."""
    return run.shown_as or run.folder


def label_runs(runs: list[Run]) -> None:
    """Name each run by its profile; two runs of one profile are told apart by their folders."""
    for run in runs:
        run.label = str(run.stats.get("profile", "?"))
    if len(runs) == 2 and runs[0].label == runs[1].label:
        for run in runs:
            run.label = f"{run.label} ({shown_folder(run).name})"
        if runs[0].label == runs[1].label:
            runs[0].label, runs[1].label = f"A: {runs[0].label}", f"B: {runs[1].label}"


def steps_run(stats: dict) -> list[str]:
    """The steps that ran, reader included (it always runs, and stats.json does not list it)."""
    listed = stats.get("steps_run", list(stats.get("steps", {})))
    return ["read"] + [step for step in listed if step != "read"]


def step_figures(run: Run, step: str) -> dict | None:
    """The figures stats.json has for one step; None when the step did not run.

    stats.json counts every step, so a step left out by --steps shows zeros
    there; the page shows it as not run instead.
    """
    if step not in steps_run(run.stats):
        return None
    return run.stats.get("steps", {}).get(step, {})


def input_captions(captions: pd.DataFrame, removed: pd.DataFrame, edits: pd.DataFrame) -> pd.DataFrame:
    """The text every input record had before cleaning: columns `sen_id`, `caption`, `video_id`, `split`.

    Every input record is one row of `captions` or `removed`. Its input text is
    the `before` of its earliest edit; without an edit, nothing changed it, so it
    is its text in the table. A record the reader removed is never edited, and its
    `sen_id` may repeat an id the reader kept (a repeated record), so it always
    keeps its own text rather than the other record's lineage.
    """
    first_before = earliest_before_by_sen_id(edits)
    kept = text_before_edits(captions["sen_id"], captions["caption"], first_before)
    dropped = text_before_edits(removed["sen_id"], removed["caption"], first_before,
                                from_reader=(removed["step"] == "read").to_numpy(dtype=bool))
    return pd.concat([
        pd.DataFrame({"sen_id": captions["sen_id"], "caption": kept, "video_id": captions["video_id"],
                      "split": captions["split"]}),
        pd.DataFrame({"sen_id": removed["sen_id"], "caption": dropped, "video_id": removed["video_id"],
                      "split": removed["split"]}),
    ], ignore_index=True)


def text_before_edits(sen_ids: pd.Series, texts: pd.Series, first_before: pd.Series, from_reader=None) -> pd.Series:
    """Each row's text before its earliest edit (`first_before`: sen_id -> that text), else its own text;
    rows `from_reader` always keep their own. Looked up in Arrow and kept there: as Python objects, two
    million captions (10x MSR-VTT) would be hundreds of MiB."""
    position = pc.index_in(pa.array(sen_ids, type=pa.int64()), value_set=pa.array(first_before.index, type=pa.int64()))
    if from_reader is not None:
        position = pc.if_else(pa.array(from_reader), pa.nulls(len(position), pa.int32()), position)
    earlier = pc.take(pa.array(first_before.to_numpy(), type=pa.string()), position)
    text = pc.coalesce(earlier, pa.array(texts, type=pa.string()))
    series = text.to_pandas()
    series.index = sen_ids.index
    return series.astype(texts.dtype)


def caption_texts(run: Run, sen_ids) -> pd.Series:
    """sen_id -> its caption, for `sen_ids` only: as captions/ has it, else as the first of its removed/ rows.
    Only the rows asked for are gathered: the whole table would be a second copy of every caption."""
    wanted = pd.Series(sen_ids, dtype="Int64").dropna().drop_duplicates()
    captions, removed = run.captions, run.removed
    texts = pd.concat([captions.loc[captions["sen_id"].isin(wanted), ["sen_id", "caption"]],
                       removed.loc[removed["sen_id"].notna() & removed["sen_id"].isin(wanted), ["sen_id", "caption"]]])
    return texts.drop_duplicates("sen_id").set_index("sen_id")["caption"]


def run_input_captions(run: Run) -> pd.DataFrame:
    """input_captions of `run`, rebuilt on the first call only: three sections of the page read it."""
    if run.input_cache is None:
        run.input_cache = input_captions(run.captions, run.removed, run.edits)
    return run.input_cache


def earliest_before_by_sen_id(edits: pd.DataFrame) -> pd.Series:
    """sen_id -> the `before` of the first step (in pipeline order) that edited it."""
    step_rank = {step: rank for rank, step in enumerate(STEP_NAMES)}
    ordered = (edits.assign(rank=edits["step"].map(step_rank).fillna(len(STEP_NAMES)))
               .sort_values(["sen_id", "rank"], kind="stable"))
    first = ordered.drop_duplicates("sen_id")
    return pd.Series(first["before"].to_numpy(dtype=object), index=first["sen_id"].to_numpy())
