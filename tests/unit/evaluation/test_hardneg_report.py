"""The hard-negative report (pipelines/evaluation/hardneg/page.py) on a tiny hardneg output written by hand."""
import csv
import json
import re
import shutil

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipelines.evaluation.evaluation_io import write_stats
from pipelines.evaluation.hardneg.graph import hardneg_figures
from pipelines.evaluation.hardneg.page import HardnegReportError, write_hardneg_report
from pipelines.evaluation.posrank.command import PosrankArgs, Posrank
from pipelines.evaluation.posrank.inputs import NegativesFolderError
from schemas.evaluation_tables import HARDNEG, POS
from transforms.evaluation.hardneg import HardnegSettings

HOSTILE = "<script>alert(1)</script>"
# sen_id -> (video_id, caption); tokens are the caption's words, each followed by a space but the last.
CAPTIONS = {0: ("video0", "a man is opening a door"),
            1: ("video1", f"{HOSTILE} a dog runs"),
            2: ("video2", "a woman sings quickly on stage"),
            3: ("video0", "a man closes a door")}
# The universal part-of-speech tag of each token, as spaCy would give it.
TAGS = {0: ["DET", "NOUN", "AUX", "VERB", "DET", "NOUN"],
        1: ["X", "DET", "NOUN", "VERB"],
        2: ["DET", "NOUN", "VERB", "ADV", "ADP", "NOUN"],
        3: ["DET", "NOUN", "VERB", "DET", "NOUN"]}
# (sen_id, part, level, k, positions, replacements, source)
NEGATIVES = [(0, "noun", "word", 0, [1], ["woman"], "antonym"),
             (0, "verb", "word", 0, [3], ["closing"], "antonym"),
             (0, "verb", "phrase", 0, [2, 3], ["was", "closing"], "vocabulary"),
             (1, "noun", "word", 0, [2], ["cat"], "vocabulary"),
             (1, "noun", "word", 1, [2], ["<b>"], "vocabulary"),
             (2, "adverb", "word", 0, [3], ["slowly"], "related_antonym"),
             (3, "noun", "word", 0, [1], ["woman"], "antonym")]
POSRANK = {"word": {"noun": {"posrank": 0.75, "chance": 0.5, "captions": 2, "negatives_per_caption": 1.5},
                    "mean": {"posrank": 0.575, "chance": 0.5, "parts": ["noun", "verb"]},
                    "verb": {"posrank": 0.4, "chance": 0.5, "captions": 1, "negatives_per_caption": 1.0}}}


def pos_row(sen_id: int) -> dict:
    video_id, caption = CAPTIONS[sen_id]
    tokens = caption.split(" ")
    return {"sen_id": sen_id, "video_id": video_id, "split": "test", "caption": caption, "tokens": tokens,
            "pos": TAGS[sen_id], "tags": ["X"] * len(tokens), "lemmas": tokens,
            "spaces": [True] * (len(tokens) - 1) + [False]}


def negative_row(sen_id, part, level, k, positions, replacements, source) -> dict:
    video_id, caption = CAPTIONS[sen_id]
    tokens = caption.split(" ")
    originals = [tokens[position] for position in positions]
    for position, word in zip(positions, replacements):
        tokens[position] = word
    return {"negative_id": f"{sen_id}-{part}-{level}-{k}", "sen_id": sen_id, "video_id": video_id, "part": part,
            "level": level, "k": k, "text": " ".join(tokens), "caption": caption, "positions": positions,
            "originals": originals, "replacements": replacements, "source": source}


@pytest.fixture
def output(tmp_path):
    folder = tmp_path / "hn"
    for table, schema, rows in (("pos", POS, [pos_row(sen_id) for sen_id in CAPTIONS]),
                                ("hardneg", HARDNEG, [negative_row(*negative) for negative in NEGATIVES])):
        (folder / table).mkdir(parents=True)
        pq.write_table(pa.Table.from_pylist(rows, schema=schema), folder / table / "part-00000.parquet")
    settings = HardnegSettings(k=2, levels=("word", "phrase"))
    figures = hardneg_figures(str(folder), settings)
    figures["settings"]["input"] = "/data/msr-vtt <raw>"  # what the command will add; text to escape
    write_stats(folder, figures)
    return folder


