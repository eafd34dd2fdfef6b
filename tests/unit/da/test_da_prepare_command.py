"""`capclean da prepare` end to end on small inputs: a systems table beside human captions (with a hostile
caption that must reach every export as the same plain text), raw against cleaned captions of a run, the same
bytes twice, and its errors: one line, exit code 2, nothing written."""
import base64
import csv
import io
import json
import re
import xml.etree.ElementTree as ElementTree

import pyarrow.parquet as pq
import pytest

from pipelines.cli import main
from schemas.evaluation_tables import DA_DEGRADED, DA_HITS

HOSTILE = 'a man says <script>window.pwned = 1</script> "hi" & \'bye\', then\nleaves ${hit_data} ${x} </p>\u2028'
RECIPE = ["--items-per-hit", "20", "--degraded-per-hit", "2", "--repeats-per-hit", "2", "--references-per-hit", "2",
          "--blocks-per-hit", "2"]
VIDEOS = [{"video_id": f"video{7010 + n}", "split": "test", "category": 1} for n in range(12)]
HUMAN = [{"sen_id": 4 * n + k, "video_id": f"video{7010 + n}",
          "caption": f"{['a', 'the', 'one', 'some'][k]} person number {n} is doing thing {k} in a room"}
         for n in range(12) for k in range(4)]


@pytest.fixture(scope="module")
def human(tmp_path_factory, write_annotations):
    return write_annotations(tmp_path_factory.mktemp("human") / "raw", VIDEOS, HUMAN)


def systems_rows() -> list:
    rows = [(f"video{7010 + n}", system, f"{system} sees a person {n} doing something here")
            for n in range(12) for system in ("model_a", "model_b")]
    rows[0] = (rows[0][0], rows[0][1], HOSTILE)
    return rows


@pytest.fixture(scope="module")
def systems(tmp_path_factory):
    path = tmp_path_factory.mktemp("systems") / "systems.csv"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([("video_id", "system", "caption"), *systems_rows()])
    return path


@pytest.fixture(scope="module")
def prepared(human, systems, tmp_path_factory):
    out = tmp_path_factory.mktemp("da") / "out"
    assert main(["da", "prepare", "--input", str(human), "--systems", str(systems), "--output", str(out),
                 "--video-url", "https://videos.example/{video_id}.mp4", *RECIPE]) == 0
    return out


def hits_rows(out) -> list:
    return pq.read_table(out / "hits").to_pylist()


def test_the_tables_have_their_schemas_and_the_systems_captions(prepared):
    assert pq.read_schema(prepared / "hits" / "part-00000.parquet").remove_metadata().equals(DA_HITS)
    assert pq.read_schema(prepared / "degraded" / "part-00000.parquet").remove_metadata().equals(DA_DEGRADED)
    rows = hits_rows(prepared)
    assert {row["hit_id"] for row in rows} == {"hit-0001", "hit-0002"}  # 24 items, 16 a HIT
    system_rows = [row for row in rows if row["kind"] == "system"]
    assert {(row["video_id"], row["system"], row["caption"]) for row in system_rows} == set(systems_rows())
    assert all(row["sen_id"] is None for row in system_rows)
    assert {row["item_id"] for row in system_rows} >= {"model_a:video7010", "model_b:video7021"}
    references = [row for row in rows if row["kind"] == "reference"]
    human_text = {(row["sen_id"], row["video_id"]): row["caption"] for row in HUMAN}
    assert references and all(human_text[(row["sen_id"], row["video_id"])] == row["caption"] for row in references)
    stats = json.loads((prepared / "stats.json").read_text())
    assert stats["judged"]["items_per_system"] == {"model_a": 12, "model_b": 12}
    assert stats["hits"]["min_degraded_pairs"] == 2 and stats["hits"]["hits"] == 2
    # The hostile caption shares no word with its video's human captions: no copy of it can be worse.
    assert stats["degraded"]["items_without_damaging_copy"] == 1 and stats["degraded"]["items_too_short"] == 0
    assert "model_a:video7010#degraded" not in {row["item_id"] for row in rows}


def placeholders(template: str) -> list:
    return sorted(set(re.findall(r"\$\{(\w+)\}", template)))


