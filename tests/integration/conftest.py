"""Fixtures of the integration tests: one default clean of the real MSR-VTT, shared by every test module that
reads a default run (a clean takes minutes; each module cleaning its own copy made `make test` minutes longer)."""
import pytest

from pipelines.cli import main


@pytest.fixture(scope="session")
def default_run(msrvtt_dir, tmp_path_factory, multi_process):
    """The default clean of MSR-VTT, with the MSR-VTT-format export (which test_idempotence cleans again).
    Tests read it and never write into it."""
    output = tmp_path_factory.mktemp("default-run") / "msrvtt"
    assert main(["clean", "--input", str(msrvtt_dir), "--output", str(output), "--profile", "default",
                 "--export", "msrvtt-json"] + multi_process) == 0
    return output
