"""The HTML report: built from a real (tiny) run, read back as a browser and a reviewer would."""
import base64
import json
import re
import shutil
from functools import partial
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipelines.cli import main
from pipelines.cleaning.report import write_report
from pipelines.cleaning.report.near_duplicates import dedup_threshold, near_duplicates, spread_examples
from pipelines.cleaning.report.run import Run, input_captions, read_table
from pipelines.cleaning.report.spelling import NOT_BRITISH, flagged_section, is_british_spelling, recheck_note
from pipelines.pages.html import highlight_changes
from schemas.tables import TABLES

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def report_dataset(write_annotations, folder):
    """A few captions that give every section something to show, and text that must be escaped."""
    videos = [{"video_id": "video1", "split": "train", "category": 3},
              {"video_id": "video2", "split": "train", "category": 3},
              {"video_id": "video7500", "split": "test", "category": 9}]
    captions = [
        (0, "video1", "a man is playing a guitar"),            # near-duplicate of 1: removed
        (1, "video1", "a man is playing a guitar on stage"),
        (2, "video1", "a man (offscreen) plays the vedio game"),  # normalize, then spelling
        (3, "video1", "..."),                                   # empty after normalize: removed
        (4, "video7500", "a woman & her dog walk in the park"),
        (5, "video99", "a caption of an unknown video"),        # the reader removes it
        (7, "video7500", "an ad for at&t with <b>bold</b> text"),
        (8, "video2", "a colour film of a cat"),
        (9, "video2", "a cat sleeps on a sofa"),
        (10, "video2", "a cat sleeps on a sofa"),               # duplicate of 9: removed
    ]
    sentences = [{"sen_id": s, "video_id": v, "caption": c} for s, v, c in captions]
    return write_annotations(folder, videos, sentences)


def clean(tmp_path_factory, name, dataset, *flags):
    base = tmp_path_factory.mktemp(name)
    output = base / "out"
    assert main(["clean", "--input", str(dataset(base / "in")), "--output", str(output), *flags]) == 0
    return output


@pytest.fixture(scope="module")
def paper_run(tmp_path_factory, write_annotations):
    return clean(tmp_path_factory, "paper", partial(report_dataset, write_annotations), "--profile", "paper")


@pytest.fixture(scope="module")
def normalize_only_run(tmp_path_factory, tiny_dataset):
    """A default-profile run of step I alone: its corrections/ table is empty.

    It reads the plainer tiny dataset: the default profile's character set rejects
    the '<' that step I alone leaves in report_dataset's HTML caption.
    """
    return clean(tmp_path_factory, "normalize", tiny_dataset, "--profile", "default", "--steps", "normalize")


@pytest.fixture(scope="module")
def paper_page(paper_run):
    return write_report(str(paper_run)).read_text(encoding="utf-8")


