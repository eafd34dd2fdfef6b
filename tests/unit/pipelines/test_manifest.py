"""The run manifest (manifest.json), the provenance in the Parquet files, --version, export without --input, --limit."""
import hashlib
import json
import re
import shutil

import pyarrow.parquet as pq
import pytest

from pipelines.cli import main
from pipelines.config import load_config
from pipelines.output.manifest import PARQUET_KEY, config_dict, without_times
from schemas.tables import TABLES


def read_json(path):
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def second_run(tmp_path_factory, small_msrvtt_run):
    """A second paper-profile run of the same input as small_msrvtt_run, into another folder."""
    source, _ = small_msrvtt_run
    output = tmp_path_factory.mktemp("second") / "out"
    assert main(["clean", "--input", str(source), "--output", str(output), "--profile", "paper"]) == 0
    return output


def test_two_runs_give_the_same_manifest_but_for_its_times(small_msrvtt_run, second_run):
    source, first = small_msrvtt_run
    one, two = read_json(first / "manifest.json"), read_json(second_run / "manifest.json")
    assert without_times(one) == without_times(two)
    assert set(one["times"]) >= {"started", "ended", "wall_seconds", "phases_seconds", "busy_seconds"}
    assert one["times"]["phases_seconds"]["pipeline"] > 0
    # What the manifest holds, not only that it is the same twice.
    assert one["command"] == "clean" and one["profile"] == "paper" and one["partial"] is False
    assert one["config"] == config_dict(load_config("paper"))
    assert one["stats"] == read_json(first / "stats.json")
    assert one["input"]["path"] == str(source.resolve())
    assert {entry["name"]: entry["sha256"] for entry in one["input"]["files"]} == {
        path.name: hashlib.sha256(path.read_bytes()).hexdigest() for path in source.glob("*.json")}
    assert re.fullmatch(r"\d+\.\d+\.\d+\S*", one["capclean"]["version"])
    # Neither output folder (nor a staging folder beside it) is named.
    text = (first / "manifest.json").read_text()
    assert str(first) not in text and ".partial-" not in text


def test_every_parquet_file_carries_the_provenance_and_the_same_columns(small_msrvtt_run):
    _, output = small_msrvtt_run
    manifest = read_json(output / "manifest.json")
    files = sorted(output.glob("*/*.parquet"))
    assert {path.parent.name for path in files} == set(TABLES)
    for path in files:
        schema = pq.read_schema(path)
        provenance = json.loads(schema.metadata[PARQUET_KEY])
        assert provenance["version"] == manifest["capclean"]["version"]
        assert provenance["commit"] == manifest["capclean"]["commit"]
        assert provenance["profile"] == "paper" and provenance["partial"] is False
        assert provenance["config_sha256"] == manifest["config_sha256"]
        assert provenance["input_sha256"] == {entry["name"]: entry["sha256"] for entry in manifest["input"]["files"]}
        assert schema.remove_metadata().equals(TABLES[path.parent.name].remove_metadata())


def test_export_reads_the_input_from_the_manifest(small_msrvtt_run, second_run, capsys):
    source, _ = small_msrvtt_run
    assert main(["export", str(second_run), "--formats", "msrvtt-json"]) == 0
    document = read_json(second_run / "exports" / "msrvtt_videodatainfo.json")
    originals = [video for path in sorted(source.glob("*.json")) for video in read_json(path)["videos"]]
    assert document["videos"] == originals


