"""s3:// paths (pipelines/output/object_store.py) against moto's S3 server on localhost: a clean from s3 to s3
gives the bytes of the same clean on local files, the output-folder rules hold on a bucket, an evaluation
command reads and writes s3, and a store that cannot be used is one line with exit 2."""
import hashlib
import json

import pytest

from pipelines.cli import main
from pipelines.output.folder import MARKER
from pipelines.output.object_store import error_line, is_folder_output, url_fields, url_name

CLEAN = ["--profile", "paper", "--quiet"]


def digests(files: dict) -> dict:
    """{name: sha256} of the tables' Parquet files and stats.json, from {relative name: bytes}."""
    return {name: hashlib.sha256(body).hexdigest() for name, body in files.items()
            if name.endswith(".parquet") or name == "stats.json"}


def local_files(folder) -> dict:
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in folder.rglob("*") if path.is_file()}


@pytest.fixture(scope="module")
def cleaned(tmp_path_factory, small_msrvtt, s3_server):
    """(bucket URL, local input, local output) after one clean on local files and one from s3 to s3."""
    base = tmp_path_factory.mktemp("object-store")
    source = small_msrvtt.write(base / "in")
    assert main(["clean", "--input", str(source), "--output", str(base / "out"), *CLEAN]) == 0
    bucket = s3_server.bucket("cleaning")
    s3_server.upload(source, f"{bucket}/in")
    assert main(["clean", "--input", f"{bucket}/in", "--output", f"{bucket}/out", *CLEAN, *s3_server.flags]) == 0
    return bucket, source, base / "out"


def test_a_clean_from_s3_to_s3_has_the_bytes_of_the_same_clean_on_local_files(cleaned, s3_server):
    bucket, _, local_output = cleaned
    on_s3 = s3_server.objects(f"{bucket}/out")
    expected = digests(local_files(local_output))
    assert any(name.startswith("captions/") for name in expected) and "stats.json" in expected
    assert digests(on_s3) == expected
    # The report, the validation, the manifest and the marker too (the Data Docs' pages are named by the time).
    timed = "validation/validations/"
    assert ({name for name in on_s3 if not name.startswith(timed)}
            == {name for name in local_files(local_output) if not name.startswith(timed)})
    assert json.loads(on_s3[MARKER])["written_by"] == "capclean"
    # The staging prefix is gone once the output is in place.
    names = [entry["Key"] for entry in s3_server.client.list_objects_v2(Bucket="cleaning")["Contents"]]
    assert not [name for name in names if ".partial-" in name]


def test_an_earlier_capclean_output_on_s3_is_replaced_only_with_overwrite(cleaned, s3_server, capsys):
    bucket, _, _ = cleaned
    prefix = bucket[len("s3://"):]
    s3_server.client.put_object(Bucket=prefix, Key="again/leftover.txt", Body=b"from an earlier run")
    s3_server.client.put_object(Bucket=prefix, Key="again/" + MARKER, Body=b'{"written_by": "capclean"}')
    run = ["clean", "--input", f"{bucket}/in", "--output", f"{bucket}/again", *CLEAN, *s3_server.flags]
    assert main(run) == 2
    assert "pass --overwrite" in capsys.readouterr().err
    assert main(run + ["--overwrite"]) == 0
    replaced = s3_server.objects(f"{bucket}/again")
    assert "leftover.txt" not in replaced and MARKER in replaced
    assert digests(replaced) == digests(s3_server.objects(f"{bucket}/out"))


def test_a_prefix_capclean_did_not_write_is_refused_and_left_alone(cleaned, s3_server, capsys):
    bucket, _, _ = cleaned
    s3_server.client.put_object(Bucket=bucket[len("s3://"):], Key="thesis/chapter1.tex", Body=b"my thesis")
    for overwrite in ([], ["--overwrite"]):
        assert main(["clean", "--input", f"{bucket}/in", "--output", f"{bucket}/thesis", *CLEAN, *overwrite,
                     *s3_server.flags]) == 2
        assert f"--output {bucket}/thesis holds objects capclean did not write" in capsys.readouterr().err
    assert s3_server.objects(f"{bucket}/thesis") == {"chapter1.tex": b"my thesis"}


def test_the_input_prefix_is_refused_as_output(cleaned, s3_server, capsys):
    bucket, _, _ = cleaned
    assert main(["clean", "--input", f"{bucket}/in", "--output", f"{bucket}/in", *CLEAN, *s3_server.flags]) == 2
    assert "is or contains the input" in capsys.readouterr().err


def test_an_evaluation_command_reads_and_writes_s3_with_the_settings_in_the_environment(
        cleaned, s3_server, tmp_path, monkeypatch):
    bucket, _, local_output = cleaned
    assert main(["overlap", "--input", str(local_output), "--output", str(tmp_path / "overlap"), "--quiet"]) == 0
    for name, value in s3_server.environment().items():
        monkeypatch.setenv(name, value)
    assert main(["overlap", "--input", f"{bucket}/out", "--output", f"{bucket}/overlap", "--quiet"]) == 0
    on_s3 = s3_server.objects(f"{bucket}/overlap")
    assert MARKER in on_s3
    assert digests(on_s3) == digests(local_files(tmp_path / "overlap"))