def test_the_mturk_batch_columns_are_the_templates_placeholders_and_carry_every_caption(prepared):
    template = (prepared / "mturk" / "template.html").read_text()
    batch = (prepared / "mturk" / "batch.csv").read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(batch)))
    assert placeholders(template) == sorted(rows[0]) == ["hit_data", "hit_id"]
    assert HOSTILE not in batch and "<script>" not in batch  # carried encoded
    assert re.findall(r'name="(score_\d+)"', template) == [f"score_{slot}" for slot in range(1, 21)]
    shown = {}
    for row in rows:
        decoded = json.loads(base64.b64decode(row["hit_data"]).decode("utf-8"))
        assert decoded["hit_id"] == row["hit_id"]
        shown[row["hit_id"]] = [(item["slot"], item["caption"], item["video_url"]) for item in decoded["slots"]]
    expected = {}
    for row in hits_rows(prepared):
        expected.setdefault(row["hit_id"], []).append(
            (row["slot"], row["caption"], f"https://videos.example/{row['video_id']}.mp4"))
    assert shown == expected
    assert any(caption == HOSTILE for slots in shown.values() for _, caption, _ in slots)


def test_the_label_studio_tasks_data_keys_are_the_configs_variables(prepared):
    config = (prepared / "labelstudio" / "config.xml").read_text()
    variables = {value[1:] for element in ElementTree.fromstring(config).iter()
                 for value in element.attrib.values() if value.startswith("$")}
    tasks = json.loads((prepared / "labelstudio" / "tasks.json").read_text(encoding="utf-8"))
    assert all(set(task["data"]) == variables for task in tasks)
    assert len(tasks) == 40
    caption_tags = [element.tag for element in ElementTree.fromstring(config).iter()
                    if element.attrib.get("value") == "$caption"]
    assert caption_tags == ["Text"]  # text, never HyperText
    assert HOSTILE in [task["data"]["caption"] for task in tasks]
    score = next(element for element in ElementTree.fromstring(config).iter() if element.tag == "Number")
    assert (score.get("name"), score.get("min"), score.get("max")) == ("score", "0", "100")


def test_the_rating_page_embeds_the_hits_as_safe_json(prepared):
    page = (prepared / "rating.html").read_text(encoding="utf-8")
    embedded = re.search(r'<script type="application/json" id="da-data">(.*?)</script>', page, re.S).group(1)
    assert not set(embedded) & {"<", ">", "&", "\u2028", "\u2029"}
    data = json.loads(embedded)
    assert HOSTILE in [item["caption"] for hit in data["hits"] for item in hit["slots"]]
    assert "window.pwned" not in page.replace(embedded, "")
    assert ".innerHTML" not in page and "textContent = item.caption" in page
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)  # loads nothing itself


def test_the_kinds_are_not_in_what_workers_get(prepared):
    for name in ("rating.html", "mturk/batch.csv", "labelstudio/tasks.json"):
        text = (prepared / name).read_text(encoding="utf-8")
        assert "degraded" not in text and "repeat" not in text and "reference" not in text


def test_the_same_input_gives_the_same_bytes(prepared, human, systems, tmp_path):
    again = tmp_path / "again"
    assert main(["da", "prepare", "--input", str(human), "--systems", str(systems), "--output", str(again),
                 "--video-url", "https://videos.example/{video_id}.mp4", *RECIPE]) == 0
    for path in sorted(prepared.rglob("*")):
        if path.is_file() and path.name != "manifest.json":
            assert (again / path.relative_to(prepared)).read_bytes() == path.read_bytes(), path.name


def test_raw_against_cleaned_judges_the_captions_the_cleaning_changed(tmp_path, write_annotations, capsys):
    captions = [dict(row) for row in HUMAN]
    for row in captions[::3]:
        row["caption"] = row["caption"].replace(" in a room", " in a room & a hall")
    raw = write_annotations(tmp_path / "raw", VIDEOS, captions)
    run = tmp_path / "run"
    assert main(["clean", "--input", str(raw), "--output", str(run), "--steps", "normalize"]) == 0
    out = tmp_path / "out"
    assert main(["da", "prepare", "--input", str(run), "--output", str(out), *RECIPE]) == 0
    rows = hits_rows(out)
    changed = {row["sen_id"]: row["caption"] for row in captions[::3]}
    judged = {(row["system"], row["sen_id"]): row["caption"] for row in rows if row["kind"] == "system"}
    assert {sen_id for _, sen_id in judged} == set(changed)  # only what the cleaning changed
    for (system, sen_id), text in judged.items():
        assert text == (changed[sen_id] if system == "raw" else changed[sen_id].replace("&", "and"))
    references = {row["sen_id"] for row in rows if row["kind"] == "reference"}
    assert references and not references & set(changed)  # a reference is a caption not judged
    stats = json.loads((out / "stats.json").read_text())
    assert stats["judged"]["changed_by_cleaning"] == 16 and stats["settings"]["raw"] == str(raw.resolve())
    assert "items to judge: raw 16, cleaned 16" in capsys.readouterr().out


