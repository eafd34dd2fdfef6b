"""Writing the tables: every batch's rows go, tagged with their table and file, into one writer.

Rows are grouped by (table, file) and each group is written as one Parquet file
from `process`, not `finish_bundle`, and by one stream rather than one sink per
table: some runners drop what `finish_bundle` emits or run only one of several
sinks. A file covers a fixed range of sen_ids and its rows are sorted, so the
same input gives byte-identical files whatever the runner or worker count.
"""
import posixpath

import apache_beam as beam
import pyarrow as pa
import pyarrow.parquet as pq
from pyarrow import fs

from schemas.tables import TABLES
from transforms.dedup import name_final_keepers
from transforms.lineage import CaptionRow
from pipelines.runtime.packing import pack, unpack
from pipelines.runtime.timing import busy_timer


def caption_rows(batch) -> list:
    return [CaptionRow(batch.video_id, c.sen_id, batch.split, batch.category, c.text) for c in batch.captions]


def rows_by_file(batch, sen_ids_per_file: int):
    """((table, file number), rows) for every table row this batch holds.

    The lineage is complete here, so this is where each near-duplicate row is made to name
    the caption that stands for its group in the output (step III may have run on the
    video several times, and removed in a later run a caption it kept in an earlier one)."""
    batch = name_final_keepers(batch)
    tables = {
        "captions": caption_rows(batch),
        "removed": batch.removed,
        "edits": batch.edits,
        "corrections": batch.corrections,
        "flagged": batch.flagged,
        "runon": batch.runon,
    }
    for table, rows in tables.items():
        files = {}
        for row in rows:
            # Negative and missing ids go to the first file, so file order stays sen_id order.
            number = max(row.sen_id or 0, 0) // sen_ids_per_file
            files.setdefault(number, []).append(row)
        for number, file_rows in files.items():
            yield (table, number), file_rows


def sort_key(table: str, step_names: tuple):
    """The row order of each table: by sen_id, then the order the steps ran in (`step_names`)."""
    if table in ("captions", "runon"):
        return lambda row: row.sen_id
    if table == "corrections":
        return lambda row: (row.sen_id, row.position, row.original, row.replacement)
    if table == "flagged":
        return lambda row: (row.sen_id, row.position, row.token)
    step_rank = {step: rank for rank, step in enumerate(step_names)}
    # removed/ and edits/: a removed row has a reason, an edit a rule.
    return lambda row: (row.sen_id is None, row.sen_id or 0, step_rank.get(row.step, 99), row.video_id or "",
                        getattr(row, "reason", None) or getattr(row, "rule", None) or "")


def packed_rows_by_file(batch, sen_ids_per_file: int):
    """rows_by_file, each file's rows of the video packed (pickled and compressed) as one value for the shuffle
    to the writer: Beam's coder pickles a row type it does not know one row at a time (MSR-VTT: some 250,000
    rows), which costs about twice the CPU and three times the bytes, and the FnApiRunner holds every row in its
    driver until the files are written (packing.py)."""
    for key, rows in rows_by_file(batch, sen_ids_per_file):
        yield key, pack(rows)


# Digits of a file number: every sen_id is a 64-bit integer, so 19 digits hold every file number
# (0 to 2**63 - 1), and the names sort, as readers of a folder order its files, in sen_id order.
FILE_NUMBER_DIGITS = 19


def table_file_path(output_dir: str, table: str, number: int) -> str:
    return posixpath.join(output_dir, table, f"part-{number:0{FILE_NUMBER_DIGITS}d}.parquet")


def write_table_file(rows: list, table: str, path: str, step_names: tuple = (), metadata: dict | None = None) -> int:
    """Write rows (of transforms/lineage.py) as one Parquet file with the table's schema; return the row count.

    `metadata`: the file's key-value metadata (the run's provenance, pipelines/output/manifest.py); the columns
    are the schema's whatever it holds."""
    schema = TABLES[table].with_metadata(metadata) if metadata else TABLES[table]
    rows = sorted(rows, key=sort_key(table, step_names))
    arrow_table = pa.Table.from_pydict({name: [getattr(row, name) for row in rows] for name in schema.names},
                                       schema=schema)
    filesystem, file_path = fs.FileSystem.from_uri(path) if "://" in path else (fs.LocalFileSystem(), path)
    filesystem.create_dir(posixpath.dirname(file_path), recursive=True)
    pq.write_table(arrow_table, file_path, filesystem=filesystem, compression="zstd")
    return arrow_table.num_rows


class WriteTableFilesFn(beam.DoFn):
    def __init__(self, output_dir: str, step_names: tuple, metadata: dict | None = None):
        self._output_dir = output_dir
        self._step_names = step_names
        self._metadata = metadata

    def process(self, element):
        (table, number), packed_groups = element
        rows = [row for packed in packed_groups for row in unpack(packed)]
        path = table_file_path(self._output_dir, table, number)
        with busy_timer("write"):
            written = write_table_file(rows, table, path, self._step_names, self._metadata)
        yield table, path, written


class WriteTables(beam.PTransform):
    """VideoBatch -> Parquet files of every table; outputs (table, path, rows) per file written.

    `step_names`: the `step` values in pipeline order, by which rows of one caption are sorted;
    `metadata`: every file's key-value metadata."""

    def __init__(self, output_dir: str, sen_ids_per_file: int, step_names: tuple, metadata: dict | None = None):
        super().__init__()
        self._output_dir = output_dir
        self._sen_ids_per_file = sen_ids_per_file
        self._step_names = tuple(step_names)
        self._metadata = metadata

    def expand(self, batches):
        return (
            batches
            | "RowsByFile" >> beam.FlatMap(packed_rows_by_file, self._sen_ids_per_file)
            | "GroupByFile" >> beam.GroupByKey()
            | "WriteFiles" >> beam.ParDo(WriteTableFilesFn(self._output_dir, self._step_names, self._metadata))
        )


def write_empty_tables(output_dir: str, written_tables: set, metadata: dict | None = None) -> None:
    """An empty file for each table that got no rows, so every table folder reads with its schema."""
    for table in TABLES:
        if table not in written_tables:
            write_table_file([], table, table_file_path(output_dir, table, 0), metadata=metadata)