def page_of(path) -> str:
    return path.read_text(encoding="utf-8")


def section_of(page: str, heading: str) -> str:
    """The HTML of the <section> whose <h2> is `heading`."""
    match = re.search(rf"<section><h2>{re.escape(heading)}</h2>(.*?)</section>", page, re.S)
    assert match, f"no section {heading!r}"
    return match.group(1)


def test_the_page_has_every_section_and_the_figures(output):
    path = write_hardneg_report(output)
    assert path == output / "report.html"
    page = page_of(path)
    for heading in ("Parts of speech", "Negatives per source", "Examples per part of speech"):
        section_of(page, heading)
    header = page.split("<section>")[0]
    assert "<th>input</th><td><code>/data/msr-vtt &lt;raw&gt;</code></td>" in header
    assert "<th>captions</th><td>4</td>" in header and "<th>videos</th><td>3</td>" in header
    assert "<td>noun, verb, adjective, adverb, preposition</td>" in header and "<td>word, phrase</td>" in header
    # Every caption holds a noun, one of four an adverb; the paper's figures stand beside.
    shares = section_of(page, "Parts of speech")
    assert "<tr><th>noun</th><td class='num'>1.000</td><td class='num'>1.00</td></tr>" in shares
    assert "<tr><th>adverb</th><td class='num'>0.250</td><td class='num'>0.09</td></tr>" in shares
    # verb: one word and one phrase negative, 367.56K in the paper.
    assert ("<tr><th>verb</th><td class='num'>1</td><td class='num'>1</td><td class='num'>2</td>"
            "<td class='num'>367.56K</td></tr>") in shares


def test_negatives_per_source_in_the_table_and_as_bars(output):
    sources = section_of(page_of(write_hardneg_report(output)), "Negatives per source")
    # antonym, related_antonym, vocabulary, total
    assert "<tr><th>noun</th><td class='num'>2</td><td class='num'>0</td><td class='num'>2</td>" \
           "<td class='num'>4</td></tr>" in sources
    assert "<tr><th>adjective</th><td class='num'>0</td><td class='num'>0</td><td class='num'>0</td>" \
           "<td class='num'>0</td></tr>" in sources
    # One rectangle per source a part has: noun 2, verb 2, adverb 1; the longest bar is noun's, full width.
    assert sources.count("<rect ") == 5
    assert re.search(r"<rect x='110.0' y='[\d.]+' width='260.0' height='16' fill='[^']+'><title>noun, antonym: 2",
                     sources)


def test_examples_are_escaped_and_mark_the_words_put_in(output):
    page = page_of(write_hardneg_report(output))
    assert "<script" not in page and "<b>" not in page
    examples = section_of(page, "Examples per part of speech")
    assert "sen_id 1, video1: &lt;script&gt;alert(1)&lt;/script&gt; a dog runs" in examples
    assert "&lt;script&gt;alert(1)&lt;/script&gt; a <ins>cat</ins> runs" in examples
    assert "&lt;script&gt;alert(1)&lt;/script&gt; a <ins>&lt;b&gt;</ins> runs" in examples
    assert "a man <ins>was</ins> <ins>closing</ins> a door" in examples
    assert "is → was, opening → closing" in examples
    assert "<td class='rule'>related_antonym</td>" in examples
    # The parts are in the paper's order; one caption per video: sen_id 3 is video0's second.
    assert re.findall(r"<caption>(\w+)</caption>", examples) == ["noun", "verb", "adverb"]
    assert re.findall(r"sen_id (\d+)", examples) == ["0", "1", "0", "2"]
    assert "No caption has negatives of this part." in examples


def test_the_page_fetches_nothing(output):
    page = page_of(write_hardneg_report(output, POSRANK))
    assert "http://" not in page and "https://" not in page
    assert not re.search(r"\b(src|href)\s*=|url\(|@import", page)


