"""The protocols (transforms/evaluation/protocols.py) and their files (pipelines/evaluation/protocol_files.py):
the 1k-A sentences matched to captions, full-test's order, custom's lists, and what is refused."""
import pytest

from pipelines.evaluation.protocol_files import EvaluateInputError, read_protocol
from transforms.evaluation.protocols import (EDITED, EXACT, NORMALISED, OWN_CAPTION, UNMATCHED, jsfusion_protocol,
                                             match_counts, match_sentence, normalised_text)

# Each as the JSFusion CSV writes a raw MSR-VTT caption (found in the real data).
JSFUSION_FORMS = [
    ("a dark-skinned couple make love in bed  the man is on top", "a dark skinned couple make love in bed the man is "
     "on top"),  # '-' a space, two spaces one
    ("a man talks about the time: 10:30", "a man talks about the time 1030"),  # ':' dropped
    ("a guide to km/h", "a guide to kmh"),  # '/' dropped
    ("its a cooking recipe show with chicken & vegetables", "its a cooking recipe show with chicken vegetables"),
]


@pytest.mark.parametrize("caption, sentence", JSFUSION_FORMS)
def test_a_caption_and_its_jsfusion_sentence_normalise_alike(caption, sentence):
    assert normalised_text(caption) == normalised_text(sentence)
    assert match_sentence(sentence, [(7, caption), (8, "something else entirely")]) == ((7,), NORMALISED)


def test_an_exact_match_wins_over_a_normalised_one():
    captions = [(1, "a man  is cooking"), (2, "a man is cooking")]
    assert match_sentence("a man is cooking", captions) == ((2,), EXACT)


def test_a_sentence_matching_two_captions_keeps_both():
    captions = [(5, "a dog runs"), (3, "a dog runs"), (4, "a cat sleeps")]
    assert match_sentence("a dog runs", captions) == ((3, 5), EXACT)


def test_a_sentence_matching_no_caption_is_kept_unmatched():
    assert match_sentence("a bird sings", [(1, "a dog runs")]) == ((), UNMATCHED)


# ---------------------------------------------------------------- the files

VIDEOS = [{"video_id": "video7010", "split": "test", "category": 1},
          {"video_id": "video7011", "split": "test", "category": 1},
          {"video_id": "video9", "split": "train", "category": 1},
          {"video_id": "video10000", "split": "test", "category": 1}]
SENTENCES = [{"sen_id": 0, "video_id": "video7010", "caption": "a man talks: about cars"},
             {"sen_id": 1, "video_id": "video7010", "caption": "a man talks about  cars"},
             {"sen_id": 2, "video_id": "video7011", "caption": "a dog runs"},
             {"sen_id": 3, "video_id": "video7011", "caption": "a dog runs"},
             {"sen_id": 4, "video_id": "video9", "caption": "a train caption"},
             {"sen_id": 5, "video_id": "video10000", "caption": "a woman sings"},
             {"sen_id": 6, "video_id": "video10000", "caption": "a woman is singing"}]


@pytest.fixture
def raw(tmp_path, write_annotations):
    return str(write_annotations(tmp_path, VIDEOS, SENTENCES))


@pytest.fixture
def jsfusion(tmp_path):
    """A JSFusion-format CSV: video10000 first (the CSV's order is kept), then a sentence that matches two
    captions once normalised, one that matches two exactly, and one of a video without captions."""
    path = tmp_path / "jsfusion.csv"
    path.write_text("key,vid_key,video_id,sentence\n"
                    "ret0,msr10000,video10000,a woman sings\n"
                    "ret1,msr7010,video7010,a man talks about cars\n"
                    "ret2,msr7011,video7011,a dog runs\n"
                    "ret3,msr7012,video7012,a cat sleeps\n")
    return str(path)


def test_1k_a_keeps_the_csv_order_and_matches_every_sentence(jsfusion, raw):
    protocol = read_protocol("1k-A", raw, jsfusion, None)
    assert protocol.video_ids == ("video10000", "video7010", "video7011", "video7012")
    assert [query.text for query in protocol.queries] == ["a woman sings", "a man talks about cars", "a dog runs",
                                                          "a cat sleeps"]
    assert protocol.own_columns() == [0, 1, 2, 3]
    # 'a man talks: about cars' (':' dropped) and 'a man talks about  cars' (two spaces) both normalise to it.
    assert [(query.sen_ids, query.match) for query in protocol.queries] == [
        ((5,), EXACT), ((0, 1), NORMALISED), ((2, 3), EXACT), ((), UNMATCHED)]
    assert match_counts(protocol) == {"exact": 2, "normalised": 1, "edited": 0, "unmatched": 1, "several_sen_ids": 2}


def test_a_sentence_whose_caption_was_edited_matches_its_earlier_text():
    # Caption 4's text now is "a cat sleeps"; before step II it was "a cta sleeps", the sentence's text. Caption 8
    # had the sentence of video7013 as an earlier text too, but it is not in earlier_of: the cleaning removed it.
    rows = [{"video_id": "video7012", "sentence": "a cta sleeps"}, {"video_id": "video7013", "sentence": "a bird"}]
    protocol = jsfusion_protocol(rows, {"video7012": [(4, "a cat sleeps")]}, {"video7012": [(4, "a cta sleeps")]})
    assert [(query.sen_ids, query.match) for query in protocol.queries] == [((4,), EDITED), ((), UNMATCHED)]
    assert match_counts(protocol)["edited"] == 1


