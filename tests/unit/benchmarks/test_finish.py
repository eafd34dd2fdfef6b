"""The finishing-phase benchmark's copies: ids numbered as make_scaled_corpus numbers them, counts multiplied."""
import pyarrow as pa

from benchmarks.bench_finish import copied_ids, scaled_counts
from benchmarks.make_scaled_corpus import scaled_ranges


def test_a_copy_numbers_sen_ids_and_videos_as_the_scaled_corpus_does():
    table = pa.table({
        "sen_id": pa.array([3, None], pa.int64()),
        "video_id": ["video7", "video10"],
        "kept_sen_id": pa.array([None, 4], pa.int64()),
        "new_sen_ids": pa.array([[5, 6], []], pa.list_(pa.int64())),
        "caption": ["a", "b"],
    })
    copy = copied_ids(table, factor=10, copy=2)
    assert copy["sen_id"].to_pylist() == [32, None]
    assert copy["video_id"].to_pylist() == ["video72", "video102"]
    assert copy["kept_sen_id"].to_pylist() == [None, 42]
    assert copy["new_sen_ids"].to_pylist() == [[52, 62], []]
    assert copy["caption"].to_pylist() == ["a", "b"]
    assert copy.schema == table.schema


def test_counts_grow_with_the_copies_and_flags_and_fractions_do_not():
    assert scaled_counts({"a": 3, "b": True, "c": 0.5, "d": [2, {"e": 1}]}, 10) == {
        "a": 30, "b": True, "c": 0.5, "d": [20, {"e": 10}]}


def test_the_ranges_of_the_copies_are_contiguous():
    # Videos 0..6512 copied 10 times are 0..65129.
    assert scaled_ranges({"train": (0, 6512), "test": (7010, 9999)}, 10) == {
        "train": (0, 65129), "test": (70100, 99999)}
