"""The review loop end to end on a small input: the vocab table, a verdict written in it, the reviewed list,
and a default clean with it (docs/steps/spelling.md, "Reviewing step II")."""
import csv
import json

import pyarrow.parquet as pq

from pipelines.cli import main

CAPTIONS = {
    1: ["a man plays batminton with a friend", "two men play batminton in a hall", "a man is playing a sport"],
    2: ["a priest speaks at the saraswati temple", "people pray at saraswati temple", "a temple with a crowd"],
}


def write_input(folder):
    folder.mkdir()
    sen_ids = iter(range(100))
    document = {
        "info": {"contributor": "capclean tests"},
        "videos": [{"category": 3, "url": "", "video_id": f"video{number}", "start time": 0, "end time": 10,
                    "split": "train", "id": number} for number in CAPTIONS],
        "sentences": [{"caption": caption, "video_id": f"video{number}", "sen_id": next(sen_ids)}
                      for number, captions in CAPTIONS.items() for caption in captions],
    }
    (folder / "videodatainfo.json").write_text(json.dumps(document))
    return folder


def review(vocab_table, reviewed_table, verdicts: dict):
    """A person's review: `verdicts` {token: (verdict, correct_to)} written in the vocab table's columns."""
    with open(vocab_table, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    for row in rows:
        row["verdict"], row["correct_to"] = verdicts.get(row["token"], ("", ""))
    with open(reviewed_table, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), delimiter="\t")
        writer.writeheader()
        writer.writerows(rows)
    return {row["token"]: row for row in rows}


def test_a_reviewed_table_becomes_a_list_that_a_later_clean_applies(tmp_path, capsys):
    source = write_input(tmp_path / "in")
    assert main(["vocab", "--input", str(source), "--output", str(tmp_path / "vocab.tsv")]) == 0
    rows = review(tmp_path / "vocab.tsv", tmp_path / "reviewed.tsv",
                  {"batminton": ("fix", "badminton"), "saraswati": ("keep", "")})
    assert rows["saraswati"]["decision"] == "flag"  # what the keep verdict will change
    before = tmp_path / "before"
    assert main(["clean", "--input", str(source), "--output", str(before), "-q"]) == 0
    flagged = {row["token"]: row for row in pq.read_table(before / "flagged").to_pylist()}
    assert (flagged["saraswati"]["flagged_by"], flagged["saraswati"]["token_count"],
            flagged["saraswati"]["token_videos"]) == ("corpus", 2, 1)

    listed = tmp_path / "lists" / "reviewed.txt"
    assert main(["vocab", "--reviewed", str(tmp_path / "reviewed.tsv"), "--output", str(listed)]) == 0
    assert "1 corrections and 1 kept words" in capsys.readouterr().out
    assert listed.read_text().splitlines()[1:] == ["batminton -> badminton", "saraswati -> saraswati"]
    config = tmp_path / "reviewed.yaml"
    config.write_text(f"spelling:\n  reviewed: [{listed}]\n")

    output = tmp_path / "out"
    assert main(["clean", "--input", str(source), "--output", str(output), "--config", str(config), "-q"]) == 0
    corrections = pq.read_table(output / "corrections").to_pylist()
    reviewed = [(row["sen_id"], row["original"], row["replacement"]) for row in corrections if row["rule"] == "reviewed"]
    assert reviewed == [(0, "batminton", "badminton"), (1, "batminton", "badminton")]
    captions = {row["sen_id"]: row["caption"] for row in pq.read_table(output / "captions").to_pylist()}
    assert captions[0] == "a man plays badminton with a friend"
    assert "saraswati" not in {row["token"] for row in pq.read_table(output / "flagged").to_pylist()}
    assert captions[3] == "a priest speaks at the saraswati temple"
    manifest = json.loads((output / "manifest.json").read_text())
    assert manifest["config"]["spelling"]["reviewed"] == [str(listed)]


def test_a_bad_verdict_is_one_line_naming_the_row_and_nothing_is_written(tmp_path, capsys):
    source = write_input(tmp_path / "in")
    assert main(["vocab", "--input", str(source), "--output", str(tmp_path / "vocab.tsv")]) == 0
    review(tmp_path / "vocab.tsv", tmp_path / "reviewed.tsv", {"batminton": ("fix", "")})
    capsys.readouterr()
    assert main(["vocab", "--reviewed", str(tmp_path / "reviewed.tsv"), "--output", str(tmp_path / "list.txt")]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and f"{tmp_path / 'reviewed.tsv'}, line " in error
    assert "fix without a replacement" in error and not (tmp_path / "list.txt").exists()
    # The output is never a user's file, nor the table itself.
    (tmp_path / "mine.txt").write_text("my notes\n")
    assert main(["vocab", "--reviewed", str(tmp_path / "reviewed.tsv"), "--output", str(tmp_path / "mine.txt")]) == 2
    assert (tmp_path / "mine.txt").read_text() == "my notes\n"
