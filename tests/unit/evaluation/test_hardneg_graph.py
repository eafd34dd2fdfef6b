"""The hard negatives' Beam graph (pipelines/evaluation/hardneg/graph.py): how negatives cross the runner
and become the hardneg/ table, and the combiners of the vocabulary and the lexicon words."""
from collections import Counter
from dataclasses import asdict, replace

import pyarrow as pa

import pyarrow.parquet as pq

from pipelines.evaluation.hardneg.graph import (AddCounts, JoinSets, negative_table, pos_blocks,
                                                write_pos_blocks)
from pipelines.runtime.packing import pack, unpack
from schemas.evaluation_tables import HARDNEG, POS
from tests.unit.evaluation.test_hardneg import MAN_OPENING_DOOR, VOCABULARY, WORDS_ONLY, StandInLexicon, tagged
from transforms.evaluation.hardneg import NegativeColumns, add_video_negatives


def video_columns() -> NegativeColumns:
    """Word and phrase negatives (one and two words changed) of two captions, one with capitals."""
    capitals = [("A", "DET", "DT", "a"), ("Man", "NOUN", "NN", "man"), ("opens", "VERB", "VBZ", "open"),
                ("the", "DET", "DT", "the"), ("door", "NOUN", "NN", "door")]
    settings = replace(WORDS_ONLY, k=4, vocabulary_fallback=("noun", "verb"), levels=("word", "phrase"))
    columns = NegativeColumns()
    add_video_negatives(lambda caption: columns, [tagged(7, MAN_OPENING_DOOR), tagged(9, capitals)],
                        StandInLexicon(), VOCABULARY, settings)
    return columns


def test_the_table_of_some_negatives_is_their_records_row_by_row():
    columns = video_columns()
    assert {len(negative.positions) for negative in columns.records()} == {1, 2}
    table = negative_table(columns)
    assert table.schema == HARDNEG
    assert table.equals(pa.Table.from_pylist([asdict(negative) for negative in columns.records()], schema=HARDNEG))


def test_no_negatives_are_an_empty_table_of_the_schema():
    assert negative_table(NegativeColumns()).equals(HARDNEG.empty_table())


def test_a_block_gives_back_the_columns_it_carries_and_blocks_join_in_order():
    first, second = video_columns(), video_columns()
    joined = unpack(pack(first))
    joined.extend(unpack(pack(second)))
    assert joined.records() == first.records() + second.records()


def test_the_pos_blocks_of_videos_write_their_captions_rows_in_sen_id_order(tmp_path):
    # Two videos whose captions interleave by sen_id, one of them past the first file's range (50,000).
    first = [tagged(9, MAN_OPENING_DOOR), tagged(7, MAN_OPENING_DOOR[:4])]
    second = [tagged(8, MAN_OPENING_DOOR[1:], video_id="video2"), tagged(50_001, MAN_OPENING_DOOR, "video2")]
    files = {}
    for video in (first, second):
        for number, block in pos_blocks(video):
            files.setdefault(number, []).append(block)
    assert sorted(files) == [0, 1]
    for number, blocks in files.items():
        write_pos_blocks((number, blocks), str(tmp_path))
    table = pq.read_table(tmp_path / "pos")
    expected = sorted(first + second, key=lambda caption: caption.sen_id)
    assert table.equals(pa.Table.from_pylist([asdict(caption) for caption in expected], schema=POS))


def test_the_combiners_add_counts_and_join_sets_as_one_pass_would():
    counts = [Counter({("NOUN", "man"): 2}), Counter({("NOUN", "man"): 1, ("VERB", "open"): 1}), Counter()]
    adder = AddCounts()
    halves = [adder.add_input(adder.add_input(adder.create_accumulator(), counts[0]), counts[1]),
              adder.add_input(adder.create_accumulator(), counts[2])]
    assert adder.extract_output(adder.merge_accumulators(halves)) == Counter({("NOUN", "man"): 3, ("VERB", "open"): 1})
    joiner = JoinSets()
    sets = [joiner.add_input(joiner.create_accumulator(), {("man", "NOUN")}),
            joiner.add_input(joiner.create_accumulator(), {("open", "VERB"), ("man", "NOUN")})]
    assert joiner.extract_output(joiner.merge_accumulators(sets)) == {("man", "NOUN"), ("open", "VERB")}
