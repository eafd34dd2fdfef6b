"""Writing the tables: every batch's rows go, tagged with their table and file, into one writer.

A worker packs each bundle's rows of every (table, file) into shard files under the output
folder's `_shards/`, and only the shard paths are grouped by (table, file): each group is then
read back and written as one Parquet file from `process`, not `finish_bundle`, and by one stream
rather than one sink per table (some runners run only one of several sinks). Finalize removes
`_shards/` once every file is written. A file covers a fixed range of sen_ids and its rows are
sorted, so the same input gives byte-identical files whatever the runner or worker count.
"""
import pickle
import posixpath
import uuid

import apache_beam as beam
from apache_beam.transforms.window import GlobalWindows
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


# Digits of a file number: every sen_id is a 64-bit integer, so 19 digits hold every file number
# (0 to 2**63 - 1), and the names sort, as readers of a folder order its files, in sen_id order.
FILE_NUMBER_DIGITS = 19


def table_file_path(output_dir: str, table: str, number: int) -> str:
    return posixpath.join(output_dir, table, f"part-{number:0{FILE_NUMBER_DIGITS}d}.parquet")


def filesystem_and_path(path: str):
    """pyarrow's filesystem for `path` (a local path, or a URL such as s3://...) and the path on it."""
    return fs.FileSystem.from_uri(path) if "://" in path else (fs.LocalFileSystem(), path)


def write_table_file(rows: list, table: str, path: str, step_names: tuple = (), metadata: dict | None = None) -> int:
    """Write rows (of transforms/lineage.py) as one Parquet file with the table's schema; return the row count.

    `metadata`: the file's key-value metadata (the run's provenance, pipelines/output/manifest.py); the columns
    are the schema's whatever it holds."""
    schema = TABLES[table].with_metadata(metadata) if metadata else TABLES[table]
    rows = sorted(rows, key=sort_key(table, step_names))
    arrow_table = pa.Table.from_pydict({name: [getattr(row, name) for row in rows] for name in schema.names},
                                       schema=schema)
    filesystem, file_path = filesystem_and_path(path)
    filesystem.create_dir(posixpath.dirname(file_path), recursive=True)
    pq.write_table(arrow_table, file_path, filesystem=filesystem, compression="zstd")
    return arrow_table.num_rows


# The folder, inside the output folder, of the shards a run writes on the way to the tables (Finalize removes it).
SHARD_FOLDER = "_shards"
# A worker writes the rows it holds as shards once they take this many packed bytes: a ceiling on its
# buffer (at 10x MSR-VTT a worker's half of the rows packs into about 90 MiB), not a size the output depends on.
SHARD_BUFFER_BYTES = 32 << 20


def shard_path(output_dir: str, table: str, number: int) -> str:
    """A new shard's path: one per bundle and flush, so that no two workers, or retries, write the same file."""
    return posixpath.join(output_dir, SHARD_FOLDER, table, f"part-{number:0{FILE_NUMBER_DIGITS}d}",
                          f"{uuid.uuid4().hex}.pickle")


def write_shard(path: str, packed_rows: list) -> None:
    """A shard: the pickled list of one file's packed row lists (pipelines/runtime/packing.py), one per video."""
    filesystem, file_path = filesystem_and_path(path)
    filesystem.create_dir(posixpath.dirname(file_path), recursive=True)
    with filesystem.open_output_stream(file_path) as stream:
        stream.write(pickle.dumps(packed_rows, protocol=pickle.HIGHEST_PROTOCOL))


def read_shard_rows(path: str) -> list:
    """The rows a shard holds, in the order they were written."""
    filesystem, file_path = filesystem_and_path(path)
    with filesystem.open_input_stream(file_path) as stream:
        packed_rows = pickle.loads(stream.readall())
    return [row for packed in packed_rows for row in unpack(packed)]


def remove_shards(output_dir: str) -> None:
    """Remove the output folder's shard folder, with any shard a retried bundle left unread."""
    filesystem, folder = filesystem_and_path(posixpath.join(output_dir, SHARD_FOLDER))
    if filesystem.get_file_info(folder).type != fs.FileType.NotFound:
        filesystem.delete_dir(folder)


class WriteShardsFn(beam.DoFn):
    """VideoBatch -> ((table, file number), shard path) for the rows of each file a bundle holds.

    Only the paths cross the shuffle to the writer. A shuffle's input is what the FnApiRunner holds in its
    driver, copied several times on its way to the workers: the rows themselves took 0.8 GB there at 10x
    MSR-VTT (docs/benchmarks.md, "Rows in shards, freed memory returned"). Beam's own file sinks write
    temporary files in the workers likewise."""

    def __init__(self, output_dir: str, sen_ids_per_file: int):
        self._output_dir = output_dir
        self._sen_ids_per_file = sen_ids_per_file

    def start_bundle(self):
        self._packed, self._packed_bytes = {}, 0

    def process(self, batch):
        for key, rows in rows_by_file(batch, self._sen_ids_per_file):
            packed = pack(rows)
            self._packed.setdefault(key, []).append(packed)
            self._packed_bytes += len(packed)
        if self._packed_bytes >= SHARD_BUFFER_BYTES:
            yield from self._write_shards()

    def finish_bundle(self):
        for key_and_path in self._write_shards():
            yield GlobalWindows.windowed_value(key_and_path)

    def _write_shards(self) -> list:
        packed_by_file, self._packed, self._packed_bytes = self._packed, {}, 0
        written = []
        with busy_timer("write"):
            for (table, number), packed_rows in packed_by_file.items():
                path = shard_path(self._output_dir, table, number)
                write_shard(path, packed_rows)
                written.append(((table, number), path))
        return written


class WriteTableFilesFn(beam.DoFn):
    def __init__(self, output_dir: str, step_names: tuple, metadata: dict | None = None):
        self._output_dir = output_dir
        self._step_names = step_names
        self._metadata = metadata

    def process(self, element):
        (table, number), shard_paths = element
        path = table_file_path(self._output_dir, table, number)
        with busy_timer("write"):
            rows = [row for shard in shard_paths for row in read_shard_rows(shard)]
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
            | "RowsInShards" >> beam.ParDo(WriteShardsFn(self._output_dir, self._sen_ids_per_file))
            | "GroupByFile" >> beam.GroupByKey()
            | "WriteFiles" >> beam.ParDo(WriteTableFilesFn(self._output_dir, self._step_names, self._metadata))
        )


def write_empty_tables(output_dir: str, written_tables: set, metadata: dict | None = None) -> None:
    """An empty file for each table that got no rows, so every table folder reads with its schema."""
    for table in TABLES:
        if table not in written_tables:
            write_table_file([], table, table_file_path(output_dir, table, 0), metadata=metadata)