def write_systems(path, header, rows):
    with open(path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([header, *rows])
    return path


@pytest.mark.parametrize("header, rows, message", [
    (("video_id", "model", "caption"), [("video7010", "a", "a cat")], "no column system"),
    (("video_id", "system", "caption"), [("video7010", "a", "a cat"), ("video7011", "a", " ")],
     "line 3: caption is empty"),
    (("video_id", "system", "caption"), [("video7010", "reference", "a cat")], "line 2: the system name 'reference'"),
    (("video_id", "system", "caption"), [("video1", "a", "a cat")], "none of its videos has a human caption"),
])
def test_a_bad_systems_table_is_one_line_naming_the_file(human, tmp_path, capsys, header, rows, message):
    systems = write_systems(tmp_path / "systems.csv", header, rows)
    out = tmp_path / "out"
    assert main(["da", "prepare", "--input", str(human), "--systems", str(systems), "--output", str(out)]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and message in error and str(systems) in error
    assert not out.exists()


@pytest.mark.parametrize("flags, message", [
    (["--video-url", "https://host/video.mp4"], "{video_id} once"),
    (["--span-lengths", "3:1,5+:2"], "without gap"),
    (["--items-per-hit", "99"], "equal size"),
    (["--raw", "nowhere"], "--raw nowhere: no such file"),
])
def test_a_bad_flag_value_is_one_line(human, systems, tmp_path, capsys, flags, message):
    out = tmp_path / "out"
    argv = ["da", "prepare", "--input", str(human), "--output", str(out)]
    argv += [] if "--raw" in flags else ["--systems", str(systems)]
    assert main(argv + flags) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and message in error
    assert not out.exists()


def test_raw_annotations_alone_are_not_a_run(human, tmp_path, capsys):
    assert main(["da", "prepare", "--input", str(human), "--output", str(tmp_path / "out")]) == 2
    assert "is not a capclean output (no captions/)" in capsys.readouterr().err


@pytest.fixture(scope="module")
def small_run(tmp_path_factory, write_annotations):
    """A clean run (step I) of HUMAN, whose raw input is then moved away."""
    folder = tmp_path_factory.mktemp("small-run")
    raw = write_annotations(folder / "raw", VIDEOS, HUMAN)
    run = folder / "run"
    assert main(["clean", "--input", str(raw), "--output", str(run), "--steps", "normalize"]) == 0
    moved = raw.rename(folder / "moved")
    return run, moved


def test_all_captions_keeps_one_caption_of_each_video_out_as_its_reference(small_run, tmp_path):
    run, moved = small_run
    out = tmp_path / "out"
    assert main(["da", "prepare", "--input", str(run), "--raw", str(moved), "--output", str(out), "--all-captions",
                 *RECIPE]) == 0
    rows = hits_rows(out)
    judged = {row["sen_id"] for row in rows if row["kind"] == "system"}
    references = {row["sen_id"] for row in rows if row["kind"] == "reference"}
    assert len(judged) == 12 * 3  # of each video's 4 captions, one is kept out
    assert not judged & references
    kept_out = {row["sen_id"] for row in HUMAN} - judged
    assert {row["video_id"] for row in HUMAN if row["sen_id"] in kept_out} == {video["video_id"] for video in VIDEOS}
    assert references <= kept_out


def test_a_run_whose_raw_input_moved_asks_for_raw(small_run, tmp_path, capsys):
    run, _ = small_run
    assert main(["da", "prepare", "--input", str(run), "--output", str(tmp_path / "out"), *RECIPE]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "no longer exists; give it with --raw" in error