def test_a_current_text_wins_over_an_earlier_one():
    # Caption 4 is the sentence as it is now; caption 5 was it before an edit: the sentence is caption 4.
    rows = [{"video_id": "video7012", "sentence": "a cat sleeps"}]
    protocol = jsfusion_protocol(rows, {"video7012": [(4, "a cat sleeps"), (5, "a dog sleeps")]},
                                 {"video7012": [(5, "a cat sleeps")]})
    assert (protocol.queries[0].sen_ids, protocol.queries[0].match) == ((4,), EXACT)


def test_reading_1k_a_from_a_run_matches_through_its_edits_of_kept_captions_only(tmp_path):
    # A run's captions/ and edits/: caption 0 was "dog rnus" (kept, corrected); caption 9 was "cat rnus" and then
    # removed (edits/ has it, captions/ does not): its sentence stays unmatched, nothing to leave out.
    import pyarrow as pa
    import pyarrow.parquet as pq

    run = tmp_path / "run"
    (run / "captions").mkdir(parents=True)
    (run / "edits").mkdir()
    pq.write_table(pa.table({"sen_id": [0, 2], "video_id": ["video7010", "video7011"], "split": ["test"] * 2,
                             "caption": ["dog runs", "cat sits"]}), run / "captions" / "part-0.parquet")
    pq.write_table(pa.table({"sen_id": [0, 9], "video_id": ["video7010", "video7011"], "step": ["spelling"] * 2,
                             "before": ["dog rnus", "cat rnus"], "after": ["dog runs", "cat runs"]}),
                   run / "edits" / "part-0.parquet")
    csv_path = tmp_path / "jsfusion.csv"
    csv_path.write_text("video_id,sentence\nvideo7010,dog rnus\nvideo7011,cat rnus\n")
    protocol = read_protocol("1k-A", str(run), str(csv_path), None)
    assert [(query.sen_ids, query.match) for query in protocol.queries] == [((0,), EDITED), ((), UNMATCHED)]


def test_1k_a_without_captions_matches_nothing_and_keeps_every_query(jsfusion):
    protocol = read_protocol("1k-A", None, jsfusion, None)
    assert protocol.shape() == (4, 4) and {query.match for query in protocol.queries} == {UNMATCHED}


def test_1k_a_needs_the_sentence_column(tmp_path, raw):
    videos = tmp_path / "videos.txt"
    videos.write_text("video7010\nvideo7011\n")
    with pytest.raises(EvaluateInputError, match="video_id and sentence columns"):
        read_protocol("1k-A", raw, str(videos), None)


def test_full_test_is_the_test_captions_by_sen_id_and_the_test_videos_in_natural_order(raw):
    protocol = read_protocol("full-test", raw, None, None)
    assert protocol.video_ids == ("video7010", "video7011", "video10000")  # video9 is train
    assert [query.sen_ids for query in protocol.queries] == [(0,), (1,), (2,), (3,), (5,), (6,)]
    assert protocol.own_columns() == [0, 0, 1, 1, 2, 2]
    assert {query.match for query in protocol.queries} == {OWN_CAPTION}


def test_custom_keeps_both_lists_orders(tmp_path, raw):
    videos, sen_ids = tmp_path / "videos.txt", tmp_path / "sen_ids.csv"
    videos.write_text("video10000\nvideo9\n")
    sen_ids.write_text("sen_id,note\n6,x\n4,y\n5,z\n")
    protocol = read_protocol("custom", raw, str(videos), str(sen_ids))
    assert protocol.video_ids == ("video10000", "video9")
    assert [query.text for query in protocol.queries] == ["a woman is singing", "a train caption", "a woman sings"]
    assert protocol.own_columns() == [0, 1, 0]


@pytest.mark.parametrize("videos_text, sen_ids_text, message", [
    ("video10000\nvideo10000\n", "5\n", "video_id video10000 is listed twice"),
    ("video10000\n", "5\n5\n", "sen_id 5 is listed twice"),
    ("video10000\n", "5\n99\n", "sen_id 99 is not a caption of --input"),
    ("video10000\n", "5\n2\n", "caption 2's video video7011 is not in --videos"),
    ("video10000\n", "five\n", "'five' is not a sen_id"),
])
def test_a_custom_list_that_cannot_be_used_is_refused(tmp_path, raw, videos_text, sen_ids_text, message):
    videos, sen_ids = tmp_path / "videos.txt", tmp_path / "sen_ids.txt"
    videos.write_text(videos_text)
    sen_ids.write_text(sen_ids_text)
    with pytest.raises(EvaluateInputError, match=message):
        read_protocol("custom", raw, str(videos), str(sen_ids))


@pytest.mark.parametrize("name, given, flag", [("1k-A", {}, "--videos"), ("full-test", {}, "--input"),
                                               ("custom", {"input_path": "x", "videos": "y"}, "--sen-ids")])
def test_a_protocol_without_its_file_names_the_flag(name, given, flag):
    arguments = {"input_path": None, "videos": None, "sen_ids": None, **given}
    with pytest.raises(EvaluateInputError, match=f"--protocol {name} needs {flag}"):
        read_protocol(name, **arguments)