def test_export_refuses_a_changed_or_missing_input_in_one_line(tmp_path, small_msrvtt_run, capsys):
    source, output = small_msrvtt_run
    copy_in, copy_out = tmp_path / "in", tmp_path / "out"
    shutil.copytree(source, copy_in)
    shutil.copytree(output, copy_out)
    manifest = read_json(copy_out / "manifest.json")
    manifest["input"]["path"] = str(copy_in)
    (copy_out / "manifest.json").write_text(json.dumps(manifest))
    assert main(["export", str(copy_out), "--formats", "msrvtt-json"]) == 0  # the copy is the same input
    capsys.readouterr()

    changed = copy_in / "b_test_videodatainfo.json"
    changed.write_text(changed.read_text().replace("a cat sleeps", "a dog sleeps"))
    assert main(["export", str(copy_out), "--formats", "msrvtt-json"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "has changed since the run" in err[0] and str(changed) in err[0]
    # --input still overrides the manifest.
    assert main(["export", str(copy_out), "--formats", "msrvtt-json", "--input", str(source)]) == 0
    capsys.readouterr()

    shutil.rmtree(copy_in)
    assert main(["export", str(copy_out), "--formats", "msrvtt-json"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no longer exists" in err[0]

    (copy_out / "manifest.json").unlink()
    assert main(["export", str(copy_out), "--formats", "msrvtt-json"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "has no manifest.json" in err[0]
    assert main(["export", str(copy_out), "--formats", "coco"]) == 0  # coco needs no input


@pytest.mark.parametrize("argv", [["--version"], ["clean", "--version"]])
def test_version_is_one_line_with_setup_pys_version(argv, capsys, repo):
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 0
    out = capsys.readouterr().out.splitlines()
    version = re.search(r'version="([^"]+)"', (repo / "setup.py").read_text()).group(1)
    assert len(out) == 1 and re.fullmatch(rf"capclean {re.escape(version)}( \(commit [0-9a-f]{{12}}\))?", out[0])


def test_limit_keeps_the_first_videos_in_natural_order_and_marks_the_output_partial(tmp_path, write_annotations):
    # Text order would take video10, video100 and video2; natural order takes video2, video9, video10.
    numbers = [10, 100, 9, 2, 7010]
    videos = [{"video_id": f"video{n}", "split": "test" if n >= 7010 else "train", "category": 1} for n in numbers]
    sentences = [{"sen_id": index * 10 + k, "video_id": f"video{n}", "caption": f"a person number {k} walks"}
                 for index, n in enumerate(numbers) for k in range(2)]
    source = write_annotations(tmp_path / "in", videos, sentences)
    output = tmp_path / "out"
    assert main(["clean", "--input", str(source), "--output", str(output), "--profile", "paper",
                 "--limit", "3"]) == 0  # validation passes on the partial output
    kept = set(pq.read_table(output / "captions")["video_id"].to_pylist())
    removed = set(pq.read_table(output / "removed")["video_id"].to_pylist())
    assert kept | removed == {"video2", "video9", "video10"} and kept
    stats = read_json(output / "stats.json")
    assert stats["partial"] is True and stats["limit"] == {"videos": 3, "videos_in_input": 5}
    assert stats["input"]["captions"] == 6
    manifest = read_json(output / "manifest.json")
    assert manifest["partial"] is True and manifest["limit"] == 3
    assert "partial output: the first 3 of 5 videos" in (output / "report.html").read_text()
    assert json.loads(pq.read_schema(next((output / "captions").glob("*.parquet"))).metadata[PARQUET_KEY])[
        "partial"] is True


def test_a_run_without_limit_is_not_partial_and_its_report_names_the_version(small_msrvtt_run):
    _, output = small_msrvtt_run
    stats = read_json(output / "stats.json")
    assert stats["partial"] is False and stats["limit"] is None
    made = read_json(output / "manifest.json")["capclean"]
    page = (output / "report.html").read_text()
    assert f"capclean {made['version']}" in page and "all the input&#x27;s videos" in page


def test_limit_must_be_positive(tmp_path, tiny_dataset, capsys):
    assert main(["clean", "--input", str(tiny_dataset(tmp_path / "in")), "--output", str(tmp_path / "out"),
                 "--limit", "0"]) == 2
    assert capsys.readouterr().err.strip() == "capclean: error: --limit must be at least 1, not 0"


def test_hardneg_records_the_manifest_of_the_run_it_reads(small_msrvtt_run, tmp_path):
    source, run = small_msrvtt_run
    output = tmp_path / "negatives"
    assert main(["hardneg", "--input", str(run), "--output", str(output), "--k", "2"]) == 0
    manifest = read_json(output / "manifest.json")
    cleaned = read_json(run / "manifest.json")
    assert manifest["command"] == "hardneg" and manifest["partial"] is False
    assert manifest["input"] == {"path": str(run.resolve()), "kind": "capclean output"}
    assert manifest["source_run"]["config_sha256"] == cleaned["config_sha256"]
    assert manifest["source_run"]["input"] == cleaned["input"] and manifest["source_run"]["profile"] == "paper"
    assert manifest["settings"]["k"] == 2 and manifest["settings"]["split"] == "test"
    assert manifest["stats"] == read_json(output / "stats.json")


def test_sweep_with_a_limit_writes_a_partial_manifest(tmp_path, small_msrvtt):
    source = small_msrvtt.write(tmp_path / "in")
    output = tmp_path / "sweep"
    assert main(["sweep", "--input", str(source), "--output", str(output), "--profile", "paper",
                 "--grid", "0:1.0", "--limit", "2"]) == 0
    manifest = read_json(output / "manifest.json")
    assert manifest["command"] == "sweep" and manifest["partial"] is True and manifest["limit"] == 2
    assert manifest["settings"] == {"grid": [[0, 1.0]]}
    rows = read_json(output / "sweep.json")
    assert manifest["stats"] == {"sweep": rows}
    # video1 and video2 only: 5 captions, none removed at s = 1.0.
    assert rows[0]["remaining"] == 5


def test_outside_a_git_checkout_the_commit_is_null_not_an_error(tmp_path, repo):
    from pipelines.output.manifest import git_commit

    assert git_commit.__wrapped__(tmp_path) == {"commit": None, "modified": None}
    (tmp_path / ".git").mkdir()  # a broken checkout: git itself fails
    assert git_commit.__wrapped__(tmp_path) == {"commit": None, "modified": None}
    if (repo / ".git").exists():
        assert re.fullmatch(r"[0-9a-f]{40}", git_commit.__wrapped__(repo)["commit"])
