import pyarrow.parquet as pq

from pipelines.cleaning.steps import STEP_NAMES
from pipelines.cleaning.stats import AddVideoCounts, add_counts, nest, video_counts
from schemas.tables import TABLES
from transforms.batch import Caption, VideoBatch, tokens_changed
from transforms.lineage import CaptionRow, CorrectionRow, EditRow, removed
from pipelines.cleaning import write_tables
from pipelines.cleaning.write_tables import (SHARD_FOLDER, WriteShardsFn, WriteTableFilesFn, read_shard_rows, remove_shards,
                                             rows_by_file, write_empty_tables, write_table_file)


def sample_batch():
    batch = VideoBatch("video3", "train", 5, [Caption(120_001, "a cat"), Caption(7, "a dog")], input_records=4)
    batch.removed = [removed(batch, 99, "a dog too", "dedup", "near-duplicate", kept_sen_id=7),
                     removed(batch, None, None, "read", "sen_id is not a 64-bit integer: 'x'")]
    batch.edits = [EditRow(7, "video3", "spelling", "suggestion", "a dgo", "a dog")]
    batch.corrections = [CorrectionRow(7, 1, "dgo", "dog", "suggestion")]
    return batch


def test_rows_go_to_the_file_of_their_sen_id_range():
    files = dict(rows_by_file(sample_batch(), 50_000))
    assert sorted(files) == [("captions", 0), ("captions", 2), ("corrections", 0), ("edits", 0), ("removed", 0)]
    assert [row.sen_id for row in files[("captions", 2)]] == [120_001]


def test_a_table_file_is_sorted_typed_and_byte_identical_when_rewritten(tmp_path):
    rows = [CaptionRow("video1", n, "test", 2, f"c {n}") for n in (5, 1, 3)]
    first, second = tmp_path / "a.parquet", tmp_path / "b.parquet"
    assert write_table_file(rows, "captions", str(first)) == 3
    write_table_file(list(reversed(rows)), "captions", str(second))
    assert first.read_bytes() == second.read_bytes()
    table = pq.read_table(first)
    assert table.schema.equals(TABLES["captions"])
    assert table.column("sen_id").to_pylist() == [1, 3, 5]


def test_removed_rows_sort_by_sen_id_with_missing_ids_last(tmp_path):
    path = tmp_path / "removed.parquet"
    write_table_file(sample_batch().removed, "removed", str(path), STEP_NAMES)
    assert pq.read_table(path).column("sen_id").to_pylist() == [99, None]


def test_empty_tables_still_read_with_their_schema(tmp_path):
    write_empty_tables(str(tmp_path), {"captions"})
    for table in ("removed", "edits", "corrections"):
        read = pq.read_table(tmp_path / table)
        assert read.num_rows == 0 and read.schema.equals(TABLES[table])
    assert not (tmp_path / "captions").exists()


def test_figures_of_a_video():
    counts = video_counts(sample_batch(), STEP_NAMES)
    assert counts["input/captions"] == 4
    assert counts["input/captions_by_split/train"] == 3  # one record was unusable at read
    assert counts["steps/spelling/captions_changed"] == 1 and counts["steps/spelling/tokens_changed"] == 1
    assert counts["steps/dedup/captions_removed"] == 1 and counts["steps/dedup/videos_touched"] == 1
    assert counts["steps/normalize/videos_touched"] == 0
    assert counts["output/captions_by_split/train"] == 2


def test_figures_add_up_and_nest():
    total = add_counts([video_counts(sample_batch(), STEP_NAMES), video_counts(sample_batch(), STEP_NAMES)])
    stats = nest(total)
    assert stats["input"]["captions"] == 8
    assert stats["steps"]["spelling"]["tokens_changed_by_rule"] == {"suggestion": 2}


def test_the_combine_adds_each_video_as_it_reads_it():
    # Two parts of the dataset folded apart, then merged, as a runner lifts the combine.
    combine = AddVideoCounts(STEP_NAMES)
    parts = [combine.add_input(combine.create_accumulator(), sample_batch()) for _ in range(2)]
    parts[1] = combine.add_input(parts[1], sample_batch())
    total = combine.extract_output(combine.merge_accumulators(parts))
    assert total == add_counts([video_counts(sample_batch(), STEP_NAMES)] * 3)
    assert total["input/captions"] == 12


def test_tokens_changed_counts_words_an_alignment_does_not_match():
    assert tokens_changed("a man plays", "a man plays") == 0
    assert tokens_changed("a videogame here", "a video game here") == 2
    assert tokens_changed("one two three four", "one two") == 2


def shards_of_one_bundle(output_dir, batches) -> list:
    """((table, file), shard path) of a bundle of `batches`, as the writer's first stage emits them."""
    writer = WriteShardsFn(str(output_dir), 50_000)
    writer.start_bundle()
    emitted = [key_and_path for batch in batches for key_and_path in writer.process(batch)]
    return emitted + [windowed.value for windowed in writer.finish_bundle()]


def test_a_bundles_rows_of_each_file_go_into_one_shard_and_only_its_path_goes_on(tmp_path):
    shards = shards_of_one_bundle(tmp_path, [sample_batch(), sample_batch()])
    expected = dict(rows_by_file(sample_batch(), 50_000))
    assert sorted(key for key, _ in shards) == sorted(expected)  # one shard per file: the bundle stayed under the ceiling
    for key, path in shards:
        assert path.startswith(str(tmp_path / SHARD_FOLDER)) and read_shard_rows(path) == expected[key] * 2


def test_a_full_buffer_is_written_out_before_the_bundle_ends(tmp_path, monkeypatch):
    monkeypatch.setattr(write_tables, "SHARD_BUFFER_BYTES", 1)
    writer = WriteShardsFn(str(tmp_path), 50_000)
    writer.start_bundle()
    assert len(list(writer.process(sample_batch()))) == len(dict(rows_by_file(sample_batch(), 50_000)))
    assert list(writer.finish_bundle()) == []


def test_a_files_shards_are_written_as_one_sorted_table_and_the_shard_folder_is_removed(tmp_path):
    other_video = VideoBatch("video1", "train", 5, [Caption(3, "a bird")], input_records=1)
    shards = shards_of_one_bundle(tmp_path, [sample_batch()]) + shards_of_one_bundle(tmp_path, [other_video])
    caption_shards = [path for (table, number), path in shards if (table, number) == ("captions", 0)]
    (table, path, written), = WriteTableFilesFn(str(tmp_path), STEP_NAMES).process((("captions", 0), caption_shards))
    assert (table, written) == ("captions", 2)
    assert pq.read_table(path).column("sen_id").to_pylist() == [3, 7]  # the shards' rows merged in sen_id order
    remove_shards(str(tmp_path))
    assert not (tmp_path / SHARD_FOLDER).exists() and (tmp_path / "captions").is_dir()
    remove_shards(str(tmp_path))  # none left: nothing to do