def table_rows(page, table_id):
    """{row name: [cell text, ...]} of the table with that id."""
    table = re.search(rf"<table[^>]*id='{table_id}'.*?</table>", page, re.S).group(0)
    return {name: [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for name, row in re.findall(r"<tr data-row='([^']*)'[^>]*>(.*?)</tr>", table, re.S)}


def figure(cell):
    return None if cell == "–" else int(cell.replace(",", ""))


# --- The input text rebuilt from lineage ------------------------------------------------------------

def write_tables(folder, **rows_by_table):
    for name, rows in rows_by_table.items():
        (folder / name).mkdir(parents=True)
        pq.write_table(pa.Table.from_pylist(rows, schema=TABLES[name]), folder / name / "part-00000.parquet")


def edit(sen_id, step, before, after):
    return {"sen_id": sen_id, "video_id": "video1", "step": step, "rule": "r", "before": before, "after": after}


def removed(sen_id, caption, step):
    return {"sen_id": sen_id, "video_id": "video1", "split": "train", "caption": caption, "step": step,
            "reason": "why", "kept_sen_id": None}


def test_input_captions_are_the_text_before_the_earliest_edit(tmp_path):
    write_tables(
        tmp_path,
        captions=[{"video_id": "video1", "sen_id": sen_id, "split": "train", "category": 1, "caption": text}
                  for sen_id, text in [(1, "a man plays the video game"), (2, "never edited"), (3, "cut short")]],
        removed=[removed(4, "the cat", "dedup"),             # edited by spelling before dedup removed it
                 removed(5, "...", "normalize"),             # removed without an edit
                 removed(1, "a second record of 1", "read"),  # a repeated sen_id: not sen_id 1's lineage
                 removed(None, "a record without an id", "read"),
                 removed(6, None, "read")],                  # its caption was not a string
        # Listed out of pipeline order, and in an order alphabetical sorting would get wrong too.
        edits=[edit(1, "spelling", "a man plays the vedio game", "a man plays the video game"),
               edit(1, "normalize", "a man (offscreen) plays the vedio game", "a man plays the vedio game"),
               edit(3, "runon", "cut short here", "cut short"),
               edit(3, "spelling", "cutt short here", "cut short here"),
               edit(4, "spelling", "teh cat", "the cat")],
    )
    rebuilt = input_captions(read_table(tmp_path, "captions"), read_table(tmp_path, "removed"),
                             read_table(tmp_path, "edits"))
    pairs = sorted(((None if pd.isna(sen_id) else int(sen_id), None if pd.isna(text) else text)
                    for sen_id, text in zip(rebuilt["sen_id"], rebuilt["caption"])), key=str)
    assert pairs == sorted([
        (1, "a man (offscreen) plays the vedio game"),
        (2, "never edited"),
        (3, "cutt short here"),
        (4, "teh cat"),
        (5, "..."),
        (1, "a second record of 1"),
        (None, "a record without an id"),
        (6, None),
    ], key=str)


def test_input_captions_of_a_real_run_are_its_input(paper_run):
    rebuilt = input_captions(read_table(paper_run, "captions"), read_table(paper_run, "removed"),
                             read_table(paper_run, "edits"))
    assert sorted(rebuilt["caption"].dropna()) == sorted([
        "a man is playing a guitar", "a man is playing a guitar on stage", "a man (offscreen) plays the vedio game",
        "...", "a woman & her dog walk in the park", "a caption of an unknown video",
        "an ad for at&t with <b>bold</b> text", "a colour film of a cat", "a cat sleeps on a sofa",
        "a cat sleeps on a sofa"])


def test_changed_words_are_marked_and_escaped():
    before, after = highlight_changes("a  <b>vedio</b> game", "a video game")
    assert before == "a <del><span class='space'>␣</span> &lt;b&gt;vedio&lt;/b&gt;</del> game"
    assert after == "a <ins>video</ins> game"


# --- The page -------------------------------------------------------------------------------------

def test_the_report_is_written_into_the_run_folder_by_default(paper_run):
    path = write_report(str(paper_run))
    assert path == paper_run / "report.html" and path.is_file()


def test_report_to_replaces_a_page_capclean_wrote_but_never_a_users_file(paper_run, tmp_path, capsys):
    page = tmp_path / "page.html"
    assert main(["report", str(paper_run), "--output", str(page)]) == 0
    assert main(["report", str(paper_run), "--output", str(page)]) == 0  # its own page: replaced
    mine = tmp_path / "notes.html"
    mine.write_text("<p>my notes</p>")
    capsys.readouterr()
    assert main(["report", str(paper_run), "--output", str(mine)]) == 2
    error = capsys.readouterr().err
    assert "was not written by capclean" in error and error.count("\n") == 1 and mine.read_text() == "<p>my notes</p>"


def test_the_page_embeds_its_plots_as_png(paper_page, start_tags):
    images = [attrs["src"] for tag, attrs in start_tags(paper_page) if tag == "img"]
    embedded = [src for src in images if src.startswith("data:image/png;base64,")]
    assert embedded, "no embedded PNG"
    for src in embedded:
        assert base64.b64decode(src.split(",", 1)[1], validate=True).startswith(PNG_SIGNATURE)


def test_the_page_loads_nothing_from_anywhere(paper_page, start_tags):
    tags = start_tags(paper_page)
    for tag, attrs in tags:
        for name in ("src", "href"):
            assert "http" not in attrs.get(name, "").lower(), (tag, attrs)
    assert not [attrs for tag, attrs in tags if tag == "script"]
    assert not [attrs for tag, attrs in tags if tag == "link"]
    assert "@import" not in paper_page and "url(" not in paper_page


def test_the_step_table_shows_the_figures_of_stats_json(paper_run, paper_page):
    stats = json.loads((paper_run / "stats.json").read_text())
    rows = table_rows(paper_page, "step-figures")
    assert list(rows) == ["read", "normalize", "spelling", "screen", "dedup", "runon"]
    for step, cells in rows.items():
        figures = stats["steps"][step]
        expected = [figures["captions_changed"], figures["captions_removed"], figures["videos_touched"],
                    figures["tokens_changed"]]
        assert [figure(cell) for cell in cells] == expected, step
    # The tiny run does change things, so a table of zeros cannot pass.
    assert figure(rows["spelling"][0]) > 0 and figure(rows["dedup"][1]) > 0


def test_caption_text_is_escaped(paper_page):
    assert "<b>bold" not in paper_page and "at&t" not in paper_page
    assert "&lt;b&gt;bold&lt;/b&gt;" in paper_page  # the input text, in the examples of step I
    assert "at&amp;t" in paper_page


def test_the_page_shows_examples_groups_corrections_and_removals(paper_page):
    assert "<del>(offscreen)</del>" in paper_page          # step I's example, highlighted
    assert "<del>vedio</del>" in paper_page and "<ins>video</ins>" in paper_page
    assert "a man is playing a guitar <ins>on stage</ins> <span class='tag'>kept</span>" in paper_page
    assert re.search(r"<td>colour</td>.*?<td>color</td><td class='num'>1</td>", paper_page)
    assert "video &#x27;video99&#x27; is not in the video table" in paper_page


def test_the_data_docs_link_works_from_wherever_the_report_is(paper_run, tmp_path, start_tags):
    elsewhere = tmp_path / "reports" / "paper.html"
    page = write_report(str(paper_run), report_path=str(elsewhere)).read_text(encoding="utf-8")
    links = [attrs["href"] for tag, attrs in start_tags(page) if tag == "a"]
    assert links and not any(Path(link).is_absolute() for link in links)
    assert (elsewhere.parent / links[0]).resolve() == (paper_run / "validation" / "index.html").resolve()
    assert "passed" in page


def test_a_report_written_while_the_run_is_staged_names_its_final_folder(paper_run, tmp_path):
    staged = tmp_path / ".final.partial-123-0a1b2c3d"  # where `capclean clean` has the run when it writes the report
    shutil.copytree(paper_run, staged)
    page = write_report(str(staged), shown_as=str(tmp_path / "final")).read_text()
    assert f"<code>{tmp_path / 'final'}</code>" in page and "partial" not in page


def test_the_report_of_a_run_is_the_same_bytes_every_time(tmp_path, tiny_dataset):
    source = tiny_dataset(tmp_path / "in")
    pages = []
    for _ in range(2):
        assert main(["clean", "--input", str(source), "--output", str(tmp_path / "out"), "--overwrite"]) == 0
        pages.append((tmp_path / "out" / "report.html").read_bytes())
    assert pages[0] == pages[1] and str(tmp_path / "out").encode() in pages[0]


def test_two_runs_side_by_side(paper_run, normalize_only_run, tmp_path):
    page = write_report(str(paper_run), str(normalize_only_run), str(tmp_path / "both.html")).read_text()
    headers = re.findall(r"<th class='num run'>([^<]*)</th>", page)
    assert headers[:2] == ["paper", "default"]
    rows = table_rows(page, "step-figures")
    stats = json.loads((normalize_only_run / "stats.json").read_text())
    # Each cell pair is (paper, default); the default run did step I only.
    assert figure(rows["normalize"][1]) == stats["steps"]["normalize"]["captions_changed"]
    assert rows["spelling"][1] == "–" and figure(rows["spelling"][0]) > 0
    assert "No spelling corrections in this run." in page  # its corrections/ table is empty


def test_a_run_whose_stats_lack_steps(paper_run, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(paper_run, run)
    stats = json.loads((run / "stats.json").read_text())
    del stats["steps"]["runon"], stats["steps"]["spelling"]
    (run / "stats.json").write_text(json.dumps(stats))
    rows = table_rows(write_report(str(run)).read_text(), "step-figures")
    assert rows["runon"] == ["–"] * 4 and figure(rows["normalize"][0]) == stats["steps"]["normalize"]["captions_changed"]


def test_the_same_run_gives_the_same_page(paper_run, tmp_path):
    first = write_report(str(paper_run), report_path=str(tmp_path / "one.html")).read_bytes()
    second = write_report(str(paper_run), report_path=str(tmp_path / "two.html")).read_bytes()
    assert first == second


def test_the_spelling_section_gives_the_captions_each_recheck_round_changed_in_round_order():
    rounds = {f"round_{n}": count for n, count in ((10, 0), (2, 3), (1, 51))}
    stats = {"steps_run": ["spelling"], "steps": {"spelling": {"recheck_captions_changed": rounds}}}
    run = Run(Path("."), stats, *(pd.DataFrame() for _ in range(4)), None, label="default")
    assert recheck_note([run]).endswith("captions changed by round 1: 51, round 2: 3, round 10: 0.</p>")
    assert recheck_note([Run(Path("."), {"steps_run": ["spelling"]}, *(pd.DataFrame() for _ in range(4)),
                             None)]) == ""


# --- Near-duplicates, flagged tokens, vocabulary, British spellings, figures, validation ------------

def test_near_duplicate_examples_spread_over_the_range_nearest_the_threshold_first():
    # Exact copies outnumber the rest, as on MSR-VTT: a sample by id alone would show only them.
    similarities = [1.0] * 30 + [0.99, 0.95, 0.9, 0.86]
    dups = pd.DataFrame({"sen_id": range(len(similarities)), "similarity": similarities})
    shown = spread_examples(dups, threshold=0.85, size=5)
    assert shown["similarity"].tolist() == [0.86, 0.9, 0.95, 0.99, 1.0]
    # The same rows every time, and never one twice.
    assert shown["sen_id"].tolist() == spread_examples(dups, 0.85, 5)["sen_id"].tolist()
    assert spread_examples(dups, 0.85, 40)["sen_id"].is_unique


def test_the_page_orders_near_duplicates_by_similarity(paper_page):
    table = re.search(r"<table class='groups' id='near-duplicates'>.*?</table>", paper_page, re.S).group(0)
    rows = re.findall(r"<td class='num sim'>([^<]*)</td><td class='id'>(\d+)<br>(\d+)</td>", table)
    # sen_id 0 opened its group, so it is shown with the caption kept (1) and the similarity of that pair, which
    # step III recorded: (6/6 + 6/8) / 2, marked.
    # By the SHA-1 of sen_id alone, 10 would come first.
    assert rows == [("0.875*", "0", "1"), ("1.000", "10", "9")]
    assert "(threshold s = 0.85)" in paper_page


def near_duplicate(sen_id, caption, compared, similarity):
    """A removed/ row of step III whose reason names no figure: the page must take them from the columns."""
    return {**removed(sen_id, caption, "dedup"), "kept_sen_id": 2, "opener_sen_id": 0, "compared_sen_id": compared,
            "similarity": similarity, "edit_threshold": 0, "similarity_threshold": 0.8, "dedup_pass": 1}


def test_near_duplicates_are_read_from_the_columns_step_three_wrote(tmp_path):
    kept = {"video_id": "video1", "sen_id": 2, "split": "train", "category": 1, "caption": "a man plays a red guitar"}
    write_tables(tmp_path, captions=[kept], removed=[near_duplicate(0, "a man plays a guitar", 2, 0.8875),
                                                     near_duplicate(1, "a man plays guitar", 0, 0.9)])
    run = Run(tmp_path, {}, *(read_table(tmp_path, name) for name in ("captions", "removed", "edits", "corrections")),
              None)
    dups = near_duplicates(run).set_index("sen_id")
    assert dups["other_id"].tolist() == [2, 0] and dups["other"].tolist() == [kept["caption"], "a man plays a guitar"]
    assert dups["kept"].tolist() == [True, False] and dups["opened"].tolist() == [True, False]
    # Rounded as the reasons write it (numpy's round would give 0.888).
    assert dups["similarity"].tolist() == [0.887, 0.9]
    assert dedup_threshold(run) == 0.8


def test_a_run_written_before_the_typed_columns_says_so_instead_of_empty_bands(paper_run, tmp_path):
    run = shutil.copytree(paper_run, tmp_path / "run")
    for file in (run / "removed").glob("*.parquet"):  # removed/ as an earlier capclean wrote it
        table = pq.read_table(file)
        pq.write_table(table.select([name for name in table.column_names if name in EARLIER_REMOVED_COLUMNS]), file)
    page = write_report(str(run)).read_text()
    assert "does not record step III's similarities" in page and "id='similarity-bands'" not in page


EARLIER_REMOVED_COLUMNS = ("sen_id", "video_id", "split", "caption", "step", "reason", "kept_sen_id")


def flagged_run(flagged_rows, captions):
    captions_frame = pd.DataFrame([{"video_id": "video1", "sen_id": sen_id, "split": "train", "category": 1,
                                    "caption": text} for sen_id, text in captions])
    empty = {name: pa.Table.from_pylist([], schema=TABLES[name]).to_pandas() for name in TABLES}
    return Run(Path("."), {"steps_run": ["spelling"]}, captions_frame, empty["removed"], empty["edits"],
               empty["corrections"], None, label="default", flagged=pd.DataFrame(flagged_rows))


def flag(sen_id, token, reason="no close word in the corpus", candidate=None):
    return {"sen_id": sen_id, "position": 1, "token": token, "reason": reason, "candidate": candidate}


def test_the_flagged_section_lists_the_most_frequent_tokens_escaped():
    run = flagged_run(
        [flag(1, "x<y", candidate="xy"), flag(2, "x<y", candidate="xy"), flag(3, "x<y", "short", None),
         flag(2, "zz&", candidate="<z>")],
        [(1, "a x<y here"), (2, "the x<y and zz& <b>"), (3, "x<y")])
    page = flagged_section([run])
    assert "<h2>Flagged tokens</h2>" in page and "4 tokens flagged, 2 distinct" in page
    rows = re.findall(r"<tr><td><code>(.*?)</code></td><td class='num'>(\d+)</td><td>(.*?)</td>", page)
    assert rows == [("x&lt;y", "3", "xy"), ("zz&amp;", "1", "&lt;z&gt;")]
    assert "<mark>x&lt;y</mark>" in page and "<mark>zz&amp;</mark> &lt;b&gt;" in page
    assert "x<y" not in page and "<b>" not in page and "<z>" not in page


def test_vocabulary_before_and_after_on_the_tiny_run(paper_page):
    # Before: the input captions as written (report_dataset), the one of the unknown video in the
    # total only; after: captions/ of the paper profile (colour -> color, vedio -> video, ...).
    rows = table_rows(paper_page, "vocabulary")
    assert {split: [figure(cell) for cell in cells] for split, cells in rows.items()} == {
        "test": [17, 17, 0], "train": [18, 17, -1], "total": [36, 32, -4]}
    per_video = table_rows(paper_page, "captions-per-video")
    assert {count: [figure(cells[0]), figure(cells[2])] for count, cells in per_video.items()} == {
        "2": [1, 3], "3": [1, 0], "4": [1, 0]}


def test_the_british_list_shows_british_spellings_only(paper_page):
    british = re.search(r"<caption>british: .*?</table>", paper_page, re.S).group(0)
    assert re.search(r"<td>colour</td>.*?<td>color</td>", british, re.S)
    assert "vedio" not in british
    others = re.search(rf"<caption>{NOT_BRITISH}: .*?</table>", paper_page, re.S).group(0)
    assert re.search(r"<td>vedio</td>.*?<td>video</td>", others, re.S)


@pytest.mark.parametrize("original, replacement, british", [
    ("colour", "color", True), ("travelling", "traveling", True), ("theatres", "theaters", True),
    ("organisation", "organization", True), ("practising", "practicing", True), ("grey", "gray", True),
    ("vedio", "video", False), ("swiming", "swimming", False), ("untill", "until", False),
    ("fastly", "fast", False), ("leechman", "leachman", False),
])
def test_british_spellings_are_told_from_typos(original, replacement, british):
    assert is_british_spelling(original, replacement) is british


def test_the_other_figures_are_named(paper_run, paper_page):
    rows = table_rows(paper_page, "other-figures")
    stats = json.loads((paper_run / "stats.json").read_text())
    assert figure(rows["dedup: words in the captions it removed"][0]) == stats["steps"]["dedup"]["tokens_removed"] > 0
    assert not [name for name in rows if "_" in name.split(": ", 1)[1]], list(rows)


def test_the_validation_section_lists_every_expectation(paper_run, paper_page):
    records = json.loads((paper_run / "validation" / "result.json").read_text())["expectations"]
    assert len(records) > 50
    section = paper_page[paper_page.index("<h2>Validation</h2>"):]
    assert section.count("<span class=pass>passed</span>") == len(records)
    assert "<code>expect_column_values_to_be_unique(sen_id)</code>" in section


def test_the_report_and_the_data_docs_load_nothing_from_the_network(paper_run, paper_page, network_loads):
    pages = sorted((paper_run / "validation").rglob("*.html"))
    assert len(pages) > 10  # the index, and GX's page of each suite and of each result
    for page in [paper_run / "report.html", *pages]:
        assert network_loads(page.read_text(encoding="utf-8")) == [], page
    assert network_loads(paper_page) == []


def test_vocabulary_and_word_counts_are_the_same_in_chunks(monkeypatch):
    from pipelines.cleaning.report import captions as report_captions

    texts = pd.Series(["a man plays", None, "A man, singing!", "x  y\tz", "the end"], dtype="str")
    whole = (report_captions.vocabulary(texts), report_captions.word_counts(texts).tolist())
    monkeypatch.setattr(report_captions, "CHUNK_ROWS", 2)
    assert (report_captions.vocabulary(texts), report_captions.word_counts(texts).tolist()) == whole
    assert whole == ({"a", "man", "plays", "singing", "x", "y", "z", "the", "end"}, [3, 3, 3, 2])
    assert report_captions.word_counts(texts.iloc[:0]).tolist() == []