@pytest.mark.parametrize("where, says", [
    ("s3://cleaning/no-such-prefix", "s3://cleaning/no-such-prefix: no such object, and no object under it"),
    ("s3://no-such-bucket/in", "s3://no-such-bucket/in: no such object, and no object under it"),
])
def test_a_missing_input_is_one_line_naming_it(cleaned, s3_server, tmp_path, capsys, where, says):
    assert main(["clean", "--input", where, "--output", str(tmp_path / "out"), *CLEAN, *s3_server.flags]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"capclean: error: {says}"


def test_an_unreachable_endpoint_is_one_line(tmp_path, capsys):
    assert main(["clean", "--input", "s3://cleaning/in", "--output", str(tmp_path / "out"), *CLEAN,
                 "--s3_endpoint_url=http://127.0.0.1:1", "--s3_access_key_id=k", "--s3_secret_access_key=s"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("capclean: error: s3://cleaning/in: cannot reach the endpoint http://127.0.0.1:1")
    assert "\n" not in err


def test_no_credentials_is_one_line(s3_server, tmp_path, capsys, monkeypatch):
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "none"))
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "none"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    assert main(["clean", "--input", "s3://cleaning/in", "--output", str(tmp_path / "out"), *CLEAN,
                 f"--s3_endpoint_url={s3_server.endpoint}"]) == 2
    assert capsys.readouterr().err.strip() == ("capclean: error: s3://cleaning/in: no S3 credentials: give "
                                               "--s3_access_key_id and --s3_secret_access_key, or set "
                                               "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")


def test_export_refuses_a_run_on_a_bucket(capsys):
    assert main(["export", "s3://cleaning/out", "--formats", "coco"]) == 2
    assert "give a local path" in capsys.readouterr().err


def test_gs_goes_through_beams_filesystems(tmp_path, capsys):
    """Without Beam's gcp extra, FileSystems has no gs:// filesystem: one line says what to install."""
    pytest.importorskip("apache_beam")
    try:
        import google.cloud.storage  # noqa: F401
        pytest.skip("Beam's gcp extra is installed")
    except ImportError:
        pass
    assert main(["clean", "--input", "gs://bucket/in", "--output", str(tmp_path / "out"), *CLEAN]) == 2
    assert capsys.readouterr().err.strip() == ("capclean: error: gs://bucket/in: reading gs:// needs Beam's gcp "
                                               "extra (pip install 'apache-beam[gcp]')")


# ---------------------------------------------------------------- the pure parts

def test_url_name_is_the_last_part_of_the_path():
    assert url_name("s3://bucket/runs/msrvtt/") == "msrvtt"
    assert url_name("gs://bucket/scores.npy") == "scores.npy"


def test_only_the_fields_naming_a_url_are_taken(small_msrvtt):
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Args:
        input: str
        output: str
        judgments: list
        split: str

    args = Args("s3://b/in", "/tmp/out", ["local.csv", "gs://b/j.csv"], "test")
    assert url_fields(args) == {"input": "s3://b/in", "judgments": ["local.csv", "gs://b/j.csv"]}


def test_output_is_a_folder_only_where_the_command_can_overwrite_it():
    class Folder:
        overwrite = False

    assert is_folder_output("output", Folder())
    assert not is_folder_output("output", object())
    assert not is_folder_output("json", Folder())


def test_the_error_line_is_the_innermost_cause():
    class Wrapped(Exception):
        def __init__(self, details):
            super().__init__("operation failed")
            self.exception_details = details

    inner = Exception("Could not connect to the endpoint URL\nsecond line", None)
    assert error_line(Wrapped({"s3://b/x": Wrapped({"s3://b/x": inner})})) == "Could not connect to the endpoint URL"


def test_a_file_output_on_s3_is_written_once_and_never_replaced_by_a_command_that_refuses_to(
        cleaned, s3_server, tmp_path, monkeypatch, capsys):
    """baseline never replaces a .npy: the object is copied down first, so its own check refuses it."""
    bucket, _, local_output = cleaned
    local = tmp_path / "baseline.npy"
    assert main(["baseline", "--protocol", "full-test", "--input", str(local_output), "--output", str(local)]) == 0
    for name, value in s3_server.environment().items():
        monkeypatch.setenv(name, value)
    run = ["baseline", "--protocol", "full-test", "--input", f"{bucket}/out", "--output", f"{bucket}/baseline.npy"]
    assert main(run) == 0
    assert s3_server.client.get_object(Bucket="cleaning", Key="baseline.npy")["Body"].read() == local.read_bytes()
    capsys.readouterr()
    assert main(run) == 2
    assert "exists; name a new file" in capsys.readouterr().err
