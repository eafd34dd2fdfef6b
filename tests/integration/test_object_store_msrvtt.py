"""The full MSR-VTT cleaned from s3:// to s3:// on moto's S3 server (localhost) gives the bytes of the same
clean on local files (the shared default run): issue 41's object-storage figure."""
import hashlib
import time

import pytest

from pipelines.cli import main


def table_digests(files: dict) -> dict:
    """{name: sha256} of every Parquet file and stats.json, from {relative name: bytes}."""
    return {name: hashlib.sha256(body).hexdigest() for name, body in files.items()
            if name.endswith(".parquet") or name == "stats.json"}


@pytest.mark.integration
def test_the_full_msrvtt_from_s3_to_s3_is_byte_identical_to_the_local_run(default_run, msrvtt_dir, s3_server,
                                                                            multi_process):
    bucket = s3_server.bucket("msrvtt")
    for name in ("train_val_annotation.zip", "test_videodatainfo.json.zip"):
        s3_server.client.upload_file(str(msrvtt_dir / name), "msrvtt", f"raw/{name}")
    started = time.monotonic()
    assert main(["clean", "--input", f"{bucket}/raw", "--output", f"{bucket}/clean", "--profile", "default",
                 "--export", "msrvtt-json", *multi_process, *s3_server.flags]) == 0
    print(f"\ns3 to s3 clean of MSR-VTT: {time.monotonic() - started:.1f} s wall (download, clean, publish)")
    on_s3 = table_digests(s3_server.objects(f"{bucket}/clean"))
    local = {path.relative_to(default_run).as_posix(): path.read_bytes() for path in default_run.rglob("*")
             if path.is_file()}
    assert "captions/part-0000000000000000000.parquet" in on_s3
    assert on_s3 == table_digests(local)