def test_posrank_only_when_figures_are_given_from_a_dict_or_a_file(output, tmp_path):
    without = page_of(write_hardneg_report(output))
    assert "<h2>PoSRank</h2>" not in without
    with_dict = page_of(write_hardneg_report(output, POSRANK))
    posrank = section_of(with_dict, "PoSRank")
    assert "<h3>word level</h3>" in posrank and "<h3>phrase level</h3>" not in posrank
    # noun, verb, then the mean: a bar and a chance line each, bars on a 520-wide scale of 0 to 1.
    assert re.findall(r"<text x='102' [^>]*>(\w+)</text>", posrank) == ["noun", "verb", "mean"]
    assert posrank.count("<line class='chance'") == 3
    assert re.search(r"<rect x='110.0' y='[\d.]+' width='390.0' height='16' fill='[^']+'><title>noun: PoSRank 0.750",
                     posrank)
    assert re.search(r"<line class='chance' x1='370.0' x2='370.0' [^>]*><title>noun: chance 0.500", posrank)
    assert "<tr class='total'><th>mean</th><td class='num'>0.575</td>" in posrank
    figures_file = tmp_path / "figures.json"
    figures_file.write_text(json.dumps(POSRANK))
    assert page_of(write_hardneg_report(output, str(figures_file))) == with_dict


def test_the_same_inputs_give_the_same_bytes_wherever_the_folder_is(output, tmp_path):
    first = write_hardneg_report(output, POSRANK).read_bytes()
    assert write_hardneg_report(output, POSRANK).read_bytes() == first
    moved = shutil.copytree(output, tmp_path / "elsewhere" / "other-name")
    (moved / "report.html").unlink()
    assert write_hardneg_report(moved, POSRANK, tmp_path / "pages" / "r.html").read_bytes() == first
    assert not (moved / "report.html").exists()


def test_a_folder_without_stats_is_one_line(tmp_path):
    with pytest.raises(HardnegReportError, match="has no stats.json, hardneg, pos: it is not"):
        write_hardneg_report(tmp_path)


def test_posrank_command_writes_the_report_with_its_posrank(output, tmp_path, capsys):
    scores = tmp_path / "scores.csv"
    with open(scores, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["video_id", "text_id", "score"])
        rows = [negative_row(*negative) for negative in NEGATIVES]
        # Each caption once (a row repeated is refused, even with the same score), then every negative.
        captions = dict.fromkeys((row["video_id"], row["sen_id"]) for row in rows)
        writer.writerows([video_id, sen_id, 1.0] for video_id, sen_id in captions)
        writer.writerows([row["video_id"], row["negative_id"], 0.0] for row in rows)
    report = tmp_path / "model" / "report.html"
    assert Posrank().run(PosrankArgs(str(output / "hardneg"), str(scores), report=str(report))) == 0
    posrank = section_of(page_of(report), "PoSRank")
    # Every true caption scored above its negatives: PoSRank 1 at both levels.
    assert "<h3>word level</h3>" in posrank and "<h3>phrase level</h3>" in posrank
    assert "<tr class='total'><th>mean</th><td class='num'>1.000</td>" in posrank
    assert f"report written to {report}" in capsys.readouterr().out


def test_posrank_command_refuses_a_report_without_stats_before_scoring(output, tmp_path):
    negatives_alone = shutil.copytree(output / "hardneg", tmp_path / "alone" / "hardneg")
    with pytest.raises(NegativesFolderError, match="no stats.json beside hardneg/"):
        Posrank().run(PosrankArgs(str(negatives_alone), str(tmp_path / "not-written-yet.csv"), report=str(tmp_path / "r.html")))


def test_posrank_command_refuses_a_users_file_as_report_before_scoring(output, tmp_path):
    mine = tmp_path / "notes.html"
    mine.write_text("<p>my notes</p>")
    with pytest.raises(NegativesFolderError, match="was not written by capclean"):
        Posrank().run(PosrankArgs(str(output / "hardneg"), str(tmp_path / "not-written-yet.csv"), report=str(mine)))
    assert mine.read_text() == "<p>my notes</p>"
